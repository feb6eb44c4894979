// FirmwareNode's local work (firmware_node.h): computing, copies and combines in its memory, and
// what they cost on the processor and, with a memory port, in memory accesses.
#include <fmt/format.h>

#include <algorithm>

#include "firmware/firmware_node.h"
#include "systemc/core/config_error.h"

namespace wn::fw {

void FirmwareNode::local_cycles(uint64_t n, LocalKind kind, uint64_t words, uint64_t accesses) {
  const uint64_t start = now();
  if (!ni.memory_modelled()) accesses = 0;
  if (accesses) {
    memory_wait_ = true;
    ni.memory_local(accesses);
  }
  wait_cycles(n);
  while (memory_wait_) {
    blocked_ = true;
    waiting_for_ = "the memory port (a local operation's accesses)";
    wait(memory_ev_);
  }
  blocked_ = false;
  waiting_for_.clear();
  if (timeline_ && now() > start)
    local_.push_back({start, now(), uint32_t(std::min<uint64_t>(words, UINT32_MAX)), kind});
}

uint64_t FirmwareNode::whole_cycles(double work) { return uint64_t(alg::whole_cycles(work, work_fraction_)); }

void FirmwareNode::compute(uint64_t cycles) { local_cycles(cycles, LocalKind::Compute, 0); }
void FirmwareNode::compute_indices(uint64_t words, uint64_t ops) {
  local_cycles(whole_cycles(alg::index_cost(words, ops, profile_.index_setup_cycles, profile_.index_op_cycles,
                                            profile_.index_cycles_per_word)),
               LocalKind::Index, words);
}

void FirmwareNode::store(const std::vector<Word>& words, const std::vector<Range>& dst, const Combine& c) {
  put(words, dst, c, 0);
}

void FirmwareNode::put(const std::vector<Word>& words, const std::vector<Range>& dst, const Combine& c,
                       double reorder_per_word) {
  const uint32_t n = alg::total_words(dst);
  if (n != words.size())
    throw ConfigError("firmware",
                      fmt::format("node {}: message of {} words stored into {} words", node_, words.size(), n));
  size_t i = 0;
  for (const Range& r : dst) {
    if (r.end() > memory_.size())
      throw ConfigError("firmware", fmt::format("node {}: store to [{}, +{}) outside memory of {} words", node_,
                                                r.offset, r.count, memory_.size()));
    for (uint32_t k = 0; k < r.count; ++k) memory_[r.at(k)] = alg::apply(c, memory_[r.at(k)], words[i++]);
  }
  const bool copy = c.op == alg::kCopy;
  const alg::LocalCost cost =
      alg::local_cost(n, copy, profile_.copy_cycles_per_word, profile_.combine_cycles_per_word, reorder_per_word);
  local_cycles(whole_cycles(cost.per_word * n), copy ? LocalKind::Copy : LocalKind::Combine, n, cost.accesses);
}

void FirmwareNode::combine(const std::vector<Range>& src, const std::vector<Range>& dst, const Combine& c) {
  for (const Range& r : src)
    if (r.end() > memory_.size())
      throw ConfigError("firmware", fmt::format("node {}: read of [{}, +{}) outside memory of {} words", node_,
                                                r.offset, r.count, memory_.size()));
  put(gather(src), dst, c, profile_.reorder_cycles_per_word);
}

}  // namespace wn::fw
