// What the tile compiler's unit tests share: checking or compiling a program given as text (named t.tile), and the
// assertions on a diagnostic (file:line:col, message, caret, hint).
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "tile/compile.h"
#include "tile/parser.h"
#include "tile/sema.h"

namespace kgen::tile::test_util {
inline bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

// The program through parse and check: the IR (Kernel) and the rendered diagnostics.
struct Checked {
  bool ok = false;
  std::string diags;
  Kernel k;
};
inline Checked check_src(const std::string& src) {
  Checked c;
  Diags d("t.tile", &src);
  Program p;
  if (parse("t.tile", src, p, d)) c.ok = check(p, "Ascend910B2", c.k, d);
  c.diags = d.render(false);
  return c;
}

// The program through the whole pipeline: the op project's files, the IR after check, the diagnostics.
struct Compiled {
  bool ok = false;
  std::string diags, check_ir;
  CompileResult r;
};
inline Compiled compile(const std::string& src) {
  Compiled c;
  CompileOptions o;
  o.dump = [&](const std::string& p, const std::string& ir) {
    if (p == "check") c.check_ir = ir;
  };
  Diags d("t.tile", &src);
  c.r = compile_program("t.tile", src, o, d);
  c.ok = c.r.ok;
  c.diags = d.render(false);
  return c;
}

// The first error is at `where` ("line:col") with `message`, a caret under the line and `hint` (when not empty).
inline void expect_error(const std::string& src, const std::string& where, const std::string& message,
                         const std::string& hint) {
  Compiled c = compile(src);
  EXPECT_FALSE(c.ok) << src;
  EXPECT_TRUE(contains(c.diags, "t.tile:" + where + ": error: ")) << where << "\n" << c.diags;
  EXPECT_TRUE(contains(c.diags, message)) << message << "\n" << c.diags;
  EXPECT_TRUE(contains(c.diags, "^")) << c.diags;
  if (!hint.empty()) EXPECT_TRUE(contains(c.diags, "hint: ") && contains(c.diags, hint)) << hint << "\n" << c.diags;
}
}  // namespace kgen::tile::test_util
