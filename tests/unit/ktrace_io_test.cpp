// The trace's binary form (perf/ktrace_io.h): records coded against the last record of their call site decode to
// exactly the records encoded, a loop's records cost a few bytes, and hostile bytes are refused, never misread.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "perf/ktrace_io.h"

namespace {
using kgen::perf::KCore;
using kgen::perf::KTrace;
using kgen::perf::Op;

bool same(const Op& a, const Op& b) {
  return a.kind == b.kind && a.pipe == b.pipe && a.pipe2 == b.pipe2 && a.dtype == b.dtype && a.api == b.api &&
         a.line == b.line && a.elems == b.elems && a.bytes == b.bytes && a.repeats == b.repeats &&
         a.count == b.count && a.event == b.event && a.id == b.id && a.gm_buf == b.gm_buf && a.gm_off == b.gm_off &&
         a.m == b.m && a.n == b.n && a.k == b.k && a.gm_rows == b.gm_rows && a.gm_stride == b.gm_stride;
}

// A loop's records: per tile the same five call sites, the GM offset and the buffer id moving.
KTrace loop_trace(int cores, int tiles) {
  KTrace t;
  t.kernel = "k";
  t.soc = "Ascend910B2";
  t.block_dim = cores;
  t.apis = {"", "DataCopy", "Add", "EnQue", "DeQue"};
  for (int c = 0; c < cores; ++c) {
    KCore k;
    k.block = c;
    for (int i = 0; i < tiles; ++i) {
      Op in;
      in.pipe = 4;
      in.api = 1;
      in.line = 10;
      in.bytes = 16384;
      in.gm_buf = 0;
      in.gm_off = (uint64_t(c) * tiles + i) * 16384;
      k.ops.push_back(in);
      Op q;
      q.kind = Op::EnQue;
      q.api = 3;
      q.line = 11;
      q.id = i % 2;
      k.ops.push_back(q);
      q.kind = Op::DeQue;
      q.api = 4;
      q.line = 12;
      k.ops.push_back(q);
      Op add;
      add.pipe = 1;
      add.api = 2;
      add.line = 13;
      add.elems = 4096;
      add.repeats = 64;
      add.dtype = 0;
      k.ops.push_back(add);
      Op out = in;
      out.pipe = 5;
      out.line = 14;
      out.gm_buf = 1;
      k.ops.push_back(out);
    }
    t.cores.push_back(k);
  }
  return t;
}

TEST(KtraceIo, LoopRecordsCostAFewBytes) {
  KTrace t = loop_trace(4, 5000);
  const std::string bytes = kgen::perf::encode_ktrace(t);
  const size_t records = 4 * 5000 * 5;
  EXPECT_LT(bytes.size(), records * 5) << bytes.size() / double(records) << " bytes a record";
  KTrace back;
  std::string err;
  ASSERT_TRUE(kgen::perf::decode_ktrace(bytes, back, err)) << err;
  ASSERT_EQ(back.cores.size(), 4u);
  for (size_t c = 0; c < 4; ++c) {
    ASSERT_EQ(back.cores[c].ops.size(), t.cores[c].ops.size());
    for (size_t i = 0; i < t.cores[c].ops.size(); ++i) ASSERT_TRUE(same(back.cores[c].ops[i], t.cores[c].ops[i])) << i;
  }
}

// Random records over a few call sites, with extreme values in every field (negative ids, -1 buffers, 64-bit
// offsets, a count of 0, which decodes as 1 without disturbing the records coded against it).
TEST(KtraceIo, RandomRecordsRoundTrip) {
  std::mt19937_64 rng(7);
  KTrace t;
  t.kernel = "rand";
  t.soc = "Ascend910B2";
  t.apis = {"", "a", "b", "c"};
  for (int c = 0; c < 3; ++c) {
    KCore k;
    k.block = c;
    k.aic = c == 1;
    k.sub_block = c - 1;
    for (int i = 0; i < 3000; ++i) {
      Op o;
      o.kind = static_cast<Op::Kind>(rng() % 11);
      o.pipe = rng() % kgen::perf::kPipes;
      o.pipe2 = rng() % kgen::perf::kPipes;
      o.dtype = rng() % 14;
      o.api = rng() % 4;
      o.line = rng() % 5;
      o.elems = rng() % 3 ? rng() % 100000 : rng();
      o.bytes = rng();
      o.repeats = static_cast<uint32_t>(rng());
      o.count = rng() % 5 == 0 ? 0 : static_cast<uint32_t>(rng() % 7);
      o.event = static_cast<int32_t>(rng());
      o.id = rng() % 2 ? -static_cast<int32_t>(rng() % 9) : static_cast<int32_t>(rng());
      o.gm_buf = rng() % 3 ? -1 : static_cast<int64_t>(rng() % 5);
      o.gm_off = rng();
      o.m = static_cast<uint32_t>(rng());
      o.n = rng() % 300;
      o.k = static_cast<uint32_t>(rng());
      o.gm_rows = rng() % 2 ? 0 : static_cast<uint32_t>(rng());
      o.gm_stride = static_cast<uint32_t>(rng());
      k.ops.push_back(o);
    }
    t.cores.push_back(k);
  }
  KTrace back;
  std::string err;
  ASSERT_TRUE(kgen::perf::decode_ktrace(kgen::perf::encode_ktrace(t), back, err)) << err;
  ASSERT_EQ(back.cores.size(), 3u);
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(back.cores[c].aic, t.cores[c].aic);
    EXPECT_EQ(back.cores[c].sub_block, t.cores[c].sub_block);
    ASSERT_EQ(back.cores[c].ops.size(), t.cores[c].ops.size());
    for (size_t i = 0; i < t.cores[c].ops.size(); ++i) {
      Op want = t.cores[c].ops[i];
      if (want.count == 0) want.count = 1;
      ASSERT_TRUE(same(back.cores[c].ops[i], want)) << "core " << c << " record " << i;
    }
  }
}

