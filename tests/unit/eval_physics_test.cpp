// The evaluator's physics floor (eval/judge.h within_physics) on the host path (eval/modeled.h): a launch trace that
// claims less device time than writing the outputs takes is cheating, whatever host dispatch the model adds in
// front of it.
#include <gtest/gtest.h>
#include <unistd.h>
#include <filesystem>

#include "eval/judge.h"
#include "eval/modeled.h"
#include "perf/ktrace_io.h"
#include "perf/model.h"

using namespace kgen;

namespace {
// One vector core with one Adds of `repeats` repeats: a trace that writes nothing to GM.
std::string tiny_trace(uint32_t repeats, const std::string& kernel = "tiny") {
  perf::KTrace t;
  t.kernel = kernel;
  t.block_dim = 1;
  perf::KCore c;
  perf::Op o;
  o.pipe = o.pipe2 = perf::P_V;
  o.api = t.intern("Adds");
  o.dtype = 2;
  o.repeats = repeats;
  o.elems = repeats * 64;
  c.ops.push_back(o);
  t.cores.push_back(c);
  return perf::encode_ktrace(t);
}
}  // namespace

TEST(EvalPhysics, TheFloorChecksTheDeviceTimeNotTheHostDispatch) {
  const perf::Profile p = perf::load_profile("Ascend910B2");
  eval::Modeled m;
  std::string err;
  ASSERT_TRUE(eval::add_launch(tiny_trace(1), p, false, m, err)) << err;
  EXPECT_NEAR(m.us, eval::host_call_us() + m.device_us, 1e-9);   // one call: its dispatch, then the launch
  EXPECT_NEAR(m.launch_us, m.us - m.body_us, 1e-9);
  // 16 MB of outputs: the floor is above the trace's device time but below the time with the host's dispatch added
  const double out = 16.0 * (1 << 20);
  const double lb = eval::lower_bound_us(out, 1, p);
  ASSERT_GT(lb, m.device_us);
  ASSERT_LT(lb, m.us);
  eval::Judgement j;
  EXPECT_FALSE(eval::within_physics(m, out, p, "cand", "case default: ", j));
  EXPECT_EQ(j.fail.v, eval::Verdict::Cheating);
  // a small output is within reach
  eval::Judgement ok;
  EXPECT_TRUE(eval::within_physics(m, 4096, p, "cand", "", ok));
}

TEST(EvalPhysics, EachLaunchIsOneCallOnTheHostPath) {
  const perf::Profile p = perf::load_profile("Ascend910B2");
  eval::Modeled one, two;
  std::string err;
  ASSERT_TRUE(eval::add_launch(tiny_trace(200), p, false, one, err)) << err;
  ASSERT_TRUE(eval::add_launch(tiny_trace(200), p, false, two, err)) << err;
  ASSERT_TRUE(eval::add_launch(tiny_trace(200), p, false, two, err)) << err;
  // the second call's dispatch overlaps the first kernel: two calls cost less than twice one
  EXPECT_NEAR(two.device_us, 2 * one.device_us, 1e-9);
  EXPECT_LT(two.us, 2 * one.us);
  EXPECT_GE(two.us, one.us + one.device_us - 1e-9);
}

// --profile files are named by the candidate's kernel name, which its (hostile) trace sets: never a path out of DIR.
TEST(EvalPhysics, ProfileFilesStayInTheirFolderWhateverTheKernelIsCalled) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("kgen_prof_" + std::to_string(::getpid()));
  const perf::Profile p = perf::load_profile("Ascend910B2");
  eval::Modeled m;
  m.profile_prefix = eval::profile_prefix(dir.string(), "dtype=float16,batch=4");
  EXPECT_EQ(m.profile_prefix, (dir / "dtype=float16_batch=4").string());
  std::string err;
  ASSERT_TRUE(eval::add_launch(tiny_trace(1, "../../escape/x"), p, false, m, err)) << err;
  ASSERT_FALSE(m.profile_files.empty());
  for (const std::string& f : m.profile_files) {
    EXPECT_EQ(std::filesystem::path(f).parent_path(), dir) << f;
    EXPECT_EQ(f.find('/', dir.string().size() + 1), std::string::npos) << f;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.parent_path().parent_path() / "escape"));
  std::filesystem::remove_all(dir);
}
