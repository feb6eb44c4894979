// `--baseline` as a user runs it: a sweep or a compare against its own earlier results is
// unchanged (exit 0); an edited number in the baseline is named with before -> after and the
// change in % (exit 1) unless the tolerance covers it; a point missing from the new run is exit 1;
// a baseline that is not one is one line on stderr naming the file and the line (exit 2) before
// anything runs. The expected numbers are read from the runs themselves, never written here.
#include <sys/wait.h>

#include <filesystem>

#include <fmt/format.h>

#include "testbench/app/cli_helpers.h"

namespace wn::test {
namespace {

namespace fs = std::filesystem;

std::string dir_for(const std::string& name) { return fresh_dir("cli_regression_test", name); }

std::string text_of(const std::vector<nlohmann::json>& ls) {
  std::string t;
  for (const auto& j : ls) t += j.dump() + "\n";
  return t;
}

// stdout and stderr apart: a bad baseline is exactly one line on stderr.
struct Split {
  int code;
  std::string out, err;
};
Split run_split(const std::string& args, const std::string& dir) {
  const std::string o = dir + "/stdout", e = dir + "/stderr";
  const int st = std::system((std::string(WN_BINARY_DIR) + "/wormnet " + args + " >" + o + " 2>" + e).c_str());
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(o), slurp(e)};
}

// 4 points: rd-broadcast (rooted at 0) and direct-alltoall, one- and all-port.
const char* kSpec =
    "command: run\ntopology: mesh:4x4\nalgorithm: [rd-broadcast, direct-alltoall]\nports: [one, all]\nbytes: 32\n";
const char* kChanged = "algorithm=direct-alltoall bytes=32 ports=all topology=mesh:4x4";

// The spec's results as a baseline file: d/base.jsonl.
std::string baseline(const std::string& d, const std::string& spec_text) {
  const std::string spec = write_file(d + "/s.yaml", spec_text);
  EXPECT_EQ(wormnet("sweep " + spec + " -j 2 --out " + d + "/base.jsonl").code, 0);
  return d + "/base.jsonl";
}

TEST(CliRegression, SweepAgainstItsOwnBaselineIsAllUnchanged) {
  const auto d = dir_for("same");
  const std::string base = baseline(d, kSpec);
  const std::string want =
      "regression against " + base + ": all 4 points unchanged (tolerance 0); 0 new, 0 missing from the new run\n";
  const CliRun r = wormnet("sweep " + d + "/s.yaml -j 2 --out " + d + "/new.jsonl --baseline " + base);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("4 points in " + d + "/new.jsonl: 4 ok, 0 failed\n" + want), std::string::npos) << r.out;
  // On the existing results file nothing runs and the comparison is the same.
  const CliRun again = wormnet("sweep " + d + "/s.yaml --out " + d + "/new.jsonl --baseline " + base);
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("4 already in " + d + "/new.jsonl, 0 to run"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find(want), std::string::npos) << again.out;
  // The merge form compares what it merged.
  const CliRun m = wormnet("sweep --merge " + d + "/new.jsonl --out " + d + "/m.jsonl --baseline " + base);
  EXPECT_EQ(m.code, 0) << m.out;
  EXPECT_NE(m.out.find(want), std::string::npos) << m.out;
}

