#include "experiments/sweep.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <utility>

#include "experiments/isolated_run.h"
#include "systemc/core/config_error.h"

namespace wn {

std::vector<nlohmann::json> run_sweep(const std::vector<SweepPoint>& points,
                                      const std::function<void(size_t, const nlohmann::json&)>& on_result,
                                      unsigned jobs, bool keep_going) {
  std::vector<nlohmann::json> results;
  results.reserve(points.size());
  // A window of up to `jobs` children; results are taken in point order, so the
  // output never depends on `jobs` (a finished child waits in its pipe).
  std::deque<std::pair<size_t, IsolatedChild>> running;
  size_t next = 0;
  try {
    while (results.size() < points.size()) {
      while (next < points.size() && running.size() < std::max(1u, jobs)) {
        running.emplace_back(next, start_isolated(points[next].run));
        ++next;
      }
      const auto [i, child] = running.front();
      running.pop_front();
      try {
        results.push_back(finish_isolated(child));
      } catch (const ConfigError&) {
        throw;
      } catch (const std::exception& e) {
        if (!keep_going) throw std::runtime_error(points[i].label + ": " + e.what());
        results.push_back({{"ok", false}, {"error", e.what()}});
      }
      if (on_result) on_result(i, results.back());
    }
  } catch (...) {
    for (const auto& [i, child] : running) {
      kill(child.pid, SIGKILL);
      close(child.fd);
      waitpid(child.pid, nullptr, 0);
    }
    throw;
  }
  return results;
}

}  // namespace wn
