// Prompts (prompt.h): template filling and its errors, the choice of expert examples on the real kernels/ and
// candidates/ folders, and the messages of a first and a repair round built from the real prompts/ templates.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include "scratch_dir.h"
#include "gen/compact_reference.h"
#include "gen/prompt.h"

namespace fs = std::filesystem;
using namespace kgen::gen;

namespace {

const fs::path kSrc = KGEN_SOURCE_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

TaskInfo task(const std::string& id) {
  TaskInfo t;
  t.id = id;
  t.category = id.substr(0, id.find('/'));
  t.path = (kSrc / "tasks" / (id + ".py")).string();
  return t;
}

std::vector<std::string> words(const std::string& name) {
  std::vector<std::string> w;
  std::stringstream s(name);
  for (std::string x; std::getline(s, x, '_');)
    if (!x.empty()) w.push_back(x);
  return w;
}

int common(const std::string& a, const std::string& b) {
  auto wa = words(a), wb = words(b);
  std::set<std::string> sa(wa.begin(), wa.end()), sb(wb.begin(), wb.end());
  int n = 0;
  for (const auto& w : sa) n += sb.count(w) ? 1 : 0;
  return n;
}

std::string name_of(const std::string& id) { return id.substr(id.find('/') + 1); }
std::string cat_of(const std::string& id) { return id.substr(0, id.find('/')); }

// Every example id available for a target, computed from the folders as the header describes them.
std::set<std::string> available(Target t) {
  std::set<std::string> ids;
  fs::path root = kSrc / (t == Target::Tile ? "kernels" : "candidates");
  for (const auto& c : fs::directory_iterator(root)) {
    if (!c.is_directory()) continue;
    for (const auto& e : fs::directory_iterator(c.path())) {
      std::string id = c.path().filename().string() + "/" +
                       (t == Target::Tile ? e.path().stem().string() : e.path().filename().string());
      if (t == Target::Tile && e.path().extension() != ".tile") continue;
      if (t == Target::AscendC && !fs::is_directory(e.path() / "op_kernel")) continue;
      if (fs::exists(kSrc / "tasks" / (id + ".py"))) ids.insert(id);
    }
  }
  return ids;
}

// The ordering key of the header: same category first, then more name words in common.
std::pair<int, int> rank(const TaskInfo& t, const std::string& id) {
  return {cat_of(id) == t.category ? 0 : 1, -common(name_of(t.id), name_of(id))};
}

void expect_nearest(const TaskInfo& t, Target target, int n) {
  PromptOptions o;
  o.target = target;
  o.examples = n;
  auto got = choose_examples(t, o);
  auto all = available(target);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(got.size(), std::min<size_t>(n, all.size() - all.count(t.id)));
  std::set<std::string> chosen(got.begin(), got.end());
  EXPECT_EQ(chosen.size(), got.size()) << "an example chosen twice";
  EXPECT_FALSE(chosen.count(t.id)) << "the task's own solution is never an example";
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(all.count(got[i])) << got[i];
    if (i > 0) {
      EXPECT_LE(rank(t, got[i - 1]), rank(t, got[i])) << got[i - 1] << " before " << got[i];
    }
  }
  // no example left out is nearer than one chosen
  if (got.empty()) return;
  for (const auto& id : all) {
    if (!chosen.count(id) && id != t.id) {
      EXPECT_GE(rank(t, id), rank(t, got.back())) << id;
    }
  }
}

bool has_unfilled(const std::string& s) {
  static const std::regex re(R"(\{\{\s*[a-z_]+\s*\}\})");
  return std::regex_search(s, re);
}

}  // namespace

TEST(PromptTemplate, FillsVariablesAndKeepsValuesVerbatim) {
  std::string out, err;
  std::map<std::string, std::string> v = {{"a", "x{{b}}y"}, {"b", "B"}};
  ASSERT_TRUE(fill_template("[{{a}}] [{{ b }}]\n{{b}}", "t.md", v, out, err)) << err;
  EXPECT_EQ(out, "[x{{b}}y] [B]\nB");   // a value's "{{" is not a placeholder
  ASSERT_TRUE(fill_template("no placeholders { } }}", "t.md", v, out, err)) << err;
  EXPECT_EQ(out, "no placeholders { } }}");
}

TEST(PromptTemplate, UnknownPlaceholderNamesFileLineColumn) {
  std::string out, err;
  std::map<std::string, std::string> v = {{"feedback", "f"}, {"previous", "p"}};
  EXPECT_FALSE(fill_template("line one\nabc {{feedbak}}\n", "prompts/repair.md", v, out, err));
  EXPECT_NE(err.find("prompts/repair.md:2:5:"), std::string::npos) << err;
  EXPECT_NE(err.find("{{feedbak}}"), std::string::npos) << err;
  EXPECT_NE(err.find("feedback, previous"), std::string::npos) << err;
}

