// Running the wormnet program as a user does, for the CLI tests.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wn::test {

struct CliRun {
  int code;
  std::string out;  // stdout and stderr
};

inline CliRun wormnet(const std::string& args) {
  const std::string cmd = std::string(WN_BINARY_DIR) + "/wormnet " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (p && fgets(buf.data(), int(buf.size()), p)) out += buf.data();
  const int status = p ? pclose(p) : -1;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline void expect_config_error(const std::string& args, const std::string& field, const std::string& allowed) {
  const CliRun r = wormnet(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find("error: " + field), std::string::npos) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(allowed), std::string::npos) << args << "\n" << r.out;
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return nlohmann::json::parse(ss.str());
}

// A fresh folder <build>/<group>/<name> (ctest runs the tests of one binary in parallel processes).
inline std::string fresh_dir(const std::string& group, const std::string& name) {
  const std::string d = std::string(WN_BINARY_DIR) + "/" + group + "/" + name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}
inline std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}
inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
inline std::vector<nlohmann::json> json_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream f(path);
  for (std::string l; std::getline(f, l);) out.push_back(nlohmann::json::parse(l));
  return out;
}

// Lines a writer has finished (newline included): a file read while a sweep
// appends to it, or after the sweep was killed, may end in a torn line.
inline size_t whole_lines(const std::string& path) {
  std::ifstream f(path);
  const std::string t((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return size_t(std::count(t.begin(), t.end(), '\n'));
}

}  // namespace wn::test
