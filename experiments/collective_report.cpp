// Reports of a firmware run: JSON (wormnet.run/2, and the static check's
// wormnet.check/2); its per-channel, per-message and per-node lists and the
// CSV tables are in collective_detail.cpp. Contention appears in two views
// (systemc/network/contention_monitor.h): the delay view (exact, per message:
// latency - zero load by class) under `contention`, `delay`, `delay_*`; the
// resource view (packet-cycles blocked at each output) under `channels` and
// `resource_blocked`.
#include "experiments/collective_report_util.h"

namespace wn::fw {

using namespace report;

nlohmann::json ScheduleRunResult::to_json(bool detail) const {
  const auto& o = options;
  const bool mem = memory_modelled(*this);
  nlohmann::json steps_j = nlohmann::json::array();
  for (const auto& s : steps)
    steps_j.push_back({{"step", s.tag},
                       {"start", s.start},
                       {"end", s.end},
                       {"nodes", s.nodes},
                       {"delay", classes_json(s.delay, mem)},
                       {"delayed_messages", s.delayed_messages},
                       {"port_wait", s.port_wait},
                       {"resource_blocked", classes_json(s.resource, mem)}});
  const auto& p = o.run.profile;
  nlohmann::json contention = classes_json(delay, mem);
  contention["total"] = delay[0] + delay[1] + delay[2] + delay[3] + delay[4];
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
      {"resource_blocked", classes_json(resource, mem)},
  };
  if (p.mem_milli_words()) j["config"]["profile"]["mem_words_per_cycle"] = p.mem_words_per_cycle;
  if (p.multiport_startup) j["config"]["profile"]["multiport_startup"] = p.multiport_startup;
  if (p.reorder_cycles_per_word > 0) j["config"]["profile"]["reorder_cycles_per_word"] = p.reorder_cycles_per_word;
  if (p.index_setup_cycles > 0) j["config"]["profile"]["index_setup_cycles"] = p.index_setup_cycles;
  if (p.index_op_cycles > 0) j["config"]["profile"]["index_op_cycles"] = p.index_op_cycles;
  if (p.pace_milli_cycles()) j["config"]["profile"]["multiport_flit_cycles"] = p.multiport_flit_cycles;

  if (!o.schedule.empty()) j["config"]["schedule"] = o.schedule;
  if (!o.firmware.empty()) j["config"]["firmware"] = o.firmware;
  if (!oracle.empty()) j["oracle"] = oracle;
  if (!predicted.thesis_formula.empty())
    j["predicted"]["paper"] = {
        {"cycles", predicted.thesis_cycles},
        {"formula", predicted.thesis_formula},
        {"measured_over_paper", predicted.thesis_cycles > 0 ? double(run.cycles) / predicted.thesis_cycles : 0.0}};
  if (detail) return StreamedJson{std::move(j), detail_lists(*this)}.whole();
  return j;
}

StreamedJson ScheduleRunResult::to_json_streamed() const { return {to_json(false), detail_lists(*this)}; }

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
