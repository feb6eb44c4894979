#include "experiments/traffic_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "systemc/core/config_error.h"
#include "systemc/core/latency_histogram.h"
#include "systemc/cosim/engine.h"
#include "systemc/cosim/node_module.h"
#include "systemc/cosim/traffic_source.h"

namespace wn {

namespace {

// p50 and p99 are the order statistics the sorted vector of every latency
// gave (ranks n/2 and n*99/100); the histogram keeps memory flat in run length
// and is exact below LatencyHistogram::kExactBelow, within 1/64 above.
LatencyStats summarize(const LatencyHistogram& h) {
  LatencyStats s;
  s.count = h.count();
  if (s.count == 0) return s;
  s.avg = h.average();
  s.max = h.max();
  s.p50 = h.at_rank(s.count / 2);
  s.p99 = h.at_rank(std::min(s.count - 1, s.count * 99 / 100));
  return s;
}

// Router-to-router hops of the route from src to dst, in closed form: the
// routing function (systemc/topology/route_function.h) is minimal on every topology
// (dimension order on meshes, the shorter direction per dimension on tori,
// e-cube on hypercubes), so this equals Topology::hops() without walking the
// path (which allocates) once per delivered packet.
class HopCounter {
 public:
  explicit HopCounter(const Topology& topo) : kind_(topo.kind()), dims_(topo.dims()) {
    if (kind_ == TopoKind::Cube) return;
    k_ = topo.radix();
    coords_.resize(size_t(topo.nodes()) * size_t(dims_));
    for (int n = 0; n < topo.nodes(); ++n) {
      const std::vector<int> c = topo.coords(n);
      for (int i = 0; i < dims_; ++i) coords_[size_t(n) * size_t(dims_) + size_t(i)] = c[size_t(i)];
    }
  }
  int operator()(int src, int dst) const {
    if (kind_ == TopoKind::Cube) return __builtin_popcount(unsigned(src ^ dst));
    int h = 0;
    const int* a = &coords_[size_t(src) * size_t(dims_)];
    const int* b = &coords_[size_t(dst) * size_t(dims_)];
    for (int i = 0; i < dims_; ++i) {
      const int d = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
      h += kind_ == TopoKind::Torus ? std::min(d, k_[size_t(i)] - d) : d;
    }
    return h;
  }

