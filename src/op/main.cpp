// kgen-oprun: the op runner process. It loads a candidate's libraries, so the evaluator and `kgen op run` start it
// inside the sandbox (src/sandbox), where it builds nothing into the shared cache (build.h).
//   kgen-oprun run PROJECT [--input NAME=FILE.npy]... [--attr NAME=VALUE]... [--soc SOC]
//                  [--output-shape NAME=D0,D1,...]... [--op TYPE] (--out DIR [--json-file FILE] | --channel FD)
// A DYNAMIC (tensor-list) input takes --input NAME=A.npy,B.npy,...; a DYNAMIC output's shapes are
// --output-shape NAME=D0,D1;D0,D1 (its tensors are written as NAME.0.npy, NAME.1.npy, ...).
// --timing-only runs the kernel for its trace alone (sim/timing.h): inputs may be given by shape,
// --input-shape NAME=DTYPE:D0,D1,..., and no outputs are written; --timing-check runs fully, then timing-only, and
// reports whether the two traces are equal (summary "timing_check").
//   kgen-oprun run PROJECT --batch RUNS.json --channel FD [--soc SOC] [--op TYPE]
//   kgen-oprun call ...      MultiKernelBench binding mode (src/op/call*.cpp)
// --out writes <output>.npy files (and the run summary to --json-file); --channel sends them as frames
// (sandbox/channel.h) to the parent instead: per run ID, "npy ID.K" for output K, "trace ID" (the launch's trace,
// perf/ktrace_io.h) when asked for, then "json ID" (the summary) last. RUNS.json: {"runs": [{"id": "c0t0",
// "inputs": ["a.npy", ...] (OpDef order), "attrs": ["NAME=VALUE", ...], "trace": true}, ...]}, one process for every
// case and trial of an evaluation (the host library loads once).
// Exit status: 0 ok, 3 the op or kernel is wrong (error[...] line), 2 usage, 1 internal.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <deque>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "host/op_host.h"
#include "op/call.h"
#include "op/core_type_builds.h"
#include "op/npy.h"
#include "op/runner.h"
#include "sandbox/channel.h"
#include "sim/launch.h"
#include "sim/soc.h"
#include "perf/trace_diff.h"

