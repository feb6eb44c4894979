// Sweep results files: JSON lines, one per finished point, keyed by
// point_key(). Lines are appended with one write() each on an O_APPEND file
// descriptor, so concurrent writers and a killed sweep never leave a torn line
// in the middle of a file; reading skips a torn last line. The newest line of a
// key wins, except that a successful line is never replaced by a failed one.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn {

class ResultsAppender {
 public:
  explicit ResultsAppender(const std::string& path);  // creates the file; ConfigError if it cannot
  ~ResultsAppender();
  ResultsAppender(const ResultsAppender&) = delete;
  ResultsAppender& operator=(const ResultsAppender&) = delete;
  void append(const nlohmann::json& line);  // one write() of the line (with_identity) and its newline

 private:
  std::string path_;
  int fd_ = -1;
};

// Every parseable line of a file (none if it does not exist), in file order.
std::vector<nlohmann::json> read_result_lines(const std::string& path);
// One line per key: the last successful one, else the last one.
std::map<std::string, nlohmann::json> latest_by_key(const std::vector<nlohmann::json>& lines);
inline bool line_ok(const nlohmann::json& j) { return j.value("ok", false); }

struct MergeReport {
  size_t lines_read = 0, duplicates = 0, failed = 0;
  std::vector<std::string> missing;  // expected keys with no line at all
  std::vector<nlohmann::json> merged;  // one per key, in `expected` order, then the rest by key
};
// Merges result lines; `expected` (the spec's keys in point order, may be empty) orders
// the output and names the gaps.
MergeReport merge_results(const std::vector<std::string>& files, const std::vector<std::string>& expected);

}  // namespace wn
