// SystemC elaborates once per process. To run several simulations from one
// command (sweeps, comparisons) each runs in a forked child; Debian's SystemC
// uses user-level QuickThreads, so fork() is safe. The child returns JSON.
#pragma once
#include <functional>

#include <nlohmann/json.hpp>

namespace wn {

// Runs `job` in a child process and returns its JSON. A ConfigError in the
// child is rethrown as ConfigError; any other failure as std::runtime_error.
nlohmann::json run_isolated(const std::function<nlohmann::json()>& job);

}  // namespace wn