namespace {
namespace fs = std::filesystem;
using namespace kgen::op;

int usage(const std::string& msg) {
  std::fprintf(stderr, "kgen-oprun: %s\nusage: kgen-oprun run PROJECT [--input NAME=FILE.npy]... [--attr NAME=VALUE]... "
                       "(--out DIR [--json-file FILE] | --channel FD) [--soc SOC] [--output-shape NAME=D0,D1,...]... "
                       "[--op TYPE] [--trace] [--tiling-only] [--timing-only [--input-shape NAME=DTYPE:D0,D1,...]... | --timing-check] "
                       "| kgen-oprun run PROJECT --batch RUNS.json --channel FD\n",
               msg.c_str());
  return 2;
}
bool split_eq(const std::string& s, std::string& a, std::string& b) {
  size_t p = s.find('=');
  if (p == std::string::npos) return false;
  a = s.substr(0, p);
  b = s.substr(p + 1);
  return true;
}

using Pairs = std::vector<std::pair<std::string, std::string>>;
struct Request {
  std::string id = "run";
  Pairs inputs, attrs, oshapes;   // (name or "", value)
  Pairs input_shapes;             // --input-shape NAME=DTYPE:D0,D1 (timing-only: no data)
  std::vector<bool> input_is_shape;   // per inputs entry: its value is DTYPE:D0,D1 (a batch's {"shape": ...}), not a file
  bool trace = false;
  bool timing_only = false;       // the trace at this size, no values (sim/timing.h)
  bool timing_check = false;      // run fully, then timing-only, and compare the two traces
  bool tiling_only = false;       // stop after TilingFunc (inputs may be given by shape)
};

// DTYPE:D0,D1,... (a DYNAMIC input: DTYPE:D0,D1;D0,D1, one shape per tensor) -> tensors without data.
std::string parse_shape_spec(const std::string& name, const std::string& spec, bool list, std::vector<Tensor>& out) {
  const std::string what = "--input-shape " + name + "=" + spec;
  size_t colon = spec.find(':');
  if (colon == std::string::npos) return what + ": expected DTYPE:D0,D1,... (for example float32:4096,393216)";
  const int dt = npy_dtype_from_name(spec.substr(0, colon));
  if (dt < 0) return what + ": unknown dtype '" + spec.substr(0, colon) + "' (float32, float16, bfloat16, int32, ...)";
  if (colon + 1 == spec.size()) {   // DTYPE: alone is a 0-d tensor (one element)
    Tensor t;
    t.dtype = dt;
    t.origin = what;
    t.bytes = npy_dtype_size(dt);
    out.push_back(t);
    return "";
  }
  std::vector<int64_t> shape;
  std::string cur;
  for (char c : spec.substr(colon + 1) + ";") {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      cur += c;
      if (cur.size() > 12) return what + ": a dimension is too large";
    } else if (c == ',' || c == 'x' || c == ';') {
      if (!cur.empty()) shape.push_back(std::stoll(cur));
      else if (c != ';' || shape.empty()) return what + ": an empty dimension";
      cur.clear();
      if (c != ';') continue;
      if (out.size() == 1 && !list) return what + ": ';' separates the tensors of a DYNAMIC input only";
      Tensor t;
      t.shape = shape;
      t.dtype = dt;
      t.origin = what;
      uint64_t n = npy_dtype_size(dt);
      for (int64_t d : shape) {
        if (d > 0 && n > (1ull << 44) / static_cast<uint64_t>(d))
          return what + ": more than 16 TiB — kgen models tensors up to that size";
        n *= static_cast<uint64_t>(d);
      }
      t.bytes = n;
      out.push_back(t);
      shape.clear();
    } else if (c != ' ') {
      return what + ": unexpected '" + std::string(1, c) + "'; expected DTYPE:D0,D1,...";
    }
  }
  return "";
}

