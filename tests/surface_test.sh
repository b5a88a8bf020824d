#!/usr/bin/env bash
# The kernel API surface is CANN's and no wider: calls CANN accepts must compile here, and the invented calls
# LLMs commonly write must not (so they fail here as they fail with CANN). Each case is one kernel statement
# compiled with `kgen cc -fsyntax-only` inside a fixture with typical tensors.
set -uo pipefail
KGEN=$1
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
pass=0; failn=0

compile() {   # $1: statements; returns g++'s status
  cat > "$TMP/k.cpp" <<K
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR xg, GM_ADDR zg) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQ;
  TQue<QuePosition::VECOUT, 2> outQ;
  TBuf<TPosition::VECCALC> tmpBuf;
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)xg, 1024);
  pipe.InitBuffer(inQ, 2, 1024 * sizeof(float));
  pipe.InitBuffer(outQ, 2, 1024 * sizeof(float));
  pipe.InitBuffer(tmpBuf, 4096);
  LocalTensor<float> x = inQ.AllocTensor<float>();
  LocalTensor<float> z = outQ.AllocTensor<float>();
  LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
  LocalTensor<half> h = tmpBuf.Get<half>();
  int32_t n = 256;
  $1;
}
K
  "$KGEN" cc -fsyntax-only "$TMP/k.cpp" >"$TMP/out" 2>&1
}

accept() {
  if compile "$1"; then pass=$((pass + 1)); else failn=$((failn + 1)); echo "FAIL: CANN accepts, kgen rejects: $1"; head -5 "$TMP/out"; fi
}
reject() {
  if compile "$1"; then failn=$((failn + 1)); echo "FAIL: CANN rejects, kgen accepts: $1"; else pass=$((pass + 1)); fi
}

# --- what CANN accepts
accept 'DataCopy(x, xGm[64], n)'
accept 'DataCopyParams p{4, 8, 0, 0}; DataCopy(x, xGm, p)'
accept 'DataCopyExtParams e{1, 40, 0, 0, 0}; DataCopyPadExtParams<float> pp{false, 0, 0, 0}; DataCopyPad(x, xGm, e, pp)'
accept 'z = x + x'
accept 'Add(z, x, x, n)'
accept 'uint64_t mask = 64; Add(z, x, x, mask, 4, {1, 1, 1, 8, 8, 8})'
accept 'uint64_t mask[2] = {UINT64_MAX, 0}; Mul(z, x, x, mask, 4, {1, 1, 1, 8, 8, 8})'
accept 'Muls(z, x, (float)2.0, n)'
accept 'Adds<float>(z, x, 1.0f, n)'
accept 'Exp(z, x, n)'
accept 'Cast(h, x, RoundMode::CAST_NONE, n)'
accept 'ReduceMax(z, x, tmp.ReinterpretCast<float>(), n, true)'
accept 'ReduceSum<float>(z, x, tmp.ReinterpretCast<float>(), n)'
accept 'Duplicate<float>(z, 0.0f, n)'
accept 'Copy(z, x, 64, 2, {1, 1, 8, 8})'
accept 'AscendCUtils::SetMask<float>(48); Adds(z, x, 1.0f, 64, 1, {1, 1, 8, 8})'
accept 'uint64_t mask[2] = {UINT64_MAX, 0}; Copy(z, x, mask, 1, {1, 1, 8, 8})'
accept 'SetFlag<HardEvent::MTE2_V>(EVENT_ID0); WaitFlag<HardEvent::MTE2_V>(EVENT_ID0)'
accept 'int32_t e = static_cast<int32_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3)); SetFlag<HardEvent::V_MTE3>(e)'
accept 'pipe_barrier(PIPE_ALL)'
accept 'PipeBarrier<PIPE_V>()'
accept 'inQ.EnQue(x); LocalTensor<float> y = inQ.DeQue<float>(); inQ.FreeTensor(y)'
accept 'float v = x.GetValue(0); x.SetValue(1, v)'
accept 'int64_t b = GetBlockIdx() + GetBlockNum()'
accept 'int64_t b = get_block_idx() + get_block_num() + get_subblockid() + get_subblockdim()'
accept 'constexpr half one = 1.0; constexpr bfloat16_t two = 2.0f; static_assert(float(one) + float(two) == 3.0f)'
accept 'LocalTensor<uint8_t> m = tmpBuf.Get<uint8_t>(); Compare(m, x, x, CMPMODE::LT, n)'
accept 'Sigmoid(z, x, n)'
accept 'SetAtomicAdd<float>(); SetAtomicNone()'
# CANN's own spellings: GetTPipePtr and GetSysWorkSpacePtr are global, TEventID is AscendC's, the queue form of
# InitBuffer is a template over the queue type, and the device compiler has a scalar sqrt and abs.
accept 'TEventID e = ::GetTPipePtr()->FetchEventID(HardEvent::V_MTE3); AscendC::TEventID f = e; (void)f'
accept '__gm__ uint8_t* w = ::GetSysWorkSpacePtr(); __gm__ uint8_t* v = AscendC::GetSysWorkSpacePtr(); (void)w; (void)v'
accept 'pipe.InitBuffer<decltype(inQ)>(inQ, 2, 256)'
accept 'float r = sqrt(2.0f) + abs(-1.5f); int32_t i = abs(-3); (void)r; (void)i'
accept 'if ASCEND_IS_AIV { n = 1; } else if ASCEND_IS_NOT_AIC { n = 2; }'

