// The double binary tree all-reduce (not the paper's: Sanders, Speck & Träff's two-tree
// algorithms, Parallel Computing 35(12), 2009; NCCL's "Tree"): two binary trees over the ranks,
// the second the mirror (n even) or the shift by one (n odd) of the first, so a rank that is
// interior in one is mostly a leaf in the other. Tree t reduces and broadcasts half t of the
// vector, in chunks of c.packet words: a chunk goes up as soon as a rank has its children's
// partials, and down as soon as the root has it, so the trees and the chunks overlap.
//
// The schedule is ours: the paper's one-port step (one send and one receive per rank) is a
// matching of the ready messages, taken greedily in order of chunk, tree, down before up, sender,
// receiver (each sender offers its 4 best). The cost table counts this very schedule: C1 and C2
// have no closed form, C3 = 2 (n - 1) m (every partial goes up once, every result down once).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <tuple>

#include "algorithms/ccl/builder.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {

// NCCL's in-order binary tree rooted at 0: rank r's parent clears r's lowest set bit and sets the
// next one up (or only clears it when that leaves the group), so the lowest set bit grows to the root.
std::vector<int> bit_tree(int n) {
  std::vector<int> parent(size_t(n), -1);
  for (int r = 1; r < n; ++r) {
    const int bit = r & -r, up = (r ^ bit) | (bit << 1);
    parent[size_t(r)] = up < n ? up : r ^ bit;
  }
  return parent;
}

std::array<std::vector<int>, 2> two_trees(int n) {
  const std::vector<int> p = bit_tree(n);
  std::vector<int> q(size_t(n), -1);
  for (int r = 0; r < n; ++r) {
    const int twin = n % 2 ? (r + n - 1) % n : n - 1 - r;  // the rank r plays in the first tree
    if (p[size_t(twin)] >= 0) q[size_t(r)] = n % 2 ? (p[size_t(twin)] + 1) % n : n - 1 - p[size_t(twin)];
  }
  return {p, q};
}

// A message of the plan: chunk `chunk` of half `tree`, up (a partial) or down (the result).
struct Hop {
  int step, tree, chunk;
  bool down;
  int from, to;
};

int chunks(uint32_t half, uint32_t pk) { return int((half + pk - 1) / pk); }

std::vector<Hop> plan(int n, const std::array<int, 2>& M) {
  const auto trees = two_trees(n);
  std::array<std::vector<std::vector<int>>, 2> kids;
  for (int t = 0; t < 2; ++t) {
    kids[size_t(t)].resize(size_t(n));
    for (int r = 0; r < n; ++r)
      if (trees[size_t(t)][size_t(r)] >= 0) kids[size_t(t)][size_t(trees[size_t(t)][size_t(r)])].push_back(r);
  }
  // (chunk * 2 + tree, down ? 0 : 1, from, to): the order in which ready messages are taken.
  using Key = std::tuple<int, int, int, int>;
  std::vector<std::set<Key>> ready(static_cast<size_t>(n));
  auto up_or_down = [&](int t, int c, int r) {
    if (const int up = trees[size_t(t)][size_t(r)]; up >= 0)
      ready[size_t(r)].insert({2 * c + t, 1, r, up});
    else
      for (int k : kids[size_t(t)][size_t(r)]) ready[size_t(r)].insert({2 * c + t, 0, r, k});
  };
  for (int t = 0; t < 2; ++t)
    for (int c = 0; c < M[size_t(t)]; ++c)
      for (int r = 0; r < n; ++r)
        if (kids[size_t(t)][size_t(r)].empty() && trees[size_t(t)][size_t(r)] >= 0) up_or_down(t, c, r);
  std::map<std::tuple<int, int, int>, size_t> partials;  // (tree, chunk, rank) -> children heard
  std::vector<Hop> out;
  const size_t total = 2 * size_t(n - 1) * size_t(M[0] + M[1]);
  std::vector<char> sending(static_cast<size_t>(n)), receiving(static_cast<size_t>(n));
  for (int step = 0; out.size() < total; ++step) {
    std::vector<Key> offers;
    for (const auto& mine : ready) {
      size_t k = 0;
      for (auto it = mine.begin(); it != mine.end() && k < 4; ++it, ++k) offers.push_back(*it);
    }
    std::sort(offers.begin(), offers.end());
    std::fill(sending.begin(), sending.end(), 0);
    std::fill(receiving.begin(), receiving.end(), 0);
    std::vector<Hop> now;
    if (offers.empty()) throw std::logic_error("dbtree: no message is ready before the plan is complete");
    for (const Key& o : offers) {
      const auto [prio, up, from, to] = o;
      if (sending[size_t(from)] || receiving[size_t(to)]) continue;
      sending[size_t(from)] = receiving[size_t(to)] = 1;
      ready[size_t(from)].erase(o);
      now.push_back({step, prio % 2, prio / 2, up == 0, from, to});
    }
    for (const Hop& h : now) {  // what the receiver can send from the next step on
      out.push_back(h);
      if (h.down) {
        for (int k : kids[size_t(h.tree)][size_t(h.to)]) ready[size_t(h.to)].insert({2 * h.chunk + h.tree, 0, h.to, k});
        continue;
      }
      const auto key = std::make_tuple(h.tree, h.chunk, h.to);
      if (++partials[key] < kids[size_t(h.tree)][size_t(h.to)].size()) continue;
      partials.erase(key);
      up_or_down(h.tree, h.chunk, h.to);
    }
  }
  return out;
}

