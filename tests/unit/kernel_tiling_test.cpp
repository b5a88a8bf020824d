// The kernel's view of a tiling header that also holds host code (op/kernel_tiling.h): the tiling structs, their
// registrations and the constants they may use, nothing of the host code.
#include <gtest/gtest.h>

#include "op/kernel_tiling.h"

namespace {
using kgen::op::kernel_tiling_text;

TEST(KernelTiling, AHeaderOfTilingDataAloneIsIncludedAsItIs) {
  EXPECT_EQ(kernel_tiling_text("#include \"register/tilingdata_base.h\"\nnamespace optiling {\n"
                               "BEGIN_TILING_DATA_DEF(T)\n  TILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\n"
                               "REGISTER_TILING_DATA_CLASS(Op, T)\n}\n"),
            "");
}

TEST(KernelTiling, HostCodeIsLeftOutAndTheTilingDataKept) {
  const std::string header = R"(#pragma once
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#define MAX_CORES 48
#define SQUARE(x) ((x) * (x))
namespace optiling {
constexpr uint32_t SLOTS = 8;  // sizes the array below
static const std::map<int, int> NOT_FOR_THE_KERNEL = {{1, 2}};
static const std::string OP_NAME_NOT_FOR_THE_KERNEL = "Op";
BEGIN_TILING_DATA_DEF(OpTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, formerCoreNum); // a comment with { a brace
  TILING_DATA_FIELD_DEF_ARR(uint32_t, SLOTS, offsets);
END_TILING_DATA_DEF
REGISTER_TILING_DATA_CLASS(Op, OpTilingData)
struct OpCompileInfo { uint32_t cores = 0; };
template <typename T>
inline T* GetCompileInfoPtr(gert::TilingParseContext* context) {
  constexpr int INSIDE = 3;
  return context->GetCompiledInfo<T>();
}
class OpTiling {
 public:
  void Set(OpTilingData& t) { t.set_formerCoreNum(1); }
};
}  // namespace optiling
)";
  const std::string k = kernel_tiling_text(header);
  ASSERT_FALSE(k.empty());
  EXPECT_NE(k.find("#define MAX_CORES 48"), std::string::npos) << k;
  EXPECT_EQ(k.find("SQUARE"), std::string::npos) << k;
  EXPECT_NE(k.find("constexpr uint32_t SLOTS = 8;"), std::string::npos) << k;
  EXPECT_NE(k.find("BEGIN_TILING_DATA_DEF(OpTilingData)"), std::string::npos) << k;
  EXPECT_NE(k.find("TILING_DATA_FIELD_DEF_ARR(uint32_t, SLOTS, offsets);"), std::string::npos) << k;
  EXPECT_NE(k.find("END_TILING_DATA_DEF"), std::string::npos) << k;
  EXPECT_NE(k.find("REGISTER_TILING_DATA_CLASS(Op, OpTilingData)"), std::string::npos) << k;
  EXPECT_NE(k.find("namespace optiling {"), std::string::npos) << k;
  for (const char* host : {"gert::", "GetCompileInfoPtr", "INSIDE", "OpCompileInfo", "set_formerCoreNum",
                           "NOT_FOR_THE_KERNEL", "OP_NAME", "platform_ascendc", "a brace"})
    EXPECT_EQ(k.find(host), std::string::npos) << host << " in\n" << k;
  // The blocks keep their order: the constant before the struct that uses it.
  EXPECT_LT(k.find("SLOTS = 8"), k.find("BEGIN_TILING_DATA_DEF"));
}
}  // namespace
