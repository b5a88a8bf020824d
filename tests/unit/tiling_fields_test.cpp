// op::decode_tiling: tiling data read back with the tiling header (op/tiling_fields.h), laid out as
// register/tilingdata_base.h lays it out (each field at its natural alignment, nested classes inline).
#include <gtest/gtest.h>

#include <cstring>

#include "op/tiling_fields.h"

namespace {
template <class T>
void put(std::vector<uint8_t>& d, size_t off, T v) {
  if (d.size() < off + sizeof v) d.resize(off + sizeof v);
  std::memcpy(d.data() + off, &v, sizeof v);
}
}  // namespace

TEST(TilingFields, FieldsAtTheirAlignmentWithCommentsAndArrays) {
  const std::string h = R"(
BEGIN_TILING_DATA_DEF(Inner)
TILING_DATA_FIELD_DEF(uint16_t, a);
TILING_DATA_FIELD_DEF(uint64_t, b);   // wide
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(FooTilingData)
TILING_DATA_FIELD_DEF(uint8_t, flag);   // one byte
TILING_DATA_FIELD_DEF(uint32_t, n);     // padded to 4
TILING_DATA_FIELD_DEF_ARR(int16_t, 3, dims);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_STRUCT(Inner, in);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Foo, FooTilingData)
)";
  std::vector<uint8_t> d;
  put<uint8_t>(d, 0, 1);
  put<uint32_t>(d, 4, 70000);
  put<int16_t>(d, 8, -1), put<int16_t>(d, 10, 2), put<int16_t>(d, 12, 3);
  put<float>(d, 16, 0.5f);
  put<uint16_t>(d, 24, 9);   // Inner aligned to 8 (its widest field)
  put<uint64_t>(d, 32, 1ull << 40);
  std::string note;
  auto f = kgen::op::decode_tiling(h, "Foo", d, note);
  ASSERT_EQ(f.size(), 6u) << note;
  EXPECT_EQ(f[0].value, "1");
  EXPECT_EQ(f[0].comment, "one byte");
  EXPECT_EQ(f[1].value, "70000");
  EXPECT_EQ(f[2].name, "dims");
  EXPECT_EQ(f[2].value, "-1, 2, 3");
  EXPECT_EQ(f[3].value, "0.5");
  EXPECT_EQ(f[4].name, "in.a");
  EXPECT_EQ(f[4].value, "9");
  EXPECT_EQ(f[5].name, "in.b");
  EXPECT_EQ(f[5].value, "1099511627776");
  EXPECT_EQ(f[5].comment, "wide");
  EXPECT_TRUE(note.empty()) << note;
}

TEST(TilingFields, AStructDefinedElsewhereEndsTheDecodingWithANote) {
  const std::string h = R"(
BEGIN_TILING_DATA_DEF(MmTilingData)
TILING_DATA_FIELD_DEF(uint32_t, items);
TILING_DATA_FIELD_DEF_STRUCT(OtherTiling, other);
TILING_DATA_FIELD_DEF(uint32_t, after);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Mm, MmTilingData)
)";
  std::vector<uint8_t> d(64, 0);
  put<uint32_t>(d, 0, 48);
  std::string note;
  auto f = kgen::op::decode_tiling(h, "Mm", d, note);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].value, "48");
  EXPECT_EQ(f[1].value, "");
  EXPECT_NE(note.find("other (OtherTiling)"), std::string::npos) << note;
}

TEST(TilingFields, TCubeTilingIsKnown) {   // the Matmul API's tiling: 50 int32 fields (kernel_tiling.h)
  const std::string h = R"(
BEGIN_TILING_DATA_DEF(MmTilingData)
TILING_DATA_FIELD_DEF(uint32_t, items);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
TILING_DATA_FIELD_DEF(uint32_t, after);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Mm, MmTilingData)
)";
  std::vector<uint8_t> d;
  put<uint32_t>(d, 0, 7);
  for (int i = 0; i < 50; ++i) put<int32_t>(d, 4 + 4 * i, 100 + i);
  put<uint32_t>(d, 4 + 4 * 50, 5);
  std::string note;
  auto f = kgen::op::decode_tiling(h, "Mm", d, note);
  ASSERT_EQ(f.size(), 52u) << note;
  EXPECT_EQ(f[1].name, "cubeTiling.usedCoreNum");
  EXPECT_EQ(f[1].value, "100");
  EXPECT_EQ(f[2].name, "cubeTiling.M");
  EXPECT_EQ(f[51].name, "after");
  EXPECT_EQ(f[51].value, "5");
}

TEST(TilingFields, ShortDataAndNoRegisteredClassAreSaid) {
  const std::string h = "BEGIN_TILING_DATA_DEF(X)\nTILING_DATA_FIELD_DEF(uint64_t, big);\nEND_TILING_DATA_DEF;\n"
                        "REGISTER_TILING_DATA_CLASS(XOp, X)\n";
  std::string note;
  auto f = kgen::op::decode_tiling(h, "XOp", std::vector<uint8_t>(4, 0), note);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(note.find("ends before big"), std::string::npos) << note;
  note.clear();
  EXPECT_TRUE(kgen::op::decode_tiling("// nothing", "", {}, note).empty());
  EXPECT_NE(note.find("registers no tiling class"), std::string::npos);
}
