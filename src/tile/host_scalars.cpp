// Scalars computed on the host (host_scalars.h): the AST of a scalar expression back to C++ in the TilingFunc's
// variables. Everything is double on the host; the kernel receives one float per hoisted expression.
#include "tile/host_scalars.h"

#include <fmt/format.h>

#include <cmath>

namespace kgen::tile {
namespace {
// Functions of one scalar and their host form ({} is the argument).
const std::map<std::string, std::string>& unary_host() {
  static const std::map<std::string, std::string> m = {
      {"exp", "std::exp({})"},         {"log", "std::log({})"},
      {"sqrt", "std::sqrt({})"},       {"rsqrt", "(1.0 / std::sqrt({}))"},
      {"abs", "std::fabs({})"},        {"reciprocal", "(1.0 / {})"},
      {"tanh", "std::tanh({})"},       {"sigmoid", "(1.0 / (1.0 + std::exp(-{})))"},
      {"erf", "std::erf({})"},         {"relu", "std::fmax({}, 0.0)"}};
  return m;
}
}  // namespace

bool host_scalar_cpp(const Expr& e, const Kernel& k, const std::map<std::string, const Expr*>& scalar_locals,
                     std::string& out, const Expr*& bad) {
  auto sub = [&](const Expr& x, std::string& s) { return host_scalar_cpp(x, k, scalar_locals, s, bad); };
  switch (e.kind) {
    case ExprKind::Number:
      out = std::isinf(e.number) ? (e.number > 0 ? "HUGE_VAL" : "(-HUGE_VAL)") : fmt::format("{:.17g}", e.number);
      if (out.find_first_of(".eEH") == std::string::npos) out += ".0";   // a double literal
      return true;
    case ExprKind::Name: {
      const std::string& n = e.text;
      if (auto it = scalar_locals.find(n); it != scalar_locals.end()) {
        if (!sub(*it->second, out)) return false;
        out = "(" + out + ")";
        return true;
      }
      for (const AttrArg& a : k.attrs)
        if (a.name == n) {
          out = "static_cast<double>(attr_" + camel_lower(n) + ")";
          return true;
        }
      for (const Sym& s : k.syms)
        if (s.name == n) {
          out = "static_cast<double>(d_" + camel_lower(n) + ")";
          return true;
        }
      if (n == "inf" || n == "true" || n == "false") {
        out = n == "inf" ? "HUGE_VAL" : n == "true" ? "1.0" : "0.0";
        return true;
      }
      break;
    }
    case ExprKind::Unary: {
      std::string a;
      if (e.text != "-" || e.args.size() != 1) break;
      if (!sub(*e.args[0], a)) return false;
      out = "(-" + a + ")";
      return true;
    }
    case ExprKind::Binary: {
      static const std::string ops = "+-*/";
      std::string a, b;
      if (e.args.size() != 2 || (e.text != "**" && (e.text.size() != 1 || ops.find(e.text) == std::string::npos)))
        break;
      if (!sub(*e.args[0], a) || !sub(*e.args[1], b)) return false;
      out = e.text == "**" ? "std::pow(" + a + ", " + b + ")" : "(" + a + " " + e.text + " " + b + ")";
      return true;
    }
    case ExprKind::Call: {
      const auto& u = unary_host();
      if (auto it = u.find(e.text); it != u.end() && e.args.size() == 1 && e.kwargs.empty()) {
        std::string a;
        if (!sub(*e.args[0], a)) return false;
        out = it->second;
        out.replace(out.find("{}"), 2, a);
        return true;
      }
      if ((e.text == "max" || e.text == "min") && e.args.size() == 2 && e.kwargs.empty()) {
        std::string a, b;
        if (!sub(*e.args[0], a) || !sub(*e.args[1], b)) return false;
        out = "std::f" + e.text + "(" + a + ", " + b + ")";
        return true;
      }
      if (e.text == "cast" && e.args.size() == 2) return sub(*e.args[0], out);   // the host computes in double
      break;
    }
    default: break;
  }
  bad = &e;
  return false;
}

std::string add_host_scalar(Kernel& k, const std::string& host, const std::string& text) {
  for (const HostScalar& h : k.host_scalars)   // the same expression twice is one field
    if (h.host_expr == host) return h.field + "_";
  const std::string field = fmt::format("hostScalar{}", k.host_scalars.size());
  k.host_scalars.push_back({field, host, text});
  return field + "_";
}
}  // namespace kgen::tile
