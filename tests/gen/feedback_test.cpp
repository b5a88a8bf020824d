// Execution feedback (feedback.h): for each verdict, built from EvalResults shaped like the evaluator's, the text
// has the diagnostics, the offending source lines quoted from a real temporary candidate, and stays bounded.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "scratch_dir.h"
#include "gen/feedback.h"
#include "eval/evaluate.h"

namespace fs = std::filesystem;
using namespace kgen;
using namespace kgen::gen;

namespace {


void write(const fs::path& p, const std::vector<std::string>& lines) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p);
  for (const auto& l : lines) f << l << "\n";
}

// "  12 | code" with the mark the feedback puts on the offending line
std::string quoted(int line, const std::string& code, bool offending = true) {
  return fmt::format("{} {:>4} | {}", offending ? '>' : ' ', line, code);
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

const std::vector<std::string> kKernel = {
    "#include \"kernel_operator.h\"",
    "class K {",
    "    void Compute(uint32_t len) {",
    "        AscendC::Adds(y, x, 1.0f, len)",
    "    }",
    "    void CopyOut(uint32_t i, uint32_t len) {",
    "        AscendC::DataCopy(yGm[i * tileLength], y, (len + 7) / 8 * 8);",
    "    }",
    "};",
};

eval::EvalResult result(eval::Verdict v) {
  eval::EvalResult r;
  r.task_id = "activation/relu";
  r.soc = "Ascend910B2";
  r.verdict = v;
  return r;
}
}  // namespace

TEST(FeedbackCompile, OpProjectQuotesLinesFromTheCandidateCopy) {
  ScratchDir d;
  write(d.path / "op_kernel" / "relu_custom.cpp", kKernel);
  auto r = result(eval::Verdict::CompileError);
  // the evaluator built a copy elsewhere: an absolute path to the same file name
  std::string copy = "/var/tmp/kgen-build-1234/op_kernel/relu_custom.cpp";
  r.diagnostics = {
      fmt::format("error[compile] {}:5: expected ';' before '}}' token — the op's kernel file does not compile; fix "
                  "the line above (the compiler's messages follow)",
                  copy),
      fmt::format("{}: In member function 'void K::Compute(uint32_t)':", copy),
      fmt::format("{}:5:5: error: expected ';' before '}}' token", copy),
      "    5 |     }",
      "      |     ^",
      "failed on case default, trial 0",
  };
  std::string f = feedback_text(r, d.path.string());
  EXPECT_NE(f.find("compile-error"), std::string::npos);
  for (const auto& l : r.diagnostics) EXPECT_NE(f.find(l), std::string::npos) << l;
  // line 5 and the line before it (where the ';' is missing), quoted once
  EXPECT_NE(f.find(quoted(4, kKernel[3], false)), std::string::npos) << f;
  EXPECT_NE(f.find(quoted(5, kKernel[4])), std::string::npos) << f;
  EXPECT_EQ(count(f, quoted(5, kKernel[4])), 1u) << f;
  EXPECT_LE(f.size(), 6000u);
}

TEST(FeedbackCompile, TileDiagnosticsAlreadyShowingTheLineAreNotQuotedAgain) {
  ScratchDir d;
  fs::path tile = d.path / "relu.tile";
  std::vector<std::string> prog = {"kernel relu(x: T[*n]) -> (y: T[*n]):", "    dtype T in (f32, f16)",
                                   "    for t in tiles(n):", "        store(y[t], relux(load(x[t], f32)))"};
  write(tile, prog);
  auto r = result(eval::Verdict::CompileError);
  r.diagnostics = {"relu.tile:4:21: error: unknown function 'relux'", prog[3],
                   "                    ^~~~~~~~~~~~~~~~~~~~~~", "hint: did you mean 'relu'?",
                   // a line with a position but no source copy after it: quoted
                   "relu.tile:2:5: error: something about the dtype line"};
  std::string f = feedback_text(r, tile.string());
  for (const auto& l : r.diagnostics) EXPECT_NE(f.find(l), std::string::npos) << l;
  EXPECT_EQ(f.find(quoted(4, prog[3])), std::string::npos) << f;
  EXPECT_NE(f.find(quoted(2, prog[1])), std::string::npos) << f;
  EXPECT_NE(f.find(quoted(1, prog[0], false)), std::string::npos) << f;
  EXPECT_NE(f.find("tile"), std::string::npos);
}

