#include "app/run_options.h"

#include <fmt/format.h>

#include <charconv>

#include "algorithms/registry.h"
#include "app/options.h"
#include "app/param_words.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {
// --algorithm A,B,...: an alias (allreduce) becomes the algorithm's name, so every report
// carries the one name.
std::string canonical_algorithms(std::string list) {
  std::string out;
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    out += alg::canonical_algorithm(list.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    out += ',';
    start = comma + 1;
  }
}
}  // namespace

void add_common_options(CLI::App* cmd, RunCli& c, bool list_ok) {
  c.cmd = cmd;
  c.list_ok = list_ok;
  auto& o = c.opt;
  cmd->add_option("--topology", o.topology,
                  list_ok ? "networks, comma-separated (mesh:AxB[xC] | torus:AxB[xC] | cube:D)"
                          : "mesh:AxB[xC] | torus:AxB[xC] | cube:D")
      ->capture_default_str();
  cmd->add_option(
         "--ports", o.ports,
         list_ok ? "port models to compare, comma-separated (one | all | K)" : "port model: one | all | K channels")
      ->capture_default_str();
  cmd->add_option("--algorithm", o.algorithm,
                  list_ok ? "algorithms, comma-separated (wormnet list)" : "collective algorithm (wormnet list)")
      ->capture_default_str()
      ->transform(canonical_algorithms, "", "alias");
  cmd->add_option("--schedule", c.schedule,
                  list_ok ? "wormnet.schedule/1 files, comma-separated, compared with the --algorithm list (if given)"
                          : "run this wormnet.schedule/1 file instead of an --algorithm (docs/own-schedule.md)");
  cmd->add_option("--firmware", c.firmware,
                  list_ok ? "firmware plugins LIB.so[:ENTRY], comma-separated, compared with the --algorithm list "
                            "(if given)"
                          : "run the firmware a plugin LIB.so[:ENTRY] builds instead of an --algorithm "
                            "(docs/own-firmware.md)");
  cmd->add_option("--source", o.source, "root node of rooted collectives, or random")->capture_default_str();
  if (list_ok) {
    c.bytes_list = std::to_string(o.bytes);
    cmd->add_option("--bytes", c.bytes_list, "bytes per block / message, comma-separated (multiples of 4)")
        ->capture_default_str();
    cmd->add_option("--sources", c.sources,
                    "sources (roots) to run each point from, results averaged: N,M,... | all | random:N "
                    "(seeded; overrides --source)");
    add_uint(cmd, "-j,--jobs", c.jobs, "simulations run at once (results never depend on it)", 1, 1024);
  } else {
    add_uint(cmd, "--bytes", o.bytes, "bytes per block / message (whole 32-bit words: a multiple of 4)", 4, 64u << 20);
  }
  cmd->add_option("--op", o.op, "reduction operator: sum | max | min | affine (non-commutative)")
      ->capture_default_str();
  cmd->add_option("--group", c.group, "process group: comma-separated node ids (default: all nodes)");
  // Each family's own options, in an option group named after the family.
  for (const auto& fam : alg::families()) {
    if (fam.options.empty()) continue;
    auto* grp = cmd->add_option_group(fam.name + " family", fam.summary);
    for (const auto& spec : fam.options) {
      if (cmd->get_option_no_throw(spec.flag)) continue;  // declared by an earlier family
      if (spec.switch_only)
        grp->add_flag_callback(
            spec.flag, [&c, flag = spec.flag] { c.family_options[flag] = "on"; }, spec.help);
      else
        grp->add_option(spec.flag, c.family_options[spec.flag], spec.help + " (default " + spec.default_value + ")");
    }
  }
  cmd->add_option("--profile", c.profile, "machine profile: ideal | ncube2 | t3d | sp1 | cm200")->capture_default_str();
  add_uint(cmd, "--alpha", c.alpha, "override: send startup, cycles", 0, 1'000'000'000);
  add_uint(cmd, "--gamma", c.gamma, "override: receive completion, cycles", 0, 1'000'000'000);
  add_uint(cmd, "--bytes-per-flit", c.bytes_per_flit, "override: body-flit payload in bytes (multiple of 4)", 4, 64);
  add_uint(cmd, "--max-packet-bytes", c.max_packet_bytes, "override: split longer messages (0: one worm)", 0,
           64u << 20);
  add_real(cmd, "--clock-ns", c.clock_ns, "override: ns per network cycle", 1e-6, 1e9);
  add_real(cmd, "--copy-cycles", c.copy_cycles, "override: cycles per word copied", 0, 1e6);
  add_real(cmd, "--combine-cycles", c.combine_cycles, "override: cycles per word combined", 0, 1e6);
  add_real(cmd, "--index-cycles", c.index_cycles,
           "override: cycles per word whose address the processor computes (LocalOp::indexed)", 0, 1e6);
  add_real(cmd, "--index-setup-cycles", c.index_setup_cycles,
           "override: fixed cycles of each index computation (a list of local operations whose addresses the "
           "processor computes), over --index-cycles",
           0, 1e6);
  add_real(cmd, "--index-op-cycles", c.index_op_cycles,
           "override: cycles per local operation whose addresses the processor computes (a block or subblock), "
           "over --index-cycles",
           0, 1e6);
  add_real(cmd, "--reorder-cycles", c.reorder_cycles,
           "override: cycles per word a local copy (a reorder in memory) costs over --copy-cycles", 0, 1e6);
  cmd->add_option("--mem-words-per-cycle", c.mem_words,
                  std::string("override: 32-bit words per cycle each node's memory moves for all its channels and "
                              "local operations together (decimal, e.g. 1, 2, 0.5), or all (unlimited)") +
                      (list_ok ? "; compare: a comma-separated list, one row each" : ""));
  add_uint(cmd, "--multiport-startup", c.multiport_startup,
           "override: extra startup cycles of a multi-port operation (a step's sends as one exchange) over --alpha", 0,
           1'000'000'000);
  add_real(cmd, "--multiport-flit-cycles", c.multiport_flit_cycles,
           "override: cycles each channel of a multi-port operation needs per flit (1: link speed)", 1, 1e6);
  cmd->add_option("--backend", c.backend, "rtl | model | lockstep")->capture_default_str();
  cmd->add_option("--sync", c.sync,
                  "free: nodes run their steps data-driven (steps overlap); barrier: no node starts step t+1 "
                  "before every node has completed step t (the papers' model)")
      ->capture_default_str();
  cmd->add_option("--sends", c.sends,
                  "buffered: a send returns once its data is copied out; synchronous: a send waits until the "
                  "receiver has posted the receive (checks that a schedule cannot deadlock without buffering)")
      ->capture_default_str();
  add_uint(cmd, "--barrier-cycles", o.run.barrier_cycles, "cycles each barrier costs (--sync barrier; 0: ideal)", 0,
           1'000'000'000);
  add_uint(cmd, "--vcs", o.net.vcs, "virtual channels per port (even on a torus)", 1, kMaxVcs);
  add_uint(cmd, "--buf", o.net.buf, "buffer depth per VC in flits", 1, kMaxBuf);
  add_uint(cmd, "--max-cycles", o.run.max_cycles, "stop the run after this many cycles", 1, kMaxCycles);
  cmd->add_flag("--no-idle-skip{false}", o.run.skip_idle,
                "evaluate every cycle, also stretches where nothing is in flight and nodes compute "
                "(identical results, slower; for checking and benchmarks)");
  add_uint(cmd, "--seed", o.seed, "seed of every random choice (--source random)", 0, UINT64_MAX);
  cmd->add_option("--json", c.json, "write results as JSON to this file");
  if (!list_ok) {
    cmd->add_option("--trace", o.run.trace, "write an FST waveform of the RTL routers");
    cmd->add_option("--csv", c.csv, "write PREFIX-channels.csv and PREFIX-messages.csv");
    cmd->add_flag("--explain-deadlock", o.run.explain_deadlock,
                  "track every flit so a network deadlock report names the cycle of waits (slower)");
  }
}

namespace {

// Given on the command line (an option the command does not have is not given).
bool given_option(const RunCli& c, const std::string& name) {
  const CLI::Option* opt = c.cmd->get_option_no_throw(name);
  return opt && opt->count() > 0;
}

// A schedule file fixes its sizes, root, operators and steps: the options that set them for a
// built-in are refused with it, unless (compare) a built-in in the same run reads them.
void check_schedule_options(const RunCli& c) {
  auto given = [&](const std::string& name) { return given_option(c, name); };
  if (c.schedule.empty()) throw ConfigError("--schedule", "an empty name; allowed: a wormnet.schedule/1 file");
  const bool builtins = c.list_ok && given("--algorithm");
  if (!c.list_ok && given("--algorithm")) {
    if (c.opt.algorithm.rfind("synth-", 0) == 0)
      throw ConfigError("--schedule",
                        "runs a schedule file by itself now (synth-* read only the synth cache); "
                        "allowed: --schedule FILE without --algorithm");
    throw ConfigError("--algorithm", fmt::format("given with --schedule; allowed: one of them (the file's name is the "
                                                 "algorithm's name)"));
  }
  if (builtins) return;
  for (const char* flag : {"--bytes", "--source", "--sources", "--op"})
    if (given(flag))
      throw ConfigError(flag, "a schedule file fixes its own sizes, root and operators; allowed: no " +
                                  std::string(flag) + " with --schedule (or a built-in --algorithm beside it)");
  for (const auto& [flag, text] : c.family_options)
    if (given(flag))
      throw ConfigError(
          flag, "a family option, and a schedule file belongs to no family; allowed: no " + flag + " with --schedule");
}

// A plugin reads the network, --bytes, --source and --seed (its context) and every run option;
// what only a schedule has (operators, groups, families, files) is refused with it.
void check_firmware_options(const RunCli& c) {
  auto given = [&](const std::string& name) { return given_option(c, name); };
  if (c.firmware.empty()) throw ConfigError("--firmware", "an empty name; allowed: LIBRARY.so or LIBRARY.so:ENTRY");
  if (!c.list_ok && given("--algorithm"))
    throw ConfigError("--algorithm", "given with --firmware; allowed: one of them");
  if (!c.list_ok && given("--schedule")) throw ConfigError("--schedule", "given with --firmware; allowed: one of them");
  if (c.list_ok && (given("--algorithm") || given("--schedule"))) return;  // compare: read by the others
  for (const char* flag : {"--op", "--group"})
    if (given(flag))
      throw ConfigError(flag,
                        "firmware of your own gets the network, --bytes, --source and --seed only; allowed: "
                        "no " +
                            std::string(flag) + " with --firmware");
  for (const auto& [flag, text] : c.family_options)
    if (given(flag))
      throw ConfigError(flag, "a family option, and firmware of your own belongs to no family; allowed: no " + flag +
                                  " with --firmware");
}

}  // namespace

std::vector<double> parse_mem_words(const std::string& text) {
  std::vector<double> out;
  for (const std::string& item : split_list(text, "--mem-words-per-cycle")) {
    if (item == "all") {
      out.push_back(0);
      continue;
    }
    double v = 0;
    const char* const end = item.data() + item.size();
    const auto [ptr, ec] = std::from_chars(item.data(), end, v);
    // At least a thousandth of a word (the port counts thousandths), at most a flit's 16 words on each of 2 x 14
    // channels many times over.
    if (ec != std::errc() || ptr != end || !(v >= 0.001) || v > 1e6)
      throw ConfigError("--mem-words-per-cycle",
                        fmt::format("'{}'; allowed: a decimal number 0.001..1000000, or all (unlimited)", item));
    out.push_back(v);
  }
  return out;
}

fw::ScheduleRunOptions resolve(const RunCli& c) {
  fw::ScheduleRunOptions o = c.opt;
  o.net.backend = parse_backend(c.backend);
  o.run.profile = fw::find_profile(c.profile);
  o.run.deadlock_hint = collective_deadlock_hint();
  o.run.words = flag_word;
  // `export` removes the options only a simulation reads: absent there, never given.
  auto given = [&](const std::string& name) { return given_option(c, name); };
  if (given("--alpha")) o.run.profile.alpha = c.alpha;
  if (given("--gamma")) o.run.profile.gamma = c.gamma;
  if (given("--bytes-per-flit")) o.run.profile.bytes_per_flit = c.bytes_per_flit;
  if (given("--max-packet-bytes")) o.run.profile.max_packet_bytes = c.max_packet_bytes;
  if (given("--clock-ns")) o.run.profile.clock_ns = c.clock_ns;
  if (given("--copy-cycles")) o.run.profile.copy_cycles_per_word = c.copy_cycles;
  if (given("--combine-cycles")) o.run.profile.combine_cycles_per_word = c.combine_cycles;
  if (given("--index-cycles")) o.run.profile.index_cycles_per_word = c.index_cycles;
  if (given("--reorder-cycles")) o.run.profile.reorder_cycles_per_word = c.reorder_cycles;
  if (given("--index-setup-cycles")) o.run.profile.index_setup_cycles = c.index_setup_cycles;
  if (given("--index-op-cycles")) o.run.profile.index_op_cycles = c.index_op_cycles;
  if (given("--multiport-startup")) o.run.profile.multiport_startup = c.multiport_startup;
  if (given("--multiport-flit-cycles")) o.run.profile.multiport_flit_cycles = c.multiport_flit_cycles;
  if (given("--mem-words-per-cycle")) {
    const std::vector<double> rates = parse_mem_words(c.mem_words);
    if (rates.size() > 1 && !c.mem_list)
      throw ConfigError("--mem-words-per-cycle",
                        fmt::format("{} rates; allowed: one (compare takes a list)", rates.size()));
    o.run.profile.mem_words_per_cycle = rates.front();
  }
  fw::validate(o.run.profile);
  if (c.sync != "free" && c.sync != "barrier")
    throw ConfigError("--sync", fmt::format("'{}'; allowed: free, barrier", c.sync));
  o.run.barrier = c.sync == "barrier";
  if (c.sends != "buffered" && c.sends != "synchronous")
    throw ConfigError("--sends", fmt::format("'{}'; allowed: buffered, synchronous", c.sends));
  o.run.synchronous_sends = c.sends == "synchronous";
  if (given("--barrier-cycles") && !o.run.barrier)
    throw ConfigError("--barrier-cycles", "given with --sync free; allowed: only with --sync barrier");
  for (const auto& [flag, text] : c.family_options)
    if (given(flag.c_str())) o.family_options[flag] = text;
  if (given("--firmware")) check_firmware_options(c);
  if (given("--schedule") && !given("--firmware")) check_schedule_options(c);
  o.schedule = c.schedule;
  o.firmware = c.firmware;
  o.group.clear();
  if (!c.group.empty())
    for (const auto& g : split_list(c.group, "--group"))
      o.group.push_back(int(decimal(g, 0, 1u << 20, "--group", "comma-separated node ids")));
  return o;
}

void check_unread_params(const RunCli& c, const std::vector<const alg::AlgorithmInfo*>& algorithms) {
  if (algorithms.empty()) return;  // schedule files: check_schedule_options
  for (const char* flag : {"--source", "--sources", "--op"}) {
    const CLI::Option* opt = c.cmd->get_option_no_throw(flag);
    if (!opt || opt->count() == 0) continue;
    const std::string param = std::string(flag) == "--sources" ? "--source" : flag;
    std::string names, readers;
    bool read = false;
    for (const auto* a : algorithms) {
      names += (names.empty() ? "" : ", ") + a->name;
      read = read || alg::reads_param(*a, param);
    }
    if (read) continue;
    for (const auto& a : alg::algorithms())
      if (alg::reads_param(a, param)) readers += (readers.empty() ? "" : ", ") + a.name;
    throw ConfigError(flag, fmt::format("{} {} not read by {}; allowed: no {} (read by {})", flag,
                                        algorithms.size() == 1 ? "is" : "is", names, flag, readers));
  }
}

void check_profile_unread(const RunCli& c, const alg::AlgorithmInfo& info, const std::string& form) {
  for (const char* flag :
       {"--profile", "--alpha", "--gamma", "--bytes-per-flit", "--max-packet-bytes", "--clock-ns", "--copy-cycles",
        "--combine-cycles", "--index-cycles", "--index-setup-cycles", "--index-op-cycles", "--reorder-cycles",
        "--mem-words-per-cycle", "--multiport-startup", "--multiport-flit-cycles"}) {
    const CLI::Option* opt = c.cmd->get_option_no_throw(flag);
    if (!opt || opt->count() == 0) continue;
    const bool model = std::string(flag) == "--profile" || std::string(flag) == "--alpha" ||
                       std::string(flag) == "--gamma" || std::string(flag) == "--bytes-per-flit";
    if (model && info.tuned) continue;
    throw ConfigError(flag, fmt::format("not read by {}: {}; allowed: with run, compare or check --simulate", form,
                                        model ? info.name + "'s schedule does not depend on the machine profile"
                                              : "only a simulation's timing reads it"));
  }
}

void report_failure(const fw::ScheduleRunResult& r) {
  if (!r.run.ok)
    std::fprintf(stderr, "error: %s\n", r.run.error.c_str());
  else if (!r.data_ok)
    std::fprintf(stderr, "error: data check FAIL: %s\n", r.data_error.c_str());
}

}  // namespace wn::cli
