// `kgen examples`: compiles and runs the bundled AscendC examples on the emulator and tabulates the results.
// Negative examples (under errors/) carry an `EXPECT-ERROR: category` comment on the line that must fail.
#pragma once
#include <string>
#include <vector>

namespace kgen::cli {
struct ExampleResult {
  std::string name;
  bool negative = false;
  bool ok = false;
  double compile_s = 0, run_s = 0;
  std::string detail;   // first line of the failure, or the caught error
};
struct ExamplesOptions {
  std::string dir;          // examples/ascendc
  std::string soc = "Ascend910B2";
  std::string filter;       // substring of the example name
  std::string work_dir;     // where binaries go
  int jobs = 2;
  bool include_errors = true;
};
std::vector<std::string> list_examples(const std::string& dir, bool include_errors);
// Expected category and line of a negative example: "" when the file has no EXPECT-ERROR marker.
std::string expected_error(const std::string& file, int& line);
std::vector<ExampleResult> run_examples(const ExamplesOptions& o);
}  // namespace kgen::cli
