#include "firmware/delay_view.h"

#include <fmt/format.h>

#include "firmware/firmware_run.h"

namespace wn::fw {

namespace {

// The cycle a packet's zero-load timeline starts: its head's injection, or,
// behind the previous packet of its chain, the edge that packet's tail left
// the source router (its head is allocated the cycle after).
uint64_t packet_start(const PacketRecord& p, const PacketDelay& d, const std::vector<PacketDelay>& all) {
  if (d.after == kNoBlocker) return p.head_injected;
  return std::max(p.head_injected, all[d.after].left_source);
}

}  // namespace

std::vector<MessageDelay> message_delays(const MessageLog& log, const std::vector<PacketRecord>& packets,
                                         const std::vector<PacketDelay>& delays, const Topology& topo,
                                         const RouterTiming& timing) {
  std::vector<MessageDelay> out(log.messages.size());
  // The packet of each message delivered last (the latest id on a tie).
  std::vector<uint32_t> last(log.messages.size(), kNoBlocker);
  std::vector<uint8_t> missing(log.messages.size(), 0);
  for (uint32_t pid = 0; pid < packets.size() && pid < log.message_of_packet.size(); ++pid) {
    const uint32_t m = log.message_of_packet[pid];
    if (m == UINT32_MAX) continue;
    if (delivered_at(packets[pid]) == kNever || pid >= delays.size()) {
      missing[m] = 1;
      continue;
    }
    if (last[m] == kNoBlocker || delivered_at(packets[pid]) >= delivered_at(packets[last[m]])) last[m] = pid;
  }
  for (uint32_t m = 0; m < log.messages.size(); ++m) {
    if (missing[m] || last[m] == kNoBlocker) continue;
    MessageDelay& md = out[m];
    const uint32_t top = last[m];
    md.delivered = true;
    md.delay = delays[top].delay;
    uint64_t flits = 0, n = 0;
    uint32_t first = top;
    for (uint32_t p = top; p != kNoBlocker; p = delays[p].after) {
      flits += uint64_t(packets[p].flits);
      ++n;
      first = p;
      if (p != top && delays[p].source) md.delay.add(*delays[p].source);
      const uint32_t a = delays[p].after;
      if (a != kNoBlocker && packets[p].head_injected > delays[a].left_source)
        md.delay.add(Contention::Flow, kNoBlocker, packets[p].head_injected - delays[a].left_source);
    }
    const PacketRecord& lp = packets[top];
    md.start = packets[first].head_injected;
    md.latency = delivered_at(lp) - md.start;
    md.zero_load = timing.zero_load(topo.hops(lp.src, lp.dst), flits, n);
    md.packets = uint32_t(n);
    const uint64_t posted = log.messages[m].posted;
    md.port_wait = posted != kNever && md.start > posted ? md.start - posted : 0;
  }
  return out;
}

namespace {

std::string account_error(const DelayAccount& a) {
  uint64_t named = 0;
  for (const auto& b : a.blockers) named += b.second;
  if (named != a.cycles[0] + a.cycles[1] + a.cycles[2])
    return fmt::format("blockers hold {} cycles, stepwise+depth+port {}", named,
                       a.cycles[0] + a.cycles[1] + a.cycles[2]);
  return "";
}

std::string balance_error(const char* what, uint64_t id, uint64_t end, uint64_t start, uint64_t zero_load,
                          const DelayAccount& a) {
  if (end < start + zero_load)
    return fmt::format("{} {}: faster than zero load ({} - {} < {})", what, id, end, start, zero_load);
  if (end - start - zero_load != a.total())
    return fmt::format("{} {}: {} cycles late, classes sum to {} (stepwise {} depth {} port {} flow {} memory {})",
                       what, id, end - start - zero_load, a.total(), a.cycles[0], a.cycles[1], a.cycles[2], a.cycles[3],
                       a.cycles[4]);
  const std::string e = account_error(a);
  return e.empty() ? e : fmt::format("{} {}: {}", what, id, e);
}

}  // namespace

std::string delay_conservation_error(const FirmwareRunResult& r, const Topology& topo, const alg::CostParams& cost) {
  const auto& pk = r.packet_records;
  const auto& d = r.packet_delay;
  const RouterTiming& t = cost.timing;
  if (r.delay_unexplained > 0)
    return fmt::format("{} cycles of body-flit gaps without a stall to explain them", r.delay_unexplained);
  for (uint32_t pid = 0; pid < pk.size(); ++pid) {
    const PacketRecord& p = pk[pid];
    if (delivered_at(p) == kNever) continue;
    if (pid >= d.size()) return fmt::format("packet {}: delivered but not followed", pid);
    const uint64_t s = packet_start(p, d[pid], d);
    const int h = topo.hops(p.src, p.dst);
    std::string e = balance_error("packet", pid, delivered_at(p), s, t.zero_load(h, uint64_t(p.flits)), d[pid].delay);
    if (e.empty() && d[pid].source && d[pid].left_source != UINT64_MAX)
      // The tail leaves the source router at start + stages + f (L - 1) at zero load.
      e = balance_error("source share of packet", pid, d[pid].left_source + 1, s,
                        uint64_t(t.stage_cycles) + uint64_t(t.flit_cycles) * (uint64_t(p.flits) - 1) + 1,
                        *d[pid].source);
    if (!e.empty()) return e;
  }
  const auto& log = r.log;
  for (uint32_t m = 0; m < r.message_delay.size() && m < log.messages.size(); ++m) {
    const MessageDelay& md = r.message_delay[m];
    if (!md.delivered) continue;
    const MessageRecord& x = log.messages[m];
    if (md.start + md.latency != x.delivered)
      return fmt::format("message {}: delivered at {}, its critical chain at {}", m, x.delivered,
                         md.start + md.latency);
    if (std::string e = balance_error("message", m, x.delivered, md.start, md.zero_load, md.delay); !e.empty())
      return e;
    if (md.packets == x.packets && double(md.zero_load) != cost.network_cycles(x.hops, x.words))
      return fmt::format("message {}: zero load {} cycles, the cost model says {}", m, md.zero_load,
                         cost.network_cycles(x.hops, x.words));
  }
  return "";
}

}  // namespace wn::fw
