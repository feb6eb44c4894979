#include "firmware/schedule_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/config_error.h"
#include "core/rng.h"
#include "firmware/schedule_interpreter.h"
#include "sim/traffic_run.h"

namespace wn::fw {

alg::AlgorithmArgs algorithm_args(const ScheduleRunOptions& opt, const Topology& topo, int* source_out) {
  alg::AlgorithmArgs a;
  if (opt.source == "random") {
    Rng rng(derive_seed(opt.seed, 0x50u));  // stream 0x50: the random source
    a.source = int(uniform_below(rng, uint64_t(topo.nodes())));
  } else {
    try {
      size_t used = 0;
      a.source = std::stoi(opt.source, &used);
      if (used != opt.source.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw ConfigError("--source", fmt::format("'{}' is not a node; allowed: 0..{} or random", opt.source,
                                                topo.nodes() - 1));
    }
  }
  if (opt.bytes == 0 || opt.bytes > (64u << 20))
    throw ConfigError("--bytes", fmt::format("{} is out of range; allowed: 1..{}", opt.bytes, 64u << 20));
  a.words = (opt.bytes + 3) / 4;
  a.ports = parse_port_model(opt.run.ports, topo);
  a.op = alg::find_combine_op(opt.op);
  a.group = opt.group;
  if (source_out) *source_out = a.source;
  return a;
}

std::string check_against_oracle(const alg::Schedule& s, const std::vector<std::vector<alg::Word>>& memory) {
  for (int n = 0; n < s.nodes; ++n) {
    for (uint32_t a = 0; a < s.memory_words; ++a) {
      const auto want = s.expected(n, a);
      if (want && *want != memory[size_t(n)][a])
        return fmt::format("node {} addr {}: expected {:#010x} got {:#010x}", n, a, *want, memory[size_t(n)][a]);
    }
  }
  return {};
}

namespace {

// A step starts when its first message is issued (a node that only waits to
// receive enters the step early and would hide that) and ends when its last
// node finishes it.
std::vector<StepTiming> merge_steps(const std::vector<std::vector<StepSpan>>& per_node, const MessageLog& log) {
  std::map<uint32_t, uint64_t> first_issue;
  for (const auto& m : log.messages) {
    auto [it, fresh] = first_issue.try_emplace(m.step, m.issued);
    it->second = std::min(it->second, m.issued);
  }
  std::map<uint32_t, StepTiming> by_tag;
  for (const auto& spans : per_node) {
    for (const StepSpan& s : spans) {
      auto [it, fresh] = by_tag.try_emplace(s.tag, StepTiming{s.tag, s.start, s.end, 0});
      StepTiming& t = it->second;
      t.start = std::min(t.start, s.start);
      t.end = std::max(t.end, s.end);
      ++t.nodes;
    }
  }
  std::vector<StepTiming> out;
  for (auto& [tag, t] : by_tag) {
    if (auto it = first_issue.find(tag); it != first_issue.end()) t.start = it->second;
    out.push_back(t);
  }
  return out;
}

}  // namespace

ScheduleRunResult run_schedule(const ScheduleRunOptions& opt) {
  const Topology topo = Topology::parse(opt.run.topology);
  const alg::AlgorithmInfo& info = alg::find_algorithm(opt.algorithm);
  ScheduleRunResult res;
  res.options = opt;
  const alg::AlgorithmArgs args = algorithm_args(opt, topo, &res.source);
  res.options.source = std::to_string(res.source);
  validate(opt.run.profile);
  info.check(topo, args);
  const alg::Schedule sched = info.build(topo, args);
  if (const std::string bad = alg::validate(sched); !bad.empty())
    throw std::logic_error("algorithm " + opt.algorithm + " built an invalid schedule: " + bad);
  res.predicted = info.cost(topo, args, opt.run.profile.cost_params(args.ports));
  const alg::ScheduleStats st = alg::stats(sched);
  res.messages = st.messages;
  res.words = st.words_sent;

  res.run = run_firmware(
      opt.run, [&](int node) -> FirmwareFn { return [&sched, node](NodeApi& api) { run_program(api, sched.programs[size_t(node)]); }; },
      sched.memory_words, sched.initial);
  res.steps = merge_steps(res.run.steps, res.run.log);
  if (res.run.ok) {
    res.data_error = check_against_oracle(sched, res.run.memory);
    res.data_ok = res.data_error.empty();
  } else {
    res.data_error = "not checked: the run did not complete";
  }
  return res;
}

nlohmann::json ScheduleRunResult::to_json() const {
  const auto& o = options;
  nlohmann::json steps_j = nlohmann::json::array();
  for (const auto& s : steps) steps_j.push_back({{"step", s.tag}, {"start", s.start}, {"end", s.end}, {"nodes", s.nodes}});
  const auto& p = o.run.profile;
  return {
      {"schema", "wormnet.run/1"},
      {"config",
       {{"topology", o.run.topology},
        {"ports", o.run.ports},
        {"injection_channels", run.inj_channels},
        {"backend", backend_name(o.run.net.backend)},
        {"vcs", o.run.net.vcs},
        {"buf", o.run.net.buf},
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
          {"combine_cycles_per_word", p.combine_cycles_per_word}}}}},
      {"ok", ok()},
      {"error", run.error},
      {"data_check", data_ok ? "PASS" : "FAIL"},
      {"data_error", data_error},
      {"cycles", run.cycles},
      {"microseconds", microseconds()},
      {"predicted", {{"steps", predicted.steps}, {"cycles", predicted.cycles}, {"formula", predicted.formula}}},
      {"measured_over_predicted", predicted.cycles > 0 ? double(run.cycles) / predicted.cycles : 0.0},
      {"steps", steps_j},
      {"messages", messages},
      {"words_sent", words},
      {"packets", run.packets},
      {"flits_injected", run.flits_injected},
      {"flit_hops", run.flit_hops},
      {"cycles_simulated", run.cycles_simulated},
  };
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
          {"config", {{"topology", opt.run.topology}, {"ports", opt.run.ports}, {"algorithm", opt.algorithm},
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
  std::string s = fmt::format("{} on {} ({} port{}: {} channel{}), backend {}, profile {}, source {}, {} bytes/block\n",
                              o.algorithm, o.run.topology, o.run.ports, o.run.ports == "one" ? "" : "s",
                              run.inj_channels, run.inj_channels == 1 ? "" : "s", backend_name(o.run.net.backend),
                              o.run.profile.name, source, o.bytes);
  s += fmt::format("  cycles        {} ({:.3f} us at {:.4g} ns/cycle)\n", run.cycles, microseconds(), o.run.profile.clock_ns);
  s += fmt::format("  predicted     {:.0f} cycles, {} steps: {}\n", predicted.cycles, predicted.steps, predicted.formula);
  if (predicted.cycles > 0) s += fmt::format("  measured / predicted = {:.3f}\n", double(run.cycles) / predicted.cycles);
  s += fmt::format("  messages      {} ({} words, {} packets, {} flits)\n", messages, words, run.packets, run.flits_injected);
  s += "  step  start      end   nodes\n";
  for (const auto& st : steps) s += fmt::format("  {:>4} {:>6} {:>8} {:>7}\n", st.tag, st.start, st.end, st.nodes);
  s += fmt::format("  data check    {}{}\n", data_ok ? "PASS" : "FAIL", data_ok ? "" : ": " + data_error);
  if (!run.error.empty()) s += "  error: " + run.error + "\n";
  return s;
}

}  // namespace wn::fw
