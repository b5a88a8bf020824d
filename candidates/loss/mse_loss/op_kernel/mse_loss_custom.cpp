// MseLossCustom, kernel side: each vector core streams its share of pred / target through UB in double-buffered
// tiles (DataCopyPad for the tail), widens 16-bit tiles to float, and adds (pred - target)^2 elementwise into a
// float accumulator tile; one ReduceSum at the end gives the core's partial sum, stored in its 32-byte workspace
// slot. After SyncAll, core 0 loads the slots, adds them, multiplies by 1 / N and writes the 0-dim result.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_BLOCK = 8;

template <typename T>
class KernelMseLoss {
    static constexpr bool IS_FLOAT = sizeof(T) == sizeof(float);

public:
    __aicore__ inline KernelMseLoss() {}
    __aicore__ inline void Init(GM_ADDR pred, GM_ADDR target, GM_ADDR y, GM_ADDR workspace, uint32_t totalLength,
                                uint32_t formerNum, uint32_t formerLength, uint32_t tailLength, uint32_t tileLength,
                                uint32_t usedCores, float scale)
    {
        idx = AscendC::GetBlockIdx();
        uint32_t offset;
        if (idx < formerNum) {
            offset = idx * formerLength;
            coreLength = formerLength;
        } else {
            offset = formerNum * formerLength + (idx - formerNum) * tailLength;
            coreLength = tailLength;
        }
        if (offset + coreLength > totalLength) {
            coreLength = totalLength - offset;   // the last core ends inside a 32-byte block
        }
        this->tileLength = tileLength;
        this->usedCores = usedCores;
        this->scale = scale;
        predGm.SetGlobalBuffer((__gm__ T*)pred + offset, coreLength);
        targetGm.SetGlobalBuffer((__gm__ T*)target + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ T*)y, 1);
        partialGm.SetGlobalBuffer((__gm__ float*)workspace, usedCores * FLOATS_PER_BLOCK);
        pipe.InitBuffer(inQueuePred, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueTarget, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueuePartials, 1, usedCores * FLOATS_PER_BLOCK * sizeof(float));
        pipe.InitBuffer(outQueue, 1, FLOATS_PER_BLOCK * sizeof(float));
        pipe.InitBuffer(accBuf, tileLength * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLength * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(predF, tileLength * sizeof(float));
            pipe.InitBuffer(targetF, tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tileLength);
        AscendC::PipeBarrier<PIPE_V>();
        uint32_t tileNum = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t len = (i == tileNum - 1) ? coreLength - i * tileLength : tileLength;
            CopyIn(i, len);
            Compute(acc, len);
        }
        // this core's partial sum -> its workspace slot (the rest of the slot holds zeros)
        AscendC::LocalTensor<float> slot = outQueue.AllocTensor<float>();
        AscendC::Duplicate(slot, 0.0f, FLOATS_PER_BLOCK);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::ReduceSum(slot, acc, tmpBuf.Get<float>(), tileLength);
        outQueue.EnQue(slot);
        slot = outQueue.DeQue<float>();
        AscendC::DataCopy(partialGm[idx * FLOATS_PER_BLOCK], slot, FLOATS_PER_BLOCK);
        outQueue.FreeTensor(slot);

        AscendC::SyncAll();
        if (idx == 0) {
            Finish();
        }
    }

private:
    __aicore__ inline bool Aligned(uint32_t len) const { return (len * sizeof(T)) % 32 == 0; }
    __aicore__ inline void CopyTileIn(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                      uint32_t len)
    {
        if (Aligned(len)) {
            AscendC::DataCopy(dst, src, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> predLocal = inQueuePred.AllocTensor<T>();
        CopyTileIn(predLocal, predGm[progress * tileLength], len);
        inQueuePred.EnQue(predLocal);
        AscendC::LocalTensor<T> targetLocal = inQueueTarget.AllocTensor<T>();
        CopyTileIn(targetLocal, targetGm[progress * tileLength], len);
        inQueueTarget.EnQue(targetLocal);
    }
    // acc[0, len) += (pred - target)^2
    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& acc, uint32_t len)
    {
        AscendC::LocalTensor<T> predLocal = inQueuePred.DeQue<T>();
        AscendC::LocalTensor<T> targetLocal = inQueueTarget.DeQue<T>();
        AscendC::LocalTensor<float> p, t;
        if constexpr (IS_FLOAT) {
            p = predLocal;
            t = targetLocal;
        } else {
            p = predF.Get<float>();
            t = targetF.Get<float>();
            AscendC::Cast(p, predLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(t, targetLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::PipeBarrier<PIPE_V>();
        }
        AscendC::Sub(p, p, t, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Mul(p, p, p, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Add(acc, acc, p, len);
        AscendC::PipeBarrier<PIPE_V>();
        inQueuePred.FreeTensor(predLocal);
        inQueueTarget.FreeTensor(targetLocal);
    }
    // core 0: y = (sum of the partial sums) / N, rounded once to T
    __aicore__ inline void Finish()
    {
        uint32_t count = usedCores * FLOATS_PER_BLOCK;
        AscendC::LocalTensor<float> partials = inQueuePartials.AllocTensor<float>();
        AscendC::DataCopy(partials, partialGm, count);
        inQueuePartials.EnQue(partials);
        partials = inQueuePartials.DeQue<float>();
        AscendC::LocalTensor<float> total = tmpBuf.Get<float>();
        AscendC::ReduceSum(total, partials, accBuf.Get<float>(), count);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(total, total, scale, 1);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            AscendC::Adds(yLocal, total, 0.0f, 1);
        } else {
            AscendC::Cast(yLocal, total, AscendC::RoundMode::CAST_RINT, 1);
        }
        outQueue.EnQue(yLocal);
        inQueuePartials.FreeTensor(partials);
        yLocal = outQueue.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm, yLocal, copyParams);
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueuePred, inQueueTarget;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueuePartials;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, tmpBuf, predF, targetF;
    AscendC::GlobalTensor<T> predGm, targetGm, yGm;
    AscendC::GlobalTensor<float> partialGm;
    uint32_t idx = 0;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
    uint32_t usedCores = 0;
    float scale = 0;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR pred, GM_ADDR target, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);   // SyncAll (hard, AIV only) needs a MIX kernel type
    GET_TILING_DATA(t, tiling);
    KernelMseLoss<DTYPE_PRED> op;
    op.Init(pred, target, y, AscendC::GetUserWorkspace(workspace), t.totalLength, t.formerNum, t.formerLength,
            t.tailLength, t.tileLength, t.usedCores, t.scale);
    op.Process();
}
