// The static checks (src/eval/static_checks.h), the second line behind the sandbox: what honest code does is never
// a finding; each construct that reaches past the API is one, at its line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "eval/static_checks.h"
#include "sandbox/sandbox.h"

namespace fs = std::filesystem;
using kgen::eval::check_cpp_source;

namespace {
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += x + "\n";
  return s;
}
}  // namespace

TEST(StaticChecks, BundledProjectsHaveNoFindings) {
  size_t n = 0;
  for (const char* root : {"candidates", "examples/op_projects", "tests/data/op"}) {
    fs::path r = fs::path(KGEN_SOURCE_DIR) / root;
    for (auto it = fs::recursive_directory_iterator(r); it != fs::recursive_directory_iterator(); ++it) {
      if (!it->is_directory() || !fs::exists(it->path() / "op_host")) continue;
      auto found = kgen::eval::check_op_project(it->path().string());
      EXPECT_TRUE(found.empty()) << it->path() << ":\n" << joined(found);
      ++n;
    }
  }
  EXPECT_GT(n, 20u);
}

TEST(StaticChecks, OwnHelpersAndPlainStringsAreNotFindings) {
  const std::string src =
      "static int read(int a, int b) { return a + b; }\n"
      "static void write(float* p) { p[0] = 1; }\n"
      "const char* kExt = \".npy\";\n"
      "int f() { float x[1]; write(x); return read(1, 2); }\n"
      "// fopen(\"/ref/output_000.npy\") in a comment is not code\n";
  EXPECT_TRUE(check_cpp_source("k.cpp", src).empty()) << joined(check_cpp_source("k.cpp", src));
}

TEST(StaticChecks, EachEscapeIsAFindingAtItsLine) {
  struct Case {
    const char* code;
    const char* want;
  };
  const Case cases[] = {
      {"FILE* f = fopen(p, \"r\");", "fopen(...) call"},
      {"long r = syscall(1, 2);", "syscall(...) call"},
      {"mprotect(p, 4096, 3);", "mprotect(...) call"},
      {"sigaction(11, &sa, 0);", "sigaction(...) call"},
      {"kill(getppid(), 9);", "kill(...) call"},
      {"write(3, buf, n);", "write(...) call"},
      {"DIR* d = opendir(\"x\");", "opendir(...) call"},
      {"asm volatile(\"nop\");", "inline assembly (asm)"},
      {"std::thread t([]{});", "std::thread"},
      {"kgen::op::read_npy(a, b);", "names 'kgen'"},
      {"auto p = \"/proc/self/mem\";", "string \"/proc/self/mem\""},
      {"auto q = \"cache/ref/abc/output_000.npy\";", "names a file of the test"},
      {"__attribute__((constructor)) static void init() {}", "__attribute__((constructor))"},
  };
  for (const Case& c : cases) {
    std::string src = "// line 1\n" + std::string(c.code) + "\n";
    auto found = check_cpp_source("k.cpp", src);
    ASSERT_FALSE(found.empty()) << c.code;
    EXPECT_NE(found[0].find("cheating k.cpp:2:"), std::string::npos) << found[0];
    EXPECT_NE(joined(found).find(c.want), std::string::npos) << c.code << " -> " << joined(found);
  }
}

// MultiKernelBench submissions through python/kgen_eval/static_mkb.py (in the sandbox, as the evaluator runs it).
class MkbStatic : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kgen::sandbox::available()) GTEST_SKIP() << "no sandbox here";
    base_ = std::string(KGEN_SOURCE_DIR) + "/examples/mkb/add.py";
    std::ifstream in(base_);
    text_.assign(std::istreambuf_iterator<char>(in), {});
    dir_ = fs::temp_directory_path() / ("kgen-static-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Findings for add.py with `from` replaced by `to` (which must be found).
  std::string findings(const std::string& from, const std::string& to) {
    std::string t = text_;
    size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) t.replace(at, from.size(), to);
    fs::path p = dir_ / "sub.py";
    std::ofstream(p) << t;
    std::string err;
    auto f = kgen::eval::check_mkb_submission(p.string(), "/usr/bin/python3", err);
    EXPECT_TRUE(err.empty()) << err;
    return joined(f);
  }
  std::string base_, text_;
  fs::path dir_;
};

TEST_F(MkbStatic, TheExampleHasNoFindings) { EXPECT_EQ(findings("import torch_npu", "import torch_npu"), ""); }

TEST_F(MkbStatic, ComputedModelSourceIsResolved) {
  std::string f = findings("model_src = '''", "model_src = 'import torch\\n' + '''");
  EXPECT_EQ(f, "");   // resolvable: still checked, nothing to find
  f = findings("        return custom_ops_lib.add_custom(a, b)",
               "        return torch.add(a, b)");
  EXPECT_NE(f.find("torch.add(...)"), std::string::npos) << f;
}

TEST_F(MkbStatic, HelpersGetattrAndFramesAreFindings) {
  std::string f = findings("        return custom_ops_lib.add_custom(a, b)",
                           "        return helper(a, b)\n\ndef helper(p, q):\n    return torch.add(p, q)");
  EXPECT_NE(f.find("torch.add(...)"), std::string::npos) << f;
  f = findings("        return custom_ops_lib.add_custom(a, b)", "        return getattr(torch, 'add')(a, b)");
  EXPECT_NE(f.find("getattr(torch, 'add')"), std::string::npos) << f;
  f = findings("        return custom_ops_lib.add_custom(a, b)",
               "        import sys\n        return sys._getframe(2).f_locals['ref']");
  EXPECT_NE(f.find("sys._getframe(...)"), std::string::npos) << f;
}

TEST_F(MkbStatic, TopLevelCodeIsAFinding) {
  std::string f = findings("model_src = '''", "print('hello')\nmodel_src = '''");
  EXPECT_NE(f.find("at the submission's top level"), std::string::npos) << f;
}
