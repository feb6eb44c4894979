// A router's zero-load timing, probed from its ports alone: the delay accounting, the
// predictions and the checker use the router in use, not a constant (rtl/README.md §5).
#pragma once
#include "systemc/router/router_unit.h"

namespace wn {

// Resets `unit` as a 2-port router and sends one 3-flit worm from its injection channel to a
// neighbour: stage_cycles is the edge its head reaches the output register, flit_cycles the
// spacing of its flits. Throws std::runtime_error naming what did not happen (no flit within
// 64 cycles, uneven spacing). The unit is left reset-able, in no particular state.
RouterTiming probe_router_timing(RouterUnit& unit);

// The verilated router's timing for `ports` ports (its radix's model), probed once per radix and
// process (thread-safe, a few microseconds).
RouterTiming rtl_router_timing(int ports);

}  // namespace wn
