// y[i] = sigmoid(x[i] * scales[i]). The element operations are template arguments of the kernel class: AscendC APIs
// taken by address (Muls, Sigmoid<float, false>) or a kernel function that calls one (SigmoidWhole).
#include "kernel_operator.h"
#include "lib/sigmoid/kernel_operator_sigmoid_intf.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
template <typename T>
using ScalarOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);
template <typename T>
using UnaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t);

// Sigmoid of the whole buffer (the count is the tensor's size), whatever part of it the tile filled.
template <typename T>
__aicore__ void SigmoidWhole(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t)
{
    Sigmoid<T>(dst, src);
}

template <typename T, ScalarOp<float>* mul, UnaryOp<float>* act>
class KernelScaleSigmoidList {
public:
    __aicore__ inline KernelScaleSigmoidList() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scales, GM_ADDR y, const ScaleSigmoidListTilingData* t)
    {
        xList.Init(x);
        yList.Init(y);
        sGm.SetGlobalBuffer((__gm__ float*)scales, t->count);
        tiling = t;
        pipe.InitBuffer(qx, BUFFER_NUM, t->tile * sizeof(T));
        pipe.InitBuffer(qy, BUFFER_NUM, t->tile * sizeof(T));
#if ORIG_DTYPE_X == DT_FLOAT16
        pipe.InitBuffer(fx, t->tile * sizeof(float));
        pipe.InitBuffer(fy, t->tile * sizeof(float));
#endif
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = GetBlockIdx(); i < tiling->count; i += GetBlockNum()) {
            uint32_t n = tiling->numel[i];
            float s = sGm.GetValue(i);
            xGm.SetGlobalBuffer(xList.GetDataPtr<T>(i), n);
            yGm.SetGlobalBuffer(yList.GetDataPtr<T>(i), n);
            for (uint32_t off = 0; off < n; off += tiling->tile) {
                Step(off, n - off < tiling->tile ? n - off : tiling->tile, s);
            }
        }
    }

private:
    __aicore__ inline void Step(uint32_t off, uint32_t len, float s)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        LocalTensor<T> lx = qx.AllocTensor<T>();
        DataCopyPad(lx, xGm[off], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        qx.EnQue(lx);
        lx = qx.DeQue<T>();
        LocalTensor<T> ly = qy.AllocTensor<T>();
#if ORIG_DTYPE_X == DT_FLOAT16
        LocalTensor<float> a = fx.Get<float>();
        LocalTensor<float> b = fy.Get<float>();
        Cast(a, lx, RoundMode::CAST_NONE, len);
        mul(a, a, s, len);
        act(b, a, len);
        Cast(ly, b, RoundMode::CAST_RINT, len);
#else
        mul(lx, lx, s, len);
        act(ly, lx, len);
#endif
        qy.EnQue(ly);
        qx.FreeTensor(lx);
        ly = qy.DeQue<T>();
        DataCopyPad(yGm[off], ly, params);
        qy.FreeTensor(ly);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qx;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qy;
    TBuf<TPosition::VECCALC> fx, fy;
    ListTensorDesc xList, yList;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> sGm;
    const ScaleSigmoidListTilingData* tiling = nullptr;
};

extern "C" __global__ __aicore__ void scale_sigmoid_list_custom(GM_ADDR x, GM_ADDR scales, GM_ADDR y,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
#if ORIG_DTYPE_X == DT_FLOAT16
    KernelScaleSigmoidList<half, Muls, SigmoidWhole<float>> op;
#else
    KernelScaleSigmoidList<float, Muls, Sigmoid<float, false>> op;
#endif
    op.Init(x, scales, y, &tilingData);
    op.Process();
}
