// A complete CCL program (docs/papers/ccl.md): the nodes of a 2D network as a
// process grid; every row broadcasts from its first member while every column
// broadcasts from its first member, then everybody sums one word. User
// firmware is a function of the node's NodeApi; the library does the rest.
//   build/ccl_example [--topology mesh:4x4] [--ports one|all|K] [--backend model|rtl|lockstep]
#include <cstdio>
#include <cstring>
#include <string>

#include "firmware/ccl.h"
#include "firmware/firmware_run.h"

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
  NetworkParams np;
  NetworkSetup net;
  try {
    np.backend = parse_backend(backend);
    net = NetworkSetup::resolve(topo, ports, np);
  } catch (const std::exception& e) {
    return std::fprintf(stderr, "error: %s\n", e.what()), 2;
  }
  const int n = net.topology.nodes(), X = net.topology.radix()[0];
  if (net.topology.dims() != 2) return std::fprintf(stderr, "error: --topology: a 2D mesh or torus\n"), 2;
  std::vector<int> all(static_cast<size_t>(n));
  for (int v = 0; v < n; ++v) all[size_t(v)] = v;
  const uint32_t scratch = 0, row_at = fw::ccl::Library::scratch_words(n), col_at = row_at + 8, sum_at = col_at + 8,
                 words = 4;
  const alg::OpId sum = alg::find_combine_op("sum");

  // --- the firmware every node runs ---
  auto firmware = [&](fw::NodeApi& api) {
    fw::ccl::Library lib(api, all, scratch);
    auto [row, col] = lib.grid(lib.all(), X);   // rank = y*X + x: row = same y, column = same x
    lib.bcast(row, row.pid(0), row_at, words);  // rows from their x = 0 node ...
    lib.bcast(col, col.pid(0), col_at, words);  // ... columns from their y = 0 node
    lib.combine(lib.all(), sum, sum_at, 1);     // IN at sum_at, OUT at sum_at + 1
  };
  // --- ---

  auto init = [&](int v, uint32_t a) -> alg::Word {
    if (a >= row_at && a < row_at + words) return 100u * uint32_t(v) + (a - row_at);
    if (a >= col_at && a < col_at + words) return 1000u * uint32_t(v) + (a - col_at);
    if (a == sum_at) return uint32_t(v) + 1;
    return 0;
  };
  fw::FirmwareRunOptions opt;
  opt.profile = fw::find_profile("ideal");
  const uint32_t memory = sum_at + fw::ccl::Library::region_words(alg::ccl::Op::Combine, n, 1, {}, sum);
  const auto r = fw::run_firmware(
      net, opt, [&](int) -> fw::FirmwareFn { return firmware; }, memory, init);
  if (!r.ok) return std::fprintf(stderr, "error: %s\n", r.error.c_str()), 1;
  int bad = 0;
  std::printf("ccl_example on %s (%s port): %llu cycles, %zu messages\n", topo.c_str(), ports.c_str(),
              static_cast<unsigned long long>(r.cycles), r.log.messages.size());
  std::printf("node  row-bcast  col-bcast  sum\n");
  for (int v = 0; v < n; ++v) {
    const auto& m = r.memory[size_t(v)];
    const uint32_t want_row = 100u * uint32_t(v / X * X), want_col = 1000u * uint32_t(v % X),
                   want_sum = uint32_t(n) * uint32_t(n + 1) / 2;
    bad += m[row_at] != want_row || m[col_at] != want_col || m[sum_at + 1] != want_sum;
    std::printf("%4d  %9u  %9u  %3u\n", v, m[row_at], m[col_at], m[sum_at + 1]);
  }
  std::printf("%s\n", bad ? "WRONG" : "every node holds its row's and its column's words and the sum");
  return bad ? 1 : 0;
}
