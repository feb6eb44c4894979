// The bruck family: index with radix r and concatenation,
// k-port with k = the port model's channel count, over any --group. The
// prediction is the step model of the run's network next to the paper's
// fully connected linear model T = C1*beta + C2*tau (beta = one-hop start-up
// alpha + gamma + 3*2 router cycles, tau = one cycle per flit).
#include <fmt/format.h>

#include <cmath>

#include "algorithms/bruck/bruck.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

int ranks(const AlgorithmArgs& a) { return int(a.group.size()); }

double beta_of(const CostParams& c) { return c.alpha + c.gamma + 2.0 * c.timing.hop_cycles(); }
double tau_of(const CostParams& c) { return 1.0 / std::max(1, c.words_per_flit); }

int ceil_log(int base, int n) {
  int d = 0;
  for (uint64_t p = 1; p < uint64_t(n); p *= uint64_t(base)) ++d;
  return d;
}

// The radix a run uses, and (for auto) why.
bruck::RadixChoice radix_of(const AlgorithmArgs& a) {
  const int n = ranks(a);
  if (a.options.number("--radix") != 0) return {int(a.options.number("--radix")), 0, ""};
  return bruck::choose_radix(n, std::max(1, a.ports), a.words, beta_of(a.cost), tau_of(a.cost));
}

// Props 2.1-2.4 in the linear model: no algorithm has fewer rounds or less data.
void linear_bounds(Prediction& p, int n, int k, uint32_t m, const CostParams& c, uint64_t c1, uint64_t c2_words) {
  const int lb1 = ceil_log(k + 1, n);
  const double lb2 = double(n - 1) * m / k;
  p.lower_bound = lb1 * beta_of(c) + lb2 * tau_of(c);
  p.lower_bound_formula =
      fmt::format("linear model: C1 >= ceil(log_{} {}) = {}, C2 >= m(n-1)/k = {:.1f} words", k + 1, n, lb1, lb2);
  p.thesis_cycles = double(c1) * beta_of(c) + double(c2_words) * tau_of(c);
  p.thesis_formula =
      fmt::format("Bruck linear model T = C1*beta + C2*tau = {}*{} + {}*{:.3g}", c1, beta_of(c), c2_words, tau_of(c));
}

AlgorithmInfo index_entry() {
  AlgorithmInfo a;
  a.name = "bruck-index";
  a.tuned = true;  // --radix auto
  a.summary =
      "all-to-all personalized (index), radix r, k-port (Bruck et al.): rotate, ceil(log_r n) subphases of "
      "up to r-1 steps (k per round), rotate back";
  a.params = "--bytes (per block) --ports --group";
  a.options = {"--radix"};
  a.groups = true;
  a.check = [](const Topology& topo, const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4 (one word per block)");
    const uint64_t r = args.options.number("--radix");
    if (r > uint64_t(ranks(args)))
      throw ConfigError("--radix", fmt::format("r = {} exceeds the {} ranks; allowed: auto or an integer 2..{}", r,
                                               ranks(args), ranks(args)));
    check_node_memory(topo, 3 * uint64_t(ranks(args)) * args.words);
  };
  a.max_messages = [](const Topology&, const AlgorithmArgs& args) {
    const uint64_t n = uint64_t(ranks(args));
    return n * (n - 1);
  };
  a.build = [](const Topology&, const AlgorithmArgs& args) {
    return bruck::build_index(ranks(args), radix_of(args).r, std::max(1, args.ports), args.words);
  };
  a.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    const int n = ranks(args), k = std::max(1, args.ports);
    const bruck::RadixChoice rc = radix_of(args);
    const int c1 = bruck::index_c1(n, rc.r, k);
    const uint64_t c2 = bruck::index_c2_blocks(n, rc.r, k);
    const int w = ceil_log(rc.r, n);
    Prediction p = step_model_prediction(
        s, topo, c,
        fmt::format("{}{}r = {}, k = {}: C1 = (w-1)ceil((r-1)/k) + ceil((ceil(n/r^(w-1))-1)/k) = {} rounds (w = {}), "
                    "C2 = {} blocks of m = {} words (sum of per-round maxima; paper bound "
                    "ceil(n/r)ceil((r-1)/k)ceil(log_r n) = {})",
                    rc.why, rc.why.empty() ? "" : "; ", rc.r, k, c1, w, c2, args.words,
                    uint64_t((n + rc.r - 1) / rc.r) * uint64_t((rc.r - 1 + k - 1) / k) * uint64_t(w)));
    linear_bounds(p, n, k, args.words, c, uint64_t(c1), c2 * args.words);
    return p;
  };
  return a;
}

