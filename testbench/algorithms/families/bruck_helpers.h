// Bruck tests: run a schedule of n ranks on the cycle-accurate co-simulation
// (a --group of the first n nodes of a network with at least n nodes and k
// ports) and read C1, the per-round message sizes and C2 from the run's
// message log, not from the formulas the generator uses.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "experiments/collective_run.h"
#include "experiments/isolated_run.h"

namespace wn::fw::bruck_test {

inline std::string topology_for(int n, int k) {
  if (k > 4) {  // a cube has d ports
    int d = 1;
    while ((1 << d) < n || d < k) ++d;
    return "cube:" + std::to_string(d);
  }
  int side = 2;
  while (side * side < n) ++side;
  return "mesh:" + std::to_string(side) + "x" + std::to_string(side);
}

inline ScheduleRunOptions bruck_run(const std::string& algo, int n, int k, uint32_t words, int radix = 0,
                                    const std::string& backend = "model", bool snapshots = false) {
  ScheduleRunOptions o;
  o.topology = topology_for(n, k);
  o.ports = k == 1 ? "one" : k == 4 ? "all" : std::to_string(k);  // a 2D mesh's all-port model has 4 channels
  o.net.backend = parse_backend(backend);
  o.run.profile = find_profile("ideal");
  o.run.snapshots = snapshots;
  o.algorithm = algo;
  o.bytes = 4 * words;
  for (int i = 0; i < n; ++i) o.group.push_back(i);
  if (radix) o.family_options["--radix"] = std::to_string(radix);
  return o;
}

// What the message log says about the rounds (steps with messages, in order).
struct Measured {
  int c1 = 0;
  std::vector<uint64_t> round_max;   // largest message of each round, words
  uint64_t c2 = 0;                   // sum of round_max, words
  std::vector<uint64_t> sent;        // per rank: words sent in all
  bool distinct = true;              // per rank and round: destinations distinct, sources distinct
  int most_dsts = 0, most_srcs = 0;  // per rank and round
  std::set<int> offsets;             // (dst - src) mod n over all messages of the last round
};

inline Measured measure(const ScheduleRunResult& r, int n) {
  Measured m;
  std::map<uint32_t, uint64_t> by_step;
  std::map<std::pair<uint32_t, int>, std::vector<int>> dsts, srcs;
  m.sent.assign(size_t(n), 0);
  uint32_t last = 0;
  for (const auto& msg : r.run.log.messages) last = std::max(last, msg.step);
  for (const auto& msg : r.run.log.messages) {
    by_step[msg.step] = std::max<uint64_t>(by_step[msg.step], msg.words);
    dsts[{msg.step, msg.src}].push_back(msg.dst);
    srcs[{msg.step, msg.dst}].push_back(msg.src);
    m.sent[size_t(msg.src)] += msg.words;  // the group is nodes 0..n-1: ranks are node ids
    if (msg.step == last) m.offsets.insert(((msg.dst - msg.src) % n + n) % n);
  }
  for (const auto& [step, w] : by_step) m.round_max.push_back(w), m.c2 += w;
  m.c1 = int(by_step.size());
  for (auto* table : {&dsts, &srcs})
    for (auto& [key, v] : *table) {
      std::sort(v.begin(), v.end());
      m.distinct = m.distinct && std::adjacent_find(v.begin(), v.end()) == v.end();
      (table == &dsts ? m.most_dsts : m.most_srcs) =
          std::max(table == &dsts ? m.most_dsts : m.most_srcs, int(v.size()));
    }
  return m;
}

// In a forked child (SystemC elaborates once per process), so a test may run many.
inline Measured run_and_measure(const ScheduleRunOptions& o, int n) {
  const nlohmann::json j = run_isolated([&] {
    const ScheduleRunResult r = run_schedule(o);
    const Measured m = measure(r, n);
    return nlohmann::json{{"ok", r.ok()},
                          {"error", r.run.error + r.data_error},
                          {"c1", m.c1},
                          {"round_max", m.round_max},
                          {"c2", m.c2},
                          {"sent", m.sent},
                          {"distinct", m.distinct},
                          {"most_dsts", m.most_dsts},
                          {"most_srcs", m.most_srcs},
                          {"offsets", m.offsets}};
  });
  EXPECT_TRUE(j.at("ok").get<bool>()) << o.algorithm << " n=" << n << " " << o.ports << ": "
                                      << j.at("error").get<std::string>();
  Measured m;
  m.c1 = j.at("c1");
  m.round_max = j.at("round_max").get<std::vector<uint64_t>>();
  m.c2 = j.at("c2");
  m.sent = j.at("sent").get<std::vector<uint64_t>>();
  m.distinct = j.at("distinct");
  m.most_dsts = j.at("most_dsts");
  m.most_srcs = j.at("most_srcs");
  m.offsets = j.at("offsets").get<std::set<int>>();
  return m;
}

}  // namespace wn::fw::bruck_test
