// Registry entries of the baseline collectives: legality checks, builders and
// analytic costs (closed-form step counts; cycles from the step model).
#include <fmt/format.h>

#include <set>

#include "algorithms/families/baselines/baselines.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

int ceil_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

std::vector<int> group_nodes(const Topology& topo, const AlgorithmArgs& args) {
  if (args.group.empty()) {
    std::vector<int> all(size_t(topo.nodes()));
    for (int i = 0; i < topo.nodes(); ++i) all[size_t(i)] = i;
    return all;
  }
  std::set<int> seen;
  for (int g : args.group) {
    if (g < 0 || g >= topo.nodes())
      throw ConfigError("--group", fmt::format("node {} is not in {}; allowed: 0..{}", g, topo.name(), topo.nodes() - 1));
    if (!seen.insert(g).second) throw ConfigError("--group", fmt::format("node {} listed twice; allowed: distinct ids", g));
  }
  if (args.group.size() < 2) throw ConfigError("--group", "needs at least 2 nodes");
  return args.group;
}

int source_rank(const Topology& topo, const AlgorithmArgs& args) {
  const std::vector<int> g = group_nodes(topo, args);
  for (size_t r = 0; r < g.size(); ++r)
    if (g[r] == args.source) return int(r);
  if (args.group.empty())
    throw ConfigError("--source", fmt::format("{} is not a node of {}; allowed: 0..{} or random", args.source,
                                              topo.name(), topo.nodes() - 1));
  throw ConfigError("--source", fmt::format("node {} is not in --group; allowed: a member of the group", args.source));
}

namespace {

void check_common(const Topology& topo, const AlgorithmArgs& args, uint64_t blocks_per_node, bool rooted) {
  if (topo.nodes() < 2) throw ConfigError("--topology", "collectives need at least 2 nodes");
  if (args.words == 0) throw ConfigError("--bytes", "0 bytes; allowed: at least 1");
  if (rooted) source_rank(topo, args);
  check_node_memory(topo, blocks_per_node * args.words);
}

std::string hop_text(const Schedule& s, const Topology& topo) { return fmt::format("h <= {}", max_hops(s, topo)); }

AlgorithmInfo entry(const std::string& name, const std::string& summary, const std::string& params,
                    Schedule (*build)(const Topology&, const AlgorithmArgs&), int blocks_factor, bool rooted,
                    std::function<std::string(const Topology&, const AlgorithmArgs&)> steps_text) {
  AlgorithmInfo a;
  a.name = name;
  a.summary = summary;
  a.topologies = "any (mesh, torus, cube)";
  a.params = params;
  a.check = [blocks_factor, rooted](const Topology& topo, const AlgorithmArgs& args) {
    const int n = int(group_nodes(topo, args).size());
    // blocks_factor: memory blocks per node as a multiple of N (0: one block).
    check_common(topo, args, blocks_factor == 0 ? 1 : uint64_t(blocks_factor) * uint64_t(n), rooted);
  };
  a.build = build;
  a.cost = [build, steps_text](const Topology& topo, const AlgorithmArgs& args, const CostParams& c) {
    const Schedule s = build(topo, args);
    Prediction p;
    p.steps = s.steps;
    p.cycles = step_model_cycles(s, topo, c);
    p.formula = fmt::format("{}; per step: k*alpha + 3(h+1) + F-1 + k*gamma (+copy/combine), alpha={} gamma={}, "
                            "F={} flits, {}",
                            steps_text(topo, args), c.alpha, c.gamma, c.flits(max_message_words(s)), hop_text(s, topo));
    return p;
  };
  return a;
}

int group_size(const Topology& topo, const AlgorithmArgs& args) { return int(group_nodes(topo, args).size()); }

}  // namespace

void add_baselines(std::vector<AlgorithmInfo>& out) {
  out.push_back(entry("rd-broadcast",
                      "broadcast by recursive doubling over the lexicographic node list (RD/U-mesh, U-torus, "
                      "binomial on cubes)",
                      "--source --bytes --group", build_rd_broadcast, 0, true, [](const Topology& t, const AlgorithmArgs& a) {
                        const int n = group_size(t, a);
                        return fmt::format("ceil(log2 {}) = {} steps", n, ceil_log2(n));
                      }));
  out.back().exactly_once = true;
  out.push_back(entry("direct-alltoall",
                      "all-to-all personalized, step z: i sends block i+z to i+z; k-port: k exchanges per step",
                      "--bytes (per block) --ports --group", build_direct_alltoall, 2, false,
                      [](const Topology& t, const AlgorithmArgs& a) {
                        const int n = group_size(t, a), k = std::max(1, a.ports);
                        return fmt::format("ceil(({}-1)/{}) = {} steps", n, k, (n - 1 + k - 1) / k);
                      }));
  out.push_back(entry("ring-allgather", "all-gather around the rank ring, N-1 steps", "--bytes (per node) --group",
                      build_ring_allgather, 1, false, [](const Topology& t, const AlgorithmArgs& a) {
                        const int n = group_size(t, a);
                        return fmt::format("{}-1 = {} steps", n, n - 1);
                      }));
  AlgorithmInfo rs = entry("ring-reduce-scatter", "reduce-scatter around the rank ring, N-1 steps (commutative ops)",
                           "--bytes (per block) --op --group", build_ring_reduce_scatter, 1, false,
                           [](const Topology& t, const AlgorithmArgs& a) {
                             const int n = group_size(t, a);
                             return fmt::format("{}-1 = {} steps", n, n - 1);
                           });
  const auto base_check = rs.check;
  rs.check = [base_check](const Topology& topo, const AlgorithmArgs& args) {
    base_check(topo, args);
    if (!combine_ops()[args.op].commutative) {
      std::string allowed;
      for (const auto& o : combine_ops())
        if (o.fn && o.commutative) allowed += (allowed.empty() ? "" : ", ") + o.name;
      throw ConfigError("--op", fmt::format("ring-reduce-scatter folds in ring order, so '{}' (non-commutative) is "
                                            "not allowed; allowed: {}",
                                            combine_ops()[args.op].name, allowed));
    }
  };
  out.push_back(rs);
  out.push_back(entry("binomial-reduce", "reduce to --source over a binomial tree, rank-ordered fold",
                      "--source --bytes --op --group", build_binomial_reduce, 0, true,
                      [](const Topology& t, const AlgorithmArgs& a) {
                        const int n = group_size(t, a);
                        const bool fwd = !combine_ops()[a.op].commutative && source_rank(t, a) != 0;
                        return fmt::format("ceil(log2 {}){} = {} steps", n, fwd ? " + 1 (forward to root)" : "",
                                           ceil_log2(n) + (fwd ? 1 : 0));
                      }));
  out.push_back(entry("binomial-gather", "gather to --source over a binomial tree (messages double per step)",
                      "--source --bytes (per node) --group", build_binomial_gather, 1, true,
                      [](const Topology& t, const AlgorithmArgs& a) {
                        const int n = group_size(t, a);
                        return fmt::format("ceil(log2 {}) = {} steps", n, ceil_log2(n));
                      }));
  out.push_back(entry("binomial-scatter", "scatter from --source over a binomial tree (messages halve per step)",
                      "--source --bytes (per node) --group", build_binomial_scatter, 1, true,
                      [](const Topology& t, const AlgorithmArgs& a) {
                        const int n = group_size(t, a);
                        return fmt::format("ceil(log2 {}) = {} steps", n, ceil_log2(n));
                      }));
  out.back().exactly_once = true;
}

}  // namespace wn::alg
