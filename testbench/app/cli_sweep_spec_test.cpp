// `wormnet sweep SPEC.yaml` as a user runs it: spec errors before anything
// runs, results independent of -j, resume after a killed sweep, merge with
// duplicates and gaps, summarize, and the GNU parallel / Slurm job lists.
// Tiny networks (mesh:4x4) so each test takes seconds.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "testbench/app/cli_helpers.h"

namespace wn::test {
namespace {

namespace fs = std::filesystem;

std::string dir_for(const std::string& name) { return fresh_dir("cli_sweep_spec_test", name); }

// Lines are appended as points finish; `point` is the spec's order.
std::vector<nlohmann::json> by_point(std::vector<nlohmann::json> ls) {
  std::sort(ls.begin(), ls.end(), [](const auto& a, const auto& b) { return a["point"] < b["point"]; });
  return ls;
}

std::string text_of(const std::vector<nlohmann::json>& ls) {
  std::string t;
  for (const auto& j : ls) t += j.dump() + "\n";
  return t;
}

// 2 algorithms x 2 port models x 2 sizes x 2 sources = 16 points.
const char* kSpec =
    "command: run\ntopology: mesh:4x4\nalgorithm: [rd-broadcast, binomial-scatter]\n"
    "ports: [one, all]\nbytes: {from: 32, to: 64, factor: 2}\nsources: [0, 5]\n";

TEST(CliSweepSpec, BadSpecIsOneLineExit2BeforeAnythingRuns) {
  const auto d = dir_for("bad");
  const auto spec = write_file(d + "/s.yaml", "command: run\ntopology: mesh:4x4\nbytes: [32, -4]\n");
  const CliRun r = wormnet("sweep " + spec + " --out " + d + "/r.jsonl");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.out, "error: " + spec +
                       ": bytes: '-4' rejected: --bytes: '-4' is not allowed; allowed: an integer "
                       "4..67108864\n");
  EXPECT_FALSE(fs::exists(d + "/r.jsonl"));  // nothing ran, nothing written
  // A combination the algorithm refuses is found before the first point runs, too.
  write_file(spec, "command: run\ntopology: [mesh:4x4, cube:3]\nalgorithm: edn-broadcast\n");
  const CliRun c = wormnet("sweep " + spec + " --out " + d + "/r.jsonl");
  EXPECT_EQ(c.code, 2) << c.out;
  EXPECT_NE(c.out.find("error: " + spec + ": point 1 (algorithm=edn-broadcast topology=cube:3)"), std::string::npos)
      << c.out;
  EXPECT_EQ(std::count(c.out.begin(), c.out.end(), '\n'), 1) << c.out;
  EXPECT_FALSE(fs::exists(d + "/r.jsonl"));
  // The rate sweep's options with a spec, and a spec's options without one, are refused, not ignored.
  expect_config_error("sweep " + spec + " --rates 0.1", "--rates", "allowed: put it in the spec");
  expect_config_error("sweep --rates 0.1 -j 2", "--jobs", "allowed: wormnet sweep SPEC.yaml --jobs");
}

TEST(CliSweepSpec, ResultsDoNotDependOnJobs) {
  const auto d = dir_for("jobs");
  const auto spec = write_file(d + "/s.yaml", kSpec);
  const CliRun one = wormnet("sweep " + spec + " -j 1 --out " + d + "/j1.jsonl");
  const CliRun two = wormnet("sweep " + spec + " -j 2 --out " + d + "/j2.jsonl");
  ASSERT_EQ(one.code, 0) << one.out;
  ASSERT_EQ(two.code, 0) << two.out;
  EXPECT_NE(one.out.find("[16/16] 0 failed, elapsed "), std::string::npos) << one.out;
  const auto a = slurp(d + "/j1.jsonl");
  // The same lines (no wall time), in the order the points finished: byte for byte once in point order.
  const auto ls = by_point(json_lines(d + "/j1.jsonl"));
  EXPECT_EQ(text_of(ls), text_of(by_point(json_lines(d + "/j2.jsonl"))));
  ASSERT_EQ(ls.size(), 16u);
  for (size_t i = 0; i < ls.size(); ++i) EXPECT_EQ(ls[i]["point"], i);
  EXPECT_EQ(ls[1]["params"]["source"], 5);  // numbers as numbers, names as text
  EXPECT_TRUE(ls[1]["params"]["topology"].is_string());
  EXPECT_EQ(ls[15]["params"]["algorithm"], "binomial-scatter");
  EXPECT_EQ(ls[15]["config"]["bytes"], 64);  // the run's own options agree with the point's parameters
  // The point means what the same command line means.
  const CliRun run = wormnet(
      "run --topology mesh:4x4 --algorithm binomial-scatter --ports all --bytes 64 --source 5 "
      "--json " +
      d + "/one.json");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(read_json(d + "/one.json")["cycles"], ls[15]["cycles"]);
  // A rerun finds everything done.
  const CliRun again = wormnet("sweep " + spec + " -j 2 --out " + d + "/j1.jsonl");
  EXPECT_NE(again.out.find("16 points of `run`, 16 already in"), std::string::npos) << again.out;
  EXPECT_EQ(slurp(d + "/j1.jsonl"), a);
}

// On a terminal the progress is one bar redrawn in place (util-linux `script` provides the terminal).
TEST(CliSweepSpec, ProgressIsABarOnATerminal) {
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "no `script` (util-linux)";
  const auto d = dir_for("tty");
  const auto spec = write_file(d + "/s.yaml", kSpec);
  const std::string cmd = std::string(WN_BINARY_DIR) + "/wormnet sweep " + spec + " -j 2 --out " + d + "/r.jsonl";
  FILE* p = popen(("script -qc '" + cmd + "' /dev/null").c_str(), "r");
  std::string out;
  for (int ch; p && (ch = fgetc(p)) != EOF;) out += char(ch);
  ASSERT_EQ(p ? pclose(p) : -1, 0) << out;
  EXPECT_NE(out.find("\r\033[K[1/16] 0 failed, elapsed "), std::string::npos) << out;
  EXPECT_NE(out.find(" [##############################]\r\n16 points in "), std::string::npos) << out;
  EXPECT_EQ(out.find("algorithm=rd-broadcast"), std::string::npos) << out;  // no plain per-point lines
}

TEST(CliSweepSpec, KilledSweepResumesWithoutDuplicatesOrGaps) {
  const auto d = dir_for("resume");
  // 48 points of mesh:8x8 (~50 ms each): the kill lands well before the end.
  const auto spec = write_file(d + "/s.yaml",
                               "command: run\ntopology: mesh:8x8\nalgorithm: [rd-broadcast, binomial-scatter]\n"
                               "ports: [one, all]\nbytes: [256, 1024, 4096]\nsources: random:4\nseed: 3\n");
  const std::string out = d + "/r.jsonl", bin = std::string(WN_BINARY_DIR) + "/wormnet";
  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    execl(bin.c_str(), "wormnet", "sweep", spec.c_str(), "-j", "2", "--out", out.c_str(), (char*)nullptr);
    _exit(127);
  }
  for (int i = 0; i < 3000 && whole_lines(out) < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  const size_t before = whole_lines(out);  // the kill may tear the last line; the resume cuts it
  ASSERT_GE(before, 3u);
  ASSERT_LT(before, 48u) << "the sweep finished before the kill; nothing was resumed";
  const CliRun r = wormnet("sweep " + spec + " -j 2 --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(fmt::format("48 points of `run`, {} already in", before)), std::string::npos) << r.out;
  // Every point exactly once, each equal to an uninterrupted run's line.
  ASSERT_EQ(wormnet("sweep " + spec + " -j 2 --out " + d + "/clean.jsonl").code, 0);
  std::map<std::string, nlohmann::json> clean;
  for (const auto& j : json_lines(d + "/clean.jsonl")) clean[j["key"]] = j;
  std::set<std::string> seen;
  for (const auto& j : json_lines(out)) {
    EXPECT_TRUE(seen.insert(j["key"]).second) << "duplicate " << j["key"];
    EXPECT_EQ(j, clean[j["key"]]);
  }
  EXPECT_EQ(seen.size(), 48u);
}

TEST(CliSweepSpec, MergeDropsDuplicatesAndReportsGaps) {
  const auto d = dir_for("merge");
  const auto spec = write_file(d + "/s.yaml", kSpec);
  ASSERT_EQ(wormnet("sweep " + spec + " -j 2 --out " + d + "/all.jsonl").code, 0);
  const auto ls = by_point(json_lines(d + "/all.jsonl"));
  // A: points 0..9, B: points 8..14 (8, 9 twice), point 15 nowhere.
  std::string a, b;
  for (size_t i = 0; i < 10; ++i) a += ls[i].dump() + "\n";
  for (size_t i = 8; i < 15; ++i) b += ls[i].dump() + "\n";
  write_file(d + "/a.jsonl", a);
  write_file(d + "/b.jsonl", b);
  const CliRun r = wormnet("sweep --merge " + d + "/a.jsonl " + d + "/b.jsonl --out " + d + "/m.jsonl " + spec);
  EXPECT_EQ(r.code, 1) << r.out;  // a gap
  EXPECT_NE(r.out.find("merged 17 lines from 2 files into " + d +
                       "/m.jsonl: 15 points, 2 duplicates dropped, 0 failed, "
                       "1 missing"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  missing " + ls[15]["key"].get<std::string>()), std::string::npos) << r.out;
  // With the gap filled the merge is the uninterrupted results file, byte for byte (point order).
  write_file(d + "/c.jsonl", ls[15].dump() + "\n");
  const CliRun full =
      wormnet("sweep --merge " + d + "/a.jsonl " + d + "/b.jsonl " + d + "/c.jsonl --out " + d + "/m.jsonl " + spec);
  EXPECT_EQ(full.code, 0) << full.out;
  EXPECT_EQ(slurp(d + "/m.jsonl"), text_of(ls));
}

TEST(CliSweepSpec, SummarizeAveragesOverSources) {
  const auto d = dir_for("summary");
  const auto spec = write_file(d + "/s.yaml", kSpec);
  ASSERT_EQ(wormnet("sweep " + spec + " -j 2 --out " + d + "/r.jsonl").code, 0);
  const CliRun r = wormnet("sweep --summarize " + d +
                           "/r.jsonl --by algorithm,ports,bytes --baseline "
                           "algorithm=rd-broadcast --csv " +
                           d + "/s.csv");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto csv = slurp(d + "/s.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);  // header + 2 x 2 x 2 groups
  EXPECT_EQ(csv.rfind("algorithm,ports,bytes,points,failed,avg_latency_mean_cycles,", 0), 0u) << csv;
  // The table does not depend on the order the points finished in: the lines reversed give the same CSV.
  auto rev = json_lines(d + "/r.jsonl");
  std::reverse(rev.begin(), rev.end());
  write_file(d + "/rev.jsonl", text_of(rev));
  ASSERT_EQ(wormnet("sweep --summarize " + d +
                    "/rev.jsonl --by algorithm,ports,bytes --baseline "
                    "algorithm=rd-broadcast --csv " +
                    d + "/s2.csv")
                .code,
            0);
  EXPECT_EQ(slurp(d + "/s2.csv"), csv);
  // The first group (rd-broadcast, one, 32) by hand: the mean of its two sources' cycles.
  const auto ls = by_point(json_lines(d + "/r.jsonl"));
  const double mean = (ls[0]["cycles"].get<double>() + ls[1]["cycles"].get<double>()) / 2;
  const std::string row = csv.substr(csv.find('\n') + 1);
  EXPECT_EQ(row.rfind("rd-broadcast,one,32,2,0,", 0), 0u) << row;
  EXPECT_NE(row.find(fmt::format(",{},", mean)), std::string::npos) << mean << "\n" << row;
  EXPECT_NE(row.find(",1.000\n"), std::string::npos) << row;  // the baseline against itself
}

TEST(CliSweepSpec, TrafficAndCheckSpecsRun) {
  const auto d = dir_for("traffic");
  const auto t = write_file(d + "/t.yaml",
                            "command: traffic\ntopology: mesh:4x4\nports: [one, all]\n"
                            "rate: {from: 0.1, to: 0.2, step: 0.1}\ncycles: 500\nwarmup: 100\n");
  const CliRun r = wormnet("sweep " + t + " -j 2 --out " + d + "/t.jsonl");
  ASSERT_EQ(r.code, 0) << r.out;
  // Lines are appended as the two workers finish; by_point restores the spec's order.
  const auto ls = by_point(json_lines(d + "/t.jsonl"));
  ASSERT_EQ(ls.size(), 4u);
  EXPECT_EQ(ls[3]["params"]["rate"], 0.2);
  EXPECT_GT(ls[3]["throughput"]["accepted"].get<double>(), 0.1);
  const auto c = write_file(d + "/c.yaml",
                            "command: check\ntopology: mesh:4x4\nalgorithm: edn-broadcast\nports: all\nsimulate: true\n"
                            "sources: [0, 5]\n");
  const CliRun k = wormnet("sweep " + c + " -j 2 --out " + d + "/c.jsonl");
  ASSERT_EQ(k.code, 0) << k.out;
  EXPECT_TRUE(json_lines(d + "/c.jsonl")[1].contains("simulated"));
}

TEST(CliSweepSpec, GnuParallelJobListReproducesTheLocalRun) {
  const auto d = dir_for("parallel");
  const auto spec = write_file(d + "/s.yaml", kSpec);
  const CliRun e = wormnet("sweep " + spec + " --emit parallel " + d + "/jobs --chunks 3");
  ASSERT_EQ(e.code, 0) << e.out;
  const auto jobs = slurp(d + "/jobs/jobs.txt");
  EXPECT_EQ(std::count(jobs.begin(), jobs.end(), '\n'), 3);
  EXPECT_NE(jobs.find(" --shard 2/3 -j 1 --out " + fs::absolute(d).string() + "/jobs/results-2.jsonl"),
            std::string::npos)
      << jobs;
  if (std::system("command -v parallel >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "GNU parallel not installed (scripts/setup.sh)";
  ASSERT_EQ(std::system(("sh " + d + "/jobs/run.sh -j 2 > " + d + "/run.log 2>&1").c_str()), 0)
      << slurp(d + "/run.log");
  ASSERT_EQ(wormnet("sweep " + spec + " -j 2 --out " + d + "/local.jsonl").code, 0);
  const std::string local = text_of(by_point(json_lines(d + "/local.jsonl")));  // the merge is in point order
  EXPECT_EQ(slurp(d + "/jobs/results.jsonl"), local);
  // --resume: a second run has nothing left to do and the results stay as they were.
  ASSERT_EQ(std::system(("sh " + d + "/jobs/run.sh -j 2 > " + d + "/run2.log 2>&1").c_str()), 0);
  EXPECT_EQ(slurp(d + "/jobs/results.jsonl"), local);
}

TEST(CliSweepSpec, SlurmScriptIsAThrottledArrayOfShards) {
  const auto d = dir_for("slurm");
  const auto spec = write_file(d + "/s.yaml", kSpec);
  const CliRun e = wormnet("sweep " + spec + " --emit slurm " + d + "/job --chunks 4 --throttle 2");
  ASSERT_EQ(e.code, 0) << e.out;
  const auto s = slurp(d + "/job/sweep.sbatch");
  EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
  EXPECT_NE(s.find("#SBATCH --array=0-3%2\n"), std::string::npos) << s;
  EXPECT_NE(s.find("--shard ${SLURM_ARRAY_TASK_ID}/4 -j 1 --out "), std::string::npos) << s;
  EXPECT_NE(s.find("/results-${SLURM_ARRAY_TASK_ID}.jsonl"), std::string::npos) << s;
  // What one array task runs: its shard only (points 1, 5, 9, 13), as the manifest says.
  const CliRun t = wormnet("sweep " + spec + " --shard 1/4 -j 1 --out " + d + "/t1.jsonl");
  ASSERT_EQ(t.code, 0) << t.out;
  const auto ls = json_lines(d + "/t1.jsonl");
  ASSERT_EQ(ls.size(), 4u);
  const auto m = read_json(d + "/job/manifest.json");
  EXPECT_EQ(m["schema"], "wormnet.sweep-manifest/2");
  EXPECT_TRUE(m["wormnet"].contains("version")) << m.dump();
  EXPECT_TRUE(m["binary"].is_string()) << m.dump();
  EXPECT_EQ(m["engine"], "slurm");
  EXPECT_EQ(m["points"], 16);
  EXPECT_EQ(m["tasks"], 4);
  EXPECT_EQ(m["throttle"], 2);
  ASSERT_EQ(m["shards"].size(), 4u);
  EXPECT_EQ(m["shards"][1]["results"], fs::absolute(d).string() + "/job/results-1.jsonl");
  ASSERT_EQ(m["shards"][1]["keys"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(m["shards"][1]["keys"][i], ls[i]["key"]);
}

// The shipped specs stay valid as options change (--emit expands and validates without running).
// `sources` and `op` expand only for the algorithms that read them (the registry decides), and
// a key that no algorithm of the spec reads is refused rather than run as identical points.
TEST(CliSweepSpec, SourceAndOpOnlyWhereTheAlgorithmReadsThem) {
  const auto d = dir_for("unread");
  const auto spec = write_file(d + "/s.yaml",
                               "command: run\ntopology: mesh:4x4\nbytes: 32\n"
                               "algorithm: [direct-alltoall, binomial-reduce, rd-broadcast]\n"
                               "op: [sum, max]\nsources: [0, 5]\n");
  const CliRun r = wormnet("sweep " + spec + " --emit parallel " + d + "/emit");
  EXPECT_EQ(r.code, 0) << r.out;
  // direct-alltoall once, binomial-reduce 2 ops x 2 sources, rd-broadcast 2 sources.
  EXPECT_NE(r.out.find("(7 points in"), std::string::npos) << r.out;
  write_file(spec, "command: run\ntopology: mesh:4x4\nalgorithm: direct-alltoall\nop: max\n");
  const CliRun o = wormnet("sweep " + spec + " --out " + d + "/r.jsonl");
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find(": op: not read by direct-alltoall; allowed: no op (read by "), std::string::npos) << o.out;
  EXPECT_FALSE(fs::exists(d + "/r.jsonl"));
  // A check point that is not simulated reads neither the router's buffers nor the profile.
  write_file(spec, "command: check\ntopology: mesh:4x4\nalgorithm: rd-broadcast\nvcs: [2, 4]\n");
  const CliRun v = wormnet("sweep " + spec + " --out " + d + "/r.jsonl");
  EXPECT_EQ(v.code, 2) << v.out;
  EXPECT_NE(v.out.find("vcs: read only when the schedule is simulated; allowed: with simulate: true"),
            std::string::npos)
      << v.out;
  write_file(spec, "command: check\ntopology: mesh:4x4\nalgorithm: rd-broadcast\nalpha: [0, 50]\n");
  const CliRun a = wormnet("sweep " + spec + " --out " + d + "/r.jsonl");
  EXPECT_EQ(a.code, 2) << a.out;
  EXPECT_NE(a.out.find("--alpha: not read by check without simulate"), std::string::npos) << a.out;
  write_file(spec, "command: check\ntopology: mesh:4x4\nalgorithm: rd-broadcast\nalpha: [0, 50]\nsimulate: true\n");
  EXPECT_EQ(wormnet("sweep " + spec + " --emit parallel " + d + "/emit2").code, 0);
  EXPECT_FALSE(fs::exists(d + "/r.jsonl"));
}

TEST(CliSweepSpec, ShippedSpecsAreValid) {
  const auto d = dir_for("shipped");
  int n = 0;
  for (const auto& f : fs::directory_iterator(std::string(WN_SOURCE_DIR) + "/experiments/specs")) {
    if (f.path().extension() != ".yaml") continue;
    const CliRun r = wormnet("sweep " + f.path().string() + " --emit parallel " + d + "/" + f.path().stem().string());
    EXPECT_EQ(r.code, 0) << f.path() << "\n" << r.out;
    ++n;
  }
  EXPECT_GE(n, 5);
}

}  // namespace
}  // namespace wn::test
