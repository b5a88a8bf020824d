// `kgen tile check F [--soc S] [--dump-ast]` and `kgen tile compile F -o DIR [--emit op|mkb] [--dump-after PASS]`.
// Exit status: 0 ok, 3 the program has errors (diagnostics on stderr), 2 usage or I/O.
#include "cli/tile_cmd.h"

#include <unistd.h>

#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <iostream>
#include <sstream>

#include "eval/explain_run.h"
#include "perf/profile.h"
#include "tile/compile.h"
#include "tile/parser.h"

namespace kgen::cli {
namespace {
namespace fs = std::filesystem;

struct TileCli {
  std::string file, out, soc = "Ascend910B2", emit = "op", dump_after;
  bool dump_ast = false;
};

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

int report(const tile::Diags& d) {
  if (!d.all().empty()) std::cerr << d.render(isatty(2));
  return d.has_errors() ? 3 : 0;
}

// The program's form in words, for the summary line: the forms with their own lowering first (they own no vector
// buffer plan, so their buffer count is 0), then the vector forms.
static const char* program_kind(const tile::Kernel& k) {
  if (k.row_mm) return "row matmul";
  if (k.attention) return "attention";
  if (k.cube) return "cube";
  if (k.conv) return "convolution";
  if (k.pool) return "pooling";
  if (k.index) return "index";
  if (k.resize) return "resize";
  if (k.axis) return "axis";
  return k.rows ? "row" : "flat";
}

int run_check(const TileCli& c) {
  std::string src;
  if (!read_file(c.file, src)) {
    std::cerr << "kgen tile check: cannot read " << c.file << "\n";
    return 2;
  }
  tile::Diags d(c.file, &src);
  tile::CompileOptions o;
  o.soc = c.soc;
  if (c.dump_ast)
    o.dump = [](const std::string& pass, const std::string& ir) {
      if (pass == "parse") std::cout << ir;
    };
  tile::CompileResult r = tile::compile_program(c.file, src, o, d);
  int rc = report(d);
  if (rc == 0)
    fmt::print("{}: ok — kernel {} (op {}), {} program, {} UB buffer(s)\n", c.file, r.kernel.name, r.kernel.op_type,
               program_kind(r.kernel), r.kernel.buffers.size());
  return rc;
}

int run_compile(const TileCli& c) {
  std::string src;
  if (!read_file(c.file, src)) {
    std::cerr << "kgen tile compile: cannot read " << c.file << "\n";
    return 2;
  }
  const auto& names = tile::pass_names();
  if (!c.dump_after.empty() && c.dump_after != "all" &&
      std::find(names.begin(), names.end(), c.dump_after) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    std::cerr << "kgen tile compile: --dump-after " << c.dump_after << ": no such pass (passes: " << list << ", all)\n";
    return 2;
  }
  tile::Diags d(c.file, &src);
  tile::CompileOptions o;
  o.soc = c.soc;
  if (!c.dump_after.empty())
    o.dump = [&](const std::string& pass, const std::string& ir) {
      if (c.dump_after == "all" || c.dump_after == pass) std::cout << "=== after " << pass << "\n" << ir;
    };
  tile::CompileResult r = tile::compile_program(c.file, src, o, d);
  int rc = report(d);
  if (rc != 0) return rc;
  if (c.out.empty()) return 0;   // --dump-after without -o
  std::error_code ec;
  if (c.emit == "mkb") {
    std::string text = tile::mkb_submission(r);
    fs::path p = c.out;
    if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
    std::ofstream(p, std::ios::binary) << text;
    fmt::print("wrote {} (MultiKernelBench submission of op {})\n", p.string(), r.kernel.op_type);
    return 0;
  }
  for (const auto& [rel, text] : r.files) {
    fs::path p = fs::path(c.out) / rel;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary);
    if (!(out << text)) {
      std::cerr << "kgen tile compile: cannot write " << p << "\n";
      return 2;
    }
  }
  fmt::print("wrote op project {} (op {}, kernel {}) to {}\n", r.kernel.name, r.kernel.op_type, r.kernel.kernel_symbol,
             c.out);
  return 0;
}
}  // namespace

CLI::App* add_tile_command(CLI::App& app, int& exit_code) {
  auto c = std::make_shared<TileCli>();
  auto* t = app.add_subcommand("tile", "The tile language: check a program, compile it to an op project "
                                       "(docs/tile-language.md)");
  t->require_subcommand(1);
  auto* chk = t->add_subcommand("check", "Check a tile program: every problem with file:line:col, caret and hint");
  chk->add_option("file", c->file, "The .tile program")->required();
  chk->add_option("--soc", c->soc, "SoC whose vector unit the checks assume")->capture_default_str();
  chk->add_flag("--dump-ast", c->dump_ast, "Print the syntax tree");
  chk->callback([c, &exit_code] { exit_code = run_check(*c); });
  auto* cmp = t->add_subcommand("compile", "Compile a tile program to an op project (or a MultiKernelBench "
                                           "submission with --emit mkb)");
  cmp->add_option("file", c->file, "The .tile program")->required();
  cmp->add_option("-o,--out", c->out, "Output folder (op project) or file (--emit mkb)");
  cmp->add_option("--emit", c->emit, "op: an op project folder; mkb: a MultiKernelBench six-string .py")
      ->check(CLI::IsMember({"op", "mkb"}))
      ->capture_default_str();
  std::string passes;   // the pipeline's own list, so the help cannot fall behind it
  for (const std::string& n : tile::pass_names()) passes += (passes.empty() ? "" : ", ") + n;
  cmp->add_option("--dump-after", c->dump_after, "Print the IR after this pass (" + passes + ") or all");
  cmp->add_option("--soc", c->soc, "SoC whose vector unit the checks assume")->capture_default_str();
  cmp->callback([c, &exit_code] {
    if (c->out.empty() && c->dump_after.empty()) {
      std::cerr << "kgen tile compile: give -o DIR (or --dump-after PASS to only print the IR)\n";
      exit_code = 2;
      return;
    }
    exit_code = run_compile(*c);
  });
  auto shapes = std::make_shared<std::vector<std::string>>();
  auto* exp = t->add_subcommand("explain", "Why the compiled AscendC looks as it does: the SoC's numbers, UB buffers, "
                                           "tile size, core split, tail and pipeline, with the values the op's own "
                                           "TilingFunc chooses at the given shape (run sandboxed)");
  exp->add_option("file", c->file, "The .tile program")->required();
  exp->add_option("--input-shape", *shapes, "NAME=DTYPE:D0,D1,... one per input of the program, e.g. "
                                            "x=float32:4096,393216")
      ->required();
  exp->add_option("--soc", c->soc, "SoC profile to size for")->capture_default_str();
  exp->callback([c, shapes, &exit_code] {
    eval::Explained e;
    std::string err;
    if (!eval::explain_program(c->file, c->soc, *shapes, e, err)) {
      std::cerr << "kgen tile explain: " << err << (err.empty() || err.back() != '\n' ? "\n" : "");
      exit_code = 1;
      return;
    }
    std::cout << e.reasoning;
    exit_code = 0;
  });
  return t;
}
}  // namespace kgen::cli
