// combine and prefix (the paper prices reduction tree + broadcast tree, butterfly or
// circulant, and for combine the hybrid of its [1]; every schedule here is ours).
// IN [0,b), OUT [b,2b), then scratch:
// combine's circulant keeps R (the window [me+1, me+L)) and S (x (x) R);
// prefix's tree keeps S (its subtree), P (the prefix it passes down) and one
// stored child value per level.
#include <utility>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

Range blk(uint32_t i, uint32_t b) { return {i * b, b}; }

// The butterfly on dimensions [lo, hi) among ranks whose bits below lo are 0
// (lo = 0: every rank): the lower rank's value goes left of the higher's.
void butterfly(Builder& b, const Call& c, uint32_t tag0, int lo, int hi) {
  const Range out = blk(1, c.b);
  for (int j = lo; j < hi; ++j)
    for (int me = 0; me < c.n; me += 1 << lo) {
      const int p = me ^ (1 << j);
      b.msg(me, p, tag0 + uint32_t(j - lo), {out}, {out}, Combine{c.op_id, p > me});
    }
}

// Binomial fan-in (acc (x) y) / fan-out (copy) of OUT inside blocks of g ranks.
void in_blocks(Builder& b, const Call& c, uint32_t tag0, int g, bool in) {
  const Range out = blk(1, c.b);
  const auto steps = in ? fan_in(g, 0) : fan_out(g, 0);
  for (int base = 0; base < c.n; base += g)
    for (size_t t = 0; t < steps.size(); ++t)
      for (const TreeEdge& e : steps[t])
        b.msg(base + e.from, base + e.to, tag0 + uint32_t(t), {out}, {out}, in ? Combine{c.op_id, false} : Combine{});
}

// Our circulant combine: any n, ceil(log2 n) steps ("full" / "minus-own"), the cost the paper
// quotes from its [7], a census-function algorithm; like [7]'s census functions it needs a
// commutative operator (circulant_ordered.cpp runs the same steps for any associative one).
void circulant(Builder& b, const Call& c, uint32_t tag0) {
  const int k = ceil_log2(c.n);
  const Range in = blk(0, c.b), out = blk(1, c.b), R = blk(2, c.b), S = blk(3, c.b);
  int L = 1;
  for (int t = 0; t < k; ++t) {
    const int Lp = (c.n + (1 << (k - 1 - t)) - 1) >> (k - 1 - t);
    const bool full = Lp == 2 * L;
    const int off = full ? L : L - 1;
    const uint32_t tag = tag0 + uint32_t(t);
    for (int me = 0; me < c.n; ++me) {
      if (full) {
        b.before(me, tag, copy_op(in, S));
        if (t > 0) b.before(me, tag, combine_op(R, S, c.op_id, false));
      }
      b.msg(me, pmod(me - off, c.n), tag, {full ? S : R}, {R}, t == 0 ? Combine{} : Combine{c.op_id, false});
    }
    L = Lp;
  }
  for (int me = 0; me < c.n; ++me) {
    b.after(me, tag0 + uint32_t(k - 1), copy_op(in, out));
    b.after(me, tag0 + uint32_t(k - 1), combine_op(R, out, c.op_id, false));
  }
}

// The ring (not the paper's: the large-message all-reduce of MPICH and NCCL): OUT in n chunks,
// chunk i = [i m / n, (i+1) m / n); n-1 steps of reduce-scatter (rank r sends chunk r - t to
// r + 1, which folds it into its own) leave rank r with chunk r + 1 complete, then n-1 steps of
// all-gather pass the complete chunks on. Any n; it folds in ring order (commutative operators).
void ring(Builder& b, const Call& c, uint32_t tag0) {
  const int n = c.n;
  auto chunk = [&](int i) {
    const auto lo = uint32_t(uint64_t(i) * c.b / uint64_t(n)), hi = uint32_t(uint64_t(i + 1) * c.b / uint64_t(n));
    return Range{c.b + lo, hi - lo};
  };
  for (int t = 0; t + 1 < n; ++t)
    for (int me = 0; me < n; ++me) {
      const Range fold = chunk(pmod(me - t, n)), pass = chunk(pmod(me + 1 - t, n));
      if (fold.count) b.msg(me, (me + 1) % n, tag0 + uint32_t(t), {fold}, {fold}, Combine{c.op_id, false});
      if (pass.count) b.msg(me, (me + 1) % n, tag0 + uint32_t(n - 1 + t), {pass}, {pass});
    }
}

