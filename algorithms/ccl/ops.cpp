// concat (the paper's circulant algorithm, negative offsets, its Fig. 2 for
// n = 5; the hypercube recursive exchange it names for n = 2^d; the ring and the
// neighbour exchange, which are not the paper's), shift (one
// send-receive step, as in the paper) and sync (the paper's ceil(log n) steps;
// the dissemination schedule is ours).
#include <algorithm>
#include <vector>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

// The ring (not the paper's; MPICH's and NCCL's large-message all-gather): in step t rank r
// passes block r - t on to r + 1, blocks at their final offsets; n - 1 steps, any n.
void concat_ring(Builder& b, const Call& c, uint32_t tag0) {
  const uint32_t m = c.b;
  for (int t = 0; t + 1 < c.n; ++t)
    for (int me = 0; me < c.n; ++me) {
      const Range blk{uint32_t(pmod(me - t, c.n)) * m, m};
      b.msg(me, (me + 1) % c.n, tag0 + uint32_t(t), {blk}, {blk});
    }
}

// Neighbour exchange (Chen et al., 2005; MPICH's all-gather for even n): step 0 swaps blocks
// within the pairs (2p, 2p+1); from then on every rank alternates between its two ring
// neighbours (even ranks: left first) and passes on the pair of blocks it received in the step
// before (in step 1 its own pair's). n/2 steps instead of the ring's n - 1, the same data.
void concat_neighbor_exchange(Builder& b, const Call& c, uint32_t tag0) {
  const int n = c.n;
  const uint32_t m = c.b;
  std::vector<int> last(static_cast<size_t>(n));  // the pair whose blocks each rank received last
  for (int me = 0; me < n; ++me) {
    const int partner = me ^ 1;
    b.msg(me, partner, tag0, {{uint32_t(me) * m, m}}, {{uint32_t(me) * m, m}});
    last[size_t(me)] = me / 2;
  }
  for (int t = 1; t < n / 2; ++t) {
    std::vector<int> next(static_cast<size_t>(n));
    for (int me = 0; me < n; ++me) {
      const bool left = (me % 2 == 0) == (t % 2 == 1);
      const int partner = pmod(me + (left ? -1 : 1), n);
      const Range pair{uint32_t(2 * last[size_t(me)]) * m, 2 * m};
      b.msg(me, partner, tag0 + uint32_t(t), {pair}, {pair});
      next[size_t(partner)] = last[size_t(me)];
    }
    last = std::move(next);
  }
}

// Recursive doubling for any n (MPICH's; the paper's recursive exchange is its n = 2^d case):
// after the fold, survivor s swaps with s ^ 2^j the blocks of its aligned group of 2^j survivors
// (one contiguous range of ranks, so one message), and the odd survivors hand the whole vector
// back. floor(log2 n) (+2) steps.
void concat_doubling(Builder& b, const Call& c, uint32_t tag0) {
  const Survivors f(c.n);
  const uint32_t m = c.b;
  auto group = [&](int s, int j) {  // the blocks of survivors [s & ~(2^j - 1), + 2^j)
    const int lo = s & ~((1 << j) - 1), hi = lo + (1 << j) - 1;
    return Range{uint32_t(f.first_rank(lo)) * m, uint32_t(f.rank_of(hi) - f.first_rank(lo) + 1) * m};
  };
  uint32_t tag = tag0;
  if (f.rem) {
    for (int i = 0; i < f.rem; ++i)
      b.msg(2 * i, 2 * i + 1, tag, {{uint32_t(2 * i) * m, m}}, {{uint32_t(2 * i) * m, m}});
    ++tag;
  }
  for (int j = 0; j < f.d; ++j, ++tag)
    for (int s = 0; s < f.np; ++s) b.msg(f.rank_of(s), f.rank_of(s ^ (1 << j)), tag, {group(s, j)}, {group(s, j)});
  for (int i = 0; i < f.rem; ++i) b.msg(2 * i + 1, 2 * i, tag, {{0, uint32_t(c.n) * m}}, {{0, uint32_t(c.n) * m}});
}

}  // namespace

