// Text reports of a firmware run: the summary `wormnet run` prints, and the
// per-step comparison of `wormnet check --simulate`.
#include "experiments/collective_report_util.h"

namespace wn::fw {

using namespace report;

namespace {

// Resource view: the most contended channels (packet-cycles waited for them) and who blocked them.
std::string top_channels_text(const ScheduleRunResult& r, size_t n) {
  const Topology& topo = r.network.topology;
  std::vector<std::pair<std::pair<int, int>, const ChannelCounters*>> v;
  for (const auto& [key, c] : r.run.channels)
    if (c.blocked > 0) v.push_back({key, &c});
  if (v.empty()) return "";
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.second->blocked > b.second->blocked; });
  std::string s =
      fmt::format("  most contended channels (resource view: packet-cycles blocked at the output; top blockers):\n");
  for (size_t i = 0; i < v.size() && i < n; ++i) {
    const auto& [key, c] = v[i];
    std::string who;
    for (const auto& [pid, cyc] : top_blockers(c->holders, 2))
      who += fmt::format("{}{} {}", who.empty() ? "" : ", ", packet_text(r, pid), cyc);
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
  out.text += "  step  predicted-conflicts  delay:  stepwise    depth     port     flow   verdict\n";
  out.json = nlohmann::json::array();
  for (const auto& st : c.steps) {
    const auto it = measured.find(st.step);
    const ClassCycles b = it == measured.end() ? ClassCycles{} : it->second->delay;
    const bool predicted = st.shared_channels > 0;
    std::string verdict;
    if (!predicted && b[0] > 0) {
      verdict = "DISAGREE: contention-free by the checker, stepwise delay measured";
      out.agrees = false;
    } else if (predicted && b[0] == 0) {
      verdict = "agree (predicted conflicts cost no delay)";
    } else {
      verdict = "agree";
    }
    out.text += fmt::format("  {:>4} {:>20} {:>17} {:>8} {:>8} {:>8}   {}\n", st.step, st.conflicting_messages, b[0],
                            b[1], b[2], b[3], verdict);
    out.json.push_back({{"step", st.step},
                        {"predicted_conflicting_messages", st.conflicting_messages},
                        {"measured", classes_json(b, memory_modelled(r))},
                        {"verdict", verdict}});
  }
  out.text += out.agrees ? "  static and measured stepwise contention agree\n"
                         : "  *** DISAGREEMENT between the static checker and the simulation (see above) ***\n";
  return out;
}

std::string ScheduleRunResult::summary() const {
  const auto& o = options;
  std::string s = fmt::format("{} on {} ({} port{}: {} channel{}), backend {}, profile {}, source {}, {}\n",
                              o.algorithm, o.topology, o.ports, o.ports == "one" ? "" : "s", run.inj_channels,
                              run.inj_channels == 1 ? "" : "s", backend_name(o.net.backend), o.run.profile.name, source,
                              predicted.data.empty() ? fmt::format("{} bytes/block", o.bytes) : predicted.data);
  if (o.run.barrier)
    s += fmt::format("  sync          barrier before every step, {} cycles per barrier\n", o.run.barrier_cycles);
  if (o.run.synchronous_sends) s += "  sends         synchronous: a send waits for its receiver's posted receive\n";
  s += fmt::format("  cycles        {} ({:.3f} us at {:.4g} ns/cycle)\n", run.cycles, microseconds(),
                   o.run.profile.clock_ns);
  const double us_per_cycle = o.run.profile.clock_ns / 1000.0;
  s += fmt::format(
      "  latency       average {:.1f} cycles ({:.3f} us), maximum {} cycles ({:.3f} us): first send -> "
      "each receiving node's last receive\n",
      average_latency, average_latency * us_per_cycle, maximum_latency, double(maximum_latency) * us_per_cycle);
  if (predicted.steps == 0 && predicted.cycles == 0)
    s += fmt::format("  predicted     {}\n", predicted.formula);
  else
    s += fmt::format("  predicted     {:.0f} cycles, {} steps: {}\n", predicted.cycles, predicted.steps,
                     predicted.formula);
  if (predicted.cycles > 0)
    s += fmt::format("  measured / predicted = {:.3f}\n", double(run.cycles) / predicted.cycles);
  if (!predicted.thesis_formula.empty())
    s += fmt::format("  paper         {:.0f} cycles: {}; measured / paper = {:.3f}\n", predicted.thesis_cycles,
                     predicted.thesis_formula,
                     predicted.thesis_cycles > 0 ? double(run.cycles) / predicted.thesis_cycles : 0.0);
  if (predicted.lower_bound > 0 && run.cycles > 0)
    s += fmt::format("  efficiency    {:.3f} of the lower bound {:.0f} cycles ({})\n",
                     predicted.lower_bound / double(run.cycles), predicted.lower_bound, predicted.lower_bound_formula);
  s += fmt::format("  messages      {} ({} words, {} packets, {} flits)\n", messages, words, run.packets,
                   run.flits_injected);
  s += "  step  start      end   nodes  delay:  stepwise    depth     port     flow  (messages)  port-wait\n";
  for (const auto& st : steps)
    s += fmt::format("  {:>4} {:>6} {:>8} {:>7}          {:>9} {:>8} {:>8} {:>8}  {:<10} {:>9}\n", st.tag, st.start,
                     st.end, st.nodes, st.delay[0], st.delay[1], st.delay[2], st.delay[3],
                     fmt::format("({})", st.delayed_messages), st.port_wait);
  const uint64_t total = delay[0] + delay[1] + delay[2] + delay[3] + delay[4];
  s += fmt::format(
      "  contention    delay over zero load: stepwise {} | depth {} | port {} | flow {}{} = {} cycles "
      "({} of {} messages late); port wait before injection {} cycles\n",
      delay[0], delay[1], delay[2], delay[3],
      memory_modelled(*this) ? fmt::format(" | memory {}", delay[4]) : std::string(), total, delayed_messages,
      run.log.messages.size(), port_wait);
  s += fmt::format("  resource view stepwise {} | depth {} | port {} | flow {} packet-cycles blocked at outputs\n",
                   resource[0], resource[1], resource[2], resource[3]);
  s += top_channels_text(*this, 10);
  if (!data_checked)
    s += "  data check    not checked (the program gives no check; the scoreboard checked every packet)\n";
  else
    s += fmt::format("  data check    {}{}{}\n", data_ok ? "PASS" : "FAIL", data_ok ? "" : ": " + data_error,
                     oracle.empty() ? "" : "; oracle: " + oracle);
  if (!run.error.empty()) s += "  error: " + run.error + "\n";
  return s;
}

}  // namespace wn::fw
