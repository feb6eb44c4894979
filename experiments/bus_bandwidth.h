// The bandwidth columns of nccl-tests (its doc/PERFORMANCE.md conventions), so a compare row reads
// like the numbers HPC users already have: size = the bytes of the operation as nccl-tests counts
// them (all-gather, reduce-scatter, all-to-all, gather and scatter: the n blocks of one rank's
// buffer; the others: the message), algbw = size / time, busbw = algbw x the operation's factor
// (all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all, gather, scatter (n-1)/n;
// broadcast and reduce 1), which makes busbw comparable with the link bandwidth.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "algorithms/registry.h"

namespace wn {

struct BusBandwidth {
  std::string operation;  // the schedule format's collective name: "allreduce", "broadcast", ...
  uint64_t size_bytes = 0;
  double factor = 1;
  double algbw_gbps(double us) const { return us > 0 ? double(size_bytes) / us / 1e3 : 0; }
  double busbw_gbps(double us) const { return algbw_gbps(us) * factor; }
};

// For an algorithm of a known operation (its declared collective, or an alias that names one:
// ccl-combine is "allreduce"); nullopt otherwise (prefix, shift, ...). `bytes`: --bytes;
// `n`: the ranks taking part.
std::optional<BusBandwidth> bus_bandwidth(const alg::AlgorithmInfo& info, uint64_t bytes, int n);

}  // namespace wn
