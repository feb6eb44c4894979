// Shared by the CCL firmware tests: a one-port network (backend from
// WN_TEST_BACKEND, model by default), the ideal profile, ranks 0..n-1, zeroed memory.
#pragma once
#include <cstdlib>
#include <string>
#include <vector>

#include "firmware/ccl.h"
#include "firmware/firmware_run.h"

namespace wn::fw::ccl_fw_test {

inline NetworkSetup net(const std::string& topo) {
  NetworkParams np;
  const char* b = std::getenv("WN_TEST_BACKEND");
  np.backend = parse_backend(b ? b : "model");
  return NetworkSetup::resolve(topo, "one", np);
}

inline FirmwareRunOptions opts() {
  FirmwareRunOptions o;
  o.profile = find_profile("ideal");
  return o;
}

inline std::vector<int> iota(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = i;
  return v;
}

inline alg::Word zero(int, uint32_t) { return 0; }

}  // namespace wn::fw::ccl_fw_test
