// Compare, CompareScalar (bit results, LSB first), the comparison operator forms, and Select in SELMODE 0/1/2
// (count and mask/repeat forms, selMask as uint8/16/32/64 tensors). References are plain C++ in this file, plus
// the Select doc's mode-2 example.
#include <cmath>
#include <cstring>

#include "vec_test_util.h"

using namespace vt;

namespace {
// The Select doc's mode-2 example (VSEL_TENSOR_TENSOR_MODE, mask 64, repeat 4, {1, 1, 1, 8, 8, 8}).
const float kDocSrc0[256] = {
    -80.4933f, 52.2499f, -50.6124f, -72.3737f, -33.7107f, -83.4001f, 34.3954f, 61.3188f, 96.5484f, 27.1321f,
    -56.8153f, 9.80549f, 9.11199f, -53.1848f, -77.2548f, -0.0681466f, -69.5783f, 6.53722f, -22.5986f, 37.6655f,
    -25.4146f, 89.232f, 55.4716f, 21.6069f, 23.0464f, 28.5975f, -46.3033f, 50.0312f, -42.6339f, 41.8752f, -87.0426f,
    37.9717f, 10.4336f, 10.7653f, -30.6943f, -65.4774f, 8.38653f, -89.6462f, 65.1115f, 42.2134f, -91.1666f, -84.6927f,
    -97.9312f, 98.861f, 19.8888f, -64.0522f, -27.1243f, 72.7673f, -9.9489f, 94.274f, -72.868f, 43.1349f, 84.1897f,
    87.0729f, 87.2606f, 34.5548f, 87.7985f, 4.84555f, -10.2156f, -93.7445f, 71.8209f, -63.4942f, 45.6619f, 93.4737f,
    79.6631f, 66.8743f, 18.1016f, -27.7082f, -67.0339f, -11.9576f, 52.0373f, -11.5452f, -73.8953f, -63.5915f,
    99.4875f, -46.2296f, 75.453f, -67.2079f, 89.8868f, -19.9666f, 30.5359f, 42.1465f, -19.8105f, 82.3653f, -89.2164f,
    -0.959167f, -50.0723f, -30.3058f, 48.1772f, -27.7686f, 26.1484f, 94.8462f, -15.5663f, -87.346f, -84.2826f,
    -58.8268f, -42.4957f, -23.7061f, 67.0375f, -83.5848f, 64.167f, 63.3315f, -33.3809f, 35.1264f, 96.6872f, 91.8399f,
    33.9888f, 78.5923f, -30.4885f, 26.3331f, -62.3014f, -30.3431f, 96.9554f, 50.3262f, 66.612f, -71.5939f, -97.0042f,
    71.4549f, 42.3891f, 71.308f, 72.3209f, 59.1608f, -4.57918f, -81.3639f, -37.2619f, 28.2445f, 16.7995f, -46.5868f,
    -88.6893f, 82.0504f, -39.3391f, -33.7141f, -88.6628f, -94.1271f, -74.7738f, -80.0798f, -67.5639f, -69.8237f,
    -37.5219f, 11.9601f, -30.3912f, -30.1169f, 22.7411f, -85.9541f, 19.5141f, -37.6203f, -49.5693f, 5.09318f,
    11.4884f, 18.9713f, 21.1073f, -84.9266f, 11.9436f, -22.4703f, -58.5243f, -24.0218f, -63.2767f, -2.72752f,
    -87.8947f, -91.5162f, 33.4207f, -85.9841f, 18.743f, 48.9581f, 69.3992f, 2.42074f, -75.0209f, -53.2579f, -45.4509f,
    66.6121f, 51.6616f, -48.073f, 74.2754f, -51.1623f, -89.9345f, 4.15238f, -4.47531f, 79.6587f, -31.1646f, 69.4103f,
    -83.5936f, -78.7341f, 56.8626f, 72.8834f, -27.0248f, -80.3328f, 71.7272f, -77.979f, -76.6814f, -14.9994f,
    -94.5054f, -75.2802f, -96.4931f, -17.6781f, -5.50804f, -83.4637f, -56.8385f, 51.5406f, -60.527f, -11.0762f,
    -33.3166f, -54.9609f, -36.9426f, -70.3942f, 28.3439f, 5.28754f, -61.4775f, 96.0657f, -69.1967f, 70.5489f, 32.817f,
    -53.5746f, 49.2601f, -88.5728f, -1.94822f, -3.16238f, 19.083f, -81.5139f, 87.8383f, 90.714f, 4.75546f, 31.9277f,
    -4.1301f, -0.160932f, -31.2602f, 56.4225f, -72.1826f, 91.5082f, 68.2155f, -81.7476f, -14.0418f, -79.4093f,
    -30.7375f, 38.8967f, -16.5589f, -69.4351f, 48.6597f, -8.44998f, -74.4274f, -20.3394f, -59.2265f, 19.407f,
    88.1542f, -15.4888f, 60.9066f, 59.5144f, -42.6935f, 20.3518f, 11.7192f, -31.3635f, 26.0055f, -26.9334f, 79.3798f,
    46.4724f, 22.984f, 67.5759f};
const float kDocSrc1[256] = {
    35.8789f, 44.0334f, 54.9997f, 44.8567f, -30.8579f, -53.714f, -59.8013f, 71.1663f, 46.3484f, 8.56818f, -59.4716f,
    6.07412f, -39.0137f, 64.5595f, 17.0849f, 45.2641f, -63.2115f, -98.7838f, -52.3835f, -65.9849f, 50.4909f, 69.9812f,
    -22.3447f, -32.3809f, -97.8394f, -45.4997f, 63.5391f, -69.3535f, 43.3368f, 98.8541f, -77.2888f, 1.02385f,
    20.4965f, -26.7797f, 98.2463f, -78.9606f, -62.4907f, -13.5348f, -49.5058f, -4.06369f, 77.2982f, -32.8221f,
    84.6766f, -62.3829f, 58.8673f, -75.8509f, -95.3497f, -79.7642f, 67.1185f, 34.4278f, 34.5305f, -76.1646f, 53.1497f,
    -12.3158f, -42.9392f, 59.2962f, -4.12072f, 47.1292f, -17.0687f, -78.0087f, -59.4565f, -98.9565f, -54.0959f,
    56.5437f, -74.3328f, 77.2781f, 52.7964f, -0.932984f, 70.8957f, -68.1249f, 85.895f, 25.4119f, 71.9202f, -73.1287f,
    63.6916f, 21.4303f, 66.0614f, 66.1438f, -22.2332f, 84.0665f, -7.86752f, -2.38648f, 1.37756f, -98.691f, -35.847f,
    -15.2647f, -85.2363f, -54.3978f, -46.6612f, 99.3826f, -75.7728f, -31.2539f, 97.9558f, 92.4507f, 80.2871f,
    -60.8802f, -82.0434f, -80.625f, 19.6418f, 51.0559f, 35.3667f, -56.306f, -41.2088f, 0.955906f, -85.7743f, 8.18112f,
    36.4615f, -0.572343f, -16.0821f, 36.0277f, -4.61647f, 26.5385f, 88.6082f, 9.17454f, 44.8951f, -42.173f, 51.5339f,
    5.93139f, 93.7096f, -68.8219f, 68.2573f, -67.325f, -88.4579f, -56.8873f, -75.8117f, -40.5576f, -98.378f, 32.3699f,
    64.6693f, -73.1523f, -57.8738f, 63.1893f, -40.4731f, -1.00914f, -80.6115f, 44.2928f, 76.6212f, -29.3298f,
    -58.1212f, 83.3083f, -20.6412f, 26.8912f, -82.1719f, 26.8713f, -56.5484f, 35.4743f, -8.59957f, -12.4709f,
    27.8249f, 76.6877f, -27.5806f, 63.2649f, 66.1106f, 15.8328f, 9.19251f, -79.6418f, -9.31359f, 63.7053f, -8.37093f,
    55.6421f, -99.0591f, -64.1341f, 91.4046f, 26.7268f, -92.1002f, -34.7002f, -6.41819f, -18.15f, 12.207f, 48.6667f,
    -39.4883f, -21.0939f, -50.3433f, 58.2913f, 7.64983f, -82.6098f, -89.6739f, -25.9494f, 82.4803f, 20.8037f, 21.483f,
    -29.0788f, 31.7695f, 50.462f, -83.7715f, 63.4177f, 52.7679f, -90.2271f, 16.1258f, -61.4531f, -61.7242f, 25.0575f,
    -97.8702f, 26.9708f, -23.039f, -52.7595f, -97.0177f, -13.1399f, -47.6936f, -29.7551f, 88.9603f, -82.1242f,
    -56.6307f, 91.7884f, 0.0381027f, -49.0936f, -43.5545f, 47.3574f, 97.1801f, 43.4392f, 22.7347f, 12.6125f, 63.7829f,
    22.3428f, 53.4543f, -91.4307f, 45.6971f, -92.1851f, -81.4774f, 35.8835f, -33.043f, -79.7464f, 69.0971f, -82.6252f,
    -63.0042f, -61.0205f, -8.00347f, -60.0369f, 56.2894f, -38.1932f, 17.976f, 5.82004f, 4.41524f, -52.2192f, 93.1915f,
    21.1114f, -29.3558f, -18.5685f, 20.7356f, -4.71108f, -0.947533f, 73.0143f, 62.5668f, 96.1632f, 41.4265f, -89.503f,
    -83.7747f, -97.6047f, -60.7304f, 28.9736f, -42.6681f, 55.2584f, 59.1584f, -14.6596f, -41.1826f, 48.8083f};
const uint8_t kDocSel[32] = {
    60, 32, 10, 7, 42, 52, 38, 26, 19, 15, 18, 83, 41, 43, 91, 30, 45, 77, 80, 58, 34, 76, 44, 4, 64, 45, 48, 31, 30,
    56, 43, 88};
const float kDocDst[256] = {
    35.8789f, 44.0334f, -50.6124f, -72.3737f, -33.7107f, -83.4001f, -59.8013f, 71.1663f, 46.3484f, 8.56818f,
    -59.4716f, 6.07412f, -39.0137f, -53.1848f, 17.0849f, 45.2641f, -63.2115f, 6.53722f, -52.3835f, 37.6655f, 50.4909f,
    69.9812f, -22.3447f, -32.3809f, 23.0464f, 28.5975f, -46.3033f, -69.3535f, 43.3368f, 98.8541f, -77.2888f, 1.02385f,
    20.4965f, 10.7653f, 98.2463f, -65.4774f, -62.4907f, -89.6462f, -49.5058f, -4.06369f, 77.2982f, -32.8221f,
    -97.9312f, -62.3829f, 19.8888f, -64.0522f, -95.3497f, -79.7642f, 67.1185f, 94.274f, -72.868f, -76.1646f, 53.1497f,
    87.0729f, -42.9392f, 59.2962f, -4.12072f, 4.84555f, -17.0687f, -93.7445f, 71.8209f, -98.9565f, -54.0959f,
    56.5437f, 79.6631f, 66.8743f, 52.7964f, -0.932984f, -67.0339f, -68.1249f, 85.895f, 25.4119f, -73.8953f, -63.5915f,
    99.4875f, -46.2296f, 66.0614f, 66.1438f, -22.2332f, 84.0665f, -7.86752f, 42.1465f, 1.37756f, -98.691f, -89.2164f,
    -15.2647f, -85.2363f, -54.3978f, 48.1772f, -27.7686f, -75.7728f, -31.2539f, -15.5663f, 92.4507f, -84.2826f,
    -60.8802f, -42.4957f, -80.625f, 19.6418f, -83.5848f, 35.3667f, 63.3315f, -41.2088f, 0.955906f, 96.6872f, 91.8399f,
    36.4615f, 78.5923f, -16.0821f, 26.3331f, -4.61647f, 26.5385f, 96.9554f, 50.3262f, 44.8951f, -71.5939f, -97.0042f,
    5.93139f, 42.3891f, -68.8219f, 68.2573f, 59.1608f, -4.57918f, -81.3639f, -37.2619f, -40.5576f, -98.378f, 32.3699f,
    -88.6893f, -73.1523f, -39.3391f, -33.7141f, -40.4731f, -94.1271f, -80.6115f, 44.2928f, -67.5639f, -29.3298f,
    -37.5219f, 11.9601f, -20.6412f, 26.8912f, 22.7411f, 26.8713f, -56.5484f, 35.4743f, -8.59957f, -12.4709f, 11.4884f,
    76.6877f, 21.1073f, 63.2649f, 66.1106f, -22.4703f, 9.19251f, -24.0218f, -63.2767f, -2.72752f, -8.37093f, 55.6421f,
    -99.0591f, -85.9841f, 91.4046f, 26.7268f, -92.1002f, 2.42074f, -6.41819f, -18.15f, 12.207f, 48.6667f, 51.6616f,
    -48.073f, -50.3433f, 58.2913f, -89.9345f, -82.6098f, -89.6739f, -25.9494f, -31.1646f, 69.4103f, 21.483f,
    -78.7341f, 31.7695f, 50.462f, -83.7715f, 63.4177f, 71.7272f, -90.2271f, 16.1258f, -61.4531f, -61.7242f, 25.0575f,
    -97.8702f, 26.9708f, -23.039f, -52.7595f, -97.0177f, -13.1399f, -60.527f, -29.7551f, -33.3166f, -82.1242f,
    -36.9426f, -70.3942f, 0.0381027f, 5.28754f, -43.5545f, 47.3574f, 97.1801f, 43.4392f, 22.7347f, 12.6125f, 49.2601f,
    -88.5728f, 53.4543f, -91.4307f, 19.083f, -81.5139f, 87.8383f, 90.714f, 4.75546f, -79.7464f, 69.0971f, -82.6252f,
    -63.0042f, 56.4225f, -72.1826f, 91.5082f, 68.2155f, -38.1932f, 17.976f, 5.82004f, 4.41524f, -52.2192f, 93.1915f,
    -69.4351f, 48.6597f, -8.44998f, 20.7356f, -4.71108f, -59.2265f, 19.407f, 62.5668f, -15.4888f, 41.4265f, 59.5144f,
    -83.7747f, -97.6047f, -60.7304f, 28.9736f, -42.6681f, -26.9334f, 79.3798f, -14.6596f, 22.984f, 48.8083f};

const CMPMODE kModes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};
template <class C> bool ref_cmp(CMPMODE m, C a, C b) {
  switch (m) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    default: return a != b;
  }
}
bool bit(const std::vector<uint8_t>& v, size_t i) { return (v[i / 8] >> (i % 8)) & 1; }
}  // namespace

