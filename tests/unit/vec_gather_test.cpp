// Brcb, Gather and GatherMask against plain C++ references, plus the documented examples (0302, 0279).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/testing.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
struct Ub {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  explicit Ub(uint32_t bytes = 64 * 1024) { pipe.InitBuffer(buf, bytes); }
  template <class T> LocalTensor<T> at(uint32_t byte_off, uint32_t elems) {
    LocalTensor<T> t = buf.Get<T>()[byte_off / sizeof(T)];
    t.SetSize(elems);
    return t;
  }
};
uint32_t lcg(uint32_t& s) { s = s * 1664525u + 1013904223u; return s >> 8; }
}  // namespace

TEST(VecGather, BrcbDocExample) {   // 0302: uint16 [1..16], repeat 2, {1, 8}
  Ub ub;
  auto x = ub.at<uint16_t>(0, 16);
  auto y = ub.at<uint16_t>(1024, 256);
  for (int i = 0; i < 16; ++i) x.SetValue(i, uint16_t(i + 1));
  PipeBarrier<PIPE_ALL>();
  Brcb(y, x, 2, {1, 8});
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 256; ++i) EXPECT_EQ(y.GetValue(i), i / 16 + 1) << i;
}

// An element read from bytes nothing wrote fills its block with garbage, not a fault (a tile's rows past the data,
// Catlass's per-token scale); reading that block is the error, the other blocks are defined.
TEST(VecGather, BrcbGarbageElementPoisonsItsBlock) {
  Ub ub;
  auto x = ub.at<float>(0, 8);
  auto y = ub.at<float>(1024, 64);
  for (int i = 0; i < 5; ++i) x.SetValue(i, 1.0f + i);   // elements 5..7 never written
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(error_of([&] { Brcb(y, x, 1, {1, 8}); }), "");
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(y.GetValue(4 * 8 + 7), 5.0f);
  std::string e = error_of([&] { (void)y.GetValue(5 * 8); });
  EXPECT_NE(e.find("error[uninit-read]"), std::string::npos) << e;
  EXPECT_NE(e.find(" Brcb: "), std::string::npos) << "names the Brcb that read the garbage: " << e;
}

