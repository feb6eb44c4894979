// The baseline family: legality checks, builders and analytic costs
// (closed-form step counts; cycles from the step model).
#include <fmt/format.h>

#include "algorithms/families/baselines/baselines.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

std::string hop_text(const Schedule& s, const Topology& topo) { return fmt::format("h <= {}", max_hops(s, topo)); }

// blocks_factor: memory blocks per node as a multiple of the group size (0: one block).
// messages: at most n for trees (n - 1, + 1 forward to the root), n (n - 1) for exchanges and rings.
enum class Messages { Tree, AllPairs };

AlgorithmInfo entry(const std::string& name, const std::string& summary, const std::string& params,
                    Schedule (*build)(const Topology&, const AlgorithmArgs&), int blocks_factor, bool rooted,
                    Messages messages, std::function<std::string(const Topology&, const AlgorithmArgs&)> steps_text) {
  AlgorithmInfo a;
  a.name = name;
  a.summary = summary;
  a.params = params;
  a.rooted = rooted;
  a.groups = true;
  a.check = [blocks_factor](const Topology& topo, const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 1");
    const uint64_t n = args.group.size();
    check_node_memory(topo, (blocks_factor == 0 ? 1 : uint64_t(blocks_factor) * n) * args.words);
  };
  a.max_messages = [messages](const Topology&, const AlgorithmArgs& args) {
    const uint64_t n = args.group.size();
    return messages == Messages::Tree ? n : n * (n - 1);
  };
  a.build = build;
  a.cost = [steps_text](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    return step_model_prediction(
        s, topo, c,
        fmt::format("{}; per step: k*alpha + {} + {} + k*gamma (+copy/combine), alpha={} gamma={}, "
                    "F={} flits, {}",
                    steps_text(topo, args), c.hop_term(), c.flit_term(), c.alpha, c.gamma,
                    c.flits(max_message_words(s)), hop_text(s, topo)));
  };
  return a;
}

int group_size(const AlgorithmArgs& args) { return int(args.group.size()); }

std::string log_steps(const Topology&, const AlgorithmArgs& a) {
  const int n = group_size(a);
  return fmt::format("ceil(log2 {}) = {} steps", n, ceil_log2(n));
}

std::string ring_steps(const Topology&, const AlgorithmArgs& a) {
  const int n = group_size(a);
  return fmt::format("{}-1 = {} steps", n, n - 1);
}

}  // namespace

