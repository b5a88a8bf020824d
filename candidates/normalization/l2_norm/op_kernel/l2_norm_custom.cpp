// L2NormCustom, kernel side: y = x * (1 / max(||x||_2, eps)) per row of x[M, N], computed in float (float16 and
// bfloat16 tiles are widened in UB and rounded once at the end).
// Key 1: a UB tile is [tileRows, N padded to 32 bytes] (zero padding). The squares' 256-byte column chunks are
// folded into the first chunk with repeat-form Adds (one repeat per row), WholeReduceSum gives the row sums, and
// the per-row factors are spread by Brcb to one 32-byte block per row, so that a repeat-form Mul with a zero
// block stride scales a 64-float chunk of every row at once: no scalar work per element or per row.
// Key 2 (rows too long for UB): per row, pass 1 streams the chunks and accumulates the squares, pass 2 streams
// them again and scales them by the row's factor.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t FLOATS_PER_REPEAT = 64;
constexpr uint32_t FLOATS_PER_BLOCK = 8;

__aicore__ inline uint32_t AlignUp(uint32_t n, uint32_t a) { return (n + a - 1) / a * a; }

// ---------------------------------------------------------------- key 1: whole rows per tile
template <typename T>
class KernelL2NormRows {
    static constexpr bool IS_FLOAT = sizeof(T) == sizeof(float);

public:
    __aicore__ inline KernelL2NormRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                                uint32_t tailRows, uint32_t tileRows, uint32_t tileCols, float epsilon)
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
        this->tileCols = tileCols;
        this->epsilon = epsilon;
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);
        uint32_t rowsPad = AlignUp(tileRows, FLOATS_PER_BLOCK);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * tileCols * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * tileCols * sizeof(T));
        pipe.InitBuffer(sqBuf, tileRows * tileCols * sizeof(float));
        pipe.InitBuffer(sumBuf, rowsPad * sizeof(float));
        pipe.InitBuffer(brcBuf, rowsPad * FLOATS_PER_BLOCK * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(workBuf, tileRows * tileCols * sizeof(float));
        }
        // Brcb reads whole groups of 8 row factors: rows past a short tile must hold defined values.
        AscendC::Duplicate(sumBuf.Get<float>(), 0.0f, rowsPad);
        AscendC::PipeBarrier<PIPE_V>();
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
    __aicore__ inline void CopyIn(uint32_t tile, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0,
                                              0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(tileCols - cols), 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(tile) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> work;
        AscendC::LocalTensor<float> dst;   // where the scaled rows go: y itself for float, else the work buffer
        uint32_t count = rows * tileCols;
        if constexpr (IS_FLOAT) {
            work = xLocal;
            dst = yLocal;
        } else {
            work = workBuf.Get<float>();
            dst = work;
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, count);
            AscendC::PipeBarrier<PIPE_V>();
        }
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> sums = sumBuf.Get<float>();
        AscendC::LocalTensor<float> brc = brcBuf.Get<float>();
        uint8_t rowBlocks = static_cast<uint8_t>(tileCols * sizeof(float) / BLOCK_BYTES);

        // sums[r] = sum of squares of row r (the zero padding adds nothing)
        AscendC::Mul(sq, work, work, count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::BinaryRepeatParams foldParams(1, 1, 1, rowBlocks, rowBlocks, rowBlocks);
        for (uint32_t c = FLOATS_PER_REPEAT; c < tileCols; c += FLOATS_PER_REPEAT) {
            uint32_t w = tileCols - c < FLOATS_PER_REPEAT ? tileCols - c : FLOATS_PER_REPEAT;
            AscendC::Add(sq, sq, sq[c], static_cast<uint64_t>(w), static_cast<uint8_t>(rows), foldParams);
            AscendC::PipeBarrier<PIPE_V>();
        }
        int32_t mask = tileCols < FLOATS_PER_REPEAT ? tileCols : FLOATS_PER_REPEAT;
        AscendC::WholeReduceSum(sums, sq, mask, static_cast<int32_t>(rows), 1, 1, rowBlocks);
        AscendC::PipeBarrier<PIPE_V>();
        // factor = 1 / max(sqrt(sum), eps), exact division (Reciprocal is an approximation on the chip)
        AscendC::Sqrt(sums, sums, rows);
        AscendC::Duplicate(sq, 1.0f, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Maxs(sums, sums, epsilon, rows);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Div(sums, sq, sums, rows);
        AscendC::PipeBarrier<PIPE_V>();
        // brc block r = 8 copies of factor r; then scale a 64-float column chunk of every row per call
        AscendC::Brcb(brc, sums, static_cast<uint8_t>((rows + FLOATS_PER_BLOCK - 1) / FLOATS_PER_BLOCK),
                      AscendC::BrcbRepeatParams(1, 8));
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::BinaryRepeatParams scaleParams(1, 1, 0, rowBlocks, rowBlocks, 1);
        for (uint32_t c = 0; c < tileCols; c += FLOATS_PER_REPEAT) {
            uint32_t w = tileCols - c < FLOATS_PER_REPEAT ? tileCols - c : FLOATS_PER_REPEAT;
            AscendC::Mul(dst[c], work[c], brc, static_cast<uint64_t>(w), static_cast<uint8_t>(rows), scaleParams);
        }
        if constexpr (!IS_FLOAT) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Cast(yLocal, work, AscendC::RoundMode::CAST_RINT, count);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t tile, uint32_t rows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0,
                                              0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(tile) * tileRows * cols], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf, sqBuf, sumBuf, brcBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t tileRows = 0;
    uint32_t tileCols = 0;
    float epsilon = 0;
};

