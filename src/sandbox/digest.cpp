// SHA-256 digests through OpenSSL's EVP interface (digest.h).
#include "sandbox/digest.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace kgen {
Digest::Digest() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot start a SHA-256 digest");
}

Digest::~Digest() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

Digest& Digest::add(const void* bytes, size_t n) {
  if (done_) throw std::logic_error("Digest::add after hex()");
  if (n && EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), bytes, n) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 update failed");
  return *this;
}

Digest& Digest::add(const std::string& field) {
  unsigned char len[8];
  uint64_t n = field.size();
  for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(n >> (8 * i));   // little-endian, any host
  add(len, sizeof len);
  return add(field.data(), field.size());
}

std::string Digest::hex(size_t chars) {
  if (done_) throw std::logic_error("Digest::hex called twice");
  done_ = true;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), md, &len) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 final failed");
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len && out.size() < chars; ++i) {
    out += d[md[i] >> 4];
    out += d[md[i] & 15];
  }
  out.resize(std::min(out.size(), chars));
  return out;
}

std::string sha256_hex(const std::string& s, size_t chars) {
  Digest d;
  d.add(s.data(), s.size());
  return d.hex(chars);
}
}  // namespace kgen
