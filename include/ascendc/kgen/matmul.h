// High-level Matmul API (CANN lib/matmul_intf.h; guide 0631-0678): MatmulType, MatmulConfig and its templates,
// Matmul<A, B, C, BIAS, MM_CFG, MM_CB, POLICY>, REGIST_MATMUL_OBJ. The emulator computes C in the library from
// the operands, base block by base block in the order the TCubeTiling says, and records the cube pipes' work.
#pragma once
#include "kgen/tensor.h"
#include "kernel_tiling/kernel_tiling.h"

// Data formats of the Matmul operands (CANN: global namespace).
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

namespace kgen::rt {
// Static description of one Matmul object's operand types (MatmulType of A, B, C, BIAS) and its template.
struct MmTypes {
  AscendC::TPosition pos[4];   // A, B, C, BIAS
  CubeFormat fmt[4];
  DType dt[4];
  bool trans_ok[2];            // MatmulType ISTRANS of A, B
  uint8_t cfg;                 // 0 Norm, 1 MDL, 2 IBShare, 3 BasicBlock, 4 SpecialMDL
  bool cube_only;              // ASCENDC_CUBE_ONLY was defined before lib/matmul_intf.h
};
struct MmOperand {
  uint8_t kind = 0;            // 0 GM, 1 LocalTensor, 2 scalar
  const void* gm = nullptr;
  LocalRef local;
  Scalar scalar;
  bool trans = false;
};
void* mm_create(const MmTypes& types);
void mm_destroy(void* h);
void mm_register(void* h, void* tpipe, const TCubeTiling* tiling, Loc loc);
void mm_regist_done(bool cube_only, Loc loc);   // an AIC of a MIX kernel enters the Matmul service here
void mm_init(void* h, const TCubeTiling* tiling, Loc loc);
void mm_set_org_shape(void* h, int m, int n, int ka, int kb, int kc, Loc loc);
void mm_set_single_shape(void* h, int m, int n, int k, bool tail, Loc loc);
void mm_set_operand(void* h, int which, const MmOperand& op, Loc loc);   // 0 A, 1 B, 2 bias
void mm_disable_bias(void* h, Loc loc);
bool mm_iterate(void* h, bool partial_sum, Loc loc);
void mm_get_c(void* h, void* gm, const LocalRef* local, uint8_t atomic, bool sequential, Loc loc);
void mm_iterate_all(void* h, void* gm, uint8_t atomic, bool sequential, Loc loc);
void mm_end(void* h, Loc loc);
void mm_set_local_workspace(void* h, const LocalRef& t, Loc loc);
void mm_set_batch_num(void* h, int32_t a, int32_t b, Loc loc);
}  // namespace kgen::rt

namespace kgen {
struct MmAccess;
#ifdef ASCENDC_CUBE_ONLY
constexpr bool kMmCubeOnly = true;
#else
constexpr bool kMmCubeOnly = false;
#endif
}  // namespace kgen

namespace AscendC {
class TPipe;
#if __NPU_ARCH__ == 2002
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 248 * 1024;
#else
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
#endif

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

struct MatmulConfig {
  bool doNorm;
  bool doBasicBlock;
  bool doMultiDataLoad;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
  bool intrinsicsCheck;
  bool isNBatch;
  bool enVecND2NZ;
  bool doSpecialBasicBlock;
  uint32_t doMTE2Preload;
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t baseMN;
  uint32_t singleCoreMN;
  bool enUnitFlag = true;
  bool isPerTensor;
  bool hasAntiQuantOffset;
  bool doIBShareNorm;
  bool doSpecialMDL;
  bool enableInit = true;
  BatchMode batchMode;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse;
  bool enableL1CacheUB;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableDoubleCache;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = 64 * 1024;
};

__aicore__ constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                  const bool isVecND2NZ = false,
                                                  const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                                  const bool isMsgReuse = true,
                                                  const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                                  const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                                  const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                                  const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig c{};
  c.doNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableDoubleCache = false;
  (void)bmmOutMode;
  return c;
}
__aicore__ constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                               const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                               bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                               const bool enUnitFlag = false, const bool isMsgReuse = true,
                                               const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                               const bool enableMixDualMaster = false,
                                               const bool enableKdimReorderLoad = false) {
  MatmulConfig c{};
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  c.iterateOrder = IterateOrder::UNDEF;
  return c;
}
__aicore__ constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                      const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                                      bool isPerTensor = false, bool hasAntiQuantOffset = false) {
  MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor, hasAntiQuantOffset);
  c.doMultiDataLoad = false;
  c.doSpecialMDL = true;
  return c;
}
__aicore__ constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                       const bool isVecND2NZ = false,
                                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                                       const bool isDoubleCache = false, const bool enUnitFlag = true) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
  c.doNorm = false;
  c.doIBShareNorm = true;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}
