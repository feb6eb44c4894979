// Machine profiles: the node-side cost parameters (α, γ, flit width, clock
// period, copy/combine costs) chosen so that a point-to-point message on the
// simulated router has the latency the papers publish for that machine. Every
// field can be overridden from the CLI. Derivations: docs/firmware.md, "Machine profiles".
#pragma once
#include <string>
#include <vector>

#include "algorithms/cost_model.h"

namespace wn::fw {

struct MachineProfile {
  std::string name;
  std::string source;             // where the numbers come from
  double clock_ns = 1.0;          // one network cycle (one flit per channel)
  int bytes_per_flit = 4;         // body-flit payload, multiple of 4 (32-bit words)
  uint32_t alpha = 0;             // send startup, cycles
  uint32_t gamma = 0;             // receive completion, cycles
  uint32_t max_packet_bytes = 0;  // 0: one message = one worm
  double copy_cycles_per_word = 0;
  double combine_cycles_per_word = 0;
  // Indexed addressing: computing one address per word (LocalOp::indexed).
  double index_cycles_per_word = 0;
  // The node's memory port (systemc/cosim/memory_port.h): 32-bit words per cycle its memory moves
  // for all channels and local operations together; 0 = unlimited (no port modelled).
  double mem_words_per_cycle = 0;
  // Multi-port operations (a step's sends on several channels as one exchange, the CM-200's
  // primitive): extra startup cycles over alpha, and the cycles each channel needs per flit (1: link
  // speed; the CM-200 moved an exchange's pairs about 2.1x slower than one channel's, §4.4 b3).
  uint32_t multiport_startup = 0;
  double multiport_flit_cycles = 1;
  // A local copy (a schedule's LocalOp: a reorder in memory) costs this per word on top of
  // copy_cycles_per_word, which a received word's store costs too (the CM-200's reorders cost
  // 7-14 % of its broadcasts; its NIs wrote received data in place).
  double reorder_cycles_per_word = 0;
  // An index computation's fixed parts (the CM-200's b4 per call and b5 per subblock, §4.4): cycles once
  // per list of local operations with computed addresses, and per such operation, over
  // index_cycles_per_word.
  double index_setup_cycles = 0;
  double index_op_cycles = 0;

  // Thousandths of a cycle per flit of a multi-port operation (0: link speed, no pacing).
  uint32_t pace_milli_cycles() const {
    return multiport_flit_cycles > 1 ? uint32_t(multiport_flit_cycles * 1000 + 0.5) : 0;
  }

  // The port's rate in thousandths of a word (0: none).
  uint32_t mem_milli_words() const { return uint32_t(mem_words_per_cycle * 1000 + 0.5); }

  int words_per_flit() const { return bytes_per_flit / 4; }
  // The analytic model's parameters for `ports` injection channels on routers of `timing`
  // (the run's: Network::timing(), router_timing()).
  alg::CostParams cost_params(int ports, const RouterTiming& timing) const;
};

const std::vector<MachineProfile>& machine_profiles();
// Throws ConfigError(Param::profile, allowed names).
const MachineProfile& find_profile(const std::string& name);
// Throws ConfigError naming the field if a value is out of range.
void validate(const MachineProfile& p);

}  // namespace wn::fw
