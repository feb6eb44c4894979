// The hypercube family (Mathur & Johnsson, Mathur & Johnsson): cube:d only, the
// whole cube (no --group), options --order, --indices, --elements.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "algorithms/families/hypercube/hypercube.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

// --elements sizes node memory itself (M words per node, whatever --bytes says): M x N words of
// simulated memory must fit the host limit --bytes has (check_node_memory), else one line naming
// --elements and its largest value on this network.
void check_elements(const Topology& topo, const AlgorithmArgs& args) {
  const uint64_t m = args.options.number("--elements");
  if (m == 0) return;
  const uint64_t n = uint64_t(topo.nodes()), limit = node_memory_limit_bytes(), max_m = limit / (4 * n);
  if (m > max_m)
    throw ConfigError("--elements",
                      fmt::format("{} elements per node need {} MiB of simulated node memory on {} ({} nodes x {} "
                                  "words); allowed: at most {} elements on {} here ({} MiB: {}), or 0",
                                  m, (m * n * 4) >> 20, topo.name(), n, m, max_m, topo.name(), limit >> 20,
                                  node_memory_limit_source()));
}

AlgorithmInfo cube_entry(const std::string& name, const std::string& summary, const std::string& params,
                         std::vector<std::string> options, Schedule (*build)(const Topology&, const AlgorithmArgs&),
                         uint64_t blocks_words_factor, bool commutative_only, const std::string& model,
                         uint64_t (*messages)(uint64_t n, uint64_t d, uint64_t m)) {
  AlgorithmInfo a;
  a.name = name;
  a.summary = summary;
  a.params = params;
  a.options = std::move(options);
  const bool reads_elements = std::find(a.options.begin(), a.options.end(), "--elements") != a.options.end();
  a.check = [name, blocks_words_factor, commutative_only, reads_elements](const Topology& topo,
                                                                          const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4 (one element)");
    // With --elements the blocks are sized by M, not by --bytes: M is what must fit.
    if (reads_elements && args.options.number("--elements") > 0)
      check_elements(topo, args);
    else
      check_node_memory(topo, blocks_words_factor * uint64_t(topo.nodes()) * args.words);
    if (commutative_only && !combine_ops()[args.op].commutative)
      throw ConfigError(
          "--op", fmt::format("{} combines in different orders on different nodes; allowed: sum, max, min", name));
  };
  a.max_messages = [messages](const Topology& topo, const AlgorithmArgs& args) {
    return messages(uint64_t(topo.nodes()), uint64_t(topo.dims()), args.words);
  };
  a.build = build;
  const bool elements = std::find(a.options.begin(), a.options.end(), "--elements") != a.options.end();
  a.cost = [model, elements](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    Prediction p;
    // With --elements the result blocks hold c = ceil(M/N) elements, not --bytes.
    double mprime = args.words;
    if (elements && total_elements(args) > 0) {
      const uint64_t m = total_elements(args), cb = (m + uint64_t(topo.nodes()) - 1) / uint64_t(topo.nodes());
      mprime = double(cb);
      p.data = fmt::format("M = {} elements per node in CM-200 blocks of c = {}", m, cb);
    }
    p.steps = s.steps;
    p.cycles = step_model_cycles(s, topo, c);
    p.formula = fmt::format("{} = {} steps; step model with alpha={} gamma={}, largest message F={} flits", model,
                            s.steps, c.alpha, c.gamma, c.flits(max_message_words(s)));
    // All-port lower bound (ours, for the efficiency column): max(d startups, (N-1) M' words through d links of one
    // flit per cycle).
    const int d = topo.dims();
    const double words = double(topo.nodes() - 1) * mprime / (double(d) * c.words_per_flit);
    p.lower_bound = std::max(double(d) * c.alpha, words);
    p.lower_bound_formula =
        fmt::format("max(d*alpha, (N-1)M'/(d*words_per_flit)) = max({}, {:.0f})", d * c.alpha, words);
    return p;
  };
  return a;
}

}  // namespace

