// Bad inputs as tables: each case runs the program as a user would and expects exactly one line
// on stderr naming the field and the allowed values, exit code 2, and no simulation started
// (nothing of a report on stdout). One table per class of input (cli_bad_input*_test.cpp); each
// case is its own ctest.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace wn::test {

struct BadInput {
  const char* name;
  const char* args;
  const char* field;    // the error names this field...
  const char* allowed;  // ...and says what is allowed
};

inline std::ostream& operator<<(std::ostream& os, const BadInput& b) { return os << b.args; }

}  // namespace wn::test

// Outside any namespace: gtest names the cases after the fixture.
using wn::test::BadInput;

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, OneLineNamingFieldAndAllowedExitTwo) {
  const BadInput& c = GetParam();
  const std::string dir = std::string(WN_BINARY_DIR) + "/cli_bad_input";
  std::system(("mkdir -p " + dir).c_str());
  const std::string out = dir + "/" + c.name + ".out", err = dir + "/" + c.name + ".err";
  // No SYSTEMC_DISABLE_COPYRIGHT_MESSAGE here: the program must keep SystemC quiet itself.
  const std::string cmd = "env -u SYSTEMC_DISABLE_COPYRIGHT_MESSAGE " + std::string(WN_BINARY_DIR) + "/wormnet " +
                          c.args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2) << c.args;
  std::ifstream ef(err), of(out);
  std::stringstream es, os;
  es << ef.rdbuf();
  os << of.rdbuf();
  const std::string e = es.str(), o = os.str();
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << "stderr:\n" << e;
  EXPECT_EQ(e.rfind("error: ", 0), 0u) << e;
  EXPECT_NE(e.find(c.field), std::string::npos) << e;
  EXPECT_NE(e.find(c.allowed), std::string::npos) << e;
  // Nothing ran: no report lines on stdout (at most the seed line).
  EXPECT_EQ(o.find("cycles"), std::string::npos) << "stdout:\n" << o;
}

// The table `cases` as ctest cases named SUITE/BadInputTest.OneLine.../NAME.
#define WN_BAD_INPUT_TABLE(suite, cases)                                    \
  INSTANTIATE_TEST_SUITE_P(suite, BadInputTest, ::testing::ValuesIn(cases), \
                           [](const ::testing::TestParamInfo<BadInput>& i) { return std::string(i.param.name); })
