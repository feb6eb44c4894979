// EDN broadcast on 3D meshes (Tsai's thesis, Ch 3, Figs 3.18-3.23 and Table 3.5: (4*2^k)^2 x
// (4|5 * 3^m) in k + m + 4 steps). The thesis's level sets are in lost figures; the structure
// here is its own, the blocks are ours (searches of mesh_search.h), at most 4 sends per node and
// step (the thesis's final step "at most 4"):
// - a unit 4 x 4 x c (c in 2..5): level 1 is one of four 4-node "configurations" per plane (Fig
//   3.18), which partition the plane's positions and each reach the other 12 nodes of their plane
//   in one step; 4 tops of level 1 in distinct (x, y) columns reach the rest of level 1 in one step
//   (4c - 4 <= 16 nodes: so c <= 5);
// - the thesis's XY recursion (Fig 3.22): the unit doubled in x and y k times, a new top step each;
// - its Z recursion (Fig 3.23), generalised: s = Z / c copies of the unit stacked along z, the
//   middle copy's tops spreading the message along their own columns, every holder sending to the
//   first holders of the outer thirds of its interval (+Z and -Z): ceil(log3 s) steps, then every
//   copy descends on its own.
// Steps: a 1- or 2-step startup to the 4 tops, ceil(log3 s) Z steps, k top steps, and the unit's 2.
// Other planes (any of the 2D family's: a * 2^k x b * 2^k, a, b in 4..7), and depths that no unit
// divides: the plane's 2D hierarchy in every plane, the tops spreading along z first
// (ceil(log3 Z) steps), then every plane descending as in 2D.
#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>

#include "algorithms/families/edn/mesh_search.h"

