// SwishCustom, kernel side: y = x * sigmoid(x) = x / (1 + exp(-x)), one Silu call per tile (the Swish API is the
// beta-scaled form; beta = 1 is Silu). Each vector core takes its share of x (32-byte aligned start) and streams it
// through UB in double-buffered tiles; a tile that is not a whole number of 32-byte blocks (the input's tail) moves
// with DataCopyPad. float16 and bfloat16 are widened to float, computed in float and rounded back once.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSwish {
public:
    __aicore__ inline KernelSwish() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength)
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
        if constexpr (WIDEN) {
            AscendC::LocalTensor<float> xFloat = xFloatBuf.Get<float>();
            AscendC::LocalTensor<float> yFloat = yFloatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Silu(yFloat, xFloat, len);
            AscendC::Cast(yLocal, yFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Silu(yLocal, xLocal, len);
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
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xFloatBuf, yFloatBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void swish_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSwish<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength);
    op.Process();
}
