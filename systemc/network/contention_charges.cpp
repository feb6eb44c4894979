// Where a blocked edge is counted: the resource view's packet and channel
// counters, the delay view's accounts and flit ledgers (contention_monitor.h).
#include "systemc/network/contention_monitor.h"

namespace wn {

Contention ContentionMonitor::class_of(uint32_t victim, uint32_t blocker) const {
  return steps_[victim] == steps_[blocker] ? Contention::Stepwise : Contention::Depth;
}

std::array<uint64_t, kContentionClasses> ContentionMonitor::totals() {
  charge_waits();
  std::array<uint64_t, kContentionClasses> t{};
  for (const auto& p : packets_)
    for (int c = 0; c < kContentionClasses; ++c) t[size_t(c)] += p.cycles[size_t(c)];
  return t;
}

// One cause per packet per edge: a named blocker beats flow control.
void ContentionMonitor::propose(uint32_t victim, const Candidate& c, uint64_t now) {
  Victim& v = victims_.at(victim);
  if (v.edge_at != now + 1) {
    v.edge_at = now + 1;
    v.edge_pos = uint32_t(edge_.size());
    edge_.emplace_back(victim, c);
    return;
  }
  Candidate& cur = edge_[v.edge_pos].second;
  if (cur.blocker < 0 && c.blocker >= 0) cur = c;
}

void ContentionMonitor::blame(uint32_t victim, const Candidate& c) {
  Victim& v = *victims_.find(victim);  // propose() made it at this edge
  for (int k = 0; k < 2; ++k) {
    if (v.blamed[k] > 0 && v.blamed[k] < UINT32_MAX && v.last[k] == c) {
      ++v.blamed[k];
      v.older = uint8_t(1 - k);
      return;
    }
  }
  const int k = v.blamed[0] == 0 ? 0 : v.blamed[1] == 0 ? 1 : v.older;
  if (v.blamed[k] > 0) charge(victim, v.last[k], v.blamed[k]);
  v.last[k] = c;
  v.blamed[k] = 1;
  v.older = uint8_t(1 - k);
  if (tallied(c)) ++deferred_[size_t(c.blocker)];
}

void ContentionMonitor::charge(uint32_t victim, const Candidate& c, uint64_t edges) {
  if (packets_.size() <= victim) packets_.resize(size_t(victim) + 1);
  const bool flow = c.blocker < 0;
  packets_[victim].cycles[size_t(cause_class(victim, c))] += edges;
  if (c.out_idx < 0) return;
  Chan& ch = chan(c.r, c.out_idx);
  ch.blocked += edges;
  if (flow) ch.credit_stall += edges;
  if (c.sa_loss) ch.sa_loss += edges;
  if (flow) return;
  // Still deferred while charged: the tally may not call the blocker final yet.
  holders_[size_t(c.r) * size_t(npo_) + size_t(c.out_idx)].charge(uint32_t(c.blocker), edges,
                                                                  [this](uint32_t pid) { return blocks_no_more(pid); });
  --deferred_[size_t(c.blocker)];
}

// Every cause names a packet with a flit or a held output in the router, or one whose tail left
// an input or released an output at the previous edge (contention_causes.cpp): a packet whose
// tail left the network at edge t (tail_ejected = t + 1) is named at t + 1 at the latest.
// Two edges more, for certainty. Its edges named before are charged when their victim's are.
bool ContentionMonitor::blocks_no_more(uint32_t pid) const {
  if (deferred_[pid] > 0) return false;
  if (!store_.valid(pid)) return false;  // a released record says nothing: kept counting
  const uint64_t t = store_[pid].tail_ejected;
  return t != kNever && edge_now_ > t + 3;
}

void ContentionMonitor::head_delay(uint32_t pid, const Candidate& c, bool at_source, uint64_t now) {
  if (at_source) {
    const PacketDelay& d = delays_[pid];
    if (d.after != kNoBlocker) {
      // Behind its own message's previous packet, and the allocation cycle
      // after its tail: the serialization zero load already includes.
      const uint64_t left = delays_[d.after].left_source;
      if (left == UINT64_MAX || now <= left + 1) return;
    }
  }
  // The class is a function of the packet, c.port and c.blocker: those decide whether an edge
  // repeats the last one.
  Victim& v = victims_.at(pid);
  const uint32_t b = c.blocker < 0 ? kNoBlocker : uint32_t(c.blocker);
  if (timeline_) timeline_->waited(pid, c.r, c.out_idx, cause_class(pid, c), b, now);
  if (v.head_waits > 0 && v.head_waits < UINT32_MAX && v.head_blocker == b && v.head_port == c.port &&
      v.head_at_source == at_source) {
    ++v.head_waits;
    return;
  }
  if (v.head_waits > 0) add_head_waits(pid, v);
  v.head_waits = 1;
  v.head_blocker = b;
  v.head_port = c.port;
  v.head_at_source = at_source;
}

void ContentionMonitor::add_head_waits(uint32_t pid, Victim& v) {
  Candidate c;
  c.blocker = v.head_blocker == kNoBlocker ? -1 : int64_t(v.head_blocker);
  c.port = v.head_port;
  const Contention cls = cause_class(pid, c);
  PacketDelay& d = delays_[pid];
  d.delay.add(cls, v.head_blocker, v.head_waits);
  if (v.head_at_source && d.source) d.source->add(cls, v.head_blocker, v.head_waits);
  v.head_waits = 0;
}

void ContentionMonitor::note_stalls(uint32_t pid, Occupancy::SlotNote& note, uint64_t& ledger) {
  const Contention cls = note.stall_blocker == kNoBlocker ? Contention::Flow : class_of(pid, note.stall_blocker);
  ledgers_.stall(ledger, cls, note.stall_blocker, note.stall_edges);
  note.stall_edges = 0;
}

// A flit of packet `pid` leaves its input slot at edge `now`. A body flit's
// gap is now exactly (now - departure of the flit ahead - flit_cycles_): its ledger is
// settled to that, so what it carries out of the last router is exactly its
// share of the packet's delay. At the source router, a gap the stalls do not
// explain is the NI presenting the flit late (credits).
void ContentionMonitor::flit_delay(uint32_t pid, uint64_t& ledger, uint64_t& last_dep, bool source, bool eject,
                                   bool head, uint64_t now) {
  if (!head) {
    // Closer than the zero-load spacing only on a router whose spacing is not uniform: no gap (the
    // conservation check then names the packet).
    const uint64_t gap = now - last_dep > flit_cycles_ ? now - last_dep - flit_cycles_ : 0;
    const uint64_t padded = ledgers_.settle(ledger, gap, Contention::Flow);
    if (!source) unexplained_ += padded;
  }
  last_dep = now;
  if (ledger == 0) return;
  if (source && delays_[pid].source) ledgers_.charge(ledger, *delays_[pid].source);
  if (eject) {
    ledgers_.charge(ledger, delays_[pid].delay);
    ledgers_.release(ledger);
  }
}

void ContentionMonitor::charge(uint32_t id, Victim& v) {
  for (int k = 0; k < 2; ++k)
    if (v.blamed[k] > 0) charge(id, v.last[k], v.blamed[k]);
  v.blamed[0] = v.blamed[1] = 0;
  if (v.head_waits > 0 && id < delays_.size()) add_head_waits(id, v);
}

void ContentionMonitor::charge_waits() {
  victims_.for_each([this](uint32_t id, Victim& v) { charge(id, v); });
}

}  // namespace wn