TEST(VecCompare, CountFormAllModesBitLayout) {
  Env env;
  const uint32_t n = 256;   // 4 float repeats, 2 half repeats
  auto a = env.at<float>(0, n), b = env.at<float>(1024, n);
  auto ha = env.at<half>(2048, n), hb = env.at<half>(3072, n);
  auto out = env.at<uint8_t>(4096, 64);
  std::vector<float> x(n), y(n);
  std::vector<half> hx(n), hy(n);
  Rng rng(9);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(static_cast<int>(rng.next() % 7) - 3);
    y[i] = static_cast<float>(static_cast<int>(rng.next() % 7) - 3);
    hx[i] = half(x[i]);
    hy[i] = half(y[i]);
  }
  x[5] = NAN;
  hy[9] = half(NAN);
  fill(a, x); fill(b, y); fill(ha, hx); fill(hb, hy);
  for (CMPMODE m : kModes) {
    fill(out, std::vector<uint8_t>(64, 0xcd));
    Compare(out, a, b, m, n);
    auto got = read(out, 64);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(bit(got, i), ref_cmp(m, x[i], y[i])) << static_cast<int>(m) << " " << i;
    for (uint32_t i = n / 8; i < 64; ++i) EXPECT_EQ(got[i], 0xcd) << "wrote past count/8 bytes";
    Compare(out, ha, hb, m, n);
    got = read(out, 32);
    for (uint32_t i = 0; i < n; ++i)
      EXPECT_EQ(bit(got, i), ref_cmp(m, static_cast<float>(hx[i]), static_cast<float>(hy[i]))) << static_cast<int>(m) << " " << i;
  }
  // LSB first: element 0 is bit 0 of byte 0
  std::vector<float> z(64, 0.0f);
  z[0] = 1.0f; z[9] = 1.0f;
  fill(a, z);
  fill(b, std::vector<float>(64, 0.5f));
  Compare(out, a, b, CMPMODE::GT, 64);
  auto g = read(out, 8);
  EXPECT_EQ(g[0], 0x01);
  EXPECT_EQ(g[1], 0x02);
  const auto& t = env.last_v();
  EXPECT_STREQ(t.api, "Compare");
  EXPECT_EQ(t.elems, 64u);
  EXPECT_EQ(t.repeats, 1u);
  EXPECT_EQ(t.dst, 4096u);
  EXPECT_EQ(t.src0, 0u);
  EXPECT_EQ(t.src1, 1024u);
}

