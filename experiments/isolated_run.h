// SystemC elaborates once per process. To run several simulations from one
// command (sweeps, comparisons) each runs in a forked child; Debian's SystemC
// uses user-level QuickThreads, so fork() is safe. The child returns JSON.
#pragma once
#include <sys/types.h>

#include <functional>

#include <nlohmann/json.hpp>

namespace wn {

// A started child: its process and the pipe its JSON arrives on.
struct IsolatedChild {
  pid_t pid = -1;
  int fd = -1;
};

// Forks a child that runs `job` and writes its JSON; returns at once.
IsolatedChild start_isolated(const std::function<nlohmann::json()>& job);
// Reads the child's JSON and reaps it. A ConfigError in the child is rethrown
// as ConfigError; any other failure as std::runtime_error.
nlohmann::json finish_isolated(IsolatedChild child);
inline nlohmann::json run_isolated(const std::function<nlohmann::json()>& job) {
  return finish_isolated(start_isolated(job));
}

}  // namespace wn