// ---------------------------------------------------------------- key 2: long rows, two passes over chunks
template <typename T>
class KernelL2NormChunks {
    static constexpr bool IS_FLOAT = sizeof(T) == sizeof(float);

public:
    __aicore__ inline KernelL2NormChunks() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                                uint32_t tailRows, uint32_t chunkCols, float epsilon)
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
        this->chunkCols = chunkCols;
        this->epsilon = epsilon;
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, chunkCols * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, chunkCols * sizeof(T));
        pipe.InitBuffer(accBuf, chunkCols * sizeof(float));
        pipe.InitBuffer(sqBuf, chunkCols * sizeof(float));
        pipe.InitBuffer(sumBuf, FLOATS_PER_BLOCK * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(workBuf, chunkCols * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        uint32_t chunkNum = (cols + chunkCols - 1) / chunkCols;
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> sums = sumBuf.Get<float>();
        for (uint32_t r = 0; r < coreRows; r++) {
            uint64_t rowOffset = static_cast<uint64_t>(r) * cols;
            // pass 1: acc = elementwise sum of the squares of the chunks, then one ReduceSum
            AscendC::Duplicate(acc, 0.0f, chunkCols);
            AscendC::PipeBarrier<PIPE_V>();
            for (uint32_t k = 0; k < chunkNum; k++) {
                uint32_t width = (k == chunkNum - 1) ? cols - k * chunkCols : chunkCols;
                CopyIn(rowOffset + static_cast<uint64_t>(k) * chunkCols, width);
                AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
                AscendC::LocalTensor<float> work = Widen(xLocal, width);
                AscendC::Mul(sq, work, work, width);
                AscendC::PipeBarrier<PIPE_V>();
                AscendC::Add(acc, acc, sq, width);
                AscendC::PipeBarrier<PIPE_V>();
                inQueueX.FreeTensor(xLocal);
            }
            AscendC::ReduceSum(sums, acc, sq, chunkCols);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Sqrt(sums, sums, 1);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Maxs(sums, sums, epsilon, 1);
            AscendC::PipeBarrier<PIPE_V>();
            // one scalar per row: the vector result must be complete before the scalar unit reads it
            event_t vToS = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
            AscendC::SetFlag<AscendC::HardEvent::V_S>(vToS);
            AscendC::WaitFlag<AscendC::HardEvent::V_S>(vToS);
            float factor = 1.0f / sums.GetValue(0);
            // pass 2: scale and write
            for (uint32_t k = 0; k < chunkNum; k++) {
                uint32_t width = (k == chunkNum - 1) ? cols - k * chunkCols : chunkCols;
                uint64_t offset = rowOffset + static_cast<uint64_t>(k) * chunkCols;
                CopyIn(offset, width);
                AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
                AscendC::LocalTensor<float> work = Widen(xLocal, width);
                AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
                if constexpr (IS_FLOAT) {
                    AscendC::Muls(yLocal, work, factor, width);
                } else {
                    AscendC::Muls(work, work, factor, width);
                    AscendC::PipeBarrier<PIPE_V>();
                    AscendC::Cast(yLocal, work, AscendC::RoundMode::CAST_RINT, width);
                }
                outQueueY.EnQue<T>(yLocal);
                inQueueX.FreeTensor(xLocal);
                CopyOut(offset, width);
            }
        }
    }

private:
    __aicore__ inline AscendC::LocalTensor<float> Widen(const AscendC::LocalTensor<T>& xLocal, uint32_t width)
    {
        if constexpr (IS_FLOAT) {
            return xLocal;
        } else {
            AscendC::LocalTensor<float> work = workBuf.Get<float>();
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, width);
            AscendC::PipeBarrier<PIPE_V>();
            return work;
        }
    }
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t width)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(width * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t width)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(width * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf, accBuf, sqBuf, sumBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t chunkCols = 0;
    float epsilon = 0;
};

extern "C" __global__ __aicore__ void l2_norm_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(1)) {
        KernelL2NormRows<DTYPE_X> op;
        op.Init(x, y, t.cols, t.formerNum, t.formerRows, t.tailRows, t.tileRows, t.tileCols, t.epsilon);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelL2NormChunks<DTYPE_X> op;
        op.Init(x, y, t.cols, t.formerNum, t.formerRows, t.tailRows, t.tileCols, t.epsilon);
        op.Process();
    }
}
