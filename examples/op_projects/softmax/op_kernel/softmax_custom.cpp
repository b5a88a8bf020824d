// SoftmaxCustom, kernel side: numerically stable row softmax, y = exp(x - max) / sum(exp(x - max)), over
// [tileRows, N] UB tiles. Rows are padded by DataCopyPad to a 32-byte boundary with the lowest finite value,
// so the padding never wins the max and contributes exp(-huge) = 0 to the sum. The row reductions fold the
// 64-float column chunks together with repeat-form Max/Add (one repeat per row) and finish with WholeReduce;
// Brcb spreads each row's result over a 32-byte block, which Sub/Div read with src1BlkStride = 0. float16
// input is computed in float and rounded back.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_REPEAT = 64;   // 256 bytes of float
constexpr uint32_t FLOATS_PER_BLOCK = 8;     // 32 bytes of float

template <typename T>
class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                                uint32_t tailRows, uint32_t tileRows)
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
        rowBlocks = colsAligned * sizeof(float) / 32;
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);

        uint32_t rowsAligned = (tileRows + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(foldBuf, tileRows * FLOATS_PER_REPEAT * sizeof(float));
        pipe.InitBuffer(statBuf, rowsAligned * sizeof(float));
        pipe.InitBuffer(brcbBuf, rowsAligned * FLOATS_PER_BLOCK * sizeof(float));
        if constexpr (sizeof(T) != sizeof(float)) {
            pipe.InitBuffer(castBuf, tileRows * colsAligned * sizeof(float));
        }
        // Brcb reads the row results 8 at a time: the slots past the last row of a tile must hold a value.
        AscendC::Duplicate(statBuf.Get<float>(), 0.0f, rowsAligned);
    }
    __aicore__ inline void Process()
    {
        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            CopyIn(i, rows);
            Compute(rows);
            CopyOut(i, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              0, 0, 0};
        T lowest = static_cast<T>(sizeof(T) == sizeof(float) ? -3.0e38f : -65504.0f);
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(colsAligned - cols), lowest};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // dst[r] = max (isMax) or sum of row r of work ([rows, colsAligned] floats), r < rows.
    __aicore__ inline void RowReduce(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& work,
                                     uint32_t rows, bool isMax)
    {
        if (colsAligned <= FLOATS_PER_REPEAT) {
            if (isMax) {
                AscendC::WholeReduceMax(dst, work, static_cast<int32_t>(colsAligned), static_cast<int32_t>(rows), 1, 1,
                                        static_cast<int32_t>(rowBlocks), AscendC::ReduceOrder::ORDER_ONLY_VALUE);
            } else {
                AscendC::WholeReduceSum(dst, work, static_cast<int32_t>(colsAligned), static_cast<int32_t>(rows), 1, 1,
                                        static_cast<int32_t>(rowBlocks));
            }
            return;
        }
        AscendC::LocalTensor<float> fold = foldBuf.Get<float>();
        // fold[r, 0:64] = work[r, 0:64], then combine the other 64-column chunks of each row into it.
        AscendC::DataCopy(fold, work, AscendC::DataCopyParams(static_cast<uint16_t>(rows), 8,
                                                               static_cast<uint16_t>(rowBlocks - 8), 0));
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::BinaryRepeatParams params(1, 1, 1, 8, 8, static_cast<uint8_t>(rowBlocks));
        for (uint32_t c = FLOATS_PER_REPEAT; c < colsAligned; c += FLOATS_PER_REPEAT) {
            uint64_t w = colsAligned - c < FLOATS_PER_REPEAT ? colsAligned - c : FLOATS_PER_REPEAT;
            if (isMax) {
                AscendC::Max(fold, fold, work[c], w, static_cast<uint8_t>(rows), params);
            } else {
                AscendC::Add(fold, fold, work[c], w, static_cast<uint8_t>(rows), params);
            }
            AscendC::PipeBarrier<PIPE_V>();
        }
        if (isMax) {
            AscendC::WholeReduceMax(dst, fold, static_cast<int32_t>(FLOATS_PER_REPEAT), static_cast<int32_t>(rows), 1, 1,
                                    8, AscendC::ReduceOrder::ORDER_ONLY_VALUE);
        } else {
            AscendC::WholeReduceSum(dst, fold, static_cast<int32_t>(FLOATS_PER_REPEAT), static_cast<int32_t>(rows), 1, 1,
                                    8);
        }
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> stat = statBuf.Get<float>();
        AscendC::LocalTensor<float> brcb = brcbBuf.Get<float>();
        AscendC::LocalTensor<float> work;
        if constexpr (sizeof(T) == sizeof(float)) {
            work = xLocal.template ReinterpretCast<float>();
        } else {
            work = castBuf.Get<float>();
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, rows * colsAligned);
            AscendC::PipeBarrier<PIPE_V>();
        }
        uint8_t brcbRepeat = static_cast<uint8_t>((rows + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK);
        // src1 is the row's broadcast block: the same 32 bytes for every block of a row, the next block per row.
        AscendC::BinaryRepeatParams rowParams(1, 1, 0, static_cast<uint8_t>(rowBlocks), static_cast<uint8_t>(rowBlocks), 1);

        // x - max(x)
        RowReduce(stat, work, rows, true);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Brcb(brcb, stat, brcbRepeat, {1, 8});
        AscendC::PipeBarrier<PIPE_V>();
        for (uint32_t c = 0; c < colsAligned; c += FLOATS_PER_REPEAT) {
            uint64_t w = colsAligned - c < FLOATS_PER_REPEAT ? colsAligned - c : FLOATS_PER_REPEAT;
            AscendC::Sub(work[c], work[c], brcb, w, static_cast<uint8_t>(rows), rowParams);
        }
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(work, work, rows * colsAligned);
        AscendC::PipeBarrier<PIPE_V>();

        // / sum(exp)
        RowReduce(stat, work, rows, false);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Brcb(brcb, stat, brcbRepeat, {1, 8});
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::LocalTensor<float> result;
        if constexpr (sizeof(T) == sizeof(float)) {
            result = yLocal.template ReinterpretCast<float>();
        } else {
            result = work;
        }
        for (uint32_t c = 0; c < colsAligned; c += FLOATS_PER_REPEAT) {
            uint64_t w = colsAligned - c < FLOATS_PER_REPEAT ? colsAligned - c : FLOATS_PER_REPEAT;
            AscendC::Div(result[c], work[c], brcb, w, static_cast<uint8_t>(rows), rowParams);
        }
        if constexpr (sizeof(T) != sizeof(float)) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Cast(yLocal, work, AscendC::RoundMode::CAST_RINT, rows * colsAligned);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> foldBuf, statBuf, brcbBuf, castBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowBlocks = 0;
    uint32_t tileRows = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftmax<DTYPE_X> op;
    op.Init(x, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
            tilingData.tileRows);
    op.Process();
}
