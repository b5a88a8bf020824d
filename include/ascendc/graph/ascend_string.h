// CANN graph/ascend_string.h (the part op definitions use): a string owned by GE.
#pragma once
#include <cstddef>
#include <string>

namespace ge {
class AscendString {
 public:
  AscendString() = default;
  ~AscendString() = default;
  AscendString(const char* name) : s_(name ? name : "") {}
  AscendString(const char* name, size_t length) : s_(name ? std::string(name, length) : std::string()) {}
  const char* GetString() const { return s_.c_str(); }
  size_t GetLength() const { return s_.size(); }
  bool operator<(const AscendString& d) const { return s_ < d.s_; }
  bool operator>(const AscendString& d) const { return s_ > d.s_; }
  bool operator<=(const AscendString& d) const { return s_ <= d.s_; }
  bool operator>=(const AscendString& d) const { return s_ >= d.s_; }
  bool operator==(const AscendString& d) const { return s_ == d.s_; }
  bool operator!=(const AscendString& d) const { return s_ != d.s_; }

 private:
  std::string s_;
};
}  // namespace ge
