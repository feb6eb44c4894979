// Router configurations for single-router tests: a mesh/torus router at
// given coordinates, a cube router, and packed addresses (rtl/README.md §3).
#pragma once
#include <cstdint>
#include <vector>

#include "systemc/router/router_unit.h"

namespace wn::test {

inline int bits_for(int k) {
  int w = 0;
  while ((1 << w) < k) ++w;
  return w;
}

// Mesh or torus router with radix k per dimension, at coordinates c.
inline RouterConfig grid(TopoKind kind, std::vector<int> k, std::vector<int> c, int vcs = 2, int buf = 8) {
  RouterConfig cfg;
  cfg.kind = kind;
  cfg.ndims = int(k.size());
  cfg.ports = 2 * cfg.ndims;
  cfg.vcs = vcs;
  cfg.buf = buf;
  cfg.inj = cfg.ej = 1;
  uint32_t addr = 0;
  int lsb = 0;
  for (int i = 0; i < cfg.ndims; ++i) {
    cfg.k[i] = k[size_t(i)];
    cfg.width[i] = bits_for(cfg.k[i]);
    addr |= uint32_t(c[size_t(i)]) << lsb;
    lsb += cfg.width[i];
  }
  cfg.addr = addr;
  return cfg;
}

// Packed address of coordinates c in cfg's address fields.
inline uint32_t pack(const RouterConfig& cfg, std::vector<int> c) {
  uint32_t a = 0;
  int lsb = 0;
  for (int i = 0; i < cfg.ndims; ++i) {
    a |= uint32_t(c[size_t(i)]) << lsb;
    lsb += cfg.width[i];
  }
  return a;
}

inline RouterConfig cube(int d, uint32_t addr, int vcs = 2) {
  RouterConfig cfg;
  cfg.kind = TopoKind::Cube;
  cfg.ndims = d;
  cfg.ports = d;
  cfg.vcs = vcs;
  cfg.buf = 8;
  cfg.inj = cfg.ej = 1;
  cfg.addr = addr;
  return cfg;
}

}  // namespace wn::test
