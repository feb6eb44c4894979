// CCL tests: run `ccl-<op>` over a group of the first n nodes (a forked child
// per run: SystemC elaborates once per process) and read the steps from the
// run's message log: which rank sent to which in every step with messages, and
// C1 / C2 / C3 (data messages only: in barrier mode and for sync, a message of
// one word with blocks of two or more words is a token).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/schedule.h"
#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"

namespace wn::fw::ccl_test {

struct Opts {
  std::string op, alg = "auto", oper = "sum";
  int n = 5, source = 0;
  uint32_t words = 1;
  bool barrier = false;
  std::map<std::string, std::string> extra;  // --kappa, --radix, --shift
  std::string topology;                      // default: a mesh with >= n nodes
};

struct Steps {
  bool ok = false;
  std::string error;
  std::vector<std::set<std::pair<int, int>>> edges;  // data steps in order: {from, to}
  std::vector<uint64_t> largest;                     // per data step, words
  int c1 = 0;                                        // every step with a message (tokens included)
  uint64_t c2 = 0, c3 = 0;                           // data words
};

inline Opts op(const char* name, int n, int source = 0, const char* alg = "auto", const char* oper = "sum") {
  Opts o;
  o.op = name;
  o.n = n;
  o.source = source;
  o.alg = alg;
  o.oper = oper;
  return o;
}

inline ScheduleRunOptions options_of(const Opts& o) {
  ScheduleRunOptions r;
  int side = 2;
  while (side * side < o.n) ++side;
  r.topology = o.topology.empty() ? "mesh:" + std::to_string(side) + "x" + std::to_string(side) : o.topology;
  r.algorithm = "ccl-" + o.op;
  r.bytes = 4 * o.words;
  r.op = o.oper;
  r.source = std::to_string(o.source);
  r.run.profile = find_profile("ideal");
  for (int i = 0; i < o.n; ++i) r.group.push_back(i);
  r.family_options = o.extra;
  r.family_options["--ccl-alg"] = o.alg;
  // Combine, concat, index, sync and reduce-scatter have no barrier mode (they refuse --nonbarrier).
  const bool barrier_mode =
      o.op != "combine" && o.op != "concat" && o.op != "index" && o.op != "sync" && o.op != "reduce-scatter";
  if (!o.barrier && barrier_mode) r.family_options["--nonbarrier"] = "on";
  return r;
}

inline Steps run_steps(const Opts& o) {
  const nlohmann::json j = run_isolated([&] {
    const ScheduleRunResult r = run_schedule(options_of(o));
    std::map<uint32_t, std::vector<std::array<uint64_t, 3>>> by_step;
    for (const auto& m : r.run.log.messages) by_step[m.step].push_back({uint64_t(m.src), uint64_t(m.dst), m.words});
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& [t, v] : by_step) steps.push_back(v);
    return nlohmann::json{{"ok", r.ok()}, {"error", r.run.error + r.data_error}, {"steps", steps}};
  });
  Steps s;
  s.ok = j.at("ok");
  s.error = j.at("error");
  for (const auto& step : j.at("steps")) {
    ++s.c1;
    std::set<std::pair<int, int>> e;
    uint64_t most = 0;
    for (const auto& m : step) {
      const uint64_t w = m[2];
      if ((o.barrier || o.op == "sync") && w == 1 && o.words > 1) continue;  // a token
      e.insert({int(m[0]), int(m[1])});
      most = std::max(most, w);
      s.c3 += w;
    }
    if (e.empty()) continue;
    s.edges.push_back(e);
    s.largest.push_back(most);
    s.c2 += most;
  }
  return s;
}

// "0>4 | 0>2 | 0>1, 2>3" (a→b per message; '|' separates steps).
inline std::vector<std::set<std::pair<int, int>>> parse_steps(const std::string& text) {
  std::vector<std::set<std::pair<int, int>>> out(1);
  std::istringstream in(text);
  for (std::string w; in >> w;) {
    if (w == "|") {
      out.emplace_back();
      continue;
    }
    if (w.back() == ',') w.pop_back();
    const size_t gt = w.find('>');
    out.back().insert({std::stoi(w.substr(0, gt)), std::stoi(w.substr(gt + 1))});
  }
  return out;
}

// C1, C2 and C3 of a schedule as built (no simulation): steps with a message, the sum over steps of
// the largest message, and all words sent.
struct Counted {
  int c1 = 0;
  uint64_t c2 = 0, c3 = 0;
};
inline Counted count(const alg::Schedule& s) {
  std::map<uint32_t, uint64_t> largest;
  Counted k;
  for (const auto& prog : s.programs)
    for (const auto& st : prog)
      for (const auto& m : st.sends) {
        const uint64_t w = alg::total_words(m.src);
        largest[st.tag] = std::max(largest[st.tag], w);
        k.c3 += w;
      }
  for (const auto& [t, w] : largest) k.c2 += w;
  k.c1 = int(largest.size());
  return k;
}

}  // namespace wn::fw::ccl_test
