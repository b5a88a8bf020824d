// A kernel-launch ("Kernel直调") style host: ACL runtime calls and a <<<>>> launch, no CPU-debug API.
// Usage: prog [--short-output]   (--short-output allocates z too small: the kernel's store must be caught)
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"

#define CHECK_ACL(x)                                                                  \
  do {                                                                                \
    aclError __ret = x;                                                               \
    if (__ret != ACL_SUCCESS) {                                                       \
      std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, (int)__ret);    \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength);

int main(int argc, char** argv) {
  bool short_output = argc > 1 && std::strcmp(argv[1], "--short-output") == 0;
  const uint32_t blockDim = 8;
  const uint32_t blockLength = 4 * 256;
  const size_t n = blockDim * blockLength;
  const size_t bytes = n * sizeof(float);

  CHECK_ACL(aclInit(nullptr));
  int32_t deviceId = 0;
  CHECK_ACL(aclrtSetDevice(deviceId));
  aclrtContext context;
  CHECK_ACL(aclrtCreateContext(&context, deviceId));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  float *xHost, *yHost, *zHost;
  CHECK_ACL(aclrtMallocHost((void**)(&xHost), bytes));
  CHECK_ACL(aclrtMallocHost((void**)(&yHost), bytes));
  CHECK_ACL(aclrtMallocHost((void**)(&zHost), bytes));
  for (size_t i = 0; i < n; ++i) { xHost[i] = 0.5f * i; yHost[i] = 7.0f - i; }

  uint8_t *xDevice, *yDevice, *zDevice, *scratch;
  CHECK_ACL(aclrtMalloc((void**)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc((void**)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc((void**)&zDevice, short_output ? bytes - 1024 : bytes, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMalloc((void**)&scratch, bytes, ACL_MEM_MALLOC_HUGE_ONLY));
  CHECK_ACL(aclrtMemcpy(xDevice, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(scratch, bytes, yHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(yDevice, bytes, scratch, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
  CHECK_ACL(aclrtMemset(scratch, bytes, 0, bytes));

  // a launch split over lines, with a nested call and a cast in the arguments
  add_custom<<<blockDim, nullptr, stream>>>(xDevice, yDevice,
                                            (uint8_t*)(zDevice),
                                            static_cast<uint32_t>(blockLength));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  const int line_after_launch = __LINE__;   // launch rewriting must keep line numbers

  CHECK_ACL(aclrtMemcpy(zHost, bytes, zDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  std::vector<float> copy(n);
  CHECK_ACL(aclrtMemcpy(copy.data(), bytes, zHost, bytes, ACL_MEMCPY_HOST_TO_HOST));
  int bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (copy[i] != xHost[i] + yHost[i]) ++bad;

  // misuse is reported through CANN's error codes
  int misuse = 0;
  misuse += aclrtMemcpy(zHost, bytes, zDevice, bytes + 4, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM;
  misuse += aclrtMemcpy(zHost, 2 * bytes, zDevice, bytes + 4, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM;
  misuse += aclrtMemcpy(zHost, bytes, xHost, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_ERROR_INVALID_PARAM;
  misuse += aclrtFree(xHost) == ACL_ERROR_INVALID_PARAM;
  misuse += aclInit(nullptr) == ACL_ERROR_REPEAT_INITIALIZE;

  CHECK_ACL(aclrtFree(xDevice));
  CHECK_ACL(aclrtFree(yDevice));
  CHECK_ACL(aclrtFree(zDevice));
  CHECK_ACL(aclrtFree(scratch));
  CHECK_ACL(aclrtFreeHost(xHost));
  CHECK_ACL(aclrtFreeHost(yHost));
  CHECK_ACL(aclrtFreeHost(zHost));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtDestroyContext(context));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());

  std::printf("launch_style: %d mismatches of %zu, %d/5 misuses reported, line %d\n", bad, n, misuse, line_after_launch);
  return bad == 0 && misuse == 5 && line_after_launch == 56 ? 0 : 1;
}