// The 2D ring (NCCL's and the meshes' all-reduce, not the paper's): ranks as rows of C (rank =
// i C + j), OUT in C row chunks, each split again into R = n / C pieces. A ring reduce-scatter
// along each row leaves (i, j) with row chunk j + 1 of its row; one along each column reduces
// that chunk's piece i + 1 over all rows; then the column and the row all-gathers retrace them.
// 2(C - 1) + 2(R - 1) steps, neighbours in a row (and, on a mesh or torus given whole, in a column)
// are neighbours in the network. Commutative operators (it folds in ring order).
void ring_2d(Builder& b, const Call& c, uint32_t tag0) {
  const int C = ring_2d_cols(c), R = c.n / C;
  const uint64_t m = c.b;
  auto piece = [&](int k, int q, int parts) {  // row chunk k, or (parts = R) its piece q
    const uint64_t lo = uint64_t(k) * m / uint64_t(C), hi = uint64_t(k + 1) * m / uint64_t(C);
    const uint64_t plo = lo + uint64_t(q) * (hi - lo) / uint64_t(parts),
                   phi = lo + uint64_t(q + 1) * (hi - lo) / uint64_t(parts);
    return Range{c.b + uint32_t(plo), uint32_t(phi - plo)};
  };
  auto rank = [C](int i, int j) { return i * C + j; };
  uint32_t tag = tag0;
  auto phase = [&](bool rows, bool fold) {  // one ring per row (or column), C - 1 (R - 1) steps
    const int len = rows ? C : R;
    for (int t = 0; t + 1 < len; ++t, ++tag)
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
          const int pos = rows ? j : i, idx = pmod(fold ? pos - t : pos + 1 - t, len);
          const Range r = rows ? piece(idx, 0, 1) : piece((j + 1) % C, idx, R);
          const int to = rows ? rank(i, (j + 1) % C) : rank((i + 1) % R, j);
          if (r.count) b.msg(rank(i, j), to, tag, {r}, {r}, fold ? Combine{c.op_id, false} : Combine{});
        }
  };
  phase(true, true);
  phase(false, true);
  phase(false, false);
  phase(true, false);
}

// The fold of recursive doubling and Rabenseifner (MPICH's): rem = n - 2^d ranks (d = floor(log2 n)) fold in and, at
// the end, get the result back; survivor s (0 .. 2^d - 1) is rank_of(s), survivors in rank order.
struct Fold : Survivors {
  explicit Fold(int n) : Survivors(n) {}
  // The odd ranks below 2 rem fold in their even neighbours' OUT (v_even (x) v_odd): the next tag.
  uint32_t in(Builder& b, const Call& c, uint32_t tag) const {
    for (int i = 0; i < rem; ++i) b.msg(2 * i, 2 * i + 1, tag, {blk(1, c.b)}, {blk(1, c.b)}, Combine{c.op_id, true});
    return rem > 0 ? tag + 1 : tag;
  }
  void out(Builder& b, const Call& c, uint32_t tag) const {
    for (int i = 0; i < rem; ++i) b.msg(2 * i + 1, 2 * i, tag, {blk(1, c.b)}, {blk(1, c.b)});
  }
};

// Recursive doubling for any n (MPICH's fold; ours in CCL's terms): with rem = n - 2^floor(log2 n),
// each odd rank below 2 rem first folds in its even neighbour's value (v_even (x) v_odd); the
// 2^floor(log2 n) survivors (those odd ranks and every rank from 2 rem up) run the butterfly, the
// lower survivor's value on the left; the odd ranks then hand the result back. floor(log2 n) + 2
// steps (floor(log2 n) for n = 2^d, where it is the butterfly); any associative operator.
void recursive_doubling(Builder& b, const Call& c, uint32_t tag0) {
  const Fold f(c.n);
  const Range out = blk(1, c.b);
  uint32_t tag = f.in(b, c, tag0);
  for (int j = 0; j < f.d; ++j, ++tag)
    for (int s = 0; s < f.np; ++s) {
      const int p = s ^ (1 << j);
      b.msg(f.rank_of(s), f.rank_of(p), tag, {out}, {out}, Combine{c.op_id, p > s});
    }
  f.out(b, c, tag);
}

// Rabenseifner (not the paper's): recursive halving reduce-scatter, then recursive doubling
// all-gather, among the 2^floor(log2 n) survivors of the fold above. At halving step j the
// partner is s ^ 2^j and both hold the same range: the lower survivor keeps its lower half, the
// higher its upper half, each receiving and folding the half it keeps (the lower survivor's
// value on the left: blocks of 2^(j+1) consecutive ranks, so any associative operator); the
// all-gather retraces the splits. 2 floor(log2 n) (+2) steps, about 2m words per rank.
void rabenseifner(Builder& b, const Call& c, uint32_t tag0) {
  const Fold f(c.n);
  // The range survivor s holds after j halvings: [lo, hi) of OUT's words.
  auto range_after = [&](int s, int j) {
    uint32_t lo = 0, hi = c.b;
    for (int i = 0; i < j; ++i) {
      const uint32_t mid = lo + (hi - lo) / 2;
      (s >> i & 1 ? lo : hi) = mid;
    }
    return std::pair<uint32_t, uint32_t>{lo, hi};
  };
  auto words = [&](uint32_t lo, uint32_t hi) { return Range{c.b + lo, hi - lo}; };
  uint32_t tag = f.in(b, c, tag0);
  for (int j = 0; j < f.d; ++j, ++tag)
    for (int s = 0; s < f.np; ++s) {
      const int p = s ^ (1 << j);
      const auto [lo, hi] = range_after(s, j);
      const uint32_t mid = lo + (hi - lo) / 2;
      const Range give = p > s ? words(mid, hi) : words(lo, mid);  // the half the partner keeps
      if (give.count) b.msg(f.rank_of(s), f.rank_of(p), tag, {give}, {give}, Combine{c.op_id, p > s});
    }
  for (int j = f.d - 1; j >= 0; --j, ++tag)
    for (int s = 0; s < f.np; ++s) {
      const auto [lo, hi] = range_after(s, j + 1);
      if (hi > lo) b.msg(f.rank_of(s), f.rank_of(s ^ (1 << j)), tag, {words(lo, hi)}, {words(lo, hi)});
    }
  f.out(b, c, tag);
}

}  // namespace

