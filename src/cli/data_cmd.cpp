// `kgen data` (data_cmd.h).
#include "cli/data_cmd.h"

#include <iostream>
#include <memory>

#include "data/export.h"

namespace kgen::cli {
CLI::App* add_data_command(CLI::App& app, int& exit_code) {
  auto* d = app.add_subcommand("data", "Training data from what kgen has evaluated (docs/data.md)");
  d->require_subcommand(1);
  auto o = std::make_shared<data::ExportOptions>();
  auto* e = d->add_subcommand("export", "Rows for SFT (sft, repair) or DPO from a results store, every one backed by "
                                        "kgen's verdict, as JSON lines");
  e->add_option("--store", o->store, "Results store: a SQLite file (kgen bench writes OUT/results.db) or a postgresql:// URL")->required();
  e->add_option("--format", o->format, "chat (messages), sharegpt, alpaca; or dpo (TRL preference pairs)")
      ->capture_default_str();
  e->add_option("--kinds", o->kinds, "Of chat/sharegpt/alpaca: sft, repair, or both (comma-separated)")
      ->capture_default_str();
  e->add_option("--out", o->out, "The JSON-lines file to write (written whole, then moved into place)")->required();
  e->add_option("--suite", o->suite, "The tasks of the store's results (default the source tree's tasks/)");
  e->add_option("--dpo-margin", o->dpo_margin, "DPO: a correct reply is rejected when the chosen one's modeled "
                                               "speedup is at least this many times higher")
      ->capture_default_str();
  e->callback([o, &exit_code] {
    data::ExportSummary s;
    std::string err;
    exit_code = data::export_rows(*o, s, err);
    if (exit_code != 0) std::cerr << "kgen data export: " << err << "\n";
    else std::cout << data::summary_text(*o, s);
  });
  return d;
}
}  // namespace kgen::cli
