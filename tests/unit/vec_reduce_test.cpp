// Reductions: ReduceSum/Max/Min, WholeReduce*, BlockReduce*, PairReduceSum, RepeatReduceSum against plain C++
// references written here, plus the documented examples (0287, 0289, 0293) with their printed outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "sim/testing.h"

using namespace AscendC;
using kgen::sim::error_of;

namespace {
// One VECCALC buffer, carved into tensors by byte offset.
struct Ub {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  explicit Ub(uint32_t bytes = 96 * 1024) { pipe.InitBuffer(buf, bytes); }
  template <class T> LocalTensor<T> at(uint32_t byte_off, uint32_t elems) {
    LocalTensor<T> t = buf.Get<T>()[byte_off / sizeof(T)];
    t.SetSize(elems);
    return t;
  }
};
template <class T> void fill(const LocalTensor<T>& t, const std::vector<float>& v) {
  for (size_t i = 0; i < v.size(); ++i) t.SetValue(i, T(v[i]));
}
std::vector<float> rnd(size_t n, uint32_t seed, float lo = -4.f, float hi = 4.f, bool as_half = true) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * ((s >> 8) / 16777216.0f);
    if (as_half) x = static_cast<float>(half(x));
  }
  return v;
}
// Reference pairwise tree with the chip's rounding: half steps saturate at +-65504 and round to half.
float ref_add(bool h, float a, float b) {
  float s = a + b;
  if (!h) return s;
  s = std::fmin(std::fmax(s, -65504.f), 65504.f);
  return static_cast<float>(half(s));
}
float ref_tree(std::vector<float> v, bool h) {
  size_t n = 1;
  while (n < v.size()) n *= 2;
  v.resize(n, 0.f);
  while (v.size() > 1) {
    std::vector<float> w(v.size() / 2);
    for (size_t i = 0; i < w.size(); ++i) w[i] = ref_add(h, v[2 * i], v[2 * i + 1]);
    v = w;
  }
  return v[0];
}
uint16_t bits16(half h) { uint16_t u; std::memcpy(&u, &h, 2); return u; }
}  // namespace

// ---------------- WholeReduceSum ----------------
TEST(VecReduce, WholeReduceSumDocExample) {   // 0289: 2048 ones, mask 128, repeat 16 -> 16 x 128
  Ub ub;
  auto src = ub.at<half>(0, 2048);
  auto dst = ub.at<half>(8192, 16);
  fill(src, std::vector<float>(2048, 1.0f));
  PipeBarrier<PIPE_ALL>();
  WholeReduceSum<half>(dst, src, 128, 16, 1, 1, 8);
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(static_cast<float>(dst.GetValue(i)), 128.0f);
}

TEST(VecReduce, WholeReduceSumHalfSaturates) {   // 0289: [60000, 60000, -30000, 100] -> 65504 + (-29900)
  Ub ub;
  auto src = ub.at<half>(0, 128);
  auto dst = ub.at<half>(1024, 16);
  fill(src, {60000.f, 60000.f, -30000.f, 100.f});
  PipeBarrier<PIPE_ALL>();
  WholeReduceSum<half>(dst, src, 4, 1, 1, 1, 8);
  PipeBarrier<PIPE_ALL>();
  float got = dst.GetValue(0);
  EXPECT_EQ(got, ref_tree({60000.f, 60000.f, -30000.f, 100.f}, true));
  EXPECT_NEAR(got, 35604.f, 32.f);   // the doc's value up to half rounding of the intermediates
}

TEST(VecReduce, WholeReduceSumFloatStridesAndBitMask) {
  Ub ub;
  const int rep = 3, blk = 2, srep = 16, dstrep = 2;
  auto src = ub.at<float>(0, 64 * 16);
  auto dst = ub.at<float>(8192, 64);
  auto v = rnd(64 * 16, 7, -4, 4, false);
  fill(src, v);
  fill(dst, std::vector<float>(64, -1.f));
  uint64_t mask[2] = {0xF0F0F0F0F00F00FFull, 0};
  PipeBarrier<PIPE_ALL>();
  WholeReduceSum<float>(dst, src, mask, rep, dstrep, blk, srep);
  PipeBarrier<PIPE_ALL>();
  for (int r = 0; r < rep; ++r) {
    std::vector<float> lanes(64, 0.f);
    for (int k = 0; k < 64; ++k)
      if ((mask[0] >> k) & 1) lanes[k] = v[(r * srep + (k / 8) * blk) * 8 + k % 8];
    EXPECT_FLOAT_EQ(dst.GetValue(r * dstrep), ref_tree(lanes, false)) << r;
    EXPECT_EQ(dst.GetValue(r * dstrep + 1), -1.f);   // the gap is untouched
  }
}

TEST(VecReduce, RepeatReduceSumMatchesWholeReduceSum) {
  Ub ub;
  auto src = ub.at<half>(0, 512);
  auto d1 = ub.at<half>(2048, 16), d2 = ub.at<half>(4096, 16);
  fill(src, rnd(512, 3));
  PipeBarrier<PIPE_ALL>();
  RepeatReduceSum<half>(d1, src, 4, 100, 0, 1, 1, 8);
  WholeReduceSum<half>(d2, src, 100, 4, 1, 1, 8);
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(bits16(d1.GetValue(i)), bits16(d2.GetValue(i)));
}