TEST(KtraceIo, EveryTruncationIsRefused) {
  const std::string bytes = kgen::perf::encode_ktrace(loop_trace(2, 40));
  KTrace back;
  std::string err;
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(kgen::perf::decode_ktrace(bytes.substr(0, n), back, err)) << "prefix of " << n << " bytes";
  EXPECT_FALSE(kgen::perf::decode_ktrace(bytes + '\0', back, err));
  EXPECT_EQ(err, "trailing bytes after the last core");
}

// Flipped bytes: decoded or refused, never out of range (the fields the model indexes with are checked).
TEST(KtraceIo, FlippedBytesNeverGiveAnOutOfRangeRecord) {
  const std::string bytes = kgen::perf::encode_ktrace(loop_trace(2, 40));
  std::mt19937 rng(11);
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string b = bytes;
    for (int f = 0; f < 3; ++f) b[rng() % b.size()] ^= static_cast<char>(1 + rng() % 255);
    KTrace back;
    std::string err;
    if (!kgen::perf::decode_ktrace(b, back, err)) {
      ++refused;
      continue;
    }
    for (const KCore& c : back.cores)
      for (const Op& o : c.ops) {
        ASSERT_LE(o.kind, Op::CrossWait);
        ASSERT_LT(o.pipe, kgen::perf::kPipes);
        ASSERT_LT(o.pipe2, kgen::perf::kPipes);
        ASSERT_LE(o.dtype, 13);
        ASSERT_LT(o.api, back.apis.size());
        ASSERT_GE(o.count, 1u);
      }
  }
  EXPECT_GT(refused, 1000);
}

// A core head promising more records than its bytes could hold is refused before anything is allocated for them.
TEST(KtraceIo, ARecordCountBeyondTheBytesIsRefused) {
  KTrace t = loop_trace(1, 3);
  std::string bytes = kgen::perf::encode_ktrace(t);
  const std::string head = kgen::perf::encode_ktrace_head(t, 1);
  uint64_t n = uint64_t(1) << 40;
  std::memcpy(&bytes[head.size() + 9], &n, sizeof n);   // i32 block, u8 aic, i32 sub_block, then u64 nops
  KTrace back;
  std::string err;
  EXPECT_FALSE(kgen::perf::decode_ktrace(bytes, back, err));
  EXPECT_EQ(err, "core 0: bad record count");
}
}  // namespace
