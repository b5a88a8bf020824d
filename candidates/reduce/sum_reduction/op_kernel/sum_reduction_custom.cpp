// SumReductionCustom, kernel side. x is [outer, reduceLen, inner]; float16 is summed in float, int32 in int32
// and widened to int64 (torch.sum's result type) on the way out: the 910B vector unit has no int64 Add.
// Key 1 (inner == 1): a UB tile is [tileRows, tileCols] of contiguous rows, zero-padded by DataCopyPad to a
// 32-byte boundary. The 256-byte column chunks of every row are folded into the first chunk with repeat-form
// Adds (one repeat per row); float rows then finish with WholeReduceSum. int32 has no WholeReduceSum: its rows
// are folded down to one 32-byte block, transposed with Gather to [8, rows] and added as 3 contiguous halves.
// Key 2 (inner > 1): a unit is one outer index and one chunk of tileCols columns; tiles of [tileRows, chunk]
// (strided DataCopyPad) are folded row-halves onto row-halves (log2 Adds of many elements) into the chunk sum.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t REPEAT_BYTES = 256;

template <typename T> struct ComputeType { using Type = float; };       // float, and float16 widened
template <> struct ComputeType<int32_t> { using Type = int32_t; };      // exact integer sums

// Reduction operator: sum. Its identity pads the rows that are not whole 32-byte blocks.
template <typename T> __aicore__ inline T PadValue() { return static_cast<T>(0); }
template <typename C>
__aicore__ inline void Combine(const AscendC::LocalTensor<C>& dst, const AscendC::LocalTensor<C>& a,
                               const AscendC::LocalTensor<C>& b, uint32_t count)
{
    AscendC::Add(dst, a, b, static_cast<int32_t>(count));
}
template <typename C>
__aicore__ inline void CombineRows(const AscendC::LocalTensor<C>& dst, const AscendC::LocalTensor<C>& a,
                                   const AscendC::LocalTensor<C>& b, uint32_t mask, uint32_t rows, uint32_t rowBlocks)
{
    AscendC::BinaryRepeatParams params(1, 1, 1, static_cast<uint8_t>(rowBlocks), static_cast<uint8_t>(rowBlocks),
                                       static_cast<uint8_t>(rowBlocks));
    AscendC::Add(dst, a, b, static_cast<uint64_t>(mask), static_cast<uint8_t>(rows), params);
}
__aicore__ inline void WholeReduce(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                   uint32_t mask, uint32_t rows, uint32_t rowBlocks)
{
    AscendC::WholeReduceSum(dst, src, static_cast<int32_t>(mask), static_cast<int32_t>(rows), 1, 1,
                            static_cast<int32_t>(rowBlocks));
}

// float -> float16 rounds to nearest even; int32 -> int64 is exact.
template <typename Y> __aicore__ inline AscendC::RoundMode OutRound() { return AscendC::RoundMode::CAST_RINT; }
template <> __aicore__ inline AscendC::RoundMode OutRound<int64_t>() { return AscendC::RoundMode::CAST_NONE; }

__aicore__ inline uint32_t AlignUp(uint32_t n, uint32_t a) { return (n + a - 1) / a * a; }

