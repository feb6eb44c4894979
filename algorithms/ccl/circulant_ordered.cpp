// The circulant combine for any associative operator (ours): the paper's ceil(log2 n) steps for
// any n without commutativity. combine.cpp's circulant gathers cyclic windows of ranks, which
// wrap past rank n-1 to rank 0, and so folds out of rank order. Here a window's product is kept
// as two pieces: A over its ranks up to n-1, B over those after the wrap (from rank 0); pieces
// are joined in rank order (A with what follows it before the wrap, B with what follows after),
// and the result is B (x) A: x_0 ... x_(me-1) then x_me ... x_(n-1). Messages carry one or both
// pieces (m or 2m words). Memory in blocks of b: IN, OUT, RA, RB (the window after me), SA, SB
// (x_me joined to it), TA, TB (what arrives).
#include <algorithm>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

Range blk(uint32_t i, uint32_t b) { return {i * b, b}; }

// The window lengths of combine.cpp's circulant: before step t it is L (own rank included);
// full steps send x_me (x) R, minus-own steps R alone.
template <class Fn>
void steps_of(int n, Fn&& fn) {
  const int k = ceil_log2(n);
  int L = 1;
  for (int t = 0; t < k; ++t) {
    const int Lp = (n + (1 << (k - 1 - t)) - 1) >> (k - 1 - t);
    fn(t, L, Lp == 2 * L);
    L = Lp;
  }
}

// Whether the window me sends in a step has a B piece (it wraps past rank n-1).
bool sends_b(int n, int me, int L, bool full) { return me + L > n && (full || me + 1 < n); }

}  // namespace

void circulant_ordered(Builder& b, const Call& c, uint32_t tag0) {
  const int n = c.n;
  const Range in = blk(0, c.b), out = blk(1, c.b), RA = blk(2, c.b), RB = blk(3, c.b), SA = blk(4, c.b),
              SB = blk(5, c.b), TA = blk(6, c.b), TB = blk(7, c.b);
  const OpId op = c.op_id;
  // x_me joined to R (the window [me+1, me+L)): before me+1 = n, R lies wholly after the wrap.
  auto join_own = [&](int me, int L, uint32_t tag, bool before) {
    auto add = [&](LocalOp o) { before ? b.before(me, tag, std::move(o)) : b.after(me, tag, std::move(o)); };
    add(copy_op(in, SA));
    if (L > 1 && me + 1 < n) add(combine_op(RA, SA, op, false));
    if (L > 1 && me + 1 < n && me + L > n) add(copy_op(RB, SB));
    if (L > 1 && me + 1 == n) add(copy_op(RA, SB));
  };
  uint32_t last = tag0;
  steps_of(n, [&](int t, int L, bool full) {
    const uint32_t tag = tag0 + uint32_t(t);
    last = tag;
    const int off = full ? L : L - 1;
    for (int me = 0; me < n; ++me) {
      if (full) join_own(me, L, tag, true);
      const bool has_b = sends_b(n, me, L, full);
      std::vector<Range> src = {full ? SA : RA};
      if (has_b) src.push_back(full ? SB : RB);
      const int q = pmod(me - off, n);
      b.msg(me, q, tag, src, has_b ? std::vector<Range>{TA, TB} : std::vector<Range>{TA});
      // q's window W1 = [q+1, q+L) is joined by W2 = [q+L, ...) in rank order.
      if (L == 1) {
        b.after(q, tag, copy_op(TA, RA));
        continue;
      }
      const int s1 = (q + 1) % n, e1 = s1 + L - 1;  // W1 in its own coordinates
      if (e1 < n) {
        b.after(q, tag, combine_op(TA, RA, op, false));
        if (has_b) b.after(q, tag, copy_op(TB, RB));
      } else {
        b.after(q, tag, e1 > n ? combine_op(TA, RB, op, false) : copy_op(TA, RB));
      }
    }
  });
  for (int me = 0; me < n; ++me) {  // the window [me, me+n): B (x) A
    join_own(me, n, last, false);
    if (me == 0) {
      b.after(me, last, copy_op(SA, out));
    } else {
      b.after(me, last, copy_op(SB, out));
      b.after(me, last, combine_op(SA, out, op, false));
    }
  }
}

Costs circulant_ordered_costs(const Call& c) {
  Costs r;
  steps_of(c.n, [&](int, int L, bool full) {
    uint64_t most = 0;
    for (int me = 0; me < c.n; ++me) {
      const uint64_t words = uint64_t(c.b) * (sends_b(c.n, me, L, full) ? 2 : 1);
      most = std::max(most, words);
      r.c3 += words;
    }
    r.c2 += most;
    ++r.c1;
  });
  r.formula =
      "circulant, ordered pieces (any associative operator): C1 = k, C2 = sum over steps of m or 2m (a wrapped "
      "window's two pieces), C3 = its sum over ranks";
  return r;
}

}  // namespace wn::alg::ccl
