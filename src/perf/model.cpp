// The kernel performance model (design: model.h and docs/perf-model.md).
#include "perf/model.h"

#include "perf/ktrace_io.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "sim/trace_io.h"

namespace kgen::perf {
const char* flow_kind_name(Flow::Kind k) {
  switch (k) {
    case Flow::Flag: return "SetFlag->WaitFlag";
    case Flow::Queue: return "EnQue->DeQue";
    case Flow::Buffer: return "FreeTensor->AllocTensor";
    case Flow::Cross: return "CrossCoreSetFlag->CrossCoreWaitFlag";
  }
  return "sync";
}


const char* pipe_label(int p) {
  static const char* n[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
  return p >= 0 && p < kPipes ? n[p] : "?";
}

uint32_t KTrace::intern(const std::string& api) {
  if (apis.empty()) apis.push_back("");
  if (api.empty()) return 0;
  for (size_t i = apis.size(); i-- > 1;)   // traces use few distinct names
    if (apis[i] == api) return static_cast<uint32_t>(i);
  apis.push_back(api);
  return static_cast<uint32_t>(apis.size() - 1);
}

namespace {
using ApiIds = std::unordered_map<const char*, uint32_t>;   // api names are string literals of the library
uint32_t api_id(const char* api, KTrace& k, ApiIds& ids) {
  auto it = ids.find(api);
  if (it == ids.end()) it = ids.emplace(api, k.intern(api)).first;
  return it->second;
}
KTrace head_of(const sim::LaunchTrace& t) {
  KTrace k;
  k.kernel = t.kernel;
  k.soc = t.soc;
  k.block_dim = t.block_dim;
  k.apis.push_back("");
  return k;
}
bool is_aic(const sim::CoreTrace& ct) {
  return ct.core_type && ct.core_type[0] == 'A' && ct.core_type[1] == 'I' && ct.core_type[2] == 'C';
}
// The model's records of ct.recs[from, to) into `ops` (cleared first).
void ops_of(const sim::CoreTrace& ct, size_t from, size_t to, KTrace& k, ApiIds& ids, GmLocate locate,
            std::vector<Op>& ops) {
  ops.clear();
  ops.reserve(to - from);
  for (size_t i = from; i < to; ++i) {
    const sim::TraceRec& r = ct.recs[i];
    Op o;
    o.kind = static_cast<Op::Kind>(r.kind);
    o.pipe = r.pipe;
    o.pipe2 = r.pipe2;
    o.dtype = r.dtype;
    if (r.api) o.api = api_id(r.api, k, ids);
    o.line = r.line;
    o.elems = r.elems;
    o.bytes = r.bytes;
    o.repeats = r.repeats;
    o.count = r.count ? r.count : 1;
    o.event = r.event;
    o.id = r.id;
    if (r.gm) {
      uint32_t buf = 0;
      uint64_t off = r.gm;
      if (!locate || !locate(r.gm, buf, off)) { buf = 0; off = r.gm; }
      o.gm_buf = buf;
      o.gm_off = off;
      o.gm_rows = r.gm_rows;
      o.gm_stride = r.gm_stride;
    }
    o.m = r.cube_m;
    o.n = r.cube_n;
    o.k = r.cube_k;
    ops.push_back(o);
  }
}
KCore core_of(const sim::CoreTrace& ct, KTrace& k, ApiIds& ids, GmLocate locate) {
  KCore c;
  c.block = ct.block;
  c.aic = is_aic(ct);
  c.sub_block = ct.sub_block;
  ops_of(ct, 0, ct.recs.size(), k, ids, locate, c.ops);
  return c;
}
}  // namespace

KTrace from_launch(const sim::LaunchTrace& t, GmLocate locate) {
  KTrace k = head_of(t);
  ApiIds ids;
  for (const sim::CoreTrace& ct : t.cores) k.cores.push_back(core_of(ct, k, ids, locate));
  return k;
}

bool encode_launch(const sim::LaunchTrace& t, GmLocate locate, const std::function<bool(uint64_t)>& begin,
                   const std::function<bool(const std::string&)>& put) {
  KTrace k = head_of(t);
  ApiIds ids;
  for (const sim::CoreTrace& ct : t.cores)   // the api table first (the head holds it), in from_launch's order
    for (const sim::TraceRec& r : ct.recs)
      if (r.api) api_id(r.api, k, ids);
  // A core at a time and, within it, a chunk of records at a time: a timing-only run's core holds a million
  // records, and converting them whole cost a fresh multi-MB buffer (page faults, then munmap) per core. The coded
  // records are a few bytes each, so the pieces are kept until the frame's size is known.
  constexpr size_t kChunk = 8192;
  std::vector<std::string> pieces{encode_ktrace_head(k, static_cast<uint32_t>(t.cores.size()))};
  std::vector<Op> ops;
  for (const sim::CoreTrace& ct : t.cores) {
    encode_ktrace_core_head(ct.block, is_aic(ct), ct.sub_block, ct.recs.size(), pieces.emplace_back());
    CoreEncoder enc;
    for (size_t i = 0; i < ct.recs.size(); i += kChunk) {
      ops_of(ct, i, std::min(ct.recs.size(), i + kChunk), k, ids, locate, ops);
      std::string& piece = pieces.emplace_back();
      for (const Op& op : ops) enc.put(op, piece);
    }
  }
  uint64_t total = 0;
  for (const std::string& p : pieces) total += p.size();
  if (!begin(total)) return false;
  for (const std::string& p : pieces)
    if (!put(p)) return false;
  return true;
}

std::string encode_launch(const sim::LaunchTrace& t, GmLocate locate) {
  std::string s;
  encode_launch(
      t, locate, [&s](uint64_t n) { s.reserve(n); return true; },
      [&s](const std::string& piece) { s += piece; return true; });
  return s;
}

Result model_launch(const sim::LaunchTrace& t, const Profile& p, const Options& o) {
  return model(from_launch(t, o.locate), p, o);
}

namespace {
uint32_t dtype_bytes(uint8_t dt) {
  static const uint32_t s[] = {2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8, 1, 1};
  return dt < 14 ? s[dt] : 2;
}

std::string lower(const std::string& s) {
  std::string r = s;
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}
bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// Vector op class of an AscendC API name (the classes of the profile's "vector" table).
std::string vec_class(const std::string& api) {
  std::string a = lower(api);
  if (a == "div" || a == "divs") return "div";
  if (a == "exp" || a == "ln" || a == "log" || a == "sqrt" || a == "log2" || a == "log10" || a == "power" ||
      a == "powers" || a == "exp2")
    return "transcend";
  if (a.find("reduce") != std::string::npos || a == "sum" || a == "reducemax" || a == "reducemin") return "reduce";
  if (a == "axpy" || a == "muladddst" || a == "fusedmuladd" || a == "muladdrelu" || a == "fusedmuladdrelu") return "mla";
  if (starts(a, "gather")) return "gather";
  if (a.find("sort") != std::string::npos || a == "topk") return "sort";
  if (a == "cast" || a == "castdeq") return "cast";
  if (a == "select" || starts(a, "compare")) return "select";
  if (a == "add" || a == "sub" || a == "mul" || a == "max" || a == "min" || a == "and" || a == "or" || a == "addrelu" ||
      a == "subrelu" || a == "addreluCast" || a == "prelu")
    return "binary";
  if (a == "datacopy" || a == "copy") return "copy";
  static const char* compound[] = {"softmax", "layernorm", "rmsnorm", "gelu", "silu", "swish", "sigmoid", "tanh",
                                   "erf", "sin", "cos", "tan", "asin", "acos", "sinh", "cosh", "logsoftmax",
                                   "fastergelu", "swiglu", "geglu", "normalize", "welford", "batchnorm", "groupnorm",
                                   "deepnorm", "cumsum", "mean", "xor", "floor", "ceil", "round", "trunc", "frac",
                                   "sign", "digamma", "lgamma", "confusiontranspose", "transpose", "broadcast", "pad"};
  for (const char* c : compound)
    if (a.find(c) != std::string::npos) return "compound";
  return "unary";
}

// Costs of one op, precomputed once per launch (ns).
struct Cost {
  double issue = 0;    // scalar unit time to issue it (or the scalar work itself for pipe S)
  double fixed = 0;    // pipe time that does not depend on GM bandwidth
  double stream = 0;   // GM streaming time at the per-core rate (stretched when HBM/L2 are saturated)
  double head = 0;     // paid only when the pipe was idle
};

// GM ranges seen in this launch (L2 residency): merged intervals per allocation for contiguous accesses, and the
// exact footprints of strided ones (a tile of a matrix: rows of a row pitch apart). A strided footprint hits only
// when the same footprint was touched before (another core loading the same tile); overlaps between different
// footprints, or between a footprint and a contiguous range, count as misses: never a hit that did not happen.
struct L2State {
  struct Footprint {
    int64_t buf;
    uint64_t off, len;
    uint32_t rows, stride;
    bool operator==(const Footprint& o) const {
      return buf == o.buf && off == o.off && len == o.len && rows == o.rows && stride == o.stride;
    }
  };
  struct FootprintHash {
    size_t operator()(const Footprint& f) const {
      uint64_t h = static_cast<uint64_t>(f.buf) * 0x9e3779b97f4a7c15ull ^ f.off;
      h = h * 0x9e3779b97f4a7c15ull ^ f.len;
      h = h * 0x9e3779b97f4a7c15ull ^ (static_cast<uint64_t>(f.rows) << 32 | f.stride);
      return static_cast<size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_map<int64_t, std::map<uint64_t, uint64_t>> bufs;
  std::unordered_set<Footprint, FootprintHash> strided;
  uint64_t resident = 0, cap = 0;
  uint64_t touch(const Op& op) {
    if (op.gm_rows <= 1) return touch(op.gm_buf, op.gm_off, op.bytes);
    if (!op.bytes) return 0;
    const Footprint f{op.gm_buf, op.gm_off, op.bytes, op.gm_rows, op.gm_stride};
    if (strided.count(f)) return op.bytes;
    make_room(op.bytes);
    strided.insert(f);
    resident += op.bytes;
    return 0;
  }
  void make_room(uint64_t len) {   // capacity: modeled as a flush (docs)
    if (resident + len > cap) { bufs.clear(); strided.clear(); resident = 0; }
  }
  // Returns how many bytes of [off, off+len) were already present; then marks the range present.
  uint64_t touch(int64_t buf, uint64_t off, uint64_t len) {
    if (!len) return 0;
    make_room(len);
    auto& m = bufs[buf];
    uint64_t lo = off, hi = off + len, hit = 0;
    auto it = m.upper_bound(lo);
    if (it != m.begin()) --it;
    while (it != m.end() && it->first < hi) {
      if (it->second <= lo) { ++it; continue; }
      uint64_t a = std::max(lo, it->first), b = std::min(hi, it->second);
      hit += b - a;
      lo = std::min(lo, it->first);
      hi = std::max(hi, it->second);
      resident -= it->second - it->first;
      it = m.erase(it);
    }
    m.emplace(lo, hi);
    resident += hi - lo;
    return hit;
  }
};

constexpr int kPipeAllT = 6;   // pipe_t PIPE_ALL

// A signal in flight: when it is set, and where from (for Result::flows).
struct Mark {
  double tm = 0;        // ns within the wave
  double ev_us = -1;    // start of the producer pipe's last instruction (absolute us), -1: none
  int32_t core = 0;     // index within the wave
  uint8_t pipe = 0;
};

struct CoreState {
  size_t pc = 0;
  double ts = 0;                 // scalar unit time
  double pf[kPipes] = {};        // pipe free (incl. waits)
  double last_end[kPipes] = {};  // end of the pipe's last instruction
  double busy[kPipes] = {};
  double last_ev_us[kPipes] = {-1, -1, -1, -1, -1, -1, -1};   // start of the pipe's last instruction (absolute us)
  bool done = false, at_sync = false, at_cross = false;
  uint64_t instrs = 0;
  size_t issue_ev = SIZE_MAX;    // Result::events index of the core's current scalar-issue span (keep_events)
  std::unordered_map<int64_t, std::deque<Mark>> flags;  // (event, id) -> sets not yet waited, oldest first
  std::unordered_map<int32_t, std::deque<Mark>> fifo;   // queue handle -> EnQue marks
  std::unordered_map<int64_t, Mark> freed;              // (queue, buffer) -> FreeTensor mark
  std::unordered_map<int32_t, std::deque<Mark>> xpend;  // cross-core flag -> delivered marks
  double end() const {
    double e = ts;
    for (double f : pf) e = std::max(e, f);
    return e;
  }
};

struct Model {
  const KTrace& t;
  const Profile& p;
  const Options& o;
  std::vector<std::vector<Cost>> costs;   // per core, per op
  std::vector<char> cube_side;            // per api id: a Matmul API record that the AIC runs (run_wave)
  std::vector<int> wave_of;               // per core
  double ns_per_cycle;

  Model(const KTrace& t_, const Profile& p_, const Options& o_) : t(t_), p(p_), o(o_), ns_per_cycle(1.0 / p_.clock_ghz) {}

  // One wave: global simulation of its cores. Returns the span (ns). Events/core results when `out`.
  double run_wave(const std::vector<int>& cores, double stretch, Result* out, double wave_start_ns,
                  std::vector<CoreResult>* cres) {
    std::vector<CoreState> st(cores.size());
    // On a split SoC a vector core has no cube pipes: the Matmul API called from an AIV (a MIX kernel) sends its
    // requests to the block's AIC, which serves both of its AIVs on one set of cube pipes. Those records are
    // issued by the AIV's scalar unit but run on the AIC's pipes (cube_host; -1: none, the core's own pipes).
    std::vector<int> cube_host(cores.size(), -1);
    if (p.split) {
      std::unordered_map<int32_t, int> aic_of_block;
      for (size_t j = 0; j < cores.size(); ++j)
        if (t.cores[cores[j]].aic) aic_of_block[t.cores[cores[j]].block] = static_cast<int>(j);
      for (size_t j = 0; j < cores.size(); ++j) {
        auto it = aic_of_block.find(t.cores[cores[j]].block);
        if (!t.cores[cores[j]].aic && it != aic_of_block.end()) cube_host[j] = it->second;
      }
    }
    const bool flows = out && o.keep_events;
    const uint32_t core_base = out ? static_cast<uint32_t>(out->cores.size()) : 0;
    // The mark of a signal core li's pipe pp gives at tm (ns).
    auto mark = [&](int li, int pp, double tm) { return Mark{tm, st[li].last_ev_us[pp], li, static_cast<uint8_t>(pp)}; };
    // Records the edge m -> (core li, pipe pp) released at m.tm, the consumer having been free at `before` (ns).
    auto flow = [&](Flow::Kind kind, const Mark& m, int li, int pp, double before) {
      if (!flows) return;
      const double from = m.ev_us >= 0 ? m.ev_us : (wave_start_ns + m.tm) / 1000.0;
      out->flows.push_back({kind, core_base + static_cast<uint32_t>(m.core), core_base + static_cast<uint32_t>(li),
                            m.pipe, static_cast<uint8_t>(pp), from, (wave_start_ns + m.tm) / 1000.0,
                            std::max(0.0, m.tm - before) / 1000.0});
    };
    std::map<std::tuple<int, int, int>, std::map<int, std::deque<Mark>>> rounds;
    auto deliver = [&](int li, int flag, const Mark& m) { st[li].xpend[flag].push_back(m); };
    auto cross_set = [&](int li, int mode, int flag, Mark m) {
      const KCore& c = t.cores[cores[li]];
      std::vector<int> setters, targets;
      for (size_t j = 0; j < cores.size(); ++j) {
        const KCore& d = t.cores[cores[j]];
        bool same_block = d.block == c.block;
        if (mode == 2) {
          if (c.aic) { if (same_block && !d.aic) targets.push_back(static_cast<int>(j)); }
          else {
            if (same_block && !d.aic) setters.push_back(static_cast<int>(j));
            if (same_block && d.aic) targets.push_back(static_cast<int>(j));
          }
        } else if (mode == 1) {
          if (same_block && !d.aic) { setters.push_back(static_cast<int>(j)); targets.push_back(static_cast<int>(j)); }
        } else if (d.aic == c.aic) {
          setters.push_back(static_cast<int>(j));
          targets.push_back(static_cast<int>(j));
        }
      }
      m.tm += p.cross_flag_ns;
      if (setters.size() <= 1) {
        for (int x : targets) deliver(x, flag, m);
        return;
      }
      auto& r = rounds[{mode, mode == 0 ? (c.aic ? -1 : -2) : c.block, flag}];
      r[li].push_back(m);
      for (int s : setters)
        if (r[s].empty()) return;
      Mark all = r[setters.front()].front();   // the round completes with its last setter
      for (int s : setters) {
        if (r[s].front().tm > all.tm) all = r[s].front();
        r[s].pop_front();
      }
      for (int x : targets) deliver(x, flag, all);
    };

    auto step = [&](int li) -> bool {
      CoreState& s = st[li];
      const KCore& c = t.cores[cores[li]];
      const std::vector<Cost>& cc = costs[cores[li]];
      bool moved = false;
      while (s.pc < c.ops.size()) {
        const Op& op = c.ops[s.pc];
        const Cost& k = cc[s.pc];
        switch (op.kind) {
          case Op::Instr: {
            int pp = op.pipe < kPipes ? static_cast<int>(op.pipe) : static_cast<int>(P_S);
            double start, end;
            if (pp == P_S) {
              start = s.ts;
              end = s.ts + k.issue;
              s.ts = end;
            } else {
              if (out && o.keep_events && k.issue > 0) {   // the scalar unit issuing it: one span per run of issues
                const double a_us = (wave_start_ns + s.ts) / 1000.0, b_us = (wave_start_ns + s.ts + k.issue) / 1000.0;
                const uint32_t core_id = static_cast<uint32_t>(out->cores.size() + li);
                if (s.issue_ev != SIZE_MAX && out->events[s.issue_ev].end_us >= a_us - 1e-9) {
                  out->events[s.issue_ev].end_us = b_us;
                  ++out->events[s.issue_ev].count;
                } else {
                  s.issue_ev = out->events.size();
                  out->events.push_back({core_id, static_cast<uint8_t>(P_S), 0, op.line, 1, a_us, b_us});
                }
              }
              s.ts += k.issue;
              s.busy[P_S] += k.issue;
              const int runs_on = cube_side[op.api] && cube_host[li] >= 0 ? cube_host[li] : li;
              CoreState& e = st[runs_on];
              start = std::max(s.ts, e.pf[pp]);
              double cost = k.fixed + k.stream * stretch + (start > e.last_end[pp] ? k.head : 0.0);
              end = start + cost;
              e.pf[pp] = e.last_end[pp] = end;
              e.busy[pp] += end - start;
              ++e.instrs;
              e.last_ev_us[pp] = (wave_start_ns + start) / 1000.0;
              if (out && o.keep_events)
                out->events.push_back({static_cast<uint32_t>(out->cores.size() + runs_on), static_cast<uint8_t>(pp),
                                       op.api, op.line, op.count, (wave_start_ns + start) / 1000.0,
                                       (wave_start_ns + end) / 1000.0});
              break;
            }
            s.busy[pp] += end - start;
            ++s.instrs;
            s.last_ev_us[pp] = (wave_start_ns + start) / 1000.0;
            if (out && o.keep_events)
              out->events.push_back({static_cast<uint32_t>(out->cores.size() + li), static_cast<uint8_t>(pp), op.api,
                                     op.line, op.count, (wave_start_ns + start) / 1000.0, (wave_start_ns + end) / 1000.0});
            break;
          }
          case Op::SetFlag: {
            int src = op.pipe < kPipes ? static_cast<int>(op.pipe) : static_cast<int>(P_S);
            s.ts += k.issue;
            double tm = src == P_S ? s.ts : std::max(s.ts, s.pf[src]);
            s.flags[(static_cast<int64_t>(op.event) << 16) | static_cast<uint16_t>(op.id)].push_back(mark(li, src, tm));
            break;
          }
          case Op::WaitFlag: {
            int dst = op.pipe2 < kPipes ? static_cast<int>(op.pipe2) : static_cast<int>(P_S);
            s.ts += k.issue;
            auto it = s.flags.find((static_cast<int64_t>(op.event) << 16) | static_cast<uint16_t>(op.id));
            if (it != s.flags.end() && !it->second.empty()) {
              const Mark m = it->second.front();
              it->second.pop_front();
              double& t_dst = dst == P_S ? s.ts : s.pf[dst];
              flow(Flow::Flag, m, li, dst, t_dst);
              t_dst = std::max(t_dst, m.tm);
            }
            break;
          }
          case Op::Barrier:
            s.ts += k.issue;
            if (op.event == kPipeAllT)
              for (double f : s.pf) s.ts = std::max(s.ts, f);
            break;
          case Op::EnQue: {
            int prod = op.pipe < kPipes ? static_cast<int>(op.pipe) : static_cast<int>(P_S);
            s.ts += k.issue;
            s.fifo[op.event].push_back(mark(li, prod, prod == P_S ? s.ts : std::max(s.ts, s.pf[prod])));
            break;
          }
          case Op::DeQue: {
            int cons = op.pipe2 < kPipes ? static_cast<int>(op.pipe2) : static_cast<int>(P_S);
            s.ts += k.issue;
            auto& q = s.fifo[op.event];
            if (!q.empty()) {
              const Mark m = q.front();
              q.pop_front();
              double& t_cons = cons == P_S ? s.ts : s.pf[cons];
              flow(Flow::Queue, m, li, cons, t_cons);
              t_cons = std::max(t_cons, m.tm);
            }
            break;
          }
          case Op::FreeTensor: {   // pipe = consumer: its work so far releases the buffer to the producer
            int cons = op.pipe < kPipes ? static_cast<int>(op.pipe) : static_cast<int>(P_S);
            s.ts += k.issue;
            s.freed[(static_cast<int64_t>(op.event) << 20) | static_cast<uint32_t>(op.id)] =
                mark(li, cons, cons == P_S ? s.ts : std::max(s.ts, s.pf[cons]));
            break;
          }
          case Op::AllocTensor: {  // pipe = producer: waits for the buffer's FreeTensor
            int prod = op.pipe < kPipes ? static_cast<int>(op.pipe) : static_cast<int>(P_S);
            s.ts += k.issue;
            auto it = s.freed.find((static_cast<int64_t>(op.event) << 20) | static_cast<uint32_t>(op.id));
            if (it != s.freed.end()) {
              double& t_prod = prod == P_S ? s.ts : s.pf[prod];
              flow(Flow::Buffer, it->second, li, prod, t_prod);
              t_prod = std::max(t_prod, it->second.tm);
              s.freed.erase(it);
            }
            break;
          }
          case Op::SyncAll:
            if (!s.at_sync) { s.at_sync = true; s.ts = s.end(); }
            return moved;   // released by run_wave when every core has arrived
          case Op::CrossSet: {
            int pp = op.pipe < kPipes ? static_cast<int>(op.pipe) : static_cast<int>(P_S);
            s.ts += k.issue;
            cross_set(li, op.event, op.id, mark(li, pp, pp == P_S ? s.ts : std::max(s.ts, s.pf[pp])));
            break;
          }
          case Op::CrossWait: {
            auto& q = s.xpend[op.id];
            if (q.empty()) { s.at_cross = true; return moved; }
            s.at_cross = false;
            const Mark m = q.front();
            q.pop_front();
            flow(Flow::Cross, m, li, P_S, s.ts + k.issue);
            s.ts = std::max(s.ts + k.issue, m.tm);
            for (double& f : s.pf) f = std::max(f, m.tm);   // on A2 the wait blocks every pipe
            break;
          }
        }
        ++s.pc;
        moved = true;
      }
      s.done = true;
      return moved;
    };

    for (;;) {
      bool progress = false, all_done = true;
      for (size_t i = 0; i < st.size(); ++i)
        if (!st[i].done) {
          if (step(static_cast<int>(i))) progress = true;
          if (!st[i].done) all_done = false;
        }
      if (all_done) break;
      if (progress) continue;
      // Nobody can move: release a SyncAll (all waiting cores align), else a cross-core wait with no set (the
      // emulator already reported real deadlocks; this only guards the model).
      double tm = 0;
      bool any_sync = false;
      for (CoreState& s : st)
        if (!s.done && s.at_sync) { any_sync = true; tm = std::max(tm, s.ts); }
      if (any_sync) {
        tm += p.syncall_ns;
        for (CoreState& s : st)
          if (!s.done && s.at_sync) {
            s.at_sync = false;
            s.ts = tm;
            for (double& f : s.pf) f = std::max(f, tm);
            ++s.pc;
          }
        continue;
      }
      for (CoreState& s : st)
        if (!s.done && s.at_cross) { s.at_cross = false; ++s.pc; break; }
    }
    double span = 0;
    for (size_t i = 0; i < st.size(); ++i) {
      span = std::max(span, st[i].end());
      if (cres) {
        const KCore& c = t.cores[cores[i]];
        CoreResult r;
        r.block = c.block;
        r.aic = c.aic;
        r.sub_block = c.sub_block;
        r.wave = wave_of[cores[i]];
        r.start_us = wave_start_ns / 1000.0;
        r.end_us = (wave_start_ns + st[i].end()) / 1000.0;
        for (int q = 0; q < kPipes; ++q) r.busy_us[q] = st[i].busy[q] / 1000.0;
        r.instrs = st[i].instrs;
        cres->push_back(r);
      }
    }
    return span;
  }
};
}  // namespace

Result model(const KTrace& t, const Profile& p, const Options& o) {
  Result R;
  R.kernel = t.kernel;
  R.soc = p.name;
  R.block_dim = t.block_dim;
  R.apis = t.apis;
  if (R.apis.empty()) R.apis.push_back("");
  Model M(t, p, o);
  const double cyc = 1.0 / p.clock_ghz;   // ns per cycle

  // ---- waves: blocks in order, `slots` at a time ----
  bool any_aic = false;
  for (const KCore& c : t.cores) any_aic |= c.aic;
  int slots = (!p.split || any_aic) ? p.aic_cores : p.aiv_cores;
  std::vector<int> blocks;
  for (const KCore& c : t.cores) blocks.push_back(c.block);
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  std::unordered_map<int, int> rank;
  for (size_t i = 0; i < blocks.size(); ++i) rank[blocks[i]] = static_cast<int>(i);
  int nwaves = blocks.empty() ? 0 : static_cast<int>((blocks.size() + slots - 1) / slots);
  M.wave_of.resize(t.cores.size());
  std::vector<std::vector<int>> waves(nwaves);
  for (size_t i = 0; i < t.cores.size(); ++i) {
    int w = rank[t.cores[i].block] / slots;
    M.wave_of[i] = w;
    waves[w].push_back(static_cast<int>(i));
  }
  R.waves = nwaves;

  // ---- costs, L2 residency, bytes and flops (program order; cores of a wave one after the other) ----
  L2State l2;
  l2.cap = p.l2_bytes;
  std::vector<uint64_t> wave_hbm(nwaves), wave_l2(nwaves);
  std::vector<std::string> cls_of(t.apis.size());
  for (size_t a = 0; a < t.apis.size(); ++a) cls_of[a] = vec_class(t.apis[a]);
  M.cube_side.resize(t.apis.size());
  for (size_t a = 0; a < t.apis.size(); ++a)   // all but the copy of the result into the vector core's UB
    M.cube_side[a] = starts(t.apis[a], "Matmul:") && t.apis[a] != "Matmul:CopyCToUb";
  const double l0_bpc = 2.0 / (1.0 / p.mte1_l0a_bpc + 1.0 / p.mte1_l0b_bpc);   // L0A and L0B loads alternate
  M.costs.resize(t.cores.size());
  for (int w = 0; w < nwaves; ++w)
    for (int ci : waves[w]) {
      const KCore& c = t.cores[ci];
      std::vector<Cost>& cc = M.costs[ci];
      cc.resize(c.ops.size());
      for (size_t i = 0; i < c.ops.size(); ++i) {
        const Op& op = c.ops[i];
        Cost& k = cc[i];
        if (op.kind != Op::Instr) {
          k.issue = (op.kind == Op::SyncAll ? 0.0 : p.flag_cycles * cyc);
          continue;
        }
        uint32_t db = dtype_bytes(op.dtype);
        switch (op.pipe) {
          case P_S:
            k.issue = p.scalar_op_cycles * cyc * op.count;
            break;
          case P_V: {
            const VecCost& v = p.vec_cost(cls_of[op.api], db);
            uint64_t reps = op.repeats ? op.repeats : std::max<uint64_t>(1, (op.elems * db + 255) / 256);
            uint64_t splits = std::max<uint64_t>(1, (reps + 254) / 255);
            k.issue = p.issue_cycles * cyc * static_cast<double>(splits);
            k.fixed = v.per_repeat * static_cast<double>(reps) * cyc;
            k.head = v.head * cyc;
            double f = static_cast<double>(op.elems) * (cls_of[op.api] == "mla" ? 2.0 : 1.0);
            R.vec_flops += f;
            break;
          }
          case P_M: {
            uint32_t k0 = db == 1 ? p.cube_k0_b8 : db >= 4 ? p.cube_k0_b32 : p.cube_k0_b16;
            double cpf = db >= 4 ? p.cube_cyc_per_fractal_b32 : p.cube_cyc_per_fractal_b16;
            double fr = (op.m && op.n && op.k)
                            ? std::ceil(op.m / 16.0) * std::ceil(op.n / 16.0) * std::ceil(op.k / static_cast<double>(k0))
                            : static_cast<double>(std::max<uint32_t>(1, op.repeats));
            k.issue = p.issue_cycles * cyc;
            k.fixed = fr * cpf * cyc;
            k.head = p.cube_head * cyc;
            R.cube_flops += 2.0 * op.m * op.n * op.k;
            break;
          }
          case P_MTE1:
            k.issue = p.issue_cycles * cyc;
            k.fixed = static_cast<double>(op.bytes) / l0_bpc * cyc;
            k.head = p.mte1_head * cyc;
            break;
          default: {   // MTE2, MTE3, FIX
            k.issue = p.issue_cycles * cyc;
            if (op.gm_buf < 0) {   // on-chip copy (UB->UB, L1->UB, L0C->L1 ...)
              if (op.pipe == P_FIX) {
                k.fixed = static_cast<double>(std::max<uint64_t>(op.elems, 1)) / p.fix_elems_per_cycle * cyc;
                k.head = p.fix_head * cyc;
              } else {
                k.fixed = static_cast<double>(op.bytes) / p.local_copy_bpc * cyc;
                k.head = p.local_copy_head * cyc;
              }
              break;
            }
            bool read = op.pipe == P_MTE2;
            const DmaPath& d = op.pipe == P_FIX ? p.l0c_to_gm : read ? (c.aic ? p.gm_to_l1 : p.gm_to_ub) : p.ub_to_gm;
            double align = (op.gm_off % 512) ? d.align32_factor : 1.0;
            uint64_t hit = l2.touch(op);
            if (!read) hit = 0;   // writes go to L2 and are written back: they cost HBM bandwidth
            uint64_t miss = op.bytes - hit;
            double hit_bw = d.l2_hit_bw_gbps > 0 ? d.l2_hit_bw_gbps : d.bw_gbps;
            k.fixed = d.latency_ns;
            k.stream = (static_cast<double>(miss) / d.bw_gbps + static_cast<double>(hit) / hit_bw) / align;
            R.gm_bytes += op.bytes;
            R.hbm_bytes += miss;
            R.l2_hit_bytes += hit;
            wave_hbm[w] += miss;
            wave_l2[w] += hit;
            break;
          }
        }
      }
    }

  // ---- simulate the waves; fair-share HBM / L2 by stretching GM streaming time to a fixed point ----
  double body = 0, max_stretch = 1;
  std::vector<CoreResult> cres;
  for (int w = 0; w < nwaves; ++w) {
    double need = std::max(static_cast<double>(wave_hbm[w]) / p.hbm_gbps(),
                           static_cast<double>(wave_hbm[w] + wave_l2[w]) / p.l2_gbps);   // ns (B / GB/s = ns)
    double stretch = 1;
    double span = M.run_wave(waves[w], stretch, nullptr, 0, nullptr);
    for (int it = 0; it < 30 && span < need * 0.995; ++it) {
      stretch *= need / span;
      span = M.run_wave(waves[w], stretch, nullptr, 0, nullptr);
    }
    max_stretch = std::max(max_stretch, stretch);
    R.cores = cres;   // events index cores by position in R.cores
    span = M.run_wave(waves[w], stretch, &R, body, &cres);
    body += span;
  }
  R.cores = std::move(cres);
  R.hbm_stretch = max_stretch;
  R.body_us = body / 1000.0;
  int used = 0;
  for (const auto& wv : waves) used = std::max<int>(used, static_cast<int>(wv.size()));
  int ai_cores = any_aic || !p.split ? std::min(slots, static_cast<int>(blocks.size()))
                                     : (std::min(slots, static_cast<int>(blocks.size())) + 1) / 2;
  R.launch_us = p.launch_base_us + p.launch_per_core_us * ai_cores;
  R.time_us = R.launch_us + R.body_us;
  R.steady_us = p.pipelined_launch_us(any_aic) + R.body_us;
  R.flops = R.cube_flops + R.vec_flops;
  for (const CoreResult& c : R.cores) {
    for (int q = 0; q < kPipes; ++q) R.busy_us[q] += c.busy_us[q];
    double span = c.end_us - c.start_us;
    (c.aic ? R.aic_time_us : R.aiv_time_us) = std::max(c.aic ? R.aic_time_us : R.aiv_time_us, span);
  }
  R.gbps = R.time_us > 0 ? static_cast<double>(R.gm_bytes) / (R.time_us * 1000.0) : 0;
  R.tflops = R.time_us > 0 ? R.flops / (R.time_us * 1e6) : 0;

  // ---- the bound ----
  char buf[256];
  double hbm_floor = static_cast<double>(R.hbm_bytes) / p.hbm_gbps() / 1000.0;   // µs
  const CoreResult* slow = nullptr;
  for (const CoreResult& c : R.cores)
    if (!slow || c.end_us - c.start_us > slow->end_us - slow->start_us) slow = &c;
  if (R.launch_us >= R.body_us) {
    R.bound = "launch";
    std::snprintf(buf, sizeof buf, "launch/head overhead %.1f us exceeds the kernel body %.2f us", R.launch_us, R.body_us);
  } else if (max_stretch > 1.05 || (R.body_us > 0 && hbm_floor / R.body_us > 0.7)) {
    R.bound = "HBM";
    std::snprintf(buf, sizeof buf, "%.2f MB from HBM at %.0f GB/s needs %.2f us of the %.2f us body (%d cores share it)",
                  R.hbm_bytes / 1e6, p.hbm_gbps(), hbm_floor, R.body_us, used);
  } else if (slow && slow->end_us > slow->start_us) {
    double span = slow->end_us - slow->start_us;
    int best = P_S;
    for (int q = 0; q < kPipes; ++q)
      if (slow->busy_us[q] > slow->busy_us[best]) best = q;
    double r = slow->busy_us[best] / span;
    if (r >= 0.6) {
      R.bound = best == P_V ? "vector" : best == P_M ? "cube" : best == P_S ? "scalar" : "DMA";
      std::snprintf(buf, sizeof buf, "pipe %s of the slowest core (block %d %s) is busy %.0f%% of its %.2f us%s",
                    pipe_label(best), slow->block, slow->aic ? "AIC" : "AIV", 100 * r, span,
                    R.bound == "DMA" ? " (per-core transfer rate and latency, not HBM)" : "");
    } else {
      R.bound = "sync/latency";
      std::snprintf(buf, sizeof buf,
                    "no pipe of the slowest core is busy over 60%% (max %s %.0f%%): pipes wait on each other or on "
                    "transfer latency",
                    pipe_label(best), 100 * r);
    }
  } else {
    R.bound = "launch";
    std::snprintf(buf, sizeof buf, "empty kernel body");
  }
  R.why = buf;
  return R;
}
}  // namespace kgen::perf
