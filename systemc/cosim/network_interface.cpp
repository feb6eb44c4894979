#include "systemc/cosim/network_interface.h"

#include <fmt/format.h>

#include <algorithm>

#include "systemc/core/flit.h"

namespace wn {

NetworkInterface::NetworkInterface(int node, Network& net, PacketStore& store, Scoreboard& sb)
    : node_(node), net_(net), store_(store), sb_(sb), inj_count_(net.params().inj), ej_count_(net.params().ej) {
  for (int c = 0; c < inj_count_; ++c) inj_[size_t(c)].credits = net.params().buf;
}

void NetworkInterface::post(uint32_t id) {
  const int ch = store_[id].inj_channel;
  if (ch >= 0 && ch < inj_count_)
    pinned_[size_t(ch)].push_back(id);
  else
    any_queue_.push_back(id);
}

size_t NetworkInterface::backlog() const {
  size_t n = any_queue_.size();
  for (int c = 0; c < inj_count_; ++c) n += pinned_[size_t(c)].size();
  return n;
}

int NetworkInterface::free_channels() const {
  int n = 0;
  for (int c = 0; c < inj_count_; ++c) n += inj_[size_t(c)].packet < 0 && pinned_[size_t(c)].empty();
  return n;
}

bool NetworkInterface::idle() const { return streaming_ == 0 && backlog() == 0; }

void NetworkInterface::drive(uint64_t now) {
  const Topology& topo = net_.topology();
  for (int c = 0; c < inj_count_; ++c) {
    InjChannel& ch = inj_[size_t(c)];
    if (ch.packet < 0) {
      auto& q = !pinned_[size_t(c)].empty() ? pinned_[size_t(c)] : any_queue_;
      if (q.empty()) continue;
      ch.packet = q.front();
      q.pop_front();
      ch.next = 0;
      ++streaming_;
    }
    if (ch.credits == 0) continue;
    const uint32_t id = uint32_t(ch.packet);
    PacketRecord& p = store_[id];
    const bool tail = ch.next == p.flits - 1;
    uint64_t f;
    if (ch.next == 0) {
      f = flit::make_head(tail, topo.address(p.dst), topo.address(p.src), p.step, id);
      p.head_injected = now;
      p.inj_channel = c;
    } else {
      f = flit::make_body(tail, body_payload(p, id, ch.next));
    }
    net_.inject(node_, c, f);
    --ch.credits;
    ++flits_injected_;
    if (tail) {
      p.tail_injected = now;
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
void NetworkInterface::take_words(EjChannel& ch, const PacketRecord& p, int index, uint64_t f) {
  if (!p.data) return;
  const uint32_t first = uint32_t(index - 1) * uint32_t(p.words_per_flit);
  if (first >= p.data_words) return;
  if (p.words_per_flit == 1) {
    ch.words.push_back(uint32_t(flit::payload(f)));
    return;
  }
  const uint32_t n = std::min(uint32_t(p.words_per_flit), p.data_words - first);
  const auto* w = p.data->data() + p.data_offset + first;
  ch.words.insert(ch.words.end(), w, w + n);
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
      ch.words.clear();
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
    const bool done = sb_.flit(node_, c, id, ch.next, f, now + 1);
    if (ch.next > 0) take_words(ch, store_[id], ch.next, f);
    ++ch.next;
    if (done || flit::is_tail(f)) {
      ch.packet = -1;
      if (done && on_delivery) {
        delivered_words_.swap(ch.words);
        on_delivery(id, now + 1);
      }
      ch.words.clear();
    }
  }
}

}  // namespace wn
