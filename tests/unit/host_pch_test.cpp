// The host's precompiled header is used only when the translation unit stays the same (op/host_pch.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "op/host_pch.h"

namespace {
namespace fs = std::filesystem;

struct Proj {
  fs::path dir = fs::temp_directory_path() / ("kgen-host-pch-" + std::to_string(::getpid()));
  kgen::op::Project p;
  Proj(const std::string& host, const std::string& tiling) {
    fs::create_directories(dir / "op_host");
    p.dir = dir.string();
    p.host_cpp = (dir / "op_host/x_custom.cpp").string();
    p.tiling_h = (dir / "op_host/x_custom_tiling.h").string();
    std::ofstream(p.host_cpp) << host;
    std::ofstream(p.tiling_h) << tiling;
  }
  ~Proj() { fs::remove_all(dir); }
};

const char* kHost = "// X, host side\n/* a block\n   comment */\n#include \"x_custom_tiling.h\"\n#include \"register/op_def_registry.h\"\n";
const char* kTiling = "#include \"register/tilingdata_base.h\"\nnamespace optiling {}\n";

TEST(HostPch, TheUsualLayoutQualifies) {
  EXPECT_TRUE(kgen::op::host_pch_applies(Proj(kHost, kTiling).p));
  EXPECT_TRUE(kgen::op::host_pch_applies(Proj(kHost, std::string("#pragma once\n") + kTiling).p));
  EXPECT_TRUE(kgen::op::host_pch_applies(
      Proj(kHost, std::string("#ifndef X_TILING_H\n#define X_TILING_H\n") + kTiling + "#endif\n").p));
}

TEST(HostPch, AnythingBeforeTheFirstHeaderDisqualifies) {
  EXPECT_FALSE(kgen::op::host_pch_applies(Proj(std::string("#define FAST 1\n") + kHost, kTiling).p));
  EXPECT_FALSE(kgen::op::host_pch_applies(Proj(std::string("#include <vector>\n") + kHost, kTiling).p));
  EXPECT_FALSE(kgen::op::host_pch_applies(Proj(kHost, std::string("#define TILING_KEY 3\n") + kTiling).p));
  EXPECT_FALSE(kgen::op::host_pch_applies(
      Proj(kHost, std::string("#ifndef A\n#define B\n") + kTiling + "#endif\n").p));   // not a guard
  EXPECT_FALSE(kgen::op::host_pch_applies(Proj(kHost, "#include <cstdint>\n#include \"register/tilingdata_base.h\"\n").p));
  EXPECT_FALSE(kgen::op::host_pch_applies(Proj("#include \"register/op_def_registry.h\"\n", kTiling).p));
  EXPECT_FALSE(kgen::op::host_pch_applies(Proj("int x;\n#include \"x_custom_tiling.h\"\n", kTiling).p));
}
}  // namespace
