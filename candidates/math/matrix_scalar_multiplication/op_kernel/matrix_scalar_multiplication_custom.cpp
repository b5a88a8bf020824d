// MatrixScalarMultiplicationCustom, kernel side: C = A * scalar. Each vector core streams its 32-byte aligned
// share of A through double-buffered UB tiles; the last tile of the last core may end inside a 32-byte block and
// moves with DataCopyPad. float32 and float16 multiply natively with Muls; bfloat16 has no vector arithmetic on
// the 910B, so it is widened to float32 in UB, scaled there, and rounded back once (CAST_RINT).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelMatrixScalarMul {
public:
    __aicore__ inline KernelMatrixScalarMul() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR c, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength, float scalar)
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
        this->scalar = scalar;
        aGm.SetGlobalBuffer((__gm__ T*)a + offset, coreLength);
        cGm.SetGlobalBuffer((__gm__ T*)c + offset, coreLength);
        pipe.InitBuffer(inQueueA, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueC, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (IS_BF16) {
            pipe.InitBuffer(floatBuf, tileLength * sizeof(float));
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
    static constexpr bool IS_BF16 = std::is_same<T, bfloat16_t>::value;

    __aicore__ inline bool Aligned(uint32_t len) const { return (len * sizeof(T)) % 32 == 0; }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> aLocal = inQueueA.AllocTensor<T>();
        if (Aligned(len)) {
            AscendC::DataCopy(aLocal, aGm[progress * tileLength], len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(aLocal, aGm[progress * tileLength], copyParams, padParams);
        }
        inQueueA.EnQue(aLocal);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> aLocal = inQueueA.DeQue<T>();
        AscendC::LocalTensor<T> cLocal = outQueueC.AllocTensor<T>();
        if constexpr (IS_BF16) {
            AscendC::LocalTensor<float> wide = floatBuf.Get<float>();
            AscendC::Cast(wide, aLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Muls(wide, wide, scalar, len);
            AscendC::Cast(cLocal, wide, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Muls(cLocal, aLocal, static_cast<T>(scalar), len);
        }
        outQueueC.EnQue<T>(cLocal);
        inQueueA.FreeTensor(aLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> cLocal = outQueueC.DeQue<T>();
        if (Aligned(len)) {
            AscendC::DataCopy(cGm[progress * tileLength], cLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(cGm[progress * tileLength], cLocal, copyParams);   // writes exactly len elements
        }
        outQueueC.FreeTensor(cLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueA;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueC;
    AscendC::TBuf<AscendC::TPosition::VECCALC> floatBuf;     // bfloat16 only: the tile widened to float32
    AscendC::GlobalTensor<T> aGm, cGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    float scalar = 0.0f;
};

extern "C" __global__ __aicore__ void matrix_scalar_multiplication_custom(GM_ADDR A, GM_ADDR C, GM_ADDR workspace,
                                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMatrixScalarMul<DTYPE_A> op;
    op.Init(A, C, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength, tilingData.scalar);
    op.Process();
}
