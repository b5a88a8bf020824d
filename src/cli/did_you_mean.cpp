// "Did you mean" hints for the command line (did_you_mean.h).
#include "cli/did_you_mean.h"

#include "tile/diag.h"

namespace kgen::cli {
namespace {
std::string path_of(const CLI::App* a) {
  std::string p;
  for (; a; a = a->get_parent()) p = a->get_parent() ? " " + a->get_name() + p : "kgen" + p;
  return p;
}

CLI::Option* find_option(CLI::App* a, const std::string& name) {
  for (; a; a = a->get_parent())
    if (CLI::Option* o = a->get_option_no_throw(name)) return o;
  return nullptr;
}
}  // namespace

std::string usage_hint(CLI::App& app, const std::vector<std::string>& args) {
  CLI::App* cur = &app;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    if (a.size() > 2 && a.rfind("--", 0) == 0) {
      const size_t eq = a.find('=');
      const std::string name = a.substr(0, eq);
      if (name == "--help" || name == "--version") continue;
      if (CLI::Option* o = find_option(cur, name)) {
        if (eq == std::string::npos && o->get_items_expected_min() > 0) i += o->get_items_expected_min();
        continue;
      }
      std::vector<std::string> known;
      for (CLI::App* p = cur; p; p = p->get_parent())
        for (CLI::Option* o : p->get_options())
          for (const std::string& l : o->get_lnames()) known.push_back("--" + l);
      const std::string near = tile::closest(name, known);   // the tile compiler's "did you mean" (diag.h)
      return path_of(cur) + ": unknown option '" + name + "'" + (near.empty() ? "" : " — did you mean '" + near + "'?") +
             " (" + path_of(cur) + " --help lists the options)";
    }
    if (a.size() > 1 && a[0] == '-') continue;   // a short option or a negative number
    const auto subs = cur->get_subcommands([](CLI::App*) { return true; });
    if (subs.empty()) continue;                  // a positional argument of a leaf command
    CLI::App* next = nullptr;
    std::vector<std::string> names;
    for (CLI::App* s : subs) {
      if (s->check_name(a)) next = s;
      names.push_back(s->get_name());
    }
    if (next) {
      cur = next;
      continue;
    }
    if (!cur->get_options([](CLI::Option* o) { return o->get_positional(); }).empty()) continue;
    const std::string near = tile::closest(a, names);
    return path_of(cur) + ": unknown command '" + a + "'" + (near.empty() ? "" : " — did you mean '" + near + "'?") +
           " (" + path_of(cur) + " --help lists the commands)";
  }
  return "";
}
}  // namespace kgen::cli
