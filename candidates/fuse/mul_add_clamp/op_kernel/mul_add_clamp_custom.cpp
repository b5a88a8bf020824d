// MulAddClampCustom, kernel side: y = min(max(a * b + c, lo), hi). Each vector core streams its 32-byte aligned
// share of the elements through double-buffered UB tiles (the input's tail moves with DataCopyPad). float32 and
// int32 compute in place with Mul, Add, Maxs, Mins; float16 is widened to float32 first, because a * b + c in
// half rounds twice and loses everything when a * b nearly cancels c, then rounded back once.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelMulAddClamp {
public:
    __aicore__ inline KernelMulAddClamp() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y, uint32_t totalLength, uint32_t formerNum,
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
        aGm.SetGlobalBuffer((__gm__ T*)a + offset, coreLength);
        bGm.SetGlobalBuffer((__gm__ T*)b + offset, coreLength);
        cGm.SetGlobalBuffer((__gm__ T*)c + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, coreLength);
        pipe.InitBuffer(inQueueA, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueB, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueC, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (IS_HALF) {
            pipe.InitBuffer(floatBuf0, tileLength * sizeof(float));
            pipe.InitBuffer(floatBuf1, tileLength * sizeof(float));
        }
    }
    template <typename S>
    __aicore__ inline void Process(S lo, S hi)
    {
        uint32_t tileNum = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t len = (i == tileNum - 1) ? coreLength - i * tileLength : tileLength;
            CopyIn(i, len);
            Compute(len, lo, hi);
            CopyOut(i, len);
        }
    }

private:
    static constexpr bool IS_HALF = std::is_same<T, half>::value;

    __aicore__ inline void CopyTileIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                      uint32_t len)
    {
        if ((len * sizeof(T)) % 32 == 0) {
            AscendC::DataCopy(dst, src, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        uint32_t start = progress * tileLength;
        AscendC::LocalTensor<T> aLocal = inQueueA.AllocTensor<T>();
        CopyTileIn(aLocal, aGm[start], len);
        inQueueA.EnQue(aLocal);
        AscendC::LocalTensor<T> bLocal = inQueueB.AllocTensor<T>();
        CopyTileIn(bLocal, bGm[start], len);
        inQueueB.EnQue(bLocal);
        AscendC::LocalTensor<T> cLocal = inQueueC.AllocTensor<T>();
        CopyTileIn(cLocal, cGm[start], len);
        inQueueC.EnQue(cLocal);
    }
    template <typename S>
    __aicore__ inline void Compute(uint32_t len, S lo, S hi)
    {
        AscendC::LocalTensor<T> aLocal = inQueueA.DeQue<T>();
        AscendC::LocalTensor<T> bLocal = inQueueB.DeQue<T>();
        AscendC::LocalTensor<T> cLocal = inQueueC.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (IS_HALF) {
            AscendC::LocalTensor<float> acc = floatBuf0.Get<float>();
            AscendC::LocalTensor<float> tmp = floatBuf1.Get<float>();
            AscendC::Cast(acc, aLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(tmp, bLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Mul(acc, acc, tmp, len);
            AscendC::Cast(tmp, cLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Add(acc, acc, tmp, len);
            AscendC::Maxs(acc, acc, lo, len);
            AscendC::Mins(acc, acc, hi, len);
            AscendC::Cast(yLocal, acc, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Mul(yLocal, aLocal, bLocal, len);
            AscendC::Add(yLocal, yLocal, cLocal, len);
            AscendC::Maxs(yLocal, yLocal, lo, len);
            AscendC::Mins(yLocal, yLocal, hi, len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueA.FreeTensor(aLocal);
        inQueueB.FreeTensor(bLocal);
        inQueueC.FreeTensor(cLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        if ((len * sizeof(T)) % 32 == 0) {
            AscendC::DataCopy(yGm[progress * tileLength], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[progress * tileLength], yLocal, copyParams);   // writes exactly len elements
        }
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueA, inQueueB, inQueueC;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floatBuf0, floatBuf1;   // float16 only: float32 working copies
    AscendC::GlobalTensor<T> aGm, bGm, cGm, yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void mul_add_clamp_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMulAddClamp<DTYPE_A> op;
    op.Init(a, b, c, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength);
    if constexpr (std::is_same<DTYPE_A, int32_t>::value) {
        op.Process(tilingData.loInt, tilingData.hiInt);
    } else {
        op.Process(tilingData.loFloat, tilingData.hiFloat);    // float32 math, also for float16 inputs
    }
}