namespace wn::alg::edn {

namespace {

constexpr Fanout k3d{4, true};

int log3_ceil(int s) {
  int steps = 0;
  for (int reach = 1; reach < s; reach *= 3) ++steps;
  return steps;
}

// The copy that holds the message first in the interval [lo, hi] of copies, and its sends: to the
// first holders of the outer thirds, which continue in theirs (`steps[t]`: the sends of step t, as
// (from copy, to copy)).
int spread(int lo, int hi, size_t t, std::vector<std::vector<std::pair<int, int>>>& steps) {
  const int len = hi - lo + 1;
  if (len == 1) return lo;
  const int part = (len + 2) / 3;
  const int mid_hi = std::min(hi, lo + 2 * part - 1);
  const int holder = spread(lo + part, mid_hi, t + 1, steps);
  if (steps.size() <= t) steps.resize(t + 1);
  steps[t].push_back({holder, spread(lo, lo + part - 1, t + 1, steps)});
  if (mid_hi < hi) steps[t].push_back({holder, spread(mid_hi + 1, hi, t + 1, steps)});
  return holder;
}

// The four level-1 configurations of a 4 x 4 plane: disjoint 4-node sets, each reaching the other
// 12 nodes of the plane in one step (at most 4 sends each, channel-disjoint XY routes); of the
// partitions of the 16 positions into such sets, the first in search order with the fewest hops.
struct Config {
  std::vector<int> nodes;
  IdSends sends;
  int hops = 0;
};
std::vector<Config> plane_configs() {
  const Grid g{4, 4, 1};
  std::vector<std::pair<int, Config>> good;  // (mask of positions, configuration)
  for (int mask = 0; mask < 1 << 16; ++mask) {
    if (__builtin_popcount(unsigned(mask)) != 4) continue;
    Config c;
    std::vector<int> rest;
    for (int n = 0; n < 16; ++n) (mask >> n & 1 ? c.nodes : rest).push_back(n);
    if (top_step(g, c.nodes, rest, k3d.sends, c.sends, c.hops)) good.push_back({mask, c});
  }
  std::vector<size_t> pick, best;
  int best_hops = 0;
  std::function<void(int, int)> partition = [&](int covered, int hops) {
    if (covered == 0xFFFF) {
      if (best.empty() || hops < best_hops) best = pick, best_hops = hops;
      return;
    }
    const int low = __builtin_ctz(unsigned(~covered));  // the set holding the lowest free position
    for (size_t i = 0; i < good.size(); ++i)
      if ((good[i].first >> low & 1) && !(good[i].first & covered)) {
        pick.push_back(i);
        partition(covered | good[i].first, hops + good[i].second.hops);
        pick.pop_back();
      }
  };
  partition(0, 0);
  if (best.empty()) throw std::logic_error("EDN 3D: no partition of the 4x4 plane");
  std::vector<Config> out;
  for (size_t i : best) out.push_back(good[i].second);
  return out;
}

IdHierarchy unit(int c) {
  static const std::vector<Config> configs = plane_configs();
  const Grid g{4, 4, c};
  std::vector<int> dom;
  IdSends last;
  for (int z = 0; z < c; ++z) {
    const Config& cf = configs[size_t(z % 4)];
    for (int n : cf.nodes) dom.push_back(n + 16 * z);
    for (const auto& [f, t] : cf.sends) last.push_back({f + 16 * z, t + 16 * z});
  }
  std::sort(dom.begin(), dom.end());
  g.sort(last);
  IdHierarchy h;
  // 4 tops reach 4c - 4 others: 12 on 4 planes at 3 or 4 each; 16 on 5 planes only at 5 each (the
  // thesis's 4x4x5 level 1 of 16 nodes, one configuration also dominating the fifth plane, is lost).
  if (!with_tops(g, dom, last, Fanout{c == 5 ? 5 : k3d.sends, true}, h))
    throw std::logic_error("EDN 3D: no top step in the unit");
  return h;
}

}  // namespace

// The unit's depth c (2..5) and the copies stacked along z: the fewest spread steps, the thesis's 4
// and 5 first.
int unit_depth(int z, int* copies) {
  *copies = 1;
  if (z >= 2 && z <= 5) return z;
  int best = 0;
  for (int c : {4, 5, 3, 2})
    if (z % c == 0 && (!best || log3_ceil(z / c) < log3_ceil(z / best))) best = c;
  if (best) *copies = z / best;
  return best;
}

namespace {

// The unit path (4*2^k planes, a depth of 2..5 or a multiple): its depth and copies, else 0.
int unit_path(int w, int h, int z, int* k, int* copies) {
  int kh = 0;
  *copies = 1;
  if (w != h || base_factor(w, k) != 4 || base_factor(h, &kh) != 4) return 0;
  return unit_depth(z, copies);
}

// The 2D hierarchy of a w x h plane on the ids of a w x h x 1 grid.
IdHierarchy plane(int w, int h) {
  return renamed<IdHierarchy>(*mesh_hierarchy(w, h), [w](Node n) { return n.first + w * n.second; });
}

}  // namespace

bool mesh3_supported(const Topology& topo) {
  if (topo.kind() != TopoKind::Mesh || topo.dims() != 3 || topo.radix()[2] < 2) return false;
  int kw = 0, kh = 0;
  return base_factor(topo.radix()[0], &kw) && base_factor(topo.radix()[1], &kh) && kw == kh;
}

// The hierarchy of a supported 3D mesh (nullptr otherwise), computed once per size: the units where
// they fit, else the planes' 2D hierarchy in every plane (copies of depth 1), the spread along z first.
const IdHierarchy* mesh3_hierarchy(const Topology& topo) {
  if (!mesh3_supported(topo)) return nullptr;
  const int w = topo.radix()[0], h = topo.radix()[1], z = topo.radix()[2];
  static std::mutex mu;
  static std::map<std::array<int, 3>, IdHierarchy> cache;
  const std::lock_guard<std::mutex> lock(mu);
  if (const auto it = cache.find({w, h, z}); it != cache.end()) return &it->second;
  int k = 0, copies = 1;
  int c = unit_path(w, h, z, &k, &copies);
  IdHierarchy block;
  if (c) {
    block = unit(c);
    for (int j = 1; j <= k; ++j) block = doubled(block, Grid{4 << j, 4 << j, c}, k3d);
  } else {
    c = 1;
    copies = z;
    block = plane(w, h);
  }
  // Stack the copies: ids of the block's grid (w x h x c) shift by w h c per copy.
  const int plane_ids = w * h * c;
  IdHierarchy hier;
  std::vector<std::vector<std::pair<int, int>>> zsteps;
  const int first = spread(0, copies - 1, 0, zsteps);
  for (int t : block.tops) hier.tops.push_back(t + first * plane_ids);
  for (const auto& step : zsteps) {
    hier.descent.emplace_back();
    for (const auto& [from, to] : step)
      for (int t : block.tops) hier.descent.back().push_back({t + from * plane_ids, t + to * plane_ids});
  }
  for (const IdSends& step : block.descent) {
    hier.descent.emplace_back();
    for (int copy = 0; copy < copies; ++copy)
      for (const auto& [from, to] : step)
        hier.descent.back().push_back({from + copy * plane_ids, to + copy * plane_ids});
  }
  hier.one_step = block.one_step;
  hier.top_hops = block.top_hops;
  return &cache.emplace(std::array<int, 3>{w, h, z}, std::move(hier)).first->second;
}

int mesh3_height(const Topology& topo) { return int(mesh3_hierarchy(topo)->descent.size()); }

std::vector<IdSends> mesh3_steps(const Topology& topo, int source) {
  const IdHierarchy& h = *mesh3_hierarchy(topo);
  const IdStartup st = startup_ids(topo, h.tops, source, k3d.sends);
  std::vector<IdSends> steps = {st.step1};
  if (!st.step2.empty()) steps.push_back(st.step2);
  steps.insert(steps.end(), h.descent.begin(), h.descent.end());
  return steps;
}

}  // namespace wn::alg::edn
