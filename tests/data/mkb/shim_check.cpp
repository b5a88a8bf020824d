// Self-check of kgen's torch shim (include/torch_shim), compiled and run by tests/mkb_test.sh: layout ops on CPU
// storage, factories, the m.def invoker and EXEC_NPU_CMD's argument conversion (against a stub exec_aclnn).
#include <cstdio>
#include <cstdlib>

#include "kgen_torch.h"
#include "runtime/rt_ffts.h"   // included by NPUKernelBench's GMM bindings

static std::vector<kgen::op::BindArg> g_seen;
namespace kgen::op {
std::string exec_aclnn(const std::string& api, std::vector<BindArg>& args, const std::string&) {
  g_seen = args;
  if (api == "aclnnRecordCustom") return "";
  if (api != "aclnnTwiceCustom") return "error[op-def] wrong api " + api;
  // "kernel": out = 2 * x (float)
  auto* x = static_cast<float*>(args[0].data);
  auto* y = static_cast<float*>(args[2].data);
  for (size_t i = 0; i < args[0].bytes / 4; ++i) y[i] = 2 * x[i] + static_cast<float>(args[1].f);
  return "";
}
}  // namespace kgen::op

#define CHECK(c) do { if (!(c)) { std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); std::exit(1); } } while (0)

at::Tensor twice(const at::Tensor& x, double bias) {
  TORCH_CHECK(x.scalar_type() == at::kFloat, "float only, got ", x.scalar_type());
  at::Tensor y = at::empty(x.sizes(), x.options());
  EXEC_NPU_CMD(aclnnTwiceCustom, x, bias, y);
  return y;
}
// What NPUKernelBench's bindings pass: acl objects they make themselves, a str as const char*, a one-element tensor
// for a number, complex64 tensors.
at::Tensor record(const at::Tensor& x, std::vector<int64_t> dims, const at::Tensor& value, double alpha,
                  const char* mode) {
  aclIntArray* dims_acl = ConvertType(at::IntArrayRef(dims));
  aclScalar* v = ConvertTensorToAclScaler(value);
  aclScalar* a = ConvertType(c10::Scalar(alpha));
  at::Tensor y = at::empty(x.sizes(), x.options());
  EXEC_NPU_CMD(aclnnRecordCustom, x, dims_acl, v, a, mode, y);
  return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("twice", &twice, "2x + b");
  m.def("record", &record, "");
}

