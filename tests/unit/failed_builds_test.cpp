// A kernel compile that failed in the evaluator's prebuild is reported by kgen-oprun, not compiled again inside the
// candidate's sandbox (op/prebuild.h: write_failed_builds, build.h: BuildEnv::failed_dir).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "op/build.h"
#include "op/prebuild.h"

namespace {
namespace fs = std::filesystem;
using namespace kgen;

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("kgen-failed-builds-" + std::to_string(::getpid()));
  op::Project p;
  op::BuildEnv saved = op::build_env();
  Scratch() {
    fs::create_directories(dir / "proj/op_kernel");
    fs::create_directories(dir / "proj/op_host");
    p.dir = (dir / "proj").string();
    p.kernel_cpp = (dir / "proj/op_kernel/x_custom.cpp").string();
    p.host_cpp = (dir / "proj/op_host/x_custom.cpp").string();
    std::ofstream(p.kernel_cpp) << "int x = ;\n";
    std::ofstream(p.host_cpp) << "int y;\n";
  }
  ~Scratch() {
    op::set_build_env(saved);
    fs::remove_all(dir);
  }
};

std::atomic<int> compiles{0};
sandbox::Result failing_compile(const op::CompileJob&) {
  ++compiles;
  sandbox::Result r;
  r.status = 1;
  r.out = "x_custom.cpp:1:9: error: expected primary-expression\n";
  return r;
}

TEST(FailedBuilds, ThePrebuildsFailureIsReadNotCompiledAgain) {
  Scratch s;
  const op::Defines d = {{"DTYPE_X", "float"}};
  const std::string name = fs::path(op::kernel_library_path(s.p, "Ascend910B2", d)).filename().string();

  op::Prebuilt pre;
  EXPECT_EQ(op::write_failed_builds(pre, (s.dir / "none").string()), "");   // nothing failed: no folder
  EXPECT_FALSE(fs::exists(s.dir / "none"));
  pre.failed.push_back({name, "error[compile] x_custom.cpp:1: expected primary-expression\n"});
  const std::string fd = op::write_failed_builds(pre, (s.dir / "failed").string());
  ASSERT_EQ(fd, (s.dir / "failed").string());

  op::BuildEnv e;
  e.cache = (s.dir / "cache").string();
  e.build_dir = (s.dir / "private").string();
  e.compile = failing_compile;
  e.failed_dir = fd;
  op::set_build_env(e);
  compiles = 0;
  op::BuildOut b = op::build_kernel(s.p, "Ascend910B2", d).get();
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.diag, pre.failed[0].second);
  EXPECT_EQ(compiles.load(), 0);

  // Another column (not in the folder) is compiled, and its own errors are reported.
  op::BuildOut other = op::build_kernel(s.p, "Ascend910B2", {{"DTYPE_X", "half"}}).get();
  EXPECT_FALSE(other.ok);
  EXPECT_EQ(compiles.load(), 1);
  EXPECT_NE(other.diag.find("x_custom.cpp:1: expected primary-expression"), std::string::npos) << other.diag;
}
}  // namespace
