// Synthesized schedules as files: what `wormnet synth --out` writes, what
// `--algorithm synth-broadcast --schedule F` reads, and the cache entries.
#include <fmt/format.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

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
    a.push_back({{"steps", x.steps}, {"result", x.result}, {"vars", x.vars}, {"clauses", x.clauses},
                 {"encode_seconds", centi(x.encode_seconds)}, {"solve_seconds", centi(x.seconds)},
                 {"max_total_hops", x.max_total_hops}});
  j["attempts"] = a;
  j["candidates"] = r.candidates;
  j["symmetries"] = r.symmetries;
  j["build_seconds"] = centi(r.build_seconds);
  return j.dump(1) + "\n";
}

Result from_json(const std::string& text, const Topology& topo, Request* req) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  auto bad = [](const std::string& why) { return ConfigError("--schedule", why); };
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != "wormnet.synth/1")
    throw bad("not a wormnet.synth/1 file; allowed: a file `wormnet synth --out` wrote");
  if (j.value("topology", "") != topo.name())
    throw bad(fmt::format("the schedule is for {}, the run is on {}; allowed: --topology {}", j.value("topology", "?"),
                          topo.name(), j.value("topology", "?")));
  Result r;
  try {
    r.found = j.at("found");
    r.steps = j.at("steps");
    r.optimal = j.at("optimal");
    r.lower_bound = j.at("lower_bound");
    r.total_hops = j.value("total_hops", 0);
    r.hops_optimal = j.value("hops_optimal", false);
    for (const auto& m : j.at("messages")) r.messages.push_back({m.at(0), m.at(1), m.at(2)});
    if (req) {
      req->collective = j.at("collective") == "reduce" ? Collective::Reduce : Collective::Broadcast;
      req->source = j.at("source");
      req->ports = j.at("ports");
      req->max_hops = j.at("max_hops");
      req->avoid = j.at("avoid").get<std::vector<int>>();
    }
  } catch (const nlohmann::json::exception& e) {
    throw bad(std::string("malformed: ") + e.what() + "; allowed: a file `wormnet synth --out` wrote");
  }
  for (const Message& m : r.messages)
    if (m.from < 0 || m.to < 0 || m.from >= topo.nodes() || m.to >= topo.nodes() || m.from == m.to || m.step < 0 ||
        m.step >= r.steps)
      throw bad(fmt::format("message {} -> {} in step {} does not fit {} with {} steps; allowed: a file `wormnet "
                            "synth --out` wrote",
                            m.from, m.to, m.step, topo.name(), r.steps));
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
