// The router timing probe (systemc/router/router_timing.h): what the delay accounting, the
// predictions and the checker use is measured from the router in use.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "systemc/router/model/router_model.h"
#include "systemc/router/router_timing.h"
#include "systemc/router/rtl/router_rtl.h"
#include "wormnet/rtl_radices.h"

namespace wn {
namespace {

// A router whose outputs leave `extra` edges late (a deeper pipeline in front of the shipped one),
// or that never sends (`mute`), or whose second flit leaves one edge late (`uneven`).
class SkewedRouter : public RouterUnit {
 public:
  SkewedRouter(int extra, bool mute, bool uneven) : extra_(extra), mute_(mute), uneven_(uneven) {}
  void reset(const RouterConfig& cfg) override {
    inner_->reset(cfg);
    queue_.assign(size_t(extra_), RouterOut{});
  }
  void cycle(const RouterIn& in, RouterOut& out) override {
    RouterOut now;
    inner_->cycle(in, now);
    if (mute_) now.out_valid = 0;
    if (uneven_ && now.out_valid && ++sent_ == 2) {  // hold the second flit one edge
      held_ = now;
      now.out_valid = 0;
    } else if (held_.out_valid && !now.out_valid) {
      now = held_;
      held_.out_valid = 0;
    }
    queue_.push_back(now);
    out = queue_.front();
    queue_.erase(queue_.begin());
  }
  const char* backend_name() const override { return "skewed"; }

 private:
  std::unique_ptr<RouterUnit> inner_ = make_model_router();
  int extra_;
  bool mute_, uneven_;
  int sent_ = 0;
  RouterOut held_;
  std::vector<RouterOut> queue_;
};

TEST(RouterTiming, ModelProbesAsTheShippedRouter) {
  EXPECT_EQ(probe_router_timing(*make_model_router()), kShippedTiming);
  EXPECT_EQ(kShippedTiming.hop_cycles(), 3);
  // rtl/README.md §5: 3 (h + 1) + L - 1; one bubble per packet behind another.
  EXPECT_EQ(kShippedTiming.zero_load(6, 8), 28u);
  EXPECT_EQ(kShippedTiming.zero_load(2, 10, 2), 19u);
}

TEST(RouterTiming, VerilatedRouterProbesAsTheModel) {
  if (kForeignRouter) GTEST_SKIP() << "a router of your own: its timing is its own (wormnet conform)";
  for (int radix : kRtlRadices) EXPECT_EQ(rtl_router_timing(radix), kShippedTiming) << "radix " << radix;
  EXPECT_EQ(probe_router_timing(*make_rtl_router(2)), kShippedTiming);
}

TEST(RouterTiming, ADeeperPipelineIsMeasured) {
  SkewedRouter r(1, false, false);
  const RouterTiming t = probe_router_timing(r);
  EXPECT_EQ(t.stage_cycles, 3);
  EXPECT_EQ(t.hop_cycles(), 4);
  EXPECT_EQ(t.flit_cycles, 1);
  EXPECT_EQ(t.zero_load(6, 8), 35u);  // 4 (h + 1) + L - 1
}

TEST(RouterTiming, ARouterThatNeverSendsIsNamed) {
  SkewedRouter r(0, true, false);
  try {
    probe_router_timing(r);
    FAIL() << "no throw";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "router timing probe: 0 of 3 flits left the router within 64 cycles");
  }
}

TEST(RouterTiming, UnevenFlitsAreNamed) {
  SkewedRouter r(0, false, true);
  try {
    probe_router_timing(r);
    FAIL() << "no throw";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "router timing probe: the flits of one worm left 2 and 1 cycles apart; the delay accounting needs "
                 "one spacing");
  }
}

}  // namespace
}  // namespace wn
