// MatmulCustom, kernel side: c = a @ b (+ bias) with the Matmul API. MultiCoreMatmulTiling split [M, N] into
// singleCoreM x singleCoreN blocks, one per vector core (GetBlockIdx() < usedCoreNum); each core offsets a, b,
// bias and c to its block and tells the Matmul its (possibly smaller) tail block with SetTail. Using a Matmul object
// makes this a MIX kernel (one AIC with two AIVs per block), as CANN's compiler infers; no KERNEL_TASK_TYPE needed.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, DTYPE_A>;
using BType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, DTYPE_B>;
using CType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BiasType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const TCubeTiling& cube = tilingData.cubeTilingData;
    if (AscendC::GetBlockIdx() >= cube.usedCoreNum) {
        return;
    }

    AscendC::TPipe pipe;
    AscendC::Matmul<AType, BType, CType, BiasType> mm;
    REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tilingData.cubeTilingData);

    // This core's block of c: row block mIdx, column block nIdx.
    int32_t mBlocks = (cube.M + cube.singleCoreM - 1) / cube.singleCoreM;
    int32_t mIdx = AscendC::GetBlockIdx() % mBlocks;
    int32_t nIdx = AscendC::GetBlockIdx() / mBlocks;
    int32_t tailM = cube.M - mIdx * cube.singleCoreM;
    int32_t tailN = cube.N - nIdx * cube.singleCoreN;
    tailM = tailM < cube.singleCoreM ? tailM : cube.singleCoreM;
    tailN = tailN < cube.singleCoreN ? tailN : cube.singleCoreN;

    AscendC::GlobalTensor<DTYPE_A> aGm;
    AscendC::GlobalTensor<DTYPE_B> bGm;
    AscendC::GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ DTYPE_A*)a + static_cast<uint64_t>(mIdx) * cube.singleCoreM * cube.Ka);
    bGm.SetGlobalBuffer((__gm__ DTYPE_B*)b + static_cast<uint64_t>(nIdx) * cube.singleCoreN);
    cGm.SetGlobalBuffer((__gm__ float*)c + static_cast<uint64_t>(mIdx) * cube.singleCoreM * cube.N +
                        static_cast<uint64_t>(nIdx) * cube.singleCoreN);

    mm.SetTail(tailM, tailN);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if (cube.isBias) {
        biasGm.SetGlobalBuffer((__gm__ float*)bias + static_cast<uint64_t>(nIdx) * cube.singleCoreN);
        mm.SetBias(biasGm);
    }
    mm.IterateAll(cGm);
    mm.End();
}
