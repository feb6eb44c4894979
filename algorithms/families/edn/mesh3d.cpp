// EDN broadcast on 3D meshes (Tsai's thesis, Ch 3, Figs 3.18-3.23 and Table 3.5: (4*2^k)^2 x
// (4|5 * 3^m) in k + m + 4 steps). The thesis's level sets are in lost figures; the structure
// here is its own, the blocks are ours (mesh_search.h), at most 4 sends per node and step (the
// thesis's final step "at most 4"):
// - a unit a x b x c (a, b in 4..7; c = Z when Z <= 7, else c in 4..7 dividing Z): level 1 by
//   neighbour sends, 4 tops in distinct (x, y) columns reaching the rest of level 1 in one step;
// - the thesis's XY recursion (Fig 3.22): the unit doubled in x and y k times, a new top step each;
// - its Z recursion (Fig 3.23), generalised: s = Z / c copies of the unit stacked along z, the
//   middle copy's tops spreading the message along their own columns, every holder sending to the
//   middles of the outer thirds of its interval (+Z and -Z): ceil(log3 s) steps, then every copy
//   descends on its own.
// Steps: a 1- or 2-step startup to the 4 tops, ceil(log3 s) Z steps, k top steps, and the unit's 2.
#include <map>
#include <mutex>

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

}  // namespace

bool mesh3_supported(const Topology& topo);

int unit_depth(int z, int* copies) {
  *copies = 1;
  if (z >= 2 && z <= 7) return z;
  int best = 0;
  for (int c = 4; c <= 7; ++c)
    if (z % c == 0 && (!best || log3_ceil(z / c) < log3_ceil(z / best))) best = c;
  if (best) *copies = z / best;
  return best;
}

// The hierarchy of a supported 3D mesh (nullptr otherwise), computed once per size.
const IdHierarchy* mesh3_hierarchy(const Topology& topo) {
  if (!mesh3_supported(topo)) return nullptr;
  const int w = topo.radix()[0], h = topo.radix()[1], z = topo.radix()[2];
  int kw = 0, kh = 0, copies = 1;
  const int a = base_factor(w, &kw), b = base_factor(h, &kh), c = unit_depth(z, &copies);
  static std::mutex mu;
  static std::map<std::array<int, 3>, IdHierarchy> cache;
  const std::lock_guard<std::mutex> lock(mu);
  if (const auto it = cache.find({w, h, z}); it != cache.end()) return &it->second;
  IdHierarchy unit = base_block(Grid{a, b, c}, k3d);
  for (int j = 1; j <= kw; ++j) unit = doubled(unit, Grid{a << j, b << j, c}, k3d);
  // Stack the copies: ids of `unit`'s grid (w x h x c) shift by w h c per copy.
  const int plane = w * h * c;
  IdHierarchy hier;
  std::vector<std::vector<std::pair<int, int>>> zsteps;
  const int first = spread(0, copies - 1, 0, zsteps);
  for (int t : unit.tops) hier.tops.push_back(t + first * plane);
  for (const auto& step : zsteps) {
    hier.descent.emplace_back();
    for (const auto& [from, to] : step)
      for (int t : unit.tops) hier.descent.back().push_back({t + from * plane, t + to * plane});
  }
  for (const IdSends& step : unit.descent) {
    hier.descent.emplace_back();
    for (int copy = 0; copy < copies; ++copy)
      for (const auto& [from, to] : step) hier.descent.back().push_back({from + copy * plane, to + copy * plane});
  }
  hier.one_step = unit.one_step;
  hier.top_hops = unit.top_hops;
  return &cache.emplace(std::array<int, 3>{w, h, z}, std::move(hier)).first->second;
}

bool mesh3_supported(const Topology& topo) {
  if (topo.kind() != TopoKind::Mesh || topo.dims() != 3) return false;
  int kw = 0, kh = 0, copies = 1;
  return base_factor(topo.radix()[0], &kw) && base_factor(topo.radix()[1], &kh) && kw == kh &&
         unit_depth(topo.radix()[2], &copies);
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
