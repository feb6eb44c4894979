#include "algorithms/schedule_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "algorithms/reference_run.h"

namespace wn::alg {

std::string link_name(const Topology& topo, const Topology::Link& l) {
  if (topo.kind() == TopoKind::Cube) return fmt::format("{} dim {}", l.router, l.port);
  const auto c = topo.coords(l.router);
  std::string xy;
  for (size_t i = 0; i < c.size(); ++i) xy += fmt::format("{}{}", i ? "," : "", c[i]);
  static const char* dim = "xyz";
  return fmt::format("{}({}) {}{}", l.router, xy, (l.port & 1) ? '-' : '+', dim[l.port / 2]);
}

ScheduleCheck check_schedule(const Schedule& s, const Topology& topo, int ports, bool exactly_once, size_t max_listed) {
  ScheduleCheck out;
  // step -> link -> messages using it
  std::map<uint32_t, std::map<Topology::Link, std::vector<MessageRef>>> use;
  std::map<uint32_t, StepCheck> steps;
  std::map<std::pair<uint32_t, int>, std::pair<int, int>> per_node;  // (step, node) -> sends, recvs
  std::vector<int> received(size_t(s.nodes), 0);
  uint64_t hop_sum = 0;
  for (int n = 0; n < s.nodes; ++n) {
    for (const Step& st : s.programs[size_t(n)]) {
      StepCheck& sc = steps[st.tag];
      sc.step = st.tag;
      per_node[{st.tag, n}].second += int(st.recvs.size());
      received[size_t(n)] += int(st.recvs.size());
      for (const Send& m : st.sends) {
        ++per_node[{st.tag, n}].first;
        const auto links = topo.links(n, m.dst);
        for (const auto& l : links) use[st.tag][l].push_back({n, m.dst});
        const int h = int(links.size());
        ++sc.messages;
        sc.avg_hops += h;  // sum for now
        sc.max_hops = std::max(sc.max_hops, h);
        hop_sum += uint64_t(h);
        out.max_hops = std::max(out.max_hops, h);
        ++out.messages;
      }
    }
  }
  for (auto& [tag, sc] : steps) {
    if (sc.messages) sc.avg_hops /= sc.messages;
    std::map<std::pair<int, int>, bool> conflicting;
    for (const auto& [link, msgs] : use[tag]) {
      sc.max_channel_load = std::max(sc.max_channel_load, int(msgs.size()));
      if (msgs.size() < 2) continue;
      ++sc.shared_channels;
      for (size_t i = 0; i < msgs.size(); ++i) {
        conflicting[{msgs[i].src, msgs[i].dst}] = true;
        for (size_t j = i + 1; j < msgs.size(); ++j) {
          ++out.conflict_pairs;
          if (out.conflicts.size() < max_listed) out.conflicts.push_back({tag, link, msgs[i], msgs[j]});
        }
      }
    }
    sc.conflicting_messages = int(conflicting.size());
    out.steps.push_back(sc);
  }
  for (const auto& [key, sr] : per_node)
    if (sr.first > ports || sr.second > ports)
      out.port_overuse.push_back({key.first, key.second, sr.first, sr.second, ports});
  out.avg_hops = out.messages ? double(hop_sum) / double(out.messages) : 0;
  if (exactly_once)
    for (int n = 0; n < s.nodes; ++n)
      if (received[size_t(n)] > 1)
        out.delivery.push_back(
            fmt::format("node {} receives {} messages (exactly once expected)", n, received[size_t(n)]));
  if (const std::string v = validate(s); !v.empty()) {
    out.delivery.push_back("invalid schedule: " + v);
  } else if (const std::string m = check_memory(s, reference_run(s)); !m.empty()) {
    out.delivery.push_back("final memory differs from the oracle: " + m);
  }
  return out;
}

std::string format_check(const ScheduleCheck& c, const Topology& topo) {
  std::string s = fmt::format("  {:>4} {:>8} {:>8} {:>12} {:>9} {:>9} {:>9}\n", "step", "messages", "shared",
                              "conflicting", "max-load", "avg-hops", "max-hops");
  for (const auto& st : c.steps)
    s += fmt::format("  {:>4} {:>8} {:>8} {:>12} {:>9} {:>9.3f} {:>9}\n", st.step, st.messages, st.shared_channels,
                     st.conflicting_messages, st.max_channel_load, st.avg_hops, st.max_hops);
  int bad_steps = 0;
  for (const auto& st : c.steps) bad_steps += st.shared_channels > 0;
  s += fmt::format("  stepwise contention: {}\n", c.contention_free()
                                                      ? "none (every step's routes use disjoint channels)"
                                                      : fmt::format("{} of {} steps, {} conflicting message pairs",
                                                                    bad_steps, c.steps.size(), c.conflict_pairs));
  for (const auto& k : c.conflicts)
    s += fmt::format("    step {}: {}->{} and {}->{} share {}\n", k.step, k.a.src, k.a.dst, k.b.src, k.b.dst,
                     link_name(topo, k.link));
  if (c.conflict_pairs > c.conflicts.size())
    s += fmt::format("    ... {} more\n", c.conflict_pairs - c.conflicts.size());
  s += fmt::format("  port overuse: {}\n",
                   c.port_overuse.empty() ? "none" : fmt::format("{} node-steps", c.port_overuse.size()));
  for (size_t i = 0; i < c.port_overuse.size() && i < 10; ++i) {
    const auto& p = c.port_overuse[i];
    s += fmt::format("    step {} node {}: {} sends, {} receives, {} ports\n", p.step, p.node, p.sends, p.recvs,
                     p.ports);
  }
  s += fmt::format("  delivery: {}\n", c.delivery.empty() ? "OK (final memory equals the oracle)" : "PROBLEMS");
  for (const auto& d : c.delivery) s += "    " + d + "\n";
  s += fmt::format("  path length: {:.4f} hops/message average, {} max, {} messages\n", c.avg_hops, c.max_hops,
                   c.messages);
  return s;
}

}  // namespace wn::alg
