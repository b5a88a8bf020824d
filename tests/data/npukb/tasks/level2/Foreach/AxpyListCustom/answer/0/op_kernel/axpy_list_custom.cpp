// y[i] = x1[i] + x2[i] * alpha. x1 and y are read through ListTensorDesc; x2 through the descriptor's pointer
// table (word 0 is its byte offset), as the cann-ops Foreach kernels read their lists.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAxpyList {
public:
    __aicore__ inline KernelAxpyList() {}
    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR alpha, GM_ADDR y, const AxpyListTilingData* t)
    {
        x1List.Init(x1);
        yList.Init(y);
        __gm__ uint64_t* words = reinterpret_cast<__gm__ uint64_t*>(x2);
        x2Ptrs = words + (*words >> 3);
        tiling = t;
        aGm.SetGlobalBuffer((__gm__ T*)alpha, 1);
        pipe.InitBuffer(q1, BUFFER_NUM, t->tile * sizeof(T));
        pipe.InitBuffer(q2, BUFFER_NUM, t->tile * sizeof(T));
        pipe.InitBuffer(qy, BUFFER_NUM, t->tile * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        T a = aGm.GetValue(0);
        for (uint32_t i = GetBlockIdx(); i < tiling->count; i += GetBlockNum()) {
            uint32_t n = tiling->numel[i];
            x1Gm.SetGlobalBuffer(x1List.GetDataPtr<T>(i), n);
            x2Gm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x2Ptrs[i]), n);
            yGm.SetGlobalBuffer(yList.GetDataPtr<T>(i), n);
            for (uint32_t off = 0; off < n; off += tiling->tile) {
                uint32_t len = n - off < tiling->tile ? n - off : tiling->tile;
                Step(off, len, a);
            }
        }
    }

private:
    __aicore__ inline void Step(uint32_t off, uint32_t len, T a)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        LocalTensor<T> l1 = q1.AllocTensor<T>();
        LocalTensor<T> l2 = q2.AllocTensor<T>();
        DataCopyPad(l1, x1Gm[off], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(l2, x2Gm[off], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        q1.EnQue(l1);
        q2.EnQue(l2);
        l1 = q1.DeQue<T>();
        l2 = q2.DeQue<T>();
        LocalTensor<T> ly = qy.AllocTensor<T>();
        Muls(l2, l2, a, len);
        Add(ly, l1, l2, len);
        qy.EnQue(ly);
        q1.FreeTensor(l1);
        q2.FreeTensor(l2);
        ly = qy.DeQue<T>();
        DataCopyPad(yGm[off], ly, params);
        qy.FreeTensor(ly);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> q1, q2;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qy;
    ListTensorDesc x1List, yList;
    __gm__ uint64_t* x2Ptrs = nullptr;
    GlobalTensor<T> x1Gm, x2Gm, yGm, aGm;
    const AxpyListTilingData* tiling = nullptr;
};

extern "C" __global__ __aicore__ void axpy_list_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR alpha, GM_ADDR y,
                                                       GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        KernelAxpyList<half> op;
        op.Init(x1, x2, alpha, y, &tilingData);
        op.Process();
    } else if (TILING_KEY_IS(0)) {
        KernelAxpyList<float> op;
        op.Init(x1, x2, alpha, y, &tilingData);
        op.Process();
    }
}
