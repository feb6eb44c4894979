// EDN broadcast on a 2^d x 2^d torus (Tsai's thesis): phases
// {YT} with delta = W/4, W/16, ... >= 1, then one F step when W = 2 * 4^k.
// In a Y step every holder sends to (-d,-d), (0,+2d), (+2d,0); in the T step
// the holder (Ys) and the three Y recipients (Ya, Yb, Yc) each send to three
// more nodes (the T table of the reconstruction); F: (-1,+1), (0,+1), (+1,0).
// d steps, every node but the source receives once, every step channel-
// disjoint under the torus routing (shortest direction, ties +).
#include <map>

#include "algorithms/families/edn/edn.h"

namespace wn::alg::edn {

namespace {

enum class Role { Ys, Ya, Yb, Yc };

struct Offset {
  int dx, dy;
};

// T-step offsets in units of delta, per role (ours: the thesis's T-pattern figure, Ch 4 Fig 4.8,
// is lost; the table meets the contention-freedom the thesis states).
const std::map<Role, std::vector<Offset>>& t_table() {
  static const std::map<Role, std::vector<Offset>> t = {
      {Role::Ys, {{-1, 0}, {0, 1}, {1, 0}}},
      {Role::Ya, {{-1, -1}, {0, 2}, {2, 0}}},
      {Role::Yb, {{-1, 0}, {0, 1}, {1, 0}}},
      {Role::Yc, {{-1, 1}, {0, -1}, {0, 1}}},
  };
  return t;
}

}  // namespace

std::vector<StepSends> torus_steps(int d, Node source) {
  const int w = 1 << d;
  auto at = [w](Node n, int dx, int dy) { return Node{((n.first + dx) % w + w) % w, ((n.second + dy) % w + w) % w}; };
  std::vector<Node> holders = {source};
  std::vector<StepSends> steps;
  int delta = w / 4;
  for (; delta >= 1; delta /= 4) {
    StepSends y, t;
    std::vector<std::pair<Node, Role>> roles;
    for (const Node& h : holders) {
      roles.push_back({h, Role::Ys});
      const std::pair<Node, Role> ys[] = {
          {at(h, -delta, -delta), Role::Ya}, {at(h, 0, 2 * delta), Role::Yb}, {at(h, 2 * delta, 0), Role::Yc}};
      for (const auto& [to, role] : ys) {
        y.push_back({h, to});
        roles.push_back({to, role});
      }
    }
    std::vector<Node> next;
    for (const auto& [n, role] : roles) {
      next.push_back(n);
      for (const Offset& o : t_table().at(role)) {
        const Node to = at(n, o.dx * delta, o.dy * delta);
        t.push_back({n, to});
        next.push_back(to);
      }
    }
    steps.push_back(std::move(y));
    steps.push_back(std::move(t));
    holders = std::move(next);
  }
  if (d % 2 == 1) {  // W = 2 * 4^k: the phases ended at delta = 2; one F step with delta = 1
    StepSends f;
    for (const Node& h : holders)
      for (const Offset& o : std::vector<Offset>{{-1, 1}, {0, 1}, {1, 0}}) f.push_back({h, at(h, o.dx, o.dy)});
    steps.push_back(std::move(f));
  }
  return steps;
}

}  // namespace wn::alg::edn
