// The ccl family: `wormnet run --algorithm ccl-<op>` runs one CCL operation
// over --group (default: all nodes) with the algorithm of --ccl-alg, in
// barrier mode unless --nonbarrier. The prediction prints the exact C1, C2,
// C3 of the call (ccl.h's costs()) next to the step model and the paper's
// T = C1 t_s + C2 t_c (§IV.A).
#include <fmt/format.h>

#include "algorithms/bruck/bruck.h"
#include "algorithms/ccl/ccl.h"
#include "algorithms/ccl/tuning.h"
#include "algorithms/families/ccl/partition.h"
#include "algorithms/group.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

bool partitioned(const AlgorithmArgs& a) { return a.options.word("--partition") != "none"; }

// n: the group size (a part's with --partition, whose root is rank --source mod n).
ccl::Call call_of(ccl::Op op, const Topology& topo, const AlgorithmArgs& a, int n = 0) {
  ccl::Call c;
  c.op = op;
  c.n = n ? n : int(a.group.size());
  c.root = n ? a.source_rank % n : a.source_rank;
  c.b = a.words;
  c.op_id = a.op;
  const std::string alg = a.options.word("--ccl-alg");
  c.alg = alg == "auto" || alg == "tuned" ? "" : alg;
  c.barrier = !ccl::has_barrier_mode(op) || a.options.word("--nonbarrier") != "on";
  if (op == ccl::Op::Index) {
    const uint64_t r = a.options.number("--radix");
    c.radix = r ? int(r) : bruck::choose_radix(c.n, 1, c.b, ccl::model_ts(a.cost), ccl::model_tc(a.cost)).r;
  }
  if (op == ccl::Op::Bcast || op == ccl::Op::Reduce || op == ccl::Op::Combine)
    c.packet = uint32_t(a.options.number("--packet") / 4);
  if (op == ccl::Op::Combine) c.kappa = int(a.options.number("--kappa"));
  if (op == ccl::Op::Combine && !n) c.cols = ccl::ring_2d_cols_for(topo, a.group);
  if (op == ccl::Op::Shift) c.shift = int(a.options.number("--shift"));
  if (op == ccl::Op::Index) c.window = int(a.options.number("--window"));
  return c;
}

// --ccl-alg tuned: the table's choice for this size (tuning.h), after checking the table was
// measured for this run; throws ConfigError("--tuning") otherwise.
ccl::Call tuned(ccl::Call c, const Topology& topo, const AlgorithmArgs& a) {
  const std::string name = "ccl-" + ccl::op_names()[size_t(c.op)];
  return ccl::tuned_call(c, a.options.word("--tuning"), "--tuning", ccl::tuning_scope(name, topo.name(), c.n, a));
}

// The call as run. --ccl-alg auto: index runs Bruck with --radix (auto: the
// model's radix); a bcast/reduce given --packet runs nesbt where it can; else
// the linear model of the run's profile picks the algorithm and its knobs.
// --ccl-alg tuned: the measured table's pick.
ccl::Call resolved(ccl::Op op, const Topology& topo, const AlgorithmArgs& a, std::string* why = nullptr, int n = 0) {
  ccl::Call c = call_of(op, topo, a, n);
  if (a.options.word("--ccl-alg") == "tuned") {
    c = tuned(c, topo, a);
    if (why) *why = fmt::format("--ccl-alg tuned: {} from {}", c.alg, a.options.word("--tuning"));
    return c;
  }
  if (!c.alg.empty()) return c;
  return ccl::auto_call(c, a.cost, op == ccl::Op::Index && a.options.number("--radix") != 0, why);
}

// nESBT sends one packet per rank per step, M + d steps at most (M = ceil(b / packet), the tail
// fix one more): the term that grows with the packet count, not the group.
uint64_t packet_messages(const ccl::Call& c) {
  if (c.alg == "dbtree") return ccl::dbtree_messages(c);
  if (c.alg != "nesbt" && c.alg != "circ-graph") return 0;
  const uint64_t pk = c.packet && c.packet < c.b ? c.packet : c.b, n = uint64_t(c.n);
  return n * ((uint64_t(c.b) + pk - 1) / pk + uint64_t(ceil_log2(c.n)) + 1);
}

