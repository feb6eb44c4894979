// Reports of a firmware run: JSON (wormnet.run/2, and the static check's
// wormnet.check/2) and CSV per channel and per message. Contention appears in
// two views (systemc/network/contention_monitor.h): the delay view (exact,
// per message: latency - zero load by class) under `contention`, `delay`,
// `delay_*`; the resource view (packet-cycles blocked at each output) under
// `channels` and `resource_blocked`.
#include "experiments/collective_report_util.h"

namespace wn::fw {

using namespace report;

namespace {

nlohmann::json channels_json(const ScheduleRunResult& r) {
  const Topology& topo = r.network.topology;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [key, c] : r.run.channels) {
    nlohmann::json blockers = nlohmann::json::array();
    for (const auto& [pid, cyc] : top_blockers(c.holders, 5)) blockers.push_back({{"packet", pid}, {"cycles", cyc}});
    out.push_back({{"router", key.first},
                   {"output", output_name(topo, key.second)},
                   {"flits", c.flits},
                   {"vc_flits", c.vc_flits},
                   {"vc_busy", c.vc_busy},
                   {"blocked", c.blocked},
                   {"credit_stall", c.credit_stall},
                   {"sa_loss", c.sa_loss},
                   {"blockers", blockers}});
  }
  for (const auto& [key, c] : r.run.injection)
    out.push_back({{"router", key.first},
                   {"output", fmt::format("inject {}", key.second)},
                   {"flits", c.flits},
                   {"port_wait", c.port_wait}});
  return out;
}

const MessageDelay& delay_of(const ScheduleRunResult& r, uint32_t m) {
  static const MessageDelay none;
  return m < r.run.message_delay.size() ? r.run.message_delay[m] : none;
}

nlohmann::json messages_json(const ScheduleRunResult& r) {
  const Topology& topo = r.network.topology;
  nlohmann::json out = nlohmann::json::array();
  const auto& log = r.run.log;
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    const auto& x = log.messages[m];
    const MessageDelay& d = delay_of(r, m);
    nlohmann::json blockers = nlohmann::json::array();
    for (const auto& [pid, cyc] : top_blockers(d.delay.blockers, 3)) {
      const uint32_t bm = message_of(r, pid);
      blockers.push_back(
          {{"packet", pid}, {"message", bm == UINT32_MAX ? nlohmann::json() : nlohmann::json(bm)}, {"cycles", cyc}});
    }
    out.push_back({{"id", m},
                   {"src", x.src},
                   {"dst", x.dst},
                   {"step", x.step},
                   {"tag", x.tag},
                   {"words", x.words},
                   {"packets", x.packets},
                   {"hops", x.hops},
                   {"issued", x.issued},
                   {"posted", x.posted},
                   {"head_injected", x.head_injected},
                   {"injected", x.injected},
                   {"head_delivered", x.head_delivered},
                   {"delivered", x.delivered},
                   {"completed", x.completed},
                   {"path", topo.path(x.src, x.dst)},
                   {"port_wait", d.port_wait},
                   {"latency", d.latency},
                   {"zero_load", d.zero_load},
                   {"delay", classes_json(d.delay.cycles)},
                   {"delay_blockers", blockers},
                   {"resource_blocked", classes_json(r.message_resource[m])}});
    if (d.delivered && d.start != x.head_injected) out.back()["latency_from"] = d.start;
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

}  // namespace

std::string ScheduleRunResult::channels_csv() const {
  const Topology& topo = network.topology;
  std::string s =
      "router,output,flits,busy_vc0,busy_vc1,busy_vc2,busy_vc3,blocked,credit_stall,sa_loss,top_blocker,top_blocker_"
      "cycles\n";
  for (const auto& [key, c] : run.channels) {
    const auto top = top_blockers(c.holders, 1);
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", key.first, output_name(topo, key.second), c.flits,
                     c.vc_busy[0], c.vc_busy[1], c.vc_busy[2], c.vc_busy[3], c.blocked, c.credit_stall, c.sa_loss,
                     top.empty() ? std::string() : std::to_string(top[0].first), top.empty() ? 0 : top[0].second);
  }
  return s;
}

std::string ScheduleRunResult::messages_csv() const {
  std::string s =
      "id,src,dst,step,words,packets,hops,issued,posted,head_injected,injected,head_delivered,delivered,"
      "completed,port_wait,latency,zero_load,delay_stepwise,delay_depth,delay_port,delay_flow,"
      "top_blocker_packet,top_blocker_cycles,blocked_stepwise,blocked_depth,blocked_port,blocked_flow\n";
  const auto& log = run.log;
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    const auto& x = log.messages[m];
    const auto& b = message_resource[m];
    const MessageDelay& d = delay_of(*this, m);
    const auto& c = d.delay.cycles;
    const auto top = top_blockers(d.delay.blockers, 1);
    s += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", m, x.src,
                     x.dst, x.step, x.words, x.packets, x.hops, x.issued, x.posted, x.head_injected, x.injected,
                     x.head_delivered, x.delivered, x.completed, d.port_wait, d.latency, d.zero_load, c[0], c[1], c[2],
                     c[3], top.empty() ? std::string() : std::to_string(top[0].first), top.empty() ? 0 : top[0].second,
                     b[0], b[1], b[2], b[3]);
  }
  return s;
}

