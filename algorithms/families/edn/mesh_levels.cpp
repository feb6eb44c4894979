// The EDN hierarchy of a 2^k x 2^k mesh (Tsai's thesis): top nodes from
// the Appendix recurrence, the top step, and the descent built by replicating
// tree(k-1) into the four quadrants.
#include <stdexcept>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

namespace {

// Pattern B = {(x,y) in [0,3]^2 : (2x + y) mod 5 = 2}, a perfect dominating set of the 4x4 mesh.
const std::vector<Node> kPatternB = {{0, 2}, {1, 0}, {2, 3}, {3, 1}};

std::vector<StepSends> tree2() {
  StepSends s;
  for (const Node& d : kPatternB) {
    const int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
    for (int i = 0; i < 4; ++i) {
      const Node n{d.first + dx[i], d.second + dy[i]};
      if (n.first >= 0 && n.first < 4 && n.second >= 0 && n.second < 4) s.push_back({d, n});
    }
  }
  return {s};
}

// The top step: each top node sends to 3 level-(k-2) nodes on channel-disjoint XY paths with the
// minimum total hop count (k = 3 from our table, k >= 4 by our rule: the thesis's figure is lost).
StepSends top_step(int k) {
  if (k == 3)
    return {{{1, 0}, {0, 2}}, {{1, 0}, {3, 1}}, {{1, 0}, {1, 4}}, {{6, 0}, {7, 2}}, {{6, 0}, {4, 1}}, {{6, 0}, {6, 4}},
            {{2, 7}, {0, 6}}, {{2, 7}, {3, 5}}, {{2, 7}, {2, 3}}, {{5, 7}, {7, 6}}, {{5, 7}, {4, 5}}, {{5, 7}, {5, 3}}};
  const int w = 1 << k;
  auto mv = [w](Node n) { return Node{w - 1 - n.first, n.second}; };
  auto mh = [w](Node n) { return Node{n.first, w - 1 - n.second}; };
  const std::vector<Node> t = top_nodes(k), lower = top_nodes(k - 1);
  const Node a = lower[0], b = lower[1];
  return {{t[0], a},     {t[0], b},     {t[0], mh(t[0])}, {t[1], mv(a)},     {t[1], mv(b)},     {t[1], mh(t[1])},
          {t[2], mh(a)}, {t[2], mh(b)}, {t[2], mh(t[2])}, {t[3], mv(mh(a))}, {t[3], mv(mh(b))}, {t[3], mh(t[3])}};
}

}  // namespace

std::vector<Node> top_nodes(int k) {
  if (k < 2) throw std::logic_error("EDN mesh: k >= 2");
  if (k == 2) return kPatternB;
  std::vector<Node> t = {{1, 0}, {6, 0}, {2, 7}, {5, 7}};  // A, B, C, D of k = 3
  for (int j = 4; j <= k; ++j) {
    const int w = 1 << j, half = w / 2;
    const Node c = t[2], d = t[3];
    t = {c, {w - 1 - c.first, c.second}, {half - 1 - c.first, w - 1 - c.second}, {w - 1 - d.first, w - 1 - d.second}};
  }
  return t;
}

std::vector<StepSends> tree(int k) {
  if (k == 2) return tree2();
  const int w = 1 << k, half = w / 2;
  // The quadrant maps: k = 3 (pattern D) translates the lower half up; k >= 4 mirrors it.
  auto map = [&](int q, Node n) -> Node {
    const bool right = q & 1, top = q & 2;
    if (k == 3) return {right ? w - 1 - n.first : n.first, top ? n.second + half : n.second};
    return {right ? w - 1 - n.first : n.first, top ? w - 1 - n.second : n.second};
  };
  std::vector<StepSends> out{top_step(k)};
  for (const StepSends& lower : tree(k - 1)) {
    StepSends s;
    for (int q = 0; q < 4; ++q)
      for (const auto& [from, to] : lower) s.push_back({map(q, from), map(q, to)});
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace wn::alg::edn
