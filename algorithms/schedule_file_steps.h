// Internal to the schedule-file reader: one rank's program, and the send/receive matching
// over all ranks (each endpoint keeps its JSON path for the error that names it).
#pragma once
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/schedule_file.h"
#include "algorithms/schedule_file_reader.h"

namespace wn::alg::file {

struct ProgramContext {
  int rank = 0;
  int ranks = 0;
  uint32_t memory_words = 0;
};

// One send or receive: (source rank, destination rank, tag, words) and where it is written.
struct Endpoint {
  int src = 0, dst = 0;
  uint32_t tag = 0;
  uint32_t words = 0;
  uint32_t step = 0;  // of the send or receive
  std::string path;
  std::tuple<int, int, uint32_t> key() const { return {src, dst, tag}; }
};

// `steps` of rank c.rank; appends its sends and receives; raises *max_step.
std::vector<Step> program(const Value& steps, const ProgramContext& c, std::vector<Endpoint>& sends,
                          std::vector<Endpoint>& recvs, uint32_t* max_step);
// Every send has one receive and the reverse, k-th to k-th with the same length.
void match(const std::string& file, std::vector<Endpoint>& sends, std::vector<Endpoint>& recvs);

}  // namespace wn::alg::file
