#include "experiments/collective_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "algorithms/file_algorithm.h"
#include "algorithms/pipeline.h"
#include "algorithms/reference_run.h"
#include "experiments/program_run.h"
#include "experiments/traffic_run.h"
#include "firmware/schedule_interpreter.h"
#include "systemc/core/config_error.h"
#include "systemc/core/rng.h"

namespace wn::fw {

NetworkSetup resolve_network(const ScheduleRunOptions& opt) {
  return NetworkSetup::resolve(opt.topology, opt.ports, opt.net);
}

const alg::AlgorithmInfo& algorithm_of(const ScheduleRunOptions& opt) {
  return opt.schedule.empty() ? alg::find_algorithm(opt.algorithm) : alg::schedule_file_algorithm(opt.schedule);
}

int source_of(const ScheduleRunOptions& opt, const Topology& topo) {
  int source = 0;
  if (opt.source == "random") {
    Rng rng(derive_seed(opt.seed, 0x50u));  // stream 0x50: the random source
    source = int(uniform_below(rng, uint64_t(topo.nodes())));
  } else {
    try {
      // Decimal digits only: stoi also takes "+5", " 5" and stops at "5x".
      if (opt.source.empty() || opt.source.size() > 9 ||
          opt.source.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("not decimal");
      source = std::stoi(opt.source);
    } catch (const std::exception&) {
      throw ConfigError(Param::source,
                        fmt::format("'{}' is not a node; allowed: 0..{} or random", opt.source, topo.nodes() - 1));
    }
  }
  return source;
}

uint32_t words_of(const ScheduleRunOptions& opt) {
  if (opt.bytes == 0 || opt.bytes > (64u << 20) || opt.bytes % 4 != 0)
    throw ConfigError(
        Param::bytes,
        fmt::format("{} is not allowed; allowed: whole 32-bit words, a multiple of 4 in 4..{}", opt.bytes, 64u << 20));
  return (opt.bytes + 3) / 4;
}

alg::AlgorithmArgs algorithm_args(const ScheduleRunOptions& opt, const NetworkSetup& net, int* source_out) {
  const Topology& topo = net.topology;
  const alg::AlgorithmInfo& info = algorithm_of(opt);
  alg::AlgorithmArgs a;
  a.seed = opt.seed;
  if (!info.file.empty()) {
    // The file fixes its sizes, operators and root: the report's source is the root's node.
    const alg::ScheduleFile& f = alg::schedule_file_of(info);
    uint32_t longest = 0;  // without a collective, the report's block size is the longest message
    for (const auto& prog : f.programs)
      for (const auto& st : prog)
        for (const auto& m : st.sends) longest = std::max(longest, alg::total_words(m.src));
    a.words = f.collective ? f.collective->words : std::max(1u, longest);
    a.ports = net.params.inj;
    a.cost = opt.run.profile.cost_params(a.ports, router_timing(net.params, topo.ports()));
    a.group = opt.group;
    const int root = f.collective && f.collective->root >= 0 ? f.collective->root : 0;
    a.source = root < int(opt.group.size()) ? opt.group[size_t(root)] : root;
    if (source_out) *source_out = a.source;
    return a;
  }
  a.source = source_of(opt, topo);
  a.words = words_of(opt);
  a.ports = net.params.inj;
  a.cost = opt.run.profile.cost_params(a.ports, router_timing(net.params, topo.ports()));
  a.op = alg::find_combine_op(opt.op);
  a.group = opt.group;
  a.options = alg::parse_options(info, opt.family_options);
  if (source_out) *source_out = a.source;
  return a;
}

namespace {

// Average and maximum latency: first send of the run -> each receiving node's last receive completed.
void latency_metrics(ScheduleRunResult& res) {
  uint64_t first = kNever;
  std::map<int, uint64_t> last;  // receiving node -> its last completion
  for (const auto& m : res.run.log.messages) {
    first = std::min(first, m.issued);
    if (m.completed == kNever) continue;
    auto [it, fresh] = last.try_emplace(m.dst, m.completed);
    if (!fresh) it->second = std::max(it->second, m.completed);
  }
  if (last.empty() || first == kNever) return;
  double sum = 0;
  for (const auto& [node, done] : last) {
    sum += double(done - first);
    res.maximum_latency = std::max(res.maximum_latency, done - first);
  }
  res.average_latency = sum / double(last.size());
}

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

// Per message, per step and in total: the delay view (run.message_delay)
// and the resource view (packets' blocked cycles summed per message).
void attribute_contention(ScheduleRunResult& res) {
  const auto& log = res.run.log;
  res.message_resource.assign(log.messages.size(), ClassCycles{});
  for (uint32_t pid = 0; pid < res.run.packet_contention.size() && pid < log.message_of_packet.size(); ++pid) {
    const uint32_t m = log.message_of_packet[pid];
    if (m == UINT32_MAX) continue;
    for (int c = 0; c < kContentionClasses; ++c)
      res.message_resource[m][size_t(c)] += res.run.packet_contention[pid].cycles[size_t(c)];
  }
  std::map<uint32_t, StepTiming*> by_tag;
  for (auto& st : res.steps) by_tag[st.tag] = &st;
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    const ClassCycles& b = res.message_resource[m];
    const MessageDelay* d = m < res.run.message_delay.size() ? &res.run.message_delay[m] : nullptr;
    const uint64_t late = d ? d->delay.total() : 0, wait = d ? d->port_wait : 0;
    for (int c = 0; c < kContentionClasses; ++c) {
      res.resource[size_t(c)] += b[size_t(c)];
      if (d) res.delay[size_t(c)] += d->delay.cycles[size_t(c)];
    }
    res.port_wait += wait;
    res.delayed_messages += late > 0;
    auto it = by_tag.find(log.messages[m].step);
    if (it == by_tag.end()) continue;
    StepTiming& st = *it->second;
    for (int c = 0; c < kContentionClasses; ++c) {
      st.resource[size_t(c)] += b[size_t(c)];
      if (d) st.delay[size_t(c)] += d->delay.cycles[size_t(c)];
    }
    st.port_wait += wait;
    st.delayed_messages += late > 0;
  }
}

}  // namespace

void measure_run(ScheduleRunResult& res) {
  res.steps = merge_steps(res.run.steps, res.run.log);
  latency_metrics(res);
  attribute_contention(res);
}

ScheduleRunResult run_schedule(const ScheduleRunOptions& opt, const NetworkSetup& net) {
  if (!opt.firmware.empty()) return run_plugin(opt, net);
  const Topology& topo = net.topology;
  const alg::AlgorithmInfo& info = algorithm_of(opt);
  ScheduleRunResult res;
  res.options = opt;
  res.options.algorithm = info.name;
  res.network = net;
  const alg::AlgorithmArgs args = algorithm_args(opt, net, &res.source);
  res.options.source = std::to_string(res.source);
  validate(opt.run.profile);
  const alg::BuiltSchedule built = alg::build_schedule(info, topo, args);
  const alg::Schedule& sched = built.schedule;
  res.oracle = sched.oracle;
  if (!info.file.empty()) res.options.bytes = uint32_t(std::min<uint64_t>(uint64_t(args.words) * 4, UINT32_MAX));
  res.predicted = alg::predict(info, topo, built, args.cost);
  const alg::ScheduleStats st = alg::stats(sched);
  res.messages = st.messages;
  res.words = st.words_sent;

  FirmwareRunOptions run_opt = opt.run;
  run_opt.expected_messages = st.messages;
  if (res.predicted.cycles > 0 && res.predicted.cycles < 1e18) run_opt.expected_cycles = uint64_t(res.predicted.cycles);
  res.run = run_firmware(
      net, run_opt,
      [&](int node) -> FirmwareFn {
        return [&sched, node, barrier = run_opt.barrier](NodeApi& api) {
          run_program(api, sched.programs[size_t(node)], barrier);
        };
      },
      sched.node_words.empty() ? std::vector<uint32_t>(size_t(sched.nodes), sched.memory_words) : sched.node_words,
      sched.initial);
  measure_run(res);
  if (res.run.ok) {
    // A file's ranks are what its author wrote: name them beside the nodes.
    res.data_error =
        alg::check_memory(sched, res.run.memory, info.file.empty() ? std::vector<int>{} : built.args.group);
    res.data_ok = res.data_error.empty();
  } else {
    res.data_error = "not checked: the run did not complete";
  }
  return res;
}

}  // namespace wn::fw