// The flag a refusal is about.
std::string field_of(const std::string& why) {
  if (why.rfind("kappa", 0) == 0) return "--kappa";
  if (why.rfind("radix", 0) == 0) return "--radix";
  if (why.find("needs a commutative operator") != std::string::npos) return "--op";
  return "--ccl-alg";
}

AlgorithmInfo entry(ccl::Op op, const std::string& summary, bool rooted, std::vector<std::string> extra) {
  const std::string name = "ccl-" + ccl::op_names()[size_t(op)];
  AlgorithmInfo a;
  a.name = name;
  a.summary = summary;
  // Only the operations that combine read an operator; for the others --op would change nothing.
  const bool combines =
      op == ccl::Op::Reduce || op == ccl::Op::Combine || op == ccl::Op::Prefix || op == ccl::Op::ReduceScatter;
  a.params = std::string(rooted ? "--source (orig / dest) " : "") + "--bytes" + (combines ? " --op" : "") + " --group";
  a.options = {"--ccl-alg", "--tuning", "--partition"};
  if (ccl::has_barrier_mode(op)) a.options.push_back("--nonbarrier");  // the others do not read it
  for (auto& e : extra) a.options.push_back(std::move(e));
  a.rooted = rooted;
  a.groups = true;
  a.tuned = true;  // --ccl-alg auto, ccl-index --radix auto
  a.check = [op](const Topology& topo, const AlgorithmArgs& args) {
    int n = 0;
    if (partitioned(args)) {
      if (int(args.group.size()) != topo.nodes())
        throw ConfigError("--partition", "given with --group; allowed: one of --group and --partition");
      n = int(ccl::partition_nodes(topo, args.options.word("--partition")).front().size());
    }
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4 (one word)");
    if (reads_option(find_algorithm("ccl-" + ccl::op_names()[size_t(op)]), "--packet") &&
        args.options.number("--packet") % 4 != 0)
      throw ConfigError("--packet", fmt::format("{} bytes; allowed: whole 32-bit words, a multiple of 4 (0: the "
                                                "whole message)",
                                                args.options.number("--packet")));
    const ccl::Call given = call_of(op, topo, args, n);
    if (!given.alg.empty())
      if (const std::string why = ccl::unsupported(given); !why.empty()) throw ConfigError(field_of(why), why);
    const ccl::Call c = resolved(op, topo, args, nullptr, n);
    check_node_memory(topo, ccl::layout_words(c));
    check_schedule_size("ccl-" + ccl::op_names()[size_t(op)], topo,
                        packet_messages(c) * (partitioned(args) ? uint64_t(topo.nodes() / c.n) : 1), "--packet",
                        "larger packets (0: the whole message)");
  };
  a.max_messages = [op](const Topology& topo, const AlgorithmArgs& args) {
    const uint64_t n = args.group.size();
    const int part =
        partitioned(args) ? int(ccl::partition_nodes(topo, args.options.word("--partition")).front().size()) : 0;
    // Every rank sends at most one message per step (the one-port send-receive of §III; tokens
    // included): n C1, with C1 exact (ccl::costs), so every operation's bound is linear in n
    // except where its steps grow with n (direct index, the ring).
    const ccl::Call c = resolved(op, topo, args, nullptr, part);
    const uint64_t groups = part ? n / uint64_t(part) : 1;
    // The windowed linear index sends w messages per rank per step: n (n-1) in all.
    if (c.op == ccl::Op::Index && c.alg == "linear") return n * (n - 1);
    // The double binary tree's steps come from its schedule: its exact message count instead.
    if (c.op == ccl::Op::Combine && c.alg == "dbtree") return ccl::dbtree_messages(c) * groups;
    return n * uint64_t(ccl::costs(c).c1) + packet_messages(c) * groups;
  };
  a.build = [op](const Topology& topo, const AlgorithmArgs& args) {
    if (!partitioned(args)) return ccl::build(resolved(op, topo, args));
    const auto parts = ccl::partition_nodes(topo, args.options.word("--partition"));
    return ccl::merge_parts(
        parts, [&](int n) { return ccl::build(resolved(op, topo, args, nullptr, n)); }, topo.nodes());
  };
  a.cost = [op](const Topology& topo, const AlgorithmArgs& args, const CostParams& cp, const Schedule& s) {
    std::string why;
    const int n =
        partitioned(args) ? int(ccl::partition_nodes(topo, args.options.word("--partition")).front().size()) : 0;
    const ccl::Call c = resolved(op, topo, args, &why, n);
    const ccl::Costs k = ccl::costs(c);
    Prediction p =
        step_model_prediction(s, topo, cp,
                              fmt::format("{}{}{} {} ({} mode): {}: C1 = {} steps, C2 = {} words, C3 = {} words", why,
                                          why.empty() ? "" : "; ", ccl::op_names()[size_t(op)], ccl::choose(c),
                                          c.barrier ? "barrier" : "nonbarrier", k.formula, k.c1, k.c2, k.c3));
    p.data = fmt::format("C3 = {} words in the network (n = {}, m = {} words)", k.c3, c.n, c.b);
    p.thesis_cycles = k.c1 * ccl::model_ts(cp) + double(k.c2) * ccl::model_tc(cp);
    p.thesis_formula = fmt::format("CCL linear model T = C1*t_s + C2*t_c = {}*{} + {}*{:.3g}", k.c1, ccl::model_ts(cp),
                                   k.c2, ccl::model_tc(cp));
    return p;
  };
  return a;
}

}  // namespace

