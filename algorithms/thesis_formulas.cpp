#include "algorithms/thesis_formulas.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace wn::alg {

namespace {

// log2 of w when w is a power of two >= 2, else 0.
int log2_exact(int w) {
  int n = 0;
  while ((1 << n) < w) ++n;
  return w >= 2 && (1 << n) == w ? n : 0;
}

int ceil_log2(int w) {
  int n = 0;
  while ((1 << n) < w) ++n;
  return n;
}

constexpr uint64_t kSaturated = uint64_t(1) << 62;

}  // namespace

uint64_t ft_nodes(int t, int k) {
  std::vector<uint64_t> n(size_t(std::max(t, 0) + 1), 1);
  for (int i = k; i <= t; ++i) n[size_t(i)] = std::min(kSaturated, n[size_t(i - k)] + n[size_t(i - 1)]);
  return n[size_t(std::max(t, 0))];
}

int ft_steps(uint64_t p, int k) {
  std::vector<uint64_t> n;
  for (int t = 0;; ++t) {
    n.push_back(t < k ? 1 : n[size_t(t - k)] + n[size_t(t - 1)]);
    if (n.back() >= p) return t;
  }
}

std::optional<ThesisCost> thesis_broadcast_cost(const std::string& algorithm, const Topology& topo, const CostParams& c,
                                                uint32_t words, int packets, int ft_steps) {
  const auto& r = topo.radix();
  const double a = c.alpha, g = c.gamma, bh = c.timing.hop_cycles();
  const uint32_t wpf = uint32_t(std::max(1, c.words_per_flit));
  const double bl = double((words + wpf - 1) / wpf);  // beta L: body flits
  const std::string units = fmt::format("alpha={} gamma={} beta L={} flits, hop beta={}", a, g, bl, bh);
  if (topo.kind() == TopoKind::Mesh && r.size() == 3 && algorithm == "edn-broadcast" && r[0] == r[1] && r[0] >= 4 &&
      r[0] % 4 == 0 && ((r[0] / 4) & (r[0] / 4 - 1)) == 0) {
    // Ch 3's 3D timing (hops ignored) on (4*2^k)^2 x (4|5 * 3^m): 2 startup steps, m Z steps of 2
    // sends, k + 1 in-plane steps of 3, a final step of 4.
    const int k = r[0] == 4 ? 0 : log2_exact(r[0] / 4);
    int z = r[2], m = 0;
    for (; z > 5 && z % 3 == 0; z /= 3) ++m;
    if (z == 4 || z == 5)
      return ThesisCost{(3 * k + 2 * m + 10) * a + (k + m + 4) * g + (k + m + 4) * bl,
                        fmt::format("thesis Ch 3 3D L_EDN = (3k+2m+10) alpha + (k+m+4) gamma + (k+m+4) beta L, "
                                    "k={} m={}; {}",
                                    k, m, units)};
  }
  if (r.size() != 2) return std::nullopt;
  const bool square = r[0] == r[1];
  const int n = square ? log2_exact(r[0]) : 0;  // 2^n x 2^n
  const double side = std::pow(2.0, n) - 1;     // 2^n - 1
  if (topo.kind() == TopoKind::Mesh && n >= 1) {
    if (algorithm == "rd-broadcast" || algorithm == "dim-broadcast")
      return ThesisCost{
          2 * n * (a + g + bl) + 2 * side * bh,
          fmt::format("thesis Table 5.3 RD: 2n alpha + 2 beta (2^n-1) + 2n gamma + 2n beta L, n={}; {}", n, units)};
    if (algorithm == "edn-broadcast")
      return ThesisCost{3 * n * a + (n + 1) * g + side * bh + (n + 1) * bl,
                        fmt::format("thesis Table 5.3 L_EDN = 3n alpha + (n+1) gamma + (2^n-1) beta + (n+1) beta L, "
                                    "n={}; {}",
                                    n, units)};
    if (algorithm == "sc-broadcast")
      return ThesisCost{2 * (side + n) * (a + g) + 6 * side * bh + 2 * (1 - std::pow(2.0, -2 * n)) * bl,
                        fmt::format("thesis Table 5.3 SC: 2(2^n-1+n)(alpha+gamma) + 6(2^n-1) beta + "
                                    "2(1-2^-2n) beta L, n={}; {}",
                                    n, units)};
    if (algorithm == "ft-broadcast" && ft_steps > 0 && packets > 0)
      return ThesisCost{ft_steps * (a + g) + 2 * packets * side * bh + ft_steps * bl / packets,
                        fmt::format("thesis Table 5.3 FT: t(alpha+gamma) + 2K beta (2^n-1) + t beta L / K, n={} "
                                    "t(P,K)={} K={}; {}",
                                    n, ft_steps, packets, units)};
  }
  if (topo.kind() == TopoKind::Torus) {
    if (algorithm == "rd-broadcast") {
      const int lx = ceil_log2(r[0]), ly = ceil_log2(r[1]);
      return ThesisCost{(a + bl + g) * (lx + ly) + bh * (r[0] + r[1] - 2),
                        fmt::format("thesis U-torus: (alpha + beta L + gamma)(ceil log2 X + ceil log2 Y) + "
                                    "beta (X+Y-2) (Eq 4.2 on 2^d x 2^d); {}",
                                    units)};
    }
    if (algorithm == "edn-broadcast" && n >= 2) {
      const int d = n;
      return ThesisCost{3 * d * a + d * g + d * bl + 2 * (std::pow(2.0, d + 1) - 2 + d % 2) * bh / 3,
                        fmt::format("thesis Eq 4.1 L_EDN = 3d alpha + d gamma + d beta L + 2(2^(d+1) - 2 + d mod 2) "
                                    "beta / 3, d={}; {}",
                                    d, units)};
    }
  }
  return std::nullopt;
}

}  // namespace wn::alg
