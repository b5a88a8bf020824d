// `kgen cc`: g++ with the emulator's headers, defines and library, plus --soc.
#pragma once
#include <string>
#include <vector>

namespace kgen::cli {
struct CcOptions {
  std::string soc = "Ascend910B2";
  std::vector<std::string> args;   // g++ arguments, as given
  bool verbose = false;
};
// Builds the g++ command line (rewriting <<<>>> launches into temporary copies under tmp_dir).
std::vector<std::string> cc_command(const CcOptions& o, const std::string& tmp_dir, std::string& error);
// Runs it; returns g++'s exit status (or 2 with a message on stderr for a usage error).
int run_cc(const CcOptions& o);
int arch_of_soc(const std::string& soc);
}  // namespace kgen::cli
