// `kgen op run PROJECT --input x=x.npy ... --out DIR`: runs an op project (CANN op_host + op_kernel) on the
// emulator. Its libraries are built first, each compile in a sandbox (op/prebuild.h); then kgen-oprun (src/op)
// loads and runs them inside the sandbox (src/sandbox) with limits: wall timeout, CPU time, address space, file
// size. The outputs come back on the sandbox's channel and are written to --out here. Exit status: 0 ok, 3 the op
// or kernel is wrong (error[CATEGORY] FILE:LINE: ...), 2 usage, 1 internal. --json prints one JSON object on
// stdout instead (the run's text goes to stderr).
#include <utility>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/op_cmd.h"
#include <chrono>
#include <fmt/core.h>
#include <fmt/ranges.h>

#include "cli/sandbox_flags.h"
#include "op/build.h"
#include "op/npy.h"
#include "op/prebuild.h"
#include "op/project.h"
#include "op/tiling_fields.h"
#include "perf/ktrace_io.h"
#include "perf/model.h"
#include "perf/profile.h"
#include "perf/trace_diff.h"
#include "sandbox/paths.h"
#include "sandbox/sandbox.h"

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct OpRunOptions {
  std::string project, out, soc = "Ascend910B2", op;
  std::vector<std::string> inputs, positional, attrs, output_shapes, input_shapes;
  bool timing_only = false, timing_check = false, tiling_only = false;
  double timeout = 600;
  double memory_mb = 16384;
  double file_mb = 4096;
  bool json = false;
};

std::string oprun_path() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ((ec ? fs::path(".") : exe.parent_path()) / "kgen-oprun").string();
}

nlohmann::json errors_of(const std::string& out) {
  nlohmann::json errs = nlohmann::json::array();
  std::regex re(R"((?:^|\n)error\[([\w-]+)\](?: ([^\s:]+):(\d+)?:?)? ([^\n]*))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator(); ++it) {
    nlohmann::json e;
    e["category"] = (*it)[1].str();
    e["file"] = (*it)[2].str();
    e["line"] = (*it)[3].matched ? std::stoi((*it)[3].str()) : 0;
    e["message"] = (*it)[4].str();
    errs.push_back(e);
  }
  return errs;
}

// A name the child gave an output, usable as a file name in --out (else "output<k>").
std::string output_file_name(const nlohmann::json& summary, size_t k) {
  std::string n;
  if (summary.contains("outputs") && summary["outputs"].is_array() && k < summary["outputs"].size() &&
      summary["outputs"][k].contains("name") && summary["outputs"][k]["name"].is_string())
    n = summary["outputs"][k]["name"].get<std::string>();
  // "y[2]", the third tensor of DYNAMIC output y, is written as y.2.npy
  if (size_t b = n.find('['); b != std::string::npos && n.back() == ']') n = n.substr(0, b) + "." + n.substr(b + 1, n.size() - b - 2);
  bool ok = !n.empty() && n.size() <= 64 && n[0] != '.';
  for (char c : n) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.');
  return ok ? n : "output" + std::to_string(k);
}