// The peak resident memory of this process in MiB (getrusage: the sandbox has no /proc).
double peak_rss_mb() {
  struct rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// One request on the opened runner; the result goes to --out or the channel. Returns the exit status.
int run_one(OpRunner& R, const Request& q, const std::string& out_dir, const std::string& json_file, int channel,
            std::chrono::steady_clock::time_point t0) {
  auto report = [&](const Failure& f) {
    std::fputs(f.text.c_str(), stderr);
    return f.exit;
  };
  const auto& info = R.info();
  const Project& p = R.project();
  // Map --input NAME=FILE onto the OpDef's inputs (positional when no name is given); a DYNAMIC input takes a
  // tensor list, FILE,FILE,... (one file: a list of one).
  RunSpec spec;
  spec.inputs.resize(info.inputs.size());
  for (auto& t : spec.inputs) t.present = false;
  std::deque<NpyArray> arrays;
  auto load = [&](const std::string& path, Tensor& t) {
    arrays.emplace_back();
    if (std::string e = read_npy(path, arrays.back()); !e.empty()) return "--input " + e;
    t.present = true;
    t.shape = arrays.back().shape;
    t.dtype = arrays.back().dtype;
    t.data = arrays.back().data.data();
    t.bytes = arrays.back().data.size();
    t.origin = path;
    return std::string();
  };
  // OpDef input k from DTYPE:D0,D1 (a DYNAMIC input: one shape per tensor): a tensor without data.
  auto set_shape = [&](const std::string& name, const std::string& value, size_t k, Tensor& t) {
    const bool list = info.inputs[k].kind == kgen::host::ParamKind::Dynamic;
    std::vector<Tensor> ts;
    if (std::string e = parse_shape_spec(name, value, list, ts); !e.empty()) return e;
    if (list) {
      t.is_list = true;
      t.origin = ts.front().origin;
      t.items = ts;
      for (Tensor& x : t.items) x.present = true;
    } else {
      t = ts.front();
    }
    t.present = true;
    return std::string();
  };
  size_t next = 0;
  for (size_t i = 0; i < q.inputs.size(); ++i) {
    size_t k = 0;
    if (q.inputs[i].first.empty()) {
      while (next < info.inputs.size() && spec.inputs[next].present) ++next;
      k = next;
    } else {
      while (k < info.inputs.size() && info.inputs[k].name != q.inputs[i].first) ++k;
    }
    std::string names;
    for (auto& in : info.inputs) names += (names.empty() ? "" : ", ") + in.name;
    if (k >= info.inputs.size()) {
      std::string msg = q.inputs[i].first.empty()
                            ? std::to_string(q.inputs.size()) + " inputs given but the OpDef of " + info.type +
                                  " has " + std::to_string(info.inputs.size()) + " (" + names + ")"
                            : "--input " + q.inputs[i].first + ": the OpDef of " + info.type + " has no input '" +
                                  q.inputs[i].first + "'; its inputs: " + names;
      return report(*fail("op-def", p.host_cpp, 0, msg + " — pass one --input NAME=FILE.npy per OpDef input"));
    }
    if (spec.inputs[k].present) return usage("--input " + info.inputs[k].name + " is given twice");
    Tensor& t = spec.inputs[k];
    if (i < q.input_is_shape.size() && q.input_is_shape[i]) {   // positional shape-only input of a timing-only run
      if (std::string e = set_shape(info.inputs[k].name, q.inputs[i].second, k, t); !e.empty()) return usage(e);
    } else if (info.inputs[k].kind == kgen::host::ParamKind::Dynamic) {
      t.present = t.is_list = true;
      t.origin = q.inputs[i].second;
      std::string cur;
      for (char c : q.inputs[i].second + ",") {
        if (c != ',') { cur += c; continue; }
        if (cur.empty()) continue;
        t.items.emplace_back();
        if (std::string e = load(cur, t.items.back()); !e.empty()) return usage(e);
        cur.clear();
      }
    } else if (std::string e = load(q.inputs[i].second, t); !e.empty()) {
      return usage(e);
    }
  }
  for (const auto& [name, value] : q.input_shapes) {
    size_t k = 0;
    while (k < info.inputs.size() && info.inputs[k].name != name) ++k;
    if (k >= info.inputs.size())
      return usage("--input-shape " + name + ": the OpDef of " + info.type + " has no input '" + name + "'");
    if (spec.inputs[k].present) return usage("--input-shape " + name + ": the input is given twice");
    if (std::string e = set_shape(name, value, k, spec.inputs[k]); !e.empty()) return usage(e);
  }
  size_t given = 0;
  for (auto& t : spec.inputs) given += t.present;
  if (given != info.inputs.size()) {
    size_t required = 0;
    std::string missing;
    for (size_t k = 0; k < info.inputs.size(); ++k) {
      required += info.inputs[k].kind == kgen::host::ParamKind::Required;
      if (!spec.inputs[k].present && info.inputs[k].kind == kgen::host::ParamKind::Required)
        missing += (missing.empty() ? "" : ", ") + info.inputs[k].name;
    }
    if (!missing.empty())
      return report(*fail("op-def", p.host_cpp, R.param_line("Input", missing.substr(0, missing.find(','))),
                          std::to_string(given) + " input(s) given, the OpDef of " + info.type + " has " +
                              std::to_string(info.inputs.size()) + " (" + std::to_string(required) +
                              " required); missing: " + missing + " — pass --input NAME=FILE.npy for each"));
  }
  if (auto f = R.parse_attrs(q.attrs, spec.attrs)) return report(*f);
  // --output-shape NAME=D0,D1,...; for a DYNAMIC output one shape per tensor, separated by ';' (this also sets
  // its count). Shapes are per output instance (runner.h), so they are placed once every count is known.
  std::vector<std::vector<std::vector<int64_t>>> shapes(info.outputs.size());
  std::vector<bool> shape_given(info.outputs.size(), false);
  for (auto& [name, dims] : q.oshapes) {
    size_t k = 0;
    while (k < info.outputs.size() && info.outputs[k].name != name) ++k;
    if (k == info.outputs.size()) return usage("--output-shape " + name + ": the op has no output '" + name + "'");
    const bool dynamic = info.outputs[k].kind == kgen::host::ParamKind::Dynamic;
    std::vector<int64_t> s;
    std::string cur;
    for (char c : dims + (dynamic ? ";" : ",")) {
      if (c == ',' || c == 'x' || (c == ';' && dynamic)) {
        if (!cur.empty()) s.push_back(std::stoll(cur));
        cur.clear();
        if (c == ';') {
          shapes[k].push_back(s);
          s.clear();
        }
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        cur += c;
        if (cur.size() > 15) return usage("--output-shape " + name + "=" + dims + ": a dimension is too large");
      } else if (c != ' ') {
        return usage("--output-shape " + name + "=" + dims + (dynamic ? ": expected D0,D1;D0,D1 (one shape per tensor of "
                                                                        "the DYNAMIC output)" : ": expected D0,D1,..."));
      }
    }
    if (!dynamic) shapes[k] = {s};
    shape_given[k] = true;
  }
  int first_list = -1;   // a DYNAMIC output without shapes has as many tensors as the first DYNAMIC input
  for (auto& t : spec.inputs)
    if (t.is_list && first_list < 0) first_list = static_cast<int>(t.items.size());
  for (size_t k = 0; k < info.outputs.size(); ++k) {
    const bool dynamic = info.outputs[k].kind == kgen::host::ParamKind::Dynamic;
    spec.output_counts.push_back(!dynamic ? 1 : shape_given[k] ? static_cast<int>(shapes[k].size()) : first_list);
    if (!shape_given[k]) shapes[k].assign(dynamic ? std::max(first_list, 0) : 1, {});
    for (auto& s : shapes[k]) {
      spec.output_shapes.push_back(s);
      spec.output_shape_given.push_back(shape_given[k]);
    }
  }
  RunResult res;
  spec.trace = q.trace || q.timing_check;
  spec.timing_only = (q.timing_only || q.tiling_only) && !q.timing_check;
  spec.tiling_only = q.tiling_only;
  // On a channel the trace goes straight into its frame, a core at a time ("trace ID"; the timing-only run of a
  // --timing-check "trace ID.timing"), never held whole.
  auto stream_trace = [channel](RunSpec& s, const std::string& name) {
    if (channel < 0) return;
    s.trace_begin = [channel, name](uint64_t n) { return kgen::sandbox::write_frame_head(channel, "trace", name, n); };
    s.trace_put = [channel](const std::string& p) { return kgen::sandbox::write_all(channel, p.data(), p.size()); };
  };
  stream_trace(spec, q.id);
  nlohmann::json check;
  if (q.timing_check) {   // the full run first, then the same launch timing-only: the traces must be equal
    if (auto f = R.run(spec, res)) return report(*f);
    RunSpec shapes_only = spec;
    shapes_only.timing_only = true;
    stream_trace(shapes_only, q.id + ".timing");
    auto drop = [](Tensor& t) {
      t.data = nullptr;
      for (Tensor& x : t.items) x.data = nullptr;
    };
    // As a timing-only run at a real size gets them: floating-point inputs by shape alone; integer inputs (indices,
    // masks, counts: they decide addresses) and ValueDepend ones with their data.
    auto is_float = [](int dt) { return dt == 0 || dt == 1 || dt == 11 || dt == kDtBf16; };   // ge::DataType
    for (size_t k = 0; k < info.inputs.size(); ++k) {
      Tensor& t = shapes_only.inputs[k];
      const int dt = t.is_list && !t.items.empty() ? t.items[0].dtype : t.dtype;
      if (!info.inputs[k].value_depend && is_float(dt)) drop(t);
    }
    RunResult timed;
    // An emulator error in the timing-only run is the check's finding, not the run's verdict: it comes back as an
    // exception instead of ending the process (the full run's results are already made).
    std::optional<Failure> failed;
    kgen::sim::set_throw_on_error(true);
    try {
      failed = R.run(shapes_only, timed);
    } catch (const kgen::sim::SimError& e) {
      failed = Failure{3, e.line};
    }
    kgen::sim::set_throw_on_error(false);
    if (failed) {
      check = {{"failed", failed->text}};
    } else {
      check = {{"records", timed.records}, {"value_reads", timed.value_reads}};
      if (channel < 0) {   // run by hand: compare here (on a channel the parent compares the two traces itself)
        const std::string diff = kgen::perf::first_difference(res.trace, timed.trace);
        check["equal"] = diff.empty();
        check["first_difference"] = diff;
      }
    }
  } else if (auto f = R.run(spec, res)) {
    return report(*f);
  }
  nlohmann::json j;
  j["ok"] = true;
  j["op"] = res.op;
  j["soc"] = res.soc;
  j["kernel"] = res.kernel;
  j["block_dim"] = res.block_dim;
  j["tiling_key"] = res.tiling_key;
  j["tiling_bytes"] = res.tiling_bytes;
  {
    static const char* hex = "0123456789abcdef";
    std::string h;
    for (uint8_t b : res.tiling) h += hex[b >> 4], h += hex[b & 15];
    j["tiling_data"] = h;   // decoded by the parent with the project's tiling header (op/tiling_fields.h)
  }
  j["workspace_bytes"] = res.workspace_bytes;
  j["dtype_column"] = res.column;
  j["cached"] = res.host_cached && res.kernel_cached;
  j["build_s"] = res.build_s;
  j["outputs"] = nlohmann::json::array();
  j["records"] = res.records;
  j["gm_bytes"] = res.gm_bytes;
  if (res.timing_only) {
    j["timing_only"] = true;
    j["value_reads"] = res.value_reads;
    j["first_value_read"] = res.first_value_read;
  }
  if (!check.is_null()) j["timing_check"] = check;
  if (channel < 0) {
    std::printf("op %s on %s: kernel %s, block dim %u, tiling key %llu, tiling data %zu bytes, workspace %zu bytes%s\n",
                res.op.c_str(), res.soc.c_str(), res.kernel.c_str(), res.block_dim,
                static_cast<unsigned long long>(res.tiling_key), res.tiling_bytes, res.workspace_bytes,
                res.host_cached && res.kernel_cached ? " (cached build)" : "");
    std::error_code ec;
    fs::create_directories(out_dir, ec);
  }
  for (size_t k = 0; k < res.outputs.size(); ++k) {
    const OutputResult& o = res.outputs[k];
    std::string shape;
    for (size_t i = 0; i < o.shape.size(); ++i) shape += (i ? "," : "") + std::to_string(o.shape[i]);
    nlohmann::json oj = {{"name", o.name}, {"shape", o.shape}, {"dtype", npy_dtype_name(o.dtype)},
                         {"unwritten", o.unwritten}, {"untraced", o.untraced}};
    if (res.timing_only) {   // no values: the shape is the result
      if (channel < 0) std::printf("  output %s: shape [%s] %s (timing-only: not computed)\n", o.name.c_str(),
                                   shape.c_str(), npy_dtype_name(o.dtype));
    } else if (channel >= 0) {
      std::string bytes = npy_encode(o.shape, o.dtype, o.data.data(), o.data.size());
      if (!kgen::sandbox::write_frame(channel, "npy", q.id + "." + std::to_string(k), bytes)) {
        std::fprintf(stderr, "kgen-oprun: cannot write to the channel\n");
        return 1;
      }
    } else {
      std::string file = o.name;   // "y[2]" (a DYNAMIC output's third tensor) is written as y.2.npy
      for (char& c : file)
        if (c == '[') c = '.';
      if (!file.empty() && file.back() == ']') file.pop_back();
      std::string path = (fs::path(out_dir) / (file + ".npy")).string();
      if (std::string e = write_npy(path, o.shape, o.dtype, o.data.data(), o.data.size()); !e.empty()) {
        std::fprintf(stderr, "kgen-oprun: %s\n", e.c_str());
        return 1;
      }
      std::printf("  output %s: shape [%s] %s -> %s\n", o.name.c_str(), shape.c_str(), npy_dtype_name(o.dtype),
                  path.c_str());
      oj["path"] = path;
    }
    j["outputs"].push_back(oj);
  }
  if (channel < 0)
    for (auto& n : res.notes) std::printf("%s\n", n.c_str());
  j["notes"] = res.notes;
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  j["peak_rss_mb"] = peak_rss_mb();
  if (channel < 0 && res.timing_only)
    std::printf("timing-only: %llu trace records, %.1f MiB of GM reserved, peak RSS %.1f MiB%s\n",
                static_cast<unsigned long long>(res.records), res.gm_bytes / 1048576.0, peak_rss_mb(),
                res.value_reads ? (", " + std::to_string(res.value_reads) + " scalar reads of values it did not "
                                   "compute (first: " + res.first_value_read + ")").c_str()
                                : "");
  if (channel < 0 && !check.is_null())
    std::printf("timing check: %s\n",
                check.contains("failed")     ? ("the timing-only run failed: " + check.value("failed", "")).c_str()
                : check.value("equal", false) ? ("the timing-only trace equals the full run's (" +
                                                 std::to_string(check.value("records", 0)) + " records)").c_str()
                                              : ("the traces differ: " + check.value("first_difference", "")).c_str());
  std::fflush(stdout);
  if (channel >= 0) {
    if (!kgen::sandbox::write_frame(channel, "json", q.id, j.dump())) return 1;
  } else if (!json_file.empty()) {
    std::ofstream(json_file) << j.dump() << "\n";
  }
  return 0;
}

bool parse_batch(const std::string& path, std::vector<Request>& out, std::string& err) {
  try {
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& r : j.at("runs")) {
      Request q;
      q.id = r.at("id").get<std::string>();
      if (!kgen::sandbox::frame_token(q.id)) throw std::runtime_error("bad run id '" + q.id + "'");
      // An input is a file, or {"shape": "DTYPE:D0,D1"} (timing-only runs: an input without data).
      for (const auto& f : r.value("inputs", nlohmann::json::array())) {
        const bool by_shape = f.is_object();
        q.inputs.emplace_back("", by_shape ? f.at("shape").get<std::string>() : f.get<std::string>());
        q.input_is_shape.push_back(by_shape);
      }
      for (const auto& a : r.value("attrs", nlohmann::json::array())) {
        std::string n, v;
        if (!split_eq(a.get<std::string>(), n, v)) throw std::runtime_error("attr without '=': " + a.dump());
        q.attrs.emplace_back(n, v);
      }
      q.trace = r.value("trace", false);
      q.timing_only = r.value("timing_only", false);
      q.timing_check = r.value("timing_check", false);
      for (bool b : q.input_is_shape)
        if (b && !q.timing_only) throw std::runtime_error("run '" + q.id + "': an input by shape needs \"timing_only\"");
      for (auto& [name, v] : r.value("input_shapes", nlohmann::json::object()).items())
        q.input_shapes.emplace_back(name, v.get<std::string>());
      out.push_back(std::move(q));
    }
  } catch (const std::exception& e) {
    err = path + ": " + e.what();
    return false;
  }
  return true;
}

