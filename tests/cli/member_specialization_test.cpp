// In-class explicit specializations of member function templates rewritten to constrained overloads
// (src/cli/member_specialization.h): what is rewritten, exactly, and what is left alone.
#include <gtest/gtest.h>

#include "cli/member_specialization.h"

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
