// Validated command-line options. Every number is checked on its text before
// CLI11 converts it, so a negative count, a fraction where an integer belongs,
// nan, inf or an out-of-range value is one line naming the option and the
// allowed values (exit 2) — never a wrapped unsigned or a cast of infinity.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "experiments/traffic_run.h"

namespace wn::cli {

constexpr uint64_t kMaxCycles = 1'000'000'000'000;  // 10^12: ~58 days at the model's speed

// An integer min..max (no sign, no fraction, no exponent).
CLI::Validator uint_in(uint64_t min, uint64_t max);
// A finite real number min..max.
CLI::Validator real_in(double min, double max);
// A decimal integer min..max from a list item (--avoid, --group, ...); else ConfigError(field)
// with `allowed` as the allowed values.
uint64_t decimal(const std::string& text, uint64_t min, uint64_t max, const std::string& field,
                 const std::string& allowed);

template <class T>
CLI::Option* add_uint(CLI::App* cmd, const std::string& name, T& target, const std::string& help, uint64_t min,
                      uint64_t max) {
  return cmd->add_option(name, target, help)
      ->transform(uint_in(min, max))
      ->capture_default_str();  // transform: decimal text in
}
inline CLI::Option* add_real(CLI::App* cmd, const std::string& name, double& target, const std::string& help,
                             double min, double max) {
  return cmd->add_option(name, target, help)->transform(real_in(min, max))->capture_default_str();
}

// The options `traffic` and `sweep` share: network, pattern, window, seed.
void add_traffic_options(CLI::App* cmd, TrafficOptions& opt, std::string& backend);

// `wormnet traffic`'s options for one point (the above, port model, load, drain, watchdog,
// debug flags); sweep specs of command traffic parse each point with them.
void add_traffic_run_options(CLI::App* cmd, TrafficOptions& opt, std::string& backend, bool& no_dateline);

// --threads for the commands that run one simulation at a time (traffic, run, compare), defaulting
// to the cores this process may use (at most 8); sweeps run points in parallel instead.
void add_threads_option(CLI::App* cmd, int& threads);

// Options traffic reads only in some configurations (--hotspot-* with the hotspot pattern,
// --no-dateline on a torus, --trace with RTL): given otherwise, a ConfigError naming the option.
void check_traffic_reads(const CLI::App* cmd, const TrafficOptions& opt, bool no_dateline);
// The hint a deadlock report ends with when --explain-deadlock was not given (traffic: the seed
// reproduces the run; collectives: deterministic anyway).
void word_deadlock_hint(TrafficOptions& opt);
std::string collective_deadlock_hint();

// "a,b,c" -> {"a", "b", "c"}; an empty item or an empty list is a ConfigError(field).
std::vector<std::string> split_list(const std::string& s, const std::string& field);

}  // namespace wn::cli
