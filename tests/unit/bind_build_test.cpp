// A binding's library is found by its text, not by the path of its file (op/bind_build.h): the NPUKernelBench
// evaluator builds a task's pybind.cpp in its temporary folder, the candidate's run writes the same text elsewhere in
// the sandbox and must find that library instead of compiling it again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "op/bind_build.h"
#include "op/build.h"

namespace {
namespace fs = std::filesystem;
using namespace kgen;

std::atomic<int> compiles{0};
sandbox::Result counted_compile(const op::CompileJob& job) {
  ++compiles;
  return op::sandboxed_compile(job);
}

const char* kBinding = R"(#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

at::Tensor twice(const at::Tensor& x) {
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnTwice, x, y);
    return y;
}

PYBIND11_MODULE(kernel_gen_ops, m) { m.def("twice", &twice, ""); }
)";
}  // namespace

TEST(BindBuild, TheLibraryIsFoundByTheBindingsTextWhereverTheFileIs) {
  const fs::path dir = fs::temp_directory_path() / ("kgen-bind-build-" + std::to_string(::getpid()));
  fs::create_directories(dir / "parent");
  fs::create_directories(dir / "sandbox/work/bind");
  const op::BuildEnv saved = op::build_env();
  op::BuildEnv e = saved;
  e.cache = (dir / "cache").string();
  e.build_dir.clear();
  e.compile = counted_compile;
  op::set_build_env(e);
  std::ofstream(dir / "parent/op.cpp") << kBinding;
  std::ofstream(dir / "sandbox/work/bind/op.cpp") << kBinding;

  const op::BindBuild first = op::build_bind((dir / "parent/op.cpp").string());
  ASSERT_TRUE(first.ok) << first.diag;
  EXPECT_EQ(compiles.load(), 1);
  const op::BindBuild second = op::build_bind((dir / "sandbox/work/bind/op.cpp").string());
  ASSERT_TRUE(second.ok) << second.diag;
  EXPECT_EQ(second.so, first.so);
  EXPECT_EQ(compiles.load(), 1);   // not compiled again

  std::ofstream(dir / "sandbox/work/bind/op.cpp", std::ios::app) << "// another text\n";
  const op::BindBuild third = op::build_bind((dir / "sandbox/work/bind/op.cpp").string());
  ASSERT_TRUE(third.ok) << third.diag;
  EXPECT_NE(third.so, first.so);
  EXPECT_EQ(compiles.load(), 2);
  op::set_build_env(saved);
  fs::remove_all(dir);
}
