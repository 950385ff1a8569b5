//! The fixed C++ text of the shim (see [`super::shim`]): includes and model struct
//! (`PRELUDE`), the port-independent entry points (`API`: create/free with optional VCD,
//! eval, dump, flush, signal lookup through `VerilatedContext::scopeFind` and
//! `VerilatedScope::varFind`, signal reads) and the clock tick (`TICK`).
//! `@CLASS@` stands for `V<top>`; `SHIM_VERSION_VALUE` for the shim version.

/// Includes, the per-model state and helpers (inside an anonymous namespace left open).
pub(super) const PRELUDE: &str = r#"#include "@CLASS@.h"
#include "verilated.h"
#include "verilated_sym_props.h"
#include "verilated_syms.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
typedef VerilatedFstC LcanetTrace;
#elif VM_TRACE
#include "verilated_vcd_c.h"
typedef VerilatedVcdC LcanetTrace;
#endif
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace {
@SIGNALS@
struct Model {
    VerilatedContext* ctx = nullptr;
    @CLASS@* top = nullptr;
#if VM_TRACE
    LcanetTrace* tfp = nullptr;
#endif
    std::vector<Signal> signals;
};
struct PortInfo {
    const char* name;
    uint32_t dir;  // 0 = input, 1 = output
    uint32_t width;
};
"#;

/// Signal handles and reading Verilator variables (inside the anonymous namespace; needs
/// `verilated_syms.h`).
pub(super) const SIGNALS: &str = r#"struct Signal {
    void* datap;
    int vltype;
    uint32_t width;
    uint32_t words;
};
void set_err(char* err, size_t len, const std::string& msg) {
    if (err && len) std::snprintf(err, len, "%s", msg.c_str());
}
// Applies `index_part` (`[i][j]`, one index per unpacked dimension) to `var`, appends the
// signal to `signals` and returns its handle, or -1 with a message in `err`. `full` is the
// name without indices, `name` as given.
int32_t add_var_signal(std::vector<Signal>& signals, const VerilatedVar* var, const std::string& full, const std::string& index_part, const char* name, uint32_t* width, char* err, size_t errlen) {
    void* datap = var->datap();
    int dim = 1;
    size_t pos = 0;
    while (pos < index_part.size()) {
        if (index_part[pos] != '[') { set_err(err, errlen, "bad index syntax in `" + std::string(name) + "`"); return -1; }
        const size_t close = index_part.find(']', pos);
        if (close == std::string::npos) { set_err(err, errlen, "missing `]` in `" + std::string(name) + "`"); return -1; }
        const std::string num = index_part.substr(pos + 1, close - pos - 1);
        char* end = nullptr;
        const long idx = std::strtol(num.c_str(), &end, 10);
        if (num.empty() || *end != '\0') { set_err(err, errlen, "index `" + num + "` is not a number"); return -1; }
        if (dim > var->udims()) { set_err(err, errlen, "too many indices for `" + full + "`"); return -1; }
        datap = var->datapAdjustIndex(datap, dim, static_cast<int>(idx));
        if (!datap) { set_err(err, errlen, "index " + num + " out of range for `" + full + "`"); return -1; }
        ++dim;
        pos = close + 1;
    }
    if (dim <= var->udims()) {
        set_err(err, errlen, "`" + full + "` is an unpacked array: give one index per unpacked dimension, e.g. `" + full + "[0]`");
        return -1;
    }
    const int t = var->vltype();
    if (t != VLVT_UINT8 && t != VLVT_UINT16 && t != VLVT_UINT32 && t != VLVT_UINT64 && t != VLVT_WDATA) {
        set_err(err, errlen, "`" + full + "` has a type the bridge cannot read (vltype " + std::to_string(t) + ")");
        return -1;
    }
    Signal sig{datap, t, static_cast<uint32_t>(var->entBits()), 0};
    sig.words = (sig.width + 31) / 32;
    signals.push_back(sig);
    *width = sig.width;
    return static_cast<int32_t>(signals.size() - 1);
}
uint64_t var_u64(const Signal& s) {
    switch (s.vltype) {
    case VLVT_UINT8: return *static_cast<const CData*>(s.datap);
    case VLVT_UINT16: return *static_cast<const SData*>(s.datap);
    case VLVT_UINT32: return *static_cast<const IData*>(s.datap);
    case VLVT_UINT64: return *static_cast<const QData*>(s.datap);
    default: {
        const EData* w = static_cast<const EData*>(s.datap);
        return static_cast<uint64_t>(w[0]) | (static_cast<uint64_t>(w[1]) << 32);
    }
    }
}
void var_words(const Signal& s, uint32_t* out) {
    if (s.vltype == VLVT_WDATA) {
        const EData* w = static_cast<const EData*>(s.datap);
        for (uint32_t k = 0; k < s.words; ++k) out[k] = w[k];
        return;
    }
    const uint64_t v = var_u64(s);
    out[0] = static_cast<uint32_t>(v);
    if (s.words > 1) out[1] = static_cast<uint32_t>(v >> 32);
}
"#;

/// Entry points that do not depend on the port list.
pub(super) const API: &str = r#"uint32_t lcanet_shim_version(void) { return SHIM_VERSION_VALUE; }
uint32_t lcanet_port_count(void) { return kPortCount; }
const char* lcanet_port_name(uint32_t i) { return i < kPortCount ? kPorts[i].name : nullptr; }
uint32_t lcanet_port_dir(uint32_t i) { return i < kPortCount ? kPorts[i].dir : 0; }
uint32_t lcanet_port_width(uint32_t i) { return i < kPortCount ? kPorts[i].width : 0; }
uint32_t lcanet_has_trace(void) { return VM_TRACE ? 1u : 0u; }
uint32_t lcanet_has_public(void) { return kPublic; }

