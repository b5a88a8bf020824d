// `kgen data` (data_cmd.h).
#include "cli/data_cmd.h"

#include <iostream>
#include <memory>

#include "data/build.h"
#include "data/export.h"
#include "data/mutate.h"

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
  e->add_flag("--any-version", o->any_version, "Export results judged by another kgen version too (by default "
                                              "skipped and counted)");
  e->callback([o, &exit_code] {
    data::ExportSummary s;
    std::string err;
    exit_code = data::export_rows(*o, s, err);
    if (exit_code != 0) std::cerr << "kgen data export: " << err << "\n";
    else std::cout << data::summary_text(*o, s);
  });
  auto m = std::make_shared<data::MutateOptions>();
  auto* mu = d->add_subcommand("mutate", "Error-fix rows without an LLM: faults LLMs make injected into correct op "
                                         "projects and tile programs, kept where kgen flags them, with kgen's "
                                         "diagnostic and the fix");
  std::string fault_help = "Comma-separated faults (default all):";
  for (const auto& f : data::faults()) fault_help += " " + f.name;
  mu->add_option("--candidates", m->candidates, "A bench candidates folder: CATEGORY/NAME/ op projects, "
                                                "CATEGORY/NAME.tile programs (e.g. candidates/ or kernels/)")
      ->required();
  mu->add_option("--suite", m->suite, "Their tasks (default the source tree's tasks/)");
  mu->add_option("--filter", m->filter, "Only tasks whose id contains this");
  mu->add_option("--faults", m->faults, fault_help);
  mu->add_option("--max-per-fault", m->max_per_fault, "Mutants per fault per source (the first sites in file order)")
      ->capture_default_str();
  mu->add_option("--format", m->format, "error-fix (error_code, error_message, fixed_code, explanation) or chat")
      ->capture_default_str();
  mu->add_option("--out", m->out, "The JSON-lines file to write (written whole, then moved into place)")->required();
  mu->add_option("--jobs", m->jobs, "Evaluations at once")->capture_default_str();
  mu->add_option("--soc", m->soc, "SoC profile of the evaluations")->capture_default_str();
  mu->add_option("--timeout", m->timeout_s, "Wall-clock limit of one run of a mutant, seconds")->capture_default_str();
  mu->callback([m, &exit_code] {
    data::MutateSummary s;
    std::string err;
    exit_code = data::mutate_rows(*m, s, err);
    if (exit_code != 0) std::cerr << "kgen data mutate: " << err << "\n";
    else std::cout << data::mutate_summary_text(*m, s);
  });
  auto b = std::make_shared<data::BuildOptions>();
  auto* bu = d->add_subcommand("build", "The whole dataset from the suite, split by task, with its card: sft (tile "
                                        "and compiled AscendC), repair, dpo, the compiler's reasoning, error-fix, "
                                        "and RL prompt rows (verl parquet/JSON lines, TRL)");
  bu->add_option("--out", b->out, "The dataset folder (train/, validation/, test/, README.md, card.json; work/ "
                                  "keeps the stores and intermediate files, reused by a rerun)")->required();
  bu->add_option("--suite", b->suite, "The task suite (default the source tree's tasks/)");
  bu->add_option("--filter", b->filter, "Only tasks whose id contains this");
  bu->add_option("--store", b->stores, "Results stores to export (repeatable; default: evaluate the expert library "
                                       "into OUT/work/expert)");
  bu->add_option("--mutate", b->mutate, "Candidate folders for error-fix rows (repeatable; default candidates/ and "
                                        "kernels/)");
  bu->add_flag("--no-mutate", b->no_mutate, "No error-fix rows");
  bu->add_flag("--any-version", b->any_version, "Export results judged by another kgen version too");
  bu->add_option("--hold-out", b->hold_out, "Test split: kernelbench, multikernelbench, npukernelbench (the tasks "
                                            "whose file cites that benchmark) or a task id prefix (repeatable)");
  bu->add_option("--validation", b->validation, "Fraction of the other tasks in the validation split")
      ->capture_default_str();
  bu->add_option("--seed", b->seed, "Seed of the validation draw")->capture_default_str();
  bu->add_option("--soc", b->soc, "SoC profile of every evaluation and prompt")->capture_default_str();
  bu->add_option("--jobs", b->jobs, "Evaluations at once")->capture_default_str();
  bu->callback([b, &exit_code] {
    data::BuildSummary s;
    std::string err;
    exit_code = data::build_dataset(*b, s, err);
    if (exit_code != 0) std::cerr << "kgen data build: " << err << "\n";
    else std::cout << data::build_summary_text(*b, s);
  });
  return d;
}
}  // namespace kgen::cli
