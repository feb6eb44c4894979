#include "systemc/cosim/patterns.h"

#include <fmt/format.h>

#include "systemc/core/config_error.h"
#include "systemc/core/registry.h"

namespace wn {

namespace {

// A pattern that is a fixed permutation-like map computed once per node.
class TablePattern : public TrafficPattern {
 public:
  explicit TablePattern(std::vector<int> table) : table_(std::move(table)) {}
  int dest(int src, Rng&) const override { return table_[size_t(src)] == src ? -1 : table_[size_t(src)]; }

 private:
  std::vector<int> table_;
};

class UniformPattern : public TrafficPattern {
 public:
  explicit UniformPattern(int nodes) : nodes_(nodes) {}
  int dest(int src, Rng& rng) const override {
    if (nodes_ < 2) return -1;
    const int d = int(uniform_below(rng, uint64_t(nodes_ - 1)));
    return d >= src ? d + 1 : d;  // uniform over the other nodes
  }

 private:
  int nodes_;
};

class HotspotPattern : public TrafficPattern {
 public:
  HotspotPattern(int nodes, PatternOptions opt) : uniform_(nodes), opt_(opt) {}
  int dest(int src, Rng& rng) const override {
    if (uniform01(rng) < opt_.hotspot_fraction && src != opt_.hotspot_node) return opt_.hotspot_node;
    return uniform_.dest(src, rng);
  }

 private:
  UniformPattern uniform_;
  PatternOptions opt_;
};

template <typename F>
std::unique_ptr<TrafficPattern> table(const Topology& t, F&& f) {
  std::vector<int> tab(size_t(t.nodes()));
  for (int n = 0; n < t.nodes(); ++n) tab[size_t(n)] = f(n);
  return std::make_unique<TablePattern>(std::move(tab));
}

int log2_exact(int n) {
  int b = 0;
  while ((1 << b) < n) ++b;
  return (1 << b) == n ? b : -1;
}

[[noreturn]] void unsupported(const std::string& pattern, const Topology& t, const std::string& why) {
  throw ConfigError(Param::pattern, fmt::format("{} is not defined on {}: {}; allowed: another pattern (wormnet list)",
                                                pattern, t.name(), why));
}

}  // namespace

const std::vector<PatternInfo>& traffic_patterns() {
  static const std::vector<PatternInfo> patterns = {
      {"uniform", "uniform random over the other nodes",
       [](const Topology& t, const PatternOptions&) { return std::make_unique<UniformPattern>(t.nodes()); }},
      {"transpose", "(x,y)->(y,x); 3D rotates (x,y,z)->(y,z,x); cube swaps address halves (even d)",
       [](const Topology& t, const PatternOptions&) {
         if (t.kind() == TopoKind::Cube) {
           const int d = t.dims();
           if (d % 2) unsupported("transpose", t, "needs an even cube dimension");
           const int h = d / 2, lo = (1 << h) - 1;
           return table(t, [&](int n) { return ((n & lo) << h) | (n >> h); });
         }
         for (int k : t.radix())
           if (k != t.radix()[0]) unsupported("transpose", t, "needs equal k in every dimension");
         return table(t, [&](int n) {
           auto c = t.coords(n);
           std::vector<int> r(c.size());
           for (size_t i = 0; i < c.size(); ++i) r[i] = c[(i + 1) % c.size()];
           return t.node_at(r);
         });
       }},
      {"bitcomp", "bit complement: every coordinate c -> k-1-c (cube: complement the address)",
       [](const Topology& t, const PatternOptions&) {
         return table(t, [&](int n) {
           auto c = t.coords(n);
           for (size_t i = 0; i < c.size(); ++i) c[i] = t.radix()[i] - 1 - c[i];
           return t.node_at(c);
         });
       }},
      {"bitrev", "bit reversal of the node id (needs a power-of-two node count)",
       [](const Topology& t, const PatternOptions&) {
         const int b = log2_exact(t.nodes());
         if (b < 0) unsupported("bitrev", t, "needs a power-of-two node count");
         return table(t, [&](int n) {
           int r = 0;
           for (int i = 0; i < b; ++i) r |= ((n >> i) & 1) << (b - 1 - i);
           return r;
         });
       }},
      {"tornado", "every coordinate c -> (c + (k-1)/2) mod k (mesh/torus)",
       [](const Topology& t, const PatternOptions&) {
         if (t.kind() == TopoKind::Cube) unsupported("tornado", t, "needs a mesh or torus (k >= 3)");
         // (k-1)/2 = 0 for k = 2: every node would send to itself, i.e. nothing at all.
         for (int k : t.radix())
           if (k < 3) unsupported("tornado", t, "needs k >= 3 in every dimension (k = 2 sends nothing)");
         return table(t, [&](int n) {
           auto c = t.coords(n);
           for (size_t i = 0; i < c.size(); ++i) c[i] = (c[i] + (t.radix()[i] - 1) / 2) % t.radix()[i];
           return t.node_at(c);
         });
       }},
      {"neighbor", "every coordinate c -> (c + 1) mod k (cube: flip address bit 0)",
       [](const Topology& t, const PatternOptions&) {
         return table(t, [&](int n) {
           auto c = t.coords(n);
           if (t.kind() == TopoKind::Cube) return n ^ 1;
           for (size_t i = 0; i < c.size(); ++i) c[i] = (c[i] + 1) % t.radix()[i];
           return t.node_at(c);
         });
       }},
      {"hotspot", "a fraction (--hotspot-fraction) of packets to --hotspot-node, the rest uniform",
       [](const Topology& t, const PatternOptions& o) {
         if (o.hotspot_node < 0 || o.hotspot_node >= t.nodes())
           throw ConfigError(Param::hotspot_node,
                             fmt::format("{} is not a node; allowed: 0..{}", o.hotspot_node, t.nodes() - 1));
         if (!(o.hotspot_fraction >= 0 && o.hotspot_fraction <= 1))
           throw ConfigError(Param::hotspot_fraction, "allowed: 0..1");
         return std::unique_ptr<TrafficPattern>(std::make_unique<HotspotPattern>(t.nodes(), o));
       }},
  };
  return patterns;
}

std::unique_ptr<TrafficPattern> make_pattern(const std::string& name, const Topology& topo, const PatternOptions& opt) {
  return find_by_name(traffic_patterns(), name, Param::pattern, "pattern").make(topo, opt);
}

}  // namespace wn
