// JSON-lines files written whole (jsonl.h).
#include "data/jsonl.h"

#include <unistd.h>

#include <filesystem>
#include <fmt/core.h>
#include <fstream>

namespace kgen::data {
namespace fs = std::filesystem;

bool write_whole(const std::string& out, const std::string& bytes, std::string& err) {
  std::error_code ec;
  if (fs::path(out).has_parent_path()) fs::create_directories(fs::path(out).parent_path(), ec);
  const std::string tmp = out + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f.flush()) {
      err = fmt::format("--out {}: cannot write it", out);
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, out, ec);
  if (ec) {
    err = fmt::format("--out {}: cannot move the finished file into place: {}", out, ec.message());
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

bool write_jsonl(const std::string& out, const std::vector<nlohmann::json>& rows, std::string& err) {
  std::string text;
  for (const auto& j : rows) text += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  return write_whole(out, text, err);
}
}  // namespace kgen::data
