// The bisheng rules of `kgen cc` (src/cli/bisheng_rules.h): what CANN's kernel compiler refuses is found, with its
// position, and what it accepts is not.
#include "cli/bisheng_rules.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using kgen::cli::check_bisheng_rules;
using kgen::cli::RuleFinding;

namespace {
std::vector<RuleFinding> check(const std::string& text) { return check_bisheng_rules("k.cpp", text); }
}  // namespace

TEST(BishengRules, CoreGuardOnlyAfterIf) {
  auto f = check("__aicore__ void k() {\n  if (ASCEND_IS_AIV) { x(); }\n}\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 2);
  EXPECT_EQ(f[0].col, 7);
  EXPECT_NE(f[0].message.find("constexpr(g_coreType == AscendC::AIV)"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].hint.find("if ASCEND_IS_AIV { ... }"), std::string::npos) << f[0].hint;

  EXPECT_TRUE(check("__aicore__ void k() {\n  if ASCEND_IS_AIV { x(); } else if ASCEND_IS_NOT_AIC { y(); }\n}\n").empty());
  auto v = check("__aicore__ void k() { bool cube = ASCEND_IS_AIC; }\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].hint.find("g_coreType == AscendC::AIC"), std::string::npos) << v[0].hint;
  auto n = check("__aicore__ void k() { if (!ASCEND_IS_AIC) return; }\n");
  ASSERT_EQ(n.size(), 1u);
  EXPECT_NE(n[0].hint.find("ASCEND_IS_NOT_AIC"), std::string::npos) << n[0].hint;
  auto both = check("__aicore__ void k() { if (ASCEND_IS_AIV && n > 0) x(); }\n");
  ASSERT_EQ(both.size(), 1u);
  EXPECT_NE(both[0].hint.find("nested if"), std::string::npos) << both[0].hint;
}

TEST(BishengRules, SkipsCommentsStringsAndDirectives) {
  EXPECT_TRUE(check("// if (ASCEND_IS_AIV)\n/* std::exp(x) in __aicore__ */\n"
                    "#define IS_VEC ASCEND_IS_AIV\n#define E(x) \\\n  std::exp(x)\n"
                    "__aicore__ void k() { const char* s = \"std::exp(1) (ASCEND_IS_AIC)\"; char c = '('; }\n")
                  .empty());
}

TEST(BishengRules, HostMathInAicoreCode) {
  auto f = check("__aicore__ inline float f(float x) {\n  return std::exp(x) + expf(x) + sqrtf(x) + ::log(x) + tanh(x);\n}\n");
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].col, 15);   // the function name of std::exp
  EXPECT_NE(f[0].message.find("'std::exp'"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].hint.find("AscendC::Exp"), std::string::npos) << f[0].hint;
  EXPECT_NE(f[2].message.find("'sqrtf'"), std::string::npos);
  EXPECT_NE(f[3].message.find("'::log'"), std::string::npos);
  // What bisheng provides, and what is not libm.
  EXPECT_TRUE(check("__aicore__ inline float f(float x) { return sqrt(x) + abs(x) + std::sqrt(x) + t.exp() + "
                    "p->log(); }\n__aicore__ void g() { AscendC::Exp(y, x, 8); AscendC::Ln(y, x, 8); }\n")
                  .empty());
}

TEST(BishengRules, OnlyInsideAicoreBodies) {
  // Host code (a kernel-launch program's main, a declaration's neighbour) may use libm.
  EXPECT_TRUE(check("__aicore__ void k(float);\nint main() { double e = std::exp(1.0); return e > 2; }\n").empty());
  // A class member, a template, a constructor with an initialiser list that uses braces.
  auto f = check("class K {\n public:\n  __aicore__ inline K() : a{1}, b(2) { v = logf(2.0f); }\n"
                 "  template <class T> __aicore__ inline void P() { w = std::pow(2.0f, 3.0f); }\n"
                 "  int a, b; float v, w;\n};\nvoid host() { std::pow(2.0, 3.0); }\n");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].line, 3);
  EXPECT_EQ(f[1].line, 4);
}

TEST(BishengRules, FormatIsClangStyle) {
  auto f = check("__aicore__ void k() {\n\tif (ASCEND_IS_AIC) {}\n}\n");
  ASSERT_EQ(f.size(), 1u);
  std::string s = kgen::cli::format_finding(f[0]);
  EXPECT_EQ(s.rfind("k.cpp:2:6: error: ", 0), 0u) << s;
  EXPECT_NE(s.find("\n  \tif (ASCEND_IS_AIC) {}\n  \t    ^\n"), std::string::npos) << s;
  EXPECT_NE(s.find("k.cpp:2:6: note: "), std::string::npos) << s;
}

TEST(BishengRules, FollowsQuotedIncludesOnce) {
  namespace fs = std::filesystem;
  char tmpl[] = "/tmp/kgen-bisheng-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  fs::path d(tmpl);
  std::ofstream(d / "kernel.cpp") << "#include \"kernel_operator.h\"\n#include \"helpers.h\"\n#include \"helpers.h\"\n"
                                     "__aicore__ void k() {}\n";
  std::ofstream(d / "helpers.h") << "#pragma once\n#include \"kernel.cpp\"\n__aicore__ inline float g(float x) { return expf(x); }\n";
  auto f = kgen::cli::check_bisheng_rules_file((d / "kernel.cpp").string());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(fs::path(f[0].file).filename(), "helpers.h");
  EXPECT_EQ(f[0].line, 3);
  fs::remove_all(d);
}

TEST(BishengRules, LineDirectivesRenumber) {
  // A MultiKernelBench string written out with `#line N "SUB.py"` reports the submission's line.
  auto f = check("#line 40 \"sub.py\"\n__aicore__ void k() {\n  if (ASCEND_IS_AIC) {}\n}\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].file, "sub.py");
  EXPECT_EQ(f[0].line, 41);
  EXPECT_EQ(f[0].source_line, "  if (ASCEND_IS_AIC) {}");
}
