// bisheng's `[aicore]` function-space specifier rewritten to __aicore__ (src/cli/aicore_attribute.h), and the bisheng
// rules reading it as __aicore__.
#include <gtest/gtest.h>

#include "cli/aicore_attribute.h"
#include "cli/bisheng_rules.h"

using kgen::cli::rewrite_aicore_attribute;

TEST(AicoreAttribute, SpecifierBecomesAicoreSubscriptStays) {
  bool changed = false;
  const std::string src =
      "#define CATLASS_DEVICE __forceinline__ [aicore]\n#define CATLASS_HOST_DEVICE __forceinline__ [host, aicore]\n"
      "template <class T>\n__forceinline__ [aicore]\nconstexpr T Up(T v) { return v; }\n"
      "[aicore] void g(int* a, int aicore) { a[aicore] = (a)[aicore]; }\n";
  const std::string out = rewrite_aicore_attribute(src, changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out,
            "#define CATLASS_DEVICE __forceinline__ __aicore__\n#define CATLASS_HOST_DEVICE __forceinline__ __aicore__\n"
            "template <class T>\n__forceinline__ __aicore__\nconstexpr T Up(T v) { return v; }\n"
            "__aicore__ void g(int* a, int aicore) { a[aicore] = (a)[aicore]; }\n");
  changed = false;
  EXPECT_EQ(rewrite_aicore_attribute("int x = a[aicore];\nauto l = [host] { };\n", changed),
            "int x = a[aicore];\nauto l = [host] { };\n");   // a lambda capturing `host` is no specifier
  EXPECT_FALSE(changed);
}

TEST(AicoreAttribute, BishengRulesReadItAsAicore) {
  auto f = kgen::cli::check_bisheng_rules("k.cpp", "__forceinline__ [aicore] float f(float x) { return expf(x); }\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("'expf'"), std::string::npos) << f[0].message;
}
