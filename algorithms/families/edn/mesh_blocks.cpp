// EDN hierarchies of the meshes whose sides are 5, 6 or 7 times a power of two (Tsai's thesis,
// Ch 3, Tables 3.2-3.4: tree height k + 2 on n = 5, 6, 7 * 2^k; the thesis builds them from 5x5,
// 6x6 and 7x7 base blocks by "the Cockayne method" in figures that are lost). Ours, found by the
// searches below, deterministic:
// - a base block b1 x b2 (b1, b2 in 4..7, not 4x4): level 1 is a smallest set D whose members
//   each send to at most 3 neighbours so that every other node gets one message (1-hop sends never
//   share a channel); level 2 is 4 top nodes of D that send to the rest of D in one step on
//   channel-disjoint XY routes, at most 3 each. Among the sets D in search order and their top
//   sets, the first whose best assignment admits a one-step startup from a top wins, fewest hops
//   next;
// - doubling (as the thesis's 2^k recursion, Ch 3 and its Appendix A): the four quadrants carry the
//   half-size hierarchy, mirrored or translated (both map XY routes to XY routes, so the replicated
//   descent stays contention-free); the 16 quadrant tops send to 4 new tops, one per quadrant, on
//   channel-disjoint XY routes, at most 3 each, with the fewest hops.
#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

namespace {

// A w x h mesh under XY routing; a directed channel is node id * 4 + direction.
struct Grid {
  int w, h;
  int id(Node n) const { return n.second * w + n.first; }
  void route(Node a, Node b, std::vector<int>& out) const {
    out.clear();
    int x = a.first, y = a.second;
    for (; x != b.first; x += b.first > x ? 1 : -1) out.push_back(id({x, y}) * 4 + (b.first > x ? 0 : 1));
    for (; y != b.second; y += b.second > y ? 1 : -1) out.push_back(id({x, y}) * 4 + (b.second > y ? 2 : 3));
  }
};

int hops(Node a, Node b) { return std::abs(a.first - b.first) + std::abs(a.second - b.second); }

// The assignment of `rest` to `tops` (at most 3 each) on channel-disjoint XY routes with the fewest
// hops (branch and bound, the first best in search order); false when there is none.
class TopStep {
 public:
  // `limit`: only assignments of fewer hops count (0: any).
  TopStep(const Grid& g, std::vector<Node> tops, std::vector<Node> rest, int limit = 0)
      : g_(g), tops_(std::move(tops)), rest_(std::move(rest)), used_(size_t(g.w * g.h * 4), 0), limit_(limit) {
    load_.assign(tops_.size(), 0);
    pick_.assign(rest_.size(), 0);
    for (const Node& r : rest_) {
      int m = 1 << 30;
      for (const Node& t : tops_) m = std::min(m, hops(t, r));
      min_left_.push_back(m);
    }
    for (size_t i = rest_.size(); i-- > 1;) min_left_[i - 1] += min_left_[i];
    min_left_.push_back(0);
    dfs(0, 0);
  }
  bool found() const { return best_ >= 0; }
  int hops_total() const { return best_; }
  StepSends sends() const {
    StepSends s;
    for (size_t i = 0; i < rest_.size(); ++i) s.push_back({tops_[size_t(best_pick_[i])], rest_[i]});
    std::sort(s.begin(), s.end());
    return s;
  }

