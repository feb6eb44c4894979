// Sweep results files: JSON lines, one per finished point, keyed by
// point_key(). Lines are appended with one write() each on an O_APPEND file
// descriptor; a write that fails (full disk) is cut back off, so the file only
// ever holds whole lines of finished points, and a killed sweep leaves at most
// a torn last line, which reading skips. One sweep writes a file at a time (an
// flock on it). The newest line of a key wins, except that a successful line
// is never replaced by a failed one.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn {

class ResultsAppender {
 public:
  // Opens (creates) the file and locks it. ConfigError(Param::out) when it is not a regular file (or a
  // new name), cannot be opened, or another sweep holds it.
  explicit ResultsAppender(const std::string& path);
  ~ResultsAppender();
  ResultsAppender(const ResultsAppender&) = delete;
  ResultsAppender& operator=(const ResultsAppender&) = delete;
  // One write() of the line (with_identity) and its newline, then fsync. On any failure the file is
  // truncated back to its length before, and ConfigError(Param::out) says why (the errno text).
  void append(const nlohmann::json& line);

 private:
  std::string path_;
  int fd_ = -1;
};

// ConfigError(field) when a sweep is appending to `path` right now (it holds the lock): replacing
// the file under it (--merge --out) would lose what it appends next.
void check_results_not_in_use(const std::string& path, const std::string& field);

// Every parseable line of a file (none if it does not exist), in file order.
std::vector<nlohmann::json> read_result_lines(const std::string& path);
// One line per key: the last successful one, else the last one.
std::map<std::string, nlohmann::json> latest_by_key(const std::vector<nlohmann::json>& lines);
inline bool line_ok(const nlohmann::json& j) { return j.value("ok", false); }
// One line per key (as latest_by_key), in point order: by the lines' "point" (the spec's order),
// then by first appearance in `lines`. Never depends on the order the points finished in.
std::vector<nlohmann::json> in_point_order(const std::vector<nlohmann::json>& lines);

struct MergeReport {
  size_t lines_read = 0, duplicates = 0, failed = 0;
  std::vector<std::string> missing;    // expected keys with no line at all
  std::vector<nlohmann::json> merged;  // one per key, in `expected` order, then the rest by key
};
// Merges result lines; `expected` (the spec's keys in point order, may be empty) orders
// the output and names the gaps.
MergeReport merge_results(const std::vector<std::string>& files, const std::vector<std::string>& expected);

}  // namespace wn