// ---------------- WholeReduceMax / Min ----------------
TEST(VecReduce, WholeReduceMaxDocExample) {   // 0287: 1024 halves, mask 128, repeat 8, [value, index] pairs
  static const char* kIn =
    "0.00787 0.8516 0.01558 0.152 0.887 0.2532 0.2272 0.1295 0.7207 0.628 0.5522 0.991 "
    "0.3164 0.961 0.526 0.5513 0.03973 0.3293 0.809 0.562 0.915 0.56 0.3464 0.3438 "
    "0.6094 0.1201 0.8384 0.848 0.004436 0.4263 0.01917 0.753 0.9126 0.2307 0.1066 0.644 "
    "0.8657 0.7085 0.7915 0.1707 0.3806 0.957 0.0483 0.858 0.10675 0.21 0.03345 0.55 "
    "0.3757 0.3281 0.927 0.09406 0.6445 0.985 0.405 0.09393 0.773 0.7227 0.03714 0.595 "
    "0.889 0.0948 0.4202 0.2747 0.5894 0.3022 0.894 0.675 0.6016 0.938 0.585 0.5244 "
    "0.8643 0.888 0.794 0.636 0.976 0.148 0.7427 0.1742 0.32 0.0649 0.2954 0.2018 "
    "0.833 0.0976 0.4048 0.2861 0.8765 0.722 0.998 0.03041 0.005512 0.9087 0.9873 0.1436 "
    "0.4812 0.1901 0.78 0.6934 0.2317 0.3782 0.8613 0.808 0.06885 0.3584 0.5684 0.541 "
    "0.5415 0.3096 0.5957 0.9043 0.7964 0.501 0.4324 0.7544 0.687 0.8447 0.526 0.548 "
    "0.926 0.9106 0.1616 0.183 0.6704 0.642 0.4783 0.1797 0.2078 0.59 0.4866 0.4683 "
    "0.649 0.7266 0.4976 0.8364 0.6245 0.07385 0.0786 0.586 0.7827 0.3298 0.9497 0.1617 "
    "0.4375 0.3572 0.2896 0.6465 0.1156 0.4905 0.2617 0.8267 0.2054 0.1415 0.2993 0.8374 "
    "0.754 0.942 0.6416 0.1222 0.1465 0.3335 0.3577 0.6484 0.614 0.5825 0.6807 0.9297 "
    "0.694 0.759 0.908 0.9126 0.4731 0.963 0.3271 0.724 0.4077 0.335 0.672 0.4219 "
    "0.1818 0.843 0.2708 0.0816 0.457 0.3481 0.67 0.6895 0.6924 0.191 0.2013 0.2484 "
    "0.8833 0.9146 0.4102 0.1063 0.6685 0.804 0.6606 0.2491 0.34 0.3281 0.823 0.603 "
    "0.521 0.6797 0.401 0.5 0.03683 0.04758 0.507 0.667 0.9014 0.263 0.2477 0.0179 "
    "0.8735 0.007023 0.545 0.758 0.3508 0.6333 0.9375 0.5903 0.2732 0.0847 0.489 0.196 "
    "0.5557 0.403 0.9204 0.3655 0.5083 0.7515 0.3347 0.6914 0.2185 0.2458 0.5537 0.3457 "
    "0.4878 0.869 0.908 0.0877 0.295 0.9 0.9307 0.05545 0.4639 0.4001 0.8433 0.4883 "
    "0.916 0.7026 0.5063 0.05164 0.936 0.844 0.2086 0.625 0.0197 0.4312 0.3677 0.983 "
    "0.625 0.004665 0.2479 0.3093 0.9214 0.003672 0.7915 0.921 0.331 0.01127 0.703 0.6416 "
    "0.4053 0.53 0.9688 0.10297 0.5547 0.07367 0.2305 0.02821 0.8115 0.4202 0.0561 0.0917 "
    "0.04828 0.536 0.0905 0.328 0.8413 0.3696 0.982 0.3733 0.436 0.753 0.1937 0.8706 "
    "0.991 0.273 0.763 0.418 0.4446 0.513 0.6724 0.1179 0.921 0.756 0.7144 0.6196 "
    "0.9634 0.562 0.3088 0.864 0.709 0.6797 0.2114 0.534 0.5225 0.1852 0.038 0.5454 "
    "0.8823 0.849 0.608 0.7734 0.7446 0.7236 0.1903 0.1031 0.497 0.57 0.172 0.1907 "
    "0.6333 0.641 0.681 0.2323 0.1007 0.4094 0.3655 0.4248 0.08044 0.1483 0.08716 0.354 "
    "0.128 0.3933 0.775 0.215 0.728 0.909 0.4204 0.618 0.2517 0.9106 0.3647 0.5977 "
    "0.3445 0.315 0.488 0.99 0.9443 0.6196 0.9287 0.088 0.9946 0.796 0.7515 0.1912 "
    "0.4312 0.7974 0.735 0.01536 0.7456 0.643 0.484 0.218 0.9272 0.1703 0.1885 0.1982 "
    "0.754 0.902 0.848 0.05832 0.4138 0.6885 0.3853 0.3499 0.639 0.5786 0.6353 0.5664 "
    "0.02621 0.56 0.532 0.08246 0.733 0.1334 0.0728 0.7817 0.5273 0.126 0.179 0.7334 "
    "0.1565 0.457 0.4807 0.6987 0.5845 0.6206 0.902 0.9277 0.501 0.6763 0.3418 0.7925 "
    "0.07556 0.0929 0.9014 0.3145 0.04907 0.7188 0.958 0.7275 0.1963 0.1742 0.785 0.518 "
    "0.61 0.1112 0.481 0.10583 0.198 0.181 0.3271 0.2773 0.2391 0.5625 0.621 0.173 "
    "0.05936 0.5654 0.838 0.865 0.01523 0.6724 0.546 0.737 0.778 0.8613 0.7085 0.8213 "
    "0.08826 0.818 0.4866 0.159 0.4143 0.1007 0.7773 0.487 0.5225 0.8984 0.4907 0.525 "
    "0.4075 0.2632 0.2292 0.134 0.4622 0.65 0.294 0.607 0.2725 0.2603 0.9326 0.787 "
    "0.9478 0.941 0.3066 0.2944 0.3928 0.73 0.1797 0.2157 0.609 0.4216 0.8984 0.8477 "
    "0.863 0.2478 0.993 0.6274 0.724 0.03668 0.0991 0.5825 0.662 0.6904 0.7017 0.2379 "
    "0.514 0.1646 0.3245 0.03072 0.3232 0.907 0.9966 0.6396 0.2969 0.02539 0.66 0.764 "
    "0.7803 0.515 0.04074 0.2258 0.08887 0.1782 0.875 0.1517 0.2351 0.3848 0.5933 0.6875 "
    "0.1969 0.1283 0.06232 0.4348 0.168 0.6904 0.5464 0.12036 0.885 0.007717 0.5967 0.2856 "
    "0.628 0.62 0.854 0.4297 0.733 0.2274 0.9736 0.01622 0.456 0.4763 0.9707 0.874 "
    "0.8794 0.511 0.1628 0.03458 0.506 0.1464 0.3674 0.1532 0.786 0.3809 0.406 0.015434 "
    "0.901 0.951 0.3018 0.3584 0.5337 0.4983 0.85 0.833 0.7324 0.492 0.39 0.09845 "
    "0.8965 0.862 0.4033 0.181 0.2203 0.3738 0.2761 0.9653 0.3577 0.289 0.3167 0.91 "
    "0.2688 0.3972 0.585 0.2178 0.307 0.4966 0.513 0.5225 0.786 0.1888 0.9287 0.5093 "
    "0.1193 0.3987 0.799 0.9995 0.611 0.9897 0.7515 0.4478 0.3232 0.2426 0.3323 0.7134 "
    "0.77 0.7275 0.02043 0.3132 0.3555 0.03122 0.8623 0.4705 0.6357 0.3157 0.5063 0.1711 "
    "0.885 0.7554 0.815 0.0213 0.4346 0.049 0.905 0.525 0.921 0.02411 0.771 0.7227 "
    "0.1786 0.278 0.03387 0.7744 0.05875 0.8955 0.8374 0.715 0.3765 0.02075 0.675 0.9883 "
    "0.63 0.7017 0.299 0.92 0.1644 0.3977 0.487 0.818 0.636 0.3452 0.6406 0.783 "
    "0.3728 0.1619 0.7725 0.4673 0.297 0.9375 0.083 0.0914 0.6704 0.08923 0.332 0.0973 "
    "0.507 0.201 0.1658 0.2358 0.8706 0.6846 0.6396 0.289 0.831 0.669 0.4683 0.2568 "
    "0.219 0.616 0.978 0.1564 0.925 0.4265 0.6055 0.7246 0.235 0.5376 0.03668 0.2441 "
    "0.7935 0.383 0.2996 0.3523 0.2544 0.6006 0.8896 0.757 0.7134 0.3196 0.3657 0.249 "
    "0.2429 0.921 0.877 0.728 0.8853 0.1635 0.546 0.9243 0.676 0.4749 0.3928 0.4187 "
    "0.612 0.3953 0.2372 0.4092 0.1523 0.1599 0.03108 0.1602 0.2474 0.3572 0.0643 0.9434 "
    "0.52 0.8574 0.959 0.7593 0.2318 0.5444 0.2222 0.3884 0.8066 0.4573 0.664 0.335 "
    "0.02025 0.1519 0.01386 0.989 0.852 0.695 0.01289 0.3433 0.2148 0.9404 0.6753 0.704 "
    "0.11163 0.675 0.5264 0.1514 0.5273 0.9785 0.2769 0.4846 0.2747 0.558 0.742 0.681 "
    "0.835 0.9546 0.941 0.588 0.785 0.2095 0.07294 0.4343 0.086 0.5825 0.513 0.6313 "
    "0.04236 0.4072 0.558 0.681 0.4805 0.492 0.625 0.7744 0.002626 0.662 0.9043 0.4766 "
    "0.6597 0.6934 0.3394 0.05453 0.9146 0.2222 0.7925 0.605 0.812 0.671 0.4329 0.2118 "
    "0.363 0.1444 0.0955 0.692 0.675 0.3 0.6846 0.535 0.9834 0.929 0.3582 0.964 "
    "0.3835 0.1466 0.801 0.954 0.2554 0.01357 0.6636 0.8325 0.6494 0.817 0.2268 0.00904 "
    "0.0487 0.08716 0.6753 0.3833 0.663 0.396 0.6685 0.983 0.0728 0.694 0.02364 0.137 "
    "0.1727 0.231 0.7896 0.8057 0.478 0.883 0.1785 0.5938 0.11456 0.6997 0.1945 0.02365 "
    "0.7236 0.8623 0.2178 0.1295 0.3867 0.7188 0.11475 0.6 0.419 0.2673 0.4404 0.0107 "
    "0.4304 0.1364 0.3708 0.1158 0.1714 0.3123 0.3403 0.7163 0.079 0.6245 0.719 0.558 "
    "0.4526 0.09924 0.512 0.2452 0.519 0.999 0.7207 0.5605 0.7217 0.653 0.1164 0.789 "
    "0.4724 0.2727 0.10315 0.9644 0.7573 0.06464 0.858 0.7847 0.958 0.618 0.9536 0.46 "
    "0.9766 0.4263 0.4363 0.4434 0.95 0.3032 0.4338 0.809 0.1642 0.0561 0.2668 0.1853 "
    "0.356 0.934 0.968 0.327 0.913 0.434 0.6616 0.00502 0.05066 0.5327 0.276 0.5176 "
    "0.0674 0.6143 0.8345 0.2976 0.315 0.6646 0.527 0.791 0.0299 0.4558 0.8354 0.3115 "
    "0.3735 0.3582 0.742 0.2637 0.8877 0.7603 0.4568 0.2045 0.4746 0.392 0.65 0.391 "
    "0.972 0.6973 0.2297 0.568 0.49 0.1895 0.547 0.79 0.747 0.5205 0.313 0.3809 "
    "0.7817 0.32 0.1012 0.339 0.716 0.8955 0.8564 0.126 0.6597 0.228 0.1194 0.4775 "
    "0.173 0.0265 0.7456 0.859 0.4841 0.595 0.4553 0.1351 0.2246 0.3564 0.1832 0.8535 "
    "0.703 0.2423 0.04187 0.145 0.997 0.1919 0.571 0.8555 0.1578 0.2688 0.405 0.3909 "
    "0.1428 0.863 0.7295 0.3267 0.1294 0.5986 0.677 0.7065 0.8853 0.923 0.9385 0.935 "
    "0.1747 0.32 0.2292 0.2676 0.1161 0.4666 0.3826 0.2588 0.1863 0.7993 0.3984 0.2961 "
    "0.2952 0.3247 0.923 0.05746 ";
  const char* kOut[16] = {"9.980e-01", "5.364e-06", "9.629e-01", "2.682e-06", "9.946e-01", "6.676e-06", "9.966e-01",
                          "7.510e-06", "9.995e-01", "5.424e-06", "9.888e-01", "6.378e-06", "9.990e-01", "6.735e-06",
                          "9.971e-01", "5.484e-06"};
  std::vector<float> in;
  std::istringstream is(kIn);
  for (float f; is >> f;) in.push_back(static_cast<float>(half(f)));
  ASSERT_EQ(in.size(), 1024u);
  Ub ub;
  auto src = ub.at<half>(0, 1024);
  auto dst = ub.at<half>(4096, 16);
  fill(src, in);
  PipeBarrier<PIPE_ALL>();
  WholeReduceMax<half>(dst, src, 128, 8, 1, 1, 8);
  PipeBarrier<PIPE_ALL>();
  for (int r = 0; r < 8; ++r) {
    EXPECT_EQ(bits16(dst.GetValue(2 * r)), bits16(half(std::stof(kOut[2 * r])))) << r;
    // the printed index is the raw uint16 shown as a half denormal: bits = value * 2^24
    uint16_t want = static_cast<uint16_t>(std::lround(std::stod(kOut[2 * r + 1]) * 16777216.0));
    EXPECT_EQ(bits16(dst.GetValue(2 * r + 1)), want) << r;
  }
}

