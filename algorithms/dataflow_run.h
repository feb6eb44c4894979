// The ideal execution of per-rank programs: every send buffered and delivered intact at once,
// each rank running its steps as data allows (the interpreter's order: locals, sends, receives
// as their messages exist, after-ops). Unlike reference_run (all ranks in step lockstep), a
// receive completes as soon as its message exists, so a rank's steps need not be aligned with
// its partners': this is what a schedule file means, and its oracle when it declares none.
#pragma once
#include <functional>
#include <vector>

#include "algorithms/schedule.h"

namespace wn::alg {

// Final memory of every rank (programs.size() ranks of memory_words words). The reader's rules
// (every receive in its send's step or later) guarantee the programs complete.
std::vector<std::vector<Word>> dataflow_memory(const std::vector<std::vector<Step>>& programs, uint32_t memory_words,
                                               const std::function<Word(int rank, uint32_t addr)>& initial);

}  // namespace wn::alg