// ---------------------------------------------------------------- key 1: reduce contiguous rows
template <typename T, typename Y>
class KernelReduceRows {
    using C = typename ComputeType<T>::Type;
    static constexpr bool SAME = sizeof(T) == sizeof(C);      // x needs no cast to the compute type
    static constexpr bool OUT_SAME = sizeof(Y) == sizeof(C);  // the results go straight to the output tile
    static constexpr uint32_t C_PER_REPEAT = REPEAT_BYTES / sizeof(C);
    static constexpr uint32_t C_PER_BLOCK = BLOCK_BYTES / sizeof(C);

public:
    __aicore__ inline KernelReduceRows() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                                uint32_t tailRows, uint32_t tileRows, uint32_t tileCols, uint32_t rowsPad)
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
        this->rowsPad = rowsPad;
        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(firstRow) * cols, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ Y*)y + firstRow, coreRows);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * tileCols * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, AlignUp(tileRows * sizeof(Y), BLOCK_BYTES));
        pipe.InitBuffer(accBuf, rowsPad * sizeof(C));
        pipe.InitBuffer(partBuf, rowsPad * sizeof(C));
        if constexpr (!SAME) {
            pipe.InitBuffer(castBuf, tileRows * tileCols * sizeof(C));
        }
        if constexpr (IsInt()) {
            // The transpose of [rows, 8] through Gather: byte offsets (r * 8 + j) * 4 at position j * rowsPad + r.
            pipe.InitBuffer(compactBuf, rowsPad * C_PER_BLOCK * sizeof(C));
            pipe.InitBuffer(gatherBuf, rowsPad * C_PER_BLOCK * sizeof(C));
            pipe.InitBuffer(offsetBuf, rowsPad * C_PER_BLOCK * sizeof(uint32_t));
            AscendC::LocalTensor<int32_t> offsets = offsetBuf.Get<int32_t>();
            AscendC::CreateVecIndex(offsets, static_cast<int32_t>(0), rowsPad);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Muls(offsets, offsets, static_cast<int32_t>(BLOCK_BYTES), rowsPad);
            AscendC::PipeBarrier<PIPE_V>();
            for (uint32_t j = 1; j < C_PER_BLOCK; j++) {
                AscendC::Adds(offsets[j * rowsPad], offsets, static_cast<int32_t>(j * sizeof(C)), rowsPad);
            }
            // rows past a short tile are gathered too (and ignored): give them defined contents
            AscendC::Duplicate(compactBuf.Get<C>(), static_cast<C>(0), rowsPad * C_PER_BLOCK);
            AscendC::PipeBarrier<PIPE_V>();
        }
    }
    __aicore__ inline void Process()
    {
        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        uint32_t chunkNum = (cols + tileCols - 1) / tileCols;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            AscendC::LocalTensor<Y> yLocal = outQueueY.AllocTensor<Y>();
            AscendC::LocalTensor<C> sums;
            if constexpr (OUT_SAME) {
                sums = yLocal.template ReinterpretCast<C>();
            } else {
                sums = accBuf.Get<C>();
            }
            for (uint32_t k = 0; k < chunkNum; k++) {
                uint32_t width = (k == chunkNum - 1) ? cols - k * tileCols : tileCols;
                CopyIn(i, k, rows, width);
                if (k == 0) {
                    Compute(sums, rows, width);
                } else {
                    AscendC::LocalTensor<C> part = partBuf.Get<C>();
                    Compute(part, rows, width);
                    Combine(sums, sums, part, rows);
                    AscendC::PipeBarrier<PIPE_V>();
                }
            }
            if constexpr (!OUT_SAME) {
                AscendC::Cast(yLocal, sums, OutRound<Y>(), rows);
            }
            outQueueY.EnQue<Y>(yLocal);
            CopyOut(i, rows);
        }
    }