TEST(VecCompare, Int32EqOnly) {
  Env env;
  auto a = env.at<int32_t>(0, 64), b = env.at<int32_t>(256, 64);
  auto out = env.at<int8_t>(512, 32);
  std::vector<int32_t> x(64), y(64);
  for (int i = 0; i < 64; ++i) { x[i] = i % 5; y[i] = i % 3; }
  fill(a, x); fill(b, y);
  Compare(out, a, b, CMPMODE::EQ, 64);   // int8_t result tensors are allowed for Compare
  auto g = read(out, 8);
  for (int i = 0; i < 64; ++i) EXPECT_EQ((static_cast<uint8_t>(g[i / 8]) >> (i % 8)) & 1, x[i] == y[i] ? 1 : 0) << i;
  EXPECT_ERROR("dtype", Compare(out, a, b, CMPMODE::LT, 64));
  auto u = env.at<uint8_t>(1024, 64);
  EXPECT_ERROR("dtype", CompareScalar(u, a, 3, CMPMODE::GE, 64));
}

TEST(VecCompare, OperatorForms) {
  Env env;
  auto a = env.at<float>(0, 128), b = env.at<float>(512, 128);
  auto out = env.at<uint8_t>(1024, 32);
  std::vector<float> x(128), y(128);
  for (int i = 0; i < 128; ++i) { x[i] = static_cast<float>(i % 4); y[i] = static_cast<float>(i % 3); }
  fill(a, x); fill(b, y);
  for (int op = 0; op < 6; ++op) {
    switch (op) {
      case 0: out = a < b; break;
      case 1: out = a > b; break;
      case 2: out = a <= b; break;
      case 3: out = a >= b; break;
      case 4: out = a == b; break;
      case 5: out = a != b; break;
    }
    const CMPMODE m[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::LE, CMPMODE::GE, CMPMODE::EQ, CMPMODE::NE};
    auto g = read(out, 16);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(bit(g, i), ref_cmp(m[op], x[i], y[i])) << op << " " << i;
    EXPECT_EQ(env.last_v().elems, 128u);
  }
  // whole-tensor form: the tensors' size must be a multiple of 256 bytes
  auto c = env.at<float>(2048, 40), d = env.at<float>(2560, 40);
  fill(c, std::vector<float>(40, 1.0f));
  fill(d, std::vector<float>(40, 1.0f));
  EXPECT_ERROR("align", out = c < d);
}

