// The pipelined broadcast for any n (not the paper's: §3 cites Fibonacci trees and cascaded
// hypercubes, C2 = m + ceil(log n), without giving either): Träff's circulant-graph schedule
// (ACM TOPC 2025, doi 10.1145/3735139; MPICH's bcast "circ_graph"), which takes the one-port
// optimum M + q - 1 steps for M packets and q = ceil(log2 n), one step fewer than the cited
// cascaded hypercubes. Skips s_q = n, s_k = ceil(s_(k+1) / 2); in step i, k = i mod q, every
// relative rank v receives from v - s_k one packet chosen by its receive schedule; rank v's
// sender in that step sends exactly that packet, which it received in an earlier step (Träff's
// theorem; CclCosts checks it on data for every n tried). Phases of q steps shift every packet
// number by q; numbers below 0 are skipped and numbers past the last packet are the last
// packet, received once (its later copies are dropped).
#include <fmt/format.h>

#include <map>
#include <mutex>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

struct Circulant {
  int n, q;
  std::vector<int> skip;  // [0..q]
  explicit Circulant(int n_) : n(n_), q(ceil_log2(n_)), skip(size_t(q) + 1) {
    skip[size_t(q)] = n;
    for (int k = q - 1; k >= 0; --k) skip[size_t(k)] = (skip[size_t(k) + 1] + 1) / 2;
  }
  int s(int k) const { return skip[size_t(k)]; }
};

// The skip over which the first packet reaches v (q: v = 0): the smallest skip in v's greedy
// decomposition into decreasing skips.
int base_block(int v, const Circulant& g) {
  int reached = 0;
  for (int k = g.q - 1; k >= 0; --k) {
    if (reached + g.s(k) == v) return k;
    if (reached + g.s(k) < v) reached += g.s(k);
  }
  return g.q;
}

// Träff's receive schedule of relative rank v: the packet (relative to its phase, -q..q-1)
// v receives in round k = 0..q-1. Each other skip index e, largest first, is assigned to the
// next round whose sender can reach v + n through a path of decreasing skips ending in e.
class ReceiveSchedule {
 public:
  ReceiveSchedule(int v, const Circulant& g) : g_(g), target_(g.n + v), free_(size_t(g.q) + 1, true) {
    const int base = base_block(v, g);
    free_[size_t(base)] = false;
    rounds_.assign(size_t(g.q), 0);
    walk(0, 2 * g.n, g.q);
    for (int& e : rounds_) e = e == g.q ? base : e - g.q;
  }
  const std::vector<int>& rounds() const { return rounds_; }

 private:
  void walk(int reached, int below, int from) {
    for (int e = from; e >= 0; --e) {
      if (!free_[size_t(e)] || k_ >= g_.q) continue;
      const int via = reached + g_.s(e);
      if (via > target_ - g_.s(k_) || via >= below) continue;
      if (via <= target_ - g_.s(k_ + 1)) {
        walk(via, below, e);
        if (k_ >= g_.q) return;
      }
      if (reached > target_ - g_.s(k_ + 1)) return;
      below = via;
      rounds_[size_t(k_++)] = e;
      free_[size_t(e)] = false;
    }
  }
  const Circulant& g_;
  const int target_;
  std::vector<bool> free_;
  std::vector<int> rounds_;
  int k_ = 0;
};

uint32_t packet_words(const Call& c) { return c.packet && c.packet < c.b ? c.packet : c.b; }

// Every message of the schedule, in step order: visit(step, from, to, packet) with relative
// ranks. Packets are received once each, so there are (n - 1) M messages.
template <typename Visit>
void messages(int n, int M, Visit&& visit) {
  const Circulant g(n);
  if (g.q == 0) return;
  std::vector<std::vector<int>> sched(static_cast<size_t>(n));
  for (int v = 1; v < n; ++v) sched[size_t(v)] = ReceiveSchedule(v, g).rounds();
  std::vector<bool> has_last(static_cast<size_t>(n), false);
  const int x = (g.q - (M - 1) % g.q) % g.q;  // the first phase starts here so the last one is whole
  for (int i = x; i < x + M + g.q - 1; ++i) {
    const int k = i % g.q, shift = g.q * (i / g.q) - x;
    for (int v = 1; v < n; ++v) {
      int p = sched[size_t(v)][size_t(k)] + shift;
      if (p < 0) continue;
      if (p >= M - 1) {
        if (has_last[size_t(v)]) continue;
        has_last[size_t(v)] = true;
        p = M - 1;
      }
      visit(i - x, (v - g.s(k) + n) % n, v, p);
    }
  }
}

// Steps that move only the last packet, which may be shorter than the rest: they depend on n
// alone once M > 2q + 1 (the first phase is aligned so the last one ends whole), so the cost
// table counts them on a schedule of at most 2q + 1 packets, once per (n, M).
int last_only_steps(int n, int M) {
  const int q = ceil_log2(n);
  if (q == 0) return 0;
  const int m = std::min(M, 2 * q + 1);
  static std::mutex lock;
  static std::map<std::pair<int, int>, int> memo;  // at most 2q + 1 entries per n
  const std::lock_guard<std::mutex> hold(lock);
  if (auto it = memo.find({n, m}); it != memo.end()) return it->second;
  std::vector<int> full(size_t(m + q - 1), 0), any(size_t(m + q - 1), 0);
  messages(n, m, [&](int step, int, int, int p) {
    any[size_t(step)] = 1;
    if (p != m - 1) full[size_t(step)] = 1;
  });
  int only = 0;
  for (size_t t = 0; t < full.size(); ++t) only += any[t] && !full[t];
  return memo[{n, m}] = only;
}

}  // namespace

void gen_circ_graph_bcast(Builder& b, const Call& c, uint32_t tag0) {
  const uint32_t pk = packet_words(c);
  const int M = int((c.b + pk - 1) / pk);
  messages(c.n, M, [&](int step, int from, int to, int p) {
    const uint32_t lo = uint32_t(p) * pk;
    const Range r{lo, std::min(pk, c.b - lo)};
    b.msg(pmod(c.root + from, c.n), pmod(c.root + to, c.n), tag0 + uint32_t(step), {r}, {r});
  });
}

Costs circ_graph_costs(const Call& c) {
  const uint64_t pk = packet_words(c), M = (c.b + pk - 1) / pk, q = uint64_t(ceil_log2(c.n));
  const uint64_t last = c.b - (M - 1) * pk, steps = c.n > 1 ? M + q - 1 : 0;
  const uint64_t only = uint64_t(last_only_steps(c.n, int(M)));
  return {int(steps), (steps - only) * pk + only * last, uint64_t(c.n - 1) * c.b,
          fmt::format("circ-graph (Träff's circulant graph, not the paper's), packets of {} words, M = {}, q = "
                      "ceil(log n): C1 = M + q - 1, C2 = (C1 - L) b + L last (L = {} steps move only the last "
                      "packet), C3 = (n-1) m",
                      pk, M, only)};
}

}  // namespace wn::alg::ccl
