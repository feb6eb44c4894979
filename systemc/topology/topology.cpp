#include "systemc/topology/topology.h"

#include <fmt/format.h>

#include <sstream>

#include "systemc/core/config_error.h"
#include "systemc/core/flit.h"
#include "systemc/core/router_types.h"
#include "systemc/topology/route_function.h"

namespace wn {

namespace {
// The flit's dest and src fields (rtl/wn_pkg.sv) hold one packed address each.
constexpr int kMaxAddressBits = layout::WN_DEST_W;
static_assert(layout::WN_SRC_W == layout::WN_DEST_W, "src and dest carry the same addresses");
// A cube:D router has D network ports: the largest verilated radix bounds D, and so does the address.
constexpr int kMaxCubeDims = kMaxPorts < kMaxAddressBits ? kMaxPorts : kMaxAddressBits;
// The texts below spell the limits out so that `wormnet list` can show them as constants.
#define WN_STR2(x) #x
#define WN_STR(x) WN_STR2(x)
#define WN_CUBE_DIMS 14
static_assert(kMaxCubeDims == WN_CUBE_DIMS, "WN_CUBE_DIMS is kMaxCubeDims, for the texts");
int bits_for(int k) {
  int w = 0;
  while ((1 << w) < k) ++w;
  return w;
}
const char* kAllowed =
    "mesh:AxB, mesh:AxBxC, torus:AxB, torus:AxBxC (each k >= 2), cube:D (D = 1.." WN_STR(WN_CUBE_DIMS) ")";
// The largest 2D and 3D networks of `bits` address bits, as examples in a message.
std::string largest(int bits) {
  return fmt::format("{}x{}, {}x{}x{}", 1 << (bits - bits / 2), 1 << (bits / 2), 1 << ((bits + 2) / 3),
                     1 << ((bits + 1) / 3), 1 << (bits / 3));
}
}  // namespace

int max_cube_dims() { return kMaxCubeDims; }

const std::vector<TopologyKindInfo>& topology_kinds() {
  static const std::vector<TopologyKindInfo> kinds = {
      {"mesh", "mesh:AxB | mesh:AxBxC", "2D/3D mesh, dimension-order routing (X, then Y, then Z)"},
      {"torus", "torus:AxB | torus:AxBxC",
       "2D/3D torus, shortest direction per dimension (ties +), dateline VC classes"},
      {"cube", "cube:D",
       "binary D-cube (D = 1.." WN_STR(WN_CUBE_DIMS) "), e-cube routing (lowest differing bit first)"},
  };
  return kinds;
}

Topology Topology::cube(int d) {
  if (d < 1 || d > kMaxCubeDims)
    throw ConfigError(Param::topology, fmt::format("cube:{} has D out of range; allowed: D = 1..{}", d, kMaxCubeDims));
  return Topology(TopoKind::Cube, std::vector<int>(size_t(d), 2));
}

Topology Topology::parse(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos)
    throw ConfigError(Param::topology, fmt::format("'{}' is not a topology; allowed: {}", spec, kAllowed));
  const std::string kind = spec.substr(0, colon), dims = spec.substr(colon + 1);
  auto to_int = [&](const std::string& s) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 5)
      throw ConfigError(Param::topology, fmt::format("'{}' has a bad size '{}'; allowed: {}", spec, s, kAllowed));
    return std::stoi(s);
  };
  if (kind == "cube") return cube(to_int(dims));
  if (kind != "mesh" && kind != "torus")
    throw ConfigError(Param::topology, fmt::format("unknown kind '{}'; allowed: {}", kind, kAllowed));
  std::vector<int> k;
  // Split keeping empty parts, so "4x4x" and "4xx4" are refused rather than read as 4x4.
  for (size_t from = 0;;) {
    const size_t x = dims.find('x', from);
    k.push_back(to_int(dims.substr(from, x == std::string::npos ? std::string::npos : x - from)));
    if (x == std::string::npos) break;
    from = x + 1;
  }
  if (k.size() != 2 && k.size() != 3)
    throw ConfigError(Param::topology, fmt::format("'{}' must have 2 or 3 dimensions; allowed: {}", spec, kAllowed));
  for (int ki : k)
    if (ki < 2) throw ConfigError(Param::topology, fmt::format("'{}' has k = {} < 2; allowed: {}", spec, ki, kAllowed));
  return Topology(kind == "mesh" ? TopoKind::Mesh : TopoKind::Torus, k);
}