TEST(FeedbackCompile, ManyDiagnosticsStayBounded) {
  ScratchDir d;
  write(d.path / "op_kernel" / "relu_custom.cpp", kKernel);
  auto r = result(eval::Verdict::CompileError);
  for (int i = 0; i < 300; ++i)
    r.diagnostics.push_back(fmt::format("op_kernel/relu_custom.cpp:{}:1: error: error number {} {}", 1 + i % 9, i,
                                        std::string(150, 'x')));
  std::string f = feedback_text(r, d.path.string());
  EXPECT_LE(f.size(), 6000u);
  EXPECT_NE(f.find("not shown"), std::string::npos);
  EXPECT_NE(f.find(r.diagnostics[0]), std::string::npos);
  EXPECT_EQ(f.find(r.diagnostics[25]), std::string::npos);   // at most 20 located errors
}

TEST(FeedbackRuntime, CategoryMessageAndLine) {
  ScratchDir d;
  write(d.path / "op_kernel" / "relu_custom.cpp", kKernel);
  write(d.path / "op_host" / "relu_custom.cpp", {"// host"});
  auto r = result(eval::Verdict::RuntimeError);
  r.error_category = "gm-out-of-bounds";
  r.diagnostics = {"error[gm-out-of-bounds] relu_custom.cpp:7 block 47 DataCopy: writes GM bytes [391296, 399616) of "
                   "a 399600-byte buffer: 16 bytes past its end (check the block offset and tail length)",
                   "failed on case default, trial 0"};
  std::string f = feedback_text(r, d.path.string());
  EXPECT_NE(f.find("runtime-error"), std::string::npos);
  EXPECT_NE(f.find("[gm-out-of-bounds]"), std::string::npos);
  EXPECT_NE(f.find("DataCopyPad"), std::string::npos);   // what the category means and how to fix it
  for (const auto& l : r.diagnostics) EXPECT_NE(f.find(l), std::string::npos) << l;
  // the kernel file (op_kernel/, the one with that line), not the host file of the same name
  EXPECT_NE(f.find(quoted(7, kKernel[6])), std::string::npos) << f;
}

TEST(FeedbackRuntime, PathsOutsideTheCandidateAreNotQuoted) {
  ScratchDir d;
  fs::path tile = d.path / "relu.tile";
  write(tile, {"kernel relu(x: T[*n]) -> (y: T[*n]):"});
  auto r = result(eval::Verdict::RuntimeError);
  r.error_category = "race";
  r.diagnostics = {"error[race] relu_custom.cpp:1 block 0 Add: pipe V reads UB[0, 32), which pipe MTE2 wrote"};
  std::string f = feedback_text(r, tile.string());
  EXPECT_NE(f.find(r.diagnostics[0]), std::string::npos);
  EXPECT_EQ(f.find(quoted(1, "kernel relu(x: T[*n]) -> (y: T[*n]):")), std::string::npos) << f;
  EXPECT_NE(f.find("generated"), std::string::npos) << f;   // the line is in the code kgen generated
}

TEST(FeedbackTimeout, SaysTheLimitAndTheUsualCauses) {
  auto r = result(eval::Verdict::Timeout);
  r.diagnostics = {"error[timeout] /tmp/c: the candidate exceeded the 300 s limit (build, tiling and kernel "
                   "together) and was stopped — look for a loop that never ends"};
  std::string f = feedback_text(r, "/nonexistent/candidate");
  EXPECT_NE(f.find("timeout"), std::string::npos);
  EXPECT_NE(f.find(r.diagnostics[0]), std::string::npos);
  EXPECT_NE(f.find("WaitFlag"), std::string::npos);
}

TEST(FeedbackWrongAnswer, FailingCaseMismatchAndErrors) {
  auto r = result(eval::Verdict::WrongAnswer);
  eval::CaseResult ok, bad;
  ok.name = "default";
  ok.correct = true;
  bad.name = "dtype=float16";
  bad.first_mismatch = "trial 0: output 0 ('y') index [3, 17]: got 1.5, want 1.25 (48 of 99900 elements mismatch, "
                       "atol 0.01, rtol 0.01)";
  bad.max_abs_err = 0.25;
  bad.max_rel_err = 0.2;
  r.cases = {ok, bad};
  r.diagnostics = {"error[mismatch] c: case dtype=float16, " + bad.first_mismatch};
  std::string f = feedback_text(r, "/nonexistent/candidate");
  EXPECT_NE(f.find("wrong-answer"), std::string::npos);
  EXPECT_NE(f.find("Failing case: " + bad.name), std::string::npos) << f;
  EXPECT_NE(f.find(bad.first_mismatch), std::string::npos);
  EXPECT_NE(f.find(fmt::format("{:.6g}", bad.max_abs_err)), std::string::npos);
  EXPECT_NE(f.find(fmt::format("{:.6g}", bad.max_rel_err)), std::string::npos);
  EXPECT_NE(f.find("passed before it: default"), std::string::npos) << f;
  EXPECT_NE(f.find("float32"), std::string::npos);   // the half-precision hint and the tolerances
}