 private:
  void dfs(size_t i, int cost) {
    if ((best_ >= 0 && cost + min_left_[i] >= best_) || (limit_ > 0 && cost + min_left_[i] >= limit_)) return;
    if (i == rest_.size()) {
      best_ = cost;
      best_pick_ = pick_;
      return;
    }
    std::vector<int> links;
    for (size_t t = 0; t < tops_.size(); ++t) {
      if (load_[t] == 3) continue;
      g_.route(tops_[t], rest_[i], links);
      bool free = true;
      for (int l : links) free = free && !used_[size_t(l)];
      if (!free) continue;
      for (int l : links) used_[size_t(l)] = 1;
      ++load_[t];
      pick_[i] = int(t);
      dfs(i + 1, cost + int(links.size()));
      --load_[t];
      for (int l : links) used_[size_t(l)] = 0;
    }
  }
  const Grid& g_;
  std::vector<Node> tops_, rest_;
  std::vector<char> used_;
  std::vector<int> load_, pick_, best_pick_, min_left_;
  int limit_ = 0, best_ = -1;
};

// A top t that reaches the 3 other tops in one step: their XY routes from t share no channel.
bool one_step_startup(const Grid& g, const std::vector<Node>& tops) {
  std::vector<int> links;
  for (const Node& t : tops) {
    std::vector<int> used;
    bool ok = true;
    for (const Node& o : tops) {
      if (o == t) continue;
      g.route(t, o, links);
      for (int l : links) {
        ok = ok && std::find(used.begin(), used.end(), l) == used.end();
        used.push_back(l);
      }
    }
    if (ok) return true;
  }
  return false;
}

// Level 1 of a base block: row-major depth-first search over "u is in D, or is sent to by a
// neighbour in D", iterative deepening on |D|. Each complete D goes to `accept`; true stops.
class Level1 {
 public:
  template <class Accept>
  Level1(const Grid& g, Accept accept) : g_(g), n_(g.w * g.h) {
    for (limit_ = (n_ + 3) / 4; limit_ <= n_; ++limit_) {
      role_.assign(size_t(n_), kFree);
      load_.assign(size_t(n_), 0);
      ndom_ = 0;
      accept_ = accept;
      if (dfs(0)) return;
    }
    throw std::logic_error("EDN base block: no level-1 set");
  }

 private:
  static constexpr int kFree = -2, kDom = -1;
  bool dfs(int u) {
    while (u < n_ && role_[size_t(u)] != kFree) ++u;
    if (u == n_) return accept_(role_);
    // Bound: the free nodes are covered by the spare sends of D members next to free nodes, or by
    // new members, each covering itself and 3 more.
    int free = 0, spare = 0;
    for (int v = u; v < n_; ++v) free += role_[size_t(v)] == kFree;
    for (int v = std::max(0, u - g_.w); v < n_; ++v)
      if (role_[size_t(v)] == kDom) {
        int f = 0;
        for (int b : neighbours(v)) f += role_[size_t(b)] == kFree;
        spare += std::min(f, 3 - load_[size_t(v)]);
      }
    if (ndom_ + std::max(0, (free - spare + 3) / 4) > limit_) return false;
    const std::vector<int> nb = neighbours(u);
    for (int v : nb)  // sent to by a neighbour already in D
      if (role_[size_t(v)] == kDom && load_[size_t(v)] < 3) {
        role_[size_t(u)] = v;
        ++load_[size_t(v)];
        if (dfs(u + 1)) return true;
        --load_[size_t(v)];
        role_[size_t(u)] = kFree;
      }
    if (ndom_ == limit_) return false;
    ++ndom_;
    role_[size_t(u)] = kDom;  // in D
    if (dfs(u + 1)) return true;
    for (int v : nb)  // sent to by a neighbour that joins D
      if (role_[size_t(v)] == kFree) {
        role_[size_t(v)] = kDom;
        role_[size_t(u)] = v;
        load_[size_t(v)] = 1;
        if (dfs(u + 1)) return true;
        load_[size_t(v)] = 0;
        role_[size_t(v)] = kFree;
      }
    role_[size_t(u)] = kFree;
    --ndom_;
    return false;
  }
  std::vector<int> neighbours(int u) const {
    const int x = u % g_.w, y = u / g_.w;
    std::vector<int> nb;
    if (x > 0) nb.push_back(u - 1);
    if (y > 0) nb.push_back(u - g_.w);
    if (x + 1 < g_.w) nb.push_back(u + 1);
    if (y + 1 < g_.h) nb.push_back(u + g_.w);
    return nb;
  }
  const Grid& g_;
  int n_, limit_ = 0, ndom_ = 0;
  std::vector<int> role_, load_;
  std::function<bool(const std::vector<int>&)> accept_;
};

Hierarchy base_block(int w, int h) {
  const Grid g{w, h};
  Hierarchy best;
  bool found = false;
  int tried = 0;
  Level1(g, [&](const std::vector<int>& role) {
    std::vector<Node> dom;
    StepSends last;
    for (int u = 0; u < w * h; ++u) {
      const Node n{u % w, u / w};
      if (role[size_t(u)] == -1)
        dom.push_back(n);
      else
        last.push_back({{role[size_t(u)] % w, role[size_t(u)] / w}, n});
    }
    std::sort(last.begin(), last.end());
    const size_t d = dom.size();
    std::vector<size_t> idx = {0, 1, 2, 3};
    for (idx[0] = 0; idx[0] < d; ++idx[0])
      for (idx[1] = idx[0] + 1; idx[1] < d; ++idx[1])
        for (idx[2] = idx[1] + 1; idx[2] < d; ++idx[2])
          for (idx[3] = idx[2] + 1; idx[3] < d; ++idx[3]) {
            std::vector<Node> tops, rest;
            for (size_t i = 0; i < d; ++i)
              (std::find(idx.begin(), idx.end(), i) != idx.end() ? tops : rest).push_back(dom[i]);
            const bool one = one_step_startup(g, tops);
            if (found && !one && best.one_step) continue;
            const TopStep ts(g, tops, rest);
            if (!ts.found()) continue;
            if (found && one == best.one_step && ts.hops_total() >= best.top_hops) continue;
            best = {tops, {ts.sends(), last}, one, ts.hops_total()};
            found = true;
          }
    // The first level-1 sets in search order; a one-step startup stops the search.
    return found && (best.one_step || ++tried >= 64);
  });
  if (!found) throw std::logic_error("EDN base block: no top step");
  return best;
}

// The hierarchy of the 2w x 2h mesh from the w x h one in its four quadrants.
Hierarchy doubled(const Hierarchy& q, int w, int h) {
  const Grid g{2 * w, 2 * h};
  Hierarchy best;
  bool found = false;
  for (int variant = 0; variant < 4; ++variant) {  // bit 0: x translated, bit 1: y translated (else mirrored)
    auto map = [&](int quad, Node n) -> Node {
      const bool right = quad & 1, top = quad & 2;
      const int x = !right ? n.first : (variant & 1) ? n.first + w : 2 * w - 1 - n.first;
      const int y = !top ? n.second : (variant & 2) ? n.second + h : 2 * h - 1 - n.second;
      return {x, y};
    };
    std::vector<Node> cand;
    for (int quad = 0; quad < 4; ++quad)
      for (const Node& t : q.tops) cand.push_back(map(quad, t));
    // Every 4 of the 16, those with a one-step startup first (as base_block's preference).
    for (int pass = 0; pass < 2; ++pass)
      for (int pick = 0; pick < 1 << 16; ++pick) {
        if (__builtin_popcount(unsigned(pick)) != 4) continue;
        std::vector<Node> tops, rest;
        for (int i = 0; i < 16; ++i) (pick >> i & 1 ? tops : rest).push_back(cand[size_t(i)]);
        const bool one = one_step_startup(g, tops);
        if (one != (pass == 0) || (found && best.one_step && !one)) continue;
        const TopStep ts(g, tops, rest, found && best.one_step == one ? best.top_hops : 0);
        if (!ts.found()) continue;
        best.tops = tops;
        best.descent = {ts.sends()};
        for (const StepSends& lower : q.descent) {
          StepSends s;
          for (int quad = 0; quad < 4; ++quad)
            for (const auto& [from, to] : lower) s.push_back({map(quad, from), map(quad, to)});
          best.descent.push_back(std::move(s));
        }
        best.one_step = one;
        best.top_hops = ts.hops_total();
        found = true;
      }
  }
  if (!found) throw std::logic_error("EDN doubling: no top step");
  return best;
}

}  // namespace

