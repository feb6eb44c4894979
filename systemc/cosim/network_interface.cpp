#include "systemc/cosim/network_interface.h"

#include <fmt/format.h>

#include <algorithm>

#include "systemc/core/flit.h"

namespace wn {

NetworkInterface::NetworkInterface(int node, Network& net, PacketStore& store, Scoreboard& sb)
    : node_(node), inj_count_(net.params().inj), ej_count_(net.params().ej), net_(net), store_(store), sb_(sb) {
  for (int c = 0; c < inj_count_; ++c) inj_[size_t(c)].credits = net.params().buf;
}

void NetworkInterface::post(uint32_t id) {
  const int ch = store_[id].inj_channel;
  if (ch >= 0 && ch < inj_count_)
    inj_[size_t(ch)].pinned.push_back(id);
  else
    any_queue_.push_back(id);
  ++queued_;
}

size_t NetworkInterface::backlog() const { return queued_; }

// Addresses only (a load of a field would wait for the very miss this hides); channel 0 of each kind.
void NetworkInterface::prefetch_drive() const {
  prefetch_line(this);
  const char* const inj = reinterpret_cast<const char*>(&inj_[0]);
  for (size_t b = 0; b < sizeof(InjChannel); b += 64) prefetch_line(inj + b);
}

void NetworkInterface::prefetch_collect() const {
  prefetch_line(this);
  prefetch_line(&inj_[0].credits);
  const char* const ej = reinterpret_cast<const char*>(&ej_[0]);
  for (size_t b = 0; b < sizeof(EjChannel); b += 64) prefetch_line(ej + b);
}

int NetworkInterface::free_channels() const {
  int n = 0;
  for (int c = 0; c < inj_count_; ++c) n += inj_[size_t(c)].packet < 0 && inj_[size_t(c)].pinned.empty();
  return n;
}

bool NetworkInterface::idle() const { return streaming_ == 0 && queued_ == 0; }

void NetworkInterface::drive(uint64_t now) {
  const Topology& topo = net_.topology();
  for (int c = 0; c < inj_count_; ++c) {
    InjChannel& ch = inj_[size_t(c)];
    if (ch.packet < 0) {
      PacketQueue& q = !ch.pinned.empty() ? ch.pinned : any_queue_;
      if (q.empty()) continue;
      ch.packet = q.front();
      q.pop_front();
      --queued_;
      ch.next = 0;
      const PacketRecord& p = store_[uint32_t(ch.packet)];
      ch.flits = p.flits;
      ch.payload = PayloadSource(p);
      ++streaming_;
    }
    if (ch.credits == 0) continue;
    const uint32_t id = uint32_t(ch.packet);
    const bool tail = ch.next == ch.flits - 1;
    uint64_t f;
    if (ch.next == 0) {
      PacketRecord& p = store_[id];
      f = flit::make_head(tail, topo.address(p.dst), topo.address(p.src), p.step, id);
      p.head_injected = now;
      p.inj_channel = c;
    } else {
      f = flit::make_body(tail, ch.payload.next(id, ch.next));
    }
    net_.inject(node_, c, f);
    --ch.credits;
    ++flits_injected_;
    if (tail) {
      store_[id].tail_injected = now;
      ch.packet = -1;
      --streaming_;
      if (on_injected) on_injected(id, now);
    } else {
      ++ch.next;
    }
  }
}

// Data words of body flit `index`: read from the flit itself when it carries
// one word; otherwise (several words under a 60-bit digest the scoreboard has
// checked) from the packet's data beside it.
void NetworkInterface::take_words(EjChannel& ch, int index, uint64_t f) {
  const PayloadSource& src = ch.payload;
  if (!src.data) return;
  const uint32_t first = uint32_t(index - 1) * src.per_flit;
  if (first >= src.count) return;
  if (src.per_flit == 1) {
    ch.append(uint32_t(flit::payload(f)));
    return;
  }
  const uint32_t n = std::min(src.per_flit, src.count - first);
  ch.flush();
  ch.words.insert(ch.words.end(), src.words + first, src.words + first + n);
}

void NetworkInterface::collect(uint64_t now) {
  const RouterOut& out = net_.out(node_);
  for (uint32_t m = out.inj_credit; m; m &= m - 1) ++inj_[size_t(__builtin_ctz(m))].credits;
  for (uint32_t m = out.ej_valid; m; m &= m - 1) {
    const int c = __builtin_ctz(m);
    const uint64_t f = out.ej_flit[c];
    EjChannel& ch = ej_[size_t(c)];
    ++flits_ejected_;
    if (flit::is_head(f)) {
      if (ch.packet >= 0) sb_.fail(uint32_t(ch.packet), "a new head arrived on its ejection channel before its tail");
      const uint32_t id = store_.id_of_tag(flit::msg(f));
      sb_.head(node_, c, f, now + 1);
      if (!store_.valid(id)) {
        ch.packet = -1;
        continue;
      }
      ch.packet = id;
      ch.next = 0;
      ch.clear();
    } else if (ch.packet < 0) {
      sb_.fail(0xffffffffu, "body flit on an ejection channel with no open packet");
      continue;
    }
    const uint32_t id = uint32_t(ch.packet);
    if (!store_.valid(id)) {
      // A duplicate of this packet was streaming here when the original was
      // delivered and its record released: report it, never read the record.
      sb_.fail(id, fmt::format("flit {} at node {} channel {} after the packet was delivered", ch.next, node_, c));
      ch.packet = -1;
      continue;
    }
    // Resolved at the head, and again if the record let its words go since
    // (a duplicate of a delivered packet: checked as the record says now).
    const PacketRecord& p = store_[id];
    if (ch.next == 0 || p.data.get() != ch.payload.data) ch.payload = PayloadSource(p);
    const bool done = sb_.flit(node_, c, id, ch.next, f, now + 1, ch.payload);
    if (ch.next > 0) take_words(ch, ch.next, f);
    ++ch.next;
    if (done || flit::is_tail(f)) {
      ch.packet = -1;
      if (done && on_delivery) {
        ch.flush();
        delivered_words_.swap(ch.words);
        on_delivery(id, now + 1);
      }
      ch.clear();
    }
  }
}

}  // namespace wn