int run_op(const OpRunOptions& o) {
  if (int rc = require_sandbox("kgen op run")) return rc;
  if (o.out.empty() && !o.timing_only && !o.tiling_only) {
    std::cerr << "kgen op run: --out DIR is required (where the outputs are written); only --timing-only and "
                 "--tiling-only runs write none\n";
    return 2;
  }
  if (!fs::exists(oprun_path())) {
    std::cerr << "kgen op run: " << oprun_path() << " is missing (build the kgen-oprun target)\n";
    return 1;
  }
  auto t0 = std::chrono::steady_clock::now();
  op::Project p;
  if (std::string e = op::find_project(o.project, p); !e.empty()) {
    std::cerr << "error[compile] " << o.project << ": " << e << "\n";
    if (o.json)
      std::cout << nlohmann::json{{"ok", false}, {"exit", 3}, {"errors", errors_of("error[compile] " + o.project + ": " + e)}}.dump(2)
                << "\n";
    return 3;
  }
  // Inputs: NAME=FILE or positional FILE, read here for their dtypes (the kernel build is predicted from them).
  std::vector<std::pair<std::string, std::string>> inputs;
  for (auto& i : o.positional) inputs.emplace_back("", i);
  for (auto& i : o.inputs) {
    size_t eq = i.find('=');
    inputs.emplace_back(eq == std::string::npos ? "" : i.substr(0, eq), eq == std::string::npos ? i : i.substr(eq + 1));
  }
  // A DYNAMIC input's tensor list is FILE,FILE,... (a name with a comma that is itself a file stays one file).
  std::vector<std::vector<std::string>> files;
  std::vector<int> dtypes;
  for (auto& [n, f] : inputs) {
    files.emplace_back();
    std::error_code ec;
    if (f.find(',') == std::string::npos || fs::exists(f, ec)) {
      files.back().push_back(f);
    } else {
      std::string cur;
      for (char ch : f + ",")
        if (ch != ',') cur += ch;
        else if (!cur.empty()) files.back().push_back(std::exchange(cur, ""));
    }
    for (const std::string& one : files.back()) {
      op::NpyArray a;
      if (std::string e = op::read_npy(one, a); !e.empty()) {
        std::cerr << "kgen op run: --input " << (n.empty() ? "" : n + "=") << f << ": " << e
                  << " — make it with numpy.save(\"" << fs::path(one).filename().string() << "\", array)\n";
        return 2;
      }
      if (&one == &files.back().front()) dtypes.push_back(a.dtype);   // a list has one dtype (the OpDef column's)
    }
  }
  for (const std::string& spec : o.input_shapes) {   // NAME=DTYPE:D0,D1 (checked in full by kgen-oprun)
    size_t eq = spec.find('='), colon = spec.find(':');
    int dt = eq == std::string::npos || colon == std::string::npos ? -1
                                                                    : op::npy_dtype_from_name(spec.substr(eq + 1, colon - eq - 1));
    if (dt < 0) {
      std::cerr << "kgen op run: --input-shape " << spec << ": expected NAME=DTYPE:D0,D1,... with a dtype such as "
                   "float32, float16, bfloat16, int32 (for example x=float32:4096,393216)\n";
      return 2;
    }
    dtypes.push_back(dt);
  }
  if (o.tiling_only && (o.timing_only || o.timing_check)) {
    std::cerr << "kgen op run: --tiling-only stops before the kernel runs: drop --timing-only and --timing-check\n";
    return 2;
  }
  if (!o.input_shapes.empty() && !o.timing_only && !o.tiling_only) {
    std::cerr << "kgen op run: --input-shape gives an input without data: add --timing-only (the run models the "
                 "kernel's time at that size and computes no values)\n";
    return 2;
  }
  if (o.timing_only && o.timing_check) {
    std::cerr << "kgen op run: --timing-check runs the kernel both ways itself: drop --timing-only\n";
    return 2;
  }
  op::BuildEnv be = op::build_env();
  be.compile = op::sandboxed_compile;
  op::set_build_env(be);
  // --tiling-only stops before the kernel: only the host library is built.
  op::Prebuilt pre = op::prebuild(p, o.soc, o.tiling_only ? std::vector<std::vector<int>>{} : std::vector<std::vector<int>>{dtypes});
  std::string out;
  int status = 0;
  nlohmann::json summary = nlohmann::json::object();
  std::vector<std::string> outputs;   // npy bytes, by output index
  std::string trace;                  // the launch trace (timing-only), modeled here
  std::string timing_trace;           // --timing-check: the timing-only run's trace, compared with `trace` here
  sandbox::Result r;
  if (!pre.host.ok) {
    out = pre.host.diag;
    status = pre.host.diag.rfind("error[compile]", 0) == 0 ? 3 : 1;
  } else {
    sandbox::Policy pol;
    for (const std::string& f : sandbox::kgen_files()) pol.binds.push_back({f, false});
    pol.binds.push_back({p.dir, false});
    for (const std::string& f : pre.files) pol.binds.push_back({f, false});
    sandbox::Child c;
    c.argv = {oprun_path(), "run", p.dir, "--soc", o.soc, "--channel", "3"};
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string arg;
      for (const std::string& one : files[i]) {
        std::string abs = fs::absolute(one).string();
        pol.binds.push_back({abs, false});
        arg += (arg.empty() ? "" : ",") + abs;
      }
      c.argv.insert(c.argv.end(), {"--input", inputs[i].first.empty() ? arg : inputs[i].first + "=" + arg});
    }
    for (auto& a : o.attrs) c.argv.insert(c.argv.end(), {"--attr", a});
    for (auto& a : o.input_shapes) c.argv.insert(c.argv.end(), {"--input-shape", a});
    if (o.timing_only) c.argv.insert(c.argv.end(), {"--timing-only", "--trace"});
    if (o.tiling_only) c.argv.push_back("--tiling-only");
    if (o.timing_check) c.argv.insert(c.argv.end(), {"--timing-check", "--trace"});
    for (auto& s : o.output_shapes) c.argv.insert(c.argv.end(), {"--output-shape", s});
    if (!o.op.empty()) c.argv.insert(c.argv.end(), {"--op", o.op});
    c.clear_env = true;
    c.env = {"KGEN_CACHE=" + op::cache_dir(), "KGEN_PRIVATE_BUILD=1"};
    std::string failed_dir;   // the prebuild's failed kernel compiles, read by kgen-oprun (prebuild.h)
    if (!pre.failed.empty()) {
      const char* t = std::getenv("TMPDIR");
      std::string tmpl = std::string(t && *t ? t : "/tmp") + "/kgen-oprun-failed-XXXXXX";
      if (::mkdtemp(tmpl.data())) failed_dir = op::write_failed_builds(pre, tmpl);
    }
    if (!failed_dir.empty()) {
      pol.binds.push_back({failed_dir, false});
      c.env.push_back("KGEN_FAILED_BUILDS=" + failed_dir);
    }
    c.on_frame = [&](sandbox::Frame& f) {
      if (f.kind == "npy" && f.name.rfind("run.", 0) == 0) {
        size_t k = std::strtoul(f.name.c_str() + 4, nullptr, 10);
        if (k < 4096) {
          if (outputs.size() <= k) outputs.resize(k + 1);
          outputs[k] = f.data;
        }
      } else if (f.kind == "trace" && f.name == "run") {
        trace = std::move(f.data);
      } else if (f.kind == "trace" && f.name == "run.timing") {
        timing_trace = std::move(f.data);
      } else if (f.kind == "json" && f.name == "run") {
        try {
          summary = nlohmann::json::parse(f.data);
        } catch (...) {
        }
      }
      return true;
    };
    sandbox::Limits lim;
    lim.wall_s = o.timeout > 0 ? o.timeout : 0;
    lim.cpu_s = o.timeout > 0 ? o.timeout + 5 : 0;
    lim.memory_bytes = static_cast<size_t>(o.memory_mb * 1024 * 1024);
    if (o.timing_only || o.tiling_only) {   // GM at the real size is address space, never touched: bound the memory instead
      lim.data_bytes = lim.memory_bytes;
      lim.memory_bytes = 0;
    }
    lim.file_bytes = static_cast<size_t>(o.file_mb * 1024 * 1024);
    lim.channel_bytes = 8ull << 30;
    r = sandbox::run(c, lim, pol, sandbox::default_mode());
    if (!failed_dir.empty()) {
      std::error_code ec;
      fs::remove_all(failed_dir, ec);
    }
    status = r.status;
    out = r.out;
    if (r.status == -1) {
      out += r.start_error + "\n";
      status = 1;
    } else if (r.timed_out) {
      out += "error[timeout] " + o.project + ": the op run exceeded --timeout " + std::to_string(static_cast<int>(o.timeout)) +
             " s (build, tiling and kernel together) and was stopped — look for a kernel loop that never ends, or raise --timeout\n";
      status = 3;
    } else if (status == 128 + SIGXCPU) {
      out += "error[timeout] " + o.project + ": the op run used up its CPU time limit and was stopped\n";
      status = 3;
    } else if (status == 128 + SIGXFSZ) {
      out += "error[file-size] " + o.project + ": the op run wrote a file larger than --max-file-mb\n";
      status = 3;
    } else if (status > 128) {
      out += "error[crash] " + o.project + ": the op run died with signal " + std::to_string(status - 128) +
             " (out of memory under --memory-mb?)\n";
      status = 3;
    } else if (status == 0 && !summary.value("ok", false)) {
      out += "error[exit] " + o.project + ": the op run ended without its results (an exit() in the host or kernel "
             "code?)\n";
      status = 3;
    }
  }
  // The outputs, written here (never by the candidate's process) under the names the OpDef gives them.
  nlohmann::json jouts = nlohmann::json::array();
  std::string listing;
  if (status == 0) {
    std::error_code ec;
    fs::create_directories(o.out, ec);
    for (size_t k = 0; k < outputs.size(); ++k) {
      op::NpyArray a;
      std::string name = output_file_name(summary, k);
      if (std::string e = op::parse_npy(outputs[k], a, "output " + name); !e.empty()) {
        out += "error[protocol] " + o.project + ": " + e + "\n";
        status = 3;
        break;
      }
      std::string path = (fs::path(o.out) / (name + ".npy")).string();
      if (std::string e = op::write_npy(path, a.shape, a.dtype, a.data.data(), a.data.size()); !e.empty()) {
        out += "kgen op run: " + e + "\n";
        status = 1;
        break;
      }
      std::string shape;
      for (size_t i = 0; i < a.shape.size(); ++i) shape += (i ? "," : "") + std::to_string(a.shape[i]);
      std::string dname = op::npy_dtype_name(a.dtype);
      if (summary.contains("outputs") && k < summary["outputs"].size() &&
          summary["outputs"][k].value("dtype", "") == "bfloat16" && a.dtype == 7)
        dname = "bfloat16";
      listing += "  output " + name + ": shape [" + shape + "] " + dname + " -> " + path + "\n";
      jouts.push_back({{"name", name}, {"shape", a.shape}, {"dtype", dname}, {"path", path},
                       {"unwritten", k < summary["outputs"].size() ? summary["outputs"][k].value("unwritten", 0) : 0}});
    }
  }
  nlohmann::json modeled;   // the timing-only run's trace through the performance model (never the child's claim)
  if (status == 0 && o.timing_only) {
    perf::KTrace kt;
    std::string err;
    if (!perf::decode_ktrace(trace, kt, err)) {
      out += "error[protocol] " + o.project + ": no valid launch trace came back (" + (err.empty() ? "none sent" : err) + ")\n";
      status = 3;
    } else {
      std::string().swap(trace);   // decoded: the bytes are not needed while the model runs
      const perf::Result m = perf::model(kt, perf::load_profile(o.soc));
      const double us = m.steady_us > 0 ? m.steady_us : m.time_us;
      const double launch = us - m.body_us;
      modeled = {{"label", "modeled"}, {"soc", o.soc}, {"us", us}, {"body_us", m.body_us}, {"launch_us", launch},
                 {"launch_share", us > 0 ? launch / us : 0.0}, {"bound", m.bound}, {"gm_bytes", m.gm_bytes},
                 {"gbps", m.gbps}, {"input_shapes", o.input_shapes}};
      listing += fmt::format("modeled on {} (timing-only, {}): {:.1f} us per launch back to back (body {:.1f} us, "
                             "launch {:.1f} us = {:.1f} %), {}-bound, {:.3f} GB between GM and the cores\n",
                             o.soc, o.input_shapes.empty() ? std::string("inputs as given") : fmt::format("{}", fmt::join(o.input_shapes, " ")),
                             us, m.body_us, launch, us > 0 ? 100 * launch / us : 0.0, m.bound, m.gm_bytes / 1e9);
      // The run's own account of its cost (a resource report, not a verdict: the time above is modeled here), and
      // its scalar reads of values it did not have: where control flow may have left the full run's path.
      const uint64_t reads = summary.value("value_reads", uint64_t{0});
      const std::string first_read = sandbox::utf8_clean(summary.value("first_value_read", ""));
      modeled["records"] = summary.value("records", 0);
      modeled["emulate_s"] = summary.value("seconds", 0.0);
      modeled["peak_rss_mb"] = summary.value("peak_rss_mb", 0.0);
      modeled["value_reads"] = reads;
      modeled["first_value_read"] = first_read;
      listing += fmt::format("  emulated in {:.2f} s ({:.2f} s in all): {} trace records, {:.0f} MiB of GM reserved, "
                             "peak RSS {:.0f} MiB (as the run reports it)\n",
                             modeled["emulate_s"].get<double>(), r.seconds, modeled["records"].get<uint64_t>(),
                             summary.value("gm_bytes", 0.0) / 1048576.0, modeled["peak_rss_mb"].get<double>());
      if (reads > 0)
        listing += fmt::format("  note: {} scalar reads of values a timing-only run does not compute (first: {}); if "
                               "the kernel's control flow depends on them its trace here differs from a full run's — "
                               "check with --timing-check at a small shape\n",
                               reads, first_read);
    }
  }
  nlohmann::json tiling;   // --tiling-only: the tiling data read back with the project's tiling header
  if (status == 0 && o.tiling_only) {
    std::vector<uint8_t> bytes;   // the child's hex, read without trusting it: a bad digit ends the data
    const std::string hex = summary.contains("tiling_data") && summary["tiling_data"].is_string()
                                ? summary["tiling_data"].get<std::string>()
                                : "";
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      uint8_t b = 0;
      if (std::from_chars(hex.data() + i, hex.data() + i + 2, b, 16).ptr != hex.data() + i + 2) break;
      bytes.push_back(b);
    }
    std::string note;
    const auto fields = op::decode_tiling(p.tiling_h.empty() ? "" : op::read_text(p.tiling_h), summary.value("op", ""),
                                          bytes, note);
    tiling = nlohmann::json::array();
    listing += "  tiling data (TilingFunc's, read with " +
               (p.tiling_h.empty() ? std::string("no tiling header") : fs::path(p.tiling_h).filename().string()) + "):\n";
    for (const auto& f : fields) {
      tiling.push_back({{"name", f.name}, {"type", f.type}, {"value", f.value}, {"comment", f.comment}});
      listing += sandbox::utf8_clean(fmt::format("    {} {} = {}{}\n", f.type, f.name, f.value.empty() ? "?" : f.value,
                                                 f.comment.empty() ? "" : "   // " + f.comment));
    }
    if (!note.empty()) listing += "    note: " + note + "\n";
    summary["tiling_note"] = note;
  }
  nlohmann::json timing_check;   // the two traces compared here, never the child's verdict on them
  if (status == 0 && o.timing_check) {
    const nlohmann::json tc = summary.value("timing_check", nlohmann::json::object());
    std::string diff = tc.contains("failed") ? "the timing-only run failed: " + sandbox::utf8_clean(tc.value("failed", ""))
                                             : perf::first_difference(trace, timing_trace);
    timing_check = {{"equal", diff.empty()}, {"first_difference", diff}};
    listing += diff.empty() ? fmt::format("timing check: the timing-only trace equals the full run's ({} records)\n",
                                          summary.value("records", 0))
                            : "timing check: the traces differ — " + diff + "\n";
  }
  const bool cached = pre.host.cached && pre.files.size() > 1 && summary.value("build_s", 0.0) == 0.0;
  if (status == 0) {
    std::string head = sandbox::utf8_clean(fmt::format(
        "op {} on {}: kernel {}, block dim {}, tiling key {}, tiling data {} bytes, workspace {} bytes{}\n",
        summary.value("op", "?"), summary.value("soc", o.soc),
        o.tiling_only ? std::string("not run (--tiling-only)") : summary.value("kernel", "?"),
        summary.value("block_dim", 0), summary.value("tiling_key", 0), summary.value("tiling_bytes", 0),
        summary.value("workspace_bytes", 0), cached ? " (cached build)" : ""));
    std::string notes;
    for (const auto& n : summary.value("notes", nlohmann::json::array()))
      if (n.is_string()) notes += sandbox::utf8_clean(n.get<std::string>()) + "\n";
    out = head + listing + notes + out;
  }
  // Paths as the user spelled the project (the sandboxed run sees it by its absolute path).
  if (std::string given = o.project; given != p.dir && !given.empty()) {
    if (given.back() == '/') given.pop_back();
    for (size_t at = 0; (at = out.find(p.dir + "/", at)) != std::string::npos; at += given.size() + 1)
      out.replace(at, p.dir.size(), given);
  }
  if (!o.json) {
    (status == 0 ? std::cout : std::cerr) << out << std::flush;
    return status;
  }
  std::cerr << out << std::flush;
  nlohmann::json j = status == 0 ? summary : nlohmann::json::object();
  j["outputs"] = jouts;
  if (!modeled.is_null()) j["modeled"] = modeled;
  if (!tiling.is_null()) j["tiling"] = tiling;
  if (!timing_check.is_null()) j["timing_check"] = timing_check;
  j["cached"] = cached;
  j["ok"] = status == 0;
  j["exit"] = status;
  j["errors"] = errors_of(out);
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return status;
}
}  // namespace

