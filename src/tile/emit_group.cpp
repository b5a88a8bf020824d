// emit (grouped reductions, host side): K of `group=K` from the dims and attrs, the shape checks PyTorch makes
// (channels a multiple of the groups), and the tile rounded to whole groups before the core split.
#include <fmt/format.h>

#include "tile/sema_group.h"

namespace kgen::tile {
std::vector<std::string> group_size_lines(const Kernel& k) {
  std::vector<std::string> out;
  if (k.group.host.empty()) return out;
  auto fail = [&](const std::string& cond, const std::string& msg, const std::string& args) {
    out.push_back(fmt::format("  if ({}) {{", cond));
    out.push_back(fmt::format("    std::fprintf(stderr, \"{}: {}\\n\", {});", k.op_type, msg, args));
    out.push_back("    return ge::GRAPH_FAILED;");
    out.push_back("  }");
  };
  out.push_back(fmt::format("  // Grouped reductions (group={}): the rows come in groups of groupRows consecutive rows, each "
                            "reduced as one; tiles and core ranges hold whole groups.", k.group.text));
  for (int a : k.group.attrs) {
    const std::string v = "group_" + camel_lower(k.attrs[a].name);
    out.push_back(fmt::format("  const int64_t* {}Ptr = context->GetAttrs()->GetAttrPointer<int64_t>({});", v, a));
    out.push_back(fmt::format("  if ({}Ptr == nullptr) return ge::GRAPH_FAILED;", v));
    out.push_back(fmt::format("  const uint64_t {0} = *{0}Ptr < 0 ? 0 : static_cast<uint64_t>(*{0}Ptr);", v));
  }
  for (const auto& [a, b] : k.group.exact)
    fail(fmt::format("{1} == 0 || {0} % {1} != 0", a, b), fmt::format("group={}: %llu is not a multiple of %llu", k.group.text),
         fmt::format("static_cast<unsigned long long>({}), static_cast<unsigned long long>({})", a, b));
  out.push_back(fmt::format("  const uint64_t groupRows = {};", k.group.host));
  fail("groupRows == 0 || total % groupRows != 0",
       fmt::format("%llu rows are not whole groups of group={} = %llu rows", k.group.text),
       "static_cast<unsigned long long>(total), static_cast<unsigned long long>(groupRows)");
  return out;
}

std::vector<std::string> group_tile_lines(const Kernel& k) {
  std::vector<std::string> out;
  if (k.group.host.empty()) return out;
  out.push_back("  tileUnits = tileUnits / groupRows * groupRows;   // whole groups per tile");
  out.push_back("  if (tileUnits == 0) {");
  out.push_back(fmt::format("    std::fprintf(stderr, \"{}: one group of group={} = %llu rows needs more UB than the SoC has\\n\", "
                            "static_cast<unsigned long long>(groupRows));", k.op_type, k.group.text));
  out.push_back("    return ge::GRAPH_FAILED;");
  out.push_back("  }");
  return out;
}
}  // namespace kgen::tile
