// All randomness flows from one user seed (printed, settable): each consumer
// derives its own stream with derive_seed(seed, stream) so results do not
// depend on the order consumers draw in.
#pragma once
#include <cstdint>
#include <random>

namespace wn {

constexpr uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
constexpr uint64_t derive_seed(uint64_t seed, uint64_t stream) { return splitmix64(seed ^ splitmix64(stream + 1)); }

using Rng = std::mt19937_64;

// Uniform integer in [0, n) without std::uniform_int_distribution, whose
// algorithm differs between standard libraries (we promise identical JSON).
inline uint64_t uniform_below(Rng& rng, uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % n;
}
// Uniform double in [0, 1) from 53 random bits (portable).
inline double uniform01(Rng& rng) { return double(rng() >> 11) * (1.0 / 9007199254740992.0); }

}  // namespace wn
