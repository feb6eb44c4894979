// Every report file (JSON, CSV) goes through here: checked writable before a
// simulation starts, and written whole or not at all (a temporary file in
// the same folder, then an atomic rename), so an interrupted run never leaves
// a truncated report behind.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace wn {

// Throws ConfigError(field) when `path` cannot be created (missing folder,
// no permission). Leaves nothing behind. An empty path is no report: OK.
void check_writable(const std::string& path, const std::string& field);
// Writes `text` to `path` atomically; throws ConfigError(field) on failure.
void write_report(const std::string& path, const std::string& text, const std::string& field);
// JSON as the product writes it everywhere: 2-space indent, final newline, and (objects) the
// "wormnet" identity of with_identity(). By value: a temporary report (a run's message log can
// be 10^7 entries) is moved in and stamped in place, never copied.
void write_json_report(const std::string& path, nlohmann::json j, const std::string& field = "--json");
// `j` with a top-level "wormnet": {"version", "git"} (systemc/core/version.h) when it is an object
// without one, so every report and sweep line names the build that computed it. A line read back
// (merge, rerun) keeps the identity it was written with. Fixed per build: same seed, same bytes.
nlohmann::json with_identity(nlohmann::json j);

}  // namespace wn
