// JSON-lines files written whole: every row to a temporary file beside `out`, then renamed into place, so an
// interrupted write never leaves a partial file (kgen data export and kgen data mutate).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kgen::data {
// Writes `bytes` to a temporary file beside `out`, then renames it into place. False with err ("--out F: ...") when
// the file cannot be written or moved; the parent folder is created.
bool write_whole(const std::string& out, const std::string& bytes, std::string& err);
// Each row one line (write_whole).
bool write_jsonl(const std::string& out, const std::vector<nlohmann::json>& rows, std::string& err);
}  // namespace kgen::data
