// Reports of a firmware run: text summary, JSON (wormnet.run/1, and the
// static check's wormnet.check/1), CSV per channel and per message.
#include <fmt/format.h>

#include <algorithm>

#include "experiments/collective_run.h"

namespace wn::fw {

namespace {

nlohmann::json classes_json(const ClassCycles& c) {
  return {{"stepwise", c[0]}, {"depth", c[1]}, {"port", c[2]}, {"flow", c[3]}};
}

// "+x" / "-y" / "dim 3" / "eject 0" for output index k of a router.
std::string output_name(const Topology& topo, int k) {
  if (k >= kMaxPorts) return fmt::format("eject {}", k - kMaxPorts);
  if (topo.kind() == TopoKind::Cube) return fmt::format("dim {}", k);
  return fmt::format("{}{}", (k & 1) ? '-' : '+', "xyz"[k / 2]);
}

std::vector<std::pair<uint32_t, uint64_t>> top_blockers(const std::map<uint32_t, uint64_t>& m, size_t n) {
  std::vector<std::pair<uint32_t, uint64_t>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (v.size() > n) v.resize(n);
  return v;
}

// Packet id -> "msg 12 (3->7 step 2)".
std::string packet_text(const ScheduleRunResult& r, uint32_t pid) {
  const auto& log = r.run.log;
  if (pid >= log.message_of_packet.size() || log.message_of_packet[pid] == UINT32_MAX) return fmt::format("packet {}", pid);
  const uint32_t m = log.message_of_packet[pid];
  const auto& msg = log.messages[m];
  return fmt::format("msg {} ({}->{} step {})", m, msg.src, msg.dst, msg.step);
}

nlohmann::json channels_json(const ScheduleRunResult& r) {
  const Topology& topo = r.network.topology;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [key, c] : r.run.channels) {
    nlohmann::json blockers = nlohmann::json::array();
    for (const auto& [pid, cyc] : top_blockers(c.holders, 5)) blockers.push_back({{"packet", pid}, {"cycles", cyc}});
    out.push_back({{"router", key.first}, {"output", output_name(topo, key.second)}, {"flits", c.flits},
                   {"vc_flits", c.vc_flits}, {"vc_busy", c.vc_busy}, {"blocked", c.blocked},
                   {"credit_stall", c.credit_stall}, {"sa_loss", c.sa_loss}, {"blockers", blockers}});
  }
  for (const auto& [key, c] : r.run.injection)
    out.push_back({{"router", key.first}, {"output", fmt::format("inject {}", key.second)}, {"flits", c.flits},
                   {"port_wait", c.port_wait}});
  return out;
}

nlohmann::json messages_json(const ScheduleRunResult& r) {
  const Topology& topo = r.network.topology;
  nlohmann::json out = nlohmann::json::array();
  const auto& log = r.run.log;
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    const auto& x = log.messages[m];
    out.push_back({{"id", m}, {"src", x.src}, {"dst", x.dst}, {"step", x.step}, {"tag", x.tag}, {"words", x.words},
                   {"packets", x.packets}, {"hops", x.hops}, {"issued", x.issued}, {"posted", x.posted},
                   {"head_injected", x.head_injected}, {"injected", x.injected}, {"head_delivered", x.head_delivered},
                   {"delivered", x.delivered}, {"completed", x.completed}, {"path", topo.path(x.src, x.dst)},
                   {"blocked", classes_json(r.message_blocked[m])}});
  }
  return out;
}

// Per node: when it entered and left each of its steps.
nlohmann::json node_steps_json(const ScheduleRunResult& r) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& spans : r.run.steps) {
    nlohmann::json n = nlohmann::json::array();
    for (const auto& s : spans) n.push_back({s.tag, s.start, s.end});
    out.push_back(std::move(n));
  }
  return out;
}

// The most contended channels (by cycles heads waited for them) and who blocked them.
std::string top_channels_text(const ScheduleRunResult& r, size_t n) {
  const Topology& topo = r.network.topology;
  std::vector<std::pair<std::pair<int, int>, const ChannelCounters*>> v;
  for (const auto& [key, c] : r.run.channels)
    if (c.blocked > 0) v.push_back({key, &c});
  if (v.empty()) return "";
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second->blocked > b.second->blocked; });
  std::string s = fmt::format("  most contended channels (packet-cycles blocked at the output; top blockers):\n");
  for (size_t i = 0; i < v.size() && i < n; ++i) {
    const auto& [key, c] = v[i];
    std::string who;
    for (const auto& [pid, cyc] : top_blockers(c->holders, 2)) who += fmt::format("{}{} {}", who.empty() ? "" : ", ", packet_text(r, pid), cyc);
    s += fmt::format("    router {:>4} {:<8} blocked {:>7}  credit {:>6}  sa-loss {:>6}  {}\n", key.first,
                     output_name(topo, key.second), c->blocked, c->credit_stall, c->sa_loss, who);
  }
  return s;
}

}  // namespace

