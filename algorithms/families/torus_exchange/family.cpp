// The torus-exchange family (Suh, Shin & An): complete exchange on 2^d x 2^d
// tori by T1.x, 0 <= x <= d-3, and the same schedules on the mesh of that size
// (not in the paper, which treats tori only: phase d needs the wrap-around
// links, so on the mesh its steps contend).
// `torus-exchange` takes --x / --variant; torus-t1, torus-t1.1, torus-t1.2,
// torus-t1.3 and torus-t2 fix x, so that `wormnet compare` can put several
// x side by side (a family option has one value per command).
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/families/torus_exchange/torus_exchange.h"
#include "algorithms/step_cost.h"
#include "systemc/core/config_error.h"

namespace wn::alg {

namespace {

std::string allowed_x(int d) {
  if (d <= 3) return fmt::format("0 (for d = {} T1 = T2 = the pure exchange)", d);
  if (d == 4) return "0..1 (0 = T2, 1 = T1.1 = T1)";
  return fmt::format("0..{} (0 = T2, 1 = T1.1, {} = T1)", d - 3, d - 3);
}

// The x an algorithm runs with: fixed (>= 0), T1 (-1: x = d-3), or from --x / --variant (-2).
int resolve_x(const Topology& topo, const AlgorithmArgs& args, int fixed) {
  const int d = torus_exponent(topo), top = std::max(0, d - 3);
  int x = fixed == -1 ? top : fixed;
  if (fixed == -2) {
    const std::string& xs = args.options.word("--x");
    const std::string& var = args.options.word("--variant");
    const int from_var = var == "T2" ? 0 : var == "T1.1" ? 1 : var == "T1" ? top : -1;
    const int from_x = xs == "auto" ? -1 : std::stoi(xs);
    if (from_x >= 0 && from_var >= 0 && from_x != from_var)
      throw ConfigError("--variant", fmt::format("{} is x = {} on {}, but --x is {}; allowed: the same x, or only one "
                                                 "of --x and --variant",
                                                 var, from_var, topo.name(), from_x));
    x = from_x >= 0 ? from_x : from_var >= 0 ? from_var : 0;
    if (from_x < 0 && var == "T1.1" && d < 4)
      throw ConfigError("--variant",
                        fmt::format("T1.1 (x = 1) needs d >= 4, {} has d = {}; allowed: T1, T2", topo.name(), d));
  }
  if (x > top) {
    const bool named = fixed >= 0;
    throw ConfigError(named ? "--algorithm" : "--x", fmt::format("x = {} needs d >= {}, {} has d = {}; allowed: x = {}",
                                                                 x, x + 3, topo.name(), d, allowed_x(d)));
  }
  return x;
}

TorusMode mode_of(const AlgorithmArgs& a) {
  return a.options.word("--mode") == "keep" ? TorusMode::Keep : TorusMode::Ideal;
}

std::string variant_name(int d, int x) {
  if (d <= 3) return "T1 = T2";
  if (x == 0) return "T2";
  if (x == d - 3) return x == 1 ? "T1 = T1.1" : "T1";
  return fmt::format("T1.{}", x);
}

AlgorithmInfo exchange_entry(const std::string& name, const std::string& summary, int fixed, bool literal = false) {
  AlgorithmInfo a;
  a.name = name;
  a.summary = summary;
  a.params = "--bytes (per block)";
  a.options = fixed == -2 ? std::vector<std::string>{"--x", "--variant", "--mode"} : std::vector<std::string>{"--mode"};
  if (fixed > 0)  // T1.x with a fixed x needs d >= x + 3: decided by the topology alone
    a.supports = [name, fixed](const Topology& topo) {
      const int d = torus_exponent(topo);
      const int side = 1 << (fixed + 3);
      return d >= fixed + 3
                 ? std::string()
                 : fmt::format(
                       "{} (x = {}) needs d >= {}, {} has d = {}; allowed: torus:{}x{} or larger "
                       "(torus-exchange there takes x = {})",
                       name, fixed, fixed + 3, topo.name(), d, side, side, d >= 2 ? allowed_x(d) : std::string("none"));
    };
  a.check = [fixed](const Topology& topo, const AlgorithmArgs& args) {
    if (args.words == 0) throw ConfigError(Param::bytes, "0 bytes; allowed: at least 4 (one word per block)");
    resolve_x(topo, args, fixed);  // refuses an x the topology does not have
    // Every node holds IN and OUT: the floor, refused before building. What the scratch adds
    // (2^x N blocks on a heavy node, far fewer on most) is known once the schedule is laid out.
    check_node_memory(topo, 2 * uint64_t(topo.nodes()) * args.words);
  };
  a.max_messages = [fixed](const Topology& topo, const AlgorithmArgs& args) {
    const int d = torus_exponent(topo);
    return uint64_t(torus_startups(d, resolve_x(topo, args, fixed))) * uint64_t(topo.nodes());
  };
  a.build = [name, fixed, literal](const Topology& topo, const AlgorithmArgs& args) {
    const TorusPlan plan = torus_plan(topo, resolve_x(topo, args, fixed), literal);
    Schedule s = torus_schedule(name, plan, topo, mode_of(args), args.words);
    check_node_memory(topo, s);
    return s;
  };
  a.cost = [fixed](const Topology& topo, const AlgorithmArgs& args, const CostParams& c, const Schedule& s) {
    const int d = torus_exponent(topo), x = resolve_x(topo, args, fixed);
    const ExchangeCounts k = exchange_counts(s, topo, args.words);
    const double mf = double(args.words) / c.words_per_flit;  // t_c: flits (cycles) per block
    const double ts = c.alpha + c.gamma;
    // t_hop: the cycles per router; c0: the destination router's (the head flit is in F - 1).
    const int t_hop = c.timing.hop_cycles(), c0 = c.timing.hop_cycles();
    const double paper = k.startups * ts + double(k.blocks) * mf;
    const double cycle_level = k.startups * (ts + c0) + double(k.blocks) * mf + double(k.hops) * t_hop;
    Prediction p = step_model_prediction(
        s, topo, c,
        fmt::format("{} (x = {}, {} mode): S = {} start-ups, B = {} blocks (sum of per-step maxima), H = {} hops; "
                    "closed form (ideal) S = {}, B = {}; paper S*t_s + B*m*t_c = {}*{} + {}*{} = {:.0f}; "
                    "cycle level S*(t_s + c0) + B*m + H*t_hop, c0 = {}, t_hop = {}: {:.0f}",
                    variant_name(d, x), x, mode_of(args) == TorusMode::Keep ? "keep" : "ideal", k.startups, k.blocks,
                    k.hops, torus_startups(d, x), torus_blocks(d, x), k.startups, ts, k.blocks, mf, paper, c0, t_hop,
                    cycle_level));
    p.thesis_cycles = paper;
    p.thesis_formula = fmt::format("Suh/Shin/An T = S*t_s + B*m*t_c = {}*{} + {}*{}", k.startups, ts, k.blocks, mf);
    return p;
  };
  return a;
}

}  // namespace

ExchangeCounts exchange_counts(const Schedule& s, const Topology& topo, uint32_t words) {
  ExchangeCounts k;
  k.startups = s.steps;
  k.step_blocks.assign(size_t(s.steps), 0);
  k.step_hops.assign(size_t(s.steps), 0);
  for (int u = 0; u < s.nodes; ++u)
    for (const Step& st : s.programs[size_t(u)])
      for (const Send& m : st.sends) {
        const uint64_t blocks = total_words(m.src) / std::max(1u, words);
        k.step_blocks[st.tag] = std::max(k.step_blocks[st.tag], blocks);
        k.step_hops[st.tag] = std::max(k.step_hops[st.tag], topo.hops(u, m.dst));
      }
  for (int t = 0; t < s.steps; ++t) {
    k.blocks += k.step_blocks[size_t(t)];
    k.hops += uint64_t(k.step_hops[size_t(t)]);
  }
  return k;
}

Family family_torus_exchange() {
  Family f;
  f.name = "torus_exchange";
  f.summary = "Suh, Shin & An: configurable complete exchange T1.x on 2^d x 2^d tori (T1, T1.1, ..., T2)";
  f.topologies = "torus:NxN and mesh:NxN with N = 2^d, d >= 2 (the mesh: phase d contends)";
  f.supports = [](const Topology& topo) {
    return torus_exponent(topo) >= 2
               ? std::string()
               : fmt::format(
                     "the torus-exchange family runs on a square 2D torus or mesh of side 2^d, d >= 2, not {}; "
                     "allowed: torus:4x4, torus:8x8, torus:16x16, ... (mesh:NxN likewise)",
                     topo.name());
  };
  f.options = {
      {"--x",
       "torus-exchange: T1.x parameter, 0..d-3 (0 = T2, 1 = T1.1, d-3 = T1); auto: from --variant, else 0",
       "auto",
       {"auto", "0", "1", "2", "3", "4", "5"}},
      {"--variant",
       "torus-exchange: T2 (x = 0), T1.1 (x = 1) or T1 (x = d-3); auto: from --x",
       "auto",
       {"auto", "T1", "T2", "T1.1"}},
      {"--mode",
       "blocks per message: closed-form rules giving the paper's message sizes, or keep blocks where they already "
       "belong",
       "ideal",
       {"ideal", "keep"}},
  };
  auto& out = f.algorithms;
  out.push_back(exchange_entry("torus-exchange",
                               "complete exchange T1.x (--x / --variant): x phases concentrate the data, mirror "
                               "exchanges, x send steps; S = 3*2^(d-2-x) + 3x",
                               -2));
  out.push_back(exchange_entry("torus-t1", "T1.x with x = d-3 (T1: 3d-3 start-ups)", -1));
  out.push_back(exchange_entry("torus-t1-literal",
                               "T1 as the paper lists it: SG_p(2) also exchanges in phases 2..d-2 (empty in ideal "
                               "mode; a few blocks with --mode keep)",
                               -1, true));
  out.push_back(exchange_entry("torus-t1.1", "T1.x with x = 1 (T1.1), d >= 4", 1));
  out.push_back(exchange_entry("torus-t1.2", "T1.x with x = 2 (T1.2), d >= 5", 2));
  out.push_back(exchange_entry("torus-t1.3", "T1.x with x = 3 (T1.3), d >= 6", 3));
  out.push_back(exchange_entry("torus-t2", "T1.x with x = 0 (T2: pure mirror exchange, 3*2^(d-2) start-ups)", 0));
  return f;
}

}  // namespace wn::alg
