// EDN hierarchies of the meshes whose sides are 5, 6 or 7 times a power of two (Tsai's thesis,
// Ch 3, Tables 3.2-3.4: tree height k + 2 on n = 5, 6, 7 * 2^k; the thesis builds them from 5x5,
// 6x6 and 7x7 base blocks by "the Cockayne method" in figures that are lost). Ours, found by the
// searches of mesh_search.h, deterministic, 3 sends per node and step:
// - a base block b1 x b2 (b1, b2 in 4..7, not 4x4): level 1 is a smallest set D whose members
//   each send to at most 3 neighbours so that every other node gets one message (1-hop sends never
//   share a channel); level 2 is 4 top nodes of D that send to the rest of D in one step on
//   channel-disjoint XY routes, at most 3 each. Among the sets D in search order and their top
//   sets, the first whose best assignment admits a one-step startup from a top wins, fewest hops
//   next;
// - doubling (as the thesis's 2^k recursion, Ch 3 and its Appendix A): the four quadrants carry the
//   half-size hierarchy, mirrored or translated (both map XY routes to XY routes, so the replicated
//   descent stays contention-free); 4 of the 16 quadrant tops send to the other 12 on
//   channel-disjoint XY routes, at most 3 each, with the fewest hops.
#include <map>
#include <mutex>

#include "algorithms/families/edn/mesh_search.h"

namespace wn::alg::edn {

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
    IdHierarchy ids = base_block(Grid{bw, bh, 1}, Fanout{});
    for (int j = 1; j <= kw; ++j) ids = doubled(ids, Grid{bw << j, bh << j, 1}, Fanout{});
    hier = renamed<Hierarchy>(ids, [w](int n) { return Node{n % w, n / w}; });
  }
  return &cache.emplace(std::make_pair(w, h), std::move(hier)).first->second;
}

const Hierarchy* mesh_hierarchy(const Topology& topo) {
  if (topo.kind() != TopoKind::Mesh || topo.dims() != 2) return nullptr;
  return mesh_hierarchy(topo.radix()[0], topo.radix()[1]);
}

}  // namespace wn::alg::edn