Family family_baselines() {
  Family f;
  f.name = "baselines";
  f.summary = "comparison points: recursive doubling, direct exchange, rings, binomial trees";
  f.topologies = "any (mesh, torus, cube), any --group of at least 2 nodes";
  f.supports = any_network("baselines");
  auto& out = f.algorithms;
  out.push_back(entry("rd-broadcast",
                      "broadcast by recursive doubling over the lexicographic node list (RD/U-mesh, U-torus, "
                      "binomial on cubes)",
                      "--source --bytes --group", build_rd_broadcast, 0, true, Messages::Tree, log_steps));
  out.back().exactly_once = true;
  out.push_back(entry("direct-alltoall",
                      "all-to-all personalized, step z: i sends block i+z to i+z; k-port: k exchanges per step",
                      "--bytes (per block) --ports --group", build_direct_alltoall, 2, false, Messages::AllPairs,
                      [](const Topology&, const AlgorithmArgs& a) {
                        const int n = group_size(a), k = std::max(1, a.ports);
                        return fmt::format("ceil(({}-1)/{}) = {} steps", n, k, (n - 1 + k - 1) / k);
                      }));
  out.push_back(entry("pairwise-exchange",
                      "all-to-all personalized, step z: rank i exchanges one block with i XOR z (perfect matchings "
                      "for N a power of two; otherwise ranks without a partner idle)",
                      "--bytes (per block) --group", build_pairwise_exchange, 2, false, Messages::AllPairs,
                      [](const Topology&, const AlgorithmArgs& a) {
                        int p = 1;
                        while (p < group_size(a)) p *= 2;
                        return fmt::format("{}-1 = {} steps", p, p - 1);
                      }));
  out.push_back(entry("ring-allgather", "all-gather around the rank ring, N-1 steps", "--bytes (per node) --group",
                      build_ring_allgather, 1, false, Messages::AllPairs, ring_steps));
  AlgorithmInfo rs =
      entry("ring-reduce-scatter", "reduce-scatter around the rank ring, N-1 steps (commutative ops)",
            "--bytes (per block) --op --group", build_ring_reduce_scatter, 1, false, Messages::AllPairs, ring_steps);
  const auto base_check = rs.check;
  rs.check = [base_check](const Topology& topo, const AlgorithmArgs& args) {
    base_check(topo, args);
    if (!combine_ops()[args.op].commutative) {
      std::string allowed;
      for (const auto& o : combine_ops())
        if (o.fn && o.commutative) allowed += (allowed.empty() ? "" : ", ") + o.name;
      throw ConfigError(Param::op, fmt::format("ring-reduce-scatter folds in ring order, so '{}' (non-commutative) is "
                                               "not allowed; allowed: {}",
                                               combine_ops()[args.op].name, allowed));
    }
  };
  out.push_back(rs);
  out.push_back(entry("binomial-reduce", "reduce to --source over a binomial tree, rank-ordered fold",
                      "--source --bytes --op --group", build_binomial_reduce, 0, true, Messages::Tree,
                      [](const Topology&, const AlgorithmArgs& a) {
                        const int n = group_size(a);
                        const bool fwd = !combine_ops()[a.op].commutative && a.source_rank != 0;
                        return fmt::format("ceil(log2 {}){} = {} steps", n, fwd ? " + 1 (forward to root)" : "",
                                           ceil_log2(n) + (fwd ? 1 : 0));
                      }));
  out.push_back(entry("binomial-gather", "gather to --source over a binomial tree (messages double per step)",
                      "--source --bytes (per node) --group", build_binomial_gather, 1, true, Messages::Tree,
                      log_steps));
  out.push_back(entry("binomial-scatter", "scatter from --source over a binomial tree (messages halve per step)",
                      "--source --bytes (per node) --group", build_binomial_scatter, 1, true, Messages::Tree,
                      log_steps));
  out.back().exactly_once = true;

  // The transpose needs coordinates, not ranks: no --group.
  AlgorithmInfo tr = entry("direct-transpose",
                           "matrix transpose in (block,block) distribution on an n x n mesh: every off-diagonal "
                           "node sends its block to its mirror in one step (n^2-n messages, XY contention)",
                           "--bytes (per block)", build_direct_transpose, 0, false, Messages::AllPairs,
                           [](const Topology&, const AlgorithmArgs&) { return std::string("1 step"); });
  tr.groups = false;
  tr.max_messages = [](const Topology& topo, const AlgorithmArgs&) { return uint64_t(topo.nodes()); };
  tr.supports = [](const Topology& topo) {
    return topo.kind() == TopoKind::Mesh && topo.dims() == 2 && topo.radix()[0] == topo.radix()[1]
               ? std::string()
               : fmt::format("direct-transpose runs on a square 2D mesh, not {}; allowed: mesh:NxN", topo.name());
  };
  tr.check = [](const Topology& topo, const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 1");
    check_node_memory(topo, 2 * uint64_t(args.words));
  };
  out.push_back(tr);
  // The layouts that are the schedule format's (`wormnet export` declares them; it checks each by ideal execution).
  declare_collectives(f, {{"rd-broadcast", "broadcast"},
                          {"direct-alltoall", "alltoall"},
                          {"pairwise-exchange", "alltoall"},
                          {"ring-allgather", "allgather"},
                          {"ring-reduce-scatter", "reduce_scatter"},
                          {"binomial-reduce", "reduce"},
                          {"binomial-gather", "gather"},
                          {"binomial-scatter", "scatter"}});
  return f;
}

}  // namespace wn::alg
