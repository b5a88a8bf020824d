// The ACL runtime subset of include/ascendc/acl/acl.h. One emulated device; device memory is GM registered for
// the kernels' bounds checks (GmAlloc); streams and contexts are tokens, since launches run synchronously.
// Misuse returns CANN's error codes and prints a one-line reason on stderr.
#include "acl/acl.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "sim/gm.h"

namespace AscendC {
void* GmAlloc(size_t size);
void GmFree(void* ptr);
}  // namespace AscendC

namespace {
bool g_inited = false;
std::set<void*>& streams() { static std::set<void*> s; return s; }
std::set<void*>& contexts() { static std::set<void*> s; return s; }
std::set<void*>& host_blocks() { static std::set<void*> s; return s; }
constexpr int32_t kDevices = 8;

aclError bad(const char* api, const char* why, aclError code = ACL_ERROR_INVALID_PARAM) {
  std::fprintf(stderr, "kgen: %s: %s (returns %d)\n", api, why, code);
  return code;
}

// A device range [p, p+n) must lie inside one aclrtMalloc'ed block.
bool device_range(const void* p, size_t n) {
  uintptr_t base;
  uint64_t size;
  if (!p || !kgen::sim::gm_find(p, base, size)) return false;
  return reinterpret_cast<uintptr_t>(p) + n <= base + size;
}
bool is_device(const void* p) {
  uintptr_t base;
  uint64_t size;
  return p && kgen::sim::gm_find(p, base, size);
}
}  // namespace

extern "C" {
aclError aclInit(const char* configPath) {
  if (g_inited) return bad("aclInit", "called twice without aclFinalize", ACL_ERROR_REPEAT_INITIALIZE);
  if (configPath && *configPath) {
    std::FILE* f = std::fopen(configPath, "r");
    if (!f) return bad("aclInit", "the config file cannot be read");
    std::fclose(f);
  }
  g_inited = true;
  return ACL_SUCCESS;
}
aclError aclFinalize() {
  g_inited = false;
  return ACL_SUCCESS;
}
aclError aclrtSetDevice(int32_t deviceId) {
  if (deviceId < 0 || deviceId >= kDevices) return bad("aclrtSetDevice", "deviceId is outside [0, 7]");
  return ACL_SUCCESS;
}
aclError aclrtResetDevice(int32_t deviceId) {
  if (deviceId < 0 || deviceId >= kDevices) return bad("aclrtResetDevice", "deviceId is outside [0, 7]");
  return ACL_SUCCESS;
}
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (!context) return bad("aclrtCreateContext", "context is null");
  if (deviceId < 0 || deviceId >= kDevices) return bad("aclrtCreateContext", "deviceId is outside [0, 7]");
  void* c = std::malloc(1);
  contexts().insert(c);
  *context = c;
  return ACL_SUCCESS;
}
aclError aclrtDestroyContext(aclrtContext context) {
  if (!contexts().erase(context)) return bad("aclrtDestroyContext", "not a context from aclrtCreateContext");
  std::free(context);
  return ACL_SUCCESS;
}
aclError aclrtCreateStream(aclrtStream* stream) {
  if (!stream) return bad("aclrtCreateStream", "stream is null");
  void* s = std::malloc(1);
  streams().insert(s);
  *stream = s;
  return ACL_SUCCESS;
}
aclError aclrtDestroyStream(aclrtStream stream) {
  if (!streams().erase(stream)) return bad("aclrtDestroyStream", "not a stream from aclrtCreateStream");
  std::free(stream);
  return ACL_SUCCESS;
}
aclError aclrtSynchronizeStream(aclrtStream stream) {
  // nullptr is the default stream; launches already finished when they returned
  if (stream && !streams().count(stream)) return bad("aclrtSynchronizeStream", "not a stream from aclrtCreateStream");
  return ACL_SUCCESS;
}
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;
  if (!devPtr) return bad("aclrtMalloc", "devPtr is null");
  if (size == 0) return bad("aclrtMalloc", "size is 0");
  void* p = AscendC::GmAlloc(size);
  if (!p) return bad("aclrtMalloc", "out of memory", ACL_ERROR_BAD_ALLOC);
  *devPtr = p;
  return ACL_SUCCESS;
}
aclError aclrtMallocHost(void** hostPtr, size_t size) {
  if (!hostPtr) return bad("aclrtMallocHost", "hostPtr is null");
  if (size == 0) return bad("aclrtMallocHost", "size is 0");
  void* p = std::aligned_alloc(64, (size + 63) / 64 * 64);
  if (!p) return bad("aclrtMallocHost", "out of memory", ACL_ERROR_BAD_ALLOC);
  host_blocks().insert(p);
  *hostPtr = p;
  return ACL_SUCCESS;
}
aclError aclrtFree(void* devPtr) {
  uintptr_t base;
  uint64_t size;
  if (!devPtr || !kgen::sim::gm_find(devPtr, base, size) || base != reinterpret_cast<uintptr_t>(devPtr))
    return bad("aclrtFree", "not the start of a block from aclrtMalloc");
  AscendC::GmFree(devPtr);
  return ACL_SUCCESS;
}
aclError aclrtFreeHost(void* hostPtr) {
  if (!host_blocks().erase(hostPtr)) return bad("aclrtFreeHost", "not a block from aclrtMallocHost");
  std::free(hostPtr);
  return ACL_SUCCESS;
}
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  if (!dst || !src) return bad("aclrtMemcpy", "dst or src is null");
  if (count > destMax) return bad("aclrtMemcpy", "count is larger than destMax");
  bool dst_dev, src_dev;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: dst_dev = false; src_dev = false; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: dst_dev = true; src_dev = false; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: dst_dev = false; src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: dst_dev = true; src_dev = true; break;
    case ACL_MEMCPY_DEFAULT: dst_dev = is_device(dst); src_dev = is_device(src); break;
    default: return bad("aclrtMemcpy", "unknown aclrtMemcpyKind");
  }
  if (dst_dev && !device_range(dst, count))
    return bad("aclrtMemcpy", "dst is not device memory from aclrtMalloc, or count runs past the end of its block");
  if (src_dev && !device_range(src, count))
    return bad("aclrtMemcpy", "src is not device memory from aclrtMalloc, or count runs past the end of its block");
  if (!dst_dev && is_device(dst)) return bad("aclrtMemcpy", "dst is device memory but kind says host");
  if (!src_dev && is_device(src)) return bad("aclrtMemcpy", "src is device memory but kind says host");
  std::memmove(dst, src, count);
  return ACL_SUCCESS;
}
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (!devPtr) return bad("aclrtMemset", "devPtr is null");
  if (count > maxCount) return bad("aclrtMemset", "count is larger than maxCount");
  if (is_device(devPtr) && !device_range(devPtr, count))
    return bad("aclrtMemset", "count runs past the end of the aclrtMalloc'ed block");
  std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}
}  // extern "C"
