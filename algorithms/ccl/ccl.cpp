// The CCL call -> schedule: algorithm choice, barrier-mode wrappers (the paper's
// §III: sync-in before a fan-out, sync-out after a fan-in; shift then sync is
// ours), the exact cost formulas (ours where the paper approximates), and the
// test payloads with their oracles.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "algorithms/bruck/bruck.h"
#include "algorithms/ccl/builder.h"
#include "algorithms/data_words.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

bool pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }
bool fan_out_op(Op op) { return op == Op::Bcast || op == Op::Scatter; }
bool fan_in_op(Op op) { return op == Op::Reduce || op == Op::Gather || op == Op::Prefix; }
uint64_t popcounts(int n) {  // s(n) = sum of popcount(v), v < n
  uint64_t s = 0;
  for (int v = 0; v < n; ++v) s += uint64_t(__builtin_popcount(unsigned(v)));
  return s;
}

}  // namespace

const std::vector<std::string>& op_names() {
  static const std::vector<std::string> v = {"bcast", "reduce", "combine", "scatter", "gather",        "concat",
                                             "index", "prefix", "shift",   "sync",    "reduce-scatter"};
  return v;
}

Op op_of(const std::string& name) {
  for (size_t i = 0; i < op_names().size(); ++i)
    if (op_names()[i] == name) return Op(i);
  throw std::out_of_range("ccl op " + name);
}

bool has_barrier_mode(Op op) {
  return op != Op::Combine && op != Op::Concat && op != Op::Index && op != Op::Sync && op != Op::ReduceScatter;
}

const std::vector<std::string>& algorithms(Op op) {
  static const std::vector<std::vector<std::string>> v = {
      {"binomial", "nesbt", "scatter-concat", "scatter-ring", "chain", "circ-graph"},
      {"binomial", "nesbt"},
      {"butterfly", "circulant", "reduce-bcast", "hybrid", "ring", "recursive-doubling", "rabenseifner", "ring-2d",
       "dbtree"},
      {"binomial", "direct"},
      {"binomial", "direct"},
      {"circulant", "recursive-exchange", "ring", "neighbor-exchange", "recursive-doubling"},
      {"bruck", "direct", "linear"},
      {"circulant", "tree"},
      {"send-receive"},
      {"dissemination"},
      {"ring", "halving", "pairwise"},
  };
  return v[size_t(op)];
}

std::string choose(const Call& c) {
  if (!c.alg.empty()) return c.alg;
  if (c.op == Op::Combine)
    return pow2(c.n) ? "butterfly" : combine_ops()[c.op_id].commutative ? "circulant" : "reduce-bcast";
  if (c.op == Op::ReduceScatter) return combine_ops()[c.op_id].commutative ? "ring" : "halving";
  return algorithms(c.op).front();
}

