// What bisheng's clang accepts in kernel code and `kgen cc`'s g++ -std=c++20 does not, rewritten to forms g++ takes
// with the same meaning before it compiles the file (lines keep their numbers; comments, strings and preprocessor
// lines are left alone; `changed` tells whether anything was rewritten):
// - explicit specializations of member templates inside their class (CWG 727, refused by g++ as "explicit
//   specialization in non-namespace scope"); inlined Catlass kernels dispatch on the core type that way;
// - C++17's aggregates: bisheng compiles kernels as C++17 (asc-devkit ascendc_compile_v220.py: -std=c++17), where a
//   class whose constructors are all `= default` is still an aggregate; C++20 (P1008) makes it none, so Catlass's
//   `funcList[i] = {this, stageId};` stops compiling.
#pragma once
#include <string>

namespace kgen::cli {
// src with every in-class `template <> R name<ARGS>(PARAMS)` whose class declares the primary `template <HEAD> R
// name(PARAMS)` (one template parameter P) rewritten as `template <HEAD> requires (P == (ARGS)) R name(PARAMS)` (a type
// parameter: std::is_same_v<P, ARGS>): a call that names ARGS, or whose default for P is ARGS, takes the body as
// before, and the unconstrained primary stays for every other P. An in-class `template <> struct NAME<ARGS>` whose
// class declares `template <HEAD> struct NAME` (no pack, as many parameters as ARGS) becomes `template <class
// KgenSpecTag> struct NAME<ARGS, KgenSpecTag>`, the primary `template <HEAD, class KgenSpecTag = void> struct NAME`.
// Comments, strings and preprocessor lines are left alone; lines keep their numbers. `changed` tells whether any was
// rewritten.
std::string rewrite_member_specializations(const std::string& src, bool& changed);
// src with the constructor declarations of every class whose constructors are all public, not explicit, and
// defaulted on their first declaration (`X() = default;`, `X(const X&) = default;`) blanked out: the implicit ones
// are the same, and the class is an aggregate in C++20 too.
std::string rewrite_defaulted_constructors(const std::string& src, bool& changed);
}  // namespace kgen::cli
