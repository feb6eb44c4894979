// The C++ limits against the radices CMake verilates (WN_RTL_RADICES, generated into
// wormnet/rtl_radices.h): a mismatch stops the build here, not a run. The ctest
// rtl_radices_mismatch_fails compiles this header against a list without 12 and expects the
// compiler to refuse it.
#pragma once
#include <cstddef>

#include "systemc/core/router_types.h"
#include "wormnet/rtl_radices.h"

namespace wn {

constexpr bool rtl_radices_ascending() {
  for (size_t i = 1; i < sizeof kRtlRadices / sizeof kRtlRadices[0]; ++i)
    if (kRtlRadices[i] <= kRtlRadices[i - 1]) return false;
  return true;
}
static_assert(rtl_radices_ascending(), "WN_RTL_RADICES must be ascending (rtl_radix_for takes the first that fits)");
static_assert(kRtlRadices[sizeof kRtlRadices / sizeof kRtlRadices[0] - 1] == kMaxPorts,
              "kMaxPorts (systemc/core/router_types.h) must equal the largest verilated radix (WN_RTL_RADICES)");

}  // namespace wn
