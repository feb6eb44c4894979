// The oracle of a schedule file: initial memory and the words checked after the run, from its
// `collective` claim (the layout table of docs/schedule-format.md), its explicit `initial` /
// `expected` words, or, with neither claim nor expected words, its ideal execution.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "algorithms/schedule_file.h"

namespace wn::alg {

// Every word of every rank starts as a distinct pseudo-random value of (seed, rank, address):
// a keyed bijection of the word's global index, so no two words are equal (N x memory < 2^32).
Word pattern_word(uint64_t seed, int rank, uint32_t addr, uint32_t memory_words);

struct FileOracle {
  std::function<Word(int rank, uint32_t addr)> initial;
  std::function<std::optional<Word>(int rank, uint32_t addr)> expected;
  std::string description;  // "broadcast of 8 words from rank 0 (the file's collective)", ...
};

// Ranks at or beyond f.ranks (a group larger than the file) are idle: checked unchanged.
// Throws ConfigError(f.path, ...) when an expected word contradicts the collective's oracle.
FileOracle file_oracle(const ScheduleFile& f, uint64_t seed);

}  // namespace wn::alg
