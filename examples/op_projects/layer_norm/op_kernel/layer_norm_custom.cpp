// LayerNormCustom, kernel side: each vector core normalizes its rows of x[M, N] in [tileRows, N] UB tiles
// (rows zero-padded to 32 bytes by DataCopyPad). Row sums fold the 64-float column chunks with repeat-form Adds
// (one repeat per row) and finish with WholeReduceSum; Brcb spreads each row's mean / standard deviation over
// a 32-byte block that Sub/Div read with src1BlkStride = 0; gamma and beta (loaded once) are applied with
// src1RepStride = 0, i.e. the same chunk for every row. Two passes: mean, then the variance of x - mean.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_REPEAT = 64;   // 256 bytes of float
constexpr uint32_t FLOATS_PER_BLOCK = 8;     // 32 bytes of float

class KernelLayerNorm {
public:
    __aicore__ inline KernelLayerNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t cols, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t tileRows, float invCols, float epsilon)
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
        this->invCols = invCols;
        this->epsilon = epsilon;
        colsAligned = (cols + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;
        rowBlocks = colsAligned / FLOATS_PER_BLOCK;
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ float*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, static_cast<uint64_t>(coreRows) * cols);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, cols);

        uint32_t rowsAligned = (tileRows + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK * FLOATS_PER_BLOCK;
        pipe.InitBuffer(paramQueue, 1, 2 * colsAligned * sizeof(float));
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * colsAligned * sizeof(float));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * colsAligned * sizeof(float));
        pipe.InitBuffer(sqBuf, tileRows * colsAligned * sizeof(float));
        pipe.InitBuffer(foldBuf, tileRows * FLOATS_PER_REPEAT * sizeof(float));
        pipe.InitBuffer(statBuf, rowsAligned * sizeof(float));
        pipe.InitBuffer(brcbBuf, rowsAligned * FLOATS_PER_BLOCK * sizeof(float));
        // Brcb reads the row results 8 at a time: the slots past the last row of a tile must hold a value.
        AscendC::Duplicate(statBuf.Get<float>(), 0.0f, rowsAligned);
    }
    __aicore__ inline void Process()
    {
        // gamma at [0, colsAligned), beta at [colsAligned, 2 * colsAligned); kept for the whole kernel.
        AscendC::LocalTensor<float> params = paramQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(params, gammaGm, copyParams, padParams);
        AscendC::DataCopyPad(params[colsAligned], betaGm, copyParams, padParams);
        paramQueue.EnQue(params);
        params = paramQueue.DeQue<float>();

        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            CopyIn(i, rows);
            Compute(params, rows);
            CopyOut(i, rows);
        }
        paramQueue.FreeTensor(params);
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{true, 0, static_cast<uint8_t>(colsAligned - cols), 0.0f};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // dst[r] = sum of row r of src ([rows, colsAligned]), r < rows.
    __aicore__ inline void RowSum(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                  uint32_t rows)
    {
        if (colsAligned <= FLOATS_PER_REPEAT) {
            AscendC::WholeReduceSum(dst, src, static_cast<int32_t>(colsAligned), static_cast<int32_t>(rows), 1, 1,
                                    static_cast<int32_t>(rowBlocks));
            return;
        }
        AscendC::LocalTensor<float> fold = foldBuf.Get<float>();
        AscendC::DataCopy(fold, src, AscendC::DataCopyParams(static_cast<uint16_t>(rows), 8,
                                                              static_cast<uint16_t>(rowBlocks - 8), 0));
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::BinaryRepeatParams params(1, 1, 1, 8, 8, static_cast<uint8_t>(rowBlocks));
        for (uint32_t c = FLOATS_PER_REPEAT; c < colsAligned; c += FLOATS_PER_REPEAT) {
            uint64_t w = colsAligned - c < FLOATS_PER_REPEAT ? colsAligned - c : FLOATS_PER_REPEAT;
            AscendC::Add(fold, fold, src[c], w, static_cast<uint8_t>(rows), params);
            AscendC::PipeBarrier<PIPE_V>();
        }
        AscendC::WholeReduceSum(dst, fold, static_cast<int32_t>(FLOATS_PER_REPEAT), static_cast<int32_t>(rows), 1, 1, 8);
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& params, uint32_t rows)
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> stat = statBuf.Get<float>();
        AscendC::LocalTensor<float> brcb = brcbBuf.Get<float>();
        uint8_t repeat = static_cast<uint8_t>(rows);
        uint8_t brcbRepeat = static_cast<uint8_t>((rows + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK);
        uint8_t rb = static_cast<uint8_t>(rowBlocks);
        AscendC::BinaryRepeatParams perRow(1, 1, 0, rb, rb, 1);     // src1: the row's broadcast block
        AscendC::BinaryRepeatParams perCol(1, 1, 1, rb, rb, 0);     // src1: the same gamma/beta chunk every row

        // mean, then x - mean on the valid columns (the zero padding stays zero for the variance)
        RowSum(stat, xLocal, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(stat, stat, invCols, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Brcb(brcb, stat, brcbRepeat, {1, 8});
        AscendC::PipeBarrier<PIPE_V>();
        for (uint32_t c = 0; c < cols; c += FLOATS_PER_REPEAT) {
            uint64_t w = cols - c < FLOATS_PER_REPEAT ? cols - c : FLOATS_PER_REPEAT;
            AscendC::Sub(xLocal[c], xLocal[c], brcb, w, repeat, perRow);
        }
        AscendC::PipeBarrier<PIPE_V>();

        // standard deviation sqrt(mean((x - mean)^2) + epsilon)
        AscendC::Mul(sq, xLocal, xLocal, rows * colsAligned);
        AscendC::PipeBarrier<PIPE_V>();
        RowSum(stat, sq, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(stat, stat, invCols, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(stat, stat, epsilon, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Sqrt(stat, stat, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Brcb(brcb, stat, brcbRepeat, {1, 8});
        AscendC::PipeBarrier<PIPE_V>();

        // y = (x - mean) / std * gamma + beta
        for (uint32_t c = 0; c < cols; c += FLOATS_PER_REPEAT) {
            uint64_t w = cols - c < FLOATS_PER_REPEAT ? cols - c : FLOATS_PER_REPEAT;
            AscendC::Div(xLocal[c], xLocal[c], brcb, w, repeat, perRow);
        }
        AscendC::PipeBarrier<PIPE_V>();
        for (uint32_t c = 0; c < cols; c += FLOATS_PER_REPEAT) {
            uint64_t w = cols - c < FLOATS_PER_REPEAT ? cols - c : FLOATS_PER_REPEAT;
            AscendC::Mul(yLocal[c], xLocal[c], params[c], w, repeat, perCol);
        }
        AscendC::PipeBarrier<PIPE_V>();
        for (uint32_t c = 0; c < cols; c += FLOATS_PER_REPEAT) {
            uint64_t w = cols - c < FLOATS_PER_REPEAT ? cols - c : FLOATS_PER_REPEAT;
            AscendC::Add(yLocal[c], yLocal[c], params[colsAligned + c], w, repeat, perCol);
        }
        outQueueY.EnQue<float>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(progress) * tileRows * cols], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> paramQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> sqBuf, foldBuf, statBuf, brcbBuf;
    AscendC::GlobalTensor<float> xGm, gammaGm, betaGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowBlocks = 0;
    uint32_t tileRows = 0;
    float invCols = 0;
    float epsilon = 0;
};

extern "C" __global__ __aicore__ void layer_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLayerNorm op;
    op.Init(x, gamma, beta, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
            tilingData.tileRows, tilingData.invCols, tilingData.epsilon);
    op.Process();
}