// GetReduceRepeatMaxMinSpr / GetReduceMaxMinCount: the extreme over all repeats of the last WholeReduceMax/Min and
// its element index, as an argmax kernel reads it after a counter-mode WholeReduceMax (NPUKernelBench's Isamax).
TEST(VecReduce, MaxMinRegisterHoldsTheExtremeOfAllRepeats) {
  Ub ub;
  auto src = ub.at<float>(0, 64 * 4);
  auto v = rnd(64 * 4, 21, -8, 8, false);
  v[2 * 64 + 17] = v[3 * 64 + 3] = 50.f;   // a tie across repeats: the first (element 145) wins
  v[64 + 9] = -60.f;
  fill(src, v);
  auto d = ub.at<float>(4096, 64);
  SetMaskCount();
  SetVectorMask<float, MaskMode::COUNTER>(0, 64 * 4);
  WholeReduceMax<float, false>(d, src, MASK_PLACEHOLDER, 1, 1, 1, 8);
  SetMaskNorm();
  ResetMask();
  float value = 0, index = 0;
  GetReduceMaxMinCount<float>(value, index);
  uint32_t i = 0;
  std::memcpy(&i, &index, 4);
  EXPECT_EQ(value, 50.f);
  EXPECT_EQ(i, 2u * 64 + 17);
  WholeReduceMin<float>(d, src, 64, 4, 1, 1, 8);
  GetReduceRepeatMaxMinSpr<float>(value, index);
  std::memcpy(&i, &index, 4);
  EXPECT_EQ(value, -60.f);
  EXPECT_EQ(i, 64u + 9);
}

