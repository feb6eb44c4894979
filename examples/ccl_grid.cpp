// A complete CCL program (docs/papers/ccl.md): the nodes of a 2D network as a
// process grid; every row broadcasts from its first member while every column
// broadcasts from its first member, then everybody sums one word. User
// firmware is a function of the node's NodeApi; the library does the rest.
//   build/ccl_example [--topology mesh:4x4] [--ports one|all|K] [--backend model|rtl|lockstep]
#include <cstdio>
#include <cstring>
#include <string>

#include "ccl_grid_program.h"
#include "experiments/program_run.h"

using namespace wn;

// libsystemc defines main() and calls sc_main.
int sc_main(int argc, char** argv) {
  std::string topo = "mesh:4x4", ports = "one", backend = "model";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--topology")
      topo = argv[i + 1];
    else if (k == "--ports")
      ports = argv[i + 1];
    else if (k == "--backend")
      backend = argv[i + 1];
    else
      return std::fprintf(stderr, "error: %s: unknown; allowed: --topology, --ports, --backend\n", k.c_str()), 2;
  }
  fw::ScheduleRunOptions opt;
  opt.topology = topo;
  opt.ports = ports;
  opt.run.profile = fw::find_profile("ideal");
  fw::ScheduleRunResult r;
  fw::FirmwareProgram program;
  try {
    opt.net.backend = parse_backend(backend);
    const NetworkSetup net = fw::resolve_network(opt);
    program = ccl_grid::program(fw::program_context(opt, net));
    r = fw::run_firmware(opt, net, program);  // the run API: the result `wormnet run` prints
  } catch (const std::exception& e) {
    return std::fprintf(stderr, "error: %s\n", e.what()), 2;
  }
  if (!r.run.ok) return std::fprintf(stderr, "error: %s\n", r.run.error.c_str()), 1;
  const int n = r.network.topology.nodes(), X = r.network.topology.radix()[0];
  const ccl_grid::Layout l = ccl_grid::layout(n);
  int bad = 0;
  std::printf("ccl_example on %s (%s port): %llu cycles, %zu messages\n", topo.c_str(), ports.c_str(),
              static_cast<unsigned long long>(r.run.cycles), r.run.log.messages.size());
  std::printf("node  row-bcast  col-bcast  sum\n");
  for (int v = 0; v < n; ++v) {
    const auto& m = r.run.memory[size_t(v)];
    const auto want = ccl_grid::expected(v, n, X);
    bad += m[l.row_at] != want[0] || m[l.col_at] != want[1] || m[l.sum_at + 1] != want[2];
    std::printf("%4d  %9u  %9u  %3u\n", v, m[l.row_at], m[l.col_at], m[l.sum_at + 1]);
  }
  std::printf("%s\n", bad ? "WRONG" : "every node holds its row's and its column's words and the sum");
  // The program's own check (what `wormnet run --firmware` reports as the data check) agrees.
  return bad || !r.data_ok ? 1 : 0;
}
