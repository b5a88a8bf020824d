// ReluCustom with hand-written synchronisation, the fixture of tests/data_mutate_test.sh's `missing-wait` fault: x and
// y live in plain TBuf buffers (no queues), so each hand-over between pipes is a SetFlag/WaitFlag pair: MTE2 -> V
// (x loaded), V -> MTE3 (y computed), V -> MTE2 and MTE3 -> V (the buffers free again). Dropping any WaitFlag lets
// one pipe touch a buffer another pipe has not finished with, which kgen's race detector reports.
#include "kernel_operator.h"

template <typename T>
class KernelReluFlags {
public:
    __aicore__ inline KernelReluFlags() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t offset;
        if (idx < formerNum) {
            offset = idx * formerLength;
            coreLength = formerLength;
        } else {
            offset = formerNum * formerLength + (idx - formerNum) * tailLength;
            coreLength = tailLength;
        }
        if (offset + coreLength > totalLength) {
            coreLength = totalLength - offset;
        }
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, coreLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, coreLength);
        pipe.InitBuffer(xBuf, tileLength * sizeof(T));
        pipe.InitBuffer(yBuf, tileLength * sizeof(T));
        pipe.InitBuffer(workBuf, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> xLocal = xBuf.Get<T>();
        AscendC::LocalTensor<T> yLocal = yBuf.Get<T>();
        uint32_t tileNum = (coreLength + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t len = (i == tileNum - 1) ? coreLength - i * tileLength : tileLength;
            bool aligned = (len * sizeof(T)) % 32 == 0;
            if (aligned) {
                AscendC::DataCopy(xLocal, xGm[i * tileLength], len);
            } else {
                AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
                AscendC::DataCopyPad(xLocal, xGm[i * tileLength], copyParams, padParams);
            }
            event_t loaded = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_V));
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(loaded);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(loaded);
            if constexpr (std::is_same<T, bfloat16_t>::value) {
                AscendC::LocalTensor<float> work = workBuf.Get<float>();
                AscendC::Cast(work, xLocal, AscendC::RoundMode::CAST_NONE, len);
                AscendC::Relu(work, work, len);
                AscendC::Cast(yLocal, work, AscendC::RoundMode::CAST_RINT, len);
            } else {
                AscendC::Relu(yLocal, xLocal, len);
            }
            event_t computed = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_MTE3));
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(computed);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(computed);
            event_t xFree = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_MTE2));
            AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(xFree);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(xFree);
            if (aligned) {
                AscendC::DataCopy(yGm[i * tileLength], yLocal, len);
            } else {
                AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
                AscendC::DataCopyPad(yGm[i * tileLength], yLocal, copyParams);
            }
            event_t yFree = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE3_V));
            AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(yFree);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(yFree);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, yBuf, workBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t coreLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReluFlags<DTYPE_X> op;
    op.Init(x, y, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength);
    op.Process();
}
