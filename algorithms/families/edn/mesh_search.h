// The searches behind the EDN hierarchies of meshes other than 2^k x 2^k (mesh_blocks.cpp: 2D,
// mesh3d.cpp: 3D), on node ids of a w x h x d grid under the router's dimension-order routes.
#pragma once
#include <array>
#include <vector>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

// A w x h x d mesh (d = 1: 2D) routed x, then y, then z; node id = x + w (y + h z), a directed
// channel id * 6 + direction.
struct Grid {
  int w, h, d;
  int nodes() const { return w * h * d; }
  int id(int x, int y, int z) const { return x + w * (y + h * z); }
  std::array<int, 3> at(int n) const { return {n % w, n / w % h, n / (w * h)}; }
  int hops(int a, int b) const;
  void route(int a, int b, std::vector<int>& out) const;
  std::vector<int> neighbours(int u) const;
  // Sends in (x, y, z) order of the sender, then of the receiver.
  void sort(IdSends& s) const;
};

// A hierarchy on a grid's ids: the 4 tops and the descent, one entry per step.
struct IdHierarchy {
  std::vector<int> tops;
  std::vector<IdSends> descent;
  bool one_step = false;  // a top reaches the other three in one step
  int top_hops = 0;       // hops of the first descent step
};

// A hierarchy with every node renamed by `f` (node ids <-> 2D coordinates): Out and In are Hierarchy
// or IdHierarchy.
template <class Out, class In, class F>
Out renamed(const In& h, F f) {
  Out out;
  for (const auto& t : h.tops) out.tops.push_back(f(t));
  for (const auto& step : h.descent) {
    out.descent.emplace_back();
    for (const auto& [from, to] : step) out.descent.back().push_back({f(from), f(to)});
  }
  out.one_step = h.one_step;
  out.top_hops = h.top_hops;
  return out;
}

// The search's limits: sends per node in a step, and whether the tops must lie in distinct
// (x, y) columns (a spread along z follows, each top sending along its own column).
struct Fanout {
  int sends = 3;
  bool columns = false;
};

// `tops` reaching every node of `rest` in one step, at most `cap` sends each, on channel-disjoint
// routes with the fewest hops (`sends`, `hops`); false when they cannot.
bool top_step(const Grid& g, const std::vector<int>& tops, const std::vector<int>& rest, int cap, IdSends& sends,
              int& hops);
// A base block: level 1 is a smallest set D whose members send to at most `f.sends` neighbours each
// so that every other node gets one message; 4 tops of D reach the rest of D in one step on
// channel-disjoint routes (at most `f.sends` each), preferring a top set with a one-step startup,
// then the fewest hops.
IdHierarchy base_block(const Grid& g, Fanout f);
// The top level over a given level 1 (`dom`, whose sends to every other node are `last`): 4 tops
// of `dom` as base_block picks them, into `best`; false when no 4 reach the rest of `dom`.
bool with_tops(const Grid& g, const std::vector<int>& dom, const IdSends& last, Fanout f, IdHierarchy& best);
// The hierarchy of `g` (twice `q`'s grid in x and y) with `q` in its four quadrants, mirrored or
// translated, and a new top step from 4 of the 16 quadrant tops.
IdHierarchy doubled(const IdHierarchy& q, const Grid& g, Fanout f);

}  // namespace wn::alg::edn