Family family_hypercube() {
  Family f;
  f.name = "hypercube";
  f.summary = "Mathur & Johnsson: Hamiltonian-cycle all-to-all broadcast and reduction, and the paper's alternatives";
  f.topologies = fmt::format("cube:d only (d = 1..{}), the whole cube", max_cube_dims());
  f.supports = [](const Topology& topo) {
    return topo.kind() == TopoKind::Cube
               ? std::string()
               : fmt::format("the hypercube family runs on a binary hypercube, not {}; allowed: cube:1..cube:{}",
                             topo.name(), max_cube_dims());
  };
  f.options = {
      {"--order", "data order: blocks by binary or Gray-coded node number", "binary", {"binary", "gray"}},
      {"--indices",
       "hc-dcycles reorder addresses: computed by the processor or moved with the data",
       "computed",
       {"computed", "moved"}},
      {"--elements",
       "hc-dcycles-reduce: M elements per node in the CM-200's uneven blocks (0: N blocks of --bytes)",
       "0",
       {},
       UINT32_MAX},
  };
  const std::vector<std::string> order{"--order"};
  // Upper bounds on the messages (schedule-size guard): per step every node sends on one link
  // (single cycle) or on all d (d-cycles, trees); nESBT pipelines N sources over d trees.
  auto ring = [](uint64_t n, uint64_t, uint64_t) { return n * (n - 1); };
  auto dring = [](uint64_t n, uint64_t d, uint64_t) { return n * (n - 1) * d; };
  auto stages = [](uint64_t n, uint64_t d, uint64_t) { return n * d * d; };
  auto gather_spread = [](uint64_t n, uint64_t d, uint64_t m) {
    // The chunk count of spread_chunks, computed without 32-bit overflow.
    const uint64_t part = (n * m + d - 1) / d, words = uint64_t(std::ceil(std::sqrt(double(part))));
    return n + d * n * ((part + words - 1) / words);
  };
  auto& out = f.algorithms;
  out.push_back(cube_entry("hc-single", "all-to-all broadcast along one Hamiltonian cycle (Gray ring), then reorder",
                           "--bytes (per node)", order, build_hc_single_broadcast, 2, false, "2^d - 1", ring));
  out.push_back(cube_entry(
      "hc-dcycles", "all-to-all broadcast on d rotated Hamiltonian cycles, all d dimensions every step",
      "--bytes (per node)", {"--order", "--indices"}, build_hc_dcycles_broadcast, 3, false, "2^d - 1", dring));
  out.push_back(cube_entry("hc-single-reduce", "all-to-all reduction (reduce-scatter) along one Hamiltonian cycle",
                           "--bytes (per result block) --op", order, build_hc_single_reduce, 1, false, "2^d - 1",
                           ring));
  out.push_back(cube_entry("hc-dcycles-reduce", "all-to-all reduction on d rotated Hamiltonian cycles",
                           "--bytes (per result block) --op", {"--order", "--elements"}, build_hc_dcycles_reduce, 1,
                           false, "2^d - 1", dring));
  out.push_back(cube_entry("butterfly", "all-to-all broadcast by rotated spanning binomial trees (butterfly), d stages",
                           "--bytes (per node)", order, build_hc_butterfly, 1, false, "d", stages));
  out.push_back(
      cube_entry("reduce-spread", "all-to-all reduction by butterfly all-reduce of the whole vector, then subselection",
                 "--bytes (per result block) --op (commutative)", order, build_hc_reduce_spread, 2, true, "d", stages));
  out.push_back(cube_entry("nesbt",
                           "all-to-all broadcast one source at a time over d edge-disjoint spanning binomial trees",
                           "--bytes (per node)", order, build_hc_nesbt, 1, false, "N (d+1) (N for d = 1)", dring));
  out.push_back(cube_entry("send-spread",
                           "gather to node 0 through the router, then broadcast of the array on all d channels "
                           "(d edge-disjoint spanning binomial trees)",
                           "--bytes (per node)", order, build_hc_send_spread, 1, false,
                           "tree height (d + 1; 1 for d = 1) + chunks", gather_spread));
  return f;
}

}  // namespace wn::alg
