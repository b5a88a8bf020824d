// JSON-lines files written whole: every row to a temporary file beside `out`, then renamed into place, so an
// interrupted write never leaves a partial file (kgen data export and kgen data mutate).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kgen::data {
// False with err ("--out F: ...") when the file cannot be written or moved into place; the parent folder is created.
bool write_jsonl(const std::string& out, const std::vector<nlohmann::json>& rows, std::string& err);
}  // namespace kgen::data