TEST(VecGather, BrcbStridesFloat) {
  Ub ub;
  auto x = ub.at<float>(0, 24);
  auto y = ub.at<float>(1024, 1024);
  for (int i = 0; i < 24; ++i) x.SetValue(i, 0.5f * i);
  for (int i = 0; i < 1024; ++i) y.SetValue(i, -1.f);
  PipeBarrier<PIPE_ALL>();
  BrcbRepeatParams p(2, 20);   // dstBlkStride 2, dstRepStride 20 blocks
  Brcb(y, x, 3, p);
  PipeBarrier<PIPE_ALL>();
  std::vector<float> want(1024, -1.f);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 8; ++i)
      for (int e = 0; e < 8; ++e) want[(r * 20 + i * 2) * 8 + e] = 0.5f * (r * 8 + i);
  for (int i = 0; i < 1024; ++i) EXPECT_EQ(y.GetValue(i), want[i]) << i;
  // dst overlapping src is rejected; int8 is not a Brcb type
  std::string e = error_of([&] { Brcb(x, x, 1, {1, 8}); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  auto b8 = ub.at<int8_t>(8192, 256);
  EXPECT_NE(error_of([&] { Brcb(b8, b8[128], 1, {1, 8}); }).find("error[dtype]"), std::string::npos);
}

TEST(VecGather, GatherCountFormByteOffsets) {
  Ub ub;
  const int n = 300, ns = 256;
  auto src = ub.at<float>(0, ns);
  auto off = ub.at<uint32_t>(2048, n);
  auto dst = ub.at<float>(4096, n);
  uint32_t s = 3;
  std::vector<uint32_t> o(n);
  for (int i = 0; i < ns; ++i) src.SetValue(i, 1.5f * i - 7);
  for (int i = 0; i < n; ++i) { o[i] = (lcg(s) % (ns - 16)) * 4; off.SetValue(i, o[i]); }
  PipeBarrier<PIPE_ALL>();
  Gather(dst, src, off, (uint32_t)64, n);   // base 64 bytes = element 16
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < n; ++i) EXPECT_EQ(dst.GetValue(i), 1.5f * (16 + o[i] / 4) - 7) << i;
  // offsets are bytes: an element index used as offset is misaligned for float
  PipeBarrier<PIPE_ALL>();
  off.SetValue(7, 3);
  PipeBarrier<PIPE_ALL>();
  std::string e = error_of([&] { Gather(dst, src, off, (uint32_t)0, n); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  PipeBarrier<PIPE_ALL>();
  off.SetValue(7, ns * 4);   // one past the end of src
  PipeBarrier<PIPE_ALL>();
  e = error_of([&] { Gather(dst, src, off, (uint32_t)0, n); });
  EXPECT_NE(e.find("error[ub-overflow]"), std::string::npos) << e;
}

TEST(VecGather, GatherMaskFormHalf) {
  Ub ub;
  auto src = ub.at<half>(0, 256);
  auto off = ub.at<uint32_t>(1024, 256);
  auto dst = ub.at<half>(4096, 512);
  for (int i = 0; i < 256; ++i) { src.SetValue(i, half(float(i))); off.SetValue(i, uint32_t((255 - i) * 2)); }
  for (int i = 0; i < 512; ++i) dst.SetValue(i, half(-1.f));
  uint64_t mask[2] = {0xAAAAAAAAAAAAAAAAull, 0x1ull};
  PipeBarrier<PIPE_ALL>();
  Gather(dst, src, off, (uint32_t)0, mask, 2, 16);   // dstRepStride 16 blocks = 256 halves
  PipeBarrier<PIPE_ALL>();
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 128; ++k) {
      bool on = k < 64 ? (mask[0] >> k) & 1 : (mask[1] >> (k - 64)) & 1;
      float want = on ? float(255 - (r * 128 + k)) : -1.f;
      EXPECT_EQ(float(dst.GetValue(r * 256 + k)), want) << r << " " << k;
    }
}

TEST(VecGather, GatherMaskBuiltinDocExample) {   // 0279: uint16 [1..128], pattern 2 -> even values, rsvdCnt 64
  Ub ub;
  auto src = ub.at<uint16_t>(0, 128);
  auto dst = ub.at<uint16_t>(1024, 128);
  for (int i = 0; i < 128; ++i) src.SetValue(i, uint16_t(i + 1));
  PipeBarrier<PIPE_ALL>();
  uint64_t rsvdCnt = 0;
  GatherMask(dst, src, (uint8_t)2, false, 0, {1, 1, 0, 0}, rsvdCnt);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(rsvdCnt, 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(dst.GetValue(i), 2 * (i + 1));
}

TEST(VecGather, GatherMaskAllBuiltinPatternsFloat) {
  Ub ub;
  auto src = ub.at<float>(0, 256);
  for (int i = 0; i < 256; ++i) src.SetValue(i, float(i));
  for (uint8_t pat = 1; pat <= 7; ++pat) {
    auto dst = ub.at<float>(2048 + pat * 1024, 128);
    PipeBarrier<PIPE_ALL>();
    uint64_t cnt = 0;
    GatherMask(dst, src, pat, false, 0, {1, 2, 16, 0}, cnt);   // 2 repeats, second starts at element 128
    PipeBarrier<PIPE_ALL>();
    std::vector<float> want;
    for (int r = 0; r < 2; ++r)
      for (int k = 0; k < 64; ++k) {
        bool keep = pat == 1 ? k % 2 == 0 : pat == 2 ? k % 2 == 1 : pat == 7 ? true : k % 4 == pat - 3;
        if (keep) want.push_back(float(r * 128 + k));
      }
    ASSERT_EQ(cnt, want.size()) << int(pat);
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(dst.GetValue(i), want[i]) << int(pat) << " " << i;
  }
}

TEST(VecGather, GatherMaskUserPatternCounterMode) {   // 0279 config 1: mask 70 per repeat, {1, 2, 4, 0}
  Ub ub;
  auto src = ub.at<uint32_t>(0, 256);
  auto pat = ub.at<uint32_t>(2048, 32);
  auto dst = ub.at<uint32_t>(4096, 256);
  uint32_t s = 9;
  std::vector<uint32_t> pv(32);
  for (int i = 0; i < 256; ++i) src.SetValue(i, uint32_t(1000 + i));
  for (int i = 0; i < 32; ++i) { pv[i] = lcg(s) ^ (lcg(s) << 16); pat.SetValue(i, pv[i]); }
  SetMaskCount();
  PipeBarrier<PIPE_ALL>();
  uint64_t cnt = 0;
  GatherMask(dst, src, pat, true, 70, {1, 2, 4, 0}, cnt);
  PipeBarrier<PIPE_ALL>();
  std::vector<uint32_t> want;
  for (int r = 0; r < 2; ++r)
    for (int k = 0; k < 70; ++k)
      if ((pv[k / 32] >> (k % 32)) & 1) want.push_back(1000 + r * 32 + k);   // repeat stride 4 blocks = 32 elements
  ASSERT_EQ(cnt, want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(dst.GetValue(i), want[i]) << i;
  EXPECT_FALSE(kgen::sim::cur().mask_counter);   // GatherMask leaves normal mode set
}

TEST(VecGather, GatherMaskNegative) {
  Ub ub;
  auto src = ub.at<half>(0, 128);
  auto dst = ub.at<half>(1024, 128);
  auto p32 = ub.at<uint32_t>(2048, 8);
  for (int i = 0; i < 128; ++i) src.SetValue(i, half(1.f));
  for (int i = 0; i < 8; ++i) p32.SetValue(i, 0xFFu);
  PipeBarrier<PIPE_ALL>();
  uint64_t cnt = 0;
  EXPECT_NE(error_of([&] { GatherMask(dst, src, (uint8_t)8, false, 0, {1, 1, 0, 0}, cnt); }).find("error[param]"), std::string::npos);
  EXPECT_NE(error_of([&] { GatherMask(dst, src, p32, false, 0, {1, 1, 0, 0}, cnt); }).find("error[param]"), std::string::npos);
  EXPECT_NE(error_of([&] { GatherMask(dst, src, (uint8_t)1, true, 0, {1, 1, 0, 0}, cnt); }).find("error[param]"), std::string::npos);
  auto i8 = ub.at<int8_t>(4096, 256);
  EXPECT_NE(error_of([&] { GatherMask(i8, i8[128], (uint8_t)1, false, 0, {1, 1, 0, 0}, cnt); }).find("error[dtype]"), std::string::npos);
  // reading a second repeat nobody wrote
  std::string e = error_of([&] { GatherMask(dst, src, (uint8_t)7, false, 0, {1, 2, 8, 0}, cnt); });
  EXPECT_NE(e.find("error["), std::string::npos) << e;
}

// TransDataTo5HD: 16 source blocks per repeat into 16 destination blocks. 16-bit: a 16 x 16 transpose; 32-bit: block
// 2e + h holds element e of sources 8h..8h+7 (C0 = 16 channels of one position in two blocks); 8-bit: half blocks.
TEST(VecTranspose, TransDataTo5HDBlockLayouts) {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 4096);
  auto h = tb.Get<int16_t>();
  for (int i = 0; i < 256; ++i) h.SetValue(i, static_cast<int16_t>(i));
  uint64_t dl[16], sl[16];
  for (int i = 0; i < 16; ++i) {
    sl[i] = h.GetPhyAddr() + 32 * i;
    dl[i] = h.GetPhyAddr() + 1024 + 32 * i;
  }
  TransDataTo5HDParams p;
  p.repeatTimes = 1;   // with one repeat the blocks start one stride past the lists: stride 0 keeps them
  PipeBarrier<PIPE_ALL>();
  ASSERT_EQ(kgen::sim::error_of([&] { TransDataTo5HD<int16_t>(dl, sl, p); }), "");
  PipeBarrier<PIPE_ALL>();
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) ASSERT_EQ(h.GetValue(512 + j * 16 + i), i * 16 + j) << j << " " << i;
  auto f = tb.Get<int32_t>();
  for (int i = 0; i < 128; ++i) f.SetValue(i, 1000 + i);   // source i: elements 8i .. 8i + 7
  for (int i = 0; i < 16; ++i) {
    sl[i] = f.GetPhyAddr() + 32 * i;
    dl[i] = f.GetPhyAddr() + 2048 + 32 * i;
  }
  PipeBarrier<PIPE_ALL>();
  ASSERT_EQ(kgen::sim::error_of([&] { TransDataTo5HD<int32_t>(dl, sl, p); }), "");
  PipeBarrier<PIPE_ALL>();
  for (int e = 0; e < 8; ++e)
    for (int hh = 0; hh < 2; ++hh)
      for (int i = 0; i < 8; ++i) ASSERT_EQ(f.GetValue(512 + (2 * e + hh) * 8 + i), 1000 + (8 * hh + i) * 8 + e);
  auto b = tb.Get<uint8_t>();
  for (int i = 0; i < 512; ++i) b.SetValue(i, static_cast<uint8_t>(i % 251));
  for (int i = 0; i < 16; ++i) {
    sl[i] = b.GetPhyAddr() + 32 * i;
    dl[i] = b.GetPhyAddr() + 3072 + 32 * i;
  }
  p.srcHighHalf = true;
  p.dstHighHalf = true;
  PipeBarrier<PIPE_ALL>();
  ASSERT_EQ(kgen::sim::error_of([&] { TransDataTo5HD<uint8_t>(dl, sl, p); }), "");
  PipeBarrier<PIPE_ALL>();
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) ASSERT_EQ(b.GetValue(3072 + j * 32 + 16 + i), (i * 32 + j + 16) % 251) << j << " " << i;
  sl[3] += 8;   // not 32-byte aligned
  EXPECT_NE(kgen::sim::error_of([&] { TransDataTo5HD<uint8_t>(dl, sl, p); }).find("error[align]"), std::string::npos);
}