TEST(VecCompare, RepeatFormIgnoresMaskPacksBits) {
  Env env;
  auto a = env.at<float>(0, 1024), b = env.at<float>(4096, 1024);
  auto out = env.at<uint8_t>(8192, 64);
  std::vector<float> x(1024), y(1024);
  for (int i = 0; i < 1024; ++i) { x[i] = static_cast<float>((i * 7) % 11); y[i] = static_cast<float>((i * 3) % 11); }
  fill(a, x); fill(b, y);
  fill(out, std::vector<uint8_t>(64, 0xee));
  BinaryRepeatParams p(1, 2, 1, 8, 16, 8);   // src0 read with block stride 2, repeat stride 16
  Compare(out, a, b, CMPMODE::GE, static_cast<uint64_t>(1), 3, p);   // mask is reserved on A2: all 64 lanes
  auto g = read(out, 64);
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t k = 0; k < 64; ++k)
      EXPECT_EQ(bit(g, r * 64 + k), x[lane_index(r, k, 4, 2, 16)] >= y[lane_index(r, k, 4, 1, 8)]) << r << " " << k;
  for (int i = 24; i < 64; ++i) EXPECT_EQ(g[i], 0xee) << i;
  // CompareScalar, mask/repeat form, half
  auto h = env.at<half>(16384, 512);
  std::vector<half> hx(512);
  for (int i = 0; i < 512; ++i) hx[i] = half(static_cast<float>(i % 9) - 4.0f);
  fill(h, hx);
  uint64_t m[2] = {1, 0};
  CompareScalar(out, h, half(0.0f), CMPMODE::LT, m, 2, {1, 1, 8, 16});
  g = read(out, 32);
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t k = 0; k < 128; ++k)
      EXPECT_EQ(bit(g, r * 128 + k), static_cast<float>(hx[lane_index(r, k, 2, 1, 16)]) < 0.0f) << r << " " << k;
}

