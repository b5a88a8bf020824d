// rewrite_launches (src/cli/launch_rewrite.cpp): kernel<<<blockDim, l2ctrl, stream>>>(args) -> launcher calls.
#include <gtest/gtest.h>

#include <string>

#include "cli/launch_rewrite.h"

using kgen::cli::rewrite_launches;

namespace {
std::string rw(const std::string& s, bool* changed_out = nullptr) {
  bool changed = false;
  std::string out = rewrite_launches(s, changed);
  if (changed_out) *changed_out = changed;
  return out;
}
size_t newlines(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}
// 1-based line of the first occurrence of `needle`.
size_t line_of(const std::string& s, const std::string& needle) {
  size_t at = s.find(needle);
  return at == std::string::npos ? 0 : newlines(s.substr(0, at)) + 1;
}
}  // namespace

TEST(LaunchRewrite, SimpleLaunch) {
  bool changed = false;
  std::string out = rw("  add_custom<<<8, nullptr, stream>>>(x, y, z);\n", &changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out,
            "  ::kgen::rt::launch_at(\"add_custom\", ::kgen::rt::Loc::current(), (8), [&]() { add_custom(x, y, z); });\n");
}

TEST(LaunchRewrite, NothingToRewrite) {
  bool changed = true;
  std::string src = "std::cout << a << \"<<<\" << b;\nint x = y >> 3;\ntemplate <class T> using V = A<B<C<T>>>;\n";
  EXPECT_EQ(rw(src, &changed), src);
  EXPECT_FALSE(changed);
}

TEST(LaunchRewrite, MultiLineArgumentsKeepLineNumbers) {
  std::string src =
      "int main() {\n"
      "  add_custom<<<blockDim,\n"
      "               nullptr, stream>>>(xDevice,\n"
      "                                 yDevice,\n"
      "                                 zDevice);\n"
      "  int after = 1;\n"
      "  add_custom<<<2, nullptr, stream>>>\n"
      "      (a, b, c);\n"
      "  int last = 2;\n"
      "}\n";
  std::string out = rw(src);
  EXPECT_EQ(newlines(out), newlines(src));
  EXPECT_EQ(line_of(out, "int after"), line_of(src, "int after"));
  EXPECT_EQ(line_of(out, "int last"), line_of(src, "int last"));
  // the source location is taken on the launch's first line
  EXPECT_EQ(line_of(out, "::kgen::rt::Loc::current()"), 2u);
  EXPECT_NE(out.find("(blockDim), [&]() { add_custom(xDevice,\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[&]() { add_custom(a, b, c); })"), std::string::npos) << out;
  EXPECT_EQ(out.find("<<<"), std::string::npos) << out;
}

TEST(LaunchRewrite, NestedParenthesesInConfigAndArguments) {
  std::string out = rw("k<<<std::min(n, 48u), nullptr, s>>>(f(g(x), (y)), h(z, (w + 1) * 2));\nrest(1);\n");
  EXPECT_NE(out.find("current(), (std::min(n, 48u)), [&]() { k(f(g(x), (y)), h(z, (w + 1) * 2)); });\nrest(1);\n"), std::string::npos)
      << out;
}

TEST(LaunchRewrite, StringsAndCharsContainingParentheses) {
  std::string src = "k<<<1, nullptr, s>>>(p, \")\", ')', \"\\\")(\", '\\'');\nnext();\n";
  std::string out = rw(src);
  EXPECT_NE(out.find("{ k(p, \")\", ')', \"\\\")(\", '\\''); });\nnext();\n"), std::string::npos) << out;
}

TEST(LaunchRewrite, CommentsInsideTheLaunch) {
  std::string src =
      "k<<<4 /* cores ) */, nullptr, s>>>(a, // first ) argument\n"
      "    b /* ) */);\n"
      "after();\n";
  std::string out = rw(src);
  EXPECT_EQ(newlines(out), newlines(src));
  EXPECT_EQ(line_of(out, "after();"), 3u);
  EXPECT_NE(out.find("k(a, // first ) argument\n    b /* ) */); })"), std::string::npos) << out;
}

TEST(LaunchRewrite, TemplatedAndQualifiedKernels) {
  std::string out = rw("ns::k<float, 8><<<2, nullptr, s>>>(a);\n");
  EXPECT_NE(out.find("launch_at(\"ns::k<float, 8>\", ::kgen::rt::Loc::current(), (2), [&]() { ns::k<float, 8>(a); })"),
            std::string::npos)
      << out;
}

TEST(LaunchRewrite, SeveralLaunches) {
  std::string out = rw("a<<<1, nullptr, s>>>(x); b <<< 2, nullptr, s >>> (y);\n");
  EXPECT_NE(out.find("launch_at(\"a\", ::kgen::rt::Loc::current(), (1), [&]() { a(x); });"), std::string::npos) << out;
  EXPECT_NE(out.find("launch_at(\"b\", ::kgen::rt::Loc::current(), ( 2), [&]() { b(y); });"), std::string::npos) << out;
}