// bisheng's vcadd on raw UB addresses, as cann-ops norm kernels call it: per-repeat sums (WholeReduceSum's) under
// the mask already set, or their total in ACC_VAL (mode true, dst null), read with get_acc_val() / GetAccVal().
TEST(VecReduce, VcaddIntrinsic) {
  Ub ub;
  auto src = ub.at<float>(0, 64 * 3);
  std::vector<float> v(64 * 3);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 7) - 2.5f;
  fill(src, v);
  auto d = ub.at<float>(4096, 8);
  auto w = ub.at<float>(8192, 8);
  AscendCUtils::SetMask<float>(48);   // the first 48 lanes of each repeat
  vcadd((float*)d.GetPhyAddr(), (float*)src.GetPhyAddr(), 3, 1, 1, 8, false);
  WholeReduceSum<float>(w, src, 48, 3, 1, 1, 8);
  float total = 0;
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(d.GetValue(r), w.GetValue(r)) << r;
    total += w.GetValue(r);
  }
  AscendCUtils::SetMask<float>(48);
  vcadd(nullptr, (float*)src.GetPhyAddr(), 3, 1, 1, 8, true);
  uint64_t bits = get_acc_val();
  float acc = 0;
  std::memcpy(&acc, &bits, 4);
  EXPECT_EQ(acc, total);
  EXPECT_EQ(GetAccVal<float>(), total);
  EXPECT_NE(error_of([&] { vcadd((float*)nullptr, (float*)src.GetPhyAddr(), 1, 1, 1, 8, false); }).find("dst is null"),
            std::string::npos);
}

