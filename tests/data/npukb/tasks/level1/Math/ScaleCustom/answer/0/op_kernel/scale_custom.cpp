// y = x * alpha; alpha is the Scalar() input, a 1-element tensor in GM.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR alpha, GM_ADDR y, uint32_t total, uint32_t perCore, uint32_t tile)
    {
        ASSERT(GetBlockNum() != 0 && "block dim can not be zero!")   // no ';': the device build compiles ASSERT away
        uint32_t start = perCore * GetBlockIdx();
        this->length = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
        this->tile = tile;
        xGm.SetGlobalBuffer((__gm__ T*)x + start, this->length);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, this->length);
        aGm.SetGlobalBuffer((__gm__ T*)alpha, 1);
        pipe.InitBuffer(inQ, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, tile * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        T a = aGm.GetValue(0);
        if constexpr (std::is_same_v<T, float32_t>) {   // the device compiler's name of float
            a = a * static_cast<T>(1.0f);
        }
        for (uint32_t off = 0; off < this->length; off += this->tile) {
            uint32_t n = this->length - off < this->tile ? this->length - off : this->tile;
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            LocalTensor<T> xl = inQ.AllocTensor<T>();
            DataCopyPad(xl, xGm[off], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(xl);
            xl = inQ.DeQue<T>();
            LocalTensor<T> yl = outQ.AllocTensor<T>();
            Muls(yl, xl, a, n);
            outQ.EnQue(yl);
            inQ.FreeTensor(xl);
            yl = outQ.DeQue<T>();
            DataCopyPad(yGm[off], yl, params);
            outQ.FreeTensor(yl);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<T> xGm, yGm, aGm;
    uint32_t length = 0, tile = 0;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR alpha, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (tilingData.isHalf) {
        KernelScale<half> op;
        op.Init(x, alpha, y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength);
        op.Process();
    } else {
        KernelScale<float> op;
        op.Init(x, alpha, y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength);
        op.Process();
    }
}