TEST(PromptTemplate, UnclosedBracesAreAnError) {
  std::string out, err;
  std::map<std::string, std::string> v = {{"a", "1"}};
  EXPECT_FALSE(fill_template("ok {{a}}\n  {{a\n}}", "x.md", v, out, err));
  EXPECT_NE(err.find("x.md:2:3:"), std::string::npos) << err;
  EXPECT_NE(err.find("unclosed"), std::string::npos) << err;
  EXPECT_FALSE(fill_template("{{a", "x.md", v, out, err));
  EXPECT_NE(err.find("x.md:1:1:"), std::string::npos) << err;
}

TEST(PromptTarget, NamesRoundTrip) {
  for (Target t : {Target::Tile, Target::AscendC}) {
    Target back;
    ASSERT_TRUE(parse_target(target_name(t), back));
    EXPECT_EQ(back, t);
  }
  Target t;
  EXPECT_FALSE(parse_target("cuda", t));
}

TEST(PromptExamples, TileNearestFirstOwnExcluded) {
  expect_nearest(task("activation/gelu_tanh"), Target::Tile, 2);
  expect_nearest(task("activation/relu"), Target::Tile, 5);
  expect_nearest(task("loss/mse_loss"), Target::Tile, 3);
  expect_nearest(task("matmul/matmul"), Target::Tile, 2);   // a category without programs: other categories
  // gelu_tanh shares a word with gelu: among the same category it comes first
  PromptOptions o;
  auto got = choose_examples(task("activation/gelu_tanh"), o);
  ASSERT_FALSE(got.empty());
  EXPECT_GE(common("gelu_tanh", name_of(got[0])), 1) << got[0];
}

TEST(PromptExamples, AscendcNearestFirstOwnExcluded) {
  expect_nearest(task("activation/relu"), Target::AscendC, 2);
  expect_nearest(task("reduce/sum_reduction"), Target::AscendC, 4);
  expect_nearest(task("fuse/bias_gelu"), Target::AscendC, 3);
}

TEST(PromptExamples, CountLimits) {
  PromptOptions o;
  o.examples = 0;
  EXPECT_TRUE(choose_examples(task("activation/relu"), o).empty());
  o.examples = 1000;
  auto all = available(Target::Tile);
  EXPECT_EQ(choose_examples(task("activation/relu"), o).size(), all.size() - all.count("activation/relu"));
}

TEST(PromptMessages, TileFirstRound) {
  PromptOptions o;
  TaskInfo t = task("activation/leaky_relu");
  std::vector<ChatMessage> m;
  std::string err;
  ASSERT_TRUE(initial_messages(t, o, m, err)) << err;
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].role, "system");
  EXPECT_EQ(m[1].role, "user");
  std::string all = m[0].content + m[1].content;
  EXPECT_FALSE(has_unfilled(all));
  // the language reference and the SoC's facts
  std::string lang = slurp(kSrc / "docs" / "tile-language.md");
  EXPECT_NE(all.find(lang.substr(0, 200)), std::string::npos);
  EXPECT_NE(m[0].content.find(o.soc), std::string::npos);
  EXPECT_NE(m[0].content.find("modeled"), std::string::npos);
  // the task's source, verbatim
  std::string src = slurp(t.path);
  while (!src.empty() && src.back() == '\n') src.pop_back();
  EXPECT_NE(m[1].content.find(src), std::string::npos);
  // each chosen example: its task source and its program
  for (const auto& id : choose_examples(t, o)) {
    EXPECT_NE(m[1].content.find("### Example: " + id), std::string::npos) << id;
    std::string prog = slurp(kSrc / "kernels" / (id + ".tile"));
    while (!prog.empty() && prog.back() == '\n') prog.pop_back();
    EXPECT_NE(m[1].content.find("```tile\n" + prog + "\n```"), std::string::npos) << id;
    std::string ex_src = slurp(kSrc / "tasks" / (id + ".py"));
    EXPECT_NE(m[1].content.find(ex_src.substr(0, 60)), std::string::npos) << id;
  }
  EXPECT_EQ(m[1].content.find("### Example: " + t.id + "\n"), std::string::npos);
  EXPECT_NE(m[1].content.find("```tile"), std::string::npos);   // the reply format
}

