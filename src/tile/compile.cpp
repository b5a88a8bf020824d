// The pipeline (compile.h): one list of passes, the IR printable after each.
#include "tile/compile.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tile/attention.h"
#include "tile/cube.h"
#include "tile/staged.h"
#include "tile/emit.h"
#include "tile/index.h"
#include "tile/parser.h"
#include "tile/passes.h"
#include "tile/pool.h"
#include "tile/conv.h"
#include "tile/resize.h"
#include "tile/row_matmul.h"
#include "tile/sema.h"

namespace kgen::tile {

const std::vector<std::string>& pass_names() {
  static const std::vector<std::string> names = {"parse",        "check",         "split_casts", "plan_buffers",
                                                 "assign_stages", "size_tiles",   "plan_chunks", "split_cores",
                                                 "emit"};
  return names;
}

std::string prelude_text(const std::string& name, std::string& err) {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  if (const char* d = std::getenv("KGEN_TILE_PRELUDE")) dirs.emplace_back(d);
  dirs.emplace_back(fs::path(KGEN_SOURCE_DIR) / "src" / "tile" / "prelude");
  for (const auto& d : dirs) {
    std::ifstream in(d / name, std::ios::binary);
    if (!in) continue;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  err = "cannot find the tile helper header " + name + " (looked in src/tile/prelude of the source tree; set "
        "KGEN_TILE_PRELUDE to its folder)";
  return "";
}

CompileResult compile_program(const std::string& file, const std::string& source, const CompileOptions& o,
                              Diags& diags) {
  CompileResult r;
  auto dump = [&](const std::string& pass, const std::string& ir) {
    if (o.dump) o.dump(pass, ir);
  };
  Program p;
  if (!parse(file, source, p, diags)) return r;
  dump("parse", print_ast(p));
  Kernel& k = r.kernel;
  if (!check(p, o.soc, k, diags)) return r;
  // Forms with a lowering of their own (one check printer and one emitter each, no vector passes); every project
  // ships the shared helpers and, for some forms, a helper header of their own.
  struct OwnLowering {
    bool on;
    std::string (*print)(const Kernel&);
    std::map<std::string, std::string> (*emit)(const Kernel&);
    std::vector<const char*> extra_preludes;
  };
  const OwnLowering own[] = {
      {k.index, print_index, emit_index, {}},              // emit_index.cpp
      {k.row_mm != nullptr, print_row_matmul, emit_row_matmul, {}},  // emit_row_matmul.cpp (also cube)
      {k.attention, print_attention, emit_attention, {}},  // emit_attention.cpp (also a cube program)
      {k.staged != nullptr, print_staged, emit_staged, {}},  // emit_staged.cpp (also cube)
      {k.cube, print_cube, emit_cube, {}},                 // emit_cube.cpp, emit_cube_epi.cpp
      {k.resize, print_resize, emit_resize, {}},           // emit_resize.cpp
      {k.conv != nullptr, print_conv, emit_conv,   // emit_conv.cpp, emit_conv_gemm.cpp (cube)
       k.conv && k.conv->cube ? std::vector<const char*>{"kgen_conv.h", "kgen_conv_gemm.h"}
                              : std::vector<const char*>{"kgen_conv.h"}},
      {k.pool, print_pool, emit_pool, {"kgen_pool.h"}},           // emit_pool.cpp
  };
  for (const OwnLowering& l : own) {
    if (!l.on) continue;
    dump("check", l.print(k));
    r.files = l.emit(k);
    std::string all, err;
    for (const auto& [path, text] : r.files) all += "=== " + path + "\n" + text;
    r.files["op_kernel/kgen_tile.h"] = prelude_text("kgen_tile.h", err);
    for (const char* extra : l.extra_preludes)
      if (err.empty()) r.files[std::string("op_kernel/") + extra] = prelude_text(extra, err);
    if (!err.empty()) {
      diags.error({}, err);
      return r;
    }
    dump("emit", all);
    r.ok = true;
    return r;
  }
  dump("check", print_ir(k));
  split_casts(k);
  dump("split_casts", print_ir(k));
  plan_buffers(k);
  dump("plan_buffers", print_ir(k));
  assign_stages(k);
  dump("assign_stages", print_ir(k));
  size_tiles(k);
  dump("size_tiles", print_ir(k));
  plan_chunks(k);
  dump("plan_chunks", print_ir(k));
  split_cores(k);
  dump("split_cores", print_ir(k));
  std::string err;
  const std::string helpers = prelude_text("kgen_tile.h", err);
  if (!err.empty()) {
    diags.error({}, err);
    return r;
  }
  r.files = project_files(k, emit_kernel(k), emit_tiling_header(k), emit_host(k), emit_json(k));
  r.files["op_kernel/kgen_tile.h"] = helpers;
  std::string all;
  for (const auto& [path, text] : r.files)
    if (path.find("kgen_tile") == std::string::npos) all += "=== " + path + "\n" + text;
  dump("emit", all);
  r.ok = true;
  return r;
}
}  // namespace kgen::tile
