// The binomial tree (the paper prices it, C1 = ceil(log n); the schedule, in
// halving order, is ours) and the operations built on it: bcast, reduce,
// scatter and gather (binomial and direct), sync-in and sync-out.
#include <algorithm>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

std::vector<std::vector<TreeEdge>> fan_out(int n, int root) {
  const int k = ceil_log2(n);
  std::vector<std::vector<TreeEdge>> out(static_cast<size_t>(k));
  for (int t = 0; t < k; ++t) {
    const int j = k - 1 - t, h = 1 << j;
    for (int v = 0; v + h < n; v += 2 * h) out[size_t(t)].push_back({pmod(root + v, n), pmod(root + v + h, n), j});
  }
  return out;
}

std::vector<std::vector<TreeEdge>> fan_in(int n, int root) {
  const int k = ceil_log2(n);
  std::vector<std::vector<TreeEdge>> out(static_cast<size_t>(k));
  for (int j = 0; j < k; ++j) {
    const int h = 1 << j;
    for (int v = h; v < n; v += 2 * h) out[size_t(j)].push_back({pmod(root + v, n), pmod(root + v - h, n), j});
  }
  return out;
}

void tokens(Builder& b, const std::vector<std::vector<TreeEdge>>& steps, uint32_t tag0, uint32_t token) {
  for (size_t t = 0; t < steps.size(); ++t)
    for (const TreeEdge& e : steps[t]) b.msg(e.from, e.to, tag0 + uint32_t(t), {{token, 1}}, {{token, 1}});
}

// The pipelined chain (not the paper's; MPICH's and NCCL's pipelined ring broadcast): the
// message in M segments of c.packet words (0: one), relative rank v passes segment t - v on to
// v + 1 in step t, so the last rank has everything after M + n - 2 steps.
void bcast_chain(Builder& b, const Call& c, uint32_t tag0) {
  const uint32_t pk = chain_packet(c), segs = (c.b + pk - 1) / pk;
  for (uint32_t t = 0; t + 1 < segs + uint32_t(c.n) - 1; ++t)
    for (int v = 0; v + 1 < c.n; ++v) {
      if (uint32_t(v) > t || t - uint32_t(v) >= segs) continue;
      const uint32_t lo = (t - uint32_t(v)) * pk;
      const Range seg{lo, std::min(pk, c.b - lo)};
      b.msg(pmod(c.root + v, c.n), pmod(c.root + v + 1, c.n), tag0 + t, {seg}, {seg});
    }
}

void gen_bcast(Builder& b, const Call& c, uint32_t tag0) {
  if (c.alg == "nesbt") return gen_nesbt_bcast(b, c, tag0);
  if (c.alg == "chain") return bcast_chain(b, c, tag0);
  if (c.alg == "circ-graph") return gen_circ_graph_bcast(b, c, tag0);
  if (c.alg == "scatter-concat" || c.alg == "scatter-ring") {  // not in the paper (van de Geijn): n pieces of
                                                               // ceil(m/n) words scattered, then gathered by all
    Call piece = c;
    piece.b = (c.b + uint32_t(c.n) - 1) / uint32_t(c.n);
    piece.alg = "binomial";
    gen_scatter(b, piece, tag0);
    piece.alg = c.alg == "scatter-ring" ? "ring" : "circulant";
    gen_concat(b, piece, tag0 + uint32_t(ceil_log2(c.n)));
    return;
  }
  const auto steps = fan_out(c.n, c.root);
  for (size_t t = 0; t < steps.size(); ++t)
    for (const TreeEdge& e : steps[t]) b.msg(e.from, e.to, tag0 + uint32_t(t), {{0, c.b}}, {{0, c.b}});
}

// Binomial fan-in with acc = acc (x) y: the child's subtree lies to the right
// in relative order, so the root ends with x_root (x) ... (x) x_(root-1): rank
// order for root 0. A non-commutative operator with root != 0 reduces to rank
// 0 and forwards (C1 = k + 1; ours: the paper does not address this case).
void gen_reduce(Builder& b, const Call& c, uint32_t tag0) {
  if (c.alg == "nesbt") return gen_nesbt_reduce(b, c, tag0);
  const bool forward = !combine_ops()[c.op_id].commutative && c.root != 0;
  const int tree_root = forward ? 0 : c.root;
  const Range in{0, c.b}, out{c.b, c.b};
  for (int r = 0; r < c.n; ++r) b.before(r, tag0, copy_op(in, out));
  const auto steps = fan_in(c.n, tree_root);
  for (size_t t = 0; t < steps.size(); ++t)
    for (const TreeEdge& e : steps[t]) b.msg(e.from, e.to, tag0 + uint32_t(t), {out}, {out}, Combine{c.op_id, false});
  if (forward) b.msg(0, c.root, tag0 + uint32_t(steps.size()), {out}, {out});
}

namespace {

// Blocks of relative ranks [lo, hi) as (at most two) ranges of actual slots.
std::vector<Range> slots(int root, int lo, int hi, int n, uint32_t m) {
  std::vector<Range> out;
  for (int rel = lo; rel < hi;) {
    const int a = (rel + root) % n, run = std::min(hi - rel, n - a);
    out.push_back({uint32_t(a) * m, uint32_t(run) * m});
    rel += run;
  }
  return out;
}

}  // namespace

namespace {

// Scatter (fan-out) and gather (fan-in) move the same blocks: the subtree of the rank further from
// the root (direct: one block per step between the root and each rank), in opposite directions.
void personalized(Builder& b, const Call& c, uint32_t tag0, bool to_root) {
  auto send = [&](int root_side, int other, uint32_t tag, const std::vector<Range>& s) {
    if (to_root)
      b.msg(other, root_side, tag, s, s);
    else
      b.msg(root_side, other, tag, s, s);
  };
  if (c.alg == "direct") {
    for (int j = 1; j < c.n; ++j)
      send(c.root, pmod(c.root + j, c.n), tag0 + uint32_t(j - 1), slots(c.root, j, j + 1, c.n, c.b));
    return;
  }
  const auto steps = to_root ? fan_in(c.n, c.root) : fan_out(c.n, c.root);
  for (size_t t = 0; t < steps.size(); ++t)
    for (const TreeEdge& e : steps[t]) {
      const int far = to_root ? e.from : e.to, near = to_root ? e.to : e.from;
      const int v = pmod(far - c.root, c.n), h = 1 << e.level;
      send(near, far, tag0 + uint32_t(t), slots(c.root, v, std::min(v + h, c.n), c.n, c.b));
    }
}

}  // namespace

void gen_scatter(Builder& b, const Call& c, uint32_t tag0) { personalized(b, c, tag0, false); }
void gen_gather(Builder& b, const Call& c, uint32_t tag0) { personalized(b, c, tag0, true); }

}  // namespace wn::alg::ccl
