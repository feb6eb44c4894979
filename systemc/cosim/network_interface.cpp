#include "systemc/cosim/network_interface.h"

#include <fmt/format.h>

#include <algorithm>

#include "systemc/core/flit.h"
#include "systemc/network/delay_ledger.h"

namespace wn {

namespace {

// Words of body flit `index` (1..): its share of the data, a whole flit's for synthetic traffic.
uint32_t flit_words(const PayloadSource& p, int index) {
  if (!p.data) return p.per_flit;
  const uint32_t first = uint32_t(index - 1) * p.per_flit;
  return first >= p.count ? 0 : std::min(p.per_flit, p.count - first);
}

}  // namespace

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
      if (mem_) mem_->paced[size_t(c)] = p.paced && mem_->pace > 0;
      ++streaming_;
    }
    if (ch.credits == 0) continue;
    if (mem_) {  // a body flit goes once the port has read its words, and a paced one in its time
      Memory& m = *mem_;
      const size_t k = size_t(c);
      uint64_t tag = 0;
      if (ch.next > 0) {
        const bool port = m.port.modelled();
        if ((port && m.have[k] < words_of(ch)) || (m.paced[k] && now * 1000 < m.ready[k])) {
          ++m.waits[k];
          continue;
        }
        if (port) m.have[k] = 0;
        // Gone at its first chance: the next is due a pace later, fractions kept; gone later (credits),
        // the pace restarts from now.
        if (m.paced[k]) m.ready[k] = (now * 1000 < m.ready[k] + 1000 ? m.ready[k] : now * 1000) + m.pace;
        tag = LedgerPool::stalled(Contention::Memory, m.waits[k]);
        m.waits[k] = 0;
      }
      net_.inject_tag(node_, c, tag);
    }
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
    if (ch.next > 0) {
      take_words(ch, ch.next, f);
      if (memory_modelled()) mem_->taken[size_t(c)] += flit_words(ch.payload, ch.next);
    }
    ++ch.next;
    if (done || flit::is_tail(f)) {
      ch.packet = -1;
      if (done && memory_modelled()) {  // delivered once the port has written its words (memory_cycle)
        ch.flush();
        mem_->held[size_t(c)].push_back({id, mem_->taken[size_t(c)], std::move(ch.words)});
        ch.words = {};
      } else if (done && on_delivery) {
        ch.flush();
        delivered_words_.swap(ch.words);
        on_delivery(id, now + 1);
      }
      ch.clear();
    }
  }
}

// ------------------------------------------------------------ memory port --

void NetworkInterface::set_memory(uint32_t milli_words) {
  const uint32_t pace = mem_ ? mem_->pace : 0;
  mem_ = milli_words || pace ? std::make_unique<Memory>(milli_words) : nullptr;
  if (mem_) mem_->pace = pace;
}

void NetworkInterface::set_pacing(uint32_t milli_cycles) {
  if (!mem_ && milli_cycles) mem_ = std::make_unique<Memory>(0);
  if (mem_) mem_->pace = milli_cycles;
}

uint32_t NetworkInterface::words_of(const InjChannel& ch) const { return flit_words(ch.payload, ch.next); }

void NetworkInterface::memory_local(uint64_t words) {
  mem_->local += words;
  mem_->port.want(MemoryPort::kProcessor, mem_->local);
}

void NetworkInterface::deliver(uint32_t id, uint64_t cycle) {
  store_[id].stored = cycle;
  if (on_delivery) on_delivery(id, cycle);
}

bool NetworkInterface::memory_cycle(uint64_t cycle) {
  Memory& m = *mem_;
  for (int c = 0; c < inj_count_; ++c) {
    const InjChannel& ch = inj_[size_t(c)];
    const uint32_t need = ch.packet >= 0 && ch.next > 0 ? words_of(ch) : 0;
    m.port.want(MemoryPort::injection(c), need > m.have[size_t(c)] ? need - m.have[size_t(c)] : 0);
  }
  for (int c = 0; c < ej_count_; ++c) m.port.want(MemoryPort::ejection(c), m.taken[size_t(c)] - m.written[size_t(c)]);
  std::array<uint64_t, MemoryPort::kRequesters> got;
  m.port.cycle(got);
  for (int c = 0; c < inj_count_; ++c) m.have[size_t(c)] += uint32_t(got[size_t(MemoryPort::injection(c))]);
  bool held = false;
  for (int c = 0; c < ej_count_; ++c) {
    m.written[size_t(c)] += got[size_t(MemoryPort::ejection(c))];
    auto& q = m.held[size_t(c)];
    size_t& first = m.held_first[size_t(c)];
    while (first < q.size() && m.written[size_t(c)] >= q[first].after) {
      delivered_words_.swap(q[first].words);
      q[first].words = {};
      deliver(q[first++].id, cycle);
    }
    if (first == q.size()) {
      q.clear();
      first = 0;
    }
    held |= !q.empty();
  }
  if (m.local > 0) {
    m.local -= got[size_t(MemoryPort::kProcessor)];
    if (m.local == 0 && on_local_done) on_local_done(cycle);
  }
  return held || m.local > 0;
}

}  // namespace wn
