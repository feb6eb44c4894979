#include "systemc/network/occupancy.h"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace wn {

Occupancy::Occupancy(const Network& net, const PacketStore& store) : net_(net), store_(store), seen_(store.size()) {
  const NetworkParams& np = net.params();
  const int n = net.topology().nodes();
  P_ = net.topology().ports();
  V_ = np.vcs;
  I_ = np.inj;
  E_ = np.ej;
  nin_ = P_ * V_ + I_;
  nout_ = P_ * V_ + E_;
  npi_ = P_ + I_;
  npo_ = P_ + E_;
  // Hot's masks hold one bit per slot.
  if (nin_ > 64 || nout_ > 64) throw std::logic_error("occupancy: slots must fit a mask");
  while (cap_ < size_t(np.buf)) cap_ *= 2;
  unit_stride_ = (2 + (cap_ + 3) / 4 + 1) / 2 * 2;  // whole lines
  hot_.resize(size_t(n));
  units_.resize(size_t(n) * size_t(nin_) * unit_stride_);
  out_.resize(size_t(n) * size_t(nout_));
  worms_.resize(size_t(n) * size_t(nin_) * cap_);
  ports_.resize(size_t(n) * size_t(npo_ + npi_));
  last_tail_.assign(size_t(n) * size_t(nin_), {-1, 0});
}

void Occupancy::overflow(const char* what) {
  throw std::logic_error(fmt::format("occupancy: more {} at an input than its credits allow", what));
}

void Occupancy::prefetch(int r) const {
  prefetch_line(&hot_[size_t(r)]);
  prefetch_line(&ports_[size_t(r) * size_t(npo_ + npi_)]);
  const char* const out = reinterpret_cast<const char*>(&net_.out(r));
  for (size_t b = 0; b < sizeof(RouterOut); b += 64) prefetch_line(out + b);
  prefetch_line(&net_.last_in(r).inj_valid);
  net_.prefetch_links(r, P_);
}

void Occupancy::prefetch_slots(int r) const {
  // A departure reads its slot's block (head and note, then its flits' tags) and writes the next
  // router's: on a network larger than the cache, each is a miss unless asked for ahead.
  const RouterOut& o = net_.out(r);
  auto slot = [&](size_t is) {
    const SlotUnit* u = &units_[is * unit_stride_];
    prefetch_line(u);
    prefetch_line(u + 2);
  };
  for (uint32_t m = o.out_valid & ((1u << P_) - 1); m; m &= m - 1) {
    const int p = __builtin_ctz(m);
    if (const int s = source_slot(o.from_port[p], o.from_vc[p]); s >= 0) slot(slot_index(r, s));
    const std::pair<int, int> next = net_.link(r, p);
    const int w = int(flit::vc(o.out_flit[p]));
    if (next.first >= 0 && w < V_) slot(slot_index(next.first, next.second * V_ + w));
  }
  for (uint32_t m = o.ej_valid & ((1u << E_) - 1); m; m &= m - 1) {
    const int j = __builtin_ctz(m);
    if (const int s = source_slot(o.from_port[kMaxPorts + j], o.from_vc[kMaxPorts + j]); s >= 0) slot(slot_index(r, s));
  }
}

void Occupancy::credit_violation(int r, const RouterOut& o, uint64_t now) const {
  const Hot& h = hot_[size_t(r)];
  const uint32_t pmask = (1u << P_) - 1, imask = (1u << I_) - 1;
  const uint32_t net_sent = h.sent_ports & pmask, inj_sent = h.sent_ports >> P_ & imask;
  const uint32_t net_credit = o.in_credit & pmask, inj_credit = o.inj_credit & imask;
  const uint64_t vmask = (uint64_t{1} << V_) - 1;
  for (int p = 0; p < P_ + I_; ++p) {
    const bool inj = p >= P_;
    const bool left = (inj ? inj_sent >> (p - P_) : net_sent >> p) & 1;
    const bool credit = (inj ? inj_credit >> (p - P_) : net_credit >> p) & 1;
    const int vc = inj || !left ? 0 : __builtin_ctzll(h.sent >> (p * V_) & vmask);
    if (left == credit && (!credit || inj || o.in_credit_vc[p] == vc)) continue;
    const std::string where = inj ? fmt::format("router {} injection channel {}", r, p - P_)
                                  : fmt::format("router {} input {} VC {}", r, p, left ? vc : int(o.in_credit_vc[p]));
    if (!credit)
      throw std::runtime_error(
          fmt::format("{}: a flit left without its credit at cycle {} (rtl/README.md §4: one "
                      "credit upstream per flit that leaves)",
                      where, now));
    if (!left)
      throw std::runtime_error(fmt::format("{}: a credit went upstream at cycle {} with no flit leaving", where, now));
    throw std::runtime_error(
        fmt::format("{}: its flit left at cycle {} with a credit for VC {}", where, now, int(o.in_credit_vc[p])));
  }
  throw std::logic_error("occupancy: a credit violation that no input shows");
}

void Occupancy::push_worm(int r, int s, const Worm& w) {
  const size_t is = slot_index(r, s);
  InSlot& in = in_slot(is);
  if (in.qsize == cap_) overflow("worms");
  worm_at(is, in.qfirst + in.qsize) = w;
  if (in.qsize++ == 0) {
    in.front = w.packet;
    in.front_out = w.out;
    in.front_gone = w.head_gone;
  }
  Hot& h = hot_[size_t(r)];
  h.queued |= uint64_t{1} << s;
  ++h.waiting;
}

void Occupancy::pop_worm(size_t isx, Hot& h, int s) {
  InSlot& in = in_slot(isx);
  in.qfirst = uint8_t((in.qfirst + 1) & (cap_ - 1));
  if (--in.qsize == 0) {
    h.queued &= ~(uint64_t{1} << s);
    return;
  }
  const Worm& next = worm_at(isx, in.qfirst);
  in.front = next.packet;
  in.front_out = next.out;
  in.front_gone = next.head_gone;
}

}  // namespace wn
