// The routers' processes of a trace of events (experiments/trace_events.h): per output VC and
// ejection channel, the packets that held it; per output port, the heads that waited for it, by
// class; per injection channel, the packets the node put into it. Only channels with a span.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <tuple>

#include "experiments/collective_report_util.h"
#include "experiments/trace_events.h"
#include "experiments/trace_writer.h"

namespace wn::fw::trace {

namespace {

// Indices 0..n-1 ordered by key(i) (a tuple: the order is total, so the trace is deterministic).
template <class Key>
std::vector<uint32_t> ordered(size_t n, Key key) {
  std::vector<uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
  return ids;
}

std::string hold_args(const ScheduleRunResult& r, uint32_t packet, bool open) {
  return "{" + packet_args(r, packet) + (open ? R"(,"open":true})" : "}");
}

std::string wait_args(const ScheduleRunResult& r, const HeadWait& h) {
  std::string a = "{" + packet_args(r, h.packet);
  if (h.blocker != kNoBlocker) {
    const auto& log = r.run.log;
    const uint32_t bm = h.blocker < log.message_of_packet.size() ? log.message_of_packet[h.blocker] : UINT32_MAX;
    a += fmt::format(R"(,"blocker_packet":{})", h.blocker);
    if (bm != UINT32_MAX) a += fmt::format(R"(,"blocker_message":{},"blocker":"{}")", bm, packet_name(r, h.blocker));
  }
  return a + fmt::format(R"(,"cycles":{}}})", h.end - h.start);
}

}  // namespace

void channel_tracks(const ScheduleRunResult& r, int first_pid, Writer& w) {
  const ChannelTimeline& tl = *r.run.timeline;
  const Topology& topo = r.network.topology;
  const int P = tl.ports(), V = tl.vcs(), E = tl.ej(), n = topo.nodes();
  const auto& hs = tl.holds();
  const auto& ws = tl.waits();
  const auto& pk = r.run.packet_records;
  const std::vector<uint32_t> holds = ordered(
      hs.size(), [&](uint32_t i) { return std::make_tuple(hs[i].router, hs[i].slot, hs[i].start, hs[i].packet); });
  const std::vector<uint32_t> waits = ordered(ws.size(), [&](uint32_t i) {
    return std::make_tuple(ws[i].router, ws[i].port, ws[i].start, ws[i].end, ws[i].packet);
  });
  // Injection channels: the packets whose head went in, by node and channel.
  std::vector<uint32_t> injected = ordered(pk.size(), [&](uint32_t i) {
    return std::make_tuple(pk[i].head_injected == kNever, pk[i].src, pk[i].inj_channel, pk[i].head_injected);
  });
  while (!injected.empty() && pk[injected.back()].head_injected == kNever) injected.pop_back();
  const uint64_t end_of_run = r.run.cycles_simulated;
  size_t h = 0, q = 0, j = 0;  // cursors into holds, waits, injected
  for (int router = 0; router < n; ++router) {
    const size_t h_end =
        size_t(std::find_if(holds.begin() + long(h), holds.end(), [&](uint32_t i) { return hs[i].router != router; }) -
               holds.begin());
    const size_t q_end =
        size_t(std::find_if(waits.begin() + long(q), waits.end(), [&](uint32_t i) { return ws[i].router != router; }) -
               waits.begin());
    const size_t j_end = size_t(
        std::find_if(injected.begin() + long(j), injected.end(), [&](uint32_t i) { return pk[i].src != router; }) -
        injected.begin());
    if (h == h_end && q == q_end && j == j_end) continue;
    const int pid = first_pid + router;
    w.process(pid, fmt::format("router {}", router), pid);
    int sort = 0;
    // Each output port: its VCs' holds, then the heads that waited for it.
    for (int port = 0; port < P + E; ++port) {
      const std::string name = report::output_name(topo, port < P ? port : kMaxPorts + (port - P));
      // A head waits for any ejection channel: counted at the first (ContentionMonitor::classify).
      const std::string waits_name = port < P ? name + " waits" : "eject waits";
      const int slots = port < P ? V : 1, first_slot = port < P ? port * V : P * V + (port - P);
      for (int s = first_slot; s < first_slot + slots; ++s) {
        if (h == h_end || hs[holds[h]].slot != s) continue;
        const int tid = w.new_tid();
        w.thread(pid, tid, port < P ? fmt::format("{} vc{}", name, s - first_slot) : name, sort++);
        for (; h < h_end && hs[holds[h]].slot == s; ++h) {
          const ChannelHold& c = hs[holds[h]];
          w.complete(pid, tid, c.start, c.end, packet_name(r, c.packet), "channel", hold_args(r, c.packet, c.open));
        }
      }
      // Heads of several packets can wait for one port at once: lanes.
      Lanes lanes;
      std::vector<size_t> lane;
      size_t q_port = q;
      for (; q_port < q_end && ws[waits[q_port]].port == port; ++q_port)
        lane.push_back(lanes.place(ws[waits[q_port]].start, ws[waits[q_port]].end));
      std::vector<int> tid(lanes.count());
      for (size_t k = 0; k < tid.size(); ++k) {
        tid[k] = w.new_tid();
        w.thread(pid, tid[k], lane_name(waits_name, k), sort++);
      }
      for (size_t k = 0; q < q_port; ++q, ++k) {
        const HeadWait& c = ws[waits[q]];
        w.complete(pid, tid[lane[k]], c.start, c.end, contention_name(c.cls), "wait", wait_args(r, c));
      }
    }
    // The node's injection channels into its router: head in to the cycle after the tail.
    int tid = 0;
    for (int ch = -1; j < j_end; ++j) {
      const PacketRecord& p = pk[injected[j]];
      if (p.inj_channel != ch) {
        ch = p.inj_channel;
        tid = w.new_tid();
        w.thread(pid, tid, fmt::format("inject {}", ch), sort++);
      }
      const bool open = p.tail_injected == kNever;
      w.complete(pid, tid, p.head_injected, open ? end_of_run : p.tail_injected + 1, packet_name(r, injected[j]),
                 "channel", hold_args(r, injected[j], open));
    }
  }
}

}  // namespace wn::fw::trace
