// Synthesized schedules as files: what `wormnet synth --out` writes, what
// `--algorithm synth-broadcast --schedule F` reads, and the cache entries.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "algorithms/synth/synth.h"
#include "systemc/core/cache_dir.h"
#include "systemc/core/config_error.h"

namespace wn::alg::synth {

namespace {
const char* name_of(Collective c) { return c == Collective::Broadcast ? "broadcast" : "reduce"; }
}  // namespace

std::string to_json(const Topology& topo, const Request& req, const Result& r) {
  nlohmann::json j;
  j["schema"] = "wormnet.synth/1";
  j["topology"] = topo.name();
  j["collective"] = name_of(req.collective);
  j["source"] = req.source;
  j["ports"] = req.ports;
  j["max_hops"] = req.max_hops;
  j["avoid"] = req.avoid;
  j["found"] = r.found;
  j["steps"] = r.steps;
  j["optimal"] = r.optimal;
  j["lower_bound"] = r.lower_bound;
  j["total_hops"] = r.total_hops;
  j["hops_minimised"] = req.min_total_hops;
  j["hops_optimal"] = r.hops_optimal;
  nlohmann::json m = nlohmann::json::array();
  for (const Message& x : r.messages) m.push_back({x.step, x.from, x.to});
  j["messages"] = m;
  nlohmann::json a = nlohmann::json::array();
  auto centi = [](double s) { return double(int64_t(s * 100 + 0.5)) / 100; };  // the solver's noise is larger
  for (const Attempt& x : r.attempts)
    a.push_back({{"steps", x.steps},
                 {"result", x.result},
                 {"vars", x.vars},
                 {"clauses", x.clauses},
                 {"encode_seconds", centi(x.encode_seconds)},
                 {"solve_seconds", centi(x.seconds)},
                 {"max_total_hops", x.max_total_hops}});
  j["attempts"] = a;
  j["candidates"] = r.candidates;
  j["symmetries"] = r.symmetries;
  j["build_seconds"] = centi(r.build_seconds);
  return j.dump(1) + "\n";
}

namespace {

// A JSON integer in [lo, hi], checked before any conversion (a float, 1e30 or a string is refused,
// never converted).
int64_t integer(const nlohmann::json& v, int64_t lo, int64_t hi, const std::string& what) {
  if (!v.is_number_integer()) throw std::invalid_argument(what + " is not an integer");
  const bool in = v.is_number_unsigned() ? v.get<uint64_t>() <= uint64_t(hi) && int64_t(v.get<uint64_t>()) >= lo
                                         : v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
  if (!in) throw std::invalid_argument(fmt::format("{} is outside {}..{}", what, lo, hi));
  return v.get<int64_t>();
}

bool boolean(const nlohmann::json& v, const std::string& what) {
  if (!v.is_boolean()) throw std::invalid_argument(what + " is not true or false");
  return v.get<bool>();
}

const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw std::invalid_argument(std::string("no \"") + key + "\"");
  return j.at(key);
}

}  // namespace

std::string invalid(const Topology& topo, const Request& req, const Result& r) {
  if (!r.found) return "no schedule found";
  const int n = topo.nodes();
  const bool bcast = req.collective == Collective::Broadcast;
  std::vector<bool> avoided(size_t(n), false);
  for (int v : req.avoid) avoided[size_t(v)] = true;
  int live = 0;
  for (int v = 0; v < n; ++v) live += !avoided[size_t(v)];
  if (int(r.messages.size()) != live - 1)
    return fmt::format("{} messages for {} nodes (every node but the root receives once)", r.messages.size(), live);
  // In the broadcast's orientation: step t' = steps-1-t, the parent sends to the child.
  std::vector<int> got(size_t(n), -1);  // the step a node received in (-1: not yet; the root: before step 0)
  got[size_t(req.source)] = -1;
  std::vector<Message> b;
  for (const Message& m : r.messages) b.push_back(bcast ? m : Message{r.steps - 1 - m.step, m.to, m.from});
  std::vector<int> order(b.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return b[size_t(x)].step < b[size_t(y)].step; });
  std::vector<bool> holds(size_t(n), false);
  holds[size_t(req.source)] = true;
  std::map<std::pair<int, int>, int> sends;                  // (step, sender) -> messages
  std::map<std::pair<int, Topology::Link>, int> on_channel;  // (step, channel) -> messages
  for (int i : order) {
    const Message& m = b[size_t(i)];
    if (avoided[size_t(m.from)] || avoided[size_t(m.to)])
      return fmt::format("message {} -> {} touches an avoided node", m.from, m.to);
    if (m.to == req.source || got[size_t(m.to)] >= 0) return fmt::format("node {} receives twice", m.to);
    if (!holds[size_t(m.from)] || (m.from != req.source && got[size_t(m.from)] >= m.step))
      return fmt::format("node {} sends in step {} before it holds the message", m.from, m.step);
    if (++sends[{m.step, m.from}] > req.ports)
      return fmt::format("node {} sends more than {} messages in step {}", m.from, req.ports, m.step);
    // The route the message takes: parent -> child (broadcast), child -> parent (reduction).
    const int a = bcast ? m.from : m.to, z = bcast ? m.to : m.from;
    const std::vector<int> path = topo.path(a, z);
    if (req.max_hops && int(path.size()) - 1 > req.max_hops)
      return fmt::format("message {} -> {} is longer than {} {}", a, z, param_ref(Param::max_hops), req.max_hops);
    for (int v : path)
      if (avoided[size_t(v)]) return fmt::format("message {} -> {} passes avoided node {}", a, z, v);
    for (const auto& l : topo.links(a, z))
      if (++on_channel[{m.step, l}] > 1) return fmt::format("two messages of step {} share a channel", m.step);
    got[size_t(m.to)] = m.step;
    holds[size_t(m.to)] = true;
  }
  return "";
}

