// Two-message firmware scenarios on a 4x4 mesh for the contention tests
// (lock-step backend unless WN_TEST_BACKEND says otherwise, so the counts
// hold for the RTL and the model alike).
#pragma once
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/firmware_run.h"

namespace wn::fw::scenario {

struct TestRun {
  NetworkSetup net;
  FirmwareRunOptions opt;
};

inline TestRun options(const std::string& ports, int vcs, const char* backend = nullptr) {
  const char* b = backend ? backend : std::getenv("WN_TEST_BACKEND");
  NetworkParams np;
  np.backend = parse_backend(b ? b : "lockstep");
  np.vcs = vcs;
  TestRun o{NetworkSetup::resolve("mesh:4x4", ports, np), {}};
  o.opt.profile = find_profile("ideal");
  return o;
}

inline Word init(int n, uint32_t a) { return Word(n * 1000 + a); }

struct Msg {
  int src, dst, step;
};

// Every message posted at cycle 0 (alpha = 0), 8 words = 9 flits.
inline FirmwareRunResult run(const TestRun& o, const std::vector<Msg>& msgs) {
  return run_firmware(
      o.net, o.opt,
      [&](int node) -> FirmwareFn {
        return [&msgs, node](NodeApi& api) {
          for (const Msg& m : msgs)
            if (m.src == node) {
              SendOptions opt;
              opt.step = m.step;
              api.send_ranges(m.dst, {{0, 8}}, opt);
            }
          for (const Msg& m : msgs)
            if (m.dst == node) api.recv(m.src, 0);
          api.wait_all_injected();
        };
      },
      8, init);
}

inline std::array<uint64_t, kContentionClasses> blocked(const FirmwareRunResult& r, int src) {
  for (uint32_t m = 0; m < r.log.messages.size(); ++m)
    if (r.log.messages[m].src == src) return r.message_blocked(m);
  return {};
}

inline uint64_t total(const std::array<uint64_t, kContentionClasses>& a) { return a[0] + a[1] + a[2] + a[3]; }

// Delay view of the first message from `src`.
inline const MessageDelay& delay(const FirmwareRunResult& r, int src) {
  for (uint32_t m = 0; m < r.log.messages.size(); ++m)
    if (r.log.messages[m].src == src) return r.message_delay[m];
  throw std::runtime_error("no message");
}

// Its latency beyond zero load, from the logged times alone.
inline uint64_t lateness(const FirmwareRunResult& r, int src) {
  for (const auto& m : r.log.messages)
    if (m.src == src)
      return m.delivered - m.head_injected - uint64_t(alg::CostParams{}.network_cycles(m.hops, m.words));
  return 0;
}

}  // namespace wn::fw::scenario
