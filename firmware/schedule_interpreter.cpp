#include "firmware/schedule_interpreter.h"

#include <algorithm>

namespace wn::fw {

namespace {

// Addresses computed by the processor for a list of local ops, charged once
// (per-op rounding would lose a fraction of a cycle per op).
void compute_indices(NodeApi& api, const std::vector<alg::LocalOp>& ops) {
  uint64_t words = 0, indexed = 0;
  for (const alg::LocalOp& l : ops)
    if (l.indexed) {
      words += alg::total_words(l.dst);
      ++indexed;
    }
  if (words) api.compute_indices(words, indexed);
}

void run_step(NodeApi& api, const alg::Step& step) {
  compute_indices(api, step.locals);
  for (const alg::LocalOp& l : step.locals) api.combine(l.src, l.dst, l.combine);
  api.locals_done();
  for (const alg::Recv& r : step.recvs) api.post_recv(r.src, r.tag);  // one combined send-receive
  const size_t ports = size_t(std::max(1, api.ports()));
  for (size_t k = 0; k < step.sends.size(); ++k) {
    const alg::Send& s = step.sends[k];
    SendOptions opt;
    opt.channel = s.channel;
    opt.tag = s.tag;
    opt.step = int(step.tag);
    opt.startup = !step.multiport_send || k % ports == 0;  // one startup per multi-port send
    opt.multiport = step.multiport_send;
    api.send_ranges(s.dst, s.src, opt);
  }
  // Receives complete in arrival order, not program order: a node does not
  // stall on a late partner while another message is already waiting.
  std::vector<size_t> pending(step.recvs.size());
  for (size_t i = 0; i < pending.size(); ++i) pending[i] = i;
  while (!pending.empty()) {
    std::vector<int> srcs;
    std::vector<uint32_t> tags;
    for (size_t i : pending) {
      srcs.push_back(step.recvs[i].src);
      tags.push_back(step.recvs[i].tag);
    }
    Message m;
    const size_t k = api.recv_any(srcs, tags, m);
    const alg::Recv& r = step.recvs[pending[k]];
    api.store(m.words, r.dst, r.combine);
    pending.erase(pending.begin() + long(k));
  }
  compute_indices(api, step.after);
  for (const alg::LocalOp& l : step.after) api.combine(l.src, l.dst, l.combine);
  api.wait_all_injected();
}

}  // namespace

void run_program(NodeApi& api, const std::vector<alg::Step>& program, bool barrier) {
  for (const alg::Step& step : program) {
    if (barrier) api.step_barrier(step.tag);
    api.begin_step(step.tag);
    run_step(api, step);
    api.end_step(step.tag);
  }
}

}  // namespace wn::fw
