// Topologies: 2D/3D mesh, 2D/3D torus, binary d-cube. Node ids, router
// addresses (packed coordinates, rtl/README.md §3), port wiring and hop counts.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "systemc/core/router_types.h"

namespace wn {

// The largest cube:D (the router's radix and the flit's address bits bound it).
int max_cube_dims();

class Topology {
 public:
  // "mesh:8x8", "torus:4x4x4", "cube:6". Throws ConfigError(Param::topology, ...).
  static Topology parse(const std::string& spec);
  static Topology mesh(std::vector<int> k) { return Topology(TopoKind::Mesh, std::move(k)); }
  static Topology torus(std::vector<int> k) { return Topology(TopoKind::Torus, std::move(k)); }
  static Topology cube(int d);

  TopoKind kind() const { return kind_; }
  const std::vector<int>& radix() const { return k_; }  // k per dimension (2 per dim for a cube)
  int dims() const { return int(k_.size()); }
  int nodes() const { return nodes_; }
  int ports() const { return kind_ == TopoKind::Cube ? dims() : 2 * dims(); }  // network ports per router
  std::string name() const;
  std::string kind_name() const;

  std::vector<int> coords(int node) const;
  int node_at(const std::vector<int>& c) const;
  uint32_t address(int node) const { return addr_[node]; }
  int node_of_address(uint32_t addr) const;
  int address_bits() const { return addr_bits_; }

  // Neighbour reached through output port `port`, or -1 (mesh edge).
  int neighbor(int node, int port) const;
  // Input port of the neighbour that output port `port` feeds.
  int peer_port(int port) const { return kind_ == TopoKind::Cube ? port : (port ^ 1); }
  // Router-to-router hops of the route the routing function takes.
  int hops(int src, int dst) const;
  // Ordered list of routers visited from src to dst (inclusive).
  std::vector<int> path(int src, int dst) const;
  // The directed router-to-router channels the route takes: (router, output port).
  struct Link {
    int router;
    int port;
    bool operator<(const Link& o) const { return router != o.router ? router < o.router : port < o.port; }
    bool operator==(const Link& o) const { return router == o.router && port == o.port; }
  };
  std::vector<Link> links(int src, int dst) const;

  // Router configuration for `node` with the network-wide parameters of `base`.
  RouterConfig router_config(int node, const RouterConfig& base) const;

 private:
  Topology(TopoKind kind, std::vector<int> k);
  TopoKind kind_;
  std::vector<int> k_;
  std::vector<int> width_;
  int nodes_ = 0;
  int addr_bits_ = 0;
  std::vector<uint32_t> addr_;
  std::vector<int> node_of_addr_;
};

// Registry entry, for `wormnet list` and error messages.
struct TopologyKindInfo {
  const char* name;
  const char* syntax;
  const char* description;
};
const std::vector<TopologyKindInfo>& topology_kinds();

}  // namespace wn
