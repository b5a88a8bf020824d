// y = value everywhere; value is the Scalar() input, one element in GM of the column's dtype (DTYPE_VALUE).
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelFill {
public:
    __aicore__ inline KernelFill() {}
    __aicore__ inline void Init(GM_ADDR value, GM_ADDR y, uint32_t total, uint32_t perCore, uint32_t tile)
    {
        uint32_t start = perCore * GetBlockIdx();
        this->length = start >= total ? 0 : (total - start < perCore ? total - start : perCore);
        this->tile = tile;
        vGm.SetGlobalBuffer((__gm__ T*)value, 1);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, this->length);
        pipe.InitBuffer(outQ, 1, tile * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        T v = vGm.GetValue(0);
        for (uint32_t off = 0; off < this->length; off += this->tile) {
            uint32_t n = this->length - off < this->tile ? this->length - off : this->tile;
            LocalTensor<T> yl = outQ.AllocTensor<T>();
            Duplicate(yl, v, n);
            outQ.EnQue(yl);
            yl = outQ.DeQue<T>();
            DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
            outQ.FreeTensor(yl);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<T> vGm, yGm;
    uint32_t length = 0, tile = 0;
};

extern "C" __global__ __aicore__ void fill_custom(GM_ADDR value, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelFill<DTYPE_VALUE> op;
    op.Init(value, y, tilingData.totalLength, tilingData.perCore, tilingData.tileLength);
    op.Process();
}
