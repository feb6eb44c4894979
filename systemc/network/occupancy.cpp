#include "systemc/network/occupancy.h"

#include <stdexcept>

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
  hot_.resize(size_t(n));
  in_.resize(size_t(n) * size_t(nin_));
  out_.resize(size_t(n) * size_t(nout_));
  flits_.resize(in_.size() * cap_);
  worms_.resize(in_.size() * cap_);
  winner_.assign(size_t(n) * size_t(npo_), -1);
  sender_.assign(size_t(n) * size_t(npi_), -1);
}

void Occupancy::push_flit(int r, int s, const Flit& f) {
  const size_t is = slot_index(r, s);
  InSlot& in = in_[is];
  if (in.bsize == cap_) throw std::logic_error("occupancy: more flits at an input than its credits allow");
  flit(is, in.bfirst + in.bsize) = f;
  ++in.bsize;
  hot_[size_t(r)].buffered |= uint64_t{1} << s;
}

void Occupancy::push_worm(int r, int s, const Worm& w) {
  const size_t is = slot_index(r, s);
  InSlot& in = in_[is];
  if (in.qsize == cap_) throw std::logic_error("occupancy: more worms at an input than its credits allow");
  worm_at(is, in.qfirst + in.qsize) = w;
  ++in.qsize;
  Hot& h = hot_[size_t(r)];
  h.queued |= uint64_t{1} << s;
  ++h.waiting;
}

}  // namespace wn
