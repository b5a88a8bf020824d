// MulRowBroadcastCustom, kernel side: each vector core multiplies its run of rows of x[M, N] by scale[N].
// scale is loaded once and stays in UB; x streams through double-buffered [tileRows, N] tiles moved with
// DataCopyPad (rows of any byte length, each padded to 32 bytes in UB). The multiply is one repeat-form Mul per
// 256-byte column chunk with one repeat per row; src1RepStride = 0 re-reads the same scale chunk every repeat.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelMulRowBroadcast {
public:
    __aicore__ inline KernelMulRowBroadcast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR y, uint32_t cols, uint32_t colsAligned,
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
        this->colsAligned = colsAligned;
        this->tileRows = tileRows;
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);
        scaleGm.SetGlobalBuffer((__gm__ T*)scale, cols);
        pipe.InitBuffer(scaleQueue, 1, colsAligned * sizeof(T));
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        if (coreRows == 0) {
            return;
        }
        AscendC::LocalTensor<T> scaleLocal = scaleQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams scaleParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(scaleLocal, scaleGm, scaleParams, padParams);
        scaleQueue.EnQue(scaleLocal);
        scaleLocal = scaleQueue.DeQue<T>();

        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            CopyIn(i, rows);
            Compute(scaleLocal, rows);
            CopyOut(i, rows);
        }
        scaleQueue.FreeTensor(scaleLocal);
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        // rows contiguous GM blocks of cols * sizeof(T) bytes; each lands on a 32-byte aligned UB row.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<T>& scaleLocal, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        constexpr uint32_t perRepeat = 256 / sizeof(T);              // elements one repeat processes
        uint32_t rowBlocks = colsAligned * sizeof(T) / 32;            // UB row pitch in blocks
        if (rowBlocks <= 255) {
            AscendC::BinaryRepeatParams params(1, 1, 1, static_cast<uint8_t>(rowBlocks),
                                               static_cast<uint8_t>(rowBlocks), 0);
            for (uint32_t c = 0; c < cols; c += perRepeat) {
                uint32_t width = cols - c < perRepeat ? cols - c : perRepeat;
                AscendC::Mul(yLocal[c], xLocal[c], scaleLocal[c], static_cast<uint64_t>(width),
                             static_cast<uint8_t>(rows), params);
            }
        } else {
            // Rows wider than a repeat stride can express: one count-form multiply per row.
            for (uint32_t r = 0; r < rows; r++) {
                AscendC::Mul(yLocal[r * colsAligned], xLocal[r * colsAligned], scaleLocal, cols);
            }
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
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> scaleQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<T> xGm, scaleGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t tileRows = 0;
};

extern "C" __global__ __aicore__ void mul_row_broadcast_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR y,
                                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMulRowBroadcast<DTYPE_X> op;
    op.Init(x, scale, y, tilingData.cols, tilingData.colsAligned, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.tileRows);
    op.Process();
}
