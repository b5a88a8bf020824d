// ClampBroadcastCustom, kernel side: y = min(max(x, lo), hi), lo[N] and hi[N] per column. lo and hi are loaded once
// and stay in UB; each vector core streams its rows of x through double-buffered [tileRows, pitch] tiles
// (DataCopyPad, rows padded to 32 bytes). Max and Min run in repeat form per 256-byte column chunk, one repeat per
// row, src1RepStride 0 re-reading the same lo/hi chunk. Max/Min have no bfloat16 form on the 910B: bfloat16 tiles
// are widened to float32 (exact), clamped, and narrowed back (exact, the values are bfloat16 already).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelClampBroadcast {
    static constexpr bool WIDEN = std::is_same<T, bfloat16_t>::value;
    using CT = typename std::conditional<WIDEN, float, T>::type;       // the type the clamp runs in

public:
    __aicore__ inline KernelClampBroadcast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR y, uint32_t cols, uint32_t pitch,
                                uint32_t formerNum, uint32_t formerRows, uint32_t tailRows, uint32_t tileRows)
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
        loGm.SetGlobalBuffer((__gm__ T*)lo, cols);
        hiGm.SetGlobalBuffer((__gm__ T*)hi, cols);
        pipe.InitBuffer(loQueue, 1, pitch * sizeof(T));
        pipe.InitBuffer(hiQueue, 1, pitch * sizeof(T));
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * pitch * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * pitch * sizeof(T));
        if constexpr (WIDEN) {
            pipe.InitBuffer(boundFloatBuf, 2 * pitch * sizeof(float));
            pipe.InitBuffer(tileFloatBuf, tileRows * pitch * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (coreRows == 0) {
            return;
        }
        AscendC::LocalTensor<T> loLocal = LoadRow(loQueue, loGm);
        AscendC::LocalTensor<T> hiLocal = LoadRow(hiQueue, hiGm);
        if constexpr (WIDEN) {
            loBound = boundFloatBuf.Get<float>();
            hiBound = loBound[pitch];
            AscendC::Cast(loBound, loLocal, AscendC::RoundMode::CAST_NONE, cols);
            AscendC::Cast(hiBound, hiLocal, AscendC::RoundMode::CAST_NONE, cols);
        } else {
            loBound = loLocal;
            hiBound = hiLocal;
        }
        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            CopyIn(i, rows);
            Compute(rows);
            CopyOut(i, rows);
        }
        loQueue.FreeTensor(loLocal);
        hiQueue.FreeTensor(hiLocal);
    }

private:
    __aicore__ inline AscendC::LocalTensor<T> LoadRow(AscendC::TQue<AscendC::QuePosition::VECIN, 1>& queue,
                                                      const AscendC::GlobalTensor<T>& gm)
    {
        AscendC::LocalTensor<T> local = queue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(local, gm, copyParams, padParams);
        queue.EnQue(local);
        return queue.DeQue<T>();
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        // rows contiguous GM runs of cols elements; each lands on a UB row of pitch elements. bfloat16 rows are
        // zero-padded, because the widening Cast reads whole rows.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{WIDEN, 0, static_cast<uint8_t>(WIDEN ? pitch - cols : 0), 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Clamp(const AscendC::LocalTensor<CT>& dst, const AscendC::LocalTensor<CT>& src,
                                 uint32_t rows)
    {
        constexpr uint32_t perRepeat = 256 / sizeof(CT);          // elements one repeat processes
        uint32_t rowBlocks = pitch * sizeof(CT) / 32;                // UB row pitch in blocks
        if (rowBlocks <= 255) {
            AscendC::BinaryRepeatParams params(1, 1, 1, static_cast<uint8_t>(rowBlocks),
                                               static_cast<uint8_t>(rowBlocks), 0);
            for (uint32_t c = 0; c < cols; c += perRepeat) {
                uint32_t width = cols - c < perRepeat ? cols - c : perRepeat;
                AscendC::Max(dst[c], src[c], loBound[c], static_cast<uint64_t>(width), static_cast<uint8_t>(rows),
                             params);
                AscendC::Min(dst[c], dst[c], hiBound[c], static_cast<uint64_t>(width), static_cast<uint8_t>(rows),
                             params);
            }
        } else {
            // Rows wider than a repeat stride can express: count-form Max and Min per row.
            for (uint32_t r = 0; r < rows; r++) {
                AscendC::Max(dst[r * pitch], src[r * pitch], loBound, cols);
                AscendC::Min(dst[r * pitch], dst[r * pitch], hiBound, cols);
            }
        }
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (WIDEN) {
            AscendC::LocalTensor<float> wide = tileFloatBuf.Get<float>();
            AscendC::Cast(wide, xLocal, AscendC::RoundMode::CAST_NONE, rows * pitch);
            Clamp(wide, wide, rows);
            AscendC::Cast(yLocal, wide, AscendC::RoundMode::CAST_RINT, rows * pitch);
        } else {
            Clamp(yLocal, xLocal, rows);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> loQueue, hiQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> boundFloatBuf;   // bfloat16 only: lo and hi widened to float32
    AscendC::TBuf<AscendC::TPosition::VECCALC> tileFloatBuf;    // bfloat16 only: the tile widened to float32
    AscendC::LocalTensor<CT> loBound, hiBound;
    AscendC::GlobalTensor<T> xGm, loGm, hiGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t pitch = 0;
    uint32_t tileRows = 0;
};

extern "C" __global__ __aicore__ void clamp_broadcast_custom(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR y,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelClampBroadcast<DTYPE_X> op;
    op.Init(x, lo, hi, y, tilingData.cols, tilingData.pitch, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.tileRows);
    op.Process();
}
