// Firmware of your own as a program: what every node runs, its memory, and how to check the
// result. wormnet runs it like a built-in algorithm — every backend, port model and profile, the
// contention and delay views, the JSON report (run_firmware in experiments/program_run.h, or
// `wormnet run --firmware` on a shared library exporting a plugin entry, firmware/plugin.h).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "firmware/firmware_node.h"
#include "firmware/node_api.h"

namespace wn::fw {

// The run a program is built for.
struct ProgramContext {
  std::string topology;    // as resolved, e.g. "mesh:4x4"
  std::vector<int> radix;  // nodes per dimension (cube:d: d twos)
  int nodes = 0;           // node ids 0 .. nodes-1
  int ports = 1;           // injection (= ejection) channels per node: the port model
  uint32_t words = 256;    // block size the run was given, in 32-bit words
  int source = 0;          // root node the run was given (rooted operations)
  uint64_t seed = 1;       // the run's seed: draw every random choice from it
};

struct FirmwareProgram {
  std::string name;           // in reports; empty: the library and entry it came from
  uint32_t memory_words = 0;  // per node
  std::function<FirmwareFn(int node)> firmware;
  std::function<Word(int node, uint32_t addr)> init;  // initial memory; empty: zeros
  // After a complete run: "" when every node's memory is right, else what is wrong (one line).
  // Empty: the data are not checked (the report says so).
  std::function<std::string(const std::vector<std::vector<Word>>& memory)> check;
};

}  // namespace wn::fw
