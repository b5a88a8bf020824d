// kgen perf report TRACE.json [--soc S] [--json] [--timeline OUT.json]
#include "cli/perf_cmd.h"

#include <fmt/core.h>

#include <memory>

#include "perf/model.h"
#include "perf/report.h"

namespace kgen::cli {
namespace {
struct ReportOpts {
  std::string trace, soc = "Ascend910B2", timeline;
  bool json = false;
};
}  // namespace

CLI::App* add_perf_command(CLI::App& app, int& exit_code) {
  auto* perf = app.add_subcommand("perf", "Performance model of the Ascend chip (modeled, not measured)");
  perf->require_subcommand(1);
  auto o = std::make_shared<ReportOpts>();
  auto* rep = perf->add_subcommand("report", "Model one launch from its KGEN_TRACE file: time, pipe utilisation, bound");
  rep->add_option("trace", o->trace, "Trace JSON written with KGEN_TRACE=FILE")->required();
  rep->add_option("--soc", o->soc, "SoC profile name (hardware/*.json) or path")->capture_default_str();
  rep->add_flag("--json", o->json, "Print the report as JSON");
  rep->add_option("--timeline", o->timeline, "Write a Chrome-trace timeline (open in ui.perfetto.dev)");
  rep->callback([o, &exit_code] {
    try {
      perf::Profile p = perf::load_profile(o->soc);
      perf::KTrace t;
      std::string err;
      if (!perf::load_trace_json(o->trace, t, err)) {
        fmt::print(stderr, "kgen perf report: {}\n", err);
        exit_code = 2;
        return;
      }
      perf::Options mo;
      mo.keep_events = !o->timeline.empty();
      perf::Result r = perf::model(t, p, mo);
      fmt::print("{}", o->json ? perf::report_json(r, p) + "\n" : perf::report_text(r, p));
      if (!o->timeline.empty()) {
        if (!perf::write_file(o->timeline, perf::chrome_trace(r, p))) {
          fmt::print(stderr, "kgen perf report: cannot write {}\n", o->timeline);
          exit_code = 2;
          return;
        }
        if (!o->json) fmt::print("  timeline (modeled): {}\n", o->timeline);
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "kgen perf report: {}\n", e.what());
      exit_code = 2;
    }
  });
  return perf;
}
}  // namespace kgen::cli
