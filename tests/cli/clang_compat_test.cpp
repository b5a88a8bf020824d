// In-class explicit specializations of member function templates rewritten to constrained overloads
// (src/cli/clang_compat.h): what is rewritten, exactly, and what is left alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/clang_compat.h"

using kgen::cli::rewrite_defaulted_constructors;
using kgen::cli::rewrite_member_specializations;

TEST(MemberSpecialization, CoreTypeDispatchBecomesConstrainedOverloads) {
  // Catlass's kernel form: a declared primary with a default, one specialization per core type.
  const std::string src =
      "template <class B>\n"
      "class Kernel {\n"
      "public:\n"
      "    template <int32_t CORE_TYPE = g_coreType>\n"
      "    __aicore__ void operator()(Params const &params);\n"
      "\n"
      "    template <>\n"
      "    __aicore__ void operator()<AscendC::AIC>(Params const &params) { Cube(params); }\n"
      "    template <>\n"
      "    __aicore__ void operator()<\n"
      "        AscendC::AIV>(Params const &params) { /* template <> f<1>() */ }\n"
      "};\n";
  bool changed = false;
  const std::string out = rewrite_member_specializations(src, changed);
  EXPECT_TRUE(changed);
  EXPECT_EQ(out,
            "template <class B>\n"
            "class Kernel {\n"
            "public:\n"
            "    template <int32_t CORE_TYPE = g_coreType>\n"
            "    __aicore__ void operator()(Params const &params);\n"
            "\n"
            "    template <int32_t CORE_TYPE = g_coreType> requires (CORE_TYPE == (AscendC::AIC))\n"
            "    __aicore__ void operator()              (Params const &params) { Cube(params); }\n"
            "    template <int32_t CORE_TYPE = g_coreType> requires (CORE_TYPE == (AscendC::AIV))\n"
            "    __aicore__ void operator() \n"
            "                     (Params const &params) { /* template <> f<1>() */ }\n"
            "};\n");
}

TEST(MemberSpecialization, NamedFunctionAndTypeParameter) {
  const std::string src =
      "struct S {\n"
      "  template <typename T> T Get(int i);\n"
      "  template <> float Get<float>(int i) { return i; }\n"
      "};\n";
  bool changed = false;
  EXPECT_EQ(rewrite_member_specializations(src, changed),
            "struct S {\n"
            "  template <typename T> T Get(int i);\n"
            "  template <typename T> requires (std::is_same_v<T, float>) float Get       (int i) { return i; }\n"
            "};\n");
  EXPECT_TRUE(changed);
}

TEST(MemberSpecialization, MemberClassTemplateGetsATagParameter) {
  const std::string src =
      "template <class P>\n"
      "class Kernel {\n"
      "    template<class T>\n"
      "    struct LayoutHelper { using type = typename T::LayoutIn; };\n"
      "    template<>\n"
      "    struct LayoutHelper<void> { using type = void; };\n"
      "    using L = typename LayoutHelper<P>::type;\n"
      "};\n";
  bool changed = false;
  EXPECT_EQ(rewrite_member_specializations(src, changed),
            "template <class P>\n"
            "class Kernel {\n"
            "    template<class T, class KgenSpecTag = void>\n"
            "    struct LayoutHelper { using type = typename T::LayoutIn; };\n"
            "    template <class KgenSpecTag>\n"
            "    struct LayoutHelper<void, KgenSpecTag> { using type = void; };\n"
            "    using L = typename LayoutHelper<P>::type;\n"
            "};\n");
  EXPECT_TRUE(changed);
}

TEST(MemberSpecialization, LeavesEverythingElseAlone) {
  const std::string src =
      "template <class T> struct Sel { using U = T; };\n"
      "template <> struct Sel<int> { using U = long; };\n"          // namespace scope: valid C++ already
      "template <> void f<1>(int) {}\n"
      "struct A {\n"
      "  template <int X, int Y> void g(int);\n"                     // two parameters: no single condition
      "  template <> void g<1, 2>(int) {}\n"
      "  template <> void h<1>(int) {}\n"                            // no primary in this class
      "  // template <> void g<3>(int) {}\n"
      "  const char* s = \"template <> void g<4>(int) {}\";\n"
      "  template <class... T> struct Pack {};\n"
      "  template <> struct Pack<int> {};\n"                        // a pack: no room for a tag
      "};\n";
  bool changed = false;
  EXPECT_EQ(rewrite_member_specializations(src, changed), src);
  EXPECT_FALSE(changed);
}

// C++17's aggregates (bisheng's standard): a class whose constructors are all public defaulted ones stays an aggregate
// once they are gone, as it was in C++17; any other constructor keeps them.
TEST(DefaultedConstructors, AllDefaultedAreDropped) {
  const std::vector<std::string> lines = {"struct WaitFunc {",
                                          "    __aicore__ inline",
                                          "    WaitFunc() = default;",
                                          "    WaitFunc(const WaitFunc&) = default;",
                                          "    void operator()() const { Wait(ptr->flags[id]); }",
                                          "    Kernel* ptr{nullptr};",
                                          "    uint32_t id;",
                                          "};"};
  std::string src, want;
  for (size_t i = 0; i < lines.size(); ++i) {
    src += lines[i] + "\n";
    want += (i >= 1 && i <= 3 ? std::string(lines[i].size(), ' ') : lines[i]) + "\n";   // the three, blanked
  }
  bool changed = false;
  EXPECT_EQ(rewrite_defaulted_constructors(src, changed), want);
  EXPECT_TRUE(changed);
}

TEST(DefaultedConstructors, OtherConstructorsKeepThem) {
  const std::string src =
      "struct A { A() = default; A(int v) : v(v) {} int v; };\n"
      "struct B { B() = default; template <class T> B(T t) {} };\n"
      "struct C { explicit C() = default; };\n"
      "class D { D() = default; };\n"                          // private
      "struct E { E() = default; private: int e; };\n"         // not an aggregate for other reasons; harmless
      "void f() { struct { int x; } s; A a = A(); }\n";
  bool changed = false;
  const std::string out = rewrite_defaulted_constructors(src, changed);
  EXPECT_EQ(out.substr(0, out.find("struct E")), src.substr(0, src.find("struct E")));
  EXPECT_NE(out.find("struct E {" + std::string(std::string(" E() = default;").size(), ' ') + " private: int e; };"),
            std::string::npos)
      << out;
  EXPECT_TRUE(changed);
}
