// The trace's frame, the network's counter and the nodes' processes (experiments/trace_events.h);
// the routers' are in trace_channels.cpp.
#include "experiments/trace_events.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/trace_writer.h"

namespace wn::fw {

namespace trace {

namespace {
uint32_t message_of_packet(const ScheduleRunResult& r, uint32_t packet) {
  const auto& log = r.run.log;
  return packet < log.message_of_packet.size() ? log.message_of_packet[packet] : UINT32_MAX;
}
}  // namespace

std::string packet_name(const ScheduleRunResult& r, uint32_t packet) {
  const uint32_t m = message_of_packet(r, packet);
  if (m == UINT32_MAX) return fmt::format("packet {}", packet);
  const MessageRecord& x = r.run.log.messages[m];
  return fmt::format("m{} {}->{} s{}", m, x.src, x.dst, x.step);
}

std::string packet_args(const ScheduleRunResult& r, uint32_t packet) {
  const uint32_t m = message_of_packet(r, packet);
  const int flits = packet < r.run.packet_records.size() ? r.run.packet_records[packet].flits : 0;
  if (m == UINT32_MAX) return fmt::format(R"("packet":{},"flits":{})", packet, flits);
  const MessageRecord& x = r.run.log.messages[m];
  return fmt::format(R"("message":{},"packet":{},"src":{},"dst":{},"step":{},"flits":{})", m, packet, x.src, x.dst,
                     x.step, flits);
}

}  // namespace trace

namespace {

constexpr int kNetworkPid = 1, kFirstNodePid = 2;

const char* local_name(LocalKind k) {
  switch (k) {
    case LocalKind::Index:
      return "index";
    case LocalKind::Copy:
      return "copy";
    case LocalKind::Combine:
      return "combine";
    case LocalKind::Compute:
      return "compute";
    case LocalKind::Barrier:
      return "barrier";
  }
  return "local";
}

// Spans that may overlap, on as many lanes as they need: `span(id)` gives [start, end).
template <class Span, class Emit>
void lanes(trace::Writer& w, int pid, int& sort, const char* name, const std::vector<uint32_t>& ids, Span span,
           Emit emit) {
  trace::Lanes l;
  std::vector<size_t> lane(ids.size());
  for (size_t k = 0; k < ids.size(); ++k) {
    const auto [start, end] = span(ids[k]);
    lane[k] = l.place(start, end);
  }
  std::vector<int> tid(l.count());
  for (size_t k = 0; k < tid.size(); ++k) {
    tid[k] = w.new_tid();
    w.thread(pid, tid[k], trace::lane_name(name, k), sort++);
  }
  for (size_t k = 0; k < ids.size(); ++k) emit(ids[k], tid[lane[k]]);
}

// A node: its steps, its receives (the receive called to completed), its sends (issued to the
// cycle after its last tail went into the router; the startup inside) and its local operations.
// Ids in message order are in order of issue (MessageLog::renumber): lanes fill in time order.
void node_process(const ScheduleRunResult& r, int n, const std::vector<uint32_t>& sent, std::vector<uint32_t> received,
                  trace::Writer& w) {
  const int pid = kFirstNodePid + n;
  const auto& msgs = r.run.log.messages;
  const uint64_t end_of_run = r.run.cycles_simulated;
  w.process(pid, fmt::format("node {}", n), pid);
  int sort = 0;
  if (size_t(n) < r.run.steps.size() && !r.run.steps[size_t(n)].empty()) {
    const int tid = w.new_tid();
    w.thread(pid, tid, "steps", sort++);
    for (const StepSpan& s : r.run.steps[size_t(n)])
      w.complete(pid, tid, s.start, s.end, fmt::format("step {}", s.tag), "step",
                 fmt::format(R"({{"step":{}}})", s.tag));
  }
  std::sort(received.begin(), received.end(), [&](uint32_t a, uint32_t b) {
    return msgs[a].recv_called != msgs[b].recv_called ? msgs[a].recv_called < msgs[b].recv_called : a < b;
  });
  lanes(
      w, pid, sort, "receives", received,
      [&](uint32_t m) { return std::pair<uint64_t, uint64_t>(msgs[m].recv_called, msgs[m].completed); },
      [&](uint32_t m, int tid) {
        const MessageRecord& x = msgs[m];
        w.complete(pid, tid, x.recv_called, x.completed, fmt::format("recv m{} from {}", m, x.src), "recv",
                   fmt::format(R"({{"message":{},"src":{},"step":{},"words":{},"delivered":{}}})", m, x.src, x.step,
                               x.words, x.delivered));
      });
  auto send_end = [&](const MessageRecord& x) { return x.injected != kNever ? x.injected + 1 : end_of_run; };
  lanes(
      w, pid, sort, "sends", sent,
      [&](uint32_t m) { return std::pair<uint64_t, uint64_t>(msgs[m].issued, send_end(msgs[m])); },
      [&](uint32_t m, int tid) {
        const MessageRecord& x = msgs[m];
        const uint64_t end = send_end(x);
        w.complete(pid, tid, x.issued, end, fmt::format("send m{} to {}", m, x.dst), "send",
                   fmt::format(R"({{"message":{},"dst":{},"step":{},"words":{},"packets":{},"open":{}}})", m, x.dst,
                               x.step, x.words, x.packets, x.injected == kNever));
        if (x.posted != kNever && x.posted > x.issued)
          w.complete(pid, tid, x.issued, std::min(x.posted, end), "startup", "send",
                     fmt::format(R"({{"message":{}}})", m));
      });
  if (size_t(n) < r.run.local_ops.size() && !r.run.local_ops[size_t(n)].empty()) {
    const int tid = w.new_tid();
    w.thread(pid, tid, "local", sort++);
    for (const LocalSpan& s : r.run.local_ops[size_t(n)])
      w.complete(pid, tid, s.start, s.end, local_name(s.kind), "local", fmt::format(R"({{"words":{}}})", s.words));
  }
}

}  // namespace

void write_trace_events(const ScheduleRunResult& r, ReportOut& out) {
  if (!r.run.timeline) throw std::logic_error("trace of events: the run recorded no timeline");
  const int nodes = r.network.topology.nodes();
  // What was run, as the JSON report says it, but the backend and the threads: the same trace.
  nlohmann::json config = r.to_json(false)["config"];
  config.erase("backend");
  const nlohmann::json meta = with_identity({{"config", config},
                                             {"ok", r.ok()},
                                             {"cycles", r.run.cycles},
                                             {"time_unit",
                                              "one nanosecond of the timeline is one network cycle "
                                              "(config.profile.clock_ns ns of real time)"}});
  out.write(R"({"metadata":)" + meta.dump() + R"(,"displayTimeUnit":"ns","traceEvents":[)");
  trace::Writer w(out);
  w.first_tid(kFirstNodePid + 2 * nodes);
  w.process(kNetworkPid, "network", 0);
  const int flits_tid = w.new_tid();
  w.thread(kNetworkPid, flits_tid, "flits in flight", 0);
  const auto& samples = r.run.timeline->flits_in_flight();
  if (samples.empty() || samples.front().cycle > 0) w.counter(kNetworkPid, flits_tid, 0, "flits", R"({"in flight":0})");
  for (const FlitsInFlight& s : samples)
    w.counter(kNetworkPid, flits_tid, s.cycle, "flits", fmt::format(R"({{"in flight":{}}})", s.flits));
  std::vector<std::vector<uint32_t>> sent(static_cast<size_t>(nodes)), received(static_cast<size_t>(nodes));
  const auto& msgs = r.run.log.messages;
  for (uint32_t m = 0; m < msgs.size(); ++m) {
    const MessageRecord& x = msgs[m];
    if (x.src >= 0 && x.src < nodes && x.issued != kNever) sent[size_t(x.src)].push_back(m);
    if (x.dst >= 0 && x.dst < nodes && x.recv_called != kNever && x.completed != kNever)
      received[size_t(x.dst)].push_back(m);
  }
  for (int n = 0; n < nodes; ++n) node_process(r, n, sent[size_t(n)], std::move(received[size_t(n)]), w);
  trace::channel_tracks(r, kFirstNodePid + nodes, w);
  out.write("\n]}\n");
}

}  // namespace wn::fw