CLI::App* add_op_command(CLI::App& app, int& exit_code) {
  auto* op = app.add_subcommand("op", "Operator projects (CANN op_host + op_kernel) and MultiKernelBench submissions");
  op->require_subcommand(1);
  static OpRunOptions o;
  auto* run = op->add_subcommand("run", "Build an op project (cached), run InferShape, TilingFunc and the kernel on the "
                                        "emulator, write the outputs as .npy");
  run->add_option("project", o.project, "Op project directory (msopgen layout or the three files side by side)")->required();
  run->add_option("files", o.positional, "Input .npy files in OpDef input order (instead of --input)");
  run->add_option("--input", o.inputs, "NAME=FILE.npy, one per OpDef input (positional FILE.npy in OpDef order also works)");
  run->add_option("--attr", o.attrs, "NAME=VALUE (lists: 1,2,3; list of lists: 1,2;3,4); defaults from the OpDef");
  run->add_option("--out", o.out, "Directory for the outputs (<output name>.npy); required unless --timing-only");
  run->add_option("--soc", o.soc, "SoC profile (Ascend910B1..4, Ascend310P3)")->capture_default_str();
  run->add_option("--output-shape", o.output_shapes, "NAME=D0,D1,... (instead of the project's InferShape)");
  run->add_option("--op", o.op, "Operator type, when the host file registers several");
  run->add_option("--timeout", o.timeout, "Wall-clock limit in seconds for build and run")->capture_default_str();
  run->add_option("--memory-mb", o.memory_mb, "Address-space limit of the runner process (MiB)")->capture_default_str();
  run->add_option("--max-file-mb", o.file_mb, "Largest file the runner may write (MiB)")->capture_default_str();
  run->add_option("--input-shape", o.input_shapes,
                  "NAME=DTYPE:D0,D1,... an input by shape alone (with --timing-only or --tiling-only), e.g. x=float32:4096,393216");
  run->add_flag("--timing-only", o.timing_only,
                "Model the kernel's time at this size without computing values (GM is address space, not memory); "
                "prints the modeled time, no outputs are written");
  run->add_flag("--tiling-only", o.tiling_only,
                "Run InferShape and TilingFunc only (inputs may be given by --input-shape): print the block dim and "
                "the tiling data field by field, read with the project's tiling header");
  run->add_flag("--timing-check", o.timing_check,
                "Run fully, then timing-only, and report whether the two traces are equal (then timing-only runs of "
                "this kernel are exact)");
  run->add_flag("--json", o.json, "Print a JSON summary (outputs, shapes, dtypes, block_dim, tiling_key, errors) on stdout");
  add_sandbox_flags(run);
  run->callback([&exit_code] { exit_code = run_op(o); });
  return op;
}
}  // namespace kgen::cli
