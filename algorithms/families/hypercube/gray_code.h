// Binary-reflected Gray code and the bookkeeping of Mathur & Johnsson:
// G(x) = x ^ (x >> 1), its inverse (prefix XOR), the transition sequence
// t_u = ctz(u + 1) (the dimension G(u) and G(u+1) differ in), and the left
// cyclic shift sh^i of a d-bit address.
#pragma once
#include <cstdint>

namespace wn::alg::gray {

constexpr uint32_t code(uint32_t x) { return x ^ (x >> 1); }
constexpr uint32_t inverse(uint32_t g) {
  uint32_t x = g;
  for (uint32_t s = g >> 1; s; s >>= 1) x ^= s;
  return x;
}
constexpr int transition(uint32_t u) { return __builtin_ctz(u + 1); }
// Left cyclic shift of the d-bit string x by i places: sh^i(e_k) = e_{(k+i) mod d}.
constexpr uint32_t rotl(uint32_t x, int i, int d) {
  i %= d;
  const uint32_t mask = (d >= 32) ? ~0u : ((1u << d) - 1);
  return i == 0 ? (x & mask) : (((x << i) | (x >> (d - i))) & mask);
}

}  // namespace wn::alg::gray
