// SHA-256 digests (OpenSSL) for every key that decides whether a result or a build is reused: the results store's
// task and candidate hashes, the op build and tile caches, the LLM reply cache. A hostile candidate cannot be made to
// share another's key, so it never inherits another candidate's stored verdict or compiled library (FNV-1a, used
// before, is forged in seconds). Fields are length-prefixed: ("ab", "c") and ("a", "bc") differ.
#pragma once
#include <cstddef>
#include <string>

namespace kgen {
class Digest {
 public:
  Digest();
  ~Digest();
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;
  Digest& add(const std::string& field);              // one field: its length, then its bytes
  Digest& add(const void* bytes, size_t n);           // raw bytes, no length
  // The first `chars` hex digits of the SHA-256 (64 = all of it). Ends the digest: add() after hex() is an error.
  std::string hex(size_t chars = 64);

 private:
  void* ctx_;   // EVP_MD_CTX
  bool done_ = false;
};
// SHA-256 of one string, hex (first `chars` digits).
std::string sha256_hex(const std::string& s, size_t chars = 64);
}  // namespace kgen