void* lcanet_create(const char* vcd_path, char* err, size_t errlen) {
#if !VM_TRACE
    if (vcd_path) {
        set_err(err, errlen, "model was built without tracing (ModelOptions::trace = false)");
        return nullptr;
    }
#endif
    Model* m = new Model;
    m->ctx = new VerilatedContext;
    if (vcd_path) m->ctx->traceEverOn(true);
    Verilated::threadContextp(m->ctx);
    m->top = new @CLASS@{m->ctx, "TOP"};
#if VM_TRACE
    if (vcd_path) {
        m->tfp = new LcanetTrace;
        m->top->trace(m->tfp, 99);
        m->tfp->open(vcd_path);
        if (!m->tfp->isOpen()) {
            set_err(err, errlen, std::string(VM_TRACE_FST ? "cannot open FST file " : "cannot open VCD file ") + vcd_path);
            delete m->tfp;
            Verilated::threadContextp(m->ctx);
            delete m->top;
            delete m->ctx;
            delete m;
            return nullptr;
        }
    }
#endif
    return m;
}

void lcanet_free(void* p) {
    Model* m = static_cast<Model*>(p);
    if (!m) return;
    Verilated::threadContextp(m->ctx);
    m->top->final();
#if VM_TRACE
    if (m->tfp) {
        m->tfp->close();
        delete m->tfp;
    }
#endif
    delete m->top;
    delete m->ctx;
    delete m;
}

void lcanet_eval(void* p) {
    Model* m = static_cast<Model*>(p);
    Verilated::threadContextp(m->ctx);
    m->top->eval();
}

void lcanet_dump(void* p, uint64_t t) {
    Model* m = static_cast<Model*>(p);
    m->ctx->time(t);
#if VM_TRACE
    if (m->tfp) m->tfp->dump(t);
#endif
}

void lcanet_flush(void* p) {
#if VM_TRACE
    Model* m = static_cast<Model*>(p);
    if (m->tfp) m->tfp->flush();
#else
    (void)p;
#endif
}

// Finds `scope.path.var` (optionally `var[i][j]` for unpacked arrays). Returns a handle >= 0
// and the width in bits, or -1 with a message in `err`.
int32_t lcanet_signal_find(void* p, const char* name, uint32_t* width, char* err, size_t errlen) {
    Model* m = static_cast<Model*>(p);
    if (!kPublic) {
        set_err(err, errlen, "model was built without public internal signals (ModelOptions::public is empty)");
        return -1;
    }
    std::string full(name);
    std::string index_part;
    const size_t bracket = full.find('[');
    if (bracket != std::string::npos) {
        index_part = full.substr(bracket);
        full = full.substr(0, bracket);
    }
    const size_t dot = full.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == full.size()) {
        set_err(err, errlen, "expected a hierarchical name `top.inst.signal`");
        return -1;
    }
    const std::string scope_name = std::string("TOP.") + full.substr(0, dot);
    const std::string var_name = full.substr(dot + 1);
    const VerilatedScope* scope = m->ctx->scopeFind(scope_name.c_str());
    if (!scope) {
        std::string msg = "no scope `" + full.substr(0, dot) + "`; scopes:";
        int n = 0;
        for (const auto& it : *m->ctx->scopeNameMap()) {
            const char* s = it.first;
            if (std::strncmp(s, "TOP.", 4) == 0) s += 4; else continue;
            if (n++ == 40) { msg += " ..."; break; }
            msg += " "; msg += s;
        }
        set_err(err, errlen, msg);
        return -1;
    }
    const VerilatedVar* var = scope->varFind(var_name.c_str());
    if (!var) {
        std::string msg = "no signal `" + var_name + "` in scope `" + full.substr(0, dot) + "`; signals:";
        int n = 0;
        if (scope->varsp()) {
            for (const auto& it : *scope->varsp()) {
                if (n++ == 60) { msg += " ..."; break; }
                msg += " "; msg += it.first;
            }
        }
        set_err(err, errlen, msg);
        return -1;
    }
    return add_var_signal(m->signals, var, full, index_part, name, width, err, errlen);
}

uint64_t lcanet_signal_get_u64(void* p, uint32_t h) {
    return var_u64(static_cast<Model*>(p)->signals[h]);
}

void lcanet_signal_get_words(void* p, uint32_t h, uint32_t* out) {
    var_words(static_cast<Model*>(p)->signals[h], out);
}

"#;

/// One clock period in a single call.
pub(super) const TICK: &str = r#"// One clock period: clock low, eval, dump at t_low; clock high, eval, dump at t_high.
void lcanet_tick(void* p, uint32_t clock, uint64_t t_low, uint64_t t_high) {
    Model* m = static_cast<Model*>(p);
    Verilated::threadContextp(m->ctx);
    lcanet_set_u64(p, clock, 0);
    m->ctx->time(t_low);
    m->top->eval();
    lcanet_dump(p, t_low);
    lcanet_set_u64(p, clock, 1);
    m->ctx->time(t_high);
    m->top->eval();
    lcanet_dump(p, t_high);
}

"#;
