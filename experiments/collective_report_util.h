// Helpers shared by the reports of a firmware run (collective_report.cpp: JSON;
// collective_detail.cpp: its lists and the CSV; collective_summary.cpp: text and
// the simulated check).
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "experiments/collective_run.h"

namespace wn::fw::report {

// `memory`: the run models a memory port (the class exists only then).
inline nlohmann::json classes_json(const ClassCycles& c, bool memory) {
  nlohmann::json j = {{"stepwise", c[0]}, {"depth", c[1]}, {"port", c[2]}, {"flow", c[3]}};
  if (memory) j["memory"] = c[4];
  return j;
}

// The run has the memory class: a memory port, or multi-port operations slower than the links.
inline bool memory_modelled(const ScheduleRunResult& r) {
  const auto& p = r.options.run.profile;
  return p.mem_milli_words() > 0 || p.pace_milli_cycles() > 0;
}

// "+x" / "-y" / "dim 3" / "eject 0" for output index k of a router.
inline std::string output_name(const Topology& topo, int k) {
  if (k >= kMaxPorts) return fmt::format("eject {}", k - kMaxPorts);
  if (topo.kind() == TopoKind::Cube) return fmt::format("dim {}", k);
  return fmt::format("{}{}", (k & 1) ? '-' : '+', "xyz"[k / 2]);
}

// The n largest (ties: first listed first).
template <class Container>
std::vector<std::pair<uint32_t, uint64_t>> top_blockers(const Container& m, size_t n) {
  std::vector<std::pair<uint32_t, uint64_t>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() > n) v.resize(n);
  return v;
}

// Message id of packet `pid`, or UINT32_MAX.
inline uint32_t message_of(const ScheduleRunResult& r, uint32_t pid) {
  const auto& log = r.run.log;
  return pid < log.message_of_packet.size() ? log.message_of_packet[pid] : UINT32_MAX;
}

// Packet id -> "msg 12 (3->7 step 2)".
inline std::string packet_text(const ScheduleRunResult& r, uint32_t pid) {
  const uint32_t m = message_of(r, pid);
  if (m == UINT32_MAX) return fmt::format("packet {}", pid);
  const auto& msg = r.run.log.messages[m];
  return fmt::format("msg {} ({}->{} step {})", m, msg.src, msg.dst, msg.step);
}

// The JSON report's per-channel, per-message and per-node-step lists, reading `r`.
std::vector<std::pair<std::string, StreamedJson::List>> detail_lists(const ScheduleRunResult& r);

}  // namespace wn::fw::report
