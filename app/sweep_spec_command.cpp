// `wormnet sweep SPEC.yaml`: every point of a spec, each in its own forked
// process (run_sweep), appended to a results file as it finishes; a rerun
// skips the points the file already has (by key) and retries failed ones.
// Also --summarize, --merge and --emit (GNU parallel job list, Slurm array); with
// --baseline, the points against an earlier results file (app/regression_output.h).
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "app/options.h"
#include "app/param_words.h"
#include "app/regression_output.h"
#include "app/sweep_spec.h"
#include "experiments/regression.h"
#include "experiments/report_file.h"
#include "experiments/sweep.h"
#include "experiments/sweep_results.h"
#include "experiments/sweep_summary.h"
#include "systemc/core/config_error.h"

namespace wn::cli {

namespace {

std::string default_out(const std::string& spec) {
  return std::filesystem::path(spec).filename().replace_extension(".jsonl").string();
}

// "I/N" -> {I, N}; empty -> {0, 1}.
std::pair<size_t, size_t> parse_shard(const std::string& s) {
  if (s.empty()) return {0, 1};
  const size_t slash = s.find('/');
  const std::string allowed = "allowed: I/N with 0 <= I < N (an array task of N)";
  std::string i = s.substr(0, slash), n = slash == std::string::npos ? "" : s.substr(slash + 1);
  if (slash == std::string::npos || !uint_in(0, 1u << 20)(i).empty() || !uint_in(1, 1u << 20)(n).empty() ||
      std::stoul(i) >= std::stoul(n))
    throw ConfigError("--shard", fmt::format("'{}' is not a shard; {}", s, allowed));
  return {std::stoul(i), std::stoul(n)};
}

// The --emit folder before anything is written: a folder (made if new), and each file the emit
// writes a new name or a regular file (never a device, symlink or directory), so a bad path is
// one line naming --emit, not a filesystem error halfway through.
void prepare_emit_dir(const std::string& dir, const std::string& kind) {
  const std::string allowed = "allowed: parallel DIR, slurm DIR with DIR a folder or a new path";
  if (dir.empty() || dir == "-") throw ConfigError("--emit", fmt::format("'{}' is not a folder; {}", dir, allowed));
  std::error_code ec;
  const auto st = std::filesystem::status(dir, ec);  // follows a symlink to a folder: files go inside it
  if (std::filesystem::exists(st) && !std::filesystem::is_directory(st))
    throw ConfigError("--emit", fmt::format("'{}' exists and is not a folder; {}", dir, allowed));
  if (!std::filesystem::exists(st) && !std::filesystem::create_directories(dir, ec) && ec)
    throw ConfigError("--emit", fmt::format("cannot create '{}' ({}); {}", dir, ec.message(), allowed));
  const std::vector<std::string> files = kind == "parallel"
                                             ? std::vector<std::string>{"jobs.txt", "run.sh", "manifest.json"}
                                             : std::vector<std::string>{"sweep.sbatch", "manifest.json"};
  for (const auto& f : files) check_writable(dir + "/" + f, "--emit");
}

std::string clock_text(double s) {
  const long t = long(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

}  // namespace

int run_spec_sweep(const SpecSweepArgs& a) {
  const SweepSpec spec = load_sweep_spec(a.spec, sweep_rules());
  const auto jobs = point_jobs(spec, a.spec);  // every point valid before anything runs
  const auto [shard, shards] = parse_shard(a.shard);
  // The baseline is read before anything runs: a bad one is exit 2 with nothing simulated.
  const auto baseline = a.baseline.empty() ? std::vector<nlohmann::json>{} : read_results_baseline(a.baseline);
  const std::string out = a.out.empty() ? default_out(a.spec) : a.out;
  ResultsAppender appender(out);
  const auto have = latest_by_key(read_result_lines(out));
  std::vector<size_t> pending;  // indices into spec.points, in point order
  size_t total = 0, skipped = 0;
  std::set<std::string> keys;  // this run's points (its shard's)
  for (size_t i = 0; i < spec.points.size(); ++i) {
    if (i % shards != shard) continue;
    ++total;
    auto it = have.find(*keys.insert(point_key(spec.commands[i], spec.points[i])).first);
    if (it != have.end() && line_ok(it->second))
      ++skipped;
    else
      pending.push_back(i);
  }
  const unsigned j = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
  fmt::print("wormnet sweep {}: {} points of `{}`{}, {} already in {}, {} to run with -j {}\n", a.spec, total,
             spec.command, shards > 1 ? fmt::format(" (shard {}/{})", shard, shards) : "", skipped, out, pending.size(),
             j);
  std::vector<SweepPoint> points;
  for (size_t i : pending) {
    // Exceptions in the child become a failed line (kept, retried next time), not a stopped sweep.
    auto job = jobs[i];
    points.push_back({point_label(spec.points[i]), [job]() -> nlohmann::json {
                        try {
                          return job();
                        } catch (const ConfigError& e) {
                          return {{"ok", false}, {"error", describe(e)}};
                        } catch (const std::exception& e) {
                          return {{"ok", false}, {"error", e.what()}};
                        }
                      }});
  }
  const bool tty = isatty(STDOUT_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  size_t done = 0, failed = 0;
  run_sweep(
      points,
      [&](size_t n, const nlohmann::json& result) {
        const SweepParams& p = spec.points[pending[n]];
        const std::string& command = spec.commands[pending[n]];
        nlohmann::json line = result;
        line["key"] = point_key(command, p);
        line["point"] = pending[n];  // the spec's order (lines are appended as points finish)
        line["command"] = command;
        line["params"] = typed_params(p);
        appender.append(line);
        ++done;
        const bool ok = line_ok(result);
        failed += ok ? 0 : 1;
        const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const double eta = el / double(done) * double(pending.size() - done);
        const std::string status = fmt::format("[{}/{}] {} failed, elapsed {}, ETA {}", skipped + done, total, failed,
                                               clock_text(el), clock_text(eta));
        if (!ok)
          fmt::print("{}FAIL {}: {}\n", tty ? "\r\033[K" : "", point_label(p), result.value("error", "data check"));
        if (tty) {
          // A bar redrawn in place; the last one stays.
          const int w = 30, fill = int(double(w) * double(skipped + done) / double(std::max<size_t>(total, 1)));
          fmt::print("\r\033[K{} [{}{}]{}", status, std::string(size_t(fill), '#'), std::string(size_t(w - fill), '.'),
                     done == pending.size() ? "\n" : "");
        } else {
          fmt::print("{}  {}\n", status, point_label(p));
        }
        std::fflush(stdout);
      },
      j, true, ResultOrder::Completion);
  fmt::print("{} points in {}: {} ok, {} failed{}\n", total, out, total - failed, failed,
             failed ? " (rerun the same command to retry them)" : "");
  const int regression = a.baseline.empty() ? 0
                                            : sweep_regression(read_result_lines(out), baseline, keys, shards > 1,
                                                               {a.baseline, a.tolerance});
  return failed || regression ? 1 : 0;
}

int run_merge(const SpecSweepArgs& a) {
  if (a.out.empty()) throw ConfigError("--merge", "needs --out; allowed: --merge A.jsonl B.jsonl --out R.jsonl");
  std::vector<std::string> expected;
  if (!a.spec.empty()) {
    const SweepSpec spec = load_sweep_spec(a.spec, sweep_rules());
    for (size_t i = 0; i < spec.points.size(); ++i) expected.push_back(point_key(spec.commands[i], spec.points[i]));
  }
  check_writable(a.out, "--out");
  check_results_not_in_use(a.out, "--out");  // a rename under a running sweep would lose its next lines
  const auto baseline = a.baseline.empty() ? std::vector<nlohmann::json>{} : read_results_baseline(a.baseline);
  const MergeReport r = merge_results(a.merge, expected);
  std::string text;
  for (const auto& j : r.merged) text += j.dump() + "\n";
  write_report(a.out, text, "--out");
  fmt::print("merged {} lines from {} files into {}: {} points, {} duplicates dropped, {} failed, {} missing{}\n",
             r.lines_read, a.merge.size(), a.out, r.merged.size(), r.duplicates, r.failed, r.missing.size(),
             expected.empty() ? " (give the spec to find gaps)" : "");
  for (const auto& k : r.missing) fmt::print("  missing {}\n", k);
  const int regression =
      a.baseline.empty() ? 0 : sweep_regression(r.merged, baseline, {}, false, {a.baseline, a.tolerance});
  return r.missing.empty() && r.failed == 0 && !regression ? 0 : 1;
}

int run_summarize(const SpecSweepArgs& a) {
  check_writable(a.csv, "--csv");  // first: a bad output path is named even when the input is bad too
  if (!std::ifstream(a.summarize))
    throw ConfigError("--summarize", "'" + a.summarize + "' cannot be read; allowed: a results file");
  SummaryOptions o;
  o.by = split_list(a.by, "--by");
  if (!a.baseline.empty()) {
    const size_t eq = a.baseline.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.baseline.size())
      throw ConfigError("--baseline", fmt::format("'{}'; allowed: KEY=VALUE (algorithm=rd-broadcast) with --summarize "
                                                  "(a results file to compare with goes with SPEC.yaml or --merge)",
                                                  a.baseline));
    o.baseline_key = a.baseline.substr(0, eq);
    o.baseline_value = a.baseline.substr(eq + 1);
  }
  // Point order, not key order: the table does not depend on the order the points finished in.
  const std::vector<nlohmann::json> lines = in_point_order(read_result_lines(a.summarize));
  const SummaryTable t = summarize(lines, o);
  fmt::print("{}", t.text());
  fmt::print(
      "(over each group's points: mean / min / max / p95; latencies and cycles in network cycles; "
      "stepwise..flow: mean contention delay cycles{})\n",
      o.baseline_key.empty() ? "" : "; speedup: the baseline's mean cycles over the group's");
  if (!a.csv.empty()) write_report(a.csv, t.csv(), "--csv");
  return 0;
}

int run_emit(const SpecSweepArgs& a) {
  const std::string kind = a.emit[0], dir = a.emit[1];
  if (kind != "parallel" && kind != "slurm")
    throw ConfigError("--emit", fmt::format("'{}'; allowed: parallel DIR, slurm DIR", kind));
  const SweepSpec spec = load_sweep_spec(a.spec, sweep_rules());
  point_jobs(spec, a.spec);  // a bad spec fails here, not on the cluster
  const size_t chunks =
      a.chunks ? std::min<size_t>(a.chunks, spec.points.size()) : std::min<size_t>(spec.points.size(), 64);
  prepare_emit_dir(dir, kind);
  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  const std::string spec_abs = std::filesystem::absolute(a.spec).string();
  const std::string dir_abs = std::filesystem::absolute(dir).string();
  // Each task is the same sweep restricted to its shard, resuming from its own results file.
  auto task = [&](const std::string& i) {
    return fmt::format("{} sweep {} --shard {}/{} -j 1 --out {}/results-{}.jsonl", self, spec_abs, i, chunks, dir_abs,
                       i);
  };
  if (kind == "parallel") {
    std::string jobs;
    for (size_t i = 0; i < chunks; ++i) jobs += task(std::to_string(i)) + "\n";
    write_report(dir + "/jobs.txt", jobs, "--emit");
    write_report(
        dir + "/run.sh",
        fmt::format("#!/bin/sh\n# {} points of {} in {} jobs. Add --sshlogin HOST,... (same paths on every host)\n"
                    "# to spread them; --resume skips jobs the joblog has finished.\n"
                    "cd {} && parallel --joblog {}/joblog --resume \"$@\" < {}/jobs.txt\n"
                    "{} sweep --merge {}/results-*.jsonl --out {}/results.jsonl {}\n",
                    spec.points.size(), spec_abs, chunks, dir_abs, dir_abs, dir_abs, self, dir_abs, dir_abs, spec_abs),
        "--emit");
  } else {
    write_report(dir + "/sweep.sbatch",
                 fmt::format("#!/bin/bash\n# {} points of {} as {} array tasks, at most {} at once.\n"
                             "# Submit: sbatch {}/sweep.sbatch; then merge:\n"
                             "#   {} sweep --merge {}/results-*.jsonl --out {}/results.jsonl {}\n"
                             "#SBATCH --job-name=wormnet-sweep\n#SBATCH --array=0-{}%{}\n#SBATCH --ntasks=1\n"
                             "#SBATCH --cpus-per-task=1\n#SBATCH --output={}/slurm-%A_%a.out\n"
                             "set -e\nexec {}\n",
                             spec.points.size(), spec_abs, chunks, a.throttle, dir_abs, self, dir_abs, dir_abs,
                             spec_abs, chunks - 1, a.throttle, dir_abs, task("${SLURM_ARRAY_TASK_ID}")),
                 "--emit");
  }
  // The manifest: what the tasks will run, so a merge or a person can tell what a folder holds.
  nlohmann::json shards = nlohmann::json::array();
  for (size_t i = 0; i < chunks; ++i) {
    nlohmann::json keys = nlohmann::json::array();
    for (size_t k = i; k < spec.points.size(); k += chunks) keys.push_back(point_key(spec.commands[k], spec.points[k]));
    shards.push_back({{"results", fmt::format("{}/results-{}.jsonl", dir_abs, i)}, {"keys", keys}});
  }
  write_json_report(dir + "/manifest.json",
                    {{"schema", "wormnet.sweep-manifest/2"},
                     {"engine", kind},
                     {"spec", spec_abs},
                     {"command", spec.command},
                     {"points", spec.points.size()},
                     {"tasks", chunks},
                     {"throttle", kind == "slurm" ? nlohmann::json(a.throttle) : nlohmann::json(nullptr)},
                     {"binary", self},  // "wormnet": the {version, git} of every report
                     {"shards", shards}},
                    "--emit");
  std::error_code ec;  // the script runs as `sh run.sh` / `sbatch` too: not executable is only a warning
  const std::string script = dir + (kind == "parallel" ? "/run.sh" : "/sweep.sbatch");
  std::filesystem::permissions(script, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add, ec);
  if (ec)
    std::fprintf(stderr, "warning: --emit: cannot make %s executable (%s)\n", script.c_str(), ec.message().c_str());
  fmt::print("wrote {}/{} and manifest.json ({} points in {} tasks)\n", dir,
             kind == "parallel" ? "jobs.txt, run.sh" : "sweep.sbatch", spec.points.size(), chunks);
  return 0;
}

}  // namespace wn::cli
