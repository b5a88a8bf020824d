// ReduceSumCustom, kernel side: each vector core sums its rows of x[M, N]. A UB tile is [tileRows, tileCols],
// each row zero-padded by DataCopyPad to a 32-byte boundary. Per tile, the 256-byte column chunks are folded
// into the first chunk with repeat-form Adds (one repeat per row), then WholeReduceSum turns each row into one
// float, written contiguously. Rows longer than tileCols are summed chunk by chunk into an accumulator.
// Tiling key 1 runs the float kernel, key 2 the float16 kernel (cast to float first, rounded back at the end).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_REPEAT = 64;   // 256 bytes of float

template <typename T>
class KernelReduceSum {
public:
    __aicore__ inline KernelReduceSum() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t formerNum, uint32_t formerRows,
                                uint32_t tailRows, uint32_t tileRows, uint32_t tileCols)
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
        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(firstRow) * cols,
                            static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + firstRow, coreRows);
        uint32_t resultBytes = (tileRows * sizeof(float) + 31) / 32 * 32;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * tileCols * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, resultBytes);
        pipe.InitBuffer(accBuf, resultBytes);
        pipe.InitBuffer(partBuf, resultBytes);
        if constexpr (!IsFloat()) {
            pipe.InitBuffer(castBuf, tileRows * tileCols * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        uint32_t chunkNum = (cols + tileCols - 1) / tileCols;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = (i == tileNum - 1) ? coreRows - i * tileRows : tileRows;
            AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
            // The float row sums: written straight into the output tile for float, into accBuf for float16.
            AscendC::LocalTensor<float> sums;
            if constexpr (IsFloat()) {
                sums = yLocal.template ReinterpretCast<float>();
            } else {
                sums = accBuf.Get<float>();
            }
            for (uint32_t k = 0; k < chunkNum; k++) {
                uint32_t width = (k == chunkNum - 1) ? cols - k * tileCols : tileCols;
                CopyIn(i, k, rows, width);
                Compute(sums, rows, width, k == 0);
            }
            if constexpr (!IsFloat()) {
                AscendC::Cast(yLocal, sums, AscendC::RoundMode::CAST_RINT, rows);
            }
            outQueueY.EnQue<T>(yLocal);
            CopyOut(i, rows);
        }
    }

private:
    static constexpr bool IsFloat() { return sizeof(T) == sizeof(float); }
    static __aicore__ inline uint32_t AlignUp(uint32_t n, uint32_t a) { return (n + a - 1) / a * a; }

    __aicore__ inline void CopyIn(uint32_t tile, uint32_t chunk, uint32_t rows, uint32_t width)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t widthAligned = AlignUp(width, 32 / sizeof(T));
        // rows blocks of width elements, (cols - width) elements apart in GM; the UB rows are zero-padded to
        // widthAligned so that the padding adds nothing to the sums.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(width * sizeof(T)),
                                              static_cast<uint32_t>((cols - width) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(widthAligned - width), 0};
        uint64_t offset = static_cast<uint64_t>(tile) * tileRows * cols + static_cast<uint64_t>(chunk) * tileCols;
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& sums, uint32_t rows, uint32_t width, bool first)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        uint32_t widthAligned = AlignUp(width, 32 / sizeof(T));
        AscendC::LocalTensor<float> work;
        if constexpr (IsFloat()) {
            work = xLocal.template ReinterpretCast<float>();
        } else {
            work = castBuf.Get<float>();
            AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, rows * widthAligned);
            AscendC::PipeBarrier<PIPE_V>();
        }
        // Fold the 64-float column chunks of every row into its first chunk (one repeat per row).
        uint8_t rowBlocks = static_cast<uint8_t>(widthAligned * sizeof(float) / 32);
        AscendC::BinaryRepeatParams foldParams(1, 1, 1, rowBlocks, rowBlocks, rowBlocks);
        for (uint32_t c = FLOATS_PER_REPEAT; c < widthAligned; c += FLOATS_PER_REPEAT) {
            uint32_t w = widthAligned - c < FLOATS_PER_REPEAT ? widthAligned - c : FLOATS_PER_REPEAT;
            AscendC::Add(work, work, work[c], static_cast<uint64_t>(w), static_cast<uint8_t>(rows), foldParams);
            AscendC::PipeBarrier<PIPE_V>();
        }
        int32_t mask = widthAligned < FLOATS_PER_REPEAT ? widthAligned : FLOATS_PER_REPEAT;
        if (first) {
            AscendC::WholeReduceSum(sums, work, mask, static_cast<int32_t>(rows), 1, 1, rowBlocks);
        } else {
            AscendC::LocalTensor<float> part = partBuf.Get<float>();
            AscendC::WholeReduceSum(part, work, mask, static_cast<int32_t>(rows), 1, 1, rowBlocks);
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Add(sums, sums, part, rows);
        }
        AscendC::PipeBarrier<PIPE_V>();
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t tile, uint32_t rows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(rows * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[tile * tileRows], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, partBuf, castBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t tileRows = 0;
    uint32_t tileCols = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelReduceSum<float> op;
        op.Init(x, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
                tilingData.tileRows, tilingData.tileCols);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelReduceSum<half> op;
        op.Init(x, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
                tilingData.tileRows, tilingData.tileCols);
        op.Process();
    }
}
