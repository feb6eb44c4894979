// The router's static configuration and its per-cycle inputs and outputs, as
// every layer sees them (rtl/README.md §2-§6): the topology fills RouterConfig,
// the backends consume RouterIn and produce RouterOut, the network moves them.
#pragma once
#include <cstdint>

#include "wormnet/wn_pkg.h"

namespace wn {

// The limits are the RTL's (rtl/wn_pkg.sv, generated into wormnet/wn_pkg.h): one edit there
// changes the verilated routers and every C++ array sized here.
constexpr int kMaxPorts = pkg::max_ports_gp;  // largest radix (cube:14)
constexpr int kMaxVcs = pkg::max_vcs_gp;      // VMAX in rtl/README.md
constexpr int kMaxBuf = pkg::max_buf_gp;      // BMAX
constexpr int kMaxDims = pkg::max_dims_gp;    // mesh/torus dimensions
// What the types below rely on: one bit per port in the uint32_t masks, VC indices and the
// observation codes in uint8_t.
static_assert(kMaxPorts <= 32, "RouterIn/RouterOut keep one bit per port in a uint32_t");
static_assert(pkg::vc_width_gp <= 8 && pkg::out_code_width_gp <= 8, "VCs and port codes are kept in uint8_t");

// Zero-load timing (rtl/README.md §5), the fact every prediction, delay view and contention class
// builds on: a head flit spends `stage_cycles` in a router (the shipped router: route + VA, then
// SA + crossbar into the output register) and one more on the link, so one router is
// hop_cycles() and a packet of F flits over h hops takes hop_cycles() (h + 1) + flit_cycles (F - 1).
// It belongs to the router in use: the model's is kShippedTiming, the RTL backend's is probed from
// the verilated router (systemc/router/router_timing.h), so a router of your own with another
// pipeline gets exact delay accounting; `wormnet conform` checks it on whole networks.
struct RouterTiming {
  int stage_cycles = 2;  // input written -> the flit in an output register
  int flit_cycles = 1;   // between consecutive flits of one worm
  constexpr int hop_cycles() const { return stage_cycles + 1; }
  // Head injected -> tail ejected of `packets` packets of `flits` flits in all, alone in the
  // network; each packet behind another waits one cycle for its input VC (rtl/README.md §4).
  constexpr uint64_t zero_load(int hops, uint64_t flits, uint64_t packets = 1) const {
    return uint64_t(hop_cycles()) * uint64_t(hops + 1) + uint64_t(flit_cycles) * (flits - 1) + (packets - 1);
  }
  constexpr bool operator==(const RouterTiming& o) const {
    return stage_cycles == o.stage_cycles && flit_cycles == o.flit_cycles;
  }
  constexpr bool operator!=(const RouterTiming& o) const { return !(*this == o); }
};
// The shipped rtl/ and the C++ model (pinned by RouterTiming.* and ZeroLoad.*).
constexpr RouterTiming kShippedTiming{2, 1};

// The RTL's encoding (cfg_s.kind): the RTL wrapper passes the value through.
enum class TopoKind : uint8_t { Mesh = pkg::kind_mesh_gp, Torus = pkg::kind_torus_gp, Cube = pkg::kind_cube_gp };

// Static configuration of one router (rtl/README.md §2, §3).
struct RouterConfig {
  int ports = 4;  // network ports the topology uses (2n, or d for a cube)
  int vcs = 2;    // 1..kMaxVcs
  int buf = 8;    // FIFO slots per VC = initial credits, 1..kMaxBuf
  int inj = 1;    // injection channels used, 1..ports
  int ej = 1;     // ejection channels used, 1..ports
  TopoKind kind = TopoKind::Mesh;
  int ndims = 2;                    // mesh/torus dims, or d for a cube
  int k[kMaxDims] = {2, 2, 2};      // radix per dimension (mesh/torus)
  int width[kMaxDims] = {1, 1, 1};  // address bits per dimension
  uint32_t addr = 0;                // this router's packed address
  bool dateline = true;             // torus dateline VC classes (debug switch)
};

// Inputs presented to a router during one cycle (sampled at the rising edge).
struct RouterIn {
  uint32_t in_valid = 0;  // bit p: flit on network input p
  uint64_t in_flit[kMaxPorts] = {};
  uint32_t out_credit = 0;  // bit o: credit returned for output o
  uint8_t out_credit_vc[kMaxPorts] = {};
  uint32_t inj_valid = 0;  // bit i: flit on injection channel i
  uint64_t inj_flit[kMaxPorts] = {};
};

// Registered outputs after the rising edge (valid for the next cycle).
struct RouterOut {
  uint32_t out_valid = 0;  // bit o: flit on network output o
  uint64_t out_flit[kMaxPorts] = {};
  uint32_t in_credit = 0;  // bit p: credit towards upstream of input p
  uint8_t in_credit_vc[kMaxPorts] = {};
  uint32_t inj_credit = 0;  // bit i: credit towards the NI
  uint32_t ej_valid = 0;    // bit j: flit on ejection channel j
  uint64_t ej_flit[kMaxPorts] = {};
  // Observation (rtl/README.md §6): where each output's flit came from.
  // Index: network output o in [0, kMaxPorts), ejection j at kMaxPorts + j.
  // from_port: network input p, or kInjBase + i for injection channel i.
  uint8_t from_port[2 * kMaxPorts] = {};
  uint8_t from_vc[2 * kMaxPorts] = {};
  bool busy = false;  // any state that can still change
};
constexpr uint8_t kInjBase = 16;
static_assert(kInjBase >= kMaxPorts, "RouterOut::from_port: network inputs 0..kMaxPorts-1 must stay below kInjBase");

}  // namespace wn
