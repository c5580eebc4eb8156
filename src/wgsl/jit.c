/* The JIT's compiler and its cache: one LLVM ORC LLJIT for the process, a
 * module per program (jit_emit.c), optimised for the host's CPU, and the
 * compiled functions kept by what they were compiled from - the program's
 * bytecode, its width and whether the profile's f32 operators are the
 * host's - so that the pipelines of one module, the CTS's many equal
 * pipelines and a provider's repeated createComputePipeline compile once. */
#include "wgsl/jit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "wgsl/interp.h"

struct wg_jit_code {
    struct wg_jit_code *next;
    uint64_t hash;
    uint8_t *key;
    size_t key_size;
    wg_jit_fn fn;
    unsigned refs;
    wg_jit_stats stats;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMOrcLLJITRef jit;
static LLVMTargetMachineRef tm;   /* the host's, for the optimisation passes */
static char *cpu, *features;
static bool init_failed;
static char init_why[200];
static wg_jit_code *cache;
static unsigned counter;

/* FNV-1a */
static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t k = 0; k < n; k++)
        h = (h ^ p[k]) * 1099511628211ull;
    return h;
}

/* what the compiled code depends on, as bytes */
static uint8_t *make_key(const wg_exec_program *xp, bool ieee, size_t *size)
{
    const wg_program *p = &xp->prog;
    uint32_t head[8] = {1 /* key version */, xp->width, ieee, p->ncode, p->npool, p->nregs,
                        p->nslots, p->ret_slot};
    size_t n = sizeof head + (size_t)p->ncode * sizeof *p->code + (size_t)p->npool * sizeof *p->pool;
    uint8_t *k = malloc(n);
    if (!k)
        return NULL;
    memcpy(k, head, sizeof head);
    /* each instruction's fields (its source position too: harmless) */
    if (p->ncode)
        memcpy(k + sizeof head, p->code, (size_t)p->ncode * sizeof *p->code);
    if (p->npool)
        memcpy(k + sizeof head + (size_t)p->ncode * sizeof *p->code, p->pool,
               (size_t)p->npool * sizeof *p->pool);
    *size = n;
    return k;
}

static void take_error(LLVMErrorRef err, char *why, size_t why_size, const char *what)
{
    char *m = LLVMGetErrorMessage(err);
    snprintf(why, why_size, "%s: %s", what, m);
    LLVMDisposeErrorMessage(m);
}

static void report_error(void *ctx, LLVMErrorRef err)
{
    (void)ctx;
    LLVMConsumeError(err);
}

/* the LLJIT and the target machine, once (under lock) */
static bool init(void)
{
    if (jit || init_failed)
        return jit != NULL;
    init_failed = true;
    if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter()) {
        snprintf(init_why, sizeof init_why, "LLVM has no code generator for this host");
        return false;
    }
    char *triple = LLVMGetDefaultTargetTriple(), *err = NULL;
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple(triple, &target, &err)) {
        snprintf(init_why, sizeof init_why, "LLVM: %s", err ? err : "no target");
        LLVMDisposeMessage(err);
        LLVMDisposeMessage(triple);
        return false;
    }
    cpu = LLVMGetHostCPUName();
    features = LLVMGetHostCPUFeatures();
    tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelDefault,
                                 LLVMRelocDefault, LLVMCodeModelJITDefault);
    /* the code generator's own level (STEX_JIT_CODEGEN=0..3, default 1:
     * its register allocation and instruction selection, fewer of its
     * passes - the IR arrives optimised) */
    const char *cg = getenv("STEX_JIT_CODEGEN");
    LLVMCodeGenOptLevel level = cg && *cg == '0' ? LLVMCodeGenLevelNone
                              : cg && *cg == '2' ? LLVMCodeGenLevelDefault
                              : cg && *cg == '3' ? LLVMCodeGenLevelAggressive
                                                 : LLVMCodeGenLevelLess;
    LLVMTargetMachineRef jit_tm = LLVMCreateTargetMachine(target, triple, cpu, features, level,
                                                          LLVMRelocDefault,
                                                          LLVMCodeModelJITDefault);
    LLVMDisposeMessage(triple);
    /* the builder takes the target machine over */
    LLVMOrcJITTargetMachineBuilderRef jtmb =
        LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jit_tm);
    LLVMErrorRef e;
    LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(b, jtmb);
    if ((e = LLVMOrcCreateLLJIT(&jit, b))) {
        jit = NULL;
        take_error(e, init_why, sizeof init_why, "LLVM");
        return false;
    }
    /* LLVM's own messages are not printed: the failure comes back as why */
    LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(jit), report_error,
                                            NULL);
    /* the C library's memcpy and memmove, which LLVM calls for long copies */
    LLVMOrcDefinitionGeneratorRef gen = NULL;
    if ((e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
             &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL))) {
        take_error(e, init_why, sizeof init_why, "LLVM");
        return false;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), gen);
    init_failed = false;
    return true;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* the machine may be shared */
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Environment knob for the benchmarks and tests: STEX_JIT_OPT=0..3, the
 * optimisation level of the passes (default 2). */
