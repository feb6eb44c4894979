#include "firmware/firmware_run.h"

#include <fmt/format.h>

#include <memory>
#include <stdexcept>

#include "systemc/core/huge_pages.h"
#include "systemc/cosim/engine.h"

namespace wn::fw {

namespace {

// Every unfinished node waits for something nobody will send.
std::string stuck_report(const DenseArray<FirmwareNode>& nodes) {
  std::string r = "firmware stuck: the network is empty and every unfinished node waits\n";
  int shown = 0;
  for (const FirmwareNode& n : nodes) {
    if (n.finished()) continue;
    if (shown++ == 16) {
      r += "  ...\n";
      break;
    }
    r += fmt::format("  node {} (step {}) waits for {}\n", n.id(), n.steps().empty() ? 0 : n.steps().back().tag,
                     n.waiting_for());
  }
  return r;
}

}  // namespace

FirmwareRunResult run_firmware(const NetworkSetup& setup, const FirmwareRunOptions& opt,
                               const std::function<FirmwareFn(int)>& firmware, uint32_t memory_words,
                               const std::function<alg::Word(int, uint32_t)>& init) {
  return run_firmware(setup, opt, firmware, std::vector<uint32_t>(size_t(setup.topology.nodes()), memory_words), init);
}

FirmwareRunResult run_firmware(const NetworkSetup& setup, const FirmwareRunOptions& opt,
                               const std::function<FirmwareFn(int)>& firmware, const std::vector<uint32_t>& node_words,
                               const std::function<alg::Word(int, uint32_t)>& init) {
  const Topology& topo = setup.topology;
  if (node_words.size() != size_t(topo.nodes()))
    throw std::invalid_argument(
        fmt::format("{} node memory sizes for the {} nodes of {}", node_words.size(), topo.nodes(), topo.name()));
  const NetworkParams& np = setup.params;
  validate(opt.profile);

  EngineOptions eo;
  eo.watchdog = opt.watchdog;
  eo.explain_deadlock = opt.explain_deadlock;
  eo.wording.title = "network deadlock";
  eo.wording.rerun_hint = opt.deadlock_hint;
  eo.trace = opt.trace;
  if (opt.progress) eo.progress = [&opt](uint64_t now) { opt.progress(now, opt.expected_cycles); };
  Engine engine(topo, np, eo);
  Network& net = engine.network();
  PacketStore& store = engine.store();
  Scoreboard& sb = engine.scoreboard();
  ContentionMonitor contention(engine.observed_occupancy(), net, store);
  std::shared_ptr<ChannelTimeline> timeline;
  if (opt.timeline) {
    timeline = std::make_shared<ChannelTimeline>(topo.ports(), np.vcs, np.ej);
    contention.record(timeline.get());
  }
  FirmwareRunResult res;
  res.inj_channels = np.inj;
  res.log.messages.reserve(opt.expected_messages);
  store.reserve(opt.expected_messages);
  const int n = topo.nodes();
  StepBarrier barrier(n, opt.barrier_cycles);
  Rendezvous rendezvous;
  // In one array: a big network's cycle visits every node (huge_pages.h).
  DenseArray<FirmwareNode> nodes{size_t(n)};
  for (int i = 0; i < n; ++i) {
    FirmwareNode& node =
        nodes.emplace_back(fmt::format("node{}", i).c_str(), i, net, store, sb, res.log, opt.profile, firmware(i));
    auto& mem = node.memory();
    mem.resize(node_words[size_t(i)]);
    for (uint32_t a = 0; a < node_words[size_t(i)]; ++a) mem[a] = init(i, a);
    node.ni.set_memory(opt.profile.mem_milli_words());
    node.ni.set_pacing(opt.profile.pace_milli_cycles());
    if (i == opt.fault_node) node.set_receive_fault(opt.fault_mask);
    node.set_snapshots(opt.snapshots);
    node.set_timeline(opt.timeline);
    node.set_barrier(&barrier);
    if (opt.synchronous_sends) node.set_rendezvous(&rendezvous);
  }

  const bool memory_modelled = opt.profile.mem_milli_words() > 0;
  RunCensus census(n);
  for (FirmwareNode& nd : nodes) nd.set_census(&census);
  int quiet_edges = 0;
  uint64_t jump_limit = 0;  // for the engine: how far an idle stretch may be skipped (0: not now)
  size_t runnable = 0;      // a node last seen neither finished nor blocked (checked first)
  // Only live nodes can packetize or drive (the others' outboxes and NIs are
  // empty); node order as before, so packet ids do not change. A node's
  // drive() touches only its own NI, so it may drop out right after.
  auto before = [&](uint64_t now) {
    census.live();
    census.prune(
        [&](int i) {
          FirmwareNode& nd = nodes[size_t(i)];
          if (census.take_outbox(i)) nd.flush_outbox(now);
          nd.ni.drive(now);
          return !nd.ni.idle();
        },
        [&](int i) {
          nodes[size_t(i)].ni.prefetch_drive();
          net.prefetch_inject(i);
        });
  };
  auto after = [&](uint64_t now) {
    jump_limit = 0;
    const std::vector<int>& outputs = net.node_outputs();
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (k + 4 < outputs.size()) {
        nodes[size_t(outputs[k + 4])].ni.prefetch_collect();
        net.prefetch_out(outputs[k + 4]);
      }
      nodes[size_t(outputs[k])].ni.collect(now);
    }
    // The memory ports' cycle now+1: what they write is delivered then, what they read goes then.
    bool memory_busy = false;
    if (memory_modelled)
      for (FirmwareNode& nd : nodes) memory_busy |= nd.ni.memory_cycle(now + 1);
    contention.observe(now);
    if (census.errors() > 0) return false;
    if (!sb.ok()) return false;
    if (engine.deadlocked(now)) {
      res.error = engine.deadlock_report();
      return false;
    }
    // Every outbox was flushed before the edge and only live NIs are busy.
    // The verdicts below need all nodes done or waiting only when the network
    // is empty; one node that is neither settles both (usually the last one).
    const bool network_empty = sb.delivered() == store.size() && census.none_live() && !memory_busy;
    bool all_done = false, all_waiting = false;
    if (network_empty) {
      all_done = census.finished_count() == n;
      auto settled = [&](size_t i) { return nodes[i].finished() || nodes[i].blocked(); };
      all_waiting = settled(runnable);
      for (size_t i = 0; i < nodes.size() && all_waiting; ++i)
        if (!settled(i)) {
          runnable = i;
          all_waiting = false;
        }
    }
    if (all_done && network_empty) return false;
    // Two quiet edges in a row: no delivery is pending that could wake a node.
    quiet_edges = all_waiting && network_empty ? quiet_edges + 1 : 0;
    if (quiet_edges >= 2) {
      res.error = stuck_report(nodes);
      return false;
    }
    if (now + 1 >= opt.max_cycles) {
      res.error =
          fmt::format("stopped at {} {} before the firmware finished", opt.words(Param::max_cycles), opt.max_cycles);
      return false;
    }
    // Nothing in flight and some node computing (a start-up, a barrier's cost):
    // until a firmware thread wakes, every edge would find the same. Never
    // while all nodes wait (the stuck verdict needs its two quiet edges).
    if (opt.skip_idle && network_empty && !all_waiting) jump_limit = opt.max_cycles - 1;
    return true;
  };

