// The HTML report (src/eval/report_html.*): rendered from a results JSON built from EvalResult structs, checked for
// structure, escaping of hostile diagnostics, task ids and anchors, the metrics figures (computed here), the SVG
// charts and the absence of any network reference.
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "eval/metrics.h"
#include "eval/report_html.h"
#include "eval/result.h"
#include "eval/result_json.h"

using namespace kgen::eval;

namespace {

size_t count(const std::string& s, const std::string& sub) {
  size_t n = 0;
  for (size_t p = s.find(sub); p != std::string::npos; p = s.find(sub, p + sub.size())) ++n;
  return n;
}

EvalResult base(const std::string& id, const std::string& cat, int level, Verdict v) {
  EvalResult r;
  r.task_id = id;
  r.category = cat;
  r.level = level;
  r.verdict = v;
  r.candidate = "candidates/" + id;
  r.candidate_kind = "op-project";
  r.kgen_version = "0.test";
  r.soc = "Ascend910B1";
  r.trials = 5;
  return r;
}

struct Fixture {
  std::vector<EvalResult> results;
  nlohmann::json root;
};

Fixture make_fixture(bool with_metrics = true) {
  Fixture f;
  EvalResult ok = base("activation/leaky_relu", "activation", 1, Verdict::Correct);
  CaseResult c1{"default", true, 1e-6, 2e-6, "", 10.0, 25.0, 1e6, 5e5, "HBM"};
  CaseResult c2{"dtype=float16,dim=777", true, 1e-3, 2e-3, "", 5.0, 12.5, 2e6, 4e6, "vector"};
  ok.cases = {c1, c2};
  ok.max_abs_err = 1e-3;
  ok.max_rel_err = 2e-3;
  ok.modeled_us = c1.modeled_us + c2.modeled_us;
  ok.eager_modeled_us = c1.eager_modeled_us + c2.eager_modeled_us;
  ok.speedup = ok.eager_modeled_us / ok.modeled_us;   // 2.5
  ok.timeline = {"leaky_relu_custom", "default", "HBM", 8.0, 40,
                 {{"AIV 0.0 (critical)", "MTE2", 3.0, {0.0, 2.0, 4.0, 5.0}}, {"AIV 0.0 (critical)", "V", 1.0, {2.0, 3.0}},
                  {"AIV 0.0 (critical)", "S", 0.0, {}}}};

  EvalResult wrong = base("reduce/sum_dim", "reduce", 1, Verdict::WrongAnswer);
  wrong.diagnostics = {"mismatch <script>alert('x')</script> & more", "a < b && c > d"};
  CaseResult w1{"default", false, 3.5, 0.75, "output 0 index [3, 17]: got 1.5, want <2> & 1.25", 8.0, 4.0};
  wrong.cases = {w1};
  wrong.max_abs_err = 3.5;
  wrong.max_rel_err = 0.75;

  EvalResult ce = base("fuse/gemm_bias_gelu", "fuse", 2, Verdict::CompileError);
  ce.diagnostics = {"op_kernel/k.cpp:12: error: no member named 'Foo' in namespace 'AscendC' <bad>"};

  f.results = {ok, wrong, ce};
  nlohmann::json rs = nlohmann::json::array();
  for (const auto& r : f.results) rs.push_back(to_json(r));
  f.root = {{"kgen_version", "0.test"},
            {"soc", "Ascend910B1"},
            {"suite", "tasks"},
            {"candidates", "candidates"},
            {"created_at", "2025-01-02T03:04:05Z"},
            {"results", rs},
            {"missing", {"math/never_ran"}},
            {"roofline", {{"hbm_gbps", 1600.0}, {"vector_fp32_gflops", 2500.0}, {"cube_fp16_gflops", 300000.0}}},
            {"sources",
             {{"activation/leaky_relu",
               {{"task", "class Model(nn.Module):\n    def forward(self, x): return x if x > 0 else x * 0.01 # <&>"},
                {"candidate", {{"op_kernel/leaky_relu.cpp", "#include \"kernel_operator.h\"\n// a < b & c\n"}}}}}}}};
  if (with_metrics) f.root["metrics"] = to_json(compute_metrics(f.results));
  return f;
}

}  // namespace

