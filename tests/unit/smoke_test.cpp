#include <gtest/gtest.h>

#include "kernel_operator.h"
#include "tikicpulib.h"
#include "sim/testing.h"

TEST(Smoke, AddCountForm) {
  kgen::sim::TestCore tc;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * 64 * sizeof(float));
  auto a = buf.Get<float>();
  auto b = a[64], c = a[128];
  for (int i = 0; i < 64; ++i) { a.SetValue(i, float(i)); b.SetValue(i, 2.0f * i); }
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::Add(c, a, b, 64);
  AscendC::PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(c.GetValue(i), 3.0f * i);
}

TEST(Smoke, RaceWithoutSync) {
  kgen::sim::TestCore tc;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64 * sizeof(float));
  auto a = buf.Get<float>();
  uint8_t* gm = static_cast<uint8_t*>(AscendC::GmAlloc(256));
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<float*>(gm), 64);
  AscendC::DataCopy(a, g, 64);
  std::string e = kgen::sim::error_of([&] { AscendC::Add(a, a, a, 64); });
  AscendC::GmFree(gm);
  EXPECT_NE(e.find("error[race]"), std::string::npos) << e;
}
