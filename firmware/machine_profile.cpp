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
      // 0.45 us/byte, 170 us send+receive startup split evenly (thesis §4.4,
      // MultiSim nCUBE-2 parameters): 4-byte flit = 1.8 us; (44+44+6)*1.8 = 169.2 us.
      {"ncube2", "Tsai thesis §4.4: 0.45 us/byte, 170 us startup (85 + 85)", 1800.0, 4, 44, 44, 0, 0, 0},
      // 300 MB/s per channel, 1.5 us startup = 0.75 send + 0.75 receive
      // (thesis §4.4, 3D experiments): 4-byte flit = 13.33 ns; (53+53+6)*13.33 = 1.49 us.
      {"t3d", "Tsai thesis §4.4: 300 MB/s, 1.5 us startup (0.75 + 0.75)", 4000.0 / 300.0, 4, 53, 53, 0, 0, 0},
      // beta = 29 us start-up, tau = 0.12 us/byte (Bruck §7.1, 64-node SP-1):
      // 4-byte flit = 0.48 us; (27+27+6)*0.48 = 28.8 us.
      {"sp1", "Bruck et al. §7.1: beta = 29 us, tau = 0.12 us/byte", 480.0, 4, 27, 27, 0, 0, 0},
      // CM-200 (Mathur & Johnsson §1, §4.4): a pair of 32-bit words per
      // exchange on the two channels of a link (8-byte flit) and the measured
      // per-word time a2 = 5.69 us (single-cycle fit): one flit per link every
      // 11.38 us. The measured step startup (a1 = 24.3 us, b1 = 41.9 us) is
      // below the router's own pipeline (3 cycles per router: 6 cycles =
      // 68 us at one hop), so alpha = gamma = 0 and the pipeline is the
      // startup. Index computation (Table 8's model, N = 64..512, M' = 256):
      // 1.16-1.40 us per reordered 32-bit word; 0.1 cycle = 1.14 us. The
      // reduction's arithmetic: the single-cycle reduction is 4-6 % slower
      // than the broadcast (Table 13 vs Table 4 without the transpose);
      // 0.025 cycle = 0.28 us per combined 32-bit word gives 5 % at N = 16.
      {"cm200",
       "Mathur & Johnsson §4.4: 2 words/flit at a2 = 5.69 us/word; startup = router pipeline; "
       "0.1 cycle/computed index; 0.025 cycle/combined word",
       11380.0, 8, 0, 0, 0, 0, 0.025, 0.1},
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
  // Written as !(x >= 0) so that nan is refused too (it would spin to the cycle limit).
  const std::pair<Param, double> per_word[] = {{Param::copy_cycles, p.copy_cycles_per_word},
                                               {Param::combine_cycles, p.combine_cycles_per_word},
                                               {Param::index_cycles, p.index_cycles_per_word}};
  for (const auto& [field, v] : per_word)
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
  c.ports = ports;
  return c;
}

}  // namespace wn::fw
