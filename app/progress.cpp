#include "app/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>

namespace wn::cli {

namespace {
// A run shorter than this shows nothing; after it, the line is redrawn at most this often.
constexpr std::chrono::milliseconds kQuiet{2000}, kEvery{500};

std::string seconds_text(double s) {
  if (s < 90) return fmt::format("{:.0f} s", s);
  if (s < 5400) return fmt::format("{:.0f} min", s / 60);
  return fmt::format("{:.1f} h", s / 3600);
}
}  // namespace

void add_progress_flags(CLI::App* cmd, ProgressChoice& choice) {
  auto* on = cmd->add_flag("--progress", choice.on,
                           "show cycles simulated, rate and ETA on stderr during a long run (default: on a terminal)");
  auto* off = cmd->add_flag("--no-progress", choice.off, "never show the progress line");
  on->excludes(off);
}

ProgressLine::ProgressLine(const ProgressChoice& choice)
    : enabled_(choice.on || (!choice.off && isatty(STDERR_FILENO))),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressLine::~ProgressLine() {
  if (drawn_) std::fputs("\r\033[K", stderr);
}

std::function<void(uint64_t, uint64_t)> ProgressLine::callback() {
  if (!enabled_) return {};
  return [this](uint64_t now, uint64_t end) { show(now, end); };
}

void ProgressLine::show(uint64_t now, uint64_t end) {
  const auto t = std::chrono::steady_clock::now();
  if (t - start_ < kQuiet || t - last_ < kEvery) return;
  last_ = t;
  const double elapsed = std::chrono::duration<double>(t - start_).count();
  const double rate = double(now) / elapsed;
  std::string line = fmt::format("cycle {} ({:.0f} cycles/s, {} elapsed)", now, rate, seconds_text(elapsed));
  if (end > now && rate > 0) line += fmt::format(", about {} to cycle {}", seconds_text(double(end - now) / rate), end);
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace wn::cli