__aicore__ constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                                 const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                 const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, false, bmmMode);
  c.doNorm = false;
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  return c;
}
__aicore__ constexpr MatmulConfig GetSpecialBasicConfig(const uint32_t basicM, const uint32_t basicN,
                                                        const uint32_t basicK, const uint32_t singleCoreM,
                                                        const uint32_t singleCoreN, const uint32_t singleCoreK,
                                                        const uint32_t stepM, const uint32_t stepN,
                                                        const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                        const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
  c.doSpecialBasicBlock = true;
  c.singleCoreM = singleCoreM;
  c.singleCoreN = singleCoreN;
  c.singleCoreK = singleCoreK;
  c.stepM = stepM;
  c.stepN = stepN;
  c.baseMN = basicM * basicN;
  c.singleCoreMN = singleCoreM * singleCoreN;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

// Custom GM->A1/B1 and CO1->GM copy callbacks: kgen's Matmul computes in the library and does not take them.
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
  static_assert(DataCopyOut == nullptr && CopyA1 == nullptr && CopyB1 == nullptr,
                "kgen: Matmul with custom copy callbacks (MatmulCallBackFunc) is not emulated");
};

namespace Impl::Detail {
template <const auto& MM_CFG, typename... Ts> struct MatmulPolicy {};
}  // namespace Impl::Detail
#define MATMUL_POLICY_DEFAULT_OF(DEFAULT) \
  template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
class MatmulImpl {
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;

 public:
  __aicore__ inline MatmulImpl() : h_(kgen::rt::mm_create(Types())) {}
  MatmulImpl(const MatmulImpl&) : h_(kgen::rt::mm_create(Types())) {}
  MatmulImpl& operator=(const MatmulImpl&) = delete;
  ~MatmulImpl() { kgen::rt::mm_destroy(h_); }