private:
    static constexpr bool IsInt() { return static_cast<C>(0.5f) == static_cast<C>(0); }

    __aicore__ inline void CopyIn(uint32_t tile, uint32_t chunk, uint32_t rows, uint32_t width)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t widthAligned = AlignUp(width, BLOCK_BYTES / sizeof(T));
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(width * sizeof(T)),
                                              static_cast<uint32_t>((cols - width) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(widthAligned - width), PadValue<T>()};
        uint64_t offset = static_cast<uint64_t>(tile) * tileRows * cols + static_cast<uint64_t>(chunk) * tileCols;
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // dst[r] = sum of row r of the tile (width valid elements per row).
    __aicore__ inline void Compute(const AscendC::LocalTensor<C>& dst, uint32_t rows, uint32_t width)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        uint32_t widthAligned = AlignUp(width, BLOCK_BYTES / sizeof(T));
        AscendC::LocalTensor<C> work;
        if constexpr (SAME) {
            work = xLocal.template ReinterpretCast<C>();
        } else {
            work = castBuf.Get<C>();
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, rows * widthAligned);
            AscendC::PipeBarrier<PIPE_V>();
        }
        uint32_t rowBlocks = widthAligned * sizeof(C) / BLOCK_BYTES;
        for (uint32_t c = C_PER_REPEAT; c < width; c += C_PER_REPEAT) {
            uint32_t w = width - c < C_PER_REPEAT ? width - c : C_PER_REPEAT;
            CombineRows(work, work, work[c], w, rows, rowBlocks);
            AscendC::PipeBarrier<PIPE_V>();
        }
        uint32_t first = width < C_PER_REPEAT ? width : C_PER_REPEAT;
        if constexpr (IsInt()) {
            // Fold the first 256 bytes of every row down to one 32-byte block (the pad holds the identity).
            while (first > C_PER_BLOCK) {
                uint32_t half = AlignUp((first + 1) / 2, C_PER_BLOCK);
                CombineRows(work, work, work[half], first - half, rows, rowBlocks);
                AscendC::PipeBarrier<PIPE_V>();
                first = half;
            }
            AscendC::LocalTensor<C> compact = compactBuf.Get<C>();
            AscendC::LocalTensor<C> cols8 = gatherBuf.Get<C>();
            AscendC::DataCopyParams gatherRows{static_cast<uint16_t>(rows), 1, static_cast<uint16_t>(rowBlocks - 1), 0};
            AscendC::DataCopy(compact, work, gatherRows);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Gather(cols8, compact, offsetBuf.Get<uint32_t>(), 0, rowsPad * C_PER_BLOCK);
            AscendC::PipeBarrier<PIPE_V>();
            for (uint32_t n = C_PER_BLOCK / 2; n > 1; n /= 2) {
                Combine(cols8, cols8, cols8[n * rowsPad], n * rowsPad);
                AscendC::PipeBarrier<PIPE_V>();
            }
            Combine(dst, cols8, cols8[rowsPad], rows);
        } else {
            WholeReduce(dst, work, first, rows, rowBlocks);
        }
        AscendC::PipeBarrier<PIPE_V>();
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t tile, uint32_t rows)
    {
        AscendC::LocalTensor<Y> yLocal = outQueueY.DeQue<Y>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(rows * sizeof(Y)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[tile * tileRows], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, partBuf, castBuf, compactBuf, gatherBuf, offsetBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<Y> yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t tileRows = 0;
    uint32_t tileCols = 0;
    uint32_t rowsPad = 0;
};

// ---------------------------------------------------------------- key 2: reduce strided rows, column chunks
template <typename T, typename Y>
class KernelReduceCols {
    using C = typename ComputeType<T>::Type;
    static constexpr bool SAME = sizeof(T) == sizeof(C);      // x needs no cast to the compute type
    static constexpr bool OUT_SAME = sizeof(Y) == sizeof(C);  // the results go straight to the output tile

public:
    __aicore__ inline KernelReduceCols() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t reduceLen, uint32_t inner, uint32_t formerNum,
                                uint32_t formerUnits, uint32_t tailUnits, uint32_t tileRows, uint32_t chunkCols,
                                uint32_t chunkNum)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        if (idx < formerNum) {
            firstUnit = idx * formerUnits;
            coreUnits = formerUnits;
        } else {
            firstUnit = formerNum * formerUnits + (idx - formerNum) * tailUnits;
            coreUnits = tailUnits;
        }
        this->reduceLen = reduceLen;
        this->inner = inner;
        this->tileRows = tileRows;
        this->chunkCols = chunkCols;
        this->chunkNum = chunkNum;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ Y*)y);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * chunkCols * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, chunkCols * sizeof(Y));
        if constexpr (!SAME) {
            pipe.InitBuffer(castBuf, tileRows * chunkCols * sizeof(C));
        }
        if constexpr (!OUT_SAME) {
            pipe.InitBuffer(accBuf, chunkCols * sizeof(C));
        }
    }
    __aicore__ inline void Process()
    {
        uint32_t tileNum = (reduceLen + tileRows - 1) / tileRows;
        for (uint32_t u = firstUnit; u < firstUnit + coreUnits; u++) {
            uint32_t o = u / chunkNum;
            uint32_t chunk = u % chunkNum;
            uint32_t width = (chunk == chunkNum - 1) ? inner - chunk * chunkCols : chunkCols;
            uint32_t widthAligned = AlignUp(width, BLOCK_BYTES / sizeof(T));
            uint64_t base = static_cast<uint64_t>(o) * reduceLen * inner + static_cast<uint64_t>(chunk) * chunkCols;
            AscendC::LocalTensor<Y> yLocal = outQueueY.AllocTensor<Y>();
            AscendC::LocalTensor<C> acc;
            if constexpr (OUT_SAME) {
                acc = yLocal.template ReinterpretCast<C>();
            } else {
                acc = accBuf.Get<C>();
            }
            for (uint32_t t = 0; t < tileNum; t++) {
                uint32_t rows = (t == tileNum - 1) ? reduceLen - t * tileRows : tileRows;
                CopyIn(base + static_cast<uint64_t>(t) * tileRows * inner, rows, width, widthAligned);
                Compute(acc, rows, widthAligned, t == 0);
            }
            if constexpr (!OUT_SAME) {
                AscendC::Cast(yLocal, acc, OutRound<Y>(), widthAligned);
            }
            outQueueY.EnQue<Y>(yLocal);
            CopyOut(static_cast<uint64_t>(o) * inner + static_cast<uint64_t>(chunk) * chunkCols, width);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows, uint32_t width, uint32_t widthAligned)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(width * sizeof(T)),
                                              static_cast<uint32_t>((inner - width) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(widthAligned - width), PadValue<T>()};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // acc (=|+)= the reduction of the tile's rows, by folding the upper half of the rows onto the lower half.
    __aicore__ inline void Compute(const AscendC::LocalTensor<C>& acc, uint32_t rows, uint32_t widthAligned, bool first)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<C> work;
        if constexpr (SAME) {
            work = xLocal.template ReinterpretCast<C>();
        } else {
            work = castBuf.Get<C>();
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, rows * widthAligned);
            AscendC::PipeBarrier<PIPE_V>();
        }
        for (uint32_t n = rows; n > 1;) {
            uint32_t half = n / 2;
            Combine(work, work, work[(n - half) * widthAligned], half * widthAligned);
            AscendC::PipeBarrier<PIPE_V>();
            n -= half;
        }
        if (first) {
            AscendC::DataCopy(acc, work, widthAligned);
        } else {
            Combine(acc, acc, work, widthAligned);
        }
        AscendC::PipeBarrier<PIPE_V>();
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t width)
    {
        AscendC::LocalTensor<Y> yLocal = outQueueY.DeQue<Y>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(width * sizeof(Y)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> castBuf, accBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<Y> yGm;
    uint32_t firstUnit = 0;
    uint32_t coreUnits = 0;
    uint32_t reduceLen = 0;
    uint32_t inner = 0;
    uint32_t tileRows = 0;
    uint32_t chunkCols = 0;
    uint32_t chunkNum = 0;
};

extern "C" __global__ __aicore__ void sum_reduction_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(1)) {
        KernelReduceRows<DTYPE_X, DTYPE_Y> op;
        op.Init(x, y, t.reduceLen, t.formerNum, t.formerUnits, t.tailUnits, t.tileRows, t.tileCols, t.rowsPad);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelReduceCols<DTYPE_X, DTYPE_Y> op;
        op.Init(x, y, t.reduceLen, t.inner, t.formerNum, t.formerUnits, t.tailUnits, t.tileRows, t.tileCols,
                t.chunkNum);
        op.Process();
    }
}
