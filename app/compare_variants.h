// The variants `wormnet compare` runs (app/compare_variants.cpp): one per built-in algorithm and
// value of each family flag given as a list, per schedule file and per firmware plugin.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "experiments/collective_run.h"

namespace wn::cli {

// --bytes as a list of message sizes (multiples of 4).
std::vector<uint32_t> parse_bytes(const std::string& text);

// One algorithm as run: a built-in with one value of each family flag given as a list
// (--ccl-alg butterfly,reduce-bcast; --radix 2,8,64), labelled "algorithm/value/...", or a file.
struct Variant {
  std::string label, algo, file;
  std::map<std::string, std::string> options;
  std::string firmware;  // a plugin LIB[:ENTRY]: runs at every size and source, as a built-in
};

// One port model under one node memory port rate: a row label ("all", or "all mem=2" when
// --mem-words-per-cycle lists several rates; mem=all: unlimited, rate 0).
struct PortRow {
  std::string label, ports;
  double mem_words = 0;
};
std::vector<PortRow> port_rows_of(const std::vector<std::string>& port_models, const std::vector<double>& mems);

std::vector<Variant> variants_of(const fw::ScheduleRunOptions& base, const std::vector<std::string>& algos,
                                 const std::vector<std::string>& files, const std::vector<std::string>& plugins);

}  // namespace wn::cli
