// The detail of a firmware run's reports: the JSON's per-channel (`channels`), per-message
// (`message_log`) and per-node (`node_steps`) lists, and the CSV tables per channel and per
// message. Each element or row is built when it is written, so a report of a big run never
// holds more than one of them (experiments/json_stream.h).
#include "experiments/collective_report_util.h"

namespace wn::fw {

using namespace report;

namespace {

void channels_list(const ScheduleRunResult& r, const StreamedJson::Emit& emit) {
  const Topology& topo = r.network.topology;
  for (const auto& [key, c] : r.run.channels) {
    nlohmann::json blockers = nlohmann::json::array();
    for (const auto& [pid, cyc] : top_blockers(c.holders, 5)) blockers.push_back({{"packet", pid}, {"cycles", cyc}});
    emit({{"router", key.first},
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
    emit({{"router", key.first},
          {"output", fmt::format("inject {}", key.second)},
          {"flits", c.flits},
          {"port_wait", c.port_wait}});
}

const MessageDelay& delay_of(const ScheduleRunResult& r, uint32_t m) {
  static const MessageDelay none;
  return m < r.run.message_delay.size() ? r.run.message_delay[m] : none;
}

void messages_list(const ScheduleRunResult& r, const StreamedJson::Emit& emit) {
  const Topology& topo = r.network.topology;
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
    nlohmann::json e = {{"id", m},
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
                        {"delay", classes_json(d.delay.cycles, memory_modelled(r))},
                        {"delay_blockers", blockers},
                        {"resource_blocked", classes_json(r.message_resource[m], memory_modelled(r))}};
    if (d.delivered && d.start != x.head_injected) e["latency_from"] = d.start;
    emit(e);
  }
}

// Per node: when it entered and left each of its steps.
void node_steps_list(const ScheduleRunResult& r, const StreamedJson::Emit& emit) {
  for (const auto& spans : r.run.steps) {
    nlohmann::json n = nlohmann::json::array();
    for (const auto& s : spans) n.push_back({s.tag, s.start, s.end});
    emit(n);
  }
}

}  // namespace

namespace report {

std::vector<std::pair<std::string, StreamedJson::List>> detail_lists(const ScheduleRunResult& r) {
  return {{"channels", [&r](const StreamedJson::Emit& e) { channels_list(r, e); }},
          {"message_log", [&r](const StreamedJson::Emit& e) { messages_list(r, e); }},
          {"node_steps", [&r](const StreamedJson::Emit& e) { node_steps_list(r, e); }}};
}

}  // namespace report

void ScheduleRunResult::channels_csv(const CsvOut& out) const {
  const Topology& topo = network.topology;
  // Units last in every name: cycles, or packet-cycles (a cycle per blocked packet).
  out("router,output,flits,busy_vc0_cycles,busy_vc1_cycles,busy_vc2_cycles,busy_vc3_cycles,blocked_packet_cycles,"
      "credit_stall_packet_cycles,sa_loss_packet_cycles,top_blocker_packet,top_blocker_cycles\n");
  for (const auto& [key, c] : run.channels) {
    const auto top = top_blockers(c.holders, 1);
    out(fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", key.first, output_name(topo, key.second), c.flits,
                    c.vc_busy[0], c.vc_busy[1], c.vc_busy[2], c.vc_busy[3], c.blocked, c.credit_stall, c.sa_loss,
                    top.empty() ? std::string() : std::to_string(top[0].first), top.empty() ? 0 : top[0].second));
  }
}

void ScheduleRunResult::messages_csv(const CsvOut& out) const {
  // Times are cycle numbers (_cycle), durations cycles (_cycles), blocking packet-cycles.
  out("id,src,dst,step,words,packets,hops,issued_cycle,posted_cycle,head_injected_cycle,injected_cycle,"
      "head_delivered_cycle,delivered_cycle,completed_cycle,port_wait_cycles,latency_cycles,zero_load_cycles,"
      "delay_stepwise_cycles,delay_depth_cycles,delay_port_cycles,delay_flow_cycles,top_blocker_packet,"
      "top_blocker_cycles,blocked_stepwise_packet_cycles,blocked_depth_packet_cycles,blocked_port_packet_cycles,"
      "blocked_flow_packet_cycles\n");
  const auto& log = run.log;
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    const auto& x = log.messages[m];
    const auto& b = message_resource[m];
    const MessageDelay& d = delay_of(*this, m);
    const auto& c = d.delay.cycles;
    const auto top = top_blockers(d.delay.blockers, 1);
    out(fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", m, x.src,
                    x.dst, x.step, x.words, x.packets, x.hops, x.issued, x.posted, x.head_injected, x.injected,
                    x.head_delivered, x.delivered, x.completed, d.port_wait, d.latency, d.zero_load, c[0], c[1], c[2],
                    c[3], top.empty() ? std::string() : std::to_string(top[0].first), top.empty() ? 0 : top[0].second,
                    b[0], b[1], b[2], b[3]));
  }
}

std::string ScheduleRunResult::channels_csv() const {
  std::string s;
  channels_csv([&s](std::string_view row) { s += row; });
  return s;
}

std::string ScheduleRunResult::messages_csv() const {
  std::string s;
  messages_csv([&s](std::string_view row) { s += row; });
  return s;
}

}  // namespace wn::fw
