// What a candidate is made of, looked at before anything is built: its files are walked without following links,
// and a candidate is refused (compile-error, error[candidate] FILE: why) when it holds a symbolic link, a device,
// pipe or socket, a file that is not UTF-8 text (source code is text; NUL bytes, object files and archives are
// not), or more than kMaxFiles files / kMaxBytes bytes. Nothing outside the candidate is ever read: not by the
// compiler (the sandbox binds only the candidate folder), not by the report (candidate_sources), not by the hash.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kgen::eval {
constexpr size_t kMaxFiles = 2000;
constexpr uint64_t kMaxBytes = 64ull << 20;

struct CandidateFile {
  std::string rel;        // path relative to the candidate folder ("" for a single-file candidate)
  std::string path;       // full path
  enum Kind { Regular, Directory, Link, Other } kind = Regular;
  uint64_t size = 0;
  std::string link;       // a link's target (never followed)
};
// The entries under a folder (or the one file), sorted by path. The candidate path itself may be a link (the bench's
// candidates folder may link to a checkout); it is resolved once, its contents never.
std::vector<CandidateFile> candidate_files(const std::string& candidate);
// Diagnostics refusing the candidate; empty when it may be built.
std::vector<std::string> refuse_candidate(const std::string& candidate);
// SHA-256 over every entry (relative path, kind, content or link target; sandbox/digest.h): the store's candidate
// hash, which no other candidate can be made to share.
std::string candidate_hash(const std::string& candidate);
// The text files of a candidate (relative path -> content; large or binary files replaced by a note, links named).
nlohmann::json candidate_sources(const std::string& candidate);
}  // namespace kgen::eval