static const char *pipeline_text(void)
{
    const char *o = getenv("STEX_JIT_OPT");
    if (o && o[0] == '0' && !o[1])
        return NULL;
    if (o && o[0] == 'f' && !o[1]) /* a few function passes */
        return "function(sroa,early-cse,instcombine,simplifycfg,gvn,dse,simplifycfg)";
    if (o && o[0] == 'p' && o[1] == ':') /* a pipeline of the caller's */
        return o + 2;
    if (o && o[0] == '1' && !o[1])
        return "default<O1>";
    if (o && o[0] == '3' && !o[1])
        return "default<O3>";
    return "default<O2>";
}

static wg_jit_code *compile(const wg_exec_program *xp, const stex_profile *prof,
                            wg_jit_stats *st, char *why, size_t why_size)
{
    double t0 = now_ms();
    char name[32];
    snprintf(name, sizeof name, "stex_jit_%u", ++counter);
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef cx = LLVMOrcThreadSafeContextGetContext(tsc);
    LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(name, cx);
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(mod, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(mod, dl);
    LLVMDisposeTargetData(dl);
    if (!wg_jit_emit(xp, prof, cx, mod, name, st, why, why_size)) {
        LLVMDisposeModule(mod);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return NULL;
    }
    LLVMValueRef f = LLVMGetNamedFunction(mod, name);
    LLVMAddTargetDependentFunctionAttr(f, "target-cpu", cpu);
    LLVMAddTargetDependentFunctionAttr(f, "target-features", features);
    char *verr = NULL;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &verr)) {
        snprintf(why, why_size, "the JIT made invalid code (%.150s)", verr ? verr : "");
        LLVMDisposeMessage(verr);
        LLVMDisposeModule(mod);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return NULL;
    }
    LLVMDisposeMessage(verr);
    const char *passes = pipeline_text();
    if (passes) {
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        /* the code is vectorised already (a chunk of lanes a vector), and
         * its loops over chunks are better kept than unrolled: less to
         * compile */
        if (!getenv("STEX_JIT_UNROLL")) {
            LLVMPassBuilderOptionsSetLoopUnrolling(po, 0);
            LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
            LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
        }
        LLVMErrorRef e = LLVMRunPasses(mod, passes, tm, po);
        LLVMDisposePassBuilderOptions(po);
        if (e) {
            take_error(e, why, why_size, "LLVM's passes");
            LLVMDisposeModule(mod);
            LLVMOrcDisposeThreadSafeContext(tsc);
            return NULL;
        }
    }
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc); /* the module keeps the context */
    LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModule(jit, LLVMOrcLLJITGetMainJITDylib(jit), tsm);
    if (e) {
        take_error(e, why, why_size, "LLVM");
        LLVMOrcDisposeThreadSafeModule(tsm);
        return NULL;
    }
    LLVMOrcExecutorAddress addr = 0;
    if ((e = LLVMOrcLLJITLookup(jit, &addr, name)) || !addr) {
        if (e)
            take_error(e, why, why_size, "LLVM");
        else
            snprintf(why, why_size, "LLVM compiled no function");
        return NULL;
    }
    wg_jit_code *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    c->fn = (wg_jit_fn)(uintptr_t)addr;
    st->compile_ms = now_ms() - t0;
    return c;
}

wg_jit_code *wg_jit_get(const wg_exec_program *xp, const stex_profile *prof, wg_jit_stats *stats,
                        char *why, size_t why_size)
{
    wg_jit_stats st_local;
    wg_jit_stats *st = stats ? stats : &st_local;
    memset(st, 0, sizeof *st);
    size_t key_size;
    uint8_t *key = make_key(xp, stex_math_f32_is_ieee(prof), &key_size);
    if (!key) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    uint64_t h = hash_bytes(key, key_size);
    pthread_mutex_lock(&lock);
    wg_jit_code *c = NULL;
    for (c = cache; c; c = c->next)
        if (c->hash == h && c->key_size == key_size && !memcmp(c->key, key, key_size))
            break;
    if (c) {
        free(key);
        c->refs++;
        *st = c->stats;
        st->compile_ms = 0;
        st->cached = true;
    } else if (!init()) {
        free(key);
        snprintf(why, why_size, "%s", init_why);
    } else if ((c = compile(xp, prof, st, why, why_size))) {
        c->key = key;
        c->key_size = key_size;
        c->hash = h;
        c->refs = 1;
        c->stats = *st;
        c->next = cache;
        cache = c;
    } else {
        free(key);
    }
    pthread_mutex_unlock(&lock);
    return c;
}

wg_jit_fn wg_jit_entry(const wg_jit_code *c)
{
    return c->fn;
}

void wg_jit_put(wg_jit_code *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&lock);
    c->refs--; /* kept: the next pipeline of the same program takes it again */
    pthread_mutex_unlock(&lock);
}
