// GeluCustom, kernel side: exact GELU, y = 0.5 * x * (1 + erf(x / sqrt(2))) (PyTorch's default; the Gelu API is the
// tanh approximation, off by up to 1e-3). Each vector core takes its share of x (32-byte aligned start) and streams
// it through UB in double-buffered tiles; a tile that is not a whole number of 32-byte blocks (the input's tail)
// moves with DataCopyPad. float16 and bfloat16 are widened to float, computed in float and rounded back once.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float INV_SQRT2 = 0.70710678118654752f;

template <typename T>
class KernelGelu {
public:
    __aicore__ inline KernelGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength, uint32_t tmpBytes)
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
            coreLength = totalLength - offset;      // the last core ends inside a 32-byte block
        }
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, coreLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(tmpBuf, tmpBytes);
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
        if constexpr (WIDEN) {
            pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(yFloatBuf, tileLength * sizeof(float));
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
    static constexpr bool WIDEN = sizeof(T) == 2;

    // y = 0.5 * x * (1 + erf(x / sqrt(2))) on float tiles; work holds x / sqrt(2), then y is built in place.
    __aicore__ inline void GeluFloat(const AscendC::LocalTensor<float>& y, const AscendC::LocalTensor<float>& x,
                                     const AscendC::LocalTensor<uint8_t>& tmp, uint32_t len)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::Muls(work, x, INV_SQRT2, len);
        AscendC::Erf(y, work, tmp, len);
        AscendC::Adds(y, y, 1.0f, len);
        AscendC::Mul(y, y, x, len);
        AscendC::Muls(y, y, 0.5f, len);
    }
    __aicore__ inline bool Aligned(uint32_t len) const { return (len * sizeof(T)) % 32 == 0; }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        if (Aligned(len)) {
            AscendC::DataCopy(xLocal, xGm[progress * tileLength], len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[progress * tileLength], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        if constexpr (WIDEN) {
            AscendC::LocalTensor<float> xFloat = xFloatBuf.Get<float>();
            AscendC::LocalTensor<float> yFloat = yFloatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);
            GeluFloat(yFloat, xFloat, tmp, len);
            AscendC::Cast(yLocal, yFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            GeluFloat(yLocal, xLocal, tmp, len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        if (Aligned(len)) {
            AscendC::DataCopy(yGm[progress * tileLength], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[progress * tileLength], yLocal, copyParams);   // writes exactly len elements
        }
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf, workBuf, xFloatBuf, yFloatBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelGelu<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength, tilingData.tmpBytes);
    op.Process();
}