Family family_ccl() {
  Family f;
  f.name = "ccl";
  f.summary =
      "CCL (Bala, Bruck, Cypher et al.): the ten collective operations in process groups (and MPI's reduce-scatter), "
      "tunable algorithms";
  f.topologies = "any (mesh, torus, cube), any --group of at least 2 nodes";
  f.supports = any_network("ccl");
  std::vector<std::string> names = {"auto", "tuned"};
  for (size_t o = 0; o < ccl::op_names().size(); ++o)
    for (const auto& a : ccl::algorithms(ccl::Op(o)))
      if (std::find(names.begin(), names.end(), a) == names.end()) names.push_back(a);
  OptionSpec nonbarrier{"--nonbarrier",
                        "ccl: a process leaves as soon as its own part is done (default: barrier mode)",
                        "off",
                        {"off", "on"}};
  nonbarrier.switch_only = true;
  f.options = {
      {"--ccl-alg",
       "ccl: the operation's algorithm (auto: the least C1*t_s + C2*t_c for the profile; prints why; tuned: "
       "the measured table of --tuning)",
       "auto", names},
      {"--tuning",
       "ccl --ccl-alg tuned: a tuning table (`wormnet tune --json`) measured for this operation, network and profile",
       "",
       {},
       UINT32_MAX,
       0,
       "",
       false,
       true,
       "--ccl-alg",
       "tuned"},
      nonbarrier,
      bruck::radix_option(),
      {"--kappa",
       "ccl-combine --ccl-alg hybrid: kappa, 0..log2 n (0: butterfly, log2 n: reduce+bcast)",
       "0",
       {},
       12,
       0,
       "",
       false,
       false,
       "--ccl-alg",
       "hybrid"},
      {"--partition",
       "ccl: run the operation in every row / column / even-odd group at once (instead of --group; "
       "the root: rank --source mod the group size)",
       "none",
       {"none", "row", "col", "even-odd"}},
      {"--packet",
       "ccl-bcast, ccl-reduce --ccl-alg nesbt, ccl-bcast --ccl-alg chain or circ-graph, ccl-combine --ccl-alg dbtree: "
       "packet (segment) size in bytes (0: the "
       "whole message)",
       "0",
       {},
       64u << 20,
       0,
       "",
       false,
       false,
       "--ccl-alg",
       "nesbt, chain, circ-graph, dbtree"},
      {"--shift", "ccl-shift: rank i sends to (i + S) mod n (a shift down by s: S = n - s)", "1", {}, 4095},
      {"--window",
       "ccl-index --ccl-alg linear: messages a rank has in flight per step, 1..n-1 (1: the direct exchange)",
       "1",
       {},
       1u << 20,
       1,
       "",
       false,
       false,
       "--ccl-alg",
       "linear"},
  };
  using O = ccl::Op;
  f.algorithms = {
      entry(O::Bcast,
            "bcast from --source: binomial tree (halving order), pipelined nesbt (2^d, --packet), scatter + "
            "all-gather (van de Geijn: scatter-concat, scatter-ring), pipelined chain (--packet), Träff's "
            "circulant graph (circ-graph, any n, --packet); barrier mode: sync-in first",
            true, {"--packet"}),
      entry(O::Reduce,
            "reduce to --source, rank order (non-commutative: to rank 0, then forward); nesbt reversed "
            "(2^d, commutative)",
            true, {"--packet"}),
      entry(O::Combine,
            "allreduce: butterfly (2^d), circulant (commutative), reduce-bcast, hybrid --kappa, ring (commutative), "
            "recursive-doubling, rabenseifner (any n), ring-2d (a mesh's rows and columns), dbtree (double binary "
            "tree, commutative, --packet chunks)",
            false, {"--kappa", "--packet"}),
      entry(O::Scatter, "scatter from --source: binomial or direct", true, {}),
      entry(O::Gather, "gather to --source: binomial or direct", true, {}),
      entry(O::Concat,
            "allgather: the paper's circulant (offsets -1, -2, -4, ...), recursive exchange (2^d), ring, neighbor "
            "exchange (even n)",
            false, {}),
      entry(O::Index,
            "all-to-all personalized: Bruck radix --radix, direct (r = n), or linear with --window messages in flight",
            false, {"--radix", "--window"}),
      entry(O::Prefix, "inclusive scan in rank order: circulant (Kogge-Stone) or up/down tree", false, {}),
      entry(O::Shift, "cyclic shift by --shift in one send-receive step", false, {"--shift"}),
      entry(O::Sync, "barrier: dissemination, ceil(log2 n) token steps", false, {}),
      entry(O::ReduceScatter,
            "reduce-scatter (MPI's, not the paper's): rank r gets block r of the reduction; ring, pairwise "
            "(commutative), recursive halving (any operator, any n)",
            false, {}),
  };
  // The layouts that are the schedule format's (`wormnet export` declares them; it checks each by ideal execution).
  declare_collectives(f, {{"ccl-bcast", "broadcast"},
                          {"ccl-scatter", "scatter"},
                          {"ccl-gather", "gather"},
                          {"ccl-concat", "allgather"},
                          {"ccl-index", "alltoall"}});
  // The operation names of MPI and NCCL (MPI_Allreduce, ncclAllReduce, ...) select CCL's
  // operation, whose --ccl-alg auto picks the algorithm.
  declare_aliases(f, {{"ccl-bcast", {"bcast", "broadcast"}},
                      {"ccl-reduce", {"reduce"}},
                      {"ccl-combine", {"allreduce"}},
                      {"ccl-scatter", {"scatter"}},
                      {"ccl-gather", {"gather"}},
                      {"ccl-concat", {"allgather"}},
                      {"ccl-index", {"alltoall"}},
                      {"ccl-prefix", {"scan"}},
                      {"ccl-sync", {"barrier"}},
                      {"ccl-reduce-scatter", {"reduce_scatter"}}});
  return f;
}

}  // namespace wn::alg
