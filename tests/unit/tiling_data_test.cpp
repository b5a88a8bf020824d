// CANN's TilingData macros (register/tilingdata_base.h) on the host: set/get, arrays, nested tiling structs,
// a TCubeTiling field, SaveToBuffer/GetDataSize, the registry; the byte layout equals the kernel-side struct's
// (tiling_data_kernel_test.cpp compiles the same definitions in a kernel TU) and a kernel reads a host-saved blob
// through GET_TILING_DATA.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
#include "tikicpulib.h"
#include "sim/testing.h"
#include "tiling_data_test_shared.h"

namespace optiling {
namespace host_t {
#include "tiling_data_test_defs.h"
}  // namespace host_t
}  // namespace optiling

using optiling::host_t::KtInner;
using optiling::host_t::KtKey1;
using optiling::host_t::KtTiling;

namespace {
// The guide's (0072) equivalent plain C++ struct, written by hand.
struct PlainInner {
  uint16_t a;
  uint8_t b[3];
};
struct Plain {
  uint8_t c;
  uint32_t total;
  int64_t big;
  int16_t arr[5];
  float f;
  PlainInner inner;
  int8_t s8;
  AscendC::tiling::TCubeTiling cube;
  uint64_t last;
  uint16_t tail;
};

KtTiling make_filled() {
  KtTiling t;
  t.set_c(200);
  t.set_total(123456789u);
  t.set_big(-9876543210123LL);
  int16_t arr[7] = {1, -2, 3, -4, 5, 99, 99};
  t.set_arr(arr);
  t.set_f(3.5f);
  t.inner.set_a(65000);
  uint8_t b[3] = {7, 8, 9};
  t.inner.set_b(b);
  t.set_s8(-7);
  t.cube.set_M(128);
  t.cube.set_baseK(64);
  t.cube.set_mxTypePara(5);
  t.set_last(0x0123456789abcdefULL);
  t.set_tail(4242);
  return t;
}

void expect_seen(const kgen_tiling_test::Seen& s, const KtTiling& t) {
  KtTiling& m = const_cast<KtTiling&>(t);
  EXPECT_EQ(s.c, t.get_c());
  EXPECT_EQ(s.total, t.get_total());
  EXPECT_EQ(s.big, t.get_big());
  for (int i = 0; i < 5; ++i) EXPECT_EQ(s.arr[i], m.get_arr()[i]);
  EXPECT_EQ(s.f, t.get_f());
  EXPECT_EQ(s.a, t.inner.get_a());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.b[i], m.inner.get_b()[i]);
  EXPECT_EQ(s.s8, t.get_s8());
  EXPECT_EQ(s.cubeM, t.cube.get_M());
  EXPECT_EQ(s.cubeBaseK, t.cube.get_baseK());
  EXPECT_EQ(s.cubeMx, t.cube.get_mxTypePara());
  EXPECT_EQ(s.last, t.get_last());
  EXPECT_EQ(s.tail, t.get_tail());
}
}  // namespace

TEST(TilingData, SetGetScalarsArraysStructs) {
  KtTiling t = make_filled();
  EXPECT_EQ(t.get_c(), 200);
  EXPECT_EQ(t.get_total(), 123456789u);
  EXPECT_EQ(t.get_big(), -9876543210123LL);
  EXPECT_EQ(t.get_arr()[3], -4);
  EXPECT_EQ(t.get_arr()[4], 5);
  EXPECT_EQ(t.get_f(), 3.5f);
  EXPECT_EQ(t.inner.get_a(), 65000);
  EXPECT_EQ(t.inner.get_b()[2], 9);
  EXPECT_EQ(t.cube.get_M(), 128);
  // Fields start at zero.
  KtTiling z;
  EXPECT_EQ(z.get_total(), 0u);
  EXPECT_EQ(z.get_arr()[0], 0);
  EXPECT_EQ(z.inner.get_a(), 0);
  // A copy is independent and serializes its own values.
  KtTiling c = t;
  c.set_total(5);
  EXPECT_EQ(t.get_total(), 123456789u);
  std::vector<uint8_t> bc(c.GetDataSize()), bt(t.GetDataSize());
  c.SaveToBuffer(bc.data(), bc.size());
  t.SaveToBuffer(bt.data(), bt.size());
  EXPECT_EQ(kgen_tiling_test::read_through_kernel_struct(bc.data()).total, 5u);
  EXPECT_EQ(kgen_tiling_test::read_through_kernel_struct(bt.data()).total, 123456789u);
}

TEST(TilingData, LayoutEqualsKernelStructAndPlainStruct) {
  KtTiling t;
  auto l = kgen_tiling_test::kernel_layout();
  EXPECT_EQ(t.GetDataSize(), l.size);
  EXPECT_EQ(t.GetDataSize(), sizeof(Plain));
  EXPECT_EQ(KtInner().GetDataSize(), l.inner_size);
  EXPECT_EQ(KtInner().GetDataSize(), sizeof(PlainInner));
  EXPECT_EQ(KtKey1().GetDataSize(), l.key1_size);
  EXPECT_EQ(l.off_c, offsetof(Plain, c));
  EXPECT_EQ(l.off_total, offsetof(Plain, total));
  EXPECT_EQ(l.off_big, offsetof(Plain, big));
  EXPECT_EQ(l.off_arr, offsetof(Plain, arr));
  EXPECT_EQ(l.off_f, offsetof(Plain, f));
  EXPECT_EQ(l.off_inner, offsetof(Plain, inner));
  EXPECT_EQ(l.off_inner_b, offsetof(PlainInner, b));
  EXPECT_EQ(l.off_s8, offsetof(Plain, s8));
  EXPECT_EQ(l.off_cube, offsetof(Plain, cube));
  EXPECT_EQ(l.off_last, offsetof(Plain, last));
  EXPECT_EQ(l.off_tail, offsetof(Plain, tail));
  // Every field at a multiple of its size (CANN's offset % sizeof == 0 rule).
  EXPECT_EQ(l.off_total % 4, 0u);
  EXPECT_EQ(l.off_big % 8, 0u);
  EXPECT_EQ(l.off_arr % 2, 0u);
  EXPECT_EQ(l.off_last % 8, 0u);
}

