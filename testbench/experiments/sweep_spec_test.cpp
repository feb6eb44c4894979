// Sweep specs, results files and summaries as plain functions: grid expansion
// (lists, ranges, zip, random sources with a seed), one-line spec errors naming
// the key, merge with duplicates and gaps, and summary numbers checked by hand.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "experiments/source_list.h"
#include "experiments/sweep_results.h"
#include "experiments/sweep_spec.h"
#include "experiments/sweep_summary.h"
#include "systemc/core/config_error.h"

namespace wn {
namespace {

std::map<std::string, SpecRules> rules() {
  SpecRules r;
  r.options = {"topology", "algorithm", "ports", "bytes", "seed", "rate", "vcs", "source", "alpha"};
  r.flags = {"simulate"};
  r.sources = true;
  r.default_topology = "mesh:4x4";
  return {{"run", r}};
}

SweepSpec parse(const std::string& yaml) { return parse_sweep_spec(yaml, "t.yaml", rules()); }

std::string error_of(const std::string& yaml) {
  try {
    parse(yaml);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SweepSpec, ListsAndRangesMakeTheGridFirstKeyOutermost) {
  const auto s = parse("command: run\nalgorithm: [a, b]\nbytes: {from: 32, to: 256, factor: 2}\nports: all\n");
  ASSERT_EQ(s.points.size(), 8u);
  EXPECT_EQ(s.points[0], (SweepParams{{"algorithm", "a"}, {"bytes", "32"}, {"ports", "all"}}));
  EXPECT_EQ(s.points[3].at("bytes"), "256");
  EXPECT_EQ(s.points[4].at("algorithm"), "b");
  EXPECT_EQ(s.points[4].at("bytes"), "32");
}

// Algorithm "r" reads source and op, "u" reads neither: sources expand for r only, op too, and
// the points u would have repeated are one; a key no point reads is refused, naming it.
TEST(SweepSpec, KeysAnAlgorithmDoesNotReadAreDroppedOrRefused) {
  auto r = rules();
  r["run"].options.insert("op");
  r["run"].algorithm_params = {"source", "op"};
  r["run"].unread = [](const SweepParams& p, const std::string& key) {
    return p.at("algorithm") == "r" ? std::string() : "not read by " + p.at("algorithm") + "; allowed: no " + key;
  };
  const auto s = parse_sweep_spec("command: run\nalgorithm: [u, r]\nop: [sum, max]\nsources: [0, 3]\n", "t.yaml", r);
  ASSERT_EQ(s.points.size(), 5u);
  EXPECT_EQ(s.points[0], (SweepParams{{"algorithm", "u"}}));
  EXPECT_EQ(s.points[1], (SweepParams{{"algorithm", "r"}, {"op", "sum"}, {"source", "0"}}));
  EXPECT_EQ(s.points[4], (SweepParams{{"algorithm", "r"}, {"op", "max"}, {"source", "3"}}));
  try {
    parse_sweep_spec("command: run\nalgorithm: u\nsources: [0, 3]\n", "t.yaml", r);
    ADD_FAILURE() << "sources for an unrooted algorithm accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "t.yaml: source: not read by u; allowed: no source");
  }
  // A value listed twice is still the user's mistake, even where the algorithm ignores the key.
  EXPECT_THROW(parse_sweep_spec("command: run\nalgorithm: [u, r]\nop: [sum, sum]\n", "t.yaml", r), ConfigError);
}

TEST(SweepSpec, ArithmeticRangeIncludesItsEndWithoutDrift) {
  const auto s = parse("command: run\nrate: {from: 0.05, to: 0.6, step: 0.05}\n");
  ASSERT_EQ(s.points.size(), 12u);
  EXPECT_EQ(s.points[2].at("rate"), "0.15");  // not 0.15000000000000002
  EXPECT_EQ(s.points[11].at("rate"), "0.6");
  const auto i = parse("command: run\nalpha: {from: 0, to: 10, step: 5}\n");
  ASSERT_EQ(i.points.size(), 3u);
  EXPECT_EQ(i.points[2].at("alpha"), "10");
}

TEST(SweepSpec, ZipGroupsVaryTogether) {
  const auto s = parse("command: run\nzip:\n  topology: [mesh:4x4, torus:4x4]\n  vcs: [1, 2]\nbytes: [32, 64]\n");
  ASSERT_EQ(s.points.size(), 4u);
  EXPECT_EQ(s.points[0].at("topology"), "mesh:4x4");
  EXPECT_EQ(s.points[0].at("vcs"), "1");
  EXPECT_EQ(s.points[2].at("topology"), "torus:4x4");
  EXPECT_EQ(s.points[2].at("vcs"), "2");
  EXPECT_EQ(s.points[3].at("bytes"), "64");
  // A list of groups: two axes.
  EXPECT_EQ(parse("command: run\nzip:\n  - {topology: [mesh:4x4, torus:4x4], vcs: [1, 2]}\n"
                  "  - {algorithm: [a, b, c], bytes: [4, 8, 12]}\n")
                .points.size(),
            6u);
}

TEST(SweepSpec, RandomSourcesFollowTheSeedAndTheTopology) {
  const auto s = parse("command: run\ntopology: [mesh:4x4, mesh:8x8]\nsources: random:3\nseed: 7\n");
  ASSERT_EQ(s.points.size(), 6u);
  // The same draw as `compare --sources random:3 --seed 7` on each network.
  const auto small = parse_sources("random:3", 16, 7, "x"), big = parse_sources("random:3", 64, 7, "x");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(s.points[size_t(i)].at("source"), std::to_string(small[size_t(i)]));
    EXPECT_EQ(s.points[size_t(3 + i)].at("source"), std::to_string(big[size_t(i)]));
  }
  const auto other = parse("command: run\ntopology: mesh:8x8\nsources: random:3\nseed: 8\n");
  std::vector<std::string> a, b;
  for (int i = 0; i < 3; ++i)
    a.push_back(s.points[size_t(3 + i)].at("source")), b.push_back(other.points[size_t(i)].at("source"));
  EXPECT_NE(a, b);  // another seed, another draw
  EXPECT_EQ(parse("command: run\nsources: all\n").points.size(), 16u);
  EXPECT_EQ(parse("command: run\nsources: [0, 5]\n").points[1].at("source"), "5");
}

TEST(SweepSpec, ErrorsNameTheKeyTheValueAndWhatIsAllowed) {
  EXPECT_EQ(error_of("command: bench\n").rfind("t.yaml: command: 'bench' is not a sweepable command; allowed: run", 0),
            0u);
  EXPECT_NE(error_of("command: run\nbites: 4\n").find("t.yaml: bites: 'bites' is not a parameter"), std::string::npos);
  EXPECT_NE(error_of("command: run\nbytes: {from: 8, to: 4, step: 1}\n").find("t.yaml: bytes: range"),
            std::string::npos);
  EXPECT_NE(error_of("command: run\nbytes: {from: 8, to: 40}\n").find("needs from, to and one of step"),
            std::string::npos);
  EXPECT_NE(error_of("command: run\nrate: {from: 0, to: 1, step: 0}\n").find("allowed:"), std::string::npos);
  EXPECT_NE(error_of("command: run\nzip: {vcs: [1, 2], bytes: [4]}\n").find("t.yaml: zip: 'bytes' has 1 values"),
            std::string::npos);
  EXPECT_NE(error_of("command: run\nsimulate: maybe\n").find("allowed: true, false"), std::string::npos);
  EXPECT_NE(error_of("command: run\nsources: random:99\n").find("t.yaml: sources: 'random:99'"), std::string::npos);
  EXPECT_NE(error_of("command: run\nsource: 1\nsources: all\n").find("t.yaml: sources: given with source"),
            std::string::npos);
  EXPECT_NE(error_of("command: run\nbytes: [[4]]\n").find("t.yaml: bytes: list item"), std::string::npos);
  EXPECT_NE(error_of("command: [run\n").find("t.yaml: yaml: line"), std::string::npos);
  for (const char* y : {"command: bench\n", "command: run\nbites: 4\n", "command: [run\n"})
    EXPECT_EQ(error_of(y).find('\n'), std::string::npos) << y;  // one line
}

// The grid is expanded before anything runs: a product of long ranges is refused before it is built
// (three ranges of 100,000 values were 10^15 points, gigabytes in seconds), also through sources
// and across parts; 100,000 points are still a spec.
TEST(SweepSpec, GridsOfMoreThanAHundredThousandPointsAreRefusedBeforeExpansion) {
  const std::string allowed = "allowed: at most 100000 in one spec";
  const std::string huge =
      "command: run\nbytes: {from: 4, to: 400000, step: 4}\nseed: {from: 0, to: 99999, step: 1}\n"
      "alpha: {from: 0, to: 99999, step: 1}\n";
  EXPECT_EQ(error_of(huge), "t.yaml: points: more than 100000 points (the product of the axes' lengths); " + allowed);
  EXPECT_EQ(error_of("command: run\nbytes: {from: 4, to: 40000, step: 4}\nsources: all\n"),
            "t.yaml: points: more than 100000 points (the axes' product times the sources); " + allowed);
  EXPECT_NE(error_of("parts:\n- {command: run, bytes: {from: 4, to: 240000, step: 4}}\n"
                     "- {command: run, alpha: {from: 0, to: 59999, step: 1}}\n")
                .find("t.yaml: points: more than 100000 points (the parts together)"),
            std::string::npos);
  EXPECT_EQ(
      parse("command: run\nbytes: {from: 4, to: 4000, step: 4}\nseed: {from: 1, to: 100, step: 1}\n").points.size(),
      100000u);
}

// parts: one grid per command, in order; a top-level key goes into every part that does not set it.
TEST(SweepSpec, PartsMixCommandsAndShareTopLevelKeys) {
  auto r = rules();
  SpecRules t;
  t.options = {"topology", "ports", "rate", "backend"};
  r["traffic"] = t;
  r["run"].options.insert("backend");
  const auto s = parse_sweep_spec(
      "backend: rtl\nparts:\n  - command: traffic\n    rate: [0.1, 0.3]\n"
      "  - command: run\n    algorithm: a\n    backend: model\n",
      "t.yaml", r);
  EXPECT_EQ(s.command, "traffic,run");
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.commands, (std::vector<std::string>{"traffic", "traffic", "run"}));
  EXPECT_EQ(s.points[1], (SweepParams{{"backend", "rtl"}, {"rate", "0.3"}}));
  EXPECT_EQ(s.points[2], (SweepParams{{"algorithm", "a"}, {"backend", "model"}}));  // the part's own value wins
  // A point's key is its own command's: the same parameters under two commands are two points.
  EXPECT_NE(point_key("traffic", s.points[0]), point_key("run", s.points[0]));
  auto err = [&](const std::string& yaml) {
    try {
      parse_sweep_spec(yaml, "t.yaml", r);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(err("parts:\n  - command: traffic\n    algorithm: a\n")
                .rfind("t.yaml: part 0: algorithm: 'algorithm' is not a parameter of this command", 0),
            0u);
  EXPECT_EQ(err("command: run\nparts:\n  - command: run\n"),
            "t.yaml: command: given with parts; allowed: a command in each part");
  EXPECT_EQ(err("parts: []\n").rfind("t.yaml: parts: '[]' is not a list of parts", 0), 0u);
  EXPECT_EQ(err("parts:\n  - command: run\n    algorithm: a\n  - command: run\n    algorithm: [b, a]\n"),
            "t.yaml: part 1: points: point 2 (algorithm=a) is point 0 again; allowed: each point once");
}

TEST(SweepSpec, KeysAreStableAndCanonical) {
  const SweepParams a{{"bytes", "32"}, {"algorithm", "x"}}, b{{"algorithm", "x"}, {"bytes", "32"}};
  EXPECT_EQ(point_key("run", a), point_key("run", b));
  EXPECT_NE(point_key("run", a), point_key("check", a));
  EXPECT_EQ(point_key("run", a),
            "0149a8fc1f4cffbe");  // FNV-1a of {"command":"run","params":{"algorithm":"x","bytes":"32"}}; pinned: a
                                  // changed hash orphans results files
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(WN_BINARY_DIR) + "/sweep_spec_test_" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(SweepResults, MergeDropsDuplicatesKeepsSuccessAndNamesGaps) {
  const auto a = write_file("a.jsonl", R"({"key":"k1","ok":true,"cycles":1}
{"key":"k2","ok":false,"error":"x"}
{"key":"k3","ok":tr)");  // a torn last line of a killed writer
  const auto b = write_file("b.jsonl", "{\"key\":\"k2\",\"ok\":true,\"cycles\":2}\n{\"key\":\"k1\",\"ok\":false}\n");
  const MergeReport r = merge_results({a, b}, {"k1", "k2", "k3", "k4"});
  EXPECT_EQ(r.lines_read, 4u);
  EXPECT_EQ(r.duplicates, 2u);
  ASSERT_EQ(r.merged.size(), 2u);
  EXPECT_EQ(r.merged[0]["cycles"], 1);  // a success is never replaced by a later failure
  EXPECT_EQ(r.merged[1]["cycles"], 2);  // a failure is replaced by a later success
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.missing, (std::vector<std::string>{"k3", "k4"}));
}

TEST(SweepResults, AppendedLinesAreWholeAfterATornLine) {
  const auto p = write_file("append.jsonl", "{\"key\":\"k1\",\"ok\":true}\n{\"key\":\"k2\",");
  {
    ResultsAppender w(p);
    w.append({{"key", "k3"}, {"ok", true}});
  }
  const auto lines = read_result_lines(p);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1]["key"], "k3");
}

nlohmann::json line(const std::string& alg, const std::string& src, double avg, double mx, double cyc, double port) {
  return {{"key", alg + src},
          {"command", "run"},
          {"ok", true},
          {"params", {{"algorithm", alg}, {"source", src}}},
          {"latency", {{"average_cycles", avg}, {"maximum_cycles", mx}}},
          {"cycles", cyc},
          {"contention", {{"stepwise", 0}, {"depth", 0}, {"port", port}, {"flow", 0}}}};
}

TEST(SweepSummary, NumbersCheckedByHand) {
  // Baseline a: cycles 100, 200, 300, 400 (mean 250). b: cycles 50, 150 (mean 100) -> speed-up 2.5.
  std::vector<nlohmann::json> ls = {line("a", "0", 10, 20, 100, 1), line("a", "1", 30, 40, 200, 3),
                                    line("a", "2", 20, 60, 300, 5), line("a", "3", 40, 80, 400, 7),
                                    line("b", "0", 5, 10, 50, 0),   line("b", "1", 15, 30, 150, 2)};
  ls.push_back({{"key", "bad"}, {"command", "run"}, {"ok", false}, {"params", {{"algorithm", "b"}}}});
  const SummaryTable t = summarize(ls, {{"algorithm"}, "algorithm", "a"});
  ASSERT_EQ(t.rows.size(), 2u);
  auto col = [&](const std::string& name) {
    return size_t(std::find(t.header.begin(), t.header.end(), name) - t.header.begin());
  };
  const auto& a = t.rows[0];
  EXPECT_EQ(a[col("points")], "4");
  EXPECT_EQ(a[col("avg_latency_mean_cycles")], "25");
  EXPECT_EQ(a[col("avg_latency_min_cycles")], "10");
  EXPECT_EQ(a[col("avg_latency_max_cycles")], "40");
  EXPECT_EQ(a[col("avg_latency_p95_cycles")], "40");  // nearest rank: the ceil(3.8) = 4th of 4
  EXPECT_EQ(a[col("max_latency_mean_cycles")], "50");
  EXPECT_EQ(a[col("completion_mean_cycles")], "250");
  EXPECT_EQ(a[col("port_delay_mean_cycles")], "4");
  EXPECT_EQ(a[col("speedup_vs_a_ratio")], "1.000");
  const auto& b = t.rows[1];
  EXPECT_EQ(b[col("points")], "3");
  EXPECT_EQ(b[col("failed")], "1");  // counted, not averaged
  EXPECT_EQ(b[col("completion_mean_cycles")], "100");
  EXPECT_EQ(b[col("speedup_vs_a_ratio")], "2.500");
  EXPECT_EQ(t.csv().substr(0, 22), "algorithm,points,faile");
  const Stats s = stats_of({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21});
  EXPECT_EQ(s.p95, 20);  // ceil(19.95) = the 20th of 21
  EXPECT_THROW(summarize(ls, {{"bytes"}, "", ""}), ConfigError);
}

}  // namespace
}  // namespace wn
