#include "experiments/sweep.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <stdexcept>
#include <utility>

#include "experiments/isolated_run.h"
#include "systemc/core/config_error.h"

namespace wn {

namespace {

// The position in `running` of a child whose pipe has data or is closed (blocks until one has).
size_t first_ready(const std::vector<std::pair<size_t, IsolatedChild>>& running) {
  std::vector<pollfd> fds;
  for (const auto& [i, c] : running) fds.push_back({c.fd, POLLIN, 0});
  while (::poll(fds.data(), fds.size(), -1) < 0)
    if (errno != EINTR) throw std::runtime_error("sweep: poll failed");
  for (size_t k = 0; k < fds.size(); ++k)
    if (fds[k].revents) return k;
  return 0;
}

}  // namespace

std::vector<nlohmann::json> run_sweep(const std::vector<SweepPoint>& points,
                                      const std::function<void(size_t, const nlohmann::json&)>& on_result,
                                      unsigned jobs, bool keep_going, ResultOrder order) {
  std::vector<std::optional<nlohmann::json>> results(points.size());
  std::vector<std::pair<size_t, IsolatedChild>> running;
  size_t next = 0, done = 0, emitted = 0;
  try {
    while (done < points.size()) {
      while (next < points.size() && running.size() < std::max(1u, jobs)) {
        running.emplace_back(next, start_isolated(points[next].run));
        ++next;
      }
      // A child writes its JSON and exits, so a ready pipe reads to EOF at once.
      const size_t k = first_ready(running);
      const auto [i, child] = running[k];
      running.erase(running.begin() + long(k));
      try {
        results[i] = finish_isolated(child);
      } catch (const ConfigError&) {
        throw;
      } catch (const std::exception& e) {
        if (!keep_going) throw std::runtime_error(points[i].label + ": " + e.what());
        results[i] = nlohmann::json{{"ok", false}, {"error", e.what()}};
      }
      ++done;
      if (order == ResultOrder::Completion) {
        if (on_result) on_result(i, *results[i]);
        continue;
      }
      for (; emitted < points.size() && results[emitted]; ++emitted)
        if (on_result) on_result(emitted, *results[emitted]);
    }
  } catch (...) {
    for (const auto& [i, child] : running) {
      kill(child.pid, SIGKILL);
      close(child.fd);
      waitpid(child.pid, nullptr, 0);
    }
    throw;
  }
  std::vector<nlohmann::json> out;
  out.reserve(points.size());
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

}  // namespace wn