struct Layout {
  uint32_t pk;
  std::array<uint32_t, 2> half, base;
  std::array<int, 2> M;
  explicit Layout(const Call& c) {
    half = {(c.b + 1) / 2, c.b / 2};
    base = {0, half[0]};
    pk = c.packet && c.packet < half[0] ? c.packet : half[0];
    M = {chunks(half[0], pk), chunks(half[1], pk)};
  }
  Range chunk(int t, int k, uint32_t offset) const {
    const uint32_t lo = uint32_t(k) * pk;
    return {offset + base[size_t(t)] + lo, std::min(pk, half[size_t(t)] - lo)};
  }
};

// The plan of the last call (the cost table and the builder ask for the same one in turn).
std::vector<Hop> cached_plan(int n, const std::array<int, 2>& M) {
  static std::mutex lock;
  static std::tuple<int, int, int> key{-1, -1, -1};
  static std::vector<Hop> last;
  const std::lock_guard<std::mutex> hold(lock);
  if (key != std::make_tuple(n, M[0], M[1])) last = plan(n, M), key = {n, M[0], M[1]};
  return last;
}

}  // namespace

uint64_t dbtree_messages(const Call& c) {
  const Layout l(c);
  return 2 * uint64_t(c.n - 1) * uint64_t(l.M[0] + l.M[1]);
}

void gen_dbtree_combine(Builder& b, const Call& c, uint32_t tag0) {
  const Layout l(c);
  for (int r = 0; r < c.n; ++r) b.before(r, tag0, copy_op({0, c.b}, {c.b, c.b}));
  if (c.n == 1) return;
  for (const Hop& h : cached_plan(c.n, l.M)) {
    const Range r = l.chunk(h.tree, h.chunk, c.b);
    b.msg(h.from, h.to, tag0 + uint32_t(h.step), {r}, {r}, h.down ? Combine{} : Combine{c.op_id, false});
  }
}

Costs dbtree_lower_bound(const Call& c) {
  const Layout l(c);
  const auto trees = two_trees(c.n);
  std::vector<std::array<uint64_t, 2>> sends(static_cast<size_t>(c.n), {0, 0});  // per rank and tree, per chunk
  for (int t = 0; t < 2; ++t)
    for (int r = 0; r < c.n; ++r)
      if (const int up = trees[size_t(t)][size_t(r)]; up >= 0)
        ++sends[size_t(r)][size_t(t)], ++sends[size_t(up)][size_t(t)];
  Costs lb;
  for (const auto& s : sends) {
    lb.c1 = std::max(lb.c1, int(s[0] * uint64_t(l.M[0]) + s[1] * uint64_t(l.M[1])));
    lb.c2 = std::max(lb.c2, s[0] * l.half[0] + s[1] * l.half[1]);
  }
  return lb;
}

Costs dbtree_costs(const Call& c) {
  const Layout l(c);
  std::map<int, uint64_t> largest;
  if (c.n > 1)
    for (const Hop& h : cached_plan(c.n, l.M))
      largest[h.step] = std::max<uint64_t>(largest[h.step], l.chunk(h.tree, h.chunk, 0).count);
  uint64_t c2 = 0;
  for (const auto& [step, w] : largest) c2 += w;
  return {int(largest.size()), c2, 2 * uint64_t(c.n - 1) * c.b,
          fmt::format("dbtree (two binary trees, not the paper's), chunks of {} words, M = {} + {}: C1, C2 counted "
                      "on the greedy one-port schedule, C3 = 2 (n-1) m",
                      l.pk, l.M[0], l.M[1])};
}

}  // namespace wn::alg::ccl
