// LogSoftmaxCustom, kernel side: each vector core computes y = log_softmax(x) for its rows of x[M, N] in
// [tileRows, N] UB tiles with the LogSoftMax high-level API. CANN's LogSoftMax gives log10(softmax(x)) (and the row
// max and sum, broadcast over 32 bytes); the natural logarithm is that times ln 10. DataCopyPad pads every row to
// a 32-byte boundary with a value far below any real input (still inside LogSoftMax's documented input range), so
// the padding neither wins the max nor adds to the sum; SoftMaxShapeInfo gives the API the tile's rows, the padded
// and the original row length.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr float LN10 = 2.302585092994046f;

template <typename T>
class KernelLogSoftmax {
public:
    __aicore__ inline KernelLogSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                                uint32_t tailRows, uint32_t tileRows, uint32_t tmpBytes, const LogSoftMaxTiling& tiling)
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
        this->tiling = tiling;
        this->cols = cols;
        this->tileRows = tileRows;
        colsAligned = (cols * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(sumBuf, tileRows * 32);   // one 32-byte block per row
        pipe.InitBuffer(maxBuf, tileRows * 32);
        pipe.InitBuffer(tmpBuf, tmpBytes);
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
        T lowest = static_cast<T>(sizeof(T) == sizeof(float) ? -1.0e9f : -65504.0f);
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(colsAligned - cols), lowest};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<T> sumLocal = sumBuf.Get<T>();
        AscendC::LocalTensor<T> maxLocal = maxBuf.Get<T>();
        AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        AscendC::SoftMaxShapeInfo shapeInfo{rows, colsAligned, rows, cols};
        AscendC::LogSoftMax<T>(yLocal, sumLocal, maxLocal, xLocal, tmp, tiling, shapeInfo);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(yLocal, yLocal, static_cast<T>(LN10), rows * colsAligned);   // log10 -> ln
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
    AscendC::TBuf<AscendC::TPosition::VECCALC> sumBuf, maxBuf, tmpBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    LogSoftMaxTiling tiling;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t tileRows = 0;
};

extern "C" __global__ __aicore__ void log_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLogSoftmax<DTYPE_X> op;
    op.Init(x, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
            tilingData.tileRows, tilingData.tmpBytes, tilingData.logSoftmaxTiling);
    op.Process();
}
