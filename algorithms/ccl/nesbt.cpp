// Pipelined broadcast on d edge-disjoint spanning binomial trees of the
// d-cube (n = 2^d; the paper's [32],[33], priced C2 = m + log n - 1; the
// schedule below is ours): the message in M = ceil(m/b) packets, tree j
// carries the packets p = j (mod d), every rank uses dimension t mod d in step
// t; the "tail fix" re-sends the last packet from the idle source so the
// whole broadcast takes M + d - 1 steps (the paper's T = (sqrt(m t_c) +
// sqrt(log n t_s))^2 is the optimum of M + d steps). With b = m (M = 1) it is the binomial
// tree in doubling order. The reduce runs the same edges backwards in time
// (commutative operators: the subtrees are not rank intervals).
#include <optional>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

bool bit(int v, int i) { return (v >> i) & 1; }

// The packet relative rank v sends in step t on dimension t mod d, if any.
std::optional<int> send_rule(int v, int t, int d, int M) {
  const int delta = t % d, jl = (M - 1) % d;
  if (v == 0) {
    if (t < M) return t;
    if (t <= M + d - 2) return M - 1;  // tail fix
    return std::nullopt;
  }
  if (!bit(v, delta)) {  // upward edge v -> v + 2^delta
    int j = -1;
    for (int s = 1; s <= d && j < 0; ++s)
      if (bit(v, (delta + s) % d)) j = (delta + s) % d;
    const int p = t - ((delta - j) % d + d) % d;
    if (p >= 0 && p < M) return p;
    if (t >= M && t <= M + d - 2 && !bit(v, jl)) {
      // every set bit of v among the (delta - jl - 1) mod d dimensions after jl
      const int span = ((delta - jl - 1) % d + d) % d;
      int allowed = 0;
      for (int s = 1; s <= span; ++s) allowed |= 1 << ((jl + s) % d);
      if ((v & ~allowed) == 0) return M - 1;
    }
    return std::nullopt;
  }
  if (v == (1 << delta)) return std::nullopt;  // downward edge: the last level of tree delta
  const int p = t - d;
  if (p >= 0 && p < M) return p;
  return std::nullopt;
}

struct Hop {
  int t, from, to, packet;  // ranks
};

std::vector<Hop> hops(const Call& c) {
  const int d = ceil_log2(c.n);
  const uint32_t pk = c.packet && c.packet < c.b ? c.packet : c.b;
  const int M = int((c.b + pk - 1) / pk);
  std::vector<Hop> out;
  for (int t = 0; t < M + d - 1; ++t)
    for (int v = 0; v < c.n; ++v)
      if (const auto p = send_rule(v, t, d, M)) out.push_back({t, v ^ c.root, (v ^ (1 << (t % d))) ^ c.root, *p});
  return out;
}

Range packet_range(const Call& c, int p, uint32_t base) {
  const uint32_t pk = c.packet && c.packet < c.b ? c.packet : c.b;
  const uint32_t lo = uint32_t(p) * pk;
  return {base + lo, std::min(pk, c.b - lo)};
}

}  // namespace

int nesbt_steps(const Call& c) {
  const uint32_t pk = c.packet && c.packet < c.b ? c.packet : c.b;
  return int((c.b + pk - 1) / pk) + ceil_log2(c.n) - 1;
}

void gen_nesbt_bcast(Builder& b, const Call& c, uint32_t tag0) {
  for (const Hop& h : hops(c)) {
    const Range r = packet_range(c, h.packet, 0);
    b.msg(h.from, h.to, tag0 + uint32_t(h.t), {r}, {r});
  }
}

void gen_nesbt_reduce(Builder& b, const Call& c, uint32_t tag0) {
  for (int r = 0; r < c.n; ++r) b.before(r, tag0, copy_op({0, c.b}, {c.b, c.b}));
  const int last = nesbt_steps(c) - 1;
  for (const Hop& h : hops(c)) {
    const Range r = packet_range(c, h.packet, c.b);
    b.msg(h.to, h.from, tag0 + uint32_t(last - h.t), {r}, {r}, Combine{c.op_id, false});
  }
}

}  // namespace wn::alg::ccl
