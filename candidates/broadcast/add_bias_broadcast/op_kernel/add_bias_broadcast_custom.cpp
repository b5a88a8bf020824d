// AddBiasBroadcastCustom, kernel side: y = x + bias per plane (plane p of x takes bias[p % C]). At start each core
// expands bias into one 32-byte block per channel with Brcb; a tile of planes (one per UB row, padded to 32 bytes)
// is then added with one repeat-form Add per 256-byte column chunk: one repeat per plane, src1 block stride 0 and
// repeat stride 1 block, so every plane reads its own channel's block and no scalar bias is ever read. A run of
// planes is split where the channel index wraps. bfloat16 tiles are widened to float32 in UB and rounded back once.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAddBiasBroadcast {
    static constexpr bool WIDEN = std::is_same<T, bfloat16_t>::value;   // no bfloat16 vector arithmetic on the 910B
    using CT = typename std::conditional<WIDEN, float, T>::type;       // the type the add runs in

public:
    __aicore__ inline KernelAddBiasBroadcast() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, uint32_t channels, uint32_t planeLen,
                                uint32_t chunkLen, uint32_t pitch, uint32_t formerNum, uint32_t formerPlanes,
                                uint32_t tailPlanes, uint32_t tilePlanes)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        if (idx < formerNum) {
            firstPlane = idx * formerPlanes;
            corePlanes = formerPlanes;
        } else {
            firstPlane = formerNum * formerPlanes + (idx - formerNum) * tailPlanes;
            corePlanes = tailPlanes;
        }
        this->channels = channels;
        this->planeLen = planeLen;
        this->chunkLen = chunkLen;
        this->pitch = pitch;
        this->tilePlanes = tilePlanes;
        uint64_t offset = static_cast<uint64_t>(firstPlane) * planeLen;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, static_cast<uint64_t>(corePlanes) * planeLen);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, static_cast<uint64_t>(corePlanes) * planeLen);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, channels);
        brcbElems = (channels + 7) / 8 * 8;
        pipe.InitBuffer(biasQueue, 1, AlignUp(channels) * sizeof(T));
        pipe.InitBuffer(biasBlockBuf, brcbElems * 32);
        if constexpr (WIDEN) {
            pipe.InitBuffer(biasFloatBuf, brcbElems * sizeof(float));
            pipe.InitBuffer(tileFloatBuf, tilePlanes * pitch * sizeof(float));
        }
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tilePlanes * pitch * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tilePlanes * pitch * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        if (corePlanes == 0) {
            return;
        }
        LoadBias();
        for (uint32_t p = 0; p < corePlanes; p += tilePlanes) {
            uint32_t planes = corePlanes - p < tilePlanes ? corePlanes - p : tilePlanes;
            for (uint32_t c = 0; c < planeLen; c += chunkLen) {
                uint32_t len = planeLen - c < chunkLen ? planeLen - c : chunkLen;
                uint64_t gmOffset = static_cast<uint64_t>(p) * planeLen + c;
                CopyIn(gmOffset, planes, len);
                Compute(firstPlane + p, planes, len);
                CopyOut(gmOffset, planes, len);
            }
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t n) const
    {
        constexpr uint32_t blockElems = 32 / sizeof(T);
        return (n + blockElems - 1) / blockElems * blockElems;
    }
    // bias -> biasBlock: block ch holds bias[ch] in every lane (32 bytes of CT).
    __aicore__ inline void LoadBias()
    {
        AscendC::LocalTensor<T> biasLocal = biasQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(channels * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(AlignUp(channels) - channels), 0};
        AscendC::DataCopyPad(biasLocal, biasGm, copyParams, padParams);     // the pad is zeroed: Brcb reads it
        biasQueue.EnQue(biasLocal);
        biasLocal = biasQueue.DeQue<T>();
        biasBlock = biasBlockBuf.Get<CT>();
        AscendC::BrcbRepeatParams brcbParams(1, 8);
        if constexpr (WIDEN) {
            AscendC::LocalTensor<float> biasFloat = biasFloatBuf.Get<float>();
            AscendC::Cast(biasFloat, biasLocal, AscendC::RoundMode::CAST_NONE, brcbElems);
            AscendC::Brcb(biasBlock, biasFloat, static_cast<uint8_t>(brcbElems / 8), brcbParams);
        } else {
            AscendC::Brcb(biasBlock, biasLocal, static_cast<uint8_t>(brcbElems / 8), brcbParams);
        }
        biasQueue.FreeTensor(biasLocal);
    }
    __aicore__ inline void CopyIn(uint64_t gmOffset, uint32_t planes, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        // planes GM runs of len elements, planeLen apart; each lands on a UB row of pitch elements. bfloat16 rows
        // are zero-padded to the pitch, because the widening Cast reads whole rows.
        uint32_t rowPad = AlignUp(len) - len;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(planes), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((planeLen - len) * sizeof(T)),
                                              static_cast<uint32_t>((pitch - AlignUp(len)) * sizeof(T) / 32), 0};
        AscendC::DataCopyPadExtParams<T> padParams{WIDEN, 0, static_cast<uint8_t>(WIDEN ? rowPad : 0), 0};
        AscendC::DataCopyPad(xLocal, xGm[gmOffset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void AddBias(const AscendC::LocalTensor<CT>& dst, const AscendC::LocalTensor<CT>& src,
                                   uint32_t plane, uint32_t planes, uint32_t len)
    {
        constexpr uint32_t perRepeat = 256 / sizeof(CT);         // elements one repeat processes
        constexpr uint32_t blockElems = 32 / sizeof(CT);
        uint8_t rowBlocks = static_cast<uint8_t>(pitch * sizeof(CT) / 32);
        AscendC::BinaryRepeatParams params(1, 1, 0, rowBlocks, rowBlocks, 1);
        uint32_t i = 0;
        while (i < planes) {
            uint32_t ch = (plane + i) % channels;
            uint32_t run = planes - i < channels - ch ? planes - i : channels - ch;   // planes before the wrap
            for (uint32_t c = 0; c < len; c += perRepeat) {
                uint32_t width = len - c < perRepeat ? len - c : perRepeat;
                AscendC::Add(dst[i * pitch + c], src[i * pitch + c], biasBlock[ch * blockElems],
                             static_cast<uint64_t>(width), static_cast<uint8_t>(run), params);
            }
            i += run;
        }
    }
    __aicore__ inline void Compute(uint32_t plane, uint32_t planes, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (WIDEN) {
            AscendC::LocalTensor<float> wide = tileFloatBuf.Get<float>();
            uint32_t count = (planes - 1) * pitch + AlignUp(len);
            AscendC::Cast(wide, xLocal, AscendC::RoundMode::CAST_NONE, count);
            AddBias(wide, wide, plane, planes, len);
            AscendC::Cast(yLocal, wide, AscendC::RoundMode::CAST_RINT, count);
        } else {
            AddBias(yLocal, xLocal, plane, planes, len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t gmOffset, uint32_t planes, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(planes), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((pitch - AlignUp(len)) * sizeof(T) / 32),
                                              static_cast<uint32_t>((planeLen - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[gmOffset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> biasQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::TPosition::VECCALC> biasBlockBuf;   // one 32-byte block of bias per channel
    AscendC::TBuf<AscendC::TPosition::VECCALC> biasFloatBuf;   // bfloat16 only: bias widened to float32
    AscendC::TBuf<AscendC::TPosition::VECCALC> tileFloatBuf;   // bfloat16 only: the tile widened to float32
    AscendC::LocalTensor<CT> biasBlock;
    AscendC::GlobalTensor<T> xGm, biasGm, yGm;
    uint32_t firstPlane = 0;
    uint32_t corePlanes = 0;
    uint32_t channels = 0;
    uint32_t planeLen = 0;
    uint32_t chunkLen = 0;
    uint32_t pitch = 0;
    uint32_t tilePlanes = 0;
    uint32_t brcbElems = 0;
};

extern "C" __global__ __aicore__ void add_bias_broadcast_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddBiasBroadcast<DTYPE_X> op;
    op.Init(x, bias, y, tilingData.channels, tilingData.planeLen, tilingData.chunkLen, tilingData.pitch,
            tilingData.formerNum, tilingData.formerPlanes, tilingData.tailPlanes, tilingData.tilePlanes);
    op.Process();
}