  __aicore__ inline void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr,
                              kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    (void)tpipe;
    kgen::rt::mm_init(h_, cubeTiling, loc);
  }
  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_set_org_shape(h_, orgM, orgN, orgK, orgK, 0, loc);
  }
  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0,
                                     kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_set_org_shape(h_, orgM, orgN, orgKa, orgKb, orgKc, loc);
  }
  __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK,
                                        kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_set_single_shape(h_, singleM, singleN, singleK, false, loc);
  }
  __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1,
                                 kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_set_single_shape(h_, tailM, tailN, tailK, true, loc);
  }
  __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false,
                                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.gm = gm.GetPhyAddr(); op.trans = isTransposeA;
    kgen::rt::mm_set_operand(h_, 0, op, loc);
  }
  __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false,
                                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.kind = 1; op.local = kgen::TensorAccess::ref(leftMatrix); op.trans = isTransposeA;
    kgen::rt::mm_set_operand(h_, 0, op, loc);
  }
  __aicore__ inline void SetTensorA(SrcAT aScalar, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.kind = 2; op.scalar = kgen::rt::scalar_of<SrcAT>(aScalar);
    kgen::rt::mm_set_operand(h_, 0, op, loc);
  }
  __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false,
                                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.gm = gm.GetPhyAddr(); op.trans = isTransposeB;
    kgen::rt::mm_set_operand(h_, 1, op, loc);
  }
  __aicore__ inline void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false,
                                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.kind = 1; op.local = kgen::TensorAccess::ref(rightMatrix); op.trans = isTransposeB;
    kgen::rt::mm_set_operand(h_, 1, op, loc);
  }
  __aicore__ inline void SetTensorB(SrcBT bScalar, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.kind = 2; op.scalar = kgen::rt::scalar_of<SrcBT>(bScalar);
    kgen::rt::mm_set_operand(h_, 1, op, loc);
  }
  __aicore__ inline void SetBias(const GlobalTensor<BiasT>& biasGlobal, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.gm = biasGlobal.GetPhyAddr();
    kgen::rt::mm_set_operand(h_, 2, op, loc);
  }
  __aicore__ inline void SetBias(const LocalTensor<BiasT>& inputBias, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::MmOperand op; op.kind = 1; op.local = kgen::TensorAccess::ref(inputBias);
    kgen::rt::mm_set_operand(h_, 2, op, loc);
  }
  __aicore__ inline void DisableBias(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::mm_disable_bias(h_, loc); }
  __aicore__ inline void ClearBias(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::mm_disable_bias(h_, loc); }
  __aicore__ inline void SetBatchNum(int32_t batchA, int32_t batchB, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_set_batch_num(h_, batchA, batchB, loc);
  }
  __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer,
                                           kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_set_local_workspace(h_, kgen::TensorAccess::ref(tmpBuffer), loc);
  }
  template <bool sync = true>
  __aicore__ inline bool Iterate(bool enPartialSum = false, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    return kgen::rt::mm_iterate(h_, enPartialSum, loc);
  }
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false, kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_get_c(h_, nullptr, &kgen::TensorAccess::ref(co2Local), enAtomic, enSequentialWrite, loc);
  }
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_get_c(h_, const_cast<DstT*>(gm.GetPhyAddr()), nullptr, enAtomic, enSequentialWrite, loc);
  }
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                                    uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    kgen::rt::mm_get_c(h_, const_cast<DstT*>(gm.GetPhyAddr()), &kgen::TensorAccess::ref(co2Local), enAtomic,
                       enSequentialWrite, loc);
  }
  template <bool sync = true>
  __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                    bool waitIterateAll = false, bool fakeMsg = false,
                                    kgen::rt::Loc loc = kgen::rt::Loc::current()) {
    (void)waitIterateAll;
    if (!fakeMsg) kgen::rt::mm_iterate_all(h_, const_cast<DstT*>(gm.GetPhyAddr()), enAtomic, enSequentialWrite, loc);
  }
  __aicore__ inline void WaitIterateAll() {}
  __aicore__ inline void End(kgen::rt::Loc loc = kgen::rt::Loc::current()) { kgen::rt::mm_end(h_, loc); }

 private:
  friend struct kgen::MmAccess;
  static kgen::rt::MmTypes Types() {
    kgen::rt::MmTypes t{};
    t.pos[0] = A_TYPE::pos; t.pos[1] = B_TYPE::pos; t.pos[2] = C_TYPE::pos; t.pos[3] = BIAS_TYPE::pos;
    t.fmt[0] = A_TYPE::format; t.fmt[1] = B_TYPE::format; t.fmt[2] = C_TYPE::format; t.fmt[3] = BIAS_TYPE::format;
    t.dt[0] = kgen::dtype_of<SrcAT>(); t.dt[1] = kgen::dtype_of<SrcBT>();
    t.dt[2] = kgen::dtype_of<DstT>(); t.dt[3] = kgen::dtype_of<BiasT>();
    t.trans_ok[0] = A_TYPE::isTrans; t.trans_ok[1] = B_TYPE::isTrans;
    t.cfg = MM_CFG.doMultiDataLoad ? 1 : MM_CFG.doIBShareNorm ? 2 : MM_CFG.doBasicBlock ? 3 : MM_CFG.doSpecialMDL ? 4 : 0;
    t.cube_only = kgen::kMmCubeOnly;
    return t;
  }
  void* h_;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;
}  // namespace AscendC

namespace kgen {
struct MmAccess {
  template <class MM> static void* handle(MM& mm) { return mm.h_; }
};
inline void mm_regist_list(const rt::Loc&, void*) {}
template <class MM> void mm_regist_list(const rt::Loc& loc, void* pipe, MM& mm) {
  rt::mm_register(MmAccess::handle(mm), pipe, nullptr, loc);
}
template <class MM, class... Rest>
void mm_regist_list(const rt::Loc& loc, void* pipe, MM& mm, const TCubeTiling* tiling, Rest&&... rest) {
  rt::mm_register(MmAccess::handle(mm), pipe, tiling, loc);
  mm_regist_list(loc, pipe, rest...);
}
template <class... Objs> void mm_regist(const rt::Loc& loc, void* pipe, const void* workspace, Objs&&... objs) {
  (void)workspace;
  mm_regist_list(loc, pipe, objs...);
  rt::mm_regist_done(kMmCubeOnly, loc);
}
}  // namespace kgen

// Registers Matmul objects (and their tilings) with the pipe: REGIST_MATMUL_OBJ(&pipe, workspace, mm[, &tiling]...)
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
  ::kgen::mm_regist(::kgen::rt::Loc::current(), (tpipe), (workspace), __VA_ARGS__)

// CANN kernels written for the older `matmul::` namespace (`using namespace matmul;`) see the AscendC names.
namespace matmul {
using namespace AscendC;
}  // namespace matmul
