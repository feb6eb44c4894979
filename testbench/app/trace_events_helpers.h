// Reading a `wormnet run --trace-events` file back for the tests (cli_trace_events_test.cpp):
// the format rules the file must keep (Chrome's Trace Event Format, JSON Object Format: the
// fields each phase needs) and its tracks as intervals in cycles.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn::test {

// An X event in cycles, with the names of its process and thread.
struct Span {
  uint64_t start = 0, end = 0;
  std::string process, thread, name, cat;
  nlohmann::json args;
};

// A timestamp or duration of the file (microseconds, one cycle per nanosecond) in cycles.
inline uint64_t cycles_of(const nlohmann::json& v) {
  const double us = v.get<double>();
  const double c = std::round(us * 1000.0);
  EXPECT_LT(std::fabs(us * 1000.0 - c), 1e-6) << "not a whole cycle: " << v;
  return uint64_t(c);
}

struct Trace {
  std::vector<Span> spans;
  std::vector<std::pair<uint64_t, uint64_t>> flits;  // counter samples (cycle, flits in flight)
};

// Every event has what its phase needs (name, ph, ts, pid, tid; dur for X; args for C and M),
// every X or C event's thread and process are named, and the spans of one thread nest (a track
// draws nothing else right). The spans and the counter into `t`.
inline void read_trace(const nlohmann::json& j, Trace& t) {
  EXPECT_EQ(j.value("displayTimeUnit", ""), "ns");
  EXPECT_TRUE(j["metadata"]["wormnet"].contains("version") && j["metadata"]["wormnet"].contains("git"));
  EXPECT_TRUE(j["traceEvents"].is_array());
  std::map<int64_t, std::string> processes;
  std::map<std::pair<int64_t, int64_t>, std::string> threads;
  for (const auto& e : j["traceEvents"]) {
    ASSERT_TRUE(e.contains("name") && e["name"].is_string()) << e;
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string()) << e;
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer() && e.contains("tid") && e["tid"].is_number_integer())
        << e;
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e;
    if (e["ph"] != "M") continue;
    ASSERT_TRUE(e.contains("args") && e["args"].is_object()) << e;
    const std::string what = e["name"];
    if (what == "process_name") processes[e["pid"]] = e["args"]["name"];
    if (what == "thread_name") threads[{e["pid"], e["tid"]}] = e["args"]["name"];
    if (what.find("sort_index") != std::string::npos) EXPECT_TRUE(e["args"]["sort_index"].is_number_integer()) << e;
    EXPECT_TRUE(what == "process_name" || what == "thread_name" || what == "process_sort_index" ||
                what == "thread_sort_index")
        << e;
  }
  for (const auto& e : j["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "M") continue;
    ASSERT_TRUE(ph == "X" || ph == "C") << e;
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e;
    ASSERT_TRUE(processes.count(e["pid"]) && threads.count({e["pid"], e["tid"]})) << "unnamed track: " << e;
    if (ph == "C") {
      ASSERT_TRUE(e.contains("args") && e["args"].is_object() && e["args"]["in flight"].is_number_integer()) << e;
      t.flits.emplace_back(cycles_of(e["ts"]), e["args"]["in flight"].get<uint64_t>());
      continue;
    }
    ASSERT_TRUE(e.contains("dur") && e["dur"].is_number() && e["dur"].get<double>() >= 0) << e;
    const uint64_t s = cycles_of(e["ts"]);
    t.spans.push_back({s, s + cycles_of(e["dur"]), processes[e["pid"]], threads[{e["pid"], e["tid"]}], e["name"],
                       e.value("cat", ""), e.value("args", nlohmann::json::object())});
  }
  // Nesting: per thread, by start (the longer first), each span inside or after the open ones.
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<uint64_t, uint64_t>>> by_thread;
  for (const Span& s : t.spans) by_thread[{s.process, s.thread}].push_back({s.start, s.end});
  for (auto& [track, v] : by_thread) {
    std::sort(v.begin(), v.end(),
              [](auto a, auto b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
    std::vector<uint64_t> open;
    for (const auto& [s, e] : v) {
      while (!open.empty() && open.back() <= s) open.pop_back();
      EXPECT_TRUE(open.empty() || e <= open.back())
          << track.first << " / " << track.second << ": [" << s << ", " << e << ") overlaps without nesting";
      open.push_back(e);
    }
  }
}

}  // namespace wn::test