 private:
  TopoKind kind_;
  int dims_;
  std::vector<int> k_;
  std::vector<int> coords_;
};

nlohmann::json latency_json(const LatencyStats& s) {
  return {{"count", s.count}, {"avg", s.avg}, {"max", s.max}, {"p50", s.p50}, {"p99", s.p99}};
}

}  // namespace

nlohmann::json TrafficResult::to_json() const {
  const TrafficOptions& opt = options;
  nlohmann::json j;
  j["schema"] = "wormnet.traffic/1";
  j["config"] = {{"topology", opt.topology},
                 {"ports", opt.ports},
                 {"injection_channels", opt.net.inj},
                 {"ejection_channels", opt.net.ej},
                 {"backend", backend_name(opt.net.backend)},
                 {"vcs", opt.net.vcs},
                 {"buf", opt.net.buf},
                 {"dateline", opt.net.dateline},
                 {"pattern", opt.pattern},
                 {"rate", opt.rate},
                 {"packet_flits", opt.packet_flits},
                 {"cycles", opt.cycles},
                 {"warmup", opt.warmup},
                 {"seed", opt.seed}};
  // Only when set: the reports of runs without a limit stay as they were.
  if (opt.source_queue_limit) j["config"]["source_queue_limit"] = opt.source_queue_limit;
  j["ok"] = ok;
  j["deadlock"] = deadlock;
  if (deadlock) j["deadlock_report"] = deadlock_report;
  j["drained"] = drained;
  j["errors"] = errors;
  j["cycles_simulated"] = cycles_simulated;
  j["packets"] = {{"created", packets_created}, {"delivered", packets_delivered}};
  if (opt.source_queue_limit) j["packets"]["refused"] = packets_refused;
  j["throughput"] = {{"offered", offered}, {"accepted", accepted}};
  j["network_latency"] = latency_json(network_latency);
  j["total_latency"] = latency_json(total_latency);
  j["avg_hops"] = avg_hops;
  j["node_flits_injected"] = node_injected;
  j["node_flits_ejected"] = node_ejected;
  return j;
}

TrafficResult run_traffic(const TrafficOptions& opt_in) {
  TrafficOptions opt = opt_in;
  const NetworkSetup setup = NetworkSetup::resolve(opt.topology, opt.ports, opt.net);
  const Topology& topo = setup.topology;
  opt.net = setup.params;
  if (opt.packet_flits < 1 || opt.packet_flits > 4096)
    throw ConfigError(Param::packet_flits, fmt::format("{} is out of range; allowed: 1..4096", opt.packet_flits));
  if (!(opt.rate >= 0) || opt.rate > opt.packet_flits)
    throw ConfigError(Param::rate,
                      fmt::format("{} is out of range; allowed: 0..packet-flits (at most one new packet per "
                                  "node per cycle)",
                                  opt.rate));
  if (opt.cycles < 1) throw ConfigError(Param::cycles, "must be at least 1");
  const auto pattern = make_pattern(opt.pattern, topo, opt.pattern_opt);
  const uint64_t window_begin = opt.warmup, window_end = opt.warmup + opt.cycles;
  const uint64_t drain = opt.drain ? opt.drain : 10 * window_end;

  EngineOptions eo;
  eo.watchdog = opt.watchdog;
  eo.explain_deadlock = opt.explain_deadlock;
  eo.wording.since = true;
  eo.wording.rerun_hint = opt.deadlock_hint;
  eo.trace = opt.trace;
  if (opt.progress) eo.progress = [&opt, window_end](uint64_t now) { opt.progress(now, window_end); };
  Engine engine(topo, opt.net, eo);
  Network& net = engine.network();
  PacketStore& store = engine.store();
  Scoreboard& sb = engine.scoreboard();
  TrafficResult res;
  res.options = opt;
  const int n = topo.nodes();

  std::vector<std::unique_ptr<NodeModule>> nodes;
  std::vector<std::unique_ptr<TrafficSource>> sources;
  // Heap-allocated: two 153 KiB arrays do not belong on the stack.
  const auto net_lat = std::make_unique<LatencyHistogram>(), tot_lat = std::make_unique<LatencyHistogram>();
  uint64_t hops_sum = 0, measured_delivered = 0;
  const HopCounter hop_count(topo);
  for (int i = 0; i < n; ++i) {
    nodes.push_back(std::make_unique<NodeModule>(fmt::format("node{}", i).c_str(), i, net, store, sb));
    sources.push_back(std::make_unique<TrafficSource>(i, *pattern, opt.rate / opt.packet_flits, opt.packet_flits,
                                                      opt.seed, opt.source_queue_limit));
    nodes.back()->ni.on_delivery = [&](uint32_t id, uint64_t) {
      const PacketRecord& p = store[id];
      if (p.measured) {
        net_lat->add(p.tail_ejected - p.head_injected);
        tot_lat->add(p.tail_ejected - p.created);
        hops_sum += uint64_t(hop_count(p.src, p.dst));
        ++measured_delivered;
      }
      // Delivered and checked by the scoreboard: nothing reads the record
      // again, so the store forgets it and memory stays flat in run length.
      store.release(id);
    };
  }
  uint64_t window_flits_created = 0, ej_at_begin = 0, ej_at_end = 0;
  auto total_created = [&] {  // packets accepted into the source queues (refused ones are not packets)
    uint64_t c = 0;
    for (const auto& src : sources) c += src->created();
    return c;
  };
  uint64_t created = 0;  // total_created() once generating stops
  auto total_ejected = [&] {
    uint64_t s = 0;
    for (auto& nd : nodes) s += nd->ni.flits_ejected();
    return s;
  };
  bool generating = true;

  // Per-node work of a cycle touches only the nodes that can act: a source
  // whose next packet is due, an NI with a packet queued or streaming (drive()
  // of an idle NI does nothing), a router output with an injection credit or
  // an ejected flit (collect() does nothing otherwise).
  std::vector<uint64_t> next_arrival(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) next_arrival[size_t(i)] = sources[size_t(i)]->next_arrival();
  std::vector<uint8_t> ni_active(static_cast<size_t>(n), 0);
  std::vector<int> active;  // nodes whose NI may have something to drive
  active.reserve(size_t(n));
  auto in_window = [&](uint64_t cycle) { return cycle >= window_begin && cycle < window_end; };
  auto before = [&](uint64_t now) {
    const bool measured = in_window(now);
    if (generating) {
      for (int i = 0; i < n; ++i) {
        if (next_arrival[size_t(i)] > now) continue;
        TrafficSource& src = *sources[size_t(i)];
        src.generate(now, [&] {
          if (measured) window_flits_created += uint64_t(opt.packet_flits);
        });
        next_arrival[size_t(i)] = src.next_arrival();
        if (!ni_active[size_t(i)]) {
          ni_active[size_t(i)] = 1;
          active.push_back(i);
        }
      }
    }
    // The order of the drive() calls does not matter: each touches only its
    // own NI, its own packets and its own router's injection inputs. A queued
    // packet becomes a record (and gets its id) when a channel is free to start
    // it: the NI would have started the head of its queue on that channel now.
    size_t keep = 0;
    for (size_t a = 0; a < active.size(); ++a) {
      const int i = active[a];
      if (a + 4 < active.size()) {
        nodes[size_t(active[a + 4])]->ni.prefetch_drive();
        net.prefetch_inject(active[a + 4]);
      }
      NetworkInterface& ni = nodes[size_t(i)]->ni;
      TrafficSource& src = *sources[size_t(i)];
      for (int k = ni.free_channels() - int(ni.backlog()); k > 0 && src.queued(); --k) {
        const TrafficSource::Queued q = src.take();
        PacketRecord p;
        p.src = i;
        p.dst = q.dst;
        p.flits = opt.packet_flits;
        p.created = q.created;
        p.measured = in_window(q.created);
        ni.post(store.add(p));
      }
      ni.drive(now);
      if (ni.idle() && !src.queued())
        ni_active[size_t(i)] = 0;
      else
        active[keep++] = i;
    }
    active.resize(keep);
  };
  auto after = [&](uint64_t now) {
    // A large network's NIs and router outputs leave the cache between two cycles: ask a few
    // nodes ahead (as the firmware fabric does).
    const std::vector<int>& outputs = net.node_outputs();
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (k + 4 < outputs.size()) {
        nodes[size_t(outputs[k + 4])]->ni.prefetch_collect();
        net.prefetch_out(outputs[k + 4]);
      }
      nodes[size_t(outputs[k])]->ni.collect(now);
    }
    const uint64_t next = now + 1;
    if (next == window_begin) ej_at_begin = total_ejected();
    if (next == window_end) {
      ej_at_end = total_ejected();
      generating = false;
      created = total_created();
    }
    if (engine.deadlocked(now)) {
      res.deadlock = true;
      res.deadlock_report = engine.deadlock_report();
      return false;
    }
    if (!sb.ok()) return false;
    if (!generating) {
      if (sb.delivered() == created) return false;
      if (next >= window_end + drain) {
        res.drained = false;
        return false;
      }
    }
    return true;
  };