TEST(PromptMessages, AscendcFirstRound) {
  PromptOptions o;
  o.target = Target::AscendC;
  TaskInfo t = task("activation/hardtanh");
  std::vector<ChatMessage> m;
  std::string err;
  ASSERT_TRUE(initial_messages(t, o, m, err)) << err;
  ASSERT_EQ(m.size(), 2u);
  std::string all = m[0].content + m[1].content;
  EXPECT_FALSE(has_unfilled(all));
  std::string api = slurp(kSrc / "prompts" / "ascendc_api.md");
  EXPECT_NE(m[0].content.find(api.substr(0, 200)), std::string::npos);
  EXPECT_NE(m[1].content.find("HardtanhCustom"), std::string::npos);    // op type
  EXPECT_NE(m[1].content.find("hardtanh_custom"), std::string::npos);   // kernel name
  auto ids = choose_examples(t, o);
  ASSERT_FALSE(ids.empty());
  for (const auto& id : ids) {
    EXPECT_NE(m[1].content.find("### Example: " + id), std::string::npos) << id;
    // its three files, each fenced with its path
    int fences = 0;
    for (const auto& e : fs::recursive_directory_iterator(kSrc / "candidates" / id)) {
      if (e.path().extension() != ".cpp" && e.path().extension() != ".h") continue;
      std::string dir = e.path().parent_path().filename().string();
      std::string info = "```cpp " + dir + "/" + e.path().filename().string() + "\n";
      EXPECT_NE(m[1].content.find(info), std::string::npos) << info;
      std::string text = slurp(e.path());
      EXPECT_NE(m[1].content.find(text.substr(0, 300)), std::string::npos) << e.path();
      ++fences;
    }
    EXPECT_EQ(fences, 3) << id;
  }
}

TEST(PromptMessages, RepairRoundCarriesFeedbackAndPreviousCode) {
  PromptOptions o;
  TaskInfo t = task("activation/relu");
  std::string reply = "<think>long reasoning</think>\nHere it is:\n```tile\nkernel relu(x: T[*n]) -> (y: T[*n]):\n```";
  std::string code = "// FILE: relu.tile\nkernel relu(x: T[*n]) -> (y: T[*n]):\n    oops\n";
  std::string feedback = "Verdict: compile-error. relu.tile:3:5: error: unknown statement 'oops'";
  std::vector<ChatMessage> first, m;
  std::string err;
  ASSERT_TRUE(initial_messages(t, o, first, err)) << err;
  ASSERT_TRUE(repair_messages(t, o, reply, code, feedback, m, err)) << err;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].content, first[0].content);
  EXPECT_EQ(m[1].content, first[1].content);
  EXPECT_EQ(m[2].role, "assistant");
  EXPECT_EQ(m[2].content.find("long reasoning"), std::string::npos);   // reasoning is not carried
  EXPECT_NE(m[2].content.find("```tile"), std::string::npos);
  EXPECT_EQ(m[3].role, "user");
  EXPECT_NE(m[3].content.find(feedback), std::string::npos);
  EXPECT_NE(m[3].content.find("    oops"), std::string::npos);
  EXPECT_FALSE(has_unfilled(m[3].content));
}

TEST(PromptMessages, TemplateErrorsNameTheFile) {
  ScratchDir d;
  for (const auto& e : fs::directory_iterator(kSrc / "prompts")) fs::copy(e.path(), d.path / e.path().filename());
  {
    std::ofstream f(d.path / "repair.md");
    f << "Feedback:\n\n  {{feedbak}}\n";
  }
  PromptOptions o;
  o.prompts_dir = d.path.string();
  std::vector<ChatMessage> m;
  std::string err;
  ASSERT_TRUE(initial_messages(task("activation/relu"), o, m, err)) << err;
  EXPECT_FALSE(repair_messages(task("activation/relu"), o, "r", "c", "f", m, err));
  EXPECT_NE(err.find((d.path / "repair.md").string() + ":3:3:"), std::string::npos) << err;
  fs::remove(d.path / "task_tile.md");
  EXPECT_FALSE(initial_messages(task("activation/relu"), o, m, err));
  EXPECT_NE(err.find("task_tile.md"), std::string::npos) << err;
}

TEST(PromptMessages, UnknownSocOrTaskIsAnError) {
  PromptOptions o;
  o.soc = "Ascend999X";
  std::vector<ChatMessage> m;
  std::string err;
  EXPECT_FALSE(initial_messages(task("activation/relu"), o, m, err));
  EXPECT_NE(err.find("Ascend999X"), std::string::npos) << err;
  PromptOptions o2;
  TaskInfo t = task("activation/relu");
  t.path = "/nonexistent/relu.py";
  EXPECT_FALSE(initial_messages(t, o2, m, err));
  EXPECT_NE(err.find("/nonexistent/relu.py"), std::string::npos) << err;
}

