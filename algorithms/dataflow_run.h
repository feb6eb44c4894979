// The ideal execution of per-rank programs: every send buffered and delivered intact at once,
// each rank running its steps as data allows (the interpreter's order: locals, sends, receives
// as their messages exist, after-ops). Unlike reference_run (all ranks in step lockstep), a
// receive may wait for a message its sender sends in a later step: this is what a schedule
// file means, and its oracle when it declares none.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/schedule.h"

namespace wn::alg {

// A rank that can never finish: the first receive it waits on, and the chain of waits.
struct DataflowStall {
  int rank = 0;
  size_t step_index = 0, recv_index = 0;  // in rank's program, in that step's recvs
  int src = 0;
  uint32_t tag = 0;
  std::string cycle;  // "rank 3 step 1 <- rank 5 step 2 <- rank 3"
};

std::optional<DataflowStall> dataflow_stall(const std::vector<std::vector<Step>>& programs);

// Final memory of every rank (programs.size() ranks of memory_words words). Precondition: no stall.
std::vector<std::vector<Word>> dataflow_memory(const std::vector<std::vector<Step>>& programs, uint32_t memory_words,
                                               const std::function<Word(int rank, uint32_t addr)>& initial);

}  // namespace wn::alg
