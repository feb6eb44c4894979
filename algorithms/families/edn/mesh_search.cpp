// The searches of mesh_search.h: branch and bound over the assignments of a top step, and a
// row-major depth-first search (iterative deepening on its size) for level 1. Deterministic: the
// first best in search order wins.
#include "algorithms/families/edn/mesh_search.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace wn::alg::edn {

int Grid::hops(int a, int b) const {
  const auto p = at(a), q = at(b);
  return std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]);
}

void Grid::route(int a, int b, std::vector<int>& out) const {
  out.clear();
  auto p = at(a);
  const auto q = at(b);
  for (int dim = 0; dim < 3; ++dim)
    for (; p[size_t(dim)] != q[size_t(dim)]; p[size_t(dim)] += q[size_t(dim)] > p[size_t(dim)] ? 1 : -1)
      out.push_back(id(p[0], p[1], p[2]) * 6 + 2 * dim + (q[size_t(dim)] > p[size_t(dim)] ? 0 : 1));
}

// Every lower neighbour first, then every higher one: the search's order (and so its result).
std::vector<int> Grid::neighbours(int u) const {
  const auto p = at(u);
  std::vector<int> nb;
  const int stride[3] = {1, w, w * h}, size[3] = {w, h, d};
  for (int dim = 0; dim < 3; ++dim)
    if (p[size_t(dim)] > 0) nb.push_back(u - stride[dim]);
  for (int dim = 0; dim < 3; ++dim)
    if (p[size_t(dim)] + 1 < size[dim]) nb.push_back(u + stride[dim]);
  return nb;
}

void Grid::sort(IdSends& s) const {
  std::sort(s.begin(), s.end(), [this](const auto& a, const auto& b) {
    return std::make_pair(at(a.first), at(a.second)) < std::make_pair(at(b.first), at(b.second));
  });
}

