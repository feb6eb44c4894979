// The bounded latency histogram against the sorted vector it replaced: exact
// below kExactBelow, within the stated 1/64 above and never below the truth.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "systemc/core/latency_histogram.h"

namespace wn {
namespace {

using H = LatencyHistogram;

// The ranks traffic reports (p50, p99) and a spread of others.
std::vector<uint64_t> ranks(uint64_t n) {
  std::vector<uint64_t> r = {0, n / 2, std::min(n - 1, n * 99 / 100), n - 1};
  for (uint64_t k = 0; k < n; k += n / 97 + 1) r.push_back(k);
  return r;
}

TEST(LatencyHistogram, EmptyReportsZeros) {
  const H h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.sum(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.average(), 0.0);
}

TEST(LatencyHistogram, ExactBelowTheBoundLikeTheSortedVector) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> v;
  auto h = std::make_unique<H>();
  for (int i = 0; i < 200000; ++i) {
    // Mostly small, a tail up to the last exact value.
    const uint64_t x = i % 50 ? rng() % 200 : rng() % H::kExactBelow;
    v.push_back(x);
    h->add(x);
  }
  std::sort(v.begin(), v.end());
  uint64_t sum = 0;
  for (uint64_t x : v) sum += x;
  EXPECT_EQ(h->count(), v.size());
  EXPECT_EQ(h->sum(), sum);
  EXPECT_EQ(h->max(), v.back());
  EXPECT_EQ(h->average(), double(sum) / double(v.size()));
  for (uint64_t k : ranks(v.size())) EXPECT_EQ(h->at_rank(k), v[k]) << "rank " << k;
}

TEST(LatencyHistogram, AboveTheBoundWithinOneSixtyFourthNeverBelow) {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> v;
  auto h = std::make_unique<H>();
  for (int i = 0; i < 100000; ++i) {
    const uint64_t x = (rng() >> (rng() % 64)) | 1;  // spread over every power of two
    v.push_back(x);
    h->add(x);
  }
  std::sort(v.begin(), v.end());
  EXPECT_EQ(h->max(), v.back());
  EXPECT_EQ(h->at_rank(v.size() - 1), v.back());  // the top bucket is clamped to the max
  for (uint64_t k : ranks(v.size())) {
    const uint64_t t = v[k], r = h->at_rank(k);
    EXPECT_GE(r, t) << "rank " << k;
    if (t < H::kExactBelow)
      EXPECT_EQ(r, t) << "rank " << k;
    else  // r - t < t / 64, without overflow
      EXPECT_LT(r - t, t / 64 + (t % 64 ? 1 : 0)) << "rank " << k << " value " << t;
  }
}

TEST(LatencyHistogram, BucketsTileTheRangeWithoutGaps) {
  for (size_t b = 0; b + 1 < H::kBuckets; ++b) {
    ASSERT_EQ(H::bucket(H::upper(b)), b) << b;
    ASSERT_EQ(H::bucket(H::upper(b) + 1), b + 1) << b;
  }
  EXPECT_EQ(H::upper(H::kBuckets - 1), UINT64_MAX);
  EXPECT_EQ(H::bucket(UINT64_MAX), H::kBuckets - 1);
  // The stated error: every log bucket is narrower than 1/64 of its lowest value.
  for (size_t b = H::kExactBelow; b < H::kBuckets; ++b) {
    const uint64_t lo = H::upper(b - 1) + 1, width = H::upper(b) - lo + 1;
    ASSERT_LE(width * 64, lo) << b;
  }
}

TEST(LatencyHistogram, OrderOfArrivalDoesNotMatter) {
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i < 5000; ++i) v.push_back((i * 7919) % 40000);
  auto a = std::make_unique<H>(), b = std::make_unique<H>();
  for (uint64_t x : v) a->add(x);
  std::reverse(v.begin(), v.end());
  for (uint64_t x : v) b->add(x);
  for (uint64_t k : ranks(v.size())) EXPECT_EQ(a->at_rank(k), b->at_rank(k));
}

}  // namespace
}  // namespace wn
