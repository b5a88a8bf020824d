// Tile program -> op project, in memory (parse, check, every lowering pass, the four emitted files, the helper
// headers): one benchmark per program of the expert library (kernels/), of tests/data/tile and of the operators
// outside the suite (tests/data/tile_ops/programs). Target: median <= 10 ms per program on this machine (issue 7).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tile/compile.h"

namespace fs = std::filesystem;

static void compile_one(benchmark::State& state, std::string path, std::string text) {
  for (auto _ : state) {
    kgen::tile::Diags d(path, &text);
    kgen::tile::CompileResult r = kgen::tile::compile_program(path, text, {}, d);
    if (!r.ok) {
      state.SkipWithError(("does not compile: " + d.render()).c_str());
      return;
    }
    benchmark::DoNotOptimize(r.files);
  }
}

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (const char* dir : {"kernels", "tests/data/tile", "tests/data/tile_ops/programs"}) {
    std::error_code ec;
    fs::path root = fs::path(KGEN_SOURCE_DIR) / dir;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->path().extension() == ".tile") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string rel = fs::relative(f, KGEN_SOURCE_DIR).string();
    benchmark::RegisterBenchmark(rel.c_str(), compile_one, rel, ss.str())->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