TEST(VecReduce, WholeReduceMaxMinOrdersFloat) {
  Ub ub;
  auto src = ub.at<float>(0, 64 * 4);
  auto v = rnd(64 * 4, 11, -8, 8, false);
  v[64 + 5] = v[64 + 40] = 100.f;   // tie in repeat 1: first index wins
  fill(src, v);
  uint64_t mask[2] = {0xFFFFFFFFFFFFFFFFull, 0};
  auto d = ub.at<float>(4096, 64);
  for (int op = 0; op < 2; ++op)
    for (int ord = 0; ord < 4; ++ord) {
      PipeBarrier<PIPE_ALL>();
      auto order = static_cast<ReduceOrder>(ord);
      if (op == 0) WholeReduceMax<float>(d, src, mask, 4, 1, 1, 8, order);
      else WholeReduceMin<float>(d, src, 60, 4, 1, 1, 8, order);
      PipeBarrier<PIPE_ALL>();
      auto u = d.ReinterpretCast<uint32_t>();
      for (int r = 0; r < 4; ++r) {
        int lanes = op == 0 ? 64 : 60;
        int bi = 0;
        for (int k = 1; k < lanes; ++k)
          if (op == 0 ? v[r * 64 + k] > v[r * 64 + bi] : v[r * 64 + k] < v[r * 64 + bi]) bi = k;
        float bv = v[r * 64 + bi];
        if (op == 0 && r == 1) EXPECT_EQ(bi, 5);
        switch (order) {
          case ReduceOrder::ORDER_VALUE_INDEX: EXPECT_EQ(d.GetValue(2 * r), bv); EXPECT_EQ(u.GetValue(2 * r + 1), uint32_t(bi)); break;
          case ReduceOrder::ORDER_INDEX_VALUE: EXPECT_EQ(u.GetValue(2 * r), uint32_t(bi)); EXPECT_EQ(d.GetValue(2 * r + 1), bv); break;
          case ReduceOrder::ORDER_ONLY_VALUE: EXPECT_EQ(d.GetValue(r), bv); break;
          case ReduceOrder::ORDER_ONLY_INDEX: EXPECT_EQ(u.GetValue(r), uint32_t(bi)); break;
        }
      }
    }
}

