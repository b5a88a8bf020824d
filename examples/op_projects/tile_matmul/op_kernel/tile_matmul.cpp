// TileMatmul, kernel side, written the way Catlass writes kernels (the NPUKernelBench GMM answers are inlined Catlass):
// - the kernel dispatches on the core type with a member function template whose default argument is g_coreType and
//   an explicit specialization inside the class, for AIC only: the chip builds the kernel once per core type, and the
//   vector build, which has no code, does not link, so the kernel runs on cube cores alone;
// - a member class template specialized inside the class (the accumulator type);
// - whole memories taken as TBufs once, then TPipe::Destroy(): the tensors stay usable;
// - Mmad and Fixpipe ordered by the L0C unit flags (unitFlag 3), not by SetFlag/WaitFlag;
// - every tile computed 32 rows high: past the matrix's edge A's rows are garbage, and so are the rows of C computed
//   from them, which Fixpipe never moves out (mSize is the rows that exist).
#include "kernel_operator.h"

namespace tm {
constexpr uint32_t TILE_M = 32;

struct Resource {
    AscendC::TPipe pipe;
    AscendC::LocalTensor<uint8_t> l1, l0a, l0b, l0c;
    __aicore__ inline Resource()
    {
        AscendC::TBuf<AscendC::TPosition::A1> l1Buf;
        AscendC::TBuf<AscendC::TPosition::A2> l0aBuf;
        AscendC::TBuf<AscendC::TPosition::B2> l0bBuf;
        AscendC::TBuf<AscendC::TPosition::CO1> l0cBuf;
        pipe.InitBuffer(l1Buf, 512 * 1024);
        pipe.InitBuffer(l0aBuf, 64 * 1024);
        pipe.InitBuffer(l0bBuf, 64 * 1024);
        pipe.InitBuffer(l0cBuf, 128 * 1024);
        l1 = l1Buf.Get<uint8_t>();
        l0a = l0aBuf.Get<uint8_t>();
        l0b = l0bBuf.Get<uint8_t>();
        l0c = l0cBuf.Get<uint8_t>();
        pipe.Destroy();
    }
};

template <class Element>
class Kernel {
public:
    struct Params {
        GM_ADDR a;   // GM_ADDR is a macro (`__gm__ uint8_t*`): one declarator each
        GM_ADDR b;
        GM_ADDR c;
        uint32_t m, k, n;
    };

    template <class T>
    struct Accumulator { using type = T; };
    template <>
    struct Accumulator<half> { using type = float; };
    using ElementC = typename Accumulator<Element>::type;

    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(const Params& p);

    template <>
    __aicore__ inline void operator()<AscendC::AIC>(const Params& p)
    {
        const uint32_t row0 = AscendC::GetBlockIdx() * TILE_M;
        const uint32_t rows = min(p.m - row0, TILE_M);
        const uint16_t kBlocks = (p.k + 15) / 16, nBlocks = (p.n + 15) / 16;
        AscendC::GlobalTensor<Element> aGm, bGm;
        AscendC::GlobalTensor<ElementC> cGm;
        aGm.SetGlobalBuffer((__gm__ Element*)p.a + static_cast<uint64_t>(row0) * p.k, rows * p.k);
        bGm.SetGlobalBuffer((__gm__ Element*)p.b, p.k * p.n);
        cGm.SetGlobalBuffer((__gm__ ElementC*)p.c + static_cast<uint64_t>(row0) * p.n, rows * p.n);
        Resource res;
        AscendC::LocalTensor<Element> a1 = res.l1.ReinterpretCast<Element>();
        AscendC::LocalTensor<Element> b1 = a1[TILE_M * kBlocks * 16];
        AscendC::LocalTensor<Element> a2 = res.l0a.ReinterpretCast<Element>();
        AscendC::LocalTensor<Element> b2 = res.l0b.ReinterpretCast<Element>();
        AscendC::LocalTensor<ElementC> c1 = res.l0c.ReinterpretCast<ElementC>();

        // ND -> NZ in L1: A as column blocks TILE_M rows high (only `rows` of them written), B as column blocks
        // kBlocks * 16 rows high (its last block's columns zero-padded by Nd2Nz).
        AscendC::DataCopy(a1, aGm, AscendC::Nd2NzParams(1, rows, p.k, 0, p.k, TILE_M, 1, 0));
        AscendC::DataCopy(b1, bGm, AscendC::Nd2NzParams(1, p.k, p.n, 0, p.n, kBlocks * 16, 1, 0));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
        AscendC::LoadData2DParams aLoad;
        aLoad.repeatTimes = TILE_M / 16;
        aLoad.srcStride = 1;
        aLoad.dstGap = kBlocks - 1;
        for (uint16_t kb = 0; kb < kBlocks; ++kb) AscendC::LoadData(a2[kb * 256], a1[kb * TILE_M * 16], aLoad);
        for (uint16_t nb = 0; nb < nBlocks; ++nb) {
            AscendC::LoadData2dTransposeParams bLoad;
            bLoad.startIndex = nb * kBlocks;
            bLoad.repeatTimes = kBlocks;
            bLoad.srcStride = 1;
            bLoad.dstGap = nBlocks - 1;
            AscendC::LoadDataWithTranspose(b2[nb * 256], b1, bLoad);
        }
        AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);

        AscendC::MmadParams mmad;
        mmad.m = TILE_M;   // the whole tile, past the edge too
        mmad.n = p.n;
        mmad.k = p.k;
        mmad.unitFlag = 3;
        AscendC::Mmad(c1, a2, b2, mmad);

        AscendC::FixpipeParamsV220 out;
        out.nSize = p.n;
        out.mSize = rows;
        out.srcStride = TILE_M;
        out.dstStride = p.n;
        out.ndNum = 1;
        out.quantPre = QuantMode_t::NoQuant;
        out.unitFlag = 3;
        AscendC::Fixpipe(cGm, c1, out);
    }
};
}  // namespace tm

extern "C" __global__ __aicore__ void tile_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    using Kernel = tm::Kernel<half>;
    Kernel::Params params{a, b, c, t.m, t.k, t.n};
    Kernel kernel;
    kernel(params);
}
