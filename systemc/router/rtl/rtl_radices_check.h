// The C++ limits against the radices CMake verilates (WORMNET_RTL_RADICES, generated into
// wormnet/rtl_radices.h): a mismatch stops the build here, not a run. The ctest
// rtl_radices_mismatch compiles this header against a list with a radix above kMaxPorts and
// expects the compiler to refuse it. A build may verilate fewer radices than the largest
// topology needs: the network refuses those topologies on the RTL backends (network.cpp).
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
static_assert(rtl_radices_ascending(),
              "WORMNET_RTL_RADICES must be ascending (rtl_radix_for takes the first that fits)");
static_assert(kRtlRadices[0] >= 2 && kRtlRadices[sizeof kRtlRadices / sizeof kRtlRadices[0] - 1] <= kMaxPorts,
              "every verilated radix (WORMNET_RTL_RADICES) must be 2..kMaxPorts (systemc/core/router_types.h)");

}  // namespace wn
