// Printable names of pipes, events, dtypes and positions, and the mappings between them.
#include "sim/core.h"

namespace kgen::sim {
const char* pipe_name(Pipe p) {
  static const char* n[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
  return n[p];
}

Pipe pipe_from(pipe_t p) {
  switch (p) {
    case PIPE_S: return kS;
    case PIPE_V: return kV;
    case PIPE_M: return kM;
    case PIPE_MTE1: return kMTE1;
    case PIPE_MTE2: return kMTE2;
    case PIPE_MTE3: return kMTE3;
    case PIPE_FIX: return kFIX;
    default: return kS;
  }
}

namespace {
struct EventInfo { const char* name; Pipe src, dst; };
using HE = AscendC::HardEvent;
const EventInfo kEvents[] = {
    {"MTE2_MTE1", kMTE2, kMTE1}, {"MTE1_MTE2", kMTE1, kMTE2}, {"MTE1_M", kMTE1, kM},     {"M_MTE1", kM, kMTE1},
    {"MTE2_V", kMTE2, kV},       {"V_MTE2", kV, kMTE2},       {"MTE3_V", kMTE3, kV},     {"V_MTE3", kV, kMTE3},
    {"M_V", kM, kV},             {"V_M", kV, kM},             {"V_V", kV, kV},           {"MTE3_MTE1", kMTE3, kMTE1},
    {"MTE1_MTE3", kMTE1, kMTE3}, {"MTE1_V", kMTE1, kV},       {"MTE2_M", kMTE2, kM},     {"M_MTE2", kM, kMTE2},
    {"V_MTE1", kV, kMTE1},       {"M_FIX", kM, kFIX},         {"FIX_M", kFIX, kM},       {"MTE3_MTE2", kMTE3, kMTE2},
    {"MTE2_MTE3", kMTE2, kMTE3}, {"S_V", kS, kV},             {"V_S", kV, kS},           {"S_MTE2", kS, kMTE2},
    {"MTE2_S", kMTE2, kS},       {"S_MTE3", kS, kMTE3},       {"MTE3_S", kMTE3, kS},     {"MTE2_FIX", kMTE2, kFIX},
    {"FIX_MTE2", kFIX, kMTE2},   {"FIX_S", kFIX, kS},         {"M_S", kM, kS},           {"FIX_MTE3", kFIX, kMTE3},
    {"MTE1_FIX", kMTE1, kFIX},   {"FIX_MTE1", kFIX, kMTE1},   {"FIX_FIX", kFIX, kFIX},
};
static_assert(sizeof(kEvents) / sizeof(kEvents[0]) == static_cast<size_t>(HE::MAX));
}  // namespace

void event_pipes(AscendC::HardEvent e, Pipe& src, Pipe& dst) {
  const EventInfo& i = kEvents[static_cast<int>(e)];
  src = i.src;
  dst = i.dst;
}
const char* event_name(AscendC::HardEvent e) {
  return static_cast<int>(e) < static_cast<int>(HE::MAX) ? kEvents[static_cast<int>(e)].name : "?";
}

const char* dtype_name(DType dt) {
  static const char* n[] = {"half", "bfloat16_t", "float", "double", "int8_t", "uint8_t", "int16_t",
                            "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "bool", "unknown"};
  return n[static_cast<int>(dt)];
}
uint32_t dtype_size(DType dt) {
  static const uint32_t s[] = {2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8, 1, 1};
  return s[static_cast<int>(dt)];
}

const char* position_name(TPosition pos) {
  static const char* n[] = {"GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC",
                            "SPM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL"};
  int i = static_cast<int>(pos);
  return i < 16 ? n[i] : "?";
}

Mem mem_of(TPosition pos, const Soc& soc) {
  switch (pos) {
    case TPosition::A1: case TPosition::B1: case TPosition::TSCM: return Mem::L1;
    case TPosition::C1: return soc.arch == 2002 ? Mem::UB : Mem::L1;
    case TPosition::A2: return Mem::L0A;
    case TPosition::B2: return Mem::L0B;
    case TPosition::CO1: return Mem::L0C;
    case TPosition::C2: return soc.arch == 2002 ? Mem::L0C : Mem::BT;
    case TPosition::C2PIPE2GM: return Mem::FB;
    default: return Mem::UB;   // VECIN, VECOUT, VECCALC, CO2 on 310P
  }
}
}  // namespace kgen::sim
