// The dataset card of `kgen data build` (build.h): what each split holds and where every row came from, as
// card.json and README.md. Counts per split and kind; rows by category, level and source, error-fix rows by fault
// and verdict; a token-length histogram per kind (gen/compact_reference.h's estimate over the row's text, provenance
// left out); every row not exported, with the reason.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kgen::data {
struct DatasetCard {
  nlohmann::json settings;                                   // suite, soc, seed, validation, hold_out, stores, version
  std::map<std::string, std::vector<std::string>> task_ids;  // split -> tasks
  std::map<std::string, std::map<std::string, int>> rows;    // split -> kind -> rows
  std::map<std::string, std::map<std::string, std::map<std::string, int>>> facets;   // facet -> kind -> value -> rows
  std::map<std::string, std::map<std::string, int>> tokens;  // kind -> histogram bucket -> rows
  std::map<std::string, int> skipped;                        // reason -> rows not exported
  struct Mutants { int made = 0, flagged = 0, exported = 0, unflagged = 0; };
  std::map<std::string, Mutants> mutants;                    // fault -> kgen data mutate's counts
  double seconds = 0;
  // Counts one row of `kind` of a task in `category` and `level` (facets and tokens; `rows` is counted by the writer).
  void count(const std::string& kind, const nlohmann::json& row, const std::string& category, int level);
};
nlohmann::json card_json(const DatasetCard& c);
std::string card_markdown(const DatasetCard& c);
}  // namespace kgen::data
