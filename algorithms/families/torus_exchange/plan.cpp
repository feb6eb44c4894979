// Who talks to whom (Suh, Shin & An). Every step pairs nodes with
// mirror images: XM_p / YM_p complement the low p bits of x / y, i.e. mirror
// inside the aligned 2^p-wide block (phase d: the whole ring). Diagonal groups
// put exactly two mirror-image nodes per row and per column of each 2^p window
// into one group, so one group can move in x while another moves in y without
// sharing a link. The partners follow the paper's prose ("within a 2^i x 2^i
// submesh") where the printed bit formulas put the overline one bit off, and
// the T1.x step counts are ours (E2, docs/papers/torus-exchange.md); T1.x
// with x = 0 is T2.
#include <string>

#include "algorithms/families/torus_exchange/torus_exchange.h"

namespace wn::alg {

namespace {

int mask(int p) { return (1 << p) - 1; }

}  // namespace

int torus_exponent(const Topology& topo) {
  if (topo.dims() != 2 || topo.radix()[0] != topo.radix()[1]) return 0;
  if (topo.kind() != TopoKind::Torus && topo.kind() != TopoKind::Mesh) return 0;
  const int side = topo.radix()[0];
  if (side < 4 || (side & (side - 1)) != 0) return 0;
  return __builtin_ctz(unsigned(side));
}

// SG_p(1): the two main diagonals of the window; p <= 1 is every node (phase 1
// and, for T2, the whole exchange start with all nodes).
bool torus_sg1(int p, int x, int y) {
  if (p <= 1) return true;
  const int m = mask(p);
  return ((y - x) & m) == 0 || ((x + y) & m) == m;
}

// SG_p(2): the quadrants' diagonals minus SG_p(1). The paper prints G_p(2)'s
// second clause as x + y = 2^p - 1, which overlaps G_p(1); 2^{p-1} - 1 is meant.
bool torus_sg2(int p, int x, int y) {
  if (p <= 1 || torus_sg1(p, x, y)) return false;
  const int m = mask(p), half = 1 << (p - 1);
  return ((y - x) & m) == half || ((x + y) & m) == half - 1;
}

// G_p(j), j = 1..2^{p-1}: residues taken in [0, 2^p) (a negative C `%` would
// miss them). The groups partition the window (tests hold the group maps).
int torus_group(int p, int x, int y) {
  if (torus_sg1(p, x, y)) return 1;
  if (torus_sg2(p, x, y)) return 2;
  const int m = mask(p), big = 1 << p, dm = (y - x) & m, sm = (x + y) & m;
  const bool even = (y & 1) == 0;
  for (int k = 1; k < big / 4; ++k) {
    if (dm == ((big - 2 * k) & m) || sm == big - 2 * k - 1) return even ? 2 * k + 1 : 2 * k + 2;  // A_k
    if (dm == 2 * k || sm == 2 * k - 1) return even ? 2 * k + 2 : 2 * k + 1;                      // B_k
  }
  return 0;
}

int torus_startups(int d, int x) {
  if (d <= 3) return 2 * d;
  return 3 * (1 << (d - 2 - x)) + 3 * x;
}

uint64_t torus_blocks(int d, int x) {
  if (d <= 3) return uint64_t(d) << (2 * d);
  return 3ull * (1ull << (3 * d - 3)) + 5ull * ((1ull << x) - 1) * (1ull << (2 * d - 1));
}

TorusPlan torus_plan(const Topology& topo, int x, bool literal) {
  TorusPlan plan;
  plan.d = torus_exponent(topo);
  plan.x = x;
  plan.side = topo.radix()[0];
  const int d = plan.d, n = topo.nodes();
  std::vector<int> cx(static_cast<size_t>(n)), cy(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u) {
    const auto c = topo.coords(u);
    cx[size_t(u)] = c[0];
    cy[size_t(u)] = c[1];
  }
  // PAIR(p, Gx, Gy): Gx members send to XM_p(self), Gy members to YM_p(self);
  // both sets are closed under their mirror, so every message is answered.
  auto pair = [&](const std::string& label, int p, TorusRule rx, TorusRule ry, auto in_x, auto in_y) {
    TorusStep st;
    st.label = label;
    st.roles.resize(static_cast<size_t>(n));
    const int m = mask(p);
    for (int u = 0; u < n; ++u) {
      const int ux = cx[size_t(u)], uy = cy[size_t(u)];
      TorusRole& r = st.roles[size_t(u)];
      if (in_x(ux, uy))
        r = {topo.node_at({ux ^ m, uy}), 0, rx, uint8_t(p)};
      else if (in_y(ux, uy))
        r = {topo.node_at({ux, uy ^ m}), 1, ry, uint8_t(p)};
    }
    plan.steps.push_back(std::move(st));
  };
  auto label = [](int p, int k) { return "P" + std::to_string(p) + "S" + std::to_string(k); };
  // Phases 1..x concentrate the data on half the holders per phase (SPLIT,
  // then HANDOFF); phase x+1 is the heavy set's first two-step exchange.
  for (int p = 1; p <= x + 1; ++p) {
    auto sg = [p](int a, int b) { return torus_sg1(p, a, b); };
    auto extra = [p, literal](int a, int b) { return literal && torus_sg2(p, a, b); };  // SG_1(2) is empty
    const bool conc = p <= x;
    pair(label(p, 1), p, conc ? TorusRule::Split : TorusRule::Exch, TorusRule::Extra, sg, extra);
    pair(label(p, 2), p, TorusRule::Extra, conc ? TorusRule::Handoff : TorusRule::Exch, extra, sg);
  }
  // Phases x+2..d-1: G_p(j), G_p(j+1) with j = 2^{x+1}(i-1)+1 make up the heavy
  // set SG_{x+1}(1) (E2: 2^{p-1-x} steps, where the paper's text has 2^{p-2}).
  auto groups = [&](int p, int q, int count) {
    for (int i = 1; i <= count; ++i) {
      const int j = (1 << (x + 1)) * (i - 1) + 1;
      auto gj = [q, j](int a, int b) { return torus_group(q, a, b) == j; };
      auto gk = [q, j](int a, int b) { return torus_group(q, a, b) == j + 1; };
      pair(label(p, 2 * i - 1), p, TorusRule::Exch, TorusRule::Exch, gj, gk);
      pair(label(p, 2 * i), p, TorusRule::Exch, TorusRule::Exch, gk, gj);
    }
  };
  for (int p = x + 2; p <= d - 1; ++p) groups(p, p, 1 << (p - 2 - x));
  // Phase d: full-ring mirrors over the phase-(d-1) groups; for d = 2 the
  // groups are SG_2 (the paper leaves SG_1 undefined; T1 = T2 for d < 4).
  if (d == 2)
    groups(2, 2, 1);
  else
    groups(d, d - 1, 1 << (d - 3 - x));
  // Send phase: a binomial scatter inside each aligned 2^{x+1} run of a row
  // (step s carries half of what the sender holds, so each send step carries
  // twice the next; the paper's Table 1 sums them linearly, E1).
  for (int s = 1; s <= x; ++s) {
    TorusStep st;
    st.label = "SendS" + std::to_string(s);
    st.one_way = true;
    st.roles.resize(static_cast<size_t>(n));
    const int m = mask(x + 1 - s);
    for (int u = 0; u < n; ++u) {
      const int ux = cx[size_t(u)], uy = cy[size_t(u)];
      if (!torus_sg1(x + 2 - s, ux, uy)) continue;
      const int v = topo.node_at({ux ^ m, uy});
      st.roles[size_t(u)] = {v, 0, TorusRule::Scatter, uint8_t(s)};
      st.roles[size_t(v)] = {u, 0, TorusRule::Recv, uint8_t(s)};
    }
    plan.steps.push_back(std::move(st));
  }
  return plan;
}

}  // namespace wn::alg