SimulatedCheck compare_check(const alg::ScheduleCheck& c, const ScheduleRunResult& r) {
  SimulatedCheck out;
  std::map<uint32_t, const StepTiming*> measured;
  for (const auto& st : r.steps) measured[st.tag] = &st;
  out.text = fmt::format("  simulated ({} backend): {} cycles, data check {}\n", backend_name(r.options.net.backend),
                         r.run.cycles, r.data_ok ? "PASS" : "FAIL");
  out.text += "  step  predicted-conflicts  measured: stepwise    depth     port     flow   verdict\n";
  out.json = nlohmann::json::array();
  for (const auto& st : c.steps) {
    const auto it = measured.find(st.step);
    const ClassCycles b = it == measured.end() ? ClassCycles{} : it->second->blocked;
    const bool predicted = st.shared_channels > 0;
    std::string verdict;
    if (!predicted && b[0] > 0) {
      verdict = "DISAGREE: contention-free by the checker, stepwise cycles measured";
      out.agrees = false;
    } else if (predicted && b[0] == 0) {
      verdict = "agree (predicted conflicts did not collide in time)";
    } else {
      verdict = "agree";
    }
    out.text += fmt::format("  {:>4} {:>20} {:>18} {:>8} {:>8} {:>8}   {}\n", st.step, st.conflicting_messages, b[0], b[1],
                            b[2], b[3], verdict);
    out.json.push_back({{"step", st.step}, {"predicted_conflicting_messages", st.conflicting_messages},
                        {"measured", classes_json(b)}, {"verdict", verdict}});
  }
  out.text += out.agrees ? "  static and measured stepwise contention agree\n"
                         : "  *** DISAGREEMENT between the static checker and the simulation (see above) ***\n";
  return out;
}

std::string ScheduleRunResult::channels_csv() const {
  const Topology& topo = network.topology;
  std::string s = "router,output,flits,busy_vc0,busy_vc1,busy_vc2,busy_vc3,blocked,credit_stall,sa_loss,top_blocker,top_blocker_cycles\n";
  for (const auto& [key, c] : run.channels) {
    const auto top = top_blockers(c.holders, 1);
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", key.first, output_name(topo, key.second), c.flits,
                     c.vc_busy[0], c.vc_busy[1], c.vc_busy[2], c.vc_busy[3], c.blocked, c.credit_stall, c.sa_loss,
                     top.empty() ? std::string() : std::to_string(top[0].first), top.empty() ? 0 : top[0].second);
  }
  return s;
}

std::string ScheduleRunResult::messages_csv() const {
  std::string s = "id,src,dst,step,words,packets,hops,issued,posted,head_injected,injected,head_delivered,delivered,"
                  "completed,stepwise,depth,port,flow\n";
  const auto& log = run.log;
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    const auto& x = log.messages[m];
    const auto& b = message_blocked[m];
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", m, x.src, x.dst, x.step, x.words,
                     x.packets, x.hops, x.issued, x.posted, x.head_injected, x.injected, x.head_delivered, x.delivered,
                     x.completed, b[0], b[1], b[2], b[3]);
  }
  return s;
}

nlohmann::json ScheduleRunResult::to_json(bool detail) const {
  const auto& o = options;
  nlohmann::json steps_j = nlohmann::json::array();
  for (const auto& s : steps)
    steps_j.push_back({{"step", s.tag}, {"start", s.start}, {"end", s.end}, {"nodes", s.nodes},
                       {"blocked", classes_json(s.blocked)}, {"blocked_messages", s.blocked_messages}});
  const auto& p = o.run.profile;
  nlohmann::json j = {
      {"schema", "wormnet.run/1"},
      {"config",
       {{"topology", o.topology},
        {"ports", o.ports},
        {"injection_channels", run.inj_channels},
        {"backend", backend_name(o.net.backend)},
        {"vcs", o.net.vcs},
        {"buf", o.net.buf},
        {"algorithm", o.algorithm},
        {"source", source},
        {"bytes", o.bytes},
        {"op", o.op},
        {"group", o.group},
        {"seed", o.seed},
        {"profile",
         {{"name", p.name},
          {"clock_ns", p.clock_ns},
          {"bytes_per_flit", p.bytes_per_flit},
          {"alpha", p.alpha},
          {"gamma", p.gamma},
          {"max_packet_bytes", p.max_packet_bytes},
          {"copy_cycles_per_word", p.copy_cycles_per_word},
          {"combine_cycles_per_word", p.combine_cycles_per_word},
          {"index_cycles_per_word", p.index_cycles_per_word}}}}},
      {"ok", ok()},
      {"error", run.error},
      {"data_check", data_ok ? "PASS" : "FAIL"},
      {"data_error", data_error},
      {"cycles", run.cycles},
      {"microseconds", microseconds()},
      {"predicted", {{"steps", predicted.steps}, {"cycles", predicted.cycles}, {"formula", predicted.formula},
                     {"data", predicted.data},
                     {"lower_bound", predicted.lower_bound}, {"lower_bound_formula", predicted.lower_bound_formula}}},
      {"efficiency", predicted.lower_bound > 0 && run.cycles > 0 ? predicted.lower_bound / double(run.cycles) : 0.0},
      {"measured_over_predicted", predicted.cycles > 0 ? double(run.cycles) / predicted.cycles : 0.0},
      {"steps", steps_j},
      {"messages", messages},
      {"words_sent", words},
      {"packets", run.packets},
      {"flits_injected", run.flits_injected},
      {"flit_hops", run.flit_hops},
      {"cycles_simulated", run.cycles_simulated},
      {"contention", classes_json(blocked)},
  };
  if (detail) {
    j["channels"] = channels_json(*this);
    j["message_log"] = messages_json(*this);
    j["node_steps"] = node_steps_json(*this);
  }
  return j;
}

