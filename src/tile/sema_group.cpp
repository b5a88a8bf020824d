// check (grouped reductions): `sum(v, axis=1, group=K)` reduces each row with the K - 1 other rows of its group
// (rows K * (i / K) ... K * (i / K) + K - 1), leaving the group's result in each of its rows' column entries.
#include "tile/sema_group.h"

namespace kgen::tile {
namespace {
const char* kGroupHint = "group= counts rows: an integer, a dim or an i32 attr, or a product or quotient of them "
                         "(group=c / groups)";

// K as host C++ (dims are d_<name>; attrs are read as group_<name> before the split); false after a diagnostic.
bool group_expr(Kernel& k, const Expr& e, std::string& host, Diags& d) {
  if (e.kind == ExprKind::Number) {
    if (!e.is_int || e.number < 1) {
      d.error(e.range, "a group is a whole number of rows, at least 1", kGroupHint);
      return false;
    }
    host = std::to_string(static_cast<int64_t>(e.number)) + "ull";
    return true;
  }
  if (e.kind == ExprKind::Name) {
    for (const Sym& s : k.syms)
      if (s.name == e.text) {
        host = "d_" + camel_lower(s.name);
        return true;
      }
    for (size_t a = 0; a < k.attrs.size(); ++a) {
      if (k.attrs[a].name != e.text) continue;
      if (k.attrs[a].type != DType::I32) {
        d.error(e.range, "attr '" + e.text + "' is not an i32: a group counts rows", kGroupHint);
        return false;
      }
      bool seen = false;
      for (int x : k.group.attrs) seen |= x == static_cast<int>(a);
      if (!seen) k.group.attrs.push_back(static_cast<int>(a));
      host = "group_" + camel_lower(e.text);
      return true;
    }
    d.error(e.range, "'" + e.text + "' is neither a dim nor an attr of the kernel", kGroupHint);
    return false;
  }
  if (e.kind == ExprKind::Binary && (e.text == "*" || e.text == "/") && e.args.size() == 2) {
    std::string a, b;
    if (!group_expr(k, *e.args[0], a, d) || !group_expr(k, *e.args[1], b, d)) return false;
    if (e.text == "/") k.group.exact.push_back({a, b});
    host = "(" + a + (e.text == "*" ? " * " : " / ") + b + ")";
    return true;
  }
  d.error(e.range, "group= takes a count of rows, not '" + print_expr(e) + "'", kGroupHint);
  return false;
}
}  // namespace

bool check_group(Kernel& k, const Expr& kexpr, const Expr& call, int src, Instr& in, Diags& d) {
  const TypeOf t = k.values[src].type;
  if (t.var >= 0 || t.fixed != DType::F32) {   // the groups' partials are folded on the scalar unit, in float
    d.error(call.args[0]->range, "a grouped reduction folds float32 rows",
            "load the tile as f32: v = load(x[" + k.loop_var + ", :], f32)");
    return false;
  }
  const std::string text = print_expr(kexpr);
  if (!k.group.host.empty()) {   // the host rounds tiles to one group size
    if (k.group.text == text) return in.group = true;
    d.error(kexpr.range, "group=" + text + " differs from the kernel's group=" + k.group.text,
            "every grouped reduction of a kernel groups the same rows: group=" + k.group.text);
    return false;
  }
  std::string host;
  if (!group_expr(k, kexpr, host, d)) return false;
  k.group.host = host;
  k.group.text = text;
  in.group = true;
  return true;
}
}  // namespace kgen::tile