TEST(TilingData, SaveToBufferReadThroughKernelStruct) {
  KtTiling t = make_filled();
  std::vector<uint8_t> buf(t.GetDataSize() + 16, 0xAB);
  t.SaveToBuffer(buf.data(), buf.size());
  expect_seen(kgen_tiling_test::read_through_kernel_struct(buf.data()), t);
  // Padding is written as zero; bytes past GetDataSize are untouched.
  auto l = kgen_tiling_test::kernel_layout();
  for (size_t i = l.off_c + 1; i < l.off_total; ++i) EXPECT_EQ(buf[i], 0) << i;
  EXPECT_EQ(buf[t.GetDataSize()], 0xAB);
  // Same bytes as the plain struct filled field by field.
  Plain p{};
  std::memcpy(&p, buf.data(), sizeof(p));
  EXPECT_EQ(p.cube.baseK, 64);
  EXPECT_EQ(p.inner.b[1], 8);
}

// A copy (and an assignment) saves its own fields: the field table holds offsets from the object, not pointers.
TEST(TilingData, CopiesSaveTheirOwnFields) {
  KtTiling t = make_filled();
  KtTiling copy(t);
  KtTiling assigned;
  assigned = t;
  t.set_total(99);   // after the copies: only t changes
  std::vector<uint8_t> a(t.GetDataSize()), b(t.GetDataSize()), c(t.GetDataSize());
  copy.SaveToBuffer(b.data(), b.size());
  assigned.SaveToBuffer(c.data(), c.size());
  EXPECT_EQ(b, c);
  EXPECT_EQ(copy.GetDataSize(), t.GetDataSize());
  t.SaveToBuffer(a.data(), a.size());
  EXPECT_NE(a, b);
  t.set_total(make_filled().get_total());
  t.SaveToBuffer(a.data(), a.size());
  EXPECT_EQ(a, b);
}

// SetDataPtr (CANN's reserved interface; FlashAttention's tiling uses it and never calls SaveToBuffer): the fields
// reach that buffer by the time the object is gone, before the runner reads the raw tiling data.
TEST(TilingData, SetDataPtrBufferGetsTheFields) {
  KtTiling filled = make_filled();
  std::vector<uint8_t> want(filled.GetDataSize()), got(filled.GetDataSize(), 0xAB);
  filled.SaveToBuffer(want.data(), want.size());
  {
    KtTiling t;
    t.SetDataPtr(got.data());
    t = make_filled();   // an assignment keeps t's buffer, and the temporary (no buffer) writes nothing
    KtTiling copy(t);    // nor does a copy
  }
  EXPECT_EQ(got, want);
}

TEST(TilingData, SaveToBufferTooSmallWritesNothingAndReports) {
  KtTiling t = make_filled();
  std::vector<uint8_t> buf(t.GetDataSize(), 0xCD);
  int before = kgen::tiling::save_failures();
  testing::internal::CaptureStderr();
  t.SaveToBuffer(buf.data(), t.GetDataSize() - 1);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(kgen::tiling::save_failures(), before + 1);
  EXPECT_NE(err.find("error[param] SaveToBuffer"), std::string::npos) << err;
  EXPECT_NE(err.find("KtTiling"), std::string::npos) << err;
  for (auto v : buf) EXPECT_EQ(v, 0xCD);
}

TEST(TilingData, Registry) {
  auto& f = optiling::CTilingDataClassFactory::GetInstance();
  auto d = f.CreateTilingDataInstance("KtOp");
  ASSERT_NE(d, nullptr);
  EXPECT_STREQ(d->GetTilingClassName(), "KtTiling");
  EXPECT_EQ(d->GetDataSize(), KtTiling().GetDataSize());
  auto k = f.CreateTilingDataInstance("KtOp_1");
  ASSERT_NE(k, nullptr);
  EXPECT_STREQ(k->GetTilingClassName(), "KtKey1");
  auto i = f.CreateTilingDataInstance("KtInnerOp");
  ASSERT_NE(i, nullptr);
  EXPECT_STREQ(i->GetTilingClassName(), "KtInner");
  EXPECT_EQ(f.CreateTilingDataInstance("NoSuchOp"), nullptr);
  static_assert(kgen::tiling::reg_kind("KtOp", "KtTiling") == 0);
  static_assert(kgen::tiling::reg_kind("KtInnerOp", "KtInner") == 1);
  static_assert(kgen::tiling::reg_kind("KtOp_1", "KtKey1") == 2);
  static_assert(kgen::tiling::reg_kind("Add_Custom", "T") == 0);
}

TEST(TilingData, KernelReadsHostSavedBlobWithGetTilingData) {
  kgen::sim::set_throw_on_error(true);
  KtTiling t = make_filled();
  auto* gm = static_cast<uint8_t*>(AscendC::GmAlloc(t.GetDataSize()));
  t.SaveToBuffer(gm, t.GetDataSize());
  auto seen = kgen_tiling_test::run_kernel(gm, 2);
  expect_seen(seen, t);
  AscendC::GmFree(gm);
}