std::string unsupported(const Call& c) {
  const std::string alg = choose(c);
  const auto& algs = algorithms(c.op);
  if (std::find(algs.begin(), algs.end(), alg) == algs.end()) {
    std::string allowed;
    for (const auto& a : algs) allowed += (allowed.empty() ? "" : ", ") + a;
    return fmt::format("'{}' is not an algorithm of {}; allowed: {}", alg, op_names()[size_t(c.op)], allowed);
  }
  if ((alg == "butterfly" || alg == "hybrid" || alg == "recursive-exchange" || alg == "nesbt") && !pow2(c.n))
    return fmt::format("{} needs a power-of-two group, not n = {}; allowed: {}", alg, c.n,
                       c.op == Op::Combine  ? "circulant, reduce-bcast, recursive-doubling, rabenseifner"
                       : c.op == Op::Concat ? "circulant"
                                            : "binomial");
  if (alg == "neighbor-exchange" && c.n % 2)
    return fmt::format(
        "neighbor-exchange pairs the ranks and needs an even group, not n = {}; allowed: circulant, ring", c.n);
  if (alg == "nesbt" && c.op == Op::Reduce && !combine_ops()[c.op_id].commutative)
    return fmt::format("the pipelined (nesbt) reduce needs a commutative operator, not '{}'; allowed: binomial",
                       combine_ops()[c.op_id].name);
  if (alg == "hybrid" && (c.kappa < 0 || c.kappa > ceil_log2(c.n)))
    return fmt::format("kappa = {} with n = {}; allowed: 0..{}", c.kappa, c.n, ceil_log2(c.n));
  if (alg == "ring-2d" && (ring_2d_cols(c) < 1 || c.n % ring_2d_cols(c)))
    return fmt::format("ring-2d with {} ranks per row does not tile n = {}; allowed: a divisor of n", ring_2d_cols(c),
                       c.n);
  if ((alg == "ring" || alg == "pairwise") && c.op == Op::ReduceScatter && !combine_ops()[c.op_id].commutative)
    return fmt::format(
        "the {} reduce-scatter folds in ring order and needs a commutative operator, not '{}'; allowed: "
        "halving",
        alg, combine_ops()[c.op_id].name);
  if ((alg == "ring" || alg == "ring-2d" || alg == "dbtree") && c.op == Op::Combine &&
      !combine_ops()[c.op_id].commutative)
    return fmt::format(
        "the {} combine folds out of rank order and needs a commutative operator, not '{}'; allowed: circulant, "
        "recursive-doubling, rabenseifner, reduce-bcast, butterfly and hybrid (n = 2^d)",
        alg, combine_ops()[c.op_id].name);
  if (c.op == Op::Index && alg == "linear" && (c.window < 1 || c.window > c.n - 1))
    return fmt::format("window {} with n = {}; allowed: 1..{}", c.window, c.n, c.n - 1);
  if (c.op == Op::Index && alg == "bruck" && (c.radix < 2 || c.radix > c.n))
    return fmt::format("radix {} with n = {}; allowed: 2..{}", c.radix, c.n, c.n);
  return "";
}