TEST(CliRegression, EditedCyclesAreNamedBeforeAfterAndPercentExit1UnlessTolerated) {
  const auto d = dir_for("edited");
  const std::string base = baseline(d, kSpec);
  auto ls = json_lines(base);
  size_t n = 0;
  for (auto& j : ls)
    if (j["params"]["algorithm"] == "direct-alltoall" && j["params"]["ports"] == "all") {
      j["cycles"] = j["cycles"].get<uint64_t>() + 10;
      ++n;
    }
  ASSERT_EQ(n, 1u);
  write_file(base, text_of(ls));
  const CliRun r = wormnet("sweep " + d + "/s.yaml -j 2 --out " + d + "/new.jsonl --baseline " + base);
  EXPECT_EQ(r.code, 1) << r.out;
  const auto now = json_lines(d + "/new.jsonl");
  uint64_t after = 0;
  for (const auto& j : now)
    if (j["params"]["algorithm"] == "direct-alltoall" && j["params"]["ports"] == "all") after = j["cycles"];
  ASSERT_GT(after, 0u);
  const double before = double(after + 10), rel = (double(after) - before) / before;
  EXPECT_NE(
      r.out.find(fmt::format("changed  {}\n    cycles  {} → {}  {:+.2f} %\n", kChanged, after + 10, after, rel * 100)),
      std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("3 points unchanged, 1 changed, 0 failed, 0 new, 0 missing from the new run (tolerance 0)\n"),
            std::string::npos)
      << r.out;
  // A tolerance above the change accepts it (and says so); one below does not.
  const std::string above = fmt::format("{:.4f}", -rel + 0.0001), below = fmt::format("{:.4f}", -rel / 2);
  const CliRun ok =
      wormnet("sweep " + d + "/s.yaml --out " + d + "/new.jsonl --baseline " + base + " --tolerance " + above);
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find(fmt::format("all 4 points unchanged (tolerance {}, 1 of them moved within it); 0 new, 0 "
                                    "missing from the new run\n",
                                    std::stod(above))),
            std::string::npos)
      << ok.out;
  const CliRun no =
      wormnet("sweep " + d + "/s.yaml --out " + d + "/new.jsonl --baseline " + base + " --tolerance " + below);
  EXPECT_EQ(no.code, 1) << no.out;
  EXPECT_NE(no.out.find("changed  " + std::string(kChanged)), std::string::npos) << no.out;
}

TEST(CliRegression, APointMissingFromTheNewRunIsExit1AndNewPointsAreNot) {
  const auto d = dir_for("missing");
  const std::string base = baseline(d, kSpec);
  const auto one =
      write_file(d + "/one.yaml", std::string(kSpec).replace(std::string(kSpec).find("[one, all]"), 10, "one"));
  const CliRun r = wormnet("sweep " + one + " --out " + d + "/one.jsonl --baseline " + base);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("missing  " + std::string(kChanged) + " (in the baseline, not in the new run)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 points unchanged, 0 changed, 0 failed, 0 new, 2 missing from the new run"), std::string::npos)
      << r.out;
  // The other way round: the new run has more points than the baseline; nothing moved.
  const CliRun grown = wormnet("sweep " + d + "/s.yaml --out " + d + "/all.jsonl --baseline " + d + "/one.jsonl");
  EXPECT_EQ(grown.code, 0) << grown.out;
  EXPECT_NE(grown.out.find("new      " + std::string(kChanged) + " (not in the baseline)\n"), std::string::npos)
      << grown.out;
  EXPECT_NE(grown.out.find("all 2 points unchanged (tolerance 0); 2 new, 0 missing from the new run"),
            std::string::npos)
      << grown.out;
}

