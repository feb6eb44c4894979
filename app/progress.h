// The progress line of a long run on stderr: cycles simulated, their rate and, when the end is
// known or estimated, an ETA — rewritten in place, only on a terminal unless asked for, never
// in the report (stdout, JSON).
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>

namespace CLI {
class App;
}

namespace wn::cli {

struct ProgressChoice {
  bool on = false, off = false;  // --progress, --no-progress (default: when stderr is a terminal)
};
void add_progress_flags(CLI::App* cmd, ProgressChoice& choice);

class ProgressLine {
 public:
  explicit ProgressLine(const ProgressChoice& choice);
  ~ProgressLine();  // clears the line it drew
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  // For the run's options; empty when no line is shown. `end`: the last cycle, 0 when unknown.
  std::function<void(uint64_t now, uint64_t end)> callback();

 private:
  void show(uint64_t now, uint64_t end);
  bool enabled_ = false, drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace wn::cli
