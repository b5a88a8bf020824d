// BiasGeluCustom, kernel side: y = gelu(x + bias), exact (erf) GELU, computed in float32 for every dtype. Each
// vector core streams its rows of x through double-buffered [tileRows, pitch] UB tiles (DataCopyPad, each row
// zero-padded to 32 bytes so that whole tiles can be computed at once). bias is widened once to a float32 row and
// added with one repeat-form Add per 256-byte column chunk (one repeat per row, src1RepStride 0). With
// s = v / sqrt(2): gelu(v) = (1 + erf(s)) * s / sqrt(2), which needs only two float32 work tiles.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float INV_SQRT2 = 0.70710678118654752f;

template <typename T>
class KernelBiasGelu {
    static constexpr bool IS_FLOAT = std::is_same<T, float>::value;

public:
    __aicore__ inline KernelBiasGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t cols, uint32_t pitch, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t tileRows, uint32_t erfTmpBytes)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t firstRow;
        if (idx < formerNum) {
            firstRow = idx * formerRows;
            coreRows = formerRows;
        } else {
            firstRow = formerNum * formerRows + (idx - formerNum) * tailRows;
            coreRows = tailRows;
        }
        this->cols = cols;
        this->pitch = pitch;
        this->tileRows = tileRows;
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, cols);
        pipe.InitBuffer(biasQueue, 1, pitch * sizeof(T));
        pipe.InitBuffer(biasFloatBuf, pitch * sizeof(float));
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * pitch * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * pitch * sizeof(T));
        pipe.InitBuffer(vBuf, tileRows * pitch * sizeof(float));
        pipe.InitBuffer(sBuf, tileRows * pitch * sizeof(float));
        pipe.InitBuffer(erfTmpBuf, erfTmpBytes);
    }
    __aicore__ inline void Process()
    {
        if (coreRows == 0) {
            return;
        }
        LoadBias();
        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            CopyIn(i, rows);
            Compute(rows);
            CopyOut(i, rows);
        }
    }

private:
    __aicore__ inline AscendC::DataCopyPadExtParams<T> RowPad() const
    {
        return AscendC::DataCopyPadExtParams<T>{true, 0, static_cast<uint8_t>(pitch - cols), 0};
    }
    __aicore__ inline void LoadBias()
    {
        AscendC::LocalTensor<T> biasLocal = biasQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(biasLocal, biasGm, copyParams, RowPad());
        biasQueue.EnQue(biasLocal);
        biasLocal = biasQueue.DeQue<T>();
        biasFloat = biasFloatBuf.Get<float>();
        if constexpr (IS_FLOAT) {
            AscendC::Adds(biasFloat, biasLocal, 0.0f, pitch);     // a float32 copy that outlives the queue buffer
        } else {
            AscendC::Cast(biasFloat, biasLocal, AscendC::RoundMode::CAST_NONE, pitch);
        }
        biasQueue.FreeTensor(biasLocal);
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        // rows contiguous GM runs of cols elements; each lands on a UB row of pitch elements, the pad zeroed.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, RowPad());
        inQueueX.EnQue(xLocal);
    }
    // v[r, :] = src[r, :] + biasFloat over whole padded rows.
    __aicore__ inline void AddBias(const AscendC::LocalTensor<float>& v, const AscendC::LocalTensor<float>& src,
                                   uint32_t rows)
    {
        constexpr uint32_t perRepeat = 256 / sizeof(float);
        uint32_t rowBlocks = pitch * sizeof(float) / 32;
        if (rowBlocks <= 255) {
            AscendC::BinaryRepeatParams params(1, 1, 1, static_cast<uint8_t>(rowBlocks),
                                               static_cast<uint8_t>(rowBlocks), 0);
            for (uint32_t c = 0; c < pitch; c += perRepeat) {
                uint32_t width = pitch - c < perRepeat ? pitch - c : perRepeat;
                AscendC::Add(v[c], src[c], biasFloat[c], static_cast<uint64_t>(width), static_cast<uint8_t>(rows),
                             params);
            }
        } else {
            for (uint32_t r = 0; r < rows; r++) {         // rows wider than a repeat stride: one add per row
                AscendC::Add(v[r * pitch], src[r * pitch], biasFloat, pitch);
            }
        }
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> v = vBuf.Get<float>();
        AscendC::LocalTensor<float> s = sBuf.Get<float>();
        AscendC::LocalTensor<uint8_t> erfTmp = erfTmpBuf.Get<uint8_t>();
        uint32_t count = rows * pitch;
        if constexpr (IS_FLOAT) {
            AddBias(v, xLocal, rows);
        } else {
            AscendC::Cast(v, xLocal, AscendC::RoundMode::CAST_NONE, count);
            AddBias(v, v, rows);
        }
        inQueueX.FreeTensor(xLocal);
        AscendC::Muls(s, v, INV_SQRT2, count);            // s = v / sqrt(2)
        AscendC::Erf(v, s, erfTmp, count);                // v = erf(s)
        AscendC::Adds(v, v, 1.0f, count);
        AscendC::Mul(v, v, s, count);                     // (1 + erf(s)) * s
        if constexpr (IS_FLOAT) {
            AscendC::Muls(yLocal, v, INV_SQRT2, count);
        } else {
            AscendC::Muls(v, v, INV_SQRT2, count);
            AscendC::Cast(yLocal, v, AscendC::RoundMode::CAST_RINT, count);
        }
        outQueueY.EnQue<T>(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(progress) * tileRows * cols], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> biasQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> biasFloatBuf, vBuf, sBuf, erfTmpBuf;
    AscendC::LocalTensor<float> biasFloat;
    AscendC::GlobalTensor<T> xGm, biasGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t pitch = 0;
    uint32_t tileRows = 0;
};

extern "C" __global__ __aicore__ void bias_gelu_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBiasGelu<DTYPE_X> op;
    op.Init(x, bias, y, tilingData.cols, tilingData.pitch, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.tileRows, tilingData.erfTmpBytes);
    op.Process();
}
