// The tau-model of Tsai's thesis, Chapter 5: an operation costs T(L) = T_s + T_n f(L) (Eq 5.1) and
// is drawn as the point (tau, T_s) with tau = T_n / T_s (Eq 5.2), so two operations compare by
// where one lies relative to the other (Fig 5.2) and, when neither dominates, by the length
// where their costs cross (Eqs 5.5-5.7). Also the closed forms of Table 5.3 (RD, SC, FT, EDN
// broadcast on a 2^n x 2^n wormhole mesh, in the thesis's own alpha, beta, gamma: one beta per
// hop and per unit of length) and the thesis's comparisons built on them (Eqs 5.8-5.10).
// Plain arithmetic: the thesis's units, whatever they are; callers map them onto the network's.
#pragma once
#include <optional>
#include <string>

namespace wn::alg::tau {

// T(L) = ts + tn f(L).
struct Linear {
  double ts = 0, tn = 0;
  // Eq 5.2; nullopt when ts <= 0 (a fitted intercept can be), where the ratio means nothing.
  std::optional<double> tau() const;
  double at(double f) const { return ts + tn * f; }
};

// Where two costs cross, in units of f(L) (the caller inverts f, Eq 5.5).
struct Crossover {
  enum class Kind {
    same,     // identical costs
    a_first,  // a is no slower at every length (and faster at some)
    b_first,  // b is no slower at every length
    crosses,  // a and b change places at f(L) = at (> 0)
  } kind = Kind::same;
  double at = 0;         // crosses: f(L*) = (ts_b - ts_a) / (tn_a - tn_b)
  bool a_below = false;  // crosses: a is the faster one for f(L) < at (a has the smaller ts)
};
// Eqs 5.5-5.7 for lengths with f(L) >= 0.
Crossover crossover(const Linear& a, const Linear& b);

// Fig 5.2: the region of point p relative to point x. A: p is faster for every L; B: slower for
// every L; C: favours long messages (slower below the crossover, faster above); D: favours short.
enum class Region { A, B, C, D, same };
Region region(const Linear& p, const Linear& x);
const char* region_name(Region r);
// What the region means, in a few words.
std::string region_meaning(Region r);

// Table 5.3 in the thesis's model: unicast alpha + h beta + beta L + gamma on a 2^n x 2^n mesh.
struct MeshParams {
  double alpha = 0, beta = 0, gamma = 0;
  int n = 1;  // the mesh is 2^n x 2^n, P = 2^(2n) nodes
};
Linear rd_cost(const MeshParams& m);
Linear sc_cost(const MeshParams& m);
Linear edn_cost(const MeshParams& m);
// The Fibonacci tree with k packets: t(P, k) steps (thesis_formulas.h's ft_steps).
Linear ft_cost(const MeshParams& m, int k);
int ft_steps_mesh(int n, int k);  // t(2^(2n), k)

// tau0 = beta / (alpha + gamma), the network parameter of Chapter 5.
double tau0(const MeshParams& m);
// Eq 5.8: T_s[SC] < T_s[FT] exactly when tau0 > epsilon(n, k) (k > 3; nullopt otherwise).
std::optional<double> epsilon(int n, int k);
// omega(n, k) = 3 t(P,k) - 2 k^2 (1 - 2^-2n) and mu(n, k) of Eqs 5.9 / 5.10: with omega > 0,
// tau_SC < tau_FT exactly when tau0 > mu; with omega < 0, when tau0 < mu (mu: nullopt at omega 0).
double omega(int n, int k);
std::optional<double> mu(int n, int k);
// EDN vs FT: the thesis's condition T_s[EDN] < T_s[FT] when tau0 > (3n - t(P,k)) / (2 (k-1) (2^n-1))
// (k > 1). It bounds EDN's startup by 3n (alpha + gamma) + 2 (2^n - 1) beta, so the condition is
// sufficient, not exact. R(n, k) = 2 k^2 (n + 1) - t(P, k), positive for k >= 2 (the thesis prints
// "R(5,k) < 0"; its own use of R needs R > 0).
std::optional<double> edn_ft_threshold(int n, int k);
double edn_ft_r(int n, int k);
// The crossovers Chapter 5 discusses, as crossover(first, second): EDN vs SC (EDN below L*, SC
// above, for every n > 1) and SC vs FT(k) (a crossover in the mixed cases of Eqs 5.8-5.10).
Crossover edn_sc_crossover(const MeshParams& m);
Crossover sc_ft_crossover(const MeshParams& m, int k);
// T_s[SC] - T_s[EDN] in full: (2*2^n - 2 - n) alpha + (2*2^n - 3 + n) gamma + 5 (2^n - 1) beta.
// The thesis's text leaves out the beta term; Table 5.3 has it.
double sc_minus_edn_startup(const MeshParams& m);

}  // namespace wn::alg::tau