// bisheng's raw intrinsics on UB addresses (kgen/ccec_vector.h), as NPUKernelBench's AddLayerNorm broadcasts: the
// AscendC instructions of the same encoding under the mask already set, VA registers for scatter_vnchwconv.
TEST(VecTranspose, RawIntrinsicsOnUbAddresses) {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 4096);
  auto h = tb.Get<int16_t>();
  int16_t* base = reinterpret_cast<int16_t*>(h.GetPhyAddr());
  set_vector_mask(0, 0xFFFF);   // 16 lanes
  vector_dup(base, static_cast<int16_t>(5), 1, 1, 0, 0, 0);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(h.GetValue(15), 5);
  EXPECT_NE(kgen::sim::error_of([&] { (void)h.GetValue(16); }).find("uninit-read"), std::string::npos);
  for (int i = 0; i < 256; ++i) h.SetValue(256 + i, static_cast<int16_t>(i));
  PipeBarrier<PIPE_ALL>();
  copy_ubuf_to_ubuf(base + 512, base + 256, 0, 1, 16, 0, 0);   // 16 blocks
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(h.GetValue(512 + 200), 200);
  vtranspose(reinterpret_cast<uint16_t*>(base + 768), reinterpret_cast<uint16_t*>(base + 512));
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(h.GetValue(768 + 3 * 16 + 7), 7 * 16 + 3);
  set_vector_mask(0, 0xFFFF);
  vor(base + 1024, base + 768, base, 1, 1, 1, 0, 8, 8, 0);   // src1 block stride 0: the 5s
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(h.GetValue(1024 + 1), static_cast<int16_t>((1 * 16) | 5));
  uint64_t va0[8], va1[8], va2[8], va3[8];
  for (int i = 0; i < 8; ++i) {
    va0[i] = h.GetPhyAddr() + 2560 + 32 * i;
    va1[i] = h.GetPhyAddr() + 2560 + 32 * (8 + i);
    va2[i] = h.GetPhyAddr() + 512 * 2 + 32 * i;   // the copy at element 512
    va3[i] = h.GetPhyAddr() + 512 * 2 + 32 * (8 + i);
  }
  set_va_reg_sb(VA0, va0);
  set_va_reg_sb(VA1, va1);
  set_va_reg_sb(VA2, va2);
  set_va_reg_sb(VA3, va3);
  scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(h.GetValue(1280 + 3 * 16 + 7), 7 * 16 + 3);   // the same transpose through the VA registers
  EXPECT_NE(kgen::sim::error_of([&] { scatter_vnchwconv_b16(VA7, VA2, 1, 0, 0); }).find("error[param]"),
            std::string::npos);
}
