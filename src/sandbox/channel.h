// The channel: how a sandboxed child returns results (outputs, the pipe trace, its run summary) to the parent.
// A stream of frames on one pipe:
//
//   "KGF1 " KIND " " NAME " " SIZE "\n" <SIZE bytes>
//
// KIND and NAME are 1..128 characters of [A-Za-z0-9_.-] (so a NAME is never a path), SIZE is decimal. Everything in
// a frame is the child's claim: the parent decides what it means (a file name it accepts, an array it parses and
// checks), and nothing a child writes is ever taken as a verdict.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace kgen::sandbox {
struct Frame {
  std::string kind, name, data;
};

// Incremental parser of the parent: feed() bytes as they come; complete frames are appended to `out`. Returns
// false (and sets error) on bytes that are not frames; the stream is then dead.
class FrameParser {
 public:
  // reserve_limit: the most bytes a frame's buffer is sized for up front from its announced size (the reader's own
  // bound on the channel, so a forged size costs no more than the child may send); past it the buffer grows.
  explicit FrameParser(size_t reserve_limit = 64u << 20) : reserve_limit_(reserve_limit) {}
  bool feed(const char* p, size_t n, std::vector<Frame>& out);
  // True when the stream ended between frames (no partial header or payload pending).
  bool clean_end() const { return buf_.empty() && need_ == 0; }
  const std::string& error() const { return error_; }

 private:
  std::string buf_;       // bytes of the current header, or of the current payload
  Frame cur_;
  size_t need_ = 0;       // payload bytes still missing (0: reading a header)
  bool in_payload_ = false;
  size_t reserve_limit_;
  std::string error_;
};

// The child's side: writes whole frames to a file descriptor (blocking, EINTR-safe). False when the write failed.
bool write_frame(int fd, const std::string& kind, const std::string& name, const void* data, size_t size);
inline bool write_frame(int fd, const std::string& kind, const std::string& name, const std::string& data) {
  return write_frame(fd, kind, name, data.data(), data.size());
}
// The same in pieces, for a payload too large to hold whole: the header announcing `size` bytes, then write_all()
// calls that together write exactly that many.
bool write_frame_head(int fd, const std::string& kind, const std::string& name, size_t size);
bool write_all(int fd, const void* data, size_t size);
// Whether `s` is a valid KIND/NAME token.
bool frame_token(const std::string& s);
}  // namespace kgen::sandbox
