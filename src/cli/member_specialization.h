// Explicit specializations of member templates written inside their class, which bisheng's clang accepts (CWG 727)
// and g++ refuses ("explicit specialization in non-namespace scope"); inlined Catlass kernels dispatch on the core type
// that way. Rewritten to forms g++ takes, with the same meaning: constrained overloads for member functions, partial
// specializations on a tag parameter for member classes.
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
}  // namespace kgen::cli
