// The words the built-in schedules put in node memory, shared by every family: a payload word
// encodes (owner rank, block, offset), distinct over the machine for N*N*M < 2^30, so a data
// check names the word that went astray; a scratch word is garbage the operation must overwrite.
#pragma once
#include <cstdint>

#include "algorithms/schedule.h"

namespace wn::alg {

inline Word data_word(int rank, uint32_t block, uint32_t offset, int nranks, uint32_t words) {
  return 0x40000000u + (uint32_t(rank) * uint32_t(nranks) + block) * words + offset;
}
// A distinct "garbage" word for memory that the operation must overwrite.
inline Word scratch_word(int rank, uint32_t addr) { return 0xc0000000u ^ (uint32_t(rank) << 20) ^ addr; }

}  // namespace wn::alg
