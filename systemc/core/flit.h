// Flit packing helpers over the generated layout (rtl/wn_pkg.sv, rtl/README.md §1).
#pragma once
#include <cstdint>

#include "wormnet/flit_layout.h"

namespace wn {

// What the helpers below rely on, checked against the package whenever it changes: a flit is one
// uint64_t, every field lies inside it, the addressed fields come back as uint32_t, and the
// package's head_flit_s puts each field where its lsb says.
namespace flit_check {
constexpr bool fits(int lsb, int w, int limit) { return lsb >= 0 && w > 0 && lsb + w <= limit; }
namespace h = pkg::head_flit_s;
}  // namespace flit_check
static_assert(layout::WN_FLIT_W == 64, "a flit is one uint64_t (flit_width_gp in rtl/wn_pkg.sv)");
static_assert(flit_check::fits(layout::WN_TYPE_LSB, layout::WN_TYPE_W, 64) && layout::WN_TYPE_W == 2 &&
                  layout::WN_HEAD_BIT == layout::WN_TYPE_LSB && layout::WN_TAIL_BIT == layout::WN_TYPE_LSB + 1,
              "flit field type must be two bits, head then tail (FlitType)");
static_assert(flit_check::fits(layout::WN_VC_LSB, layout::WN_VC_W, 64) && (1 << layout::WN_VC_W) >= pkg::max_vcs_gp,
              "flit field vc must fit in the flit and hold every VC index");
static_assert(flit_check::fits(layout::WN_DEST_LSB, layout::WN_DEST_W, 64) && layout::WN_DEST_W <= 32,
              "flit field dest must fit in the flit and in uint32_t");
static_assert(flit_check::fits(layout::WN_SRC_LSB, layout::WN_SRC_W, 64) && layout::WN_SRC_W <= 32,
              "flit field src must fit in the flit and in uint32_t");
static_assert(flit_check::fits(layout::WN_STEP_LSB, layout::WN_STEP_W, 64) && layout::WN_STEP_W <= 32,
              "flit field step must fit in the flit and in uint32_t");
static_assert(flit_check::fits(layout::WN_MSG_LSB, layout::WN_MSG_W, 64) && layout::WN_MSG_W <= 32,
              "flit field msg must fit in the flit and in uint32_t");
static_assert(flit_check::fits(layout::WN_PAYLOAD_LSB, layout::WN_PAYLOAD_W, 64),
              "flit field payload must fit in the flit");
static_assert(flit_check::h::bits == layout::WN_FLIT_W && flit_check::h::head_lsb == layout::WN_HEAD_BIT &&
                  flit_check::h::tail_lsb == layout::WN_TAIL_BIT && flit_check::h::vc_lsb == layout::WN_VC_LSB &&
                  flit_check::h::dest_lsb == layout::WN_DEST_LSB && flit_check::h::src_lsb == layout::WN_SRC_LSB &&
                  flit_check::h::step_lsb == layout::WN_STEP_LSB && flit_check::h::msg_lsb == layout::WN_MSG_LSB,
              "head_flit_s in rtl/wn_pkg.sv must put every field at its flit_*_lsb_gp");

enum FlitType : uint8_t { kBody = 0, kHead = 1, kTail = 2, kHeadTail = 3 };

namespace flit {
constexpr uint64_t field(uint64_t f, int lsb, int w) { return (f >> lsb) & ((uint64_t{1} << w) - 1); }
constexpr uint64_t put(uint64_t f, int lsb, int w, uint64_t v) {
  const uint64_t m = ((uint64_t{1} << w) - 1) << lsb;
  return (f & ~m) | ((v << lsb) & m);
}
constexpr uint8_t type(uint64_t f) { return uint8_t(field(f, layout::WN_TYPE_LSB, layout::WN_TYPE_W)); }
constexpr bool is_head(uint64_t f) { return (f >> layout::WN_HEAD_BIT) & 1; }
constexpr bool is_tail(uint64_t f) { return (f >> layout::WN_TAIL_BIT) & 1; }
constexpr uint8_t vc(uint64_t f) { return uint8_t(field(f, layout::WN_VC_LSB, layout::WN_VC_W)); }
constexpr uint64_t with_vc(uint64_t f, unsigned v) { return put(f, layout::WN_VC_LSB, layout::WN_VC_W, v); }
constexpr uint32_t dest(uint64_t f) { return uint32_t(field(f, layout::WN_DEST_LSB, layout::WN_DEST_W)); }
constexpr uint32_t src(uint64_t f) { return uint32_t(field(f, layout::WN_SRC_LSB, layout::WN_SRC_W)); }
constexpr uint32_t step(uint64_t f) { return uint32_t(field(f, layout::WN_STEP_LSB, layout::WN_STEP_W)); }
constexpr uint32_t msg(uint64_t f) { return uint32_t(field(f, layout::WN_MSG_LSB, layout::WN_MSG_W)); }
constexpr uint64_t payload(uint64_t f) { return field(f, layout::WN_PAYLOAD_LSB, layout::WN_PAYLOAD_W); }

// Head flit (type head, or head+tail for a one-flit packet).
constexpr uint64_t make_head(bool tail, uint32_t dest_addr, uint32_t src_addr, uint32_t step_tag, uint32_t msg_id) {
  uint64_t f = put(0, layout::WN_TYPE_LSB, layout::WN_TYPE_W, tail ? kHeadTail : kHead);
  f = put(f, layout::WN_DEST_LSB, layout::WN_DEST_W, dest_addr);
  f = put(f, layout::WN_SRC_LSB, layout::WN_SRC_W, src_addr);
  f = put(f, layout::WN_STEP_LSB, layout::WN_STEP_W, step_tag);
  return put(f, layout::WN_MSG_LSB, layout::WN_MSG_W, msg_id);
}
constexpr uint64_t make_body(bool tail, uint64_t payload_bits) {
  uint64_t f = put(0, layout::WN_TYPE_LSB, layout::WN_TYPE_W, tail ? kTail : kBody);
  return put(f, layout::WN_PAYLOAD_LSB, layout::WN_PAYLOAD_W, payload_bits);
}
}  // namespace flit
}  // namespace wn
