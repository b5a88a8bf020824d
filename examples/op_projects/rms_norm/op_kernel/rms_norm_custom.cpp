// RmsNormCustom, kernel side: each vector core normalizes its rows of x[M, N] in [tileRows, N] UB tiles with the
// RmsNorm high-level API. DataCopyPad pads every row (and gamma) with zeros to a 32-byte boundary, so the API sees
// [1, rows, N padded] with originalHLength = N: the padding adds nothing to the sum of squares and the mean divides
// by N. The host computed one RmsNormTiling per tile shape: full tiles, and the last tile of a core, whose row count
// differs between the cores that take formerRows and those that take tailRows rows.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, uint32_t cols, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t tileRows, uint32_t tmpBytes,
                                float epsilon, const RmsNormTiling& fullTiling, const RmsNormTiling& formerLastTiling,
                                const RmsNormTiling& tailLastTiling)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t firstRow;
        if (idx < formerNum) {
            firstRow = idx * formerRows;
            coreRows = formerRows;
            lastTiling = formerLastTiling;
        } else {
            firstRow = formerNum * formerRows + (idx - formerNum) * tailRows;
            coreRows = tailRows;
            lastTiling = tailLastTiling;
        }
        this->fullTiling = fullTiling;
        this->cols = cols;
        this->tileRows = tileRows;
        this->epsilon = static_cast<T>(epsilon);
        colsAligned = (cols * sizeof(T) + 31) / 32 * 32 / sizeof(T);
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(coreRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(coreRows) * cols);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);

        pipe.InitBuffer(gammaQueue, 1, colsAligned * sizeof(T));
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * colsAligned * sizeof(T));
        pipe.InitBuffer(tmpBuf, tmpBytes);
    }
    __aicore__ inline void Process()
    {
        // gamma, zero-padded to colsAligned (the API reads all of it), kept for the whole kernel
        AscendC::LocalTensor<T> gammaLocal = gammaQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(colsAligned - cols), 0};
        AscendC::DataCopyPad(gammaLocal, gammaGm, copyParams, padParams);
        gammaQueue.EnQue(gammaLocal);
        gammaLocal = gammaQueue.DeQue<T>();

        uint32_t tileNum = (coreRows + tileRows - 1) / tileRows;
        for (uint32_t i = 0; i < tileNum; i++) {
            bool last = i == tileNum - 1;
            uint32_t rows = last ? coreRows - i * tileRows : tileRows;
            CopyIn(i, rows);
            Compute(gammaLocal, last ? lastTiling : fullTiling);
            CopyOut(i, rows);
        }
        gammaQueue.FreeTensor(gammaLocal);
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(colsAligned - cols), 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * tileRows * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<T>& gammaLocal, const RmsNormTiling& tiling)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        AscendC::RmsNorm<T>(yLocal, xLocal, gammaLocal, tmp, epsilon, tiling);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> gammaQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<T> xGm, gammaGm, yGm;
    RmsNormTiling fullTiling;
    RmsNormTiling lastTiling;
    uint32_t coreRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t tileRows = 0;
    T epsilon = 0;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsNorm<DTYPE_X> op;
    op.Init(x, gamma, y, tilingData.cols, tilingData.formerNum, tilingData.formerRows, tilingData.tailRows,
            tilingData.tileRows, tilingData.tmpBytes, tilingData.epsilon, tilingData.fullTiling,
            tilingData.formerLastTiling, tilingData.tailLastTiling);
    op.Process();
}
