// A tile program's reasoning at one shape (explain_run.h).
#include "eval/explain_run.h"

#include <filesystem>
#include <fmt/core.h>
#include <regex>

#include <nlohmann/json.hpp>

#include "eval/evaluate.h"
#include "op/project.h"
#include "perf/profile.h"
#include "sandbox/process.h"
#include "tile/explain.h"

namespace kgen::eval {
namespace fs = std::filesystem;

namespace {
bool compile(const std::string& file, const std::string& soc, tile::CompileResult& r, std::string& plan,
             std::string& err) {
  const std::string src = op::read_text(file);
  tile::Diags d(file, &src);
  tile::CompileOptions co;
  co.soc = soc;
  co.dump = [&](const std::string& pass, const std::string& ir) {
    if (pass != "emit" && pass != "parse") plan = ir;   // the IR after the last lowering pass
  };
  r = tile::compile_program(file, src, co, d);
  if (!r.ok) err = d.render(false);
  return r.ok;
}
}  // namespace

std::vector<std::string> perf_input_shapes(const std::string& file, const std::string& perf_inputs, std::string& err) {
  tile::CompileResult r;
  std::string plan;
  if (!compile(file, "Ascend910B2", r, plan, err)) return {};
  std::vector<std::string> names;
  for (const auto& t : r.kernel.tensors)
    if (!t.output) names.push_back(t.name);
  static const std::regex one(R"((\w+)\[([0-9,]*)\])");
  std::vector<std::string> out;
  size_t i = 0;
  for (std::sregex_iterator it(perf_inputs.begin(), perf_inputs.end(), one), end; it != end; ++it, ++i) {
    if (i >= names.size()) break;
    out.push_back(names[i] + "=" + (*it)[1].str() + ":" + (*it)[2].str());
  }
  if (i != names.size() || out.size() != names.size()) {
    err = fmt::format("the perf shape's inputs '{}' do not match the program's {} input(s)", perf_inputs, names.size());
    return {};
  }
  return out;
}

bool explain_program(const std::string& file, const std::string& soc, const std::vector<std::string>& input_shapes,
                     Explained& out, std::string& err) {
  tile::CompileResult r;
  tile::ExplainFacts f;
  if (!compile(file, soc, r, f.plan, err)) return false;
  EvalOptions eo;
  eo.candidate = file;
  eo.soc = soc;
  std::string project;
  std::vector<std::string> diags;
  if (!compile_tile_project(eo, project, diags)) {
    err = diags.empty() ? "the program did not compile" : diags.front();
    return false;
  }
  std::error_code ec;
  std::vector<std::string> argv = {fs::read_symlink("/proc/self/exe", ec).string(), "op", "run", project,
                                   "--tiling-only", "--json", "--soc", soc};
  for (const auto& s : input_shapes) {
    argv.insert(argv.end(), {"--input-shape", s});
    out.shape += (out.shape.empty() ? "" : " ") + s;
  }
  const sandbox::Result run = sandbox::run(argv, 600);
  // The JSON summary is the last thing printed, from a line that is "{" on its own.
  const size_t at = run.out.rfind("\n{\n");
  nlohmann::json j = nlohmann::json::parse(at == std::string::npos ? run.out : run.out.substr(at + 1), nullptr, false);
  if (run.status != 0 || !j.is_object() || !j.value("ok", false)) {
    err = fmt::format("the tiling at {} failed: {}", out.shape, run.out.substr(0, at == std::string::npos ? 2000 : at));
    return false;
  }
  const perf::Profile p = perf::load_profile(soc);
  f.soc = soc;
  f.ub_bytes = p.ub_bytes;
  f.l1_bytes = p.l1_bytes, f.l0a_bytes = p.l0a_bytes, f.l0b_bytes = p.l0b_bytes, f.l0c_bytes = p.l0c_bytes;
  f.aiv_cores = static_cast<uint32_t>(p.aiv_cores);
  f.aic_cores = static_cast<uint32_t>(p.aic_cores);
  f.shape = out.shape;
  f.block_dim = j.value("block_dim", 0u);
  for (const auto& x : j.value("tiling", nlohmann::json::array()))
    f.tiling.push_back({x.value("name", ""), x.value("type", ""), x.value("value", ""), x.value("comment", "")});
  out.reasoning = tile::explain(r, f);
  out.files = r.files;
  return true;
}
}  // namespace kgen::eval