TEST(CliRegression, MalformedBaselineIsOneLineNamingFileAndLineExit2BeforeAnythingRuns) {
  const auto d = dir_for("malformed");
  const std::string base = baseline(d, kSpec);
  auto ls = json_lines(base);
  const std::string bad = write_file(d + "/bad.jsonl", ls[0].dump() + "\n{\"cycles\": 62}\n" + ls[1].dump() + "\n");
  const Split r = run_split("sweep " + d + "/s.yaml --out " + d + "/new.jsonl --baseline " + bad, d);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_EQ(r.err.rfind("error: " + bad + ": line 2 is not a point's result; allowed: a results file", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(d + "/new.jsonl"));  // nothing ran, nothing written
  const Split dir = run_split("sweep --merge " + base + " --out " + d + "/m.jsonl --baseline " + d, d);
  EXPECT_EQ(dir.code, 2);
  EXPECT_EQ(dir.err,
            "error: --baseline: '" + d + "' is a directory; allowed: a results file of wormnet sweep (JSON lines)\n");
  EXPECT_FALSE(fs::exists(d + "/m.jsonl"));
}

// A spec of parts (traffic and run), and metrics found in the results themselves: a traffic
// point's nested latency percentile is compared like a run's cycles.
TEST(CliRegression, TrafficAndRunPartsEveryMeasuredNumber) {
  const auto d = dir_for("parts");
  const std::string base = baseline(d,
                                    "parts:\n  - command: traffic\n    topology: mesh:4x4\n    ports: [one, all]\n"
                                    "    rate: 0.2\n    cycles: 300\n    warmup: 50\n"
                                    "  - command: run\n    topology: mesh:4x4\n    algorithm: rd-broadcast\n");
  auto ls = json_lines(base);
  ASSERT_EQ(ls.size(), 3u);
  size_t n = 0;
  for (auto& j : ls)
    if (j["command"] == "traffic" && j["params"]["ports"] == "all") {
      j["network_latency"]["p99"] = j["network_latency"]["p99"].get<int>() + 1;
      ++n;
    }
  ASSERT_EQ(n, 1u);
  write_file(base, text_of(ls));
  const CliRun r = wormnet("sweep " + d + "/s.yaml --out " + d + "/new.jsonl --baseline " + base);
  EXPECT_EQ(r.code, 1) << r.out;
  // Two commands: the label says which.
  EXPECT_NE(r.out.find("changed  traffic cycles=300 ports=all rate=0.2 topology=mesh:4x4 warmup=50\n"
                       "    network_latency.p99  "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 points unchanged, 1 changed"), std::string::npos) << r.out;
}

const std::string kCompare = "compare --topology mesh:4x4 --algorithm rd-broadcast,direct-alltoall --bytes 32";

TEST(CliRegression, CompareAgainstItsOwnReport) {
  const auto d = dir_for("compare");
  ASSERT_EQ(wormnet(kCompare + " --json " + d + "/base.json").code, 0);
  const CliRun same = wormnet(kCompare + " --json " + d + "/new.json --baseline " + d + "/base.json");
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_NE(same.out.find("regression against " + d +
                          "/base.json: all 4 points unchanged (tolerance 0); 0 new, 0 missing from the new run\n"),
            std::string::npos)
      << same.out;
  // One row's mean cycles 25 % higher in the baseline: named, exit 1; a tolerance of the change passes.
  auto j = read_json(d + "/base.json");
  double after = 0;
  for (auto& row : j["summary"])
    if (row["variant"] == "direct-alltoall" && row["ports"] == "all") {
      after = row["mean_cycles"].get<double>();
      row["mean_cycles"] = after * 1.25;
    }
  ASSERT_GT(after, 0);
  write_file(d + "/edited.json", j.dump(2));
  const CliRun r = wormnet(kCompare + " --baseline " + d + "/edited.json");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(fmt::format("changed  direct-alltoall ports=all bytes=32\n    mean_cycles  {} → {}  -20.00 %\n",
                                   nlohmann::json(after * 1.25).dump(), nlohmann::json(after).dump())),
            std::string::npos)
      << r.out;
  EXPECT_EQ(wormnet(kCompare + " --baseline " + d + "/edited.json --tolerance 0.21").code, 0);
  EXPECT_EQ(wormnet(kCompare + " --baseline " + d + "/edited.json --tolerance 0.19").code, 1);
  // Fewer port models than the baseline: its rows are missing.
  const CliRun one = wormnet(kCompare + " --ports one --baseline " + d + "/base.json");
  EXPECT_EQ(one.code, 1) << one.out;
  EXPECT_NE(one.out.find("missing  direct-alltoall ports=all bytes=32 (in the baseline, not in the new run)"),
            std::string::npos)
      << one.out;
  EXPECT_NE(one.out.find("2 points unchanged, 0 changed, 0 failed, 0 new, 2 missing"), std::string::npos) << one.out;
  // A report cut short: the file and the line, exit 2, nothing simulated.
  const std::string text = slurp(d + "/base.json").substr(0, 300);
  ASSERT_NE(text.back(), '\n');
  write_file(d + "/cut.json", text);
  const Split cut = run_split(kCompare + " --baseline " + d + "/cut.json", d);
  EXPECT_EQ(cut.code, 2);
  EXPECT_EQ(cut.err, fmt::format("error: {}/cut.json: line {} is not JSON; allowed: a compare report (the JSON "
                                 "wormnet compare writes)\n",
                                 d, std::count(text.begin(), text.end(), '\n') + 1));
  EXPECT_EQ(cut.out, "");
}

}  // namespace
}  // namespace wn::test