// ---------------- BlockReduce ----------------
TEST(VecReduce, BlockReduceSumMaxMinHalf) {
  Ub ub;
  auto src = ub.at<half>(0, 128 * 2);
  auto v = rnd(256, 5);
  fill(src, v);
  uint64_t mask[2] = {0x00FF00FF00FF00FFull, 0xFFFF0000FFFF0000ull};   // blocks 0..3: half lanes; 4,6: none; 5,7: all
  for (int op = 0; op < 3; ++op) {
    auto d = ub.at<half>(4096 + op * 1024, 32);
    fill(d, std::vector<float>(32, 7.f));
    PipeBarrier<PIPE_ALL>();
    if (op == 0) BlockReduceSum<half>(d, src, 2, mask, 2, 1, 8);
    else if (op == 1) BlockReduceMax<half>(d, src, 2, mask, 2, 1, 8);
    else BlockReduceMin<half>(d, src, 2, mask, 2, 1, 8);
    PipeBarrier<PIPE_ALL>();
    for (int r = 0; r < 2; ++r)
      for (int j = 0; j < 8; ++j) {
        std::vector<float> lanes(16, 0.f);
        bool any = false;
        float ext = 0;
        for (int e = 0; e < 16; ++e) {
          int k = j * 16 + e;
          bool on = k < 64 ? (mask[0] >> k) & 1 : (mask[1] >> (k - 64)) & 1;
          if (!on) continue;
          float x = v[r * 128 + k];
          lanes[e] = x;
          if (!any || (op == 1 ? x > ext : x < ext)) ext = x;
          any = true;
        }
        float got = d.GetValue(r * 16 + j);   // dstRepStride 2 = 16 halves
        if (!any) { EXPECT_EQ(got, 7.f); continue; }
        EXPECT_EQ(got, op == 0 ? ref_tree(lanes, true) : ext) << op << " " << r << " " << j;
      }
  }
}

// ---------------- PairReduceSum ----------------
TEST(VecReduce, PairReduceSumDocExample) {   // 0293
  const float in[128] = {-3.441, 7.246, -0.02759, -6.324, 3.693, -7.984, -4.246, 6.332, -3.734, -2.699, -6.91, 7.887, -3.631, 5.219, 6.539, 8.688, 6.523, -6.789, -8.547, 4.258, 1.344, -8.469, -0.9253, -3.914, 3.293, -9.828, 7.082, 5.961, 2.133, 1.959, 3.928, -1.062, 9.18, -1.725, -3.645, 1.457, -2.328, -0.9487, -0.2849, -2.998, -9.281, 3.137, 0.4028, 5.961, -6.25, 2.406, -6.203, -2.699, 4.914, 1.653, -6.383, 6.855, 9.164, 0.6646, -2.854, 3.18, -0.5884, 0.4258, -5.773, -2.152, 4.258, 4.129, -8.719, -8.828, 6.145, 7.387, 1.386, -4.684, 6.324, -1.275, -1.816, 3.357, 6.832, -1.059, -9.852, -8.539, 2.938, -2.002, 9.625, -4.387, -1.309, 8.289, 2.906, -1.035, 7.723, 4.727, -6.477, 2.389, 6.75, -6.688, -0.04248, -6.613, -3.424, 7.145, 4.836, -5.617, -5.855, -5.234, -9.422, -9.852, -8.531, 2.115, 5.109, -8.094, -6.238, 9.898, -6.848, -6.051, 7.109, 4.227, -0.6187, -3.492, -4.352, 1.344, 1.526, 2.572, 2.16, -1.135, 9.812, 1.426, -8, 3.291, -2.039, 5.93, -5.52, -5.156, -9.422, 0.2236};
  const float out[64] = {3.805, -6.352, -4.289, 2.086, -6.434, 0.9766, 1.588, 15.23, -0.2656, -4.289, -7.125, -4.84, -6.535, 13.05, 4.094, 2.865, 7.453, -2.188, -3.277, -3.283, -6.145, 6.363, -3.844, -8.906, 6.566, 0.4727, 9.828, 0.3262, -0.1626, -7.926, 8.391, -17.55, 13.53, -3.297, 5.047, 1.541, 5.773, -18.39, 0.9355, 5.238, 6.98, 1.871, 12.45, -4.086, 0.0625, -6.656, 3.721, -0.7812, -11.09, -19.28, -6.414, -2.984, 3.66, -12.9, 11.34, -4.109, -3.008, 4.098, 1.025, 11.23, -4.711, 3.891, -10.67, -9.195};
  Ub ub;
  auto src = ub.at<half>(0, 128);
  auto dst = ub.at<half>(1024, 64);
  fill(src, std::vector<float>(in, in + 128));
  PipeBarrier<PIPE_ALL>();
  PairReduceSum<half>(dst, src, 1, 128, 1, 1, 8);
  PipeBarrier<PIPE_ALL>();
  // The doc prints 4 significant digits and some printed inputs are not exact halves (3.928 lies between two),
  // so results agree to within two half ulps of the printed output.
  for (int i = 0; i < 64; ++i)
    EXPECT_NEAR(float(dst.GetValue(i)), out[i], 2 * std::ldexp(1.0, std::ilogb(std::fabs(out[i])) - 10)) << i;
}

