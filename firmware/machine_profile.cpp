#include "firmware/machine_profile.h"

#include <fmt/format.h>

#include "systemc/core/config_error.h"
#include "systemc/core/registry.h"

namespace wn::fw {

// How the numbers were fitted (see docs/firmware.md, "Machine profiles"): one network
// cycle moves one flit per channel, so clock_ns / bytes_per_flit is the
// published per-byte time T_n; α + γ + 3·(1+1) router cycles at one hop is the
// published startup T_s (the 3-cycle-per-hop pipeline is wormnet's router).
const std::vector<MachineProfile>& machine_profiles() {
  static const std::vector<MachineProfile> profiles = {
      {"ideal", "no software overhead: alpha = gamma = 0, 1 GHz, 4-byte flits", 1.0, 4, 0, 0, 0, 0, 0},
      // 0.45 us/byte, 170 us send+receive startup split evenly (the thesis's
      // MultiSim nCUBE-2 parameters of Ch 3, Figs 3.14-3.15; the split is not
      // given): 4-byte flit = 1.8 us; (44+44+6)*1.8 = 169.2 us.
      {"ncube2", "Tsai thesis Ch 3 (Figs 3.14-3.15): 0.45 us/byte, 170 us startup (85 + 85)", 1800.0, 4, 44, 44, 0, 0,
       0},
      // 300 MB/s per channel, 1.5 us startup = 0.75 send + 0.75 receive
      // (the thesis's T3D parameters, Ch 3, Figs 3.16-3.17; the split is stated
      // for the 3D runs, Fig 3.25): 4-byte flit = 13.33 ns; (53+53+6)*13.33 = 1.49 us.
      {"t3d", "Tsai thesis Ch 3 (Figs 3.16-3.17, 3.25): 300 MB/s, 1.5 us startup (0.75 + 0.75)", 4000.0 / 300.0, 4, 53,
       53, 0, 0, 0},
      // Bruck et al. §3.5 (64-node SP-1): start-up beta ~ 29 us, 8.5 MB/s
      // sustained, i.e. tau < 0.12 us/byte: 4-byte flit = 0.48 us;
      // (27+27+6)*0.48 = 28.8 us. This reproduces the paper's linear model with
      // those parameters, not the SP-1 measurements (no SP-1 switch network, no
      // copy/pack costs).
      {"sp1", "Bruck et al. §3.5: beta = 29 us, tau = 0.12 us/byte (SP-1 linear model)", 480.0, 4, 27, 27, 0, 0, 0},
      // CM-200 (Mathur & Johnsson): a pair of 32-bit words per exchange on the
      // two channels of a link (8-byte flit) at the paper's single-cycle fit
      // a2 = 5.69 us per 32-bit word, which reproduces Table 8's 1-cyc AABC
      // column (the table HypercubeCalibration compares with): one flit per
      // link every 11.38 us. The fitted step startup (a1 = 24.3 us, b1 =
      // 41.9 us) is below the router's own pipeline (3 cycles per router: 6
      // cycles = 68 us at one hop), so alpha = gamma = 0 and the pipeline is
      // the startup. Index computation, fitted on Table 8 (M' = 256, N =
      // 64..512): the paper's fitted model gives 1.16-1.40 us per reordered
      // 32-bit word, the measured Comp. column 1.07-1.41 us; 0.1 cycle =
      // 1.14 us (compared with Table 7's crossover, HypercubeTrends). The
      // reduction's arithmetic, fitted on ONE entry, Table 13's 1 Arit. at
      // M' = 256 (3.04 ms for the 15 x 512 words a node combines): 0.0348
      // cycle = 0.396 us a word; held out on Table 14's column (N = 2..256).
      // Multi-port operations: the CM-200's all-dimension exchange moved a pair per
      // dimension in b3 = 24.18 us whatever d (§4.4), twice its one-channel CSHIFT
      // (2 a2 = 11.38 us a pair): a property of the exchange, not of the memory
      // port, whose stated rate (one 32-bit access per 10 MHz cycle, §1: 113.8
      // words per network cycle) exceeds what d <= 11 channels ask (no port
      // modelled: the same cycles, docs/papers/hypercube.md). Fitted on ONE entry,
      // Table 8's d-cycles AABC at N = 16 (24.97 ms, M' = 256): 2.243 cycles per
      // flit; checked on the rest of Table 8 and on Tables 4 and 7.
      // Local reorders (the d cycles' indirect one and the single cycle's block copy alike): fitted on
      // ONE entry, Table 8's d Indir. at N = 16 (5.52 ms for 8192 words): 0.0592 cycle = 0.674 us a
      // word; received words cost nothing (the CM-200's exchanges wrote them in place).
      {"cm200",
       "Mathur & Johnsson: 2 words/flit at a2 = 5.69 us/word (Table 8); startup = router pipeline; "
       "0.1 cycle/computed index (Table 8); 0.0348 cycle/combined word (Table 13, M' = 256); "
       "2.243 cycles/flit in an all-dimension exchange (Table 8, N = 16); "
       "0.0592 cycle/reordered word (Table 8, N = 16)",
       11380.0, 8, 0, 0, 0, 0, 0.0348, 0.1, 0, 0, 2.243, 0.0592},
  };
  return profiles;
}

const MachineProfile& find_profile(const std::string& name) {
  return find_by_name(machine_profiles(), name, Param::profile, "profile");
}

void validate(const MachineProfile& p) {
  if (p.bytes_per_flit < 4 || p.bytes_per_flit % 4 != 0 || p.bytes_per_flit > 64)
    throw ConfigError(Param::bytes_per_flit,
                      fmt::format("{} not allowed; allowed: a multiple of 4 in 4..64", p.bytes_per_flit));
  if (!(p.clock_ns > 0) || p.clock_ns > 1e9)
    throw ConfigError(Param::clock_ns, fmt::format("{} is not allowed; allowed: a number 1e-06..1e+09", p.clock_ns));
  if (p.max_packet_bytes % 4 != 0)  // packets split on words: 6 bytes would silently become 4
    throw ConfigError(Param::max_packet_bytes, fmt::format("{} is not whole 32-bit words; allowed: 0 (no limit) or a "
                                                           "multiple of 4",
                                                           p.max_packet_bytes));
  if (p.max_packet_bytes != 0 && p.max_packet_bytes < uint32_t(p.bytes_per_flit))
    throw ConfigError(Param::max_packet_bytes,
                      fmt::format("{} is shorter than one flit ({} bytes); allowed: 0 (no limit) or >= {}",
                                  p.max_packet_bytes, p.bytes_per_flit, p.bytes_per_flit));
  if (!(p.mem_words_per_cycle >= 0) || p.mem_words_per_cycle > 1e6 ||
      (p.mem_words_per_cycle > 0 && p.mem_milli_words() == 0))
    throw ConfigError(
        Param::mem_words,
        fmt::format("{} is not allowed; allowed: 0 (unlimited) or a number 0.001..1000000", p.mem_words_per_cycle));
  if (!(p.multiport_flit_cycles >= 1) || p.multiport_flit_cycles > 1e6)
    throw ConfigError(Param::multiport_flit_cycles,
                      fmt::format("{} is not allowed; allowed: a number 1..1000000", p.multiport_flit_cycles));
  if (p.multiport_startup > 1'000'000'000)
    throw ConfigError(Param::multiport_startup,
                      fmt::format("{} is not allowed; allowed: an integer 0..1000000000", p.multiport_startup));
  // Written as !(x >= 0) so that nan is refused too (it would spin to the cycle limit).
  const std::pair<Param, double> costs[] = {
      // per word, per operation, per computation
      {Param::copy_cycles, p.copy_cycles_per_word},      {Param::combine_cycles, p.combine_cycles_per_word},
      {Param::index_cycles, p.index_cycles_per_word},    {Param::reorder_cycles, p.reorder_cycles_per_word},
      {Param::index_setup_cycles, p.index_setup_cycles}, {Param::index_op_cycles, p.index_op_cycles}};
  for (const auto& [field, v] : costs)
    if (!(v >= 0) || v > 1e6)
      throw ConfigError(field, fmt::format("{} is not allowed; allowed: a number 0..1000000", v));
}

alg::CostParams MachineProfile::cost_params(int ports, const RouterTiming& timing) const {
  alg::CostParams c;
  c.timing = timing;
  c.alpha = alpha;
  c.gamma = gamma;
  c.words_per_flit = words_per_flit();
  c.max_packet_words = max_packet_bytes / 4;
  c.copy_cycles_per_word = copy_cycles_per_word;
  c.combine_cycles_per_word = combine_cycles_per_word;
  c.index_cycles_per_word = index_cycles_per_word;
  c.reorder_cycles_per_word = reorder_cycles_per_word;
  c.index_setup_cycles = index_setup_cycles;
  c.index_op_cycles = index_op_cycles;
  c.ports = ports;
  c.mem_words_per_cycle = double(mem_milli_words()) / 1000;
  c.multiport_startup = multiport_startup;
  c.multiport_flit_cycles = pace_milli_cycles() ? double(pace_milli_cycles()) / 1000 : 1;
  return c;
}

}  // namespace wn::fw