TEST(EvalReport, StructureEscapingAndContent) {
  Fixture f = make_fixture();
  const std::string html = render_report_html(f.root);

  // Well-formed enough: one document, balanced top-level elements, balanced sections and SVGs.
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<html"), 1u);
  EXPECT_EQ(count(html, "</html>"), 1u);
  EXPECT_EQ(count(html, "<body>"), 1u);
  EXPECT_EQ(count(html, "</body>"), 1u);
  EXPECT_EQ(count(html, "<head>"), 1u);
  EXPECT_EQ(count(html, "</head>"), 1u);
  EXPECT_EQ(count(html, "<section"), count(html, "</section>"));
  EXPECT_EQ(count(html, "<table"), count(html, "</table>"));
  EXPECT_EQ(count(html, "<pre"), count(html, "</pre>"));
  EXPECT_EQ(count(html, "<details>"), count(html, "</details>"));
  EXPECT_LT(html.find("</head>"), html.find("<body>"));

  // The data's <script> is escaped; the only script element is the report's own sorter.
  EXPECT_EQ(count(html, "<script"), 1u);
  EXPECT_EQ(html.find("alert('x')</script>"), std::string::npos);
  EXPECT_NE(html.find("mismatch &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"), std::string::npos);
  EXPECT_NE(html.find("a &lt; b &amp;&amp; c &gt; d"), std::string::npos);
  EXPECT_NE(html.find("want &lt;2&gt; &amp; 1.25"), std::string::npos);
  EXPECT_NE(html.find("&lt;bad&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<bad>"), std::string::npos);
  EXPECT_EQ(html.find("<2>"), std::string::npos);
  // Sources are there, escaped, collapsed.
  EXPECT_NE(html.find("#include &quot;kernel_operator.h&quot;"), std::string::npos);
  EXPECT_NE(html.find("op_kernel/leaky_relu.cpp"), std::string::npos);
  EXPECT_NE(html.find("# &lt;&amp;&gt;"), std::string::npos);

  // Each task id, its anchor, and a link to it; the missing task too.
  for (const std::string id : {"activation/leaky_relu", "reduce/sum_dim", "fuse/gemm_bias_gelu", "math/never_ran"}) {
    EXPECT_NE(html.find(">" + id + "<"), std::string::npos) << id;
    std::string anchor = "t-";
    for (char c : id) anchor += c == '/' ? '-' : c;
    EXPECT_NE(html.find("id=\"" + anchor + "\""), std::string::npos) << anchor;
    EXPECT_NE(html.find("href=\"#" + anchor + "\""), std::string::npos) << anchor;
  }
  for (const char* v : {"correct", "wrong-answer", "compile-error", "missing"})
    EXPECT_NE(html.find(std::string(">") + v + "</span>"), std::string::npos) << v;

  // The metrics, computed independently: 3 evaluated tasks, 1 sample each; compile 2/3 (compile-error does not
  // compile), pass 1/3, fast_p 1/3 for p < 2.5 (speedup 2.5 > every p here), geomean 2.5.
  const double speedup = (25.0 + 12.5) / (10.0 + 5.0);
  EXPECT_NE(html.find(fmt::format("{:.1f}%", 100.0 * 2 / 3)), std::string::npos);   // 66.7%
  EXPECT_NE(html.find(fmt::format("{:.1f}%", 100.0 * 1 / 3)), std::string::npos);   // 33.3%
  EXPECT_NE(html.find(fmt::format("{:.2f}x", speedup)), std::string::npos);          // 2.50x
  for (const char* k : {"compile@1", "pass@1", "fast_0@1", "fast_0.5@1", "fast_0.8@1", "fast_1@1", "fast_1.5@1",
                        "fast_2@1"})
    EXPECT_NE(html.find(std::string(">") + k + "<"), std::string::npos) << k;
  // Per-level and per-category rows.
  for (const char* g : {"level 1", "level 2", "activation", "reduce", "fuse"})
    EXPECT_NE(html.find(std::string("<td>") + g + "</td>"), std::string::npos) << g;
  // Per-case table of the wrong answer and the modeled times of the correct one's cases.
  EXPECT_NE(html.find("dtype=float16,dim=777"), std::string::npos);
  EXPECT_NE(html.find("<td>3.5</td>"), std::string::npos);

  // Header.
  EXPECT_NE(html.find("0.test"), std::string::npos);
  EXPECT_NE(html.find("modeled on Ascend910B1"), std::string::npos);
  EXPECT_NE(html.find("2025-01-02T03:04:05Z"), std::string::npos);

  // Charts: bar chart, histogram, scatter (with the y = x line), per-case chart.
  EXPECT_GE(count(html, "<svg"), 4u);
  EXPECT_EQ(count(html, "<svg"), count(html, "</svg>"));
  EXPECT_NE(html.find("<title>pass rate per category</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>speedup histogram</title>"), std::string::npos);
  EXPECT_NE(html.find("y = x"), std::string::npos);
  EXPECT_NE(html.find("<circle"), std::string::npos);
  // Two time-scatter points (the two correct cases; the wrong answer's modeled time is not the task's work) and two
  // roofline points (the cases with modeled bytes and flops): 0.5 FLOP/B at 1e6 flops / 10 us = 50 GFLOP/s, and
  // 2 FLOP/B at 800 GFLOP/s; and the scatter's legend swatch.
  EXPECT_EQ(count(html, "<circle"), 5u);
  EXPECT_NE(html.find("above the line: the candidate is faster"), std::string::npos);
  EXPECT_EQ(html.find("reduce/sum_dim [default] (wrong-answer): candidate"), std::string::npos);
  // The tolerance-normalised error column; the missing tasks on one line, not a row each.
  EXPECT_NE(html.find(">err / tol</th>"), std::string::npos);
  EXPECT_NE(html.find("1 task without a candidate (not evaluated, not in the metrics): <a href=\"#t-math-never_ran\">"),
            std::string::npos);
  EXPECT_NE(html.find("<title>roofline (modeled)</title>"), std::string::npos);
  EXPECT_NE(html.find("activation/leaky_relu [default] (correct): 0.5 FLOP/B, 50 GFLOP/s, 10 us, HBM-bound"),
            std::string::npos);
  EXPECT_NE(html.find("2 FLOP/B, 800 GFLOP/s"), std::string::npos);
  EXPECT_NE(html.find("HBM 1600 GB/s"), std::string::npos);
  EXPECT_NE(html.find("cube fp16 300000 GFLOP/s"), std::string::npos);
  // The timeline of the correct result: two lanes, three spans; MTE2 busy 3 of 8 us.
  EXPECT_NE(html.find("<title>modeled timeline of leaky_relu_custom</title>"), std::string::npos);
  EXPECT_NE(html.find("AIV 0.0 (critical) MTE2: busy 3 us of 8 us (modeled)"), std::string::npos);
  // A pipe with no modeled work gets no row; the pipes drawn get a legend swatch each.
  EXPECT_EQ(html.find("AIV 0.0 (critical) S: busy"), std::string::npos);
  EXPECT_NE(html.find("pipes with no modeled work not drawn"), std::string::npos);
  EXPECT_NE(html.find("class=\"small\">MTE2</text>"), std::string::npos);
  EXPECT_NE(html.find("class=\"small\">V</text>"), std::string::npos);

  // Self-contained: no network reference, no external resources.
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

TEST(EvalReport, ToleratesAbsentKeys) {
  // No metrics (computed from the results), no sources, no missing, no header fields.
  Fixture f = make_fixture(false);
  f.root.erase("sources");
  f.root.erase("missing");
  f.root.erase("created_at");
  f.root.erase("suite");
  const std::string html = render_report_html(f.root);
  EXPECT_NE(html.find(fmt::format("{:.1f}%", 100.0 * 1 / 3)), std::string::npos);
  EXPECT_NE(html.find("reduce/sum_dim"), std::string::npos);
  EXPECT_EQ(count(html, "</html>"), 1u);

  // Nothing at all, and a broken result entry.
  const std::string empty = render_report_html(nlohmann::json::object());
  EXPECT_EQ(count(empty, "</html>"), 1u);
  EXPECT_NE(empty.find("No correct result"), std::string::npos);
  nlohmann::json bad = {{"results", {{{"task_id", "x/y"}}}}};   // no verdict
  const std::string b = render_report_html(bad);
  EXPECT_NE(b.find("result #0 left out"), std::string::npos);
  EXPECT_EQ(count(render_report_html(nlohmann::json::array()), "</html>"), 1u);
}

TEST(EvalReport, FileRoundTrip) {
  Fixture f = make_fixture();
  const std::string dir = ::testing::TempDir();
  const std::string in = dir + "/kgen_report_results.json", out = dir + "/kgen_report.html";
  {
    std::FILE* fp = std::fopen(in.c_str(), "wb");
    ASSERT_NE(fp, nullptr);
    const std::string s = f.root.dump(2);
    std::fwrite(s.data(), 1, s.size(), fp);
    std::fclose(fp);
  }
  std::string err;
  ASSERT_TRUE(render_report_html_file(in, out, err)) << err;
  std::FILE* fp = std::fopen(out.c_str(), "rb");
  ASSERT_NE(fp, nullptr);
  std::string html;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, fp)) > 0;) html.append(buf, n);
  std::fclose(fp);
  EXPECT_EQ(html, render_report_html(f.root));
  EXPECT_FALSE(render_report_html_file(dir + "/does-not-exist.json", out, err));
  EXPECT_FALSE(err.empty());
}