TEST(VecReduce, PairReduceSumMaskedPairsKeepDst) {
  Ub ub;
  auto src = ub.at<float>(0, 128);
  auto dst = ub.at<float>(1024, 64);
  auto v = rnd(128, 9, -3, 3, false);
  fill(src, v);
  fill(dst, std::vector<float>(64, 5.f));
  PipeBarrier<PIPE_ALL>();
  PairReduceSum<float>(dst, src, 2, 61, 1, 1, 8);   // lanes 61..63 off: pair 30 half on, pair 31 off
  PipeBarrier<PIPE_ALL>();
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 32; ++i) {
      float a = 2 * i < 61 ? v[r * 64 + 2 * i] : 0.f, b = 2 * i + 1 < 61 ? v[r * 64 + 2 * i + 1] : 0.f;
      EXPECT_FLOAT_EQ(dst.GetValue(r * 32 + i), i == 31 ? 5.f : a + b) << r << " " << i;
    }
}

// ---------------- ReduceSum / ReduceMax / ReduceMin ----------------
TEST(VecReduce, ReduceSumCountFormHalfAndFloat) {
  Ub ub;
  for (int t = 0; t < 2; ++t) {
    int n = t == 0 ? 8320 : 1000;
    bool h = t == 0;
    auto v = rnd(n, 21 + t, -2, 2, h);
    std::vector<float> reps;   // A2 count form: tree inside a repeat, repeats added in order
    int R = h ? 128 : 64;
    for (int s = 0; s < n; s += R) reps.push_back(ref_tree(std::vector<float>(v.begin() + s, v.begin() + std::min(n, s + R)), h));
    float want = reps[0];
    for (size_t i = 1; i < reps.size(); ++i) want = ref_add(h, want, reps[i]);
    PipeBarrier<PIPE_ALL>();
    if (h) {
      auto src = ub.at<half>(0, n), tmp = ub.at<half>(32768, 16), dst = ub.at<half>(33792, 16);
      fill(src, v);
      PipeBarrier<PIPE_ALL>();
      ReduceSum<half>(dst, src, tmp, n);   // A2 count form: any tmp size
      PipeBarrier<PIPE_ALL>();
      EXPECT_EQ(static_cast<float>(dst.GetValue(0)), want);
    } else {
      auto src = ub.at<float>(0, n), tmp = ub.at<float>(32768, 8), dst = ub.at<float>(33792, 8);
      fill(src, v);
      PipeBarrier<PIPE_ALL>();
      ReduceSum<float>(dst, src, tmp, n);
      PipeBarrier<PIPE_ALL>();
      EXPECT_FLOAT_EQ(dst.GetValue(0), want);
    }
  }
}