Result from_json(const std::string& text, const Topology& topo, Request* req) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  auto bad = [](const std::string& why) { return ConfigError(Param::schedule, why); };
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != "wormnet.synth/1")
    throw bad(
        fmt::format("not a wormnet.synth/1 file; allowed: a file `wormnet synth {}` wrote", param_ref(Param::out)));
  if (j.value("topology", "") != topo.name())
    throw bad(fmt::format("the schedule is for {}, the run is on {}; allowed: {} {}", j.value("topology", "?"),
                          topo.name(), param_ref(Param::topology), j.value("topology", "?")));
  const int n = topo.nodes();
  Result r;
  Request q;
  try {
    // Every number is range-checked before it is converted (a float, 1e30 or a negative count is
    // refused); found schedules must then obey every constraint (invalid()).
    // `wormnet synth` writes found schedules only: anything else is damaged.
    r.found = boolean(field(j, "found"), "found");
    if (!r.found) throw std::invalid_argument("found is false: no schedule in it");
    r.steps = int(integer(field(j, "steps"), 1, std::max(1, n - 1), "steps"));
    r.optimal = boolean(field(j, "optimal"), "optimal");
    r.lower_bound = int(integer(field(j, "lower_bound"), 0, n, "lower_bound"));
    r.total_hops =
        j.contains("total_hops") ? int(integer(j.at("total_hops"), 0, int64_t(n) * 4 * 4096, "total_hops")) : 0;
    r.hops_optimal = j.contains("hops_optimal") ? boolean(j.at("hops_optimal"), "hops_optimal") : false;
    const auto& ms = field(j, "messages");
    if (!ms.is_array() || ms.size() > size_t(n))
      throw std::invalid_argument("messages is not an array of at most one per node");
    for (const auto& m : ms) {
      if (!m.is_array() || m.size() != 3) throw std::invalid_argument("a message is not [step, from, to]");
      r.messages.push_back({int(integer(m[0], 0, std::max(0, r.steps - 1), "a message's step")),
                            int(integer(m[1], 0, n - 1, "a message's sender")),
                            int(integer(m[2], 0, n - 1, "a message's receiver"))});
    }
    const auto& c = field(j, "collective");
    if (c != "broadcast" && c != "reduce") throw std::invalid_argument("collective is not broadcast or reduce");
    q.collective = c == "reduce" ? Collective::Reduce : Collective::Broadcast;
    q.source = int(integer(field(j, "source"), 0, n - 1, "source"));
    q.ports = int(integer(field(j, "ports"), 1, 4096, "ports"));
    q.max_hops = int(integer(field(j, "max_hops"), 0, 4095, "max_hops"));
    const auto& av = field(j, "avoid");
    if (!av.is_array() || av.size() > size_t(n)) throw std::invalid_argument("avoid is not a list of nodes");
    std::vector<bool> seen(size_t(n), false);
    for (const auto& v : av) {
      const int x = int(integer(v, 0, n - 1, "an avoided node"));
      if (x == q.source || seen[size_t(x)]) throw std::invalid_argument("avoid lists the root or a node twice");
      seen[size_t(x)] = true;
      q.avoid.push_back(x);
    }
  } catch (const std::exception& e) {
    throw bad(fmt::format("malformed: {}; allowed: a file `wormnet synth {}` wrote", e.what(), param_ref(Param::out)));
  }
  for (const Message& m : r.messages)
    if (m.from == m.to)
      throw bad(
          fmt::format("message {} -> {} in step {} does not fit {} with {} steps; allowed: a file `wormnet "
                      "synth {}` wrote",
                      m.from, m.to, m.step, topo.name(), r.steps, param_ref(Param::out)));
  if (const std::string why = invalid(topo, q, r); !why.empty())
    throw bad(
        fmt::format("not a valid schedule: {}; allowed: a file `wormnet synth {}` wrote", why, param_ref(Param::out)));
  if (req) {
    req->collective = q.collective;
    req->source = q.source;
    req->ports = q.ports;
    req->max_hops = q.max_hops;
    req->avoid = q.avoid;
  }
  return r;
}

std::string cache_dir() { return wn::cache_dir("WORMNET_SYNTH_CACHE", "synth"); }

std::string cache_file(const Topology& topo, const Request& req) {
  std::string t = topo.name();
  for (char& c : t)
    if (c == ':') c = '_';
  std::string avoid;
  for (int v : req.avoid) avoid += fmt::format("-{}", v);
  return fmt::format("{}/{}_{}_s{}_k{}_h{}_a{}.json", cache_dir(), t, name_of(req.collective), req.source, req.ports,
                     req.max_hops, avoid.empty() ? "none" : avoid.substr(1));
}

}  // namespace wn::alg::synth