int run_main(int argc, char** argv) {
  std::string project_dir, out_dir, soc = "Ascend910B2", op_type, json_file, batch;
  int channel = -1;
  Request one;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&](std::string& dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    std::string v, n, x;
    if (a == "--input" || a == "--attr" || a == "--output-shape") {
      if (!val(v)) return usage(a + " needs a value");
      if (!split_eq(v, n, x)) {
        if (a != "--input") return usage(a + " " + v + ": expected NAME=VALUE");
        n.clear();
        x = v;
      }
      (a == "--input" ? one.inputs : a == "--attr" ? one.attrs : one.oshapes).emplace_back(n, x);
    } else if (a == "--out") {
      if (!val(out_dir)) return usage("--out needs a directory");
    } else if (a == "--soc") {
      if (!val(soc)) return usage("--soc needs a value");
    } else if (a == "--op") {
      if (!val(op_type)) return usage("--op needs a value");
    } else if (a == "--json-file") {
      if (!val(json_file)) return usage("--json-file needs a value");
    } else if (a == "--batch") {
      if (!val(batch)) return usage("--batch needs a file");
    } else if (a == "--channel") {
      if (!val(v) || v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 4)
        return usage("--channel needs a file descriptor number");
      channel = std::stoi(v);
    } else if (a == "--trace") {
      one.trace = true;
    } else if (a == "--timing-only") {
      one.timing_only = true;
    } else if (a == "--timing-check") {
      one.timing_check = true;
    } else if (a == "--tiling-only") {
      one.tiling_only = true;
    } else if (a == "--input-shape") {
      if (!val(v) || !split_eq(v, n, x)) return usage("--input-shape needs NAME=DTYPE:D0,D1,...");
      one.input_shapes.emplace_back(n, x);
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option " + a);
    } else if (project_dir.empty()) {
      project_dir = a;
    } else {
      return usage("unexpected argument " + a);
    }
  }
  if (project_dir.empty()) return usage("no project directory");
  if (out_dir.empty() && channel < 0 && !one.timing_only && !one.tiling_only) return usage("--out DIR or --channel FD is required");
  if (!batch.empty() && channel < 0) return usage("--batch needs --channel");
  if (!one.input_shapes.empty() && !one.timing_only && !one.tiling_only)
    return usage("--input-shape gives an input without data: add --timing-only (the run models time, computes no values)");
  if (one.timing_only && one.timing_check) return usage("--timing-check runs both ways itself: drop --timing-only");
  if (!kgen::sim::find_soc(soc)) return usage("unknown SoC '" + soc + "' (known: " + kgen::sim::soc_names() + ")");
  std::vector<Request> runs;
  if (batch.empty()) {
    runs.push_back(one);
  } else if (std::string err; !parse_batch(batch, runs, err)) {
    return usage("--batch " + err);
  }
  auto t0 = std::chrono::steady_clock::now();
  Project p;
  if (std::string e = find_project(project_dir, p); !e.empty()) {
    std::fprintf(stderr, "error[compile] %s: %s — an op project needs an op_host .cpp (register/op_def_registry.h) "
                         "and an op_kernel .cpp (kernel_operator.h)\n",
                 project_dir.c_str(), e.c_str());
    return 3;
  }
  // The inputs' dtypes let the kernel build start next to the host build (a no-op when both are in the cache).
  std::vector<std::pair<std::string, int>> predicted;
  for (size_t i = 0; i < runs[0].inputs.size(); ++i) {
    const auto& [name, value] = runs[0].inputs[i];
    NpyArray a;
    if (i < runs[0].input_is_shape.size() && runs[0].input_is_shape[i]) {
      if (int dt = npy_dtype_from_name(value.substr(0, value.find(':'))); dt >= 0) predicted.emplace_back(name, dt);
    } else if (read_npy(value, a).empty()) {
      predicted.emplace_back(name, a.dtype);
    }
  }
  for (auto& [name, value] : runs[0].input_shapes)
    if (int dt = npy_dtype_from_name(value.substr(0, value.find(':'))); dt >= 0) predicted.emplace_back(name, dt);
  auto host_future = build_host(p, soc);
  if (Defines guess = predict_defines(p, predicted); !guess.empty())
    for (const Defines& b : kernel_builds(p, soc, guess)) build_kernel(p, soc, b);
  OpRunner R;
  if (auto f = R.open(p, soc, op_type)) {
    std::fputs(f->text.c_str(), stderr);
    return f->exit;
  }
  for (const Request& q : runs)
    if (int rc = run_one(R, q, out_dir, json_file, channel, t0); rc != 0) return rc;
  (void)host_future;
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "run") == 0) return run_main(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "call") == 0) return kgen::op::call_main(argc - 1, argv + 1);
  std::fprintf(stderr, "usage: kgen-oprun run PROJECT ... | kgen-oprun call ...\n");
  return 2;
}
