// What the RTL wrapper (router_rtl.cpp) relies on about rtl/wn_pkg.sv, checked wherever the
// package changes: the verilated ports it fills and reads are laid out by the package, so a
// relation that stops holding stops the build here, not a run. The ctests wn_pkg_match /
// wn_pkg_mismatch_* compile this header against the generated package and against probes.
#pragma once
#include "systemc/core/flit.h"
#include "systemc/core/router_types.h"
#include "wormnet/wn_pkg.h"

namespace wn::rtl_pkg {

namespace c = pkg::cfg_s;

// A RouterConfig value range fits a cfg_s field of `width` bits.
constexpr bool holds(int width, long long max_value) { return width < 63 && (1LL << width) > max_value; }

static_assert(pkg::flit_width_gp == 64, "the wrapper moves each port's flit as one 64-bit lane");
static_assert(kMaxPorts * pkg::vc_width_gp <= 32, "the wrapper packs every port's credit VC into one uint32_t");
static_assert(holds(pkg::out_code_width_gp, 2 * kMaxPorts - 1), "obs_from_port_o codes name 2 * ports inputs");
static_assert(holds(c::vcs_width, kMaxVcs) && holds(c::buf_depth_width, kMaxBuf),
              "cfg_s.vcs / buf_depth must hold 1..kMaxVcs / 1..kMaxBuf");
static_assert(holds(c::ports_width, kMaxPorts) && holds(c::inj_width, kMaxPorts) && holds(c::ej_width, kMaxPorts) &&
                  holds(c::ndims_width, kMaxPorts),
              "cfg_s.ports / inj / ej / ndims must hold 1..kMaxPorts (a cube's dimensions are its ports)");
static_assert(holds(c::kind_width, int(TopoKind::Cube)), "cfg_s.kind must hold every TopoKind");
static_assert(c::addr_width == pkg::flit_dest_width_gp, "cfg_s.addr is an address as the flit carries it");
static_assert(c::k_count == kMaxDims && c::w_count == kMaxDims, "cfg_s.k / w have one entry per dimension");
// At least two dimensions of at least one address bit: k <= 2^(address bits - 1).
static_assert(holds(c::k_width, 1LL << (pkg::addr_width_gp - 1)) && holds(c::w_width, pkg::addr_width_gp),
              "cfg_s.k / w must hold a dimension's radix and address bits");
static_assert(c::dateline_width == 1, "cfg_s.dateline is the one bit of RouterConfig::dateline");

}  // namespace wn::rtl_pkg
