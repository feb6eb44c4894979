// Every report file (JSON, CSV, schedule, job list) goes through here: checked before a simulation
// starts, and written whole or not at all (a temporary file in the same folder, written at once or
// piece by piece, then an atomic rename), so an interrupted run never leaves a truncated report
// behind. A rename replaces whatever has the name, so only a regular file (or a new name) may be
// a report's path: a device (/dev/full as root), a symlink, a directory or a fifo is refused,
// never replaced. "-" is stdout.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "systemc/core/config_error.h"

namespace wn {

// Throws ConfigError(field) when `path` exists and is not a regular file (a symlink, a directory,
// a device, a fifo, a socket) or cannot be looked at (a parent that is not a folder). `stdout_ok`:
// the option takes "-" for stdout (the message says so).
void check_output_path(const std::string& path, const ConfigField& field, bool stdout_ok = true);
// check_output_path, then whether a file can be created beside `path` (missing folder, no
// permission): throws ConfigError(field). Leaves nothing behind. An empty path is no report and
// "-" is stdout: both OK.
void check_writable(const std::string& path, const ConfigField& field);
// Writes `text` to `path` atomically ("-": to stdout); throws ConfigError(field) with the errno
// text on any failure, after removing the temporary file.
void write_report(const std::string& path, const std::string& text, const ConfigField& field);
// Where a report written piece by piece goes (a run's per-message lists would be GBs as one
// string): the temporary file or stdout, in chunks of about 1 MiB.
class ReportOut {
 public:
  struct Failed {
    int err;  // errno of the write that failed
  };
  explicit ReportOut(int fd) : fd_(fd) {}
  void write(std::string_view s);  // throws Failed
  void flush();                    // throws Failed

 private:
  static constexpr size_t kChunk = size_t(1) << 20;
  int fd_;
  std::string buf_;
};
using ReportProducer = std::function<void(ReportOut&)>;
// write_report for what `produce` writes: the same checks, atomicity and errors. An exception
// `produce` throws goes on to the caller and leaves no file (stdout may have had part of it).
void stream_report(const std::string& path, const ReportProducer& produce, const ConfigField& field);
// All of `text` to `fd` (retrying short writes and EINTR); false with errno set otherwise.
bool write_all(int fd, std::string_view text);
// The same as write_report for files whose loss only costs time (caches): false and `why` instead
// of throwing. A path that is not a regular file is left alone (false). Never leaves a partial file.
bool write_file_atomic(const std::string& path, const std::string& text, std::string& why);
// JSON as the product writes it everywhere: 2-space indent, final newline, and (objects) the
// "wormnet" identity of with_identity(). By value: a temporary report (a run's message log can
// be 10^7 entries) is moved in and stamped in place, never copied.
void write_json_report(const std::string& path, nlohmann::json j, const ConfigField& field = Param::json);
// `j` with a top-level "wormnet": {"version", "git"} (systemc/core/version.h) when it is an object
// without one, so every report and sweep line names the build that computed it. A line read back
// (merge, rerun) keeps the identity it was written with. Fixed per build: same seed, same bytes.
nlohmann::json with_identity(nlohmann::json j);

}  // namespace wn