void gen_combine(Builder& b, const Call& c, uint32_t tag0) {
  const int k = ceil_log2(c.n);
  if (c.alg == "circulant")
    return combine_ops()[c.op_id].commutative ? circulant(b, c, tag0) : circulant_ordered(b, c, tag0);
  if (c.alg == "dbtree") return gen_dbtree_combine(b, c, tag0);
  for (int me = 0; me < c.n; ++me) b.before(me, tag0, copy_op(blk(0, c.b), blk(1, c.b)));
  if (c.alg == "butterfly") return butterfly(b, c, tag0, 0, k);
  if (c.alg == "ring") return ring(b, c, tag0);
  if (c.alg == "ring-2d") return ring_2d(b, c, tag0);
  if (c.alg == "recursive-doubling") return recursive_doubling(b, c, tag0);
  if (c.alg == "rabenseifner") return rabenseifner(b, c, tag0);
  // hybrid kappa (reduce-bcast = kappa d): fan-in in blocks of 2^kappa, butterfly among leaders, fan-out.
  const int kappa = c.alg == "hybrid" ? c.kappa : k, g = 1 << kappa;
  if (c.alg == "reduce-bcast") {  // any n: reduce to rank 0 (rank order), bcast from it
    in_blocks(b, c, tag0, c.n, true);
    in_blocks(b, c, tag0 + uint32_t(k), c.n, false);
    return;
  }
  in_blocks(b, c, tag0, g, true);
  butterfly(b, c, tag0 + uint32_t(kappa), kappa, k);
  in_blocks(b, c, tag0 + uint32_t(k), g, false);
}

void gen_prefix(Builder& b, const Call& c, uint32_t tag0) {
  const int n = c.n, k = ceil_log2(n);
  const Range in = blk(0, c.b), out = blk(1, c.b);
  if (c.alg != "tree") {  // circulant: the paper's C1 = ceil(log n); Kogge-Stone (ours): acc = y (x) acc
    for (int me = 0; me < n; ++me) b.before(me, tag0, copy_op(in, out));
    for (int j = 0; j < k; ++j)
      for (int me = 0; me + (1 << j) < n; ++me)
        b.msg(me, me + (1 << j), tag0 + uint32_t(j), {out}, {out}, Combine{c.op_id, true});
    return;
  }
  // The tree (ours: 2k - 1 steps, one fewer than the paper's 2 ceil(log n): the leftmost chain
  // needs no down-sweep message) on mirrored ranks u = n-1-me (root: the highest rank, as the
  // paper roots prefix's sync-out, §III).
  const Range S = blk(2, c.b), P = blk(3, c.b);
  auto ch = [&](int j) { return blk(4 + uint32_t(j), c.b); };
  auto rank = [n](int u) { return n - 1 - u; };
  for (int me = 0; me < n; ++me) b.before(me, tag0, copy_op(in, S));
  const auto up = fan_in(n, 0);  // in u-space
  for (size_t t = 0; t < up.size(); ++t)
    for (const TreeEdge& e : up[t]) {
      const int child = rank(e.from), parent = rank(e.to);
      b.msg(child, parent, tag0 + uint32_t(t), {S}, {ch(e.level)});
      b.after(parent, tag0 + uint32_t(t), combine_op(ch(e.level), S, c.op_id, true));  // S = S_child (x) S
    }
  // Down: P starts as E_u (empty iff u's ranks start at rank 0), then P = P (x) S_child after each child.
  std::vector<bool> p_empty(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u) p_empty[size_t(u)] = u == 0 || u + (u & -u) >= n;
  const auto down = fan_out(n, 0);
  for (size_t t = 0; t < down.size(); ++t)
    for (const TreeEdge& e : down[t]) {  // u-space, ordered by level high -> low
      const uint32_t tag = tag0 + uint32_t(k) + uint32_t(t);
      const int u = e.from, me = rank(u);
      if (!p_empty[size_t(u)]) b.msg(me, rank(e.to), tag, {P}, {P});
      b.after(me, tag, p_empty[size_t(u)] ? copy_op(ch(e.level), P) : combine_op(ch(e.level), P, c.op_id, false));
      p_empty[size_t(u)] = false;
    }
  const uint32_t last = tag0 + uint32_t(2 * k - 1);
  for (int u = 0; u < n; ++u) {
    const int me = rank(u);
    b.after(me, last, copy_op(p_empty[size_t(u)] ? in : P, out));
    if (!p_empty[size_t(u)]) b.after(me, last, combine_op(in, out, c.op_id, false));
  }
}

}  // namespace wn::alg::ccl
