// `wormnet conform`: does a router RTL keep the contract of rtl/README.md? Measured from outside
// on the RTL backend (or any backend), each run in its own process:
//  - zero-load timing per topology (experiments/zero_load.h): P cycles per hop and f per flit,
//    every probe fitting P·(h+1) + f·(F−1), the same P and f on every topology;
//  - delivery under every traffic pattern the topology has, at a low load and past saturation,
//    with one, two and all ports: every packet delivered once, intact and in order (the
//    scoreboard), the run drained, no deadlock within the watchdog (dateline classes on tori),
//    and no input ever holding more flits than its credits allow (the occupancy shadow);
//  - the saturation throughput: accepted flits/node/cycle of uniform traffic offered 1.0;
//  - the delay accounting: the timing it uses (the router's probe) equals the measured P and f,
//    and a collective with contention (one and all ports) has a delay view that adds up exactly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "systemc/network/network.h"

namespace wn {

struct ConformOptions {
  std::vector<std::string> topologies = {"mesh:4x4", "torus:4x4", "cube:4"};
  NetworkParams net;  // backend (Rtl by default), vcs, buf
  double low_rate = 0.05, high_rate = 1.0;
  int packet_flits = 4;
  uint64_t cycles = 1000, warmup = 100, watchdog = 1000, seed = 1;
  unsigned jobs = 1;
  ConformOptions() { net.backend = Backend::Rtl; }
};

struct ConformCase {
  std::string topology, ports, pattern;        // pattern: a traffic pattern, or the collective's algorithm
  double rate = 0, accepted = 0, latency = 0;  // a collective: rate and accepted 0, latency its cycles
  uint64_t created = 0, delivered = 0;
  std::string violation;    // "" when the case passed
  bool collective = false;  // a collective run: its delay view checked (created = delivered = messages)
};

struct ConformTiming {
  std::string topology;
  int hop_cycles = 0, flit_cycles = 0, samples = 0;
  RouterTiming used;  // what the delay accounting uses: the router's probe (router_timing())
  std::string violation;
};

struct ConformResult {
  ConformOptions options;
  std::vector<ConformTiming> timing;
  std::vector<ConformCase> cases;
  std::string first_violation;  // "" when the router conforms
  bool ok() const { return first_violation.empty(); }
  std::string table() const;
  nlohmann::json to_json() const;  // schema wormnet.conform/1
};

// Throws ConfigError for a topology or network the options do not allow, before any run.
ConformResult run_conform(const ConformOptions& opt);

}  // namespace wn
