#include "systemc/topology/channel_dependency.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "systemc/topology/route_function.h"

namespace wn {

namespace {

std::string port_name(const Topology& topo, int port) {
  if (topo.kind() == TopoKind::Cube) return fmt::format("d{}", port);
  return fmt::format("{}{}", port % 2 ? '-' : '+', "xyz"[port / 2]);
}

}  // namespace

DependencyGraph channel_dependencies(const Topology& topo, const RouterConfig& base) {
  const int n = topo.nodes(), P = topo.ports(), V = base.vcs;
  auto id = [&](int r, int p, int v) { return (size_t(r) * size_t(P) + size_t(p)) * size_t(V) + size_t(v); };
  const size_t nch = size_t(n) * size_t(P) * size_t(V);
  std::vector<std::vector<uint32_t>> adj(nch);
  std::vector<char> used(nch, 0);
  std::vector<RouterConfig> cfg;
  for (int r = 0; r < n; ++r) cfg.push_back(topo.router_config(r, base));
  DependencyGraph g;
  // Walk every destination's routes from every source: a state is (router, input port, input VC);
  // `held` is the channel that delivered the head there (none at the source).
  std::vector<char> seen;
  for (int d = 0; d < n; ++d) {
    seen.assign(size_t(n) * size_t(P + 1) * size_t(V), 0);
    std::vector<std::tuple<int, int, int>> stack;  // (router, in_port or -1, in_vc)
    for (int s = 0; s < n; ++s)
      if (s != d) stack.emplace_back(s, -1, 0);
    while (!stack.empty()) {
      const auto [r, in_port, in_vc] = stack.back();
      stack.pop_back();
      const size_t key = (size_t(r) * size_t(P + 1) + size_t(in_port + 1)) * size_t(V) + size_t(in_vc);
      if (seen[key]) continue;
      seen[key] = 1;
      ++g.states;
      const Route rt = route(cfg[size_t(r)], topo.address(d), in_port, in_vc);
      if (rt.eject) continue;
      const int next = topo.neighbor(r, rt.out);
      for (int v = rt.vc_lo; v <= rt.vc_hi; ++v) {
        const size_t c = id(r, rt.out, v);
        used[c] = 1;
        if (in_port >= 0) {  // the channel it holds: the upstream router's output into r
          const int up = topo.neighbor(r, in_port);
          adj[id(up, topo.peer_port(in_port), in_vc)].push_back(uint32_t(c));
        }
        stack.emplace_back(next, topo.peer_port(rt.out), v);
      }
    }
  }
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    g.edges += a.size();
  }
  g.channels = uint64_t(std::count(used.begin(), used.end(), 1));
  // Iterative DFS with colours; the first back edge closes a cycle.
  std::vector<char> colour(nch, 0);  // 0 new, 1 on the stack, 2 done
  std::vector<uint32_t> parent(nch, UINT32_MAX);
  for (size_t s = 0; s < nch && g.acyclic; ++s) {
    if (colour[s] || adj[s].empty()) continue;
    std::vector<std::pair<uint32_t, size_t>> st{{uint32_t(s), 0}};
    colour[s] = 1;
    while (!st.empty() && g.acyclic) {
      auto& [u, i] = st.back();
      if (i == adj[u].size()) {
        colour[u] = 2;
        st.pop_back();
        continue;
      }
      const uint32_t w = adj[u][i++];
      if (colour[w] == 1) {  // back edge u -> w: the cycle is w ... u
        g.acyclic = false;
        std::vector<uint32_t> c;
        for (uint32_t x = u; x != w; x = parent[x]) c.push_back(x);
        c.push_back(w);
        std::reverse(c.begin(), c.end());
        for (uint32_t x : c)
          g.cycle.push_back(
              {int(x / uint32_t(V) / uint32_t(P)), int(x / uint32_t(V) % uint32_t(P)), int(x % uint32_t(V))});
      } else if (colour[w] == 0) {
        colour[w] = 1;
        parent[w] = u;
        st.emplace_back(w, 0);
      }
    }
  }
  return g;
}

std::string describe_cycle(const Topology& topo, const std::vector<VirtualChannel>& cycle, size_t max_shown) {
  std::string s;
  for (size_t i = 0; i < cycle.size() && i < max_shown; ++i)
    s += fmt::format("{}r{} {} vc{}", i ? " -> " : "", cycle[i].router, port_name(topo, cycle[i].port), cycle[i].vc);
  if (cycle.size() > max_shown) s += fmt::format(" -> ... ({} channels)", cycle.size());
  if (!cycle.empty()) s += fmt::format(" -> r{} {} vc{}", cycle[0].router, port_name(topo, cycle[0].port), cycle[0].vc);
  return s;
}

}  // namespace wn
