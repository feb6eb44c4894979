#include "experiments/bus_bandwidth.h"

#include <algorithm>

#include "algorithms/schedule_file.h"

namespace wn {

std::optional<BusBandwidth> bus_bandwidth(const alg::AlgorithmInfo& info, uint64_t bytes, int n) {
  const auto& kinds = alg::collective_kinds();
  std::string op = info.collective;
  for (const auto& a : info.aliases)
    if (op.empty() && std::find(kinds.begin(), kinds.end(), a) != kinds.end()) op = a;
  if (op.empty() || n < 1) return std::nullopt;
  const double nn = n, share = (nn - 1) / nn;
  // --bytes is one block (per rank or per destination) where nccl-tests counts the whole buffer.
  if (op == "allreduce") return BusBandwidth{op, bytes, 2 * share};
  if (op == "broadcast" || op == "reduce") return BusBandwidth{op, bytes, 1};
  return BusBandwidth{op, bytes * uint64_t(n), share};
}

}  // namespace wn
