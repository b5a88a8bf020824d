// A candidate's files, without following links (see candidate_files.h).
#include "eval/candidate_files.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fmt/core.h>
#include <fstream>
#include <sstream>

#include "eval/eval_internal.h"
#include "sandbox/digest.h"
#include "sandbox/process.h"

namespace kgen::eval {
namespace {
namespace fs = std::filesystem;

std::string root_of(const std::string& c) {
  std::error_code ec;
  fs::path p = fs::canonical(c, ec);
  return ec ? c : p.string();
}
CandidateFile entry(const fs::path& p, const std::string& rel) {
  CandidateFile f;
  f.rel = rel;
  f.path = p.string();
  struct stat st{};
  if (::lstat(f.path.c_str(), &st) != 0) {
    f.kind = CandidateFile::Other;
    return f;
  }
  if (S_ISLNK(st.st_mode)) {
    f.kind = CandidateFile::Link;
    std::error_code ec;
    f.link = fs::read_symlink(p, ec).string();
  } else if (S_ISDIR(st.st_mode)) {
    f.kind = CandidateFile::Directory;
  } else if (S_ISREG(st.st_mode)) {
    f.kind = CandidateFile::Regular;
    f.size = static_cast<uint64_t>(st.st_size);
  } else {
    f.kind = CandidateFile::Other;
  }
  return f;
}
}  // namespace

std::vector<CandidateFile> candidate_files(const std::string& candidate) {
  std::vector<CandidateFile> v;
  const std::string root = root_of(candidate);
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    v.push_back(entry(root, ""));
    return v;
  }
  // recursive_directory_iterator does not descend into linked folders; entries are lstat'ed, never followed.
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    v.push_back(entry(it->path(), it->path().lexically_relative(root).string()));   // not fs::relative: it follows links
    if (v.size() > kMaxFiles + 1) break;
  }
  std::sort(v.begin(), v.end(), [](const CandidateFile& a, const CandidateFile& b) { return a.rel < b.rel; });
  return v;
}

std::vector<std::string> refuse_candidate(const std::string& candidate) {
  std::vector<std::string> d;
  auto files = candidate_files(candidate);
  const std::string shown = candidate;
  auto name = [&](const CandidateFile& f) { return f.rel.empty() ? shown : shown + "/" + f.rel; };
  if (files.size() > kMaxFiles) {
    d.push_back(fmt::format("error[candidate] {}: more than {} files — a candidate is an op project or one source "
                            "file",
                            shown, kMaxFiles));
    return d;
  }
  uint64_t total = 0;
  for (const CandidateFile& f : files) {
    switch (f.kind) {
      case CandidateFile::Directory:
        continue;
      case CandidateFile::Link:
        d.push_back(fmt::format("error[candidate] {}: is a symbolic link (to {}) — a candidate may hold only its own "
                                "files; copy the file in instead of linking it",
                                name(f), sandbox::utf8_clean(f.link)));
        continue;
      case CandidateFile::Other:
        d.push_back(fmt::format("error[candidate] {}: is not a regular file (a device, pipe or socket) — remove it",
                                name(f)));
        continue;
      case CandidateFile::Regular:
        break;
    }
    total += f.size;
    if (total > kMaxBytes) {
      d.push_back(fmt::format("error[candidate] {}: the candidate is larger than {} MiB", shown, kMaxBytes >> 20));
      return d;
    }
    std::string t = read_text(f.path);
    if (!sandbox::valid_utf8(t))
      d.push_back(fmt::format("error[candidate] {}: is not UTF-8 text ({} bytes{}) — a candidate is source code; "
                              "remove binary files",
                              name(f), f.size, t.find('\0') != std::string::npos ? ", NUL bytes" : ""));
  }
  return d;
}

std::string candidate_hash(const std::string& candidate) {
  Digest h;
  for (const CandidateFile& f : candidate_files(candidate)) {
    if (f.kind == CandidateFile::Directory) continue;
    h.add(f.rel);
    if (f.kind == CandidateFile::Regular) h.add("file").add(read_text(f.path));
    else h.add(f.kind == CandidateFile::Link ? "link" : "other").add(f.link);
  }
  return h.hex();
}

nlohmann::json candidate_sources(const std::string& candidate) {
  nlohmann::json files = nlohmann::json::object();
  for (const CandidateFile& f : candidate_files(candidate)) {
    std::string key = f.rel.empty() ? fs::path(candidate).filename().string() : f.rel;
    if (f.kind == CandidateFile::Directory) continue;
    if (f.kind == CandidateFile::Link) {
      files[key] = "(a symbolic link, not followed)";
      continue;
    }
    if (f.kind == CandidateFile::Other) {
      files[key] = "(not a regular file, not included)";
      continue;
    }
    if (f.size > 256 * 1024) {
      files[key] = fmt::format("({} bytes, not included)", f.size);
      continue;
    }
    std::string t = read_text(f.path);
    files[key] = t.find('\0') != std::string::npos ? fmt::format("(binary file, {} bytes, not included)", f.size)
                                                   : sandbox::utf8_clean(t);
  }
  return files;
}
}  // namespace kgen::eval
