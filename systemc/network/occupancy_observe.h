// Occupancy::observe(): the shadow follows every flit that left a router at
// this edge (occupancy.h). Included by occupancy.h only.
#pragma once

namespace wn {

template <class Observer>
void Occupancy::set_holder(int r, int os, int64_t pid, uint64_t now, Observer& ob) {
  OutSlot& o = out_at(r, os);
  Hot& h = hot_[size_t(r)];
  const uint64_t bit = uint64_t{1} << os;
  if (pid >= 0) {
    if (o.holder < 0) o.held_since = now;
    h.held |= bit;
  } else {
    if (o.holder >= 0) ob.released(r, os, o.held_since, now);
    h.held &= ~bit;
  }
  o.holder = pid;
}

template <class Observer>
void Occupancy::depart(int r, int op, uint64_t f, int from_port, int from_vc, uint64_t now, Observer& ob) {
  // The sizes in locals: the stores below go through byte fields, which the
  // compiler must assume may change any member.
  const int P = P_, V = V_, npo = npo_;
  const bool inj = from_port >= kInjBase;
  const bool net_out = op < P;
  const int w = net_out ? int(flit::vc(f)) : 0;
  const int s = source_slot(from_port, from_vc);
  if (s < 0 || w >= V) return;
  const int ip = inj ? P + (from_port - kInjBase) : from_port;
  const size_t isx = slot_index(r, s);
  InSlot& is = in_slot(isx);
  if (is.qsize == 0) return;  // cannot happen with a consistent network
  const uint32_t pid = is.front;
  Hot& h = hot_[size_t(r)];
  uint32_t* const packets = &ports_[size_t(r) * size_t(npo + npi_)];
  packets[op] = pid;
  packets[npo + ip] = pid;
  h.won |= 1u << op;
  h.sent |= uint64_t{1} << s;
  h.sent_ports |= 1u << ip;
  uint64_t tag = 0;
  if (is.bsize) {
    const uint8_t first = is.bfirst;
    tag = this->tag(isx, first);
    is.bfirst = uint8_t((first + 1) & (cap_ - 1));
    if (--is.bsize == 0) h.buffered &= ~(uint64_t{1} << s);
  }
  const int os = net_out ? op * V + w : P * V + (op - P);
  const Departure d{r, op, w, os, s, ip, isx, pid, flit::is_head(f), flit::is_tail(f), inj, net_out};
  ob.departed(d, tag, now);
  std::pair<int, int> next{-1, -1};
  if (net_out) {
    next = net_.link(r, op);
    if (next.first < 0) return;  // a link to nowhere: only a broken router
    push_flit(next.first, next.second * V + w, now + 1, tag);
  }
  if (d.head) {
    Worm& e = worm_at(isx, is.qfirst);
    e.head_gone = is.front_gone = true;
    e.out = is.front_out = int8_t(op);
    --h.waiting;
    set_holder(r, os, pid, now, ob);
    if (net_out) push_worm(next.first, next.second * V + w, {now + 1, pid, -1, false});
  }
  if (d.tail) {
    pop_worm(isx, h, s);
    last_tail_[isx] = {int64_t(pid), now};
    out_at(r, os).last_release = {int64_t(pid), now};
    set_holder(r, os, -1, now, ob);
  }
}

inline void Occupancy::push_flit(int r, int s, uint64_t written, uint64_t tag) {
  const size_t is = slot_index(r, s);
  InSlot& in = in_slot(is);
  const uint8_t n = in.bsize;
  if (n == cap_) overflow("flits");
  this->tag(is, in.bfirst + n) = tag;
  in.bsize = uint8_t(n + 1);
  in.prev_adjacent = in.last_written + 1 == written;
  in.last_written = written;
  hot_[size_t(r)].buffered |= uint64_t{1} << s;
}

template <class Observer>
void Occupancy::observe(uint64_t now, Observer& ob) {
  for (uint64_t id = seen_; id < store_.size(); ++id) pending_.push_back(uint32_t(id));
  seen_ = store_.size();
  // A network larger than the cache: two stages ahead, a router's outputs first, then (once they
  // are here) the slots they name. Otherwise only the outputs, a little ahead.
  constexpr size_t kLookahead = 4, kFar = 8;
  const bool far = net_.prefetches();
  const std::vector<int>& evaluated = net_.evaluated();
  for (size_t k = 0; k < evaluated.size(); ++k) {
    if (far) {
      if (k + kFar < evaluated.size()) prefetch(evaluated[k + kFar]);
      if (k + kLookahead < evaluated.size()) prefetch_slots(evaluated[k + kLookahead]);
    } else if (k + kLookahead < evaluated.size()) {
      prefetch(evaluated[k + kLookahead]);
    }
    const int r = evaluated[k];
    Hot& h = hot_[size_t(r)];
    h.sent = 0;
    h.sent_ports = h.won = 0;
    const RouterOut& o = net_.out(r);
    for (uint32_t m = o.out_valid & ((1u << P_) - 1); m; m &= m - 1) {
      const int p = __builtin_ctz(m);
      depart(r, p, o.out_flit[p], o.from_port[p], o.from_vc[p], now, ob);
    }
    for (uint32_t m = o.ej_valid & ((1u << E_) - 1); m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      depart(r, P_ + j, o.ej_flit[j], o.from_port[kMaxPorts + j], o.from_vc[kMaxPorts + j], now, ob);
    }
    check_credits(r, o, now);
    // Flits the NI presented this cycle are in the injection buffers now.
    for (uint32_t m = net_.last_in(r).inj_valid & ((1u << I_) - 1); m; m &= m - 1)
      push_flit(r, P_ * V_ + __builtin_ctz(m), now, net_.injected_tag(r, __builtin_ctz(m)));
  }
  // Heads the NIs presented this cycle enter their router's injection buffer.
  for (size_t i = 0; i < pending_.size();) {
    const uint32_t id = pending_[i];
    const PacketRecord& p = store_[id];
    if (p.head_injected == kNever) {
      ++i;
      continue;
    }
    push_worm(p.src, P_ * V_ + p.inj_channel, {p.head_injected, id, -1, false});
    ob.head_entered(id, p);
    pending_[i] = pending_.back();
    pending_.pop_back();
  }
}

}  // namespace wn