Costs costs(const Call& c) {
  const int n = c.n, k = ceil_log2(n);
  const uint64_t b = c.b, nn = uint64_t(n);
  const std::string alg = choose(c);
  Costs r;
  auto set = [&](int c1, uint64_t c2, uint64_t c3, std::string f) { r = {c1, c2, c3, std::move(f)}; };
  switch (c.op) {
    case Op::Bcast:
    case Op::Reduce:
      if (alg == "nesbt") {
        const uint64_t pk = c.packet && c.packet < c.b ? c.packet : c.b, steps = uint64_t(nesbt_steps(c));
        set(int(steps), k == 1 ? b : steps * pk, (nn - 1) * b,
            fmt::format("nesbt, packets of {} words, M = {}: C1 = M+d-1, C2 = (M+d-1) b (d = 1: m), C3 = (n-1) m", pk,
                        (b + pk - 1) / pk));
        break;
      }
      if (alg == "scatter-concat" || alg == "scatter-ring") {
        const uint64_t p = (b + nn - 1) / nn;
        const bool ring = alg == "scatter-ring";
        set(ring ? k + n - 1 : 2 * k, 2 * (nn - 1) * p, (popcounts(n) + nn * (nn - 1)) * p,
            fmt::format("scatter+{} (non-paper baseline), pieces of p = ceil(m/n) = {} words: C1 = {}, C2 = 2(n-1) p, "
                        "C3 = (s(n) + n(n-1)) p",
                        ring ? "ring all-gather" : "concat", p, ring ? "k + n - 1" : "2k"));
        break;
      }
      if (alg == "circ-graph") {
        r = circ_graph_costs(c);
        break;
      }
      if (alg == "chain") {
        const uint64_t pk = chain_packet(c), segs = (b + pk - 1) / pk, steps = segs + nn - 2;
        // Step t sends segments t - v (v = 0 .. n-2): its largest is a whole segment, but in the
        // last step (only the last, shorter segment moves) and when there is one segment.
        const uint64_t c2 = segs == 1 ? steps * b : (steps - 1) * pk + (b - (segs - 1) * pk);
        set(int(steps), c2, (nn - 1) * b,
            fmt::format("chain, segments of {} words, M = {}: C1 = M + n - 2, C2 = (C1 - 1) segment + the last, "
                        "C3 = (n-1) m",
                        pk, segs));
        break;
      }
      if (c.op == Op::Bcast) {
        set(k, k * b, (nn - 1) * b, "binomial: C1 = k, C2 = k m, C3 = (n-1) m");
        break;
      }
      if (!combine_ops()[c.op_id].commutative && c.root != 0)
        set(k + 1, (k + 1) * b, nn * b, "binomial to rank 0 + forward: C1 = k+1, C2 = (k+1) m, C3 = n m");
      else
        set(k, k * b, (nn - 1) * b, "binomial: C1 = k, C2 = k m, C3 = (n-1) m");
      break;
    case Op::Combine:
      if (alg == "butterfly")
        set(k, k * b, nn * k * b, "butterfly: C1 = d, C2 = d m, C3 = n d m");
      else if (alg == "circulant" && !combine_ops()[c.op_id].commutative)
        r = circulant_ordered_costs(c);
      else if (alg == "circulant")
        set(k, k * b, nn * k * b, "circulant: C1 = k, C2 = k m, C3 = n k m");
      else if (alg == "dbtree")
        r = dbtree_costs(c);
      else if (alg == "recursive-doubling") {
        const int d = pow2(n) ? k : k - 1, rem = n - (1 << d), c1 = d + (rem ? 2 : 0);
        set(c1, uint64_t(c1) * b, (2 * uint64_t(rem) + (uint64_t(1) << d) * uint64_t(d)) * b,
            "recursive doubling (fold): C1 = floor(log2 n) (+2 unless n = 2^d), C2 = C1 m, C3 = (2 rem + 2^d d) m");
      } else if (alg == "rabenseifner") {
        const int d = pow2(n) ? k : k - 1;
        const uint64_t rem = nn - (uint64_t(1) << d);
        uint64_t halves = 0;  // the largest message of halving step j: ceil(m / 2^(j+1))
        for (int j = 1; j <= d; ++j) halves += (b + (uint64_t(1) << j) - 1) >> j;
        set(2 * d + (rem ? 2 : 0), 2 * halves + (rem ? 2 * b : 0), 2 * ((uint64_t(1) << d) - 1) * b + 2 * rem * b,
            "Rabenseifner (fold): C1 = 2 floor(log2 n) (+2 unless n = 2^d), C2 = 2 sum_j ceil(m/2^j) (+2m), "
            "C3 = 2(2^d - 1) m (+2 rem m)");
      } else if (alg == "ring-2d") {
        const uint64_t cols = uint64_t(ring_2d_cols(c)), rows = nn / cols, row = (b + cols - 1) / cols;
        set(int(2 * (cols - 1) + 2 * (rows - 1)), 2 * (cols - 1) * row + 2 * (rows - 1) * ((row + rows - 1) / rows),
            2 * rows * (cols - 1) * b + 2 * (rows - 1) * b,
            fmt::format("2D ring, {} x {} ranks: C1 = 2(c-1) + 2(r-1), C2 = 2(c-1) ceil(m/c) + 2(r-1) "
                        "ceil(ceil(m/c)/r), C3 = 2r(c-1) m + 2(r-1) m",
                        rows, cols));
      } else if (alg == "ring")
        set(2 * (n - 1), 2 * (nn - 1) * ((b + nn - 1) / nn), 2 * (nn - 1) * b,
            "ring: C1 = 2(n-1), C2 = 2(n-1) ceil(m/n), C3 = 2(n-1) m");
      else if (alg == "reduce-bcast")
        set(2 * k, 2 * k * b, 2 * (nn - 1) * b, "reduce+bcast: C1 = 2k, C2 = 2k m, C3 = 2(n-1) m");
      else
        set(k + c.kappa, (k + c.kappa) * b, b * (nn >> c.kappa) * uint64_t(k + (2 << c.kappa) - c.kappa - 2),
            "hybrid: C1 = d+kappa, C2 = (d+kappa) m, C3 = m (n/2^kappa)(d + 2^(kappa+1) - kappa - 2)");
      break;
    case Op::Scatter:
    case Op::Gather:
      if (alg == "direct")
        set(n - 1, (nn - 1) * b, (nn - 1) * b, "direct: C1 = n-1, C2 = C3 = (n-1) b");
      else
        set(k, (nn - 1) * b, popcounts(n) * b, "binomial: C1 = k, C2 = (n-1) b, C3 = s(n) b");
      break;
    case Op::Concat:
      if (alg == "ring")
        set(n - 1, (nn - 1) * b, nn * (nn - 1) * b, "ring: C1 = n-1, C2 = (n-1) m, C3 = n(n-1) m");
      else if (alg == "recursive-doubling")
        r = concat_doubling_costs(c);
      else if (alg == "neighbor-exchange")
        set(n / 2, (nn - 1) * b, nn * (nn - 1) * b, "neighbor exchange: C1 = n/2, C2 = (n-1) m, C3 = n(n-1) m");
      else
        set(k, (nn - 1) * b, nn * (nn - 1) * b, alg + ": C1 = k, C2 = (n-1) m, C3 = n(n-1) m");
      break;
    case Op::Index: {
      if (alg == "linear") {
        const int steps = (n - 1 + c.window - 1) / c.window;
        set(steps, uint64_t(steps) * b, nn * (nn - 1) * b,
            fmt::format("linear, window {}: C1 = ceil((n-1)/w), C2 = C1 b (a step's largest message; a rank sends w "
                        "of them in it), C3 = n(n-1) b",
                        c.window));
        break;
      }
      const int r = alg == "direct" ? n : c.radix;
      uint64_t digits = 0;
      for (int j = 1; j < n; ++j)
        for (int v = j; v; v /= r) digits += v % r != 0;
      set(bruck::index_c1(n, r, 1), digits * b, nn * digits * b,
          fmt::format("Bruck r = {}: C1 = (w-1)(r-1) + ceil(n/r^(w-1)) - 1, C2 = b sum nz_r(j), C3 = n C2", r));
      break;
    }
    case Op::Prefix:
      if (alg == "tree") {
        uint64_t chain = 0;  // ranks whose range starts at rank 0: no down-sweep message
        for (int u = 1; u < n; ++u) chain += u + (u & -u) >= n;
        set(2 * k - 1, uint64_t(2 * k - 1) * b, (2 * (nn - 1) - chain) * b, "tree: C1 = 2k-1, C2 = (2k-1) m");
      } else {
        uint64_t c3 = 0;
        for (int j = 0; j < k; ++j) c3 += nn - (uint64_t(1) << j);
        set(k, k * b, c3 * b, "circulant: C1 = k, C2 = k m, C3 = m sum_(j<k) (n - 2^j)");
      }
      break;
    case Op::Shift:
      if (pmod(c.shift, n) == 0)
        set(0, 0, 0, "shift by a multiple of n: a local copy");
      else
        set(1, b, nn * b, "send-receive: C1 = 1, C2 = m, C3 = n m");
      break;
    case Op::Sync:
      set(k, 0, 0, "dissemination: C1 = k, no data");
      break;
    case Op::ReduceScatter:
      r = reduce_scatter_costs(c);
      break;
  }
  const bool wrapped = c.barrier && (fan_out_op(c.op) || fan_in_op(c.op) || (c.op == Op::Shift && r.c1 > 0));
  if (wrapped) {
    r.c1 += k;
    r.formula += fmt::format("; barrier mode: + {} token steps ({})", k,
                             fan_out_op(c.op)    ? "sync-in"
                             : c.op == Op::Shift ? "sync"
                                                 : "sync-out");
  }
  return r;
}

}  // namespace wn::alg::ccl
