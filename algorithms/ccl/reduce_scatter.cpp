// reduce-scatter (MPI_Reduce_scatter_block; not one of the CCL paper's operations): every rank
// holds n blocks, rank r ends with block r of their reduction over all ranks, in rank order.
// IN [0,nb) x_me (read-only), OUT [nb, nb+b) the result, ACC [nb+b, 2nb+b) the blocks being
// reduced. The algorithms are MPICH's:
//   ring         n-1 steps: block j starts at rank j+1 and is passed on and folded around the
//                ring until it reaches rank j (commutative operators: it folds in ring order);
//   pairwise     n-1 steps: in step t rank r sends its block r+t straight to rank r+t and folds
//                the block r that rank r-t sends it (commutative operators);
//   halving      recursive halving: partners 1, 2, 4, ... apart swap the half of their blocks the
//                other keeps (the blocks whose index has the partner's bit), the lower rank's
//                value on the left, so any associative operator; other n by MPICH's fold of the
//                rem = n - 2^floor(log2 n) extra ranks (each odd rank below 2 rem first folds in its
//                even neighbour's whole vector and at the end hands it its block).
#include <algorithm>
#include <vector>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

struct Layout {
  uint32_t n, b;
  Range in(int j) const { return {uint32_t(j) * b, b}; }
  Range out() const { return {n * b, b}; }
  Range acc(int j) const { return {n * b + b + uint32_t(j) * b, b}; }
};

// The blocks survivor s still holds after halving steps 0..j-1 (of survivors agreeing with s in
// bits 0..j-1), as ranges of ACC.
std::vector<Range> held(const Survivors& f, const Layout& l, int s, int j, bool partner_half) {
  std::vector<Range> out;
  for (int v = 0; v < f.np; ++v) {
    const int low = (1 << j) - 1;
    if ((v & low) != (s & low)) continue;
    if (partner_half != (((v >> j) & 1) != ((s >> j) & 1))) continue;
    for (int r = f.first_rank(v); r <= f.rank_of(v); ++r) out.push_back(l.acc(r));
  }
  return out;
}

}  // namespace

void gen_reduce_scatter(Builder& b, const Call& c, uint32_t tag0) {
  const int n = c.n;
  const Layout l{uint32_t(n), c.b};
  const bool halving = c.alg == "halving";
  if (c.alg == "pairwise") {
    for (int me = 0; me < n; ++me) b.before(me, tag0, copy_op(l.in(me), l.out()));
    for (int t = 1; t < n; ++t)
      for (int me = 0; me < n; ++me) {
        const int to = (me + t) % n;
        b.msg(me, to, tag0 + uint32_t(t - 1), {l.in(to)}, {l.out()}, Combine{c.op_id, false});
      }
    return;
  }
  for (int me = 0; me < n; ++me) b.before(me, tag0, copy_op({0, l.n * l.b}, {l.acc(0).offset, l.n * l.b}));
  if (!halving) {
    for (int t = 0; t + 1 < n; ++t)
      for (int me = 0; me < n; ++me) {
        const int j = pmod(me - t - 1, n);
        b.msg(me, (me + 1) % n, tag0 + uint32_t(t), {l.acc(j)}, {l.acc(j)}, Combine{c.op_id, false});
      }
    for (int me = 0; me < n; ++me) b.after(me, tag0 + uint32_t(n - 2), copy_op(l.acc(me), l.out()));
    return;
  }
  const Survivors f(n);
  uint32_t tag = tag0;
  if (f.rem) {  // the even ranks below 2 rem hand their vectors to their odd neighbours
    for (int i = 0; i < f.rem; ++i)
      b.msg(2 * i, 2 * i + 1, tag, {{l.acc(0).offset, l.n * l.b}}, {{l.acc(0).offset, l.n * l.b}},
            Combine{c.op_id, true});
    ++tag;
  }
  for (int j = 0; j < f.d; ++j, ++tag)
    for (int s = 0; s < f.np; ++s) {
      const int p = s ^ (1 << j);
      const auto give = held(f, l, s, j, true);  // the partner's half, which it keeps
      b.msg(f.rank_of(s), f.rank_of(p), tag, give, give, Combine{c.op_id, p > s});
    }
  for (int s = 0; s < f.np; ++s) {
    if (f.first_rank(s) != f.rank_of(s)) b.msg(f.rank_of(s), f.first_rank(s), tag, {l.acc(f.first_rank(s))}, {l.out()});
    b.after(f.rank_of(s), tag - 1, copy_op(l.acc(f.rank_of(s)), l.out()));
  }
}

Costs reduce_scatter_costs(const Call& c) {
  const uint64_t n = uint64_t(c.n), b = c.b;
  if (c.alg == "pairwise")
    return {c.n - 1, (n - 1) * b, n * (n - 1) * b, "pairwise: C1 = n-1, C2 = (n-1) b, C3 = n(n-1) b"};
  if (c.alg != "halving") return {c.n - 1, (n - 1) * b, n * (n - 1) * b, "ring: C1 = n-1, C2 = (n-1) b, C3 = n(n-1) b"};
  const Survivors f(c.n);
  // Halving step j: survivor s sends the blocks of the survivors that differ from it first in bit j.
  uint64_t c2 = f.rem ? n * b : 0, c3 = uint64_t(f.rem) * n * b;
  for (int j = 0; j < f.d; ++j) {
    // Those survivors are v = t (mod 2^(j+1)), t = s's low j bits with bit j flipped: 2^(d-j-1) of
    // them, each one block, plus one for each below rem (it answers for two ranks). O(1) per survivor.
    const uint64_t period = uint64_t(2) << j, count = uint64_t(f.np) / period;
    uint64_t most = 0;
    for (int s = 0; s < f.np; ++s) {
      const uint64_t t = (uint64_t(s) & ((uint64_t(1) << j) - 1)) | (~uint64_t(s) & (uint64_t(1) << j));
      const uint64_t doubled = t < uint64_t(f.rem) ? (uint64_t(f.rem) - 1 - t) / period + 1 : 0;
      const uint64_t words = (count + doubled) * b;
      most = std::max(most, words);
      c3 += words;
    }
    c2 += most;
  }
  if (f.rem) c2 += b, c3 += uint64_t(f.rem) * b;
  return {f.d + (f.rem ? 2 : 0), c2, c3,
          "recursive halving (fold): C1 = floor(log2 n) (+2 unless n = 2^d), C2 = sum over steps of the largest "
          "half (+ n b + b), C3 = its sum over ranks"};
}

}  // namespace wn::alg::ccl