  engine.run(before, after, [&](uint64_t) { return jump_limit; });
  res.wall_seconds = engine.wall_seconds();
  for (FirmwareNode& nd : nodes)
    if (nd.error()) std::rethrow_exception(nd.error());

  res.cycles_simulated = engine.now();
  res.cycles_skipped = engine.cycles_skipped();
  for (FirmwareNode& nd : nodes) {
    res.cycles = std::max(res.cycles, nd.finish_cycle());
    res.memory.push_back(std::move(nd.memory()));
    res.steps.push_back(nd.take_steps());
    res.flits_injected += nd.ni.flits_injected();
    if (opt.timeline) res.local_ops.push_back(nd.take_local_ops());
  }
  for (const auto& e : sb.errors()) res.error += (res.error.empty() ? "" : "\n") + e;
  contention.finish();
  if (timeline) {
    timeline->finish(engine.observed_occupancy(), res.cycles_simulated > 0 ? res.cycles_simulated - 1 : 0);
    res.timeline = std::move(timeline);
  }
  res.packets = store.size();
  res.packet_records = store.take();
  res.log.renumber(res.packet_records);
  res.packet_delay = contention.take_delays();
  // A memory port wrote a packet's last words after its tail left the network: those cycles are
  // the packet's, of class memory (the network's view ends at the ejection channel).
  for (uint32_t pid = 0; pid < res.packet_records.size() && pid < res.packet_delay.size(); ++pid) {
    const PacketRecord& p = res.packet_records[pid];
    if (p.stored != kNever && p.stored > p.tail_ejected)
      res.packet_delay[pid].delay.add(Contention::Memory, kNoBlocker, p.stored - p.tail_ejected);
  }
  res.delay_unexplained = contention.unexplained();
  res.timing = net.timing();
  res.message_delay = message_delays(res.log, res.packet_records, res.packet_delay, topo, res.timing);
  // The delay view must add up on every run: a violation is a monitor bug, reported like any failure.
  if (std::string e = delay_conservation_error(res, topo, opt.profile.cost_params(np.inj, res.timing)); !e.empty())
    res.error += (res.error.empty() ? "" : "\n") + ("contention delay view does not add up: " + e);
  res.packet_contention = contention.take_packets();
  res.channels = contention.take_channels();
  res.injection = contention.injection();
  res.flit_hops = net.flit_hops();
  res.ok = res.error.empty();
  return res;
}

std::array<uint64_t, kContentionClasses> FirmwareRunResult::message_blocked(uint32_t m) const {
  std::array<uint64_t, kContentionClasses> t{};
  for (uint32_t pid = 0; pid < packet_contention.size() && pid < log.message_of_packet.size(); ++pid)
    if (log.message_of_packet[pid] == m)
      for (int c = 0; c < kContentionClasses; ++c) t[size_t(c)] += packet_contention[pid].cycles[size_t(c)];
  return t;
}

}  // namespace wn::fw