int base_factor(int side, int* k) {
  for (*k = 0; side >= 8 && side % 2 == 0; ++*k) side /= 2;
  return side >= 4 && side <= 7 ? side : 0;
}

const Hierarchy* mesh_hierarchy(int w, int h) {
  int kw = 0, kh = 0;
  const int bw = base_factor(w, &kw), bh = base_factor(h, &kh);
  if (!bw || !bh || kw != kh) return nullptr;
  static std::mutex mu;
  static std::map<std::pair<int, int>, Hierarchy> cache;
  const std::lock_guard<std::mutex> lock(mu);
  if (const auto it = cache.find({w, h}); it != cache.end()) return &it->second;
  Hierarchy hier;
  if (bw == 4 && bh == 4) {
    hier.tops = top_nodes(kw + 2);
    hier.descent = tree(kw + 2);
  } else {
    hier = base_block(bw, bh);
    for (int j = 0; j < kw; ++j) hier = doubled(hier, bw << j, bh << j);
  }
  return &cache.emplace(std::make_pair(w, h), std::move(hier)).first->second;
}

const Hierarchy* mesh_hierarchy(const Topology& topo) {
  if (topo.kind() != TopoKind::Mesh || topo.dims() != 2) return nullptr;
  return mesh_hierarchy(topo.radix()[0], topo.radix()[1]);
}

}  // namespace wn::alg::edn
