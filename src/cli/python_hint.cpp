#include "cli/python_hint.h"

namespace kgen::cli {
std::string python_failure_hint(const std::string& output) {
  for (const char* m : {"No module named 'torch'", "No module named 'numpy'"})
    if (output.find(m) != std::string::npos)
      return "Needs Debian's python3-torch and python3-numpy (scripts/setup.sh installs them).\n";
  if (output.find("Traceback (most recent call last)") != std::string::npos)
    return "This is a bug in kgen's Python helper, not in the suite: please report the traceback above with the "
           "file it names.\n";
  return "The Python helper failed without a traceback (killed, or out of memory: see the status).\n";
}
}  // namespace kgen::cli