int main() {
  uint64_t ffts = 0;
  uint32_t ffts_len = 7;
  CHECK(rtGetC2cCtrlAddr(&ffts, &ffts_len) == RT_ERROR_NONE && ffts != 0 && ffts_len == 0);
  // What NPUKernelBench's bindings call: C math through torch's headers (Arange), Tensor::sum (MaskedSelectV3).
  CHECK(ceil(2.25) == 3.0);
  at::Tensor mask = at::empty({5}, at::TensorOptions().dtype(at::kBool));
  for (int i = 0; i < 5; ++i) mask.data_ptr<bool>()[i] = i != 2;
  at::Tensor count = mask.sum();
  CHECK(count.dim() == 0 && count.scalar_type() == at::kLong && count.item<int64_t>() == 4);
  at::Tensor halves = at::empty({3}, at::TensorOptions().dtype(at::kFloat));
  for (int i = 0; i < 3; ++i) halves.data_ptr<float>()[i] = 0.5f * i;
  CHECK(halves.sum().scalar_type() == at::kFloat && halves.sum().item<float>() == 1.5f);
  at::Tensor a = at::empty({2, 3}, at::TensorOptions().dtype(at::kFloat));
  float* p = a.data_ptr<float>();
  for (int i = 0; i < 6; ++i) p[i] = static_cast<float>(i);
  CHECK(a.size(-1) == 3 && a.size(0) == 2 && a.dim() == 2 && a.numel() == 6 && a.is_contiguous());
  at::Tensor t = a.transpose(0, 1);
  CHECK(!t.is_contiguous() && t.size(0) == 3);
  at::Tensor tc = t.contiguous();
  const float* q = tc.data_ptr<float>();
  CHECK(q[0] == 0 && q[1] == 3 && q[2] == 1 && q[5] == 5);
  at::Tensor row = at::empty({1, 3}, a.options());
  for (int i = 0; i < 3; ++i) row.data_ptr<float>()[i] = 10.f * i;
  auto bt = at::broadcast_tensors({a, row});
  at::Tensor be = bt[1].contiguous();
  CHECK(be.size(0) == 2 && be.data_ptr<float>()[4] == 10.f);
  at::Tensor n = a.narrow(1, 1, 2).contiguous();
  CHECK(n.numel() == 4 && n.data_ptr<float>()[0] == 1 && n.data_ptr<float>()[3] == 5);
  std::vector<int64_t> shape(a.sizes().begin(), a.sizes().end());
  CHECK(shape.size() == 2 && shape[1] == 3);
  CHECK(a.view({-1}).size(0) == 6 && a.reshape({3, -1}).size(1) == 2 && a.flatten().dim() == 1);
  at::Tensor h = a.to(at::kHalf).to(at::kFloat);
  CHECK(h.data_ptr<float>()[5] == 5.f);
  at::Tensor f = at::full({4}, 1.5, at::kFloat);
  CHECK(f.data_ptr<float>()[3] == 1.5f && at::zeros_like(f).data_ptr<float>()[0] == 0.f);
  bool threw = false;
  try { TORCH_CHECK(a.dim() == 3, "want 3 dims, got ", a.dim()); } catch (const std::exception& e) {
    threw = std::string(e.what()).find("want 3 dims, got 2") != std::string::npos;
  }
  CHECK(threw);
  // The invoker: BindArgs in, a tensor out, through EXEC_NPU_CMD.
  kgen::op::BindArg x;
  x.kind = kgen::op::BindArg::Tensor; x.shape = {2, 3}; x.dtype = 0; x.data = p; x.bytes = 24;
  kgen::op::BindArg b;
  b.kind = kgen::op::BindArg::Float; b.f = 0.5;
  kgen::op::BindArg args[2] = {x, b};
  std::vector<kgen::op::BindArg> res;
  std::string err;
  CHECK(kgen_bind_call("twice", args, 2, &res, &err) == 0);
  CHECK(res.size() == 1 && res[0].shape == std::vector<int64_t>({2, 3}) && res[0].dtype == 0);
  CHECK(static_cast<float*>(res[0].data)[5] == 10.5f);
  CHECK(g_seen.size() == 3 && g_seen[1].kind == kgen::op::BindArg::Float);
  CHECK(kgen_bind_call("twice", args, 1, &res, &err) != 0 && err.find("takes 2 arguments") != std::string::npos);
  CHECK(kgen_bind_call("nope", args, 2, &res, &err) != 0 && err.find("registered: record, twice") != std::string::npos);
  // The acl objects and conversions of record().
  float cplx[4] = {1, 2, 3, 4};   // two complex64 elements
  kgen::op::BindArg cx;
  cx.kind = kgen::op::BindArg::Tensor; cx.shape = {2}; cx.dtype = 16; cx.data = cplx; cx.bytes = 16;
  kgen::op::BindArg dims;
  dims.kind = kgen::op::BindArg::IntList; dims.ints = {0, -1};
  int32_t seven = 7;
  kgen::op::BindArg val;
  val.kind = kgen::op::BindArg::Tensor; val.shape = {1}; val.dtype = 3; val.data = &seven; val.bytes = 4;
  float half_one = 0.5f;
  kgen::op::BindArg alpha;   // a one-element float tensor where the binding takes a double
  alpha.kind = kgen::op::BindArg::Tensor; alpha.shape = {1}; alpha.dtype = 0; alpha.data = &half_one; alpha.bytes = 4;
  kgen::op::BindArg mode;
  mode.kind = kgen::op::BindArg::Str; mode.s = "sum";
  kgen::op::BindArg rargs[5] = {cx, dims, val, alpha, mode};
  res.clear();
  CHECK(kgen_bind_call("record", rargs, 5, &res, &err) == 0);
  CHECK(g_seen.size() == 6);
  CHECK(g_seen[0].kind == kgen::op::BindArg::Tensor && g_seen[0].dtype == 16 && g_seen[0].bytes == 16);
  CHECK(g_seen[1].kind == kgen::op::BindArg::IntList && g_seen[1].ints == std::vector<int64_t>({0, -1}) &&
        g_seen[1].cpp == "aclIntArray*");
  CHECK(g_seen[2].kind == kgen::op::BindArg::Int && g_seen[2].i == 7 && g_seen[2].cpp == "aclScalar*");
  CHECK(g_seen[3].kind == kgen::op::BindArg::Float && g_seen[3].f == 0.5 && g_seen[3].cpp == "aclScalar*");
  CHECK(g_seen[4].kind == kgen::op::BindArg::Str && g_seen[4].s == "sum");
  CHECK(res.size() == 1 && res[0].dtype == 16 && res[0].bytes == 16);
  kgen::op::BindArg two = alpha;   // a tensor of two elements is no number
  two.shape = {2};
  kgen::op::BindArg bad[5] = {cx, dims, val, two, mode};
  CHECK(kgen_bind_call("record", bad, 5, &res, &err) != 0 && err.find("tensor of 2 elements") != std::string::npos);
  std::printf("shim ok\n");
  return 0;
}
