// Timing-free execution of a schedule (step-synchronous, in tag order): the
// ground truth that oracles are tested against, independent of the simulator.
#pragma once
#include <string>
#include <vector>

#include "algorithms/schedule.h"

namespace wn::alg {

// For each tag t: every node with a step t does its locals, then all those
// nodes read their sends' data, then every matching receive is applied.
std::vector<std::vector<Word>> reference_run(const Schedule& s);
// First word that differs from the oracle: "node N addr A: expected X got Y", or "". With
// `ranks` (group[r] = node of rank r) the node's rank is named too: "node N (rank R) addr A".
std::string check_memory(const Schedule& s, const std::vector<std::vector<Word>>& memory,
                         const std::vector<int>& ranks = {});

}  // namespace wn::alg
