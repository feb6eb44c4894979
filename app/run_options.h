// The options `wormnet run`, `check` and `compare` share, parsed once into
// fw::ScheduleRunOptions (the profile and its overrides resolved).
#pragma once
#include <CLI/CLI.hpp>

#include <map>
#include <string>

#include "algorithms/registry.h"
#include "experiments/collective_run.h"

namespace wn::cli {

struct RunCli {
  fw::ScheduleRunOptions opt;
  std::string backend = "model";
  std::string profile = "ideal";
  std::string json;
  std::string csv;
  std::string group;
  std::string schedule;            // --schedule: a file (run, check) or comma-separated files (compare)
  std::string firmware;            // --firmware: LIB[:ENTRY] (run) or comma-separated plugins (compare)
  bool list_ok = false;            // compare's form
  std::string sync = "free";       // --sync free | barrier
  std::string sends = "buffered";  // --sends buffered | synchronous
  std::string bytes_list;          // compare: comma-separated --bytes
  std::string sources;             // compare: --sources (empty: --source)
  unsigned jobs = 1;               // compare: simulations at once
  std::string sort = "none";       // compare: --sort (rows in point order, or by time, busbw, name)
  std::map<std::string, std::string> family_options;  // every family flag -> text (given or not)
  // Profile overrides (applied when given).
  uint32_t alpha = 0, gamma = 0, max_packet_bytes = 0;
  int bytes_per_flit = 4;
  double clock_ns = 1, copy_cycles = 0, combine_cycles = 0, index_cycles = 0, reorder_cycles = 0;
  double index_setup_cycles = 0, index_op_cycles = 0;
  std::string mem_words;  // --mem-words-per-cycle: a rate, or "all" (compare: a list)
  bool mem_list = false;  // compare: --mem-words-per-cycle takes a list
  uint32_t multiport_startup = 0;
  double multiport_flit_cycles = 1;
  CLI::App* cmd = nullptr;
};

// `list_ok`: compare's form, where --ports, --algorithm and --bytes take lists.
void add_common_options(CLI::App* cmd, RunCli& c, bool list_ok);
// The options as the user gave them, with the profile and its overrides resolved.
fw::ScheduleRunOptions resolve(const RunCli& c);
// --mem-words-per-cycle: rates in words per cycle, 0 for "all" (unlimited); one unless `list_ok`.
std::vector<double> parse_mem_words(const std::string& text);
// --source (--sources) and --op given to algorithms none of which reads them: ConfigError naming
// the flag and which algorithms read it (an option is used or refused, never ignored).
void check_unread_params(const RunCli& c, const std::vector<const alg::AlgorithmInfo*>& algorithms);
// Forms that build a schedule without simulating it (check without --simulate, export) read the
// profile only where the schedule depends on it (alg::AlgorithmInfo::tuned), and never its timing.
void check_profile_unread(const RunCli& c, const alg::AlgorithmInfo& info, const std::string& form);
// A failed run's reason also goes to stderr (the summary on stdout has it too).
void report_failure(const fw::ScheduleRunResult& r);

}  // namespace wn::cli