// The dense repeat form reads whole repeats whatever the mask, lane by lane: lanes past a short source buffer inside
// UB (here never written) give garbage bits, not a fault; they fail where used (NPUKernelBench's CrossEntropyLossGrad).
TEST(VecCompare, DenseRepeatFormReadsPastItsBufferAsGarbage) {
  kgen::sim::TestCore tc;
  TPipe pipe;
  TBuf<TPosition::VECCALC> ta, untouched, tb, tout;
  pipe.InitBuffer(ta, 32);           // 8 floats: the repeat reads 64
  pipe.InitBuffer(untouched, 256);   // what lies after them, never written
  pipe.InitBuffer(tb, 256);
  pipe.InitBuffer(tout, 32);
  auto a = ta.Get<float>(), b = tb.Get<float>();
  auto out = tout.Get<uint8_t>();
  for (int i = 0; i < 8; ++i) a.SetValue(i, static_cast<float>(i));
  for (int i = 0; i < 64; ++i) b.SetValue(i, 3.0f);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(kgen::sim::error_of([&] { Compare(out, a, b, CMPMODE::EQ, static_cast<uint64_t>(8), 1, {1, 1, 1, 8, 8, 8}); }), "");
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(out.GetValue(0), 1u << 3);   // lanes 0..7: only a[3] == 3
  const std::string e = kgen::sim::error_of([&] { (void)out.GetValue(4); });
  EXPECT_NE(e.find("error[uninit-read]"), std::string::npos) << e;
  EXPECT_NE(e.find("Compare"), std::string::npos) << e;
  // a strided walk reads past the buffer too, as the chip does, but it is not lane-wise: the never-written bytes are
  // uninit-read where it reads them
  EXPECT_NE(kgen::sim::error_of([&] { Compare(out, a, b, CMPMODE::EQ, static_cast<uint64_t>(8), 1, {1, 2, 1, 8, 8, 8}); })
                .find("error[uninit-read]"),
            std::string::npos);
}

