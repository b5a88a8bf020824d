// Frames on the channel pipe (see channel.h for the format).
#include "sandbox/channel.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

namespace kgen::sandbox {
namespace {
constexpr size_t kMaxHeader = 300;

bool token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-';
}
}  // namespace

bool frame_token(const std::string& s) {
  if (s.empty() || s.size() > 128) return false;
  for (char c : s)
    if (!token_char(c)) return false;
  return true;
}

bool FrameParser::feed(const char* p, size_t n, std::vector<Frame>& out) {
  if (!error_.empty()) return false;
  size_t i = 0;
  while (i < n) {
    if (in_payload_) {
      size_t take = std::min(need_, n - i);
      cur_.data.append(p + i, take);
      i += take;
      need_ -= take;
      if (need_ == 0) {
        out.push_back(std::move(cur_));
        cur_ = Frame{};
        in_payload_ = false;
      }
      continue;
    }
    char c = p[i++];
    if (c != '\n') {
      buf_ += c;
      if (buf_.size() > kMaxHeader) {
        error_ = "a frame header longer than " + std::to_string(kMaxHeader) + " bytes";
        return false;
      }
      continue;
    }
    // "KGF1 KIND NAME SIZE"
    std::string h;
    h.swap(buf_);
    std::vector<std::string> w;
    size_t s = 0;
    while (s <= h.size()) {
      size_t e = h.find(' ', s);
      if (e == std::string::npos) e = h.size();
      w.push_back(h.substr(s, e - s));
      s = e + 1;
    }
    if (w.size() != 4 || w[0] != "KGF1" || !frame_token(w[1]) || !frame_token(w[2]) || w[3].empty() ||
        w[3].size() > 15 || w[3].find_first_not_of("0123456789") != std::string::npos) {
      error_ = "not a frame header: '" + h.substr(0, 80) + "'";
      return false;
    }
    cur_.kind = w[1];
    cur_.name = w[2];
    need_ = std::stoull(w[3]);
    if (need_ == 0) {
      out.push_back(std::move(cur_));
      cur_ = Frame{};
    } else {
      in_payload_ = true;
      try {   // one allocation, no copies as it grows
        cur_.data.reserve(std::min(need_, reserve_limit_));
      } catch (const std::bad_alloc&) {   // more than this machine will promise at once: grow as the bytes come
        cur_.data.reserve(std::min<size_t>(need_, 64u << 20));
      }
    }
  }
  return true;
}

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size) {
    ssize_t k = ::write(fd, p, size);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    size -= static_cast<size_t>(k);
  }
  return true;
}

bool write_frame_head(int fd, const std::string& kind, const std::string& name, size_t size) {
  if (!frame_token(kind) || !frame_token(name)) return false;
  std::string h = "KGF1 " + kind + " " + name + " " + std::to_string(size) + "\n";
  return write_all(fd, h.data(), h.size());
}

bool write_frame(int fd, const std::string& kind, const std::string& name, const void* data, size_t size) {
  return write_frame_head(fd, kind, name, size) && write_all(fd, data, size);
}
}  // namespace kgen::sandbox
