// --ccl-alg auto: the linear model picks the algorithm and its knobs (ours, from
// the paper's formulas: in this model only index's radix and bcast/reduce's packet
// size are real trade-offs; the tree-vs-butterfly choices, which the paper prices by
// C1 against C3, never win on C1 t_s + C2 t_c).
#include <fmt/format.h>

#include <limits>

#include "algorithms/ccl/ccl.h"
#include "algorithms/group.h"

namespace wn::alg::ccl {

namespace {
bool packeted(const std::string& a) { return a == "nesbt" || a == "chain" || a == "circ-graph" || a == "dbtree"; }
}  // namespace

Choice choose_by_model(const Call& call, double ts, double tc) {
  Choice best;
  best.cycles = std::numeric_limits<double>::infinity();
  std::string seen;  // each algorithm at its best knob
  for (const std::string& a : algorithms(call.op)) {
    // The windowed linear index sends several messages per step, which the one-send-per-step
    // model cannot price (it would always pick the widest window): measured only (wormnet tune).
    if (a == "linear") continue;
    Call c = call, mine;
    c.alg = a;
    double least = std::numeric_limits<double>::infinity();
    auto consider = [&](const Call& x) {
      if (!unsupported(x).empty()) return;
      const Costs k = costs(x);
      if (const double t = k.c1 * ts + double(k.c2) * tc; t < least) least = t, mine = x;
    };
    double bound = std::numeric_limits<double>::infinity();  // the least lower bound of a knob not built
    if (a == "dbtree")  // its costs come from its schedule: the half whole, then 2, 4, ... 1024 chunks
      for (uint32_t m = 1, half = (c.b + 1) / 2; m <= 1024 && (m == 1 || half / m >= 1); m *= 2) {
        c.packet = m == 1 ? 0 : (half + m - 1) / m;
        // Built only where it could win (its lower bound under the best so far) and affordable.
        const Costs lb = dbtree_lower_bound(c);
        const double low = lb.c1 * ts + double(lb.c2) * tc;
        if (dbtree_messages(c) <= (1u << 20) && low < std::min(best.cycles, least))
          consider(c);
        else
          bound = std::min(bound, low);
      }
    else if (packeted(a))  // packet sizes 1..m words (nesbt's best is near sqrt(m ts / ((d-1) tc)))
      for (c.packet = 1; c.packet <= c.b && c.packet <= 65536; ++c.packet) consider(c);
    else if (a == "hybrid")
      for (c.kappa = 0; c.kappa <= ceil_log2(c.n); ++c.kappa) consider(c);
    else if (a == "bruck")
      for (c.radix = 2; c.radix <= c.n; ++c.radix) consider(c);
    else
      consider(c);
    if (least == std::numeric_limits<double>::infinity()) {
      if (bound < least) seen += fmt::format("{}{} at least {:.0f}", seen.empty() ? "" : ", ", a, bound);
      continue;
    }
    const std::string knob = packeted(a)     ? fmt::format(" (packets of {} words)", mine.packet)
                             : a == "hybrid" ? fmt::format(" (kappa {})", mine.kappa)
                             : a == "bruck"  ? fmt::format(" (radix {})", mine.radix)
                                             : "";
    seen += fmt::format("{}{}{} {:.0f}{}", seen.empty() ? "" : ", ", a, knob, least,
                        bound < least ? fmt::format(" (other chunks at least {:.0f})", bound) : "");
    if (least < best.cycles) best.call = mine, best.cycles = least;
  }
  const Call& w = best.call;
  const std::string knob = packeted(w.alg)     ? fmt::format(" with packets of {} words", w.packet)
                           : w.alg == "hybrid" ? fmt::format(" with kappa {}", w.kappa)
                           : w.alg == "bruck"  ? fmt::format(" with radix {}", w.radix)
                                               : "";
  best.why = fmt::format(
      "--ccl-alg auto: {}{} has the least C1*t_s + C2*t_c ({:.0f} cycles; t_s = {:.0f}, t_c = {:.3g} "
      "per word) of: {}",
      w.alg, knob, best.cycles, ts, tc, seen);
  return best;
}

}  // namespace wn::alg::ccl
