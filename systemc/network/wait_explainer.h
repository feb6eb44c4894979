// Explains a deadlock from the occupancy shadow (occupancy.h): which packet
// waits on which channel held by which packet.
#pragma once
#include <string>

#include "systemc/core/packet.h"
#include "systemc/network/network.h"
#include "systemc/network/occupancy.h"

namespace wn {

// Wait-for analysis of the current state: the cycle of waits if there is
// one, otherwise the list of blocked packets.
std::string explain_waits(const Occupancy& occ, const Network& net, const PacketStore& store);

}  // namespace wn