# --- common inventions: CANN has no such member, overload or name
reject 'x.size()'
reject 'Add(z, x, x)'
reject 'DataCopy(x, xGm)'
reject 'Copy(z, x, n)'
reject 'Exp(z, x)'
reject 'Muls(z, x, 2.0, n)'
reject 'Cast(h, x, n)'
reject 'Duplicate(z, 1.0f)'
reject 'auto t = inQ.AllocTensor()'
reject 'LocalTensor<float> t = inQ.DeQue()'
reject 'pipe.InitBuffer(inQ, 2)'
reject 'int64_t d = GetBlockDim()'
reject 'Relu(z, x, n, 0.1f)'
reject 'WholeReduceSum(z, x, n)'
reject 'ReduceSum(z, x, n)'
reject 'x.GetValue(0, 1)'
reject 'xGm.SetGlobalBuffer(xg, 1024)'
reject 'SetFlag(HardEvent::MTE2_V, 0)'
# CANN's untyped DeQue (it returns the buffer's TBufHandle); bisheng's scalar min / max at global scope (NPUKernelBench's
# Catlass answers call them unqualified).
accept 'inQ.EnQue(x); TBufHandle hd = inQ.DeQue(); (void)hd'
accept 'uint32_t m = min(uint32_t(3), uint32_t(n)); int32_t k = max(n, 4); (void)m; (void)k'
# What g++ alone accepts and bisheng refuses (src/cli/bisheng_rules.h).
reject 'pipe.InitBuffer(tmpBuf, 1, 256)'
reject 'if (ASCEND_IS_AIV) { n = 1; }'
reject 'bool cube = ASCEND_IS_AIC; (void)cube'
reject 'float r = std::exp(1.0f); (void)r'
reject 'float r = expf(1.0f) + sqrtf(2.0f); (void)r'
reject 'float r = tanh(0.5f); (void)r'

# A kernel file with its host launch stub (CANN's kernel-launch template keeps one beside the kernel): kgen cc rewrites
# the launch, and the kernel build must find what it becomes.
cat > "$TMP/stub.cpp" <<'K'
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }
#ifndef __CCE_KT_TEST__
void k_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x) { k<<<blockDim, l2ctrl, stream>>>(x); }
#endif
K
if "$KGEN" cc -fsyntax-only "$TMP/stub.cpp" >"$TMP/out" 2>&1; then pass=$((pass + 1));
else failn=$((failn + 1)); echo "FAIL: a kernel file with a host launch stub does not compile"; head -5 "$TMP/out"; fi

echo "surface tests: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
