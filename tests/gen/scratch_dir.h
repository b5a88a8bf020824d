// A fresh folder under the system temp dir for one test, removed with everything in it when the test ends.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    path = std::filesystem::temp_directory_path() / ("kgen_gen_test_" + std::to_string(::getpid()) + "_" +
                                                     std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};