TEST(VecCompare, CompareScalarCountForm) {
  Env env;
  auto a = env.at<float>(0, 512);
  auto out = env.at<uint8_t>(4096, 64);
  std::vector<float> x(512);
  for (int i = 0; i < 512; ++i) x[i] = static_cast<float>(i) - 200.5f;
  fill(a, x);
  for (CMPMODE m : kModes) {
    CompareScalar(out, a, 10.5f, m, 512);
    auto g = read(out, 64);
    for (int i = 0; i < 512; ++i) EXPECT_EQ(bit(g, i), ref_cmp(m, x[i], 10.5f)) << static_cast<int>(m) << " " << i;
  }
  EXPECT_STREQ(env.last_v().api, "CompareScalar");
  EXPECT_ERROR("align", CompareScalar(out, a, 1.0f, CMPMODE::LT, 100));
}

TEST(VecCompare, Errors) {
  Env env;
  auto a = env.at<float>(0, 64);
  auto o16 = env.at<int16_t>(512, 64);
  auto o8 = env.at<uint8_t>(1024, 64);
  auto s8 = env.at<int8_t>(1536, 64);
  auto u8 = env.at<uint8_t>(2048, 256);
  auto bf = env.at<bfloat16_t>(4096, 128);
  fill(a, std::vector<float>(64, 1.0f));
  fill(u8, std::vector<uint8_t>(256, 1));
  fill(bf, std::vector<bfloat16_t>(128, bfloat16_t(1.0f)));
  EXPECT_ERROR("dtype", Compare(o16, a, a, CMPMODE::LT, 64));
  EXPECT_ERROR("dtype", CompareScalar(s8, a, 1.0f, CMPMODE::LT, 64));   // CompareScalar writes uint8_t
  EXPECT_ERROR("dtype", Compare(o8, u8, u8, CMPMODE::EQ, 256));
  EXPECT_ERROR("dtype", Compare(o8, bf, bf, CMPMODE::EQ, 128));
  EXPECT_ERROR("param", Compare(o8, a, a, static_cast<CMPMODE>(7), 64));
  EXPECT_ERROR("align", Compare(o8, a, a, CMPMODE::LT, 8));
  EXPECT_ERROR("align", Compare(o8[1], a, a, CMPMODE::LT, 64));
  EXPECT_ERROR("ub-overflow", Compare(o8, a, a, CMPMODE::LT, 1 << 20));
  Env p310(64 * 1024, "Ascend310P3");
  auto i = p310.at<int32_t>(0, 64);
  auto o = p310.at<uint8_t>(256, 32);
  fill(i, std::vector<int32_t>(64, 1));
  EXPECT_ERROR("dtype", Compare(o, i, i, CMPMODE::EQ, 64));   // int32 Compare is A2 only
}