// The linear all-to-all with a window (MPICH's "scattered" algorithm; not the paper's): in step s
// rank r sends its blocks for ranks r + sw + 1 .. r + (s+1)w and receives theirs, w messages in
// flight at once, so with w ports (or all of them) they travel together. ceil((n-1)/w) steps; w = 1
// is the direct exchange. IN/OUT as Bruck's index (bruck.h): IN block t for rank t, OUT block s from s.
void gen_index_linear(Builder& b, const Call& c, uint32_t tag0) {
  const uint32_t n = uint32_t(c.n), m = c.b, w = uint32_t(c.window);
  for (uint32_t me = 0; me < n; ++me) b.before(int(me), tag0, copy_op({me * m, m}, {(n + me) * m, m}));
  for (uint32_t i = 1; i < n; ++i)
    for (uint32_t me = 0; me < n; ++me) {
      const uint32_t to = (me + i) % n;
      b.msg(int(me), int(to), tag0 + (i - 1) / w, {{to * m, m}}, {{(n + me) * m, m}});
    }
}

Costs concat_doubling_costs(const Call& c) {
  const Survivors f(c.n);
  const uint64_t m = c.b, n = uint64_t(c.n);
  uint64_t c2 = f.rem ? m + n * m : 0, c3 = uint64_t(f.rem) * (m + n * m);
  for (int j = 0; j < f.d; ++j) {
    uint64_t most = 0;
    for (int s = 0; s < f.np; ++s) {
      const int lo = s & ~((1 << j) - 1), hi = lo + (1 << j) - 1;
      const uint64_t words = uint64_t(f.rank_of(hi) - f.first_rank(lo) + 1) * m;
      most = std::max(most, words);
      c3 += words;
    }
    c2 += most;
  }
  return {f.d + (f.rem ? 2 : 0), c2, c3,
          "recursive doubling (fold): C1 = floor(log2 n) (+2 unless n = 2^d), C2 = sum over steps of the largest "
          "group (+ m + n m), C3 = its sum over ranks"};
}

void gen_concat(Builder& b, const Call& c, uint32_t tag0) {
  const int n = c.n, k = ceil_log2(n);
  const uint32_t m = c.b, tmp = uint32_t(n) * m;
  if (c.alg == "ring") return concat_ring(b, c, tag0);
  if (c.alg == "neighbor-exchange") return concat_neighbor_exchange(b, c, tag0);
  if (c.alg == "recursive-doubling") return concat_doubling(b, c, tag0);
  if (c.alg == "recursive-exchange") {  // blocks stay at their final offsets
    for (int j = 0; j < k; ++j)
      for (int me = 0; me < n; ++me) {
        const Range held{uint32_t(me & ~((1 << j) - 1)) * m, uint32_t(1 << j) * m};
        b.msg(me, me ^ (1 << j), tag0 + uint32_t(j), {held}, {held});
      }
    return;
  }
  // temp grows by what (me + nblk) holds; the last step only the first n - 2^(k-1) blocks.
  for (int me = 0; me < n; ++me) {
    b.before(me, tag0, copy_op({uint32_t(me) * m, m}, {tmp, m}));
    for (int j = 0; j < k; ++j) {
      const uint32_t nblk = 1u << j, cnt = j + 1 < k ? nblk : uint32_t(n) - nblk;
      b.msg(me, pmod(me - int(nblk), n), tag0 + uint32_t(j), {{tmp, cnt * m}}, {{tmp + nblk * m, cnt * m}});
    }
    // temp[i] = B_(me+i): OUT[me..n) = temp[0, n-me), OUT[0..me) = temp[n-me, n).
    LocalOp rot{{{tmp, tmp}}, {{uint32_t(me) * m, uint32_t(n - me) * m}}, {}, false};
    if (me) rot.dst.push_back({0, uint32_t(me) * m});
    b.after(me, tag0 + uint32_t(k - 1), std::move(rot));
  }
}

void gen_shift(Builder& b, const Call& c, uint32_t tag0) {
  const Range in{0, c.b}, out{c.b, c.b};
  const int s = pmod(c.shift, c.n);
  for (int me = 0; me < c.n; ++me) {
    if (s == 0)
      b.before(me, tag0, copy_op(in, out));
    else
      b.msg(me, (me + s) % c.n, tag0, {in}, {out});
  }
}

void gen_sync(Builder& b, const Call& c, uint32_t tag0, uint32_t token) {
  for (int j = 0; j < ceil_log2(c.n); ++j)
    for (int me = 0; me < c.n; ++me)
      b.msg(me, pmod(me - (1 << j), c.n), tag0 + uint32_t(j), {{token, 1}}, {{token, 1}});
}

}  // namespace wn::alg::ccl
