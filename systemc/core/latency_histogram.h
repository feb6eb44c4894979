// Latency statistics in fixed memory, whatever the run length: a 10^9-packet
// soak cannot keep every latency to sort it at the end.
//
// count, sum (hence the average) and max are exact. Percentiles come from a
// log-bucket histogram:
//   - every value below kExactBelow (16384) has its own bucket: exact. Below
//     saturation latencies are tens to hundreds of cycles; only past it, where
//     source queues grow with run length, do they get this far;
//   - above, each power of two [2^e, 2^(e+1)) is split into kSubBuckets (64)
//     equal buckets of width 2^(e-6). A percentile there is reported as the
//     bucket's largest value, clamped to the observed max, so it is never
//     below the true order statistic and exceeds it by less than one bucket
//     width: reported r, true t: t <= r < t * (1 + 1/64), i.e. within 1.6 %.
// Deterministic: the same values in any order give the same answers.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace wn {

class LatencyHistogram {
 public:
  static constexpr int kExactBits = 14;
  static constexpr uint64_t kExactBelow = uint64_t{1} << kExactBits;
  static constexpr int kSubBits = 6;
  static constexpr int kSubBuckets = 1 << kSubBits;
  // Exact buckets, then kSubBuckets per power of two from 2^14 to 2^63: 153 KiB.
  static constexpr size_t kBuckets = kExactBelow + size_t(64 - kExactBits) * kSubBuckets;

  void add(uint64_t v) {
    ++buckets_[bucket(v)];
    ++count_;
    sum_ += v;
    if (v > max_) max_ = v;
  }

  uint64_t count() const { return count_; }
  uint64_t sum() const { return sum_; }
  uint64_t max() const { return max_; }
  double average() const { return count_ ? double(sum_) / double(count_) : 0.0; }

  // The value of 0-based rank k in sorted order (k < count()), as described
  // above: exact below kExactBelow, within 1/64 above (never below the truth).
  uint64_t at_rank(uint64_t k) const {
    uint64_t seen = 0;
    for (size_t b = 0; b < kBuckets; ++b) {
      seen += buckets_[b];
      if (seen > k) {
        const uint64_t hi = upper(b);
        return hi < max_ ? hi : max_;
      }
    }
    return max_;
  }

  static size_t bucket(uint64_t v) {
    if (v < kExactBelow) return size_t(v);
    const int e = 63 - __builtin_clzll(v);  // 2^e <= v < 2^(e+1), e >= kExactBits
    const uint64_t sub = (v >> (e - kSubBits)) & (kSubBuckets - 1);
    return size_t(kExactBelow) + size_t(e - kExactBits) * kSubBuckets + size_t(sub);
  }
  // The largest value that falls in bucket b.
  static uint64_t upper(size_t b) {
    if (b < kExactBelow) return b;
    const size_t i = b - size_t(kExactBelow);
    const int e = kExactBits + int(i / kSubBuckets);
    const uint64_t sub = i % kSubBuckets;
    const uint64_t width = uint64_t{1} << (e - kSubBits);
    return (uint64_t{1} << e) + (sub + 1) * width - 1;
  }

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0, sum_ = 0, max_ = 0;
};

}  // namespace wn
