// A JSON report too large to hold as one document (a firmware run's per-message and per-channel
// lists: nlohmann's DOM spends ~100 bytes per number, GBs on a big network): its small
// top-level object, and arrays whose elements are built and written one at a time where that
// object has their key. The file is byte for byte the one write_json_report writes for whole().
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/report_file.h"

namespace wn {

struct StreamedJson {
  using Emit = std::function<void(const nlohmann::json&)>;
  // Calls emit once per element, in order.
  using List = std::function<void(const Emit& emit)>;
  nlohmann::json head;                              // an object, without the lists' keys
  std::vector<std::pair<std::string, List>> lists;  // top-level key -> its array
  // Everything as one document (tests, small reports).
  nlohmann::json whole() const;
};

// write_json_report(path, r.whole(), field) without the document: the head with its identity
// (with_identity), the lists element by element. Throws ConfigError(field) as write_report does.
void stream_json_report(const std::string& path, const StreamedJson& r, const ConfigField& field = Param::json);
// The text of that report (with the final newline) into `out`.
void write_streamed_json(const StreamedJson& r, ReportOut& out);

}  // namespace wn
