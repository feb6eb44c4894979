#include "algorithms/tau_model.h"

#include <cmath>
#include <cstdint>

#include "algorithms/thesis_formulas.h"

namespace wn::alg::tau {

namespace {

double side(int n) { return std::ldexp(1.0, n) - 1; }            // 2^n - 1
double one_minus(int n) { return 1 - std::ldexp(1.0, -2 * n); }  // 1 - 2^-2n

}  // namespace

std::optional<double> Linear::tau() const {
  if (!(ts > 0)) return std::nullopt;
  return tn / ts;
}

Crossover crossover(const Linear& a, const Linear& b) {
  const double dts = a.ts - b.ts, dtn = a.tn - b.tn;
  Crossover c;
  if (dts == 0 && dtn == 0) return c;
  if (dts <= 0 && dtn <= 0) {
    c.kind = Crossover::Kind::a_first;
  } else if (dts >= 0 && dtn >= 0) {
    c.kind = Crossover::Kind::b_first;
  } else {
    c.kind = Crossover::Kind::crosses;
    c.at = -dts / dtn;
    c.a_below = dts < 0;
  }
  return c;
}

Region region(const Linear& p, const Linear& x) {
  const Crossover c = crossover(p, x);
  switch (c.kind) {
    case Crossover::Kind::same:
      return Region::same;
    case Crossover::Kind::a_first:
      return Region::A;
    case Crossover::Kind::b_first:
      return Region::B;
    case Crossover::Kind::crosses:
      break;
  }
  return c.a_below ? Region::D : Region::C;
}

const char* region_name(Region r) {
  switch (r) {
    case Region::A:
      return "A";
    case Region::B:
      return "B";
    case Region::C:
      return "C";
    case Region::D:
      return "D";
    case Region::same:
      break;
  }
  return "same";
}

std::string region_meaning(Region r) {
  switch (r) {
    case Region::A:
      return "faster at every length";
    case Region::B:
      return "slower at every length";
    case Region::C:
      return "favours long messages: faster above the crossover";
    case Region::D:
      return "favours short messages: faster below the crossover";
    case Region::same:
      break;
  }
  return "the same cost";
}

int ft_steps_mesh(int n, int k) { return ft_steps(uint64_t(1) << (2 * n), k); }

Linear rd_cost(const MeshParams& m) {
  return {2 * m.n * m.alpha + 2 * m.beta * side(m.n) + 2 * m.n * m.gamma, 2 * m.n * m.beta};
}

Linear sc_cost(const MeshParams& m) {
  return {2 * (side(m.n) + m.n) * (m.alpha + m.gamma) + 6 * side(m.n) * m.beta, 2 * one_minus(m.n) * m.beta};
}

Linear edn_cost(const MeshParams& m) {
  return {3 * m.n * m.alpha + (m.n + 1) * m.gamma + side(m.n) * m.beta, (m.n + 1) * m.beta};
}

Linear ft_cost(const MeshParams& m, int k) {
  const double t = ft_steps_mesh(m.n, k);
  return {t * m.alpha + 2 * k * m.beta * side(m.n) + t * m.gamma, t * m.beta / k};
}

double tau0(const MeshParams& m) { return m.beta / (m.alpha + m.gamma); }

std::optional<double> epsilon(int n, int k) {
  if (k <= 3) return std::nullopt;
  return (2 * (side(n) + n) - ft_steps_mesh(n, k)) / (2 * side(n) * (k - 3));
}

double omega(int n, int k) { return 3.0 * ft_steps_mesh(n, k) - 2.0 * k * k * one_minus(n); }

std::optional<double> mu(int n, int k) {
  const double w = omega(n, k);
  if (w == 0) return std::nullopt;
  return ft_steps_mesh(n, k) * (k * one_minus(n) - side(n) - n) / (side(n) * w);
}

std::optional<double> edn_ft_threshold(int n, int k) {
  if (k <= 1) return std::nullopt;
  return (3.0 * n - ft_steps_mesh(n, k)) / (2 * (k - 1) * side(n));
}

double edn_ft_r(int n, int k) { return 2.0 * k * k * (n + 1) - ft_steps_mesh(n, k); }

Crossover edn_sc_crossover(const MeshParams& m) { return crossover(edn_cost(m), sc_cost(m)); }
Crossover sc_ft_crossover(const MeshParams& m, int k) { return crossover(sc_cost(m), ft_cost(m, k)); }

double sc_minus_edn_startup(const MeshParams& m) {
  const double w = std::ldexp(1.0, m.n);
  return (2 * w - 2 - m.n) * m.alpha + (2 * w - 3 + m.n) * m.gamma + 5 * side(m.n) * m.beta;
}

}  // namespace wn::alg::tau