// A model with a small context gets the compact summary of the language (gen/compact_reference.h), within 40 % of its
// context, and fewer examples when the prompt would pass 70 %; a large or unknown context gets the whole reference.
TEST(PromptMessages, SmallContextGetsTheCompactReference) {
  const std::string lang = slurp(kSrc / "docs" / "tile-language.md");
  TaskInfo t = task("activation/leaky_relu");
  std::vector<ChatMessage> full, small, tiny;
  std::string err;
  PromptOptions o;
  ASSERT_TRUE(initial_messages(t, o, full, err)) << err;
  o.context_tokens = 16384;
  ASSERT_TRUE(initial_messages(t, o, small, err)) << err;
  o.context_tokens = 2048;
  ASSERT_TRUE(initial_messages(t, o, tiny, err)) << err;
  const std::string full_all = full[0].content + full[1].content, small_all = small[0].content + small[1].content;
  EXPECT_NE(full_all.find(lang.substr(lang.size() / 2, 300)), std::string::npos);   // all of it
  EXPECT_NE(small_all.find("A summary of docs/tile-language.md"), std::string::npos);
  EXPECT_LE(estimate_tokens(small_all), static_cast<size_t>(0.75 * 16384)) << estimate_tokens(small_all);
  EXPECT_LT(small_all.size(), full_all.size() / 2);
  // every program form's heading is still named, and the function table is whole
  std::istringstream in(lang);
  for (std::string l; std::getline(in, l);)
    if (l.rfind("### ", 0) == 0 && l.find("Functions") == std::string::npos && l.rfind("### Fused", 0) != 0)
      EXPECT_NE(small_all.find(l), std::string::npos) << l;
  for (const char* fn : {"`gelu_tanh`", "`logcumsumexp(", "`where(mask, a, b)`", "`cast(v, dtype)`"})
    EXPECT_NE(small_all.find(fn), std::string::npos) << fn;
  // a 2k context: less detail, and one example (two would pass 70 % of it)
  EXPECT_LT(tiny[0].content.size() + tiny[1].content.size(), small_all.size());
  EXPECT_EQ(choose_examples(t, PromptOptions{}).size(), 2u);
  size_t shown = 0;
  for (size_t p = tiny[1].content.find("### Example: "); p != std::string::npos;
       p = tiny[1].content.find("### Example: ", p + 1))
    ++shown;
  EXPECT_EQ(shown, 1u);
}

TEST(CompactReference, DeterministicAndWithinItsBudget) {
  const std::string lang = slurp(kSrc / "docs" / "tile-language.md");
  for (size_t budget : {30000u, 12000u, 6000u, 2000u}) {
    const std::string a = compact_tile_reference(lang, budget), b = compact_tile_reference(lang, budget);
    EXPECT_EQ(a, b);
    EXPECT_LE(a.size(), budget);
    EXPECT_NE(a.find("kernel softmax(x: T[*m, n])"), std::string::npos) << budget;   // the introduction's example
  }
  EXPECT_EQ(compact_tile_reference(lang, 30000).find("## Lowering"), std::string::npos);   // internals left out
}

// An NPUKernelBench task folder (kgen's own, tests/data/npukb): the task's description, reference, binding, cases and
// skeleton, the op named as the benchmark names it; the tile target is refused with the reason.
TEST(PromptMessages, NpukbFolderFirstRound) {
  PromptOptions o;
  o.target = Target::AscendC;
  TaskInfo t;
  t.id = "Math/ScaleCustom";
  t.category = "Math";
  t.path = (kSrc / "tests/data/npukb/tasks/level1/Math/ScaleCustom").string();
  std::vector<ChatMessage> m;
  std::string err;
  ASSERT_TRUE(initial_messages(t, o, m, err)) << err;
  ASSERT_EQ(m.size(), 2u);
  const std::string& u = m[1].content;
  EXPECT_FALSE(has_unfilled(m[0].content + u));
  for (const char* f : {"api_desc.md", "validation/module.py", "validation/pybind.cpp", "validation/prepare_inputs.py",
                        "validation/test_cases.csv"}) {
    std::string text = slurp(fs::path(t.path) / f);
    EXPECT_NE(u.find(text.substr(0, 120)), std::string::npos) << f;
  }
  EXPECT_NE(u.find("```cpp op_host/scale_custom.cpp\n"), std::string::npos);     // the skeleton, by path
  EXPECT_NE(u.find("```cpp op_kernel/scale_custom.cpp\n"), std::string::npos);
  EXPECT_NE(u.find("OP_ADD(ScaleCustom)"), std::string::npos);                    // op type: the folder's name
  EXPECT_NE(u.find("op_kernel/scale_custom.cpp` with the entry point"), std::string::npos);
  EXPECT_NE(u.find("```cpp op_host/scale_custom_tiling.h"), std::string::npos);   // the reply format's names
  EXPECT_EQ(u.find("ScaleCustomCustom"), std::string::npos);

  o.target = Target::Tile;
  EXPECT_FALSE(initial_messages(t, o, m, err));
  EXPECT_NE(err.find("generate it with --target ascendc"), std::string::npos) << err;
}
