// The dataset card (card.h).
#include "data/card.h"

#include <fmt/core.h>
#include <set>

#include "data/splits.h"
#include "gen/compact_reference.h"

namespace kgen::data {
namespace {
using nlohmann::json;
const char* const kBuckets[] = {"<512", "512-1k", "1k-2k", "2k-4k", "4k-8k", "8k-16k", "16k-32k", ">=32k"};

// The text a model reads or writes in a row: every string but the provenance (and verl's extra_info).
std::string text_of(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  std::string t;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (it.key() != "provenance" && it.key() != "extra_info") t += text_of(it.value());
  } else if (j.is_array()) {
    for (const auto& x : j) t += text_of(x);
  }
  return t;
}

const char* bucket(size_t tokens) {
  size_t lim = 512;
  for (const char* name : kBuckets) {
    if (tokens < lim || name == kBuckets[7]) return name;
    lim *= 2;
  }
  return kBuckets[7];
}
}  // namespace

void DatasetCard::count(const std::string& kind, const json& row, const std::string& category, int level) {
  const json p = row.contains("provenance") ? row["provenance"] : row.value("extra_info", json::object());
  ++facets["category"][kind][category];
  ++facets["level"][kind][std::to_string(level)];
  if (kind == "error-fix") {
    ++facets["source"][kind]["mutation"];
    ++facets["error class"][kind][p.value("fault", "?")];
    const std::string cat = p.value("error_category", "");
    ++facets["verdict"][kind][p.value("verdict", "?") + (cat.empty() ? "" : "/" + cat)];
  } else {
    ++facets["source"][kind][p.value("source", kind == "rl" ? "suite" : "?")];
  }
  ++tokens[kind][bucket(gen::estimate_tokens(text_of(row)))];
}

json card_json(const DatasetCard& c) {
  json j = c.settings;
  j["tasks"] = c.task_ids;
  j["rows"] = c.rows;
  j["facets"] = c.facets;
  j["token_histogram"] = c.tokens;
  j["skipped"] = c.skipped;
  for (const auto& [f, m] : c.mutants)
    j["mutants"][f] = {{"made", m.made}, {"flagged", m.flagged}, {"exported", m.exported}, {"unflagged", m.unflagged}};
  j["seconds"] = c.seconds;
  return j;
}

std::string card_markdown(const DatasetCard& c) {
  const json& s = c.settings;
  const std::string soc = s.value("soc", "");
  std::string md = fmt::format(
      "# kgen dataset\n\nBuilt by `kgen data build` (kgen {}) from {} on {}: every row backed by a verdict kgen "
      "computed itself (docs/data.md). Speedups are modeled ({}), not measured.\n\n## Splits (by task)\n\n"
      "| split | tasks |",
      s.value("kgen_version", ""), s.value("suite", ""), soc, soc);
  std::set<std::string> kinds;
  for (const auto& [sp, m] : c.rows)
    for (const auto& [k, n] : m) kinds.insert(k);
  for (const auto& k : kinds) md += " " + k + " |";
  md += "\n|---|---|";
  for (size_t i = 0; i < kinds.size(); ++i) md += "---|";
  md += "\n";
  for (const char* sp : kSplitNames) {
    const auto t = c.task_ids.find(sp);
    const auto r = c.rows.find(sp);
    md += fmt::format("| {} | {} |", sp, t == c.task_ids.end() ? 0 : t->second.size());
    for (const auto& k : kinds) {
      const int n = r == c.rows.end() || !r->second.count(k) ? 0 : r->second.at(k);
      md += fmt::format(" {} |", n);
    }
    md += "\n";
  }
  std::string held;
  for (const auto& h : s.value("hold_out", json::array())) held += (held.empty() ? "" : ", ") + h.get<std::string>();
  md += fmt::format("\nHeld out (test): {}. Validation: {:g} % of the other tasks, chosen by the SHA-256 of seed {} "
                    "and the task id. No prompt in any split shows a validation or test task's solution as an "
                    "example.\n",
                    held.empty() ? "none" : held, 100 * s.value("validation", 0.0), s.value("seed", 0));
  for (const auto& [name, per_kind] : c.facets) {
    md += "\n## Rows by " + name + "\n\n";
    for (const auto& [kind, vals] : per_kind) {
      md += "- " + kind + ":";
      for (const auto& [v, n] : vals) md += fmt::format(" {} {};", v, n);
      md += "\n";
    }
  }
  md += "\n## Token lengths (estimated: 1 token per 3.5 characters of the row's text, provenance left out)\n\n";
  for (const auto& [kind, b] : c.tokens) {
    md += "- " + kind + ":";
    for (const char* name : kBuckets)
      if (b.count(name)) md += fmt::format(" {} {};", name, b.at(name));
    md += "\n";
  }
  if (!c.mutants.empty()) {
    md += "\n## Mutants per fault (kgen data mutate)\n\n| fault | made | flagged by kgen | exported | not flagged |\n"
          "|---|---|---|---|---|\n";
    for (const auto& [f, m] : c.mutants)
      md += fmt::format("| {} | {} | {} | {} | {} |\n", f, m.made, m.flagged, m.exported, m.unflagged);
  }
  if (!c.skipped.empty()) {
    md += "\n## Not exported\n\n";
    for (const auto& [why, n] : c.skipped) md += fmt::format("- {}: {}\n", why, n);
  }
  md += fmt::format("\nBuilt in {:.0f} s.\n\n## Files (per split folder)\n\n"
                    "sft.jsonl, repair.jsonl, reasoning.jsonl (chat messages), dpo.jsonl (TRL preference pairs), "
                    "error_fix.jsonl (error_code / error_message / fixed_code / explanation), rl.parquet and rl.jsonl "
                    "(verl: data_source, prompt, ability, reward_model, extra_info), trl_prompts.jsonl (TRL: prompt, "
                    "label).\n",
                    c.seconds);
  return md;
}
}  // namespace kgen::data