nlohmann::json ScheduleRunResult::to_json(bool detail) const {
  const auto& o = options;
  nlohmann::json steps_j = nlohmann::json::array();
  for (const auto& s : steps)
    steps_j.push_back({{"step", s.tag},
                       {"start", s.start},
                       {"end", s.end},
                       {"nodes", s.nodes},
                       {"delay", classes_json(s.delay)},
                       {"delayed_messages", s.delayed_messages},
                       {"port_wait", s.port_wait},
                       {"resource_blocked", classes_json(s.resource)}});
  const auto& p = o.run.profile;
  nlohmann::json contention = classes_json(delay);
  contention["total"] = delay[0] + delay[1] + delay[2] + delay[3];
  contention["delayed_messages"] = delayed_messages;
  contention["port_wait"] = port_wait;
  nlohmann::json j = {
      {"schema", "wormnet.run/2"},
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
        {"sync", o.run.barrier ? "barrier" : "free"},
        {"barrier_cycles", o.run.barrier_cycles},
        {"seed", o.seed},
        {"sends", o.run.synchronous_sends ? "synchronous" : "buffered"},
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
      {"data_check", !data_checked ? "NOT CHECKED"
                     : data_ok     ? "PASS"
                                   : "FAIL"},
      {"data_error", data_error},
      {"cycles", run.cycles},
      {"microseconds", microseconds()},
      {"latency",
       {{"average_cycles", average_latency},
        {"maximum_cycles", maximum_latency},
        {"average_us", average_latency * o.run.profile.clock_ns / 1000.0},
        {"maximum_us", double(maximum_latency) * o.run.profile.clock_ns / 1000.0}}},
      {"predicted",
       {{"steps", predicted.steps},
        {"cycles", predicted.cycles},
        {"formula", predicted.formula},
        {"data", predicted.data},
        {"lower_bound", predicted.lower_bound},
        {"lower_bound_formula", predicted.lower_bound_formula}}},
      {"efficiency", predicted.lower_bound > 0 && run.cycles > 0 ? predicted.lower_bound / double(run.cycles) : 0.0},
      {"measured_over_predicted", predicted.cycles > 0 ? double(run.cycles) / predicted.cycles : 0.0},
      {"steps", steps_j},
      {"messages", messages},
      {"words_sent", words},
      {"packets", run.packets},
      {"flits_injected", run.flits_injected},
      {"flit_hops", run.flit_hops},
      {"cycles_simulated", run.cycles_simulated},
      {"contention", contention},
      {"resource_blocked", classes_json(resource)},
  };
  if (!o.schedule.empty()) j["config"]["schedule"] = o.schedule;
  if (!o.firmware.empty()) j["config"]["firmware"] = o.firmware;
  if (!oracle.empty()) j["oracle"] = oracle;
  if (!predicted.thesis_formula.empty())
    j["predicted"]["paper"] = {
        {"cycles", predicted.thesis_cycles},
        {"formula", predicted.thesis_formula},
        {"measured_over_paper", predicted.thesis_cycles > 0 ? double(run.cycles) / predicted.thesis_cycles : 0.0}};
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
    steps.push_back({{"step", s.step},
                     {"messages", s.messages},
                     {"shared_channels", s.shared_channels},
                     {"conflicting_messages", s.conflicting_messages},
                     {"max_channel_load", s.max_channel_load},
                     {"avg_hops", s.avg_hops},
                     {"max_hops", s.max_hops}});
  for (const auto& k : c.conflicts)
    conflicts.push_back(
        {{"step", k.step},
         {"channel", {{"router", k.link.router}, {"port", k.link.port}, {"name", alg::link_name(topo, k.link)}}},
         {"a", {k.a.src, k.a.dst}},
         {"b", {k.b.src, k.b.dst}}});
  for (const auto& p : c.port_overuse)
    overuse.push_back({{"step", p.step}, {"node", p.node}, {"sends", p.sends}, {"recvs", p.recvs}, {"ports", p.ports}});
  nlohmann::json config = {{"topology", opt.topology}, {"ports", opt.ports}, {"algorithm", opt.algorithm},
                           {"source", source},         {"bytes", opt.bytes}, {"group", opt.group}};
  if (!opt.schedule.empty()) config["schedule"] = opt.schedule;
  return {{"schema", "wormnet.check/2"},
          {"config", config},
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

}  // namespace wn::fw
