// `kgen data mutate`: error-derived supervision without an LLM (docs/data.md). Correct op projects (the hand-written
// candidates, the expert library's programs compiled to op projects, examples) get one fault of the kinds LLMs make
// (faults() below), each mutant is evaluated by kgen like any candidate, and a mutant kgen flags becomes a row: the
// broken file, kgen's diagnostic exactly as it printed it, the fixed file (the original), and an explanation of the
// fix. A mutant kgen does not flag is counted per fault and never exported: it is an emulator gap or a mutation that
// changes nothing observable.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace kgen::data {

// One fault class: where it applies (a kernel or a host source of an op project), how it changes one line, and the
// explanation a row carries. Plain data; the line edit is mutate.cpp's.
struct Fault {
  std::string name;          // "missing-enque"
  std::string file_role;     // "kernel" (op_kernel/*.cpp) or "host" (op_host/*.cpp)
  std::string what;          // one line for the docs and the summary
};
const std::vector<Fault>& faults();

// One mutant: one line of one file changed (or deleted).
struct Mutant {
  std::string fault;
  std::string file;          // relative to the project, e.g. "op_kernel/swish_custom.cpp"
  int line = 0;              // 1-based, in the original file
  std::string before, after; // the original line and its replacement ("" when the line was deleted)
  std::string original, mutated;   // the whole file before and after
  std::string explanation;   // why the fix is the fix, with the line
};
// The mutants of an op project for the named faults (all when empty): at most max_per_fault per fault, at the first
// sites in file order. A fault with no site in the project makes none.
std::vector<Mutant> make_mutants(const std::string& project_dir, const std::vector<std::string>& fault_names,
                                 int max_per_fault);

struct MutateOptions {
  std::string candidates;           // a bench candidates folder (op projects and .tile programs), e.g. candidates/
  std::string suite;                // its tasks (default the source tree's tasks/)
  std::string filter;               // task ids containing this
  std::string faults;               // comma-separated fault names; "" = all
  int max_per_fault = 1;            // mutants per fault per candidate
  std::string format = "error-fix"; // error-fix (one JSON object per row) or chat (messages)
  std::string out;                  // the JSON-lines file, written whole then renamed
  int jobs = 2;
  std::string soc = "Ascend910B2";
  double timeout_s = 60;            // per run of a mutant (a dropped EnQue may hang)
};
struct FaultCount {
  int made = 0, flagged = 0, exported = 0, unflagged = 0;
  std::map<std::string, int> verdicts;   // of the flagged ones: "compile-error", "runtime-error/ub-overflow", ...
};
struct MutateSummary {
  std::map<std::string, FaultCount> by_fault;
  std::map<std::string, int> skipped;     // sources skipped, by reason
  std::vector<std::string> unflagged;     // "task fault file:line" of each mutant kgen did not flag
  std::vector<std::string> incorrect;     // "task (verdict): first diagnostic" of each source skipped as not correct
  int sources = 0;
  double seconds = 0;
};
// 0 when the file is written; 2 with err on bad options or no usable source; 1 when the file cannot be written.
int mutate_rows(const MutateOptions& o, MutateSummary& s, std::string& err);
std::string mutate_summary_text(const MutateOptions& o, const MutateSummary& s);

}  // namespace kgen::data
