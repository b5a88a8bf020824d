// SgdMomentumCustom, kernel side: each vector core takes its share of the elements (32-byte aligned start) and
// streams it through UB in double-buffered tiles: CopyIn of param / grad / momentum_buf, the update in float,
// CopyOut of new_param / new_buf. float16 and bfloat16 tiles are cast to float first (bfloat16 has no vector
// arithmetic on the 910B, and the result must be rounded once, like the float reference) and cast back.
// The input's tail (not a whole 32-byte block) moves with DataCopyPad.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSgdMomentum {
public:
    __aicore__ inline KernelSgdMomentum() {}
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR momentumBuf, GM_ADDR newParam, GM_ADDR newBuf,
                                uint32_t totalLength, uint32_t formerNum, uint32_t formerLength, uint32_t tailLength,
                                uint32_t tileLength, float lr, float momentum, float weightDecay)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t offset;
        if (idx < formerNum) {
            offset = idx * formerLength;
            coreLength = formerLength;
        } else {
            offset = formerNum * formerLength + (idx - formerNum) * tailLength;
            coreLength = tailLength;
        }
        if (offset + coreLength > totalLength) {
            coreLength = totalLength - offset;   // the last core ends inside a 32-byte block
        }
        this->tileLength = tileLength;
        this->lr = lr;
        this->momentum = momentum;
        this->weightDecay = weightDecay;
        paramGm.SetGlobalBuffer((__gm__ T*)param + offset, coreLength);
        gradGm.SetGlobalBuffer((__gm__ T*)grad + offset, coreLength);
        bufGm.SetGlobalBuffer((__gm__ T*)momentumBuf + offset, coreLength);
        newParamGm.SetGlobalBuffer((__gm__ T*)newParam + offset, coreLength);
        newBufGm.SetGlobalBuffer((__gm__ T*)newBuf + offset, coreLength);
        pipe.InitBuffer(inQueueParam, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueGrad, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueBuf, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueNewParam, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueNewBuf, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (!IsFloat()) {
            pipe.InitBuffer(paramF, tileLength * sizeof(float));
            pipe.InitBuffer(gradF, tileLength * sizeof(float));
            pipe.InitBuffer(bufF, tileLength * sizeof(float));
            pipe.InitBuffer(newParamF, tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        uint32_t tileNum = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t len = (i == tileNum - 1) ? coreLength - i * tileLength : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    static constexpr bool IsFloat() { return sizeof(T) == sizeof(float); }
    __aicore__ inline bool Aligned(uint32_t len) const { return (len * sizeof(T)) % 32 == 0; }
    __aicore__ inline void CopyTileIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                      uint32_t len)
    {
        if (Aligned(len)) {
            AscendC::DataCopy(dst, src, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    __aicore__ inline void CopyTileOut(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                       uint32_t len)
    {
        if (Aligned(len)) {
            AscendC::DataCopy(dst, src, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams);   // writes exactly len elements
        }
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> paramLocal = inQueueParam.AllocTensor<T>();
        CopyTileIn(paramLocal, paramGm[progress * tileLength], len);
        inQueueParam.EnQue(paramLocal);
        AscendC::LocalTensor<T> gradLocal = inQueueGrad.AllocTensor<T>();
        CopyTileIn(gradLocal, gradGm[progress * tileLength], len);
        inQueueGrad.EnQue(gradLocal);
        AscendC::LocalTensor<T> bufLocal = inQueueBuf.AllocTensor<T>();
        CopyTileIn(bufLocal, bufGm[progress * tileLength], len);
        inQueueBuf.EnQue(bufLocal);
    }
    // The update on float tensors, in the reference's order of operations:
    //   d = grad + wd * param;  newBuf = momentum * buf + d;  newParam = param - lr * newBuf.
    // newParam doubles as the scratch for d; buf may be newBuf (in place).
    __aicore__ inline void Update(const AscendC::LocalTensor<float>& newParam, const AscendC::LocalTensor<float>& newBuf,
                                  const AscendC::LocalTensor<float>& param, const AscendC::LocalTensor<float>& grad,
                                  const AscendC::LocalTensor<float>& buf, uint32_t len)
    {
        AscendC::Muls(newParam, param, weightDecay, len);
        AscendC::Muls(newBuf, buf, momentum, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Add(newParam, grad, newParam, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Add(newBuf, newBuf, newParam, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(newParam, newBuf, lr, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Sub(newParam, param, newParam, len);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> paramLocal = inQueueParam.DeQue<T>();
        AscendC::LocalTensor<T> gradLocal = inQueueGrad.DeQue<T>();
        AscendC::LocalTensor<T> bufLocal = inQueueBuf.DeQue<T>();
        AscendC::LocalTensor<T> newParamLocal = outQueueNewParam.AllocTensor<T>();
        AscendC::LocalTensor<T> newBufLocal = outQueueNewBuf.AllocTensor<T>();
        if constexpr (IsFloat()) {
            Update(newParamLocal, newBufLocal, paramLocal, gradLocal, bufLocal, len);
        } else {
            AscendC::LocalTensor<float> p = paramF.Get<float>();
            AscendC::LocalTensor<float> g = gradF.Get<float>();
            AscendC::LocalTensor<float> b = bufF.Get<float>();
            AscendC::LocalTensor<float> np = newParamF.Get<float>();
            AscendC::Cast(p, paramLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(g, gradLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(b, bufLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::PipeBarrier<PIPE_V>();
            Update(np, b, p, g, b, len);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Cast(newParamLocal, np, AscendC::RoundMode::CAST_RINT, len);
            AscendC::Cast(newBufLocal, b, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueNewParam.EnQue<T>(newParamLocal);
        outQueueNewBuf.EnQue<T>(newBufLocal);
        inQueueParam.FreeTensor(paramLocal);
        inQueueGrad.FreeTensor(gradLocal);
        inQueueBuf.FreeTensor(bufLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> newParamLocal = outQueueNewParam.DeQue<T>();
        CopyTileOut(newParamGm[progress * tileLength], newParamLocal, len);
        outQueueNewParam.FreeTensor(newParamLocal);
        AscendC::LocalTensor<T> newBufLocal = outQueueNewBuf.DeQue<T>();
        CopyTileOut(newBufGm[progress * tileLength], newBufLocal, len);
        outQueueNewBuf.FreeTensor(newBufLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueParam, inQueueGrad, inQueueBuf;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueNewParam, outQueueNewBuf;
    AscendC::TBuf<AscendC::TPosition::VECCALC> paramF, gradF, bufF, newParamF;
    AscendC::GlobalTensor<T> paramGm, gradGm, bufGm, newParamGm, newBufGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float lr = 0;
    float momentum = 0;
    float weightDecay = 0;
};

extern "C" __global__ __aicore__ void sgd_momentum_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR momentum_buf,
                                                          GM_ADDR new_param, GM_ADDR new_buf, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSgdMomentum<DTYPE_PARAM> op;
    op.Init(param, grad, momentum_buf, new_param, new_buf, tilingData.totalLength, tilingData.formerNum,
            tilingData.formerLength, tilingData.tailLength, tilingData.tileLength, tilingData.lr, tilingData.momentum,
            tilingData.weightDecay);
    op.Process();
}