namespace {

// The assignment of `rest` to `tops` (at most `cap` each) on channel-disjoint routes with the
// fewest hops; `limit`: only assignments of fewer hops count (0: any).
class TopStep {
 public:
  TopStep(const Grid& g, std::vector<int> tops, std::vector<int> rest, int cap, int limit)
      : g_(g),
        tops_(std::move(tops)),
        rest_(std::move(rest)),
        used_(size_t(g.nodes() * 6), 0),
        cap_(cap),
        limit_(limit) {
    load_.assign(tops_.size(), 0);
    pick_.assign(rest_.size(), 0);
    for (int r : rest_) {
      int m = 1 << 30;
      for (int t : tops_) m = std::min(m, g.hops(t, r));
      min_left_.push_back(m);
    }
    for (size_t i = rest_.size(); i-- > 1;) min_left_[i - 1] += min_left_[i];
    min_left_.push_back(0);
    dfs(0, 0);
  }
  bool found() const { return best_ >= 0; }
  int hops_total() const { return best_; }
  IdSends sends() const {
    IdSends s;
    for (size_t i = 0; i < rest_.size(); ++i) s.push_back({tops_[size_t(best_pick_[i])], rest_[i]});
    g_.sort(s);
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
      if (load_[t] == cap_) continue;
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
  std::vector<int> tops_, rest_;
  std::vector<char> used_;
  std::vector<int> load_, pick_, best_pick_, min_left_;
  int cap_, limit_, best_ = -1;
};

// A top that reaches the 3 other tops in one step: their routes from it share no channel.
bool one_step_startup(const Grid& g, const std::vector<int>& tops) {
  std::vector<int> links;
  for (int t : tops) {
    std::vector<int> used;
    bool ok = true;
    for (int o : tops) {
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

// Distinct (x, y) columns.
bool own_columns(const Grid& g, const std::vector<int>& tops) {
  for (size_t i = 0; i < tops.size(); ++i)
    for (size_t j = i + 1; j < tops.size(); ++j)
      if (tops[i] % (g.w * g.h) == tops[j] % (g.w * g.h)) return false;
  return true;
}

// Level 1: row-major depth-first search over "u is in D, or is sent to by a neighbour in D",
// iterative deepening on |D|. Each complete D goes to `accept`; true stops.
class Level1 {
 public:
  Level1(const Grid& g, int cap, std::function<bool(const std::vector<int>&)> accept)
      : g_(g), n_(g.nodes()), cap_(cap), back_(g.d > 1 ? g.w * g.h : g.w), accept_(std::move(accept)) {
    for (limit_ = (n_ + cap) / (cap + 1); limit_ <= n_; ++limit_) {
      role_.assign(size_t(n_), kFree);
      load_.assign(size_t(n_), 0);
      ndom_ = 0;
      if (dfs(0)) return;
    }
    throw std::logic_error("EDN base block: no level-1 set");
  }
  static constexpr int kFree = -2, kDom = -1;

 private:
  bool dfs(int u) {
    while (u < n_ && role_[size_t(u)] != kFree) ++u;
    if (u == n_) return accept_(role_);
    // Bound: the free nodes are covered by the spare sends of D members next to free nodes (none
    // lies more than a plane back), or by new members, each covering itself and `cap` more.
    int free = 0, spare = 0;
    for (int v = u; v < n_; ++v) free += role_[size_t(v)] == kFree;
    for (int v = std::max(0, u - back_); v < n_; ++v)
      if (role_[size_t(v)] == kDom) {
        int f = 0;
        for (int b : g_.neighbours(v)) f += role_[size_t(b)] == kFree;
        spare += std::min(f, cap_ - load_[size_t(v)]);
      }
    if (ndom_ + std::max(0, (free - spare + cap_) / (cap_ + 1)) > limit_) return false;
    const std::vector<int> nb = g_.neighbours(u);
    for (int v : nb)  // sent to by a neighbour already in D
      if (role_[size_t(v)] == kDom && load_[size_t(v)] < cap_) {
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
  const Grid& g_;
  int n_, cap_, back_, limit_ = 0, ndom_ = 0;
  std::vector<int> role_, load_;
  std::function<bool(const std::vector<int>&)> accept_;
};

}  // namespace

bool top_step(const Grid& g, const std::vector<int>& tops, const std::vector<int>& rest, int cap, IdSends& sends,
              int& hops) {
  const TopStep ts(g, tops, rest, cap, 0);
  if (!ts.found()) return false;
  sends = ts.sends();
  hops = ts.hops_total();
  return true;
}

bool with_tops(const Grid& g, const std::vector<int>& dom, const IdSends& last, Fanout f, IdHierarchy& best) {
  bool found = false;
  const size_t d = dom.size();
  std::vector<size_t> idx = {0, 1, 2, 3};
  for (idx[0] = 0; idx[0] < d; ++idx[0])
    for (idx[1] = idx[0] + 1; idx[1] < d; ++idx[1])
      for (idx[2] = idx[1] + 1; idx[2] < d; ++idx[2])
        for (idx[3] = idx[2] + 1; idx[3] < d; ++idx[3]) {
          std::vector<int> tops, rest;
          for (size_t i = 0; i < d; ++i)
            (std::find(idx.begin(), idx.end(), i) != idx.end() ? tops : rest).push_back(dom[i]);
          if (f.columns && !own_columns(g, tops)) continue;
          const bool one = one_step_startup(g, tops);
          if (found && !one && best.one_step) continue;
          const TopStep ts(g, tops, rest, f.sends, found && one == best.one_step ? best.top_hops : 0);
          if (!ts.found()) continue;
          best = {tops, {ts.sends(), last}, one, ts.hops_total()};
          found = true;
        }
  return found;
}

IdHierarchy base_block(const Grid& g, Fanout f) {
  IdHierarchy best;
  bool found = false;
  int tried = 0;
  Level1(g, f.sends, [&](const std::vector<int>& role) {
    std::vector<int> dom;
    IdSends last;
    for (int u = 0; u < g.nodes(); ++u) {
      if (role[size_t(u)] == Level1::kDom)
        dom.push_back(u);
      else
        last.push_back({role[size_t(u)], u});
    }
    g.sort(last);
    IdHierarchy h;
    if (with_tops(g, dom, last, f, h) &&
        (!found || (h.one_step && !best.one_step) || (h.one_step == best.one_step && h.top_hops < best.top_hops))) {
      best = std::move(h);
      found = true;
    }
    // The first level-1 sets in search order; a one-step startup stops the search.
    return found && (best.one_step || ++tried >= 64);
  });
  if (!found) throw std::logic_error("EDN base block: no top step");
  return best;
}

IdHierarchy doubled(const IdHierarchy& q, const Grid& g, Fanout f) {
  const int w = g.w / 2, h = g.h / 2;
  const Grid small{w, h, g.d};
  IdHierarchy best;
  bool found = false;
  for (int variant = 0; variant < 4; ++variant) {  // bit 0: x translated, bit 1: y translated (else mirrored)
    auto map = [&](int quad, int n) {
      const auto p = small.at(n);
      const bool right = quad & 1, top = quad & 2;
      const int x = !right ? p[0] : (variant & 1) ? p[0] + w : 2 * w - 1 - p[0];
      const int y = !top ? p[1] : (variant & 2) ? p[1] + h : 2 * h - 1 - p[1];
      return g.id(x, y, p[2]);
    };
    std::vector<int> cand;
    for (int quad = 0; quad < 4; ++quad)
      for (int t : q.tops) cand.push_back(map(quad, t));
    // Every 4 of the 16, those with a one-step startup first (as base_block's preference).
    for (int pass = 0; pass < 2; ++pass)
      for (int pick = 0; pick < 1 << 16; ++pick) {
        if (__builtin_popcount(unsigned(pick)) != 4) continue;
        std::vector<int> tops, rest;
        for (int i = 0; i < 16; ++i) (pick >> i & 1 ? tops : rest).push_back(cand[size_t(i)]);
        if (f.columns && !own_columns(g, tops)) continue;
        const bool one = one_step_startup(g, tops);
        if (one != (pass == 0) || (found && best.one_step && !one)) continue;
        const TopStep ts(g, tops, rest, f.sends, found && best.one_step == one ? best.top_hops : 0);
        if (!ts.found()) continue;
        best.tops = tops;
        best.descent = {ts.sends()};
        for (const IdSends& lower : q.descent) {
          IdSends s;
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

}  // namespace wn::alg::edn
