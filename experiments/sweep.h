// The sweep engine: a list of points, each one complete co-simulation in its
// own process (SystemC elaborates once per process), results in point order.
// `wormnet sweep` (loads x port models) and `wormnet compare` (algorithms x
// port models, which scripts/hypercube_table.py drives) are sweeps.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn {

struct SweepPoint {
  std::string label;                    // for error messages: "rd-broadcast ports=all"
  std::function<nlohmann::json()> run;  // runs in a forked child; returns the point's JSON
};

// Which order `on_result` sees the results in: point order (tables print row
// by row; a finished point waits for the ones before it) or completion order
// (a results file loses nothing that finished when the sweep is killed).
enum class ResultOrder { Points, Completion };

// Runs every point, up to `jobs` at once (a free slot takes the next point as
// soon as any child finishes); `on_result(i, json)` sees each result once, in `order`. A ConfigError in a point is
// rethrown; any other failure becomes std::runtime_error naming the point's label, unless `keep_going`: then the
// point's result is {"ok": false, "error": why} and the others go on (spec sweeps record a crashed point and retry it
// on the next run instead of losing the points in flight).
std::vector<nlohmann::json> run_sweep(const std::vector<SweepPoint>& points,
                                      const std::function<void(size_t, const nlohmann::json&)>& on_result,
                                      unsigned jobs = 1, bool keep_going = false,
                                      ResultOrder order = ResultOrder::Points);

}  // namespace wn
