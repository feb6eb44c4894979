#include "experiments/sweep.h"

#include <stdexcept>

#include "experiments/isolated_run.h"
#include "systemc/core/config_error.h"

namespace wn {

std::vector<nlohmann::json> run_sweep(const std::vector<SweepPoint>& points,
                                      const std::function<void(size_t, const nlohmann::json&)>& on_result) {
  std::vector<nlohmann::json> results;
  results.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    try {
      results.push_back(run_isolated(points[i].run));
    } catch (const ConfigError&) {
      throw;
    } catch (const std::exception& e) {
      throw std::runtime_error(points[i].label + ": " + e.what());
    }
    if (on_result) on_result(i, results.back());
  }
  return results;
}

}  // namespace wn
