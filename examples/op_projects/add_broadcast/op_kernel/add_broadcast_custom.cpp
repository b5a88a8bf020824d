// AddBroadcastCustom, kernel side: each vector core adds bias[N] to its rows of x[M, N]. Rows travel as
// [tileRows, N] tiles with DataCopyPad (N * sizeof(T) need not be a multiple of 32 bytes: each row is padded
// to a 32-byte boundary in UB); bias stays in UB for the whole kernel. The add is one repeat-form instruction
// per 256-byte column chunk: one repeat per row, and src1RepStride = 0 reads the same bias chunk every repeat.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAddBroadcast {
public:
    __aicore__ inline KernelAddBroadcast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t cols, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t tileRows)
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
        this->tileRows = tileRows;
        colsAligned = (cols * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, cols);
        pipe.InitBuffer(biasQueue, 1, colsAligned * sizeof(T));
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        if (coreRows == 0) {
            return;
        }
        AscendC::LocalTensor<T> biasLocal = biasQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams biasParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(biasLocal, biasGm, biasParams, padParams);
        biasQueue.EnQue(biasLocal);
        biasLocal = biasQueue.DeQue<T>();

        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            CopyIn(i, rows);
            Compute(biasLocal, rows);
            CopyOut(i, rows);
        }
        biasQueue.FreeTensor(biasLocal);
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        // rows blocks of cols * sizeof(T) bytes, contiguous in GM; each lands on a 32-byte aligned UB row.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<T>& biasLocal, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        constexpr uint32_t perRepeat = 256 / sizeof(T);              // elements one repeat processes
        uint32_t rowBlocks = colsAligned * sizeof(T) / 32;           // UB row stride in 32-byte blocks
        if (rowBlocks <= 255) {
            AscendC::BinaryRepeatParams params(1, 1, 1, static_cast<uint8_t>(rowBlocks),
                                               static_cast<uint8_t>(rowBlocks), 0);
            for (uint32_t c = 0; c < cols; c += perRepeat) {
                uint32_t width = cols - c < perRepeat ? cols - c : perRepeat;
                AscendC::Add(yLocal[c], xLocal[c], biasLocal[c], static_cast<uint64_t>(width),
                             static_cast<uint8_t>(rows), params);
            }
        } else {
            // Rows wider than a repeat stride can express: one count-form add per row.
            for (uint32_t r = 0; r < rows; r++) {
                AscendC::Add(yLocal[r * colsAligned], xLocal[r * colsAligned], biasLocal, cols);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> biasQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<T> xGm, biasGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t tileRows = 0;
};

extern "C" __global__ __aicore__ void add_broadcast_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddBroadcast<DTYPE_X> op;
    op.Init(x, bias, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
            tilingData.tileRows);
    op.Process();
}
