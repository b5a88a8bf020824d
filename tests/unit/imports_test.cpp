// The imports check reads a library's undefined dynamic symbols itself (op/imports.h): the same names nm -D -u -C
// lists, the forbidden ones named, and a file that is not a library refused with a reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "op/imports.h"

namespace {
namespace fs = std::filesystem;

struct Lib {
  fs::path dir = fs::temp_directory_path() / ("kgen-imports-" + std::to_string(::getpid()));
  fs::path so = dir / "lib.so";
  explicit Lib(const std::string& src) {
    fs::create_directories(dir);
    std::ofstream(dir / "lib.cpp") << src;
    std::string cmd = "g++ -std=c++17 -O1 -fPIC -shared -o " + so.string() + " " + (dir / "lib.cpp").string() +
                      " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  ~Lib() { fs::remove_all(dir); }
};

// nm's answer, names without their version, for comparison.
std::set<std::string> nm_undefined(const fs::path& so) {
  std::set<std::string> s;
  FILE* p = popen(("nm -D -u -C " + so.string()).c_str(), "r");
  char line[4096];
  while (p && fgets(line, sizeof line, p)) {
    std::string l(line);
    l.erase(l.find_last_not_of('\n') + 1);
    size_t k = l.find_first_not_of(' ');
    if (k == std::string::npos || k + 2 >= l.size()) continue;
    std::string sym = l.substr(k + 2);
    s.insert(sym.substr(0, sym.find('@')));
  }
  if (p) pclose(p);
  return s;
}

const char* kSneaky = R"(
#include <dlfcn.h>
#include <sys/mman.h>
#include <string>
namespace kgen::sim { void poke(int); }
extern "C" void* find_it(const char* n) { return dlsym(RTLD_DEFAULT, n); }
extern "C" void* map_it(unsigned long n) { return mmap(nullptr, n, 3, 0x22, -1, 0); }
extern "C" void poke_it() { kgen::sim::poke(3); }
std::string name_it() { return std::string("x") + std::to_string(4); }
)";

TEST(Imports, SameNamesAsNm) {
  Lib lib(kSneaky);
  std::vector<std::string> names;
  std::string err;
  ASSERT_TRUE(kgen::op::undefined_dynamic_symbols(lib.so.string(), names, err)) << err;
  std::set<std::string> mine(names.begin(), names.end());
  EXPECT_EQ(mine, nm_undefined(lib.so));
  EXPECT_TRUE(mine.count("dlsym"));
  EXPECT_TRUE(mine.count("kgen::sim::poke(int)"));
}

TEST(Imports, ForbiddenOnesAreNamed) {
  Lib lib(kSneaky);
  std::vector<std::string> bad = kgen::op::forbidden_imports(lib.so.string(), false);
  auto has = [&](const std::string& start) {
    return std::any_of(bad.begin(), bad.end(), [&](const std::string& b) { return b.rfind(start, 0) == 0; });
  };
  EXPECT_TRUE(has("dlsym (")) << ::testing::PrintToString(bad);
  EXPECT_TRUE(has("mmap (")) << ::testing::PrintToString(bad);
  EXPECT_TRUE(has("kgen::sim::poke(int) (kgen's own internals")) << ::testing::PrintToString(bad);
  EXPECT_EQ(bad.size(), 3u) << ::testing::PrintToString(bad);   // std::string's and libc's own are allowed
}

TEST(Imports, CleanLibraryPasses) {
  Lib lib("#include <cmath>\nextern \"C\" double f(double x) { return std::exp(x) + x; }\n");
  EXPECT_TRUE(kgen::op::forbidden_imports(lib.so.string(), false).empty());
}

TEST(Imports, NotALibraryIsRefusedWithAReason) {
  Lib lib("extern \"C\" int f() { return 1; }\n");
  std::string bytes;
  {
    std::ifstream in(lib.so, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(lib.so, std::ios::binary | std::ios::trunc) << bytes.substr(0, 200);   // headers point past the end
  std::vector<std::string> names;
  std::string err;
  EXPECT_FALSE(kgen::op::undefined_dynamic_symbols(lib.so.string(), names, err));
  EXPECT_NE(err.find("outside the file"), std::string::npos) << err;
  std::ofstream(lib.so, std::ios::binary | std::ios::trunc) << "#!/bin/sh\n";
  EXPECT_FALSE(kgen::op::undefined_dynamic_symbols(lib.so.string(), names, err));
  EXPECT_NE(err.find("not a 64-bit little-endian ELF"), std::string::npos) << err;
  std::vector<std::string> bad = kgen::op::forbidden_imports(lib.so.string(), false);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("cannot be read"), std::string::npos);
}
}  // namespace
