// EDN broadcast on a 2^d x 2^d x z torus (Tsai's thesis, Theorem 3,
// with our zone rule replacing the lost pattern (b)): a holder that
// owns several XY planes splits them into at most 7 (first step) or 6 zones,
// keeps the first and sends to the plane of every other zone nearest to it —
// one target routed +Z and one routed -Z straight along Z, the others via a
// side step (+1,0), (-1,0), (0,+1), (0,-1) first — so its messages leave on
// distinct output channels; a holder owning one plane runs the 2D torus
// algorithm in it. Steps: d (z = 1), d + 1 (2 <= z <= 7), d + m + 2
// (7*6^m < z <= 7*6^(m+1)).
#include <algorithm>
#include <functional>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

std::vector<IdSends> torus3_steps(const Topology& topo, int source) {
  const int w = topo.radix()[0], z = topo.radix()[2], d = torus3_d(topo);
  auto id = [&](int x, int y, int p) { return topo.node_at({((x % w) + w) % w, ((y % w) + w) % w, p}); };
  std::vector<IdSends> steps;
  auto add = [&](uint32_t tag, int from, int to) {
    if (steps.size() <= tag) steps.resize(tag + 1);
    steps[tag].push_back({from, to});
  };
  // `planes`: the holder's planes ordered from its own outward.
  std::function<void(int, int, std::vector<int>, uint32_t)> expand = [&](int x, int y, std::vector<int> planes,
                                                                         uint32_t tag) {
    const int p0 = planes.front();
    if (planes.size() == 1) {
      const auto flat = torus_steps(d, {x, y});
      for (uint32_t i = 0; i < flat.size(); ++i)
        for (const auto& [f, t] : flat[i]) add(tag + i, id(f.first, f.second, p0), id(t.first, t.second, p0));
      return;
    }
    const bool first = tag == 0;
    const size_t n = planes.size(), parts = std::min<size_t>(n, first ? 7 : 6), base = n / parts, extra = n % parts;
    std::vector<std::vector<int>> zones;
    for (size_t i = 0, at = 0; i < parts; ++i) {
      const size_t len = base + (i < extra ? 1 : 0);
      zones.emplace_back(planes.begin() + long(at), planes.begin() + long(at + len));
      at += len;
    }
    auto ring = [z](int a, int b) { return std::min(((b - a) % z + z) % z, ((a - b) % z + z) % z); };
    bool plus_straight = false, minus_straight = false;
    const int side[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int next_side = 0;
    for (size_t i = 1; i < zones.size(); ++i) {
      std::vector<int> zone = zones[i];
      // The zone's plane nearest the holder: around the ring on the first step, along it later.
      if (first && ring(p0, zone.back()) < ring(p0, zone.front())) std::reverse(zone.begin(), zone.end());
      const int target = zone.front(), dz = ((target - p0) % z + z) % z;
      const bool plus = dz <= z - dz;  // the routing function's shortest direction, ties +
      int tx = x, ty = y;
      if (plus ? !plus_straight : !minus_straight) {
        (plus ? plus_straight : minus_straight) = true;
      } else {
        tx += side[next_side][0];
        ty += side[next_side][1];
        ++next_side;
      }
      add(tag, id(x, y, p0), id(tx, ty, target));
      expand(tx, ty, zone, tag + 1);
    }
    expand(x, y, zones.front(), tag + 1);
  };
  const auto c = topo.coords(source);
  std::vector<int> ring_order;
  for (int i = 0; i < z; ++i) ring_order.push_back((c[2] + i) % z);
  expand(c[0], c[1], ring_order, 0);
  return steps;
}

}  // namespace wn::alg::edn
