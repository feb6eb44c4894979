// The schedule-size guard's bound (max_messages, checked before a schedule is built) holds for
// every CCL operation and algorithm, in both modes, partitioned or not; it is n C1, so every
// operation of a 64x64 torus passes the guard (cli: `run --topology torus:64x64 --algorithm ccl-bcast`).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "algorithms/ccl/ccl.h"
#include "algorithms/combine_op.h"
#include "algorithms/group.h"
#include "algorithms/pipeline.h"
#include "algorithms/registry.h"
#include "systemc/core/config_error.h"
#include "systemc/topology/topology.h"

namespace wn::alg {
namespace {

uint64_t messages(const Schedule& s) {
  uint64_t m = 0;
  for (const auto& p : s.programs)
    for (const Step& st : p) m += st.sends.size();
  return m;
}

TEST(CclBound, EveryAlgorithmStaysWithinItsMessageBound) {
  int built = 0;
  for (const char* t : {"mesh:3x5", "torus:4x4", "cube:5", "mesh:2x3x2"}) {
    const Topology topo = Topology::parse(t);
    for (const auto& info : algorithms()) {
      if (info.name.rfind("ccl-", 0) != 0) continue;
      for (const std::string& alg : ccl::algorithms(ccl::op_of(info.name.substr(4))))
        for (const char* barrier : {"off", "on"})
          for (const char* part : {"none", "row"}) {
            AlgorithmArgs a;
            a.source = 1;
            a.words = 5;
            a.op = find_combine_op("sum");
            std::map<std::string, std::string> given = {{"--ccl-alg", alg}, {"--partition", part}};
            if (reads_option(info, "--nonbarrier")) given["--nonbarrier"] = barrier;
            a.options = parse_options(info, given);
            SCOPED_TRACE(info.name + " " + alg + " on " + t + " nonbarrier " + barrier + " partition " + part);
            BuiltSchedule b;
            try {
              b = build_schedule(info, topo, a);
            } catch (const ConfigError&) {
              continue;  // e.g. butterfly on 15 nodes: refused before anything is built
            }
            ++built;
            EXPECT_LE(messages(b.schedule), info.max_messages(topo, b.args));
          }
    }
  }
  EXPECT_GT(built, 200);
}

TEST(CclBound, A4096NodeTorusPassesTheGuardForEveryOperation) {
  const Topology topo = Topology::parse("torus:64x64");
  for (const auto& info : algorithms()) {
    if (info.name.rfind("ccl-", 0) != 0) continue;
    AlgorithmArgs a;
    a.words = 1;
    a.op = find_combine_op("sum");
    a.options = parse_options(info, {});
    a.group = resolve_group(topo, {});
    // Was n (n + 4 ceil(log2 n) + 2) for every operation: 16982016 messages, refused for all ten.
    EXPECT_NO_THROW(check_schedule_size(info.name, topo, info.max_messages(topo, a))) << info.name;
  }
}

}  // namespace
}  // namespace wn::alg