AlgorithmInfo concat_entry() {
  AlgorithmInfo a;
  a.name = "bruck-concat";
  a.summary =
      "all-gather (concatenation), k-port (Bruck et al.): d-1 circulant rounds x(k+1), then one round "
      "partitioning the remaining blocks word by word over k offsets; d = ceil(log_{k+1} n)";
  a.params = "--bytes (per node) --ports --group";
  a.groups = true;
  a.check = [](const Topology& topo, const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4 (one word per node)");
    check_node_memory(topo, 2 * uint64_t(ranks(args)) * args.words);
  };
  a.max_messages = [](const Topology&, const AlgorithmArgs& args) {
    const uint64_t n = uint64_t(ranks(args)), k = uint64_t(std::max(1, args.ports));
    return n * k * uint64_t(ceil_log(int(std::min<uint64_t>(k, n - 1)) + 1, int(n)));
  };
  a.build = [](const Topology&, const AlgorithmArgs& args) {
    return bruck::build_concat(bruck::concat_plan(ranks(args), std::max(1, args.ports), args.words));
  };
  a.cost = [](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    const bruck::ConcatPlan plan = bruck::concat_plan(ranks(args), std::max(1, args.ports), args.words);
    const uint64_t c2 = bruck::concat_c2(plan);
    const uint64_t opt = (uint64_t(plan.b) * uint64_t(plan.n - 1) + uint64_t(plan.k) - 1) / uint64_t(plan.k);
    std::string last;
    for (const auto& ar : plan.last)
      last += fmt::format("{}+{} ({} words)", last.empty() ? "" : ", ", ar.offset, ar.cells());
    Prediction p = step_model_prediction(
        s, topo, c,
        fmt::format("k = {}: d = ceil(log_{} {}) = {} rounds, n1 = {}, n2 = {}, last round a = ceil(b*n2/k) = {} "
                    "words by {}: {}; C2 = {} words{}",
                    plan.k, plan.k + 1, plan.n, plan.d, plan.n1, plan.n2, plan.a, plan.partition, last, c2,
                    c2 == opt ? " = ceil(b(n-1)/k), optimal"
                              : fmt::format(" (optimal ceil(b(n-1)/k) = {}: the "
                                            "exceptional range of Prop 4.2)",
                                            opt)));
    linear_bounds(p, plan.n, plan.k, args.words, c, uint64_t(plan.d), c2);
    return p;
  };
  return a;
}

}  // namespace

Family family_bruck() {
  Family f;
  f.name = "bruck";
  f.summary = "Bruck, Ho, Kipnis, Upfal & Weathersby: index (radix r) and concatenation, k-port";
  f.topologies = "any (mesh, torus, cube), any --group of at least 2 nodes";
  f.supports = any_network("bruck");
  f.options = {bruck::radix_option()};
  f.algorithms = {index_entry(), concat_entry()};
  // The layouts that are the schedule format's (`wormnet export` declares them; it checks each by ideal execution).
  declare_collectives(f, {{"bruck-index", "alltoall"}, {"bruck-concat", "allgather"}});
  return f;
}

}  // namespace wn::alg