Topology::Topology(TopoKind kind, std::vector<int> k) : kind_(kind), k_(std::move(k)) {
  nodes_ = 1;
  for (int ki : k_) {
    width_.push_back(bits_for(ki));
    addr_bits_ += width_.back();
    nodes_ *= ki;
  }
  if (addr_bits_ > kMaxAddressBits)
    throw ConfigError(
        Param::topology,
        fmt::format("{} needs {} address bits, the flit's dest/src fields carry {} (at most "
                    "{} nodes, e.g. {} or cube:{}); use fewer nodes",
                    name(), addr_bits_, kMaxAddressBits, 1 << kMaxAddressBits, largest(kMaxAddressBits), kMaxCubeDims));
  addr_.resize(size_t(nodes_));
  node_of_addr_.assign(size_t(1) << addr_bits_, -1);
  for (int n = 0; n < nodes_; ++n) {
    const auto c = coords(n);
    uint32_t a = 0;
    int lsb = 0;
    for (int i = 0; i < dims(); ++i) {
      a |= uint32_t(c[size_t(i)]) << lsb;
      lsb += width_[size_t(i)];
    }
    addr_[size_t(n)] = a;
    node_of_addr_[a] = n;
  }
}

std::string Topology::kind_name() const {
  return kind_ == TopoKind::Mesh ? "mesh" : kind_ == TopoKind::Torus ? "torus" : "cube";
}

std::string Topology::name() const {
  if (kind_ == TopoKind::Cube) return fmt::format("cube:{}", dims());
  return fmt::format("{}:{}", kind_name(), fmt::join(k_, "x"));
}

std::vector<int> Topology::coords(int node) const {
  std::vector<int> c(k_.size());
  for (size_t i = 0; i < k_.size(); ++i) {
    c[i] = node % k_[i];
    node /= k_[i];
  }
  return c;
}

int Topology::node_at(const std::vector<int>& c) const {
  int n = 0;
  for (size_t i = k_.size(); i-- > 0;) n = n * k_[i] + c[i];
  return n;
}

int Topology::node_of_address(uint32_t addr) const { return addr < node_of_addr_.size() ? node_of_addr_[addr] : -1; }

int Topology::neighbor(int node, int port) const {
  if (port < 0 || port >= ports()) return -1;
  if (kind_ == TopoKind::Cube) return node ^ (1 << port);
  auto c = coords(node);
  const int dim = port / 2, k = k_[size_t(dim)];
  int& x = c[size_t(dim)];
  const bool plus = (port % 2) == 0;
  if (kind_ == TopoKind::Mesh) {
    if (plus ? x == k - 1 : x == 0) return -1;
    x += plus ? 1 : -1;
  } else {
    x = (x + (plus ? 1 : k - 1)) % k;
  }
  return node_at(c);
}

RouterConfig Topology::router_config(int node, const RouterConfig& base) const {
  RouterConfig cfg = base;
  cfg.ports = ports();
  cfg.kind = kind_;
  cfg.ndims = dims();
  for (int i = 0; i < kMaxDims; ++i) {
    const bool used = kind_ != TopoKind::Cube && i < dims();
    cfg.k[i] = used ? k_[size_t(i)] : 2;
    cfg.width[i] = used ? width_[size_t(i)] : 1;
  }
  cfg.addr = addr_[size_t(node)];
  return cfg;
}

std::vector<Topology::Link> Topology::links(int src, int dst) const {
  RouterConfig base;
  base.vcs = 2;  // the route does not depend on VCs; two keep torus classes legal
  std::vector<Link> out;
  int at = src, in_port = -1, in_vc = 0;
  for (int guard = 0; guard <= nodes_ * 3; ++guard) {
    const Route r = route(router_config(at, base), addr_[size_t(dst)], in_port, in_vc);
    if (r.eject) return out;
    out.push_back({at, r.out});
    in_port = peer_port(r.out);
    in_vc = r.vc_lo;
    at = neighbor(at, r.out);
  }
  return out;  // unreachable for a correct routing function
}

std::vector<int> Topology::path(int src, int dst) const {
  std::vector<int> p{src};
  for (const Link& l : links(src, dst)) p.push_back(neighbor(l.router, l.port));
  return p;
}

int Topology::hops(int src, int dst) const { return int(path(src, dst).size()) - 1; }

}  // namespace wn