TEST(FeedbackCheating, QuotesTheFinding) {
  ScratchDir d;
  write(d.path / "op_host" / "relu_custom.cpp", {"// host", "#include <torch/torch.h>", "int x;"});
  auto r = result(eval::Verdict::Cheating);
  r.diagnostics = {"cheating op_host/relu_custom.cpp:2: #include of a PyTorch header — the kernel must compute"};
  std::string f = feedback_text(r, d.path.string());
  EXPECT_NE(f.find("cheating"), std::string::npos);
  EXPECT_NE(f.find(r.diagnostics[0]), std::string::npos);
  EXPECT_NE(f.find(quoted(2, "#include <torch/torch.h>")), std::string::npos) << f;
}

TEST(FeedbackCorrect, ModeledProfileOnTheSoc) {
  auto r = result(eval::Verdict::Correct);
  eval::CaseResult c;
  c.name = "default";
  c.correct = true;
  c.modeled_us = 2.85;
  c.eager_modeled_us = 6.36;
  c.gm_bytes = 512000;
  c.bound = "launch";
  r.cases = {c};
  r.modeled_us = 2.85;
  r.eager_modeled_us = 6.36;
  r.speedup = r.eager_modeled_us / r.modeled_us;
  r.timeline.kernel = "relu_custom";
  r.timeline.case_name = "default";
  r.timeline.bound = "launch";
  r.timeline.body_us = 0.354;
  r.timeline.cores = 48;
  for (auto [pipe, busy] : std::vector<std::pair<std::string, double>>{{"MTE2", 0.2}, {"V", 0.0133}, {"MTE3", 0.135}}) {
    eval::TimelineLane l;
    l.core = "AIV 1.0 (critical)";
    l.pipe = pipe;
    l.busy_us = busy;
    r.timeline.lanes.push_back(l);
    l.core = "AIV 0.0";
    l.busy_us = busy / 2;
    r.timeline.lanes.push_back(l);
  }
  std::string f = feedback_text(r, "/nonexistent/candidate");
  EXPECT_NE(f.find("correct"), std::string::npos);
  EXPECT_NE(f.find("Ascend910B2"), std::string::npos);
  EXPECT_NE(f.find("odeled"), std::string::npos);
  EXPECT_NE(f.find(fmt::format("{:.2f}x", r.speedup)), std::string::npos) << f;
  EXPECT_NE(f.find("48 cores"), std::string::npos) << f;
  for (const auto& l : r.timeline.lanes) {
    if (l.core.find("critical") == std::string::npos) continue;
    EXPECT_NE(f.find(fmt::format("{} {:.0f}%", l.pipe, 100 * l.busy_us / r.timeline.body_us)), std::string::npos)
        << l.pipe << "\n" << f;
  }
  EXPECT_NE(f.find("launch-bound"), std::string::npos);
}

TEST(FeedbackNoCode, RepeatsTheReason) {
  std::string why = "no fenced code block or <file> tag in the reply (412 characters)";
  std::string f = no_code_feedback(why);
  EXPECT_NE(f.find("no-code"), std::string::npos);
  EXPECT_NE(f.find(why), std::string::npos);
  auto r = result(eval::Verdict::NoCode);
  r.diagnostics = {why};
  EXPECT_NE(feedback_text(r, "").find(why), std::string::npos);
}

// Paths in the feedback are relative to the candidate, and kgen's cache is $KGEN_CACHE: the next prompt, hence the
// reply cache's key, must not depend on the output folder or the machine.
TEST(FeedbackCompile, PathsRelativeToTheCandidateAndTheCache) {
  ScratchDir d;
  write(d.path / "relu.tile", {"kernel relu(x: T[*n]) -> (y: T[*n]):", "    dtype T in (f32)"});
  auto r = result(eval::Verdict::CompileError);
  const std::string cache = eval::cache_dir(eval::EvalOptions{});
  r.diagnostics = {(d.path / "relu.tile").string() + ":2:5: error: something is wrong",
                   cache + "/tile/abc/op_kernel/relu_custom.cpp:9:1: error: and here"};
  const std::string f = feedback_text(r, (d.path / "relu.tile").string());
  EXPECT_NE(f.find("relu.tile:2:5: error: something is wrong"), std::string::npos) << f;
  EXPECT_EQ(f.find(d.path.string()), std::string::npos) << f;
  EXPECT_NE(f.find("$KGEN_CACHE/tile/abc/op_kernel/relu_custom.cpp:9:1"), std::string::npos) << f;
  EXPECT_EQ(f.find(cache + "/"), std::string::npos) << f;
}