nlohmann::json check_to_json(const alg::ScheduleCheck& c, const Topology& topo, const ScheduleRunOptions& opt,
                             int source) {
  nlohmann::json steps = nlohmann::json::array(), conflicts = nlohmann::json::array(),
                 overuse = nlohmann::json::array();
  for (const auto& s : c.steps)
    steps.push_back({{"step", s.step}, {"messages", s.messages}, {"shared_channels", s.shared_channels},
                     {"conflicting_messages", s.conflicting_messages}, {"max_channel_load", s.max_channel_load},
                     {"avg_hops", s.avg_hops}, {"max_hops", s.max_hops}});
  for (const auto& k : c.conflicts)
    conflicts.push_back({{"step", k.step},
                         {"channel", {{"router", k.link.router}, {"port", k.link.port}, {"name", alg::link_name(topo, k.link)}}},
                         {"a", {k.a.src, k.a.dst}},
                         {"b", {k.b.src, k.b.dst}}});
  for (const auto& p : c.port_overuse)
    overuse.push_back({{"step", p.step}, {"node", p.node}, {"sends", p.sends}, {"recvs", p.recvs}, {"ports", p.ports}});
  return {{"schema", "wormnet.check/1"},
          {"config", {{"topology", opt.topology}, {"ports", opt.ports}, {"algorithm", opt.algorithm},
                      {"source", source}, {"bytes", opt.bytes}, {"group", opt.group}}},
          {"contention_free", c.contention_free()},
          {"conflict_pairs", c.conflict_pairs},
          {"conflicts_listed", conflicts},
          {"port_overuse", overuse},
          {"delivery_problems", c.delivery},
          {"messages", c.messages},
          {"avg_hops", c.avg_hops},
          {"max_hops", c.max_hops},
          {"steps", steps}};
}

std::string ScheduleRunResult::summary() const {
  const auto& o = options;
  std::string s = fmt::format("{} on {} ({} port{}: {} channel{}), backend {}, profile {}, source {}, {}\n",
                              o.algorithm, o.topology, o.ports, o.ports == "one" ? "" : "s",
                              run.inj_channels, run.inj_channels == 1 ? "" : "s", backend_name(o.net.backend),
                              o.run.profile.name, source,
                              predicted.data.empty() ? fmt::format("{} bytes/block", o.bytes) : predicted.data);
  s += fmt::format("  cycles        {} ({:.3f} us at {:.4g} ns/cycle)\n", run.cycles, microseconds(), o.run.profile.clock_ns);
  s += fmt::format("  predicted     {:.0f} cycles, {} steps: {}\n", predicted.cycles, predicted.steps, predicted.formula);
  if (predicted.cycles > 0) s += fmt::format("  measured / predicted = {:.3f}\n", double(run.cycles) / predicted.cycles);
  if (predicted.lower_bound > 0 && run.cycles > 0)
    s += fmt::format("  efficiency    {:.3f} of the all-port lower bound {:.0f} cycles ({})\n",
                     predicted.lower_bound / double(run.cycles), predicted.lower_bound, predicted.lower_bound_formula);
  s += fmt::format("  messages      {} ({} words, {} packets, {} flits)\n", messages, words, run.packets, run.flits_injected);
  s += "  step  start      end   nodes  blocked: stepwise    depth     port     flow  (messages)\n";
  for (const auto& st : steps)
    s += fmt::format("  {:>4} {:>6} {:>8} {:>7}           {:>8} {:>8} {:>8} {:>8}  ({})\n", st.tag, st.start, st.end,
                     st.nodes, st.blocked[0], st.blocked[1], st.blocked[2], st.blocked[3], st.blocked_messages);
  s += fmt::format("  contention    stepwise {} | depth {} | port {} | flow {} blocked cycles\n", blocked[0], blocked[1],
                   blocked[2], blocked[3]);
  s += top_channels_text(*this, 10);
  s += fmt::format("  data check    {}{}\n", data_ok ? "PASS" : "FAIL", data_ok ? "" : ": " + data_error);
  if (!run.error.empty()) s += "  error: " + run.error + "\n";
  return s;
}

}  // namespace wn::fw