// ---------------- Select ----------------
TEST(VecSelect, DocMode2Example) {
  Env env;
  auto s0 = env.at<float>(0, 256), s1 = env.at<float>(1024, 256), d = env.at<float>(2048, 256);
  auto sel = env.at<uint8_t>(4096, 32);
  fill(s0, std::vector<float>(kDocSrc0, kDocSrc0 + 256));
  fill(s1, std::vector<float>(kDocSrc1, kDocSrc1 + 256));
  fill(sel, std::vector<uint8_t>(kDocSel, kDocSel + 32));
  uint64_t mask = 256 / sizeof(float);
  Select(d, sel, s0, s1, SELMODE::VSEL_TENSOR_TENSOR_MODE, mask, 4, {1, 1, 1, 8, 8, 8});
  auto g = read(d, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(g[i], kDocDst[i]) << i;
  // the count form gives the same
  fill(d, std::vector<float>(256, 0.0f));
  Select(d, sel, s0, s1, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);
  g = read(d, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(g[i], kDocDst[i]) << i;
}

TEST(VecSelect, CountFormsAllModesAndMaskTypes) {
  Env env;
  const uint32_t n = 300;   // 2 half repeats + a 44-element tail
  auto s0 = env.at<half>(0, 512), s1 = env.at<half>(1024, 512), d = env.at<half>(2048, 512);
  auto sel8 = env.at<uint8_t>(4096, 64);
  std::vector<half> x(512), y(512);
  for (uint32_t i = 0; i < 512; ++i) { x[i] = half(static_cast<float>(i)); y[i] = half(-static_cast<float>(i)); }
  std::vector<uint8_t> bits(64);
  Rng rng(21);
  for (auto& v : bits) v = static_cast<uint8_t>(rng.next());
  fill(s0, x); fill(s1, y); fill(sel8, bits);
  auto check = [&](const std::vector<half>& got, int mode, float scalar) {
    for (uint32_t i = 0; i < n; ++i) {
      size_t bi = mode == 0 ? i % 128 : i;   // mode 0 reuses the first 128 bits in every repeat
      float want = bit(bits, bi) ? static_cast<float>(x[i]) : (mode == 1 ? scalar : static_cast<float>(y[i]));
      ASSERT_EQ(static_cast<float>(got[i]), want) << "mode " << mode << " element " << i;
    }
  };
  for (int mode : {0, 2}) {
    fill(d, std::vector<half>(512, half(7.0f)));
    Select(d, sel8, s0, s1, static_cast<SELMODE>(mode), n);
    auto g = read(d, 512);
    check(g, mode, 0);
    for (uint32_t i = n; i < 512; ++i) EXPECT_EQ(static_cast<float>(g[i]), 7.0f);
  }
  Select(d, sel8, s0, half(0.25f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  check(read(d, n), 1, 0.25f);
  // the same bits through uint16/uint32/uint64 selMask tensors (little-endian words)
  auto sel16 = sel8.ReinterpretCast<uint16_t>();
  auto sel32 = sel8.ReinterpretCast<uint32_t>();
  auto sel64 = sel8.ReinterpretCast<uint64_t>();
  Select(d, sel16, s0, s1, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
  check(read(d, n), 2, 0);
  Select(d, sel32, s0, half(-1.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
  check(read(d, n), 1, -1.0f);
  Select(d, sel64, s0, s1, SELMODE::VSEL_CMPMASK_SPR, n);
  check(read(d, n), 0, 0);
  // a signed mask type: the chip reads the bits all the same (its build does not check the type)
  Select(d, sel8.ReinterpretCast<int8_t>(), s0, s1, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
  check(read(d, n), 2, 0);
  EXPECT_STREQ(env.last_v().api, "Select");
  EXPECT_EQ(env.last_v().elems, n);
}

TEST(VecSelect, RepeatFormsMaskFilterAndStrides) {
  for (int mode = 0; mode < 3; ++mode) {
    Env env;
    auto s0 = env.at<float>(0, 1024), s1 = env.at<float>(4096, 1024), d = env.at<float>(8192, 1024);
    auto sel = env.at<uint8_t>(16384, 64);
    std::vector<float> x(1024), y(1024);
    for (int i = 0; i < 1024; ++i) { x[i] = static_cast<float>(i); y[i] = -static_cast<float>(i); }
    std::vector<uint8_t> bits(64);
    Rng rng(33 + mode);
    for (auto& v : bits) v = static_cast<uint8_t>(rng.next());
    fill(s0, x); fill(s1, y); fill(sel, bits);
    fill(d, std::vector<float>(1024, 99.0f));
    BinaryRepeatParams p(2, 1, 3, 16, 8, 24);
    uint64_t m[2] = {0x0f0f0000ffff00ffull, 0};
    const uint8_t rep = 3;
    if (mode == 1) Select(d, sel, s0, 0.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, m, rep, p);
    else Select(d, sel, s0, s1, static_cast<SELMODE>(mode), m, rep, p);
    std::vector<float> want(1024, 99.0f);
    for (uint32_t r = 0; r < rep; ++r)
      for (uint32_t k = 0; k < 64; ++k) {
        if (!((m[0] >> k) & 1)) continue;   // masked-off lanes keep dst
        size_t bi = mode == 0 ? k : r * 64 + k;
        float v = bit(bits, bi) ? x[lane_index(r, k, 4, 1, 8)] : (mode == 1 ? 0.5f : y[lane_index(r, k, 4, 3, 24)]);
        want[lane_index(r, k, 4, 2, 16)] = v;
      }
    auto g = read(d, 1024);
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(g[i], want[i]) << "mode " << mode << " element " << i;
  }
}

TEST(VecSelect, CompareThenSelectPipeline) {
  Env env;
  auto a = env.at<float>(0, 256), b = env.at<float>(1024, 256), d = env.at<float>(2048, 256);
  auto m = env.at<uint8_t>(3072, 32);
  std::vector<float> x(256), y(256);
  Rng rng(4);
  for (int i = 0; i < 256; ++i) { x[i] = static_cast<float>(rng.uni(-1, 1)); y[i] = static_cast<float>(rng.uni(-1, 1)); }
  fill(a, x); fill(b, y);
  Compare(m, a, b, CMPMODE::GT, 256);
  Select(d, m, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);   // elementwise max
  auto g = read(d, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(g[i], x[i] > y[i] ? x[i] : y[i]) << i;
}

TEST(VecSelect, TmpUbOfModes1And2) {
  // Modes 1 and 2 write 32 values at TMP_UB_OFFSET (184 KB) before the select, as the chip does, clobbering a buffer
  // that holds data there (no error: the chip raises none); mode 0 writes nothing there.
  Env env(192 * 1024);   // the whole UB
  auto s0 = env.at<float>(0, 64), s1 = env.at<float>(256, 64), d = env.at<float>(512, 64);
  auto sel = env.at<uint8_t>(1024, 32);
  auto top = env.at<uint32_t>(184 * 1024, 64);
  fill(s0, std::vector<float>(64, 1.0f));
  fill(s1, std::vector<float>(64, 2.0f));
  fill(sel, std::vector<uint8_t>(32, 0x0f));
  fill(top, std::vector<uint32_t>(64, 7u));
  Select(d, sel, s0, s1, SELMODE::VSEL_CMPMASK_SPR, 64);
  EXPECT_EQ(read(top, 64), std::vector<uint32_t>(64, 7u));
  Select(d, sel, s0, s1, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);   // 32 copies of selMask's UB address
  std::vector<uint32_t> want(64, 7u);
  const uint32_t sel_addr = static_cast<uint32_t>(sel.GetPhyAddr());
  for (int i = 0; i < 32; ++i) want[i] = sel_addr;
  EXPECT_EQ(read(top, 64), want);
  EXPECT_EQ(read(d, 8)[0], 1.0f);
  Select(d, sel, s0, 3.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);   // 32 copies of the scalar
  uint32_t three = 0;
  const float f3 = 3.0f;
  std::memcpy(&three, &f3, 4);
  for (int i = 0; i < 32; ++i) want[i] = three;
  EXPECT_EQ(read(top, 64), want);
  Env small(184 * 1024);   // stays below TMP_UB_OFFSET
  auto t0 = small.at<float>(0, 64);
  auto tm = small.at<uint8_t>(1024, 32);
  fill(t0, std::vector<float>(64, 1.0f));
  fill(tm, std::vector<uint8_t>(32, 0x0f));
  Select(t0, tm, t0, 3.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
  EXPECT_EQ(read(t0, 8)[4], 3.0f);
}

TEST(VecSelect, Errors) {
  Env env;
  auto f = env.at<float>(0, 64), g = env.at<float>(256, 64);
  auto sel = env.at<uint8_t>(512, 32);
  auto ssel = env.at<int8_t>(1024, 32);
  auto i32 = env.at<int32_t>(1536, 64);
  fill(f, std::vector<float>(64, 1.0f));
  fill(sel, std::vector<uint8_t>(32, 1));
  fill(ssel, std::vector<int8_t>(32, 1));
  fill(i32, std::vector<int32_t>(64, 1));
  EXPECT_ERROR("param", Select(g, sel, f, f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64));
  EXPECT_ERROR("param", Select(g, sel, f, 1.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64));
  EXPECT_ERROR("param", Select(g, sel, f, f, static_cast<SELMODE>(5), 64));
  Select(g, ssel, f, f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);   // a signed mask: bits, as on the chip
  EXPECT_ERROR("dtype", Select(g, f, f, f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64));   // a float is no mask
  EXPECT_ERROR("dtype", Select(i32, sel, i32, i32, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64));
  EXPECT_ERROR("param", Select(g, sel, f, f, SELMODE::VSEL_CMPMASK_SPR, static_cast<uint64_t>(65), 1, {1, 1, 1, 8, 8, 8}));
  // a mask nothing wrote selects garbage lanes (no fault, as on the chip), which fail where they are used
  Select(g, env.at<uint8_t>(2048, 32), f, f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
  EXPECT_ERROR("uninit-read", g.GetValue(0));
}