TEST(VecReduce, ReduceSumMaskFormTreeOfRepeats) {
  Ub ub;
  const int rep = 65;   // 0286 example: 8320 halves, 65 repeats, tmp minimum 80 elements
  auto v = rnd(128 * rep, 31, -1, 1);
  auto src = ub.at<half>(0, 128 * rep), tmp = ub.at<half>(32768, 80), dst = ub.at<half>(33792, 16);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  ReduceSum<half>(dst, src, tmp, 128, rep, 8);
  PipeBarrier<PIPE_ALL>();
  std::vector<float> reps;
  for (int r = 0; r < rep; ++r) reps.push_back(ref_tree(std::vector<float>(v.begin() + r * 128, v.begin() + r * 128 + 128), true));
  EXPECT_EQ(static_cast<float>(dst.GetValue(0)), ref_tree(reps, true));
  std::string e = error_of([&] { ReduceSum<half>(dst, src, ub.at<half>(32768, 64), 128, rep, 8); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
}

TEST(VecReduce, ReduceMaxMinCountWithIndex) {
  Ub ub;
  {  // half: 8320 elements, tmp per 0284 example 1 (176 elements)
    int n = 8320;
    auto v = rnd(n, 41, -100, 100);
    v[5000] = 200.f; v[7000] = 200.f; v[123] = -300.f;
    auto src = ub.at<half>(0, n), tmp = ub.at<half>(32768, 176), dst = ub.at<half>(33792, 16);
    fill(src, v);
    PipeBarrier<PIPE_ALL>();
    ReduceMax<half>(dst, src, tmp, n, true);
    PipeBarrier<PIPE_ALL>();
    EXPECT_EQ(static_cast<float>(dst.GetValue(0)), 200.f);
    EXPECT_EQ(dst.ReinterpretCast<uint16_t>().GetValue(1), 5000);
    PipeBarrier<PIPE_ALL>();
    ReduceMin<half>(dst, src, tmp, n, true);
    PipeBarrier<PIPE_ALL>();
    EXPECT_EQ(static_cast<float>(dst.GetValue(0)), -300.f);
    EXPECT_EQ(dst.ReinterpretCast<uint16_t>().GetValue(1), 123);
  }
  {  // float with a tail: 1000 elements
    int n = 1000;
    auto v = rnd(n, 43, -100, 100, false);
    auto src = ub.at<float>(0, n), tmp = ub.at<float>(32768, 64), dst = ub.at<float>(33792, 8);
    fill(src, v);
    PipeBarrier<PIPE_ALL>();
    ReduceMin<float>(dst, src, tmp, n, true);
    PipeBarrier<PIPE_ALL>();
    int bi = 0;
    for (int i = 1; i < n; ++i) if (v[i] < v[bi]) bi = i;
    EXPECT_EQ(dst.GetValue(0), v[bi]);
    EXPECT_EQ(dst.ReinterpretCast<uint32_t>().GetValue(1), uint32_t(bi));
    PipeBarrier<PIPE_ALL>();
    ReduceMax<float>(dst, src, tmp, n);   // no index: only dst[0]
    PipeBarrier<PIPE_ALL>();
    float mx = v[0];
    for (float x : v) mx = std::max(mx, x);
    EXPECT_EQ(dst.GetValue(0), mx);
  }
}

TEST(VecReduce, ReduceMaxMaskFormStrideAndIndex) {
  Ub ub;
  // float, mask 40 lanes, 5 repeats, srcRepStride 16 blocks: index = repeat * 64 + lane
  auto v = rnd(64 * 2 * 5, 47, -10, 10, false);
  auto src = ub.at<float>(0, 640), tmp = ub.at<float>(8192, 32), dst = ub.at<float>(9216, 8);
  fill(src, v);
  PipeBarrier<PIPE_ALL>();
  ReduceMax<float>(dst, src, tmp, 40, 5, 16, true);
  PipeBarrier<PIPE_ALL>();
  float bv = -1e9f;
  uint32_t bi = 0;
  for (int r = 0; r < 5; ++r)
    for (int k = 0; k < 40; ++k)
      if (v[r * 128 + k] > bv) { bv = v[r * 128 + k]; bi = r * 64 + k; }
  EXPECT_EQ(dst.GetValue(0), bv);
  EXPECT_EQ(dst.ReinterpretCast<uint32_t>().GetValue(1), bi);
}

TEST(VecReduce, ReduceTmpMinimumFromDocExamples) {
  Ub ub;
  auto src = ub.at<half>(0, 512), dst = ub.at<half>(2048, 16);
  fill(src, rnd(512, 1));
  PipeBarrier<PIPE_ALL>();
  // 0284 example 4: repeat 4, mask 128, calIndex -> 32 elements (64 bytes) suffice, 16 do not
  EXPECT_EQ(error_of([&] { ReduceMax<half>(dst, src, ub.at<half>(4096, 32), 128, 4, 8, true); }), "");
  std::string e = error_of([&] { ReduceMax<half>(dst, src, ub.at<half>(4096, 16), 128, 4, 8, true); });
  EXPECT_NE(e.find("error[param]"), std::string::npos) << e;
  EXPECT_NE(e.find("64 bytes"), std::string::npos) << e;
}

// ---------------- negative cases ----------------
TEST(VecReduce, NegativeDtypeParamAlignUninit) {
  Ub ub;
  auto si = ub.at<int32_t>(0, 64), di = ub.at<int32_t>(1024, 8);
  for (int i = 0; i < 64; ++i) si.SetValue(i, i);
  auto src = ub.at<half>(2048, 256), dst = ub.at<half>(4096, 16);
  fill(src, rnd(256, 2));
  PipeBarrier<PIPE_ALL>();
  EXPECT_NE(error_of([&] { WholeReduceSum<int32_t>(di, si, 64, 1, 1, 1, 8); }).find("error[dtype]"), std::string::npos);
  EXPECT_NE(error_of([&] { ReduceSum<int32_t>(di, si, di, 64); }).find("error[dtype]"), std::string::npos);
  EXPECT_NE(error_of([&] { WholeReduceSum<half>(dst, src, 128, 256, 1, 1, 8); }).find("error[param]"), std::string::npos);
  EXPECT_NE(error_of([&] { WholeReduceSum<half>(dst, src, 129, 1, 1, 1, 8); }).find("error[param]"), std::string::npos);
  EXPECT_NE(error_of([&] { BlockReduceSum<half>(dst, src, 1, 128, -1, 1, 8); }).find("error[param]"), std::string::npos);
  EXPECT_NE(error_of([&] { ReduceSum<half>(dst, src, dst, 0); }).find("error[param]"), std::string::npos);
  // value+index pairs need a 4-byte aligned half dst; BlockReduce needs 16 bytes
  EXPECT_NE(error_of([&] { WholeReduceMax<half>(dst[1], src, 128, 1, 1, 1, 8); }).find("error[align]"), std::string::npos);
  EXPECT_NE(error_of([&] { BlockReduceMax<half>(dst[4], src, 1, 128, 1, 1, 8); }).find("error[align]"), std::string::npos);
  EXPECT_EQ(error_of([&] { WholeReduceSum<half>(dst[1], src, 128, 1, 1, 1, 8); }), "");   // 2-byte alignment suffices
  // reading what nothing wrote: a 3-repeat call over a source of which only 2 repeats were filled
  auto fresh = ub.at<half>(8192, 512);
  fill(fresh, rnd(256, 4));
  PipeBarrier<PIPE_ALL>();
  std::string e = error_of([&] { WholeReduceSum<half>(dst, fresh, 128, 3, 1, 1, 8); });
  EXPECT_NE(e.find("error[uninit-read]"), std::string::npos) << e;
}