  engine.run(before, after);
  res.wall_seconds = engine.wall_seconds();
  res.threads = engine.network().threads();

  const uint64_t cycles = engine.now();
  res.cycles_simulated = cycles;
  if (ej_at_end == 0 && cycles < window_end) ej_at_end = total_ejected();
  const uint64_t window = std::min<uint64_t>(opt.cycles, cycles > window_begin ? cycles - window_begin : 0);
  res.offered = window ? double(window_flits_created) / double(n) / double(window) : 0;
  res.accepted = window ? double(ej_at_end - ej_at_begin) / double(n) / double(window) : 0;
  res.packets_created = total_created();
  for (const auto& src : sources) res.packets_refused += src->refused();
  res.packets_delivered = sb.delivered();
  res.network_latency = summarize(*net_lat);
  res.total_latency = summarize(*tot_lat);
  res.avg_hops = measured_delivered ? double(hops_sum) / double(measured_delivered) : 0;
  for (auto& nd : nodes) {
    res.node_injected.push_back(nd->ni.flits_injected());
    res.node_ejected.push_back(nd->ni.flits_ejected());
  }
  res.errors = sb.errors();
  res.router_evals = net.router_evals();
  res.flit_hops = net.flit_hops();
  res.ok = sb.ok() && !res.deadlock;
  return res;
}

}  // namespace wn
