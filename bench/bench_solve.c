/*
 * bench_solve.c — solve time and proven optimality of the exact solvers
 * (solve.h) on random instances of 2, 4, 8, ..., 512 tasks, next to the
 * papers' figures (PuLP on the authors' machine):
 *   1. CorrGPU optimal G* (CorrGPU Table I): task memory 1..16 GiB
 *      (integers), GPUs of 32 GiB, v = 1, each pair of tasks conflicting
 *      (rho > alpha) with probability 0.5;
 *   2. CATS optimal power (CATS Table 1): servers of 8 V100 (32 GiB each,
 *      200 W static, 100 W other), n/8 + 2 servers so the cluster never
 *      binds, task memory 1..16 GiB (integers), v = 1, per-task kappa
 *      uniform in [1.1, 1.5] — the hard case, every task its own clock;
 *   3. the same CATS instances with one shared kappa of 1.2, for contrast;
 *   4. GOGH Problem 1 (no published solve times): jobs on three accelerator
 *      types, most pairs able to share an accelerator (gogh_random).
 * Three seeds per size (one at 512) so one lucky instance decides nothing;
 * each line gives the median and largest wall time of a solve, how many
 * were proven optimal, and each seed's time, objective, bound and closing
 * method (with the status when not proven; the paper's seconds over our
 * median in vs_paper, across machines and solvers).
 * A series stops at the first size where no seed is proven.  Targets:
 * 128 tasks proven in under 2 s (CorrGPU) and 5 s (CATS, per-task kappa),
 * 256 tasks proven within 60 s; "largest proven within T" is the largest
 * size whose every seed was proven, the slowest within T.
 *
 * The papers' times come from another machine and another solver, so the
 * paper's own formulation (o.paper_model: CATS eq. 6-14 with big-M, the
 * CorrGPU G = 1, 2, ... loop) is also solved here on the first seed of 32
 * and then 128 tasks (stopping at the first size it does not prove), which
 * gives a same-machine reference: the ratio of its time to ours on the same
 * instance.  Shared machines are noisy; the ratios matter, not the seconds.
 *
 * Limit per solve: 60 s, or GPUPLAN_BENCH_LIMIT seconds; argv[1] caps the
 * largest size.  Not a test: it checks nothing.
 *
 * First, GOGH rounds as the simulator will solve them (every 360 s of
 * simulated time, on the active jobs): 64, 128 and 256 jobs on a
 * K80/P100/V100 cluster, within 1 s and stopping at a 1 % gap, on two kinds
 * of instance — the random one above (every job different, half of them
 * on up to two GPUs: the hard case) and jobs of the gavel-like sample
 * table's ten job types with minimums of 10-50 % of their V100 speed (the
 * simulator's case) — each solved cold and then as the next round, 10 %
 * of the jobs replaced, warm-started from the previous placement; then
 * the cheapest fleet for the gavel-like trace.  `bench_solve rounds` runs
 * only these.
 *
 * Then three instance families side by side, 16..512 tasks, one instance
 * per size, time to a proven optimum or the gap at the limit: the random
 * ones above, the pai-like sample's first n tasks (CATS with kappa drawn
 * per task in [1.1, 1.5]; CorrGPU as they are), and gavel-like's job types
 * resampled to n jobs (GOGH, to 128); `bench_solve families [MAX]` runs
 * only these; `bench_solve one F N` solves family F (0..4, in that
 * table's order) at N tasks and prints its bounds, nodes and method
 * (`one F N SEED`: a random family's instance of that seed, as in the
 * series; 0 by default);
 * `bench_solve gogh N [SEED]` does the same for the random GOGH instances
 * (seeds 0..2 unless one is given), with CPU time next to wall time;
 * `bench_solve series M [MAX]` runs only the first table's series of
 * model M (0..3, in the order above).
 * With GPUPLAN_BENCH_WORK=S these two stop at S nominal seconds of work
 * (simplex iterations and nodes) instead of the time limit.  Solves use
 * two threads (solve_opts.threads), as `gpuplan solve` does;
 * GPUPLAN_BENCH_THREADS=1 keeps each in one, to compare, and
 * GPUPLAN_BENCH_CUTS=root|nodes adds branch and price's cuts.
 *
 * `bench_solve limits` runs only this: how long after an interrupt (the
 * cancel flag, set by an alarm) each phase of a solve returns — branch and
 * price, the compact model's root LP and its branch and bound, GOGH's
 * search — against a 0.5 s target, and how far a 10 s time limit is
 * overrun by GOGH at 128 and 256 jobs and by CATS at 256 and 1024 tasks.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "core/rng.h"
#include "core/tput.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"
#include "solve/solve.h"
#include "solve/solve_int.h"

static const gpu_profile V100 = {0, "V100", 32, 23.3, 144.8, 0, 135, 1350, 0.09, 0.91, 0, "v100", 1, ""};

/* Threads per solve: 2, or GPUPLAN_BENCH_THREADS. */
static int bench_threads(void)
{
    const char *env = getenv("GPUPLAN_BENCH_THREADS");
    return env && *env ? atoi(env) : 2;
}

/* GPUPLAN_BENCH_CUTS=off|root|nodes: where branch and price cuts. */
static solve_cuts bench_cuts(void)
{
    const char *env = getenv("GPUPLAN_BENCH_CUTS");
    int k = env && *env ? solve_cuts_parse(env) : SOLVE_CUTS_OFF;
    return k < 0 ? SOLVE_CUTS_OFF : (solve_cuts)k;
}

enum { MAX_SEEDS = 3 };

typedef enum model { CORRGPU, CATS_PER_TASK, CATS_SHARED, GOGH, NMODELS } model;

static const char *const model_title[NMODELS] = {
    "CorrGPU optimal (G*)",
    "CATS optimal (W), per-task kappa in [1.1, 1.5]",
    "CATS optimal (W), shared kappa 1.2",
    "GOGH Problem 1 (W), three accelerator types",
};

/* Table I of CorrGPU and Table 1 of CATS, tasks 2..128; < 0 = not given. */
static const double paper_s[NMODELS][9] = {
    {0.04, 0.07, 0.16, 0.22, 4.92, 8.95, 80.9, -1, -1},
    {0.02, 0.12, 0.24, 0.66, 4.7, 16.5, 80.9, -1, -1},
    {0.02, 0.12, 0.24, 0.66, 4.7, 16.5, 80.9, -1, -1},
    {-1, -1, -1, -1, -1, -1, -1, -1, -1},      /* GOGH gives no solve times */
};

/* ---- instances ------------------------------------------------------------------ */

static void corrgpu_random(corrgpu_inst *in, size_t n, int seed)
{
    rng r;
    rng_seed_stream(&r, 20240601, (uint64_t)n * 16 + (uint64_t)seed);
    memset(in, 0, sizeof *in);
    in->ntasks = n;
    in->gpu_mem_gib = 32;
    in->mem_gib = xcalloc(n, sizeof *in->mem_gib);
    in->v = xcalloc(n, sizeof *in->v);
    in->src = xcalloc(n, sizeof *in->src);
    in->conflict = xcalloc(n * n, 1);
    for (size_t i = 0; i < n; i++) {
        in->mem_gib[i] = 1 + (double)rng_below(&r, 16);
        in->v[i] = 1;
        in->src[i] = (int)i;
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++)
            if (rng_bernoulli(&r, 0.5))
                in->conflict[a * n + b] = in->conflict[b * n + a] = 1;
}

/* The same tasks (memory) for both kappa series: kappa is drawn either way
 * and replaced by 1.2 when shared. */
static void cats_random(cats_inst *in, size_t n, int seed, int shared_kappa)
{
    rng r;
    rng_seed_stream(&r, 20240602, (uint64_t)n * 16 + (uint64_t)seed);
    size_t nodes = n / 8 + 2;
    memset(in, 0, sizeof *in);
    in->tasks = xcalloc(n, sizeof *in->tasks);
    in->ntasks = n;
    in->nodes = xcalloc(nodes, sizeof *in->nodes);
    in->nnodes = nodes;
    in->gpus = xcalloc(nodes * 8, sizeof *in->gpus);
    for (size_t i = 0; i < nodes; i++) {
        in->nodes[i] = (cats_node){200, 100, (int)in->ngpus, 8};
        for (int d = 0; d < 8; d++)
            in->gpus[in->ngpus++] = (cats_gpu){(int)i, d, 32, &V100};
    }
    for (size_t l = 0; l < n; l++) {
        double mem = 1 + (double)rng_below(&r, 16);
        double kappa = rng_range(&r, 1.1, 1.5);
        in->tasks[l] = (cats_task){mem, 1, shared_kappa ? 1.2 : kappa, 50, (int)l};
    }
}

/* GOGH: gogh_inst_random's instance of n jobs, seeded by size and seed. */
static void gogh_random(gogh_inst *in, size_t n, int seed)
{
    rng r;
    rng_seed_stream(&r, 20240603, (uint64_t)n * 16 + (uint64_t)seed);
    gogh_inst_random(in, n, &r);
}

/* The gavel-like sample: its table and its K80 profile (with the built-ins). */
typedef struct gavel_sample {
    sample_set ss;
    catalog *cat;
} gavel_sample;

static int gavel_load(gavel_sample *g)
{
    gp_err err = {{0}};
    if (samplegen_build("gavel-like", SAMPLEGEN_DEFAULT_SEED, &g->ss, &err)) {
        fprintf(stderr, "bench_solve: %s\n", err.msg);
        return -1;
    }
    g->cat = catalog_new();
    catalog_add_builtin(g->cat);
    for (size_t i = 0; i < g->ss.profiles->ngpus; i++)
        catalog_add_gpu(g->cat, &g->ss.profiles->gpus[i]);
    return 0;
}

static void gavel_free(gavel_sample *g)
{
    catalog_free(g->cat);
    sample_set_free(&g->ss);
}

/* GOGH from the table: n jobs of its job types (a quarter on two GPUs),
 * minimum 10-50 % of the V100 solo throughput per GPU, on n/3 + 2 each of
 * K80, P100 and V100M16 in servers of eight. */
static int gogh_table(const gavel_sample *g, size_t n, int seed, gogh_inst *in)
{
    cluster *cl = cluster_new("bench");
    static const char *const models[3] = {"K80", "P100", "V100M16"};
    int per = (int)n / 3 + 2;
    for (int a = 0; a < 3; a++)
        for (int left = per, k = 0; left > 0; left -= 8, k++) {
            node nd;
            memset(&nd, 0, sizeof nd);
            snprintf(nd.name, sizeof nd.name, "%s-%d", models[a], k);
            snprintf(nd.gpu_model, sizeof nd.gpu_model, "%s", models[a]);
            nd.gpu_count = left < 8 ? left : 8;
            cluster_add_node(cl, &nd);
        }
    tput_index *ix = tput_index_new(g->ss.tp);
    gogh_jobtype jt[64];
    size_t njt = tput_jobtypes(ix, jt, 64);
    rng r;
    rng_seed_stream(&r, 20240604, (uint64_t)n * 16 + (uint64_t)seed);
    gp_trace *tr = trace_new("bench");
    for (size_t i = 0; i < n; i++) {
        const gogh_jobtype *t = &jt[rng_below(&r, njt)];
        task k;
        task_init(&k);
        snprintf(k.name, sizeof k.name, "j%zu", i);
        snprintf(k.model, sizeof k.model, "%s", t->model);
        k.batch_size = t->batch_size;
        k.num_gpu = rng_bernoulli(&r, 0.25) ? 2 : 1;
        k.min_tput = rng_range(&r, 0.1, 0.5) * tput_solo(ix, "v100", t) * k.num_gpu;
        trace_add_task(tr, &k);
        task_release(&k);
    }
    gp_err err = {{0}};
    int rc = gogh_inst_from_model(cl, g->cat, tr, g->ss.tp, 0, 0.5, in, &err);
    if (rc)
        fprintf(stderr, "bench_solve: %s\n", err.msg);
    tput_index_free(ix);
    trace_free(tr);
    cluster_free(cl);
    return rc;
}

/* Jobs first..first+n-1 of `in` on all its accelerators (a later round). */
static void gogh_window(const gogh_inst *in, size_t first, size_t n, gogh_inst *out)
{
    size_t J = in->njobs, A = in->ntypes;
    *out = *in;
    out->njobs = n;
    out->jobs = xmalloc(n * sizeof *out->jobs);
    memcpy(out->jobs, in->jobs + first, n * sizeof *out->jobs);
    out->types = xmalloc(A * sizeof *out->types);
    memcpy(out->types, in->types, A * sizeof *out->types);
    out->accels = xmalloc(in->naccels * sizeof *out->accels);
    memcpy(out->accels, in->accels, in->naccels * sizeof *out->accels);
    out->solo = xcalloc(A * n, sizeof *out->solo);
    out->pair = xcalloc(A * n * n, sizeof *out->pair);
    for (size_t a = 0; a < A; a++)
        for (size_t j = 0; j < n; j++) {
            out->solo[a * n + j] = in->solo[a * J + first + j];
            for (size_t k = 0; k < n; k++)
                out->pair[(a * n + j) * n + k] = in->pair[(a * J + first + j) * J + first + k];
        }
}

typedef struct round_out {
    double wall_s, gap;
    const char *status;
} round_out;

static round_out round_solve(const gogh_inst *in, const solve_place *start, size_t nstart,
                             solve_result *res)
{
    solve_opts o;
    solve_opts_default(&o);
    o.time_limit_s = 1;
    o.mip_gap = 0.01;
    o.start = start;
    o.nstart = nstart;
    gp_err err = {{0}};
    double t0 = now_seconds();
    round_out r = {0, HUGE_VAL, "error"};
    if (solve_gogh(in, &o, res, &err)) {
        fprintf(stderr, "bench_solve: %s\n", err.msg);
        return r;
    }
    r.wall_s = now_seconds() - t0;
    r.gap = res->has_solution ? res->gap : HUGE_VAL;
    r.status = solve_status_name(res->status);
    return r;
}

/* Round 1 on jobs 0..n-1, round 2 on jobs n/10..n/10+n-1 started from
 * round 1's placement (renumbered; the jobs that left dropped). */
static void run_round_pair(const char *kind, size_t n, int seed, gogh_inst *pool)
{
    size_t shift = n / 10;
    gogh_inst r1, r2;
    gogh_window(pool, 0, n, &r1);
    gogh_window(pool, shift, n, &r2);
    solve_result a, b;
    round_out o1 = round_solve(&r1, NULL, 0, &a);
    solve_place *start = xcalloc(a.nplace + 1, sizeof *start);
    size_t ns = 0;
    for (size_t q = 0; q < a.nplace; q++)
        if ((size_t)a.place[q].task >= shift)
            start[ns++] = (solve_place){a.place[q].task - (int)shift, a.place[q].gpu};
    round_out o2 = round_solve(&r2, start, ns, &b);
    printf("%-7s %-5zu %-5d %-8.3f %-10s %-8.2f %-10.0f %-8.3f %-10s %-8.2f %.0f\n", kind, n, seed,
           o1.wall_s, o1.status, 100 * o1.gap, a.objective, o2.wall_s, o2.status, 100 * o2.gap,
           b.objective);
    fflush(stdout);
    free(start);
    solve_result_free(&a);
    solve_result_free(&b);
    free(r1.jobs), free(r1.types), free(r1.accels), free(r1.solo), free(r1.pair);
    free(r2.jobs), free(r2.types), free(r2.accels), free(r2.solo), free(r2.pair);
}

static void run_rounds(const gavel_sample *g)
{
    printf("\nGOGH rounds (Problem 1, W): 1 s limit, stop at 1 %% gap; round 2 = 10 %% of "
           "the jobs replaced, warm-started from round 1\n");
    printf("%-7s %-5s %-5s %-8s %-10s %-8s %-10s %-8s %-10s %-8s %s\n", "jobs", "n", "seed",
           "r1_s", "r1_status", "r1_gap%", "r1_W", "r2_s", "r2_status", "r2_gap%", "r2_W");
    for (size_t n = 64; n <= 256; n *= 2)
        for (int seed = 0; seed < 3; seed++) {
            size_t pool_n = n + n / 10;
            gogh_inst pool;
            gogh_random(&pool, pool_n, seed);
            run_round_pair("random", n, seed, &pool);
            gogh_inst_free(&pool);
            if (g && gogh_table(g, pool_n, seed, &pool) == 0) {
                run_round_pair("table", n, seed, &pool);
                gogh_inst_free(&pool);
            }
        }
}

/* The cheapest fleet for the gavel-like trace (all 40 jobs at once) from
 * K80, P100 and V100M16 at 2,500, 5,000 and 9,000 USD, energy at 0.15
 * USD/kWh over three years. */
static void run_fleet(const gavel_sample *g)
{
    const char *names[3] = {"K80", "P100", "V100M16"};
    double prices[3] = {2500, 5000, 9000};
    fleet_candidate cand[3];
    for (int k = 0; k < 3; k++)
        cand[k] = (fleet_candidate){catalog_gpu(g->cat, names[k]), 0, prices[k]};
    fleet_params fp = {0.15, 26280, 0.5, 0, NULL, NULL};
    gogh_inst in;
    gp_err err = {{0}};
    if (fleet_inst_from_model(cand, 3, g->ss.tr, g->ss.tp, &fp, &in, &err)) {
        fprintf(stderr, "bench_solve: %s\n", err.msg);
        return;
    }
    solve_opts o;
    solve_opts_default(&o);
    o.time_limit_s = 60;
    fleet_result fr;
    double t0 = now_seconds();
    if (solve_fleet(&in, &o, &fr, &err) == 0) {
        printf("\ncheapest fleet, gavel-like trace (%zu jobs, %zu GPUs offered): %s in %.3f s, "
               "%.2f USD (CapEx %.2f, energy %.2f), bought K80 %d, P100 %d, V100M16 %d\n",
               in.njobs, in.naccels, solve_status_name(fr.sol.status), now_seconds() - t0,
               fr.sol.objective, fr.capex_usd, fr.energy_usd, fr.count[0], fr.count[1],
               fr.count[2]);
        fleet_result_free(&fr);
    } else {
        fprintf(stderr, "bench_solve: %s\n", err.msg);
    }
    gogh_inst_free(&in);
}

/* ---- one solve -------------------------------------------------------------------- */

typedef struct outcome {
    double wall_s;
    int proven;
    int has_solution;
    double objective, bound;
    char method[48];
    char status[16];
} outcome;

static outcome solve_one(model m, size_t n, int seed, double limit, int paper)
{
    solve_opts o;
    solve_opts_default(&o);
    o.time_limit_s = limit;
    o.threads = bench_threads();
    o.cuts = bench_cuts();
    o.paper_model = paper;
    solve_result res;
    solve_result_init(&res);
    gp_err err = {{0}};
    outcome out;
    memset(&out, 0, sizeof out);
    int rc;
    double t0 = now_seconds();
    if (m == CORRGPU) {
        corrgpu_inst in;
        corrgpu_random(&in, n, seed);
        t0 = now_seconds();
        rc = solve_corrgpu(&in, &o, &res, &err);
        out.wall_s = now_seconds() - t0;
        corrgpu_inst_free(&in);
    } else if (m == GOGH) {
        gogh_inst in;
        gogh_random(&in, n, seed);
        t0 = now_seconds();
        rc = solve_gogh(&in, &o, &res, &err);
        out.wall_s = now_seconds() - t0;
        gogh_inst_free(&in);
    } else {
        cats_inst in;
        cats_random(&in, n, seed, m == CATS_SHARED);
        t0 = now_seconds();
        rc = solve_cats(&in, &o, &res, &err);
        out.wall_s = now_seconds() - t0;
        cats_inst_free(&in);
    }
    if (rc != 0) {
        fprintf(stderr, "bench_solve: %s, %zu tasks, seed %d: %s\n", model_title[m], n, seed,
                err.msg);
        snprintf(out.status, sizeof out.status, "error");
        snprintf(out.method, sizeof out.method, "error");
        out.objective = out.bound = NAN;
        return out;
    }
    out.proven = res.status == SOLVE_OPTIMAL;
    out.has_solution = res.has_solution;
    out.objective = res.has_solution ? res.objective : NAN;
    out.bound = res.bound;
    snprintf(out.method, sizeof out.method, "%s", res.method);
    snprintf(out.status, sizeof out.status, "%s", solve_status_name(res.status));
    solve_result_free(&res);
    return out;
}

/* ---- one series ------------------------------------------------------------------- */

typedef struct series {
    size_t within10, within60;      /* largest size, every seed proven within */
    double ours_s[2];               /* first-seed time at 32 and 128 tasks (< 0 = none) */
    int ours_proven[2];
} series;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void append(char *buf, size_t cap, const char *fmt, double v, int first)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    if (!first)
        buf[len++] = '/', buf[len] = 0;
    if (isnan(v))
        snprintf(buf + len, cap - len, "-");
    else
        snprintf(buf + len, cap - len, fmt, v);
}

static void run_series(model m, size_t max_n, double limit, series *s)
{
    memset(s, 0, sizeof *s);
    s->ours_s[0] = s->ours_s[1] = -1;
    int cats = m != CORRGPU;
    printf("\n%s, random instances, %d seeds per size (1 at 512), limit %g s\n", model_title[m],
           MAX_SEEDS, limit);
    printf("%-6s %-8s %-9s %-9s %-8s %-6s %-20s %-26s %-26s %s\n", "tasks", "paper_s",
           "median_s", "max_s", "vs_paper", "proven", "seed_s", cats ? "W" : "G*", "bound",
           "method");
    int k = 0;
    for (size_t n = 2; n <= max_n && n <= 512; n *= 2, k++) {
        int seeds = n >= 512 ? 1 : MAX_SEEDS, proven = 0;
        double t[MAX_SEEDS];
        char obj[128] = "", bnd[128] = "", meth[160] = "", ts[64] = "";
        for (int sd = 0; sd < seeds; sd++) {
            outcome o = solve_one(m, n, sd, limit, 0);
            t[sd] = o.wall_s;
            proven += o.proven;
            append(ts, sizeof ts, "%.3f", o.wall_s, sd == 0);
            append(obj, sizeof obj, cats ? "%.1f" : "%.0f", o.objective, sd == 0);
            append(bnd, sizeof bnd, cats ? "%.1f" : "%.0f", o.bound, sd == 0);
            size_t len = strlen(meth);
            snprintf(meth + len, sizeof meth - len, "%s%s%s%s", sd ? "/" : "", o.method,
                     o.proven ? "" : ":", o.proven ? "" : o.status);
            if (sd == 0 && (n == 32 || n == 128)) {
                s->ours_s[n == 128] = o.wall_s;
                s->ours_proven[n == 128] = o.proven;
            }
        }
        double sorted[MAX_SEEDS];
        memcpy(sorted, t, sizeof sorted[0] * (size_t)seeds);
        qsort(sorted, (size_t)seeds, sizeof sorted[0], cmp_double);
        double med = sorted[seeds / 2], mx = sorted[seeds - 1];
        double paper = paper_s[m][k];
        char ps[16] = "-", ratio[16] = "-";
        if (paper >= 0) {
            snprintf(ps, sizeof ps, "%.2f", paper);
            snprintf(ratio, sizeof ratio, "%.1fx", paper / fmax(med, 1e-6));
        }
        char pv[16];
        snprintf(pv, sizeof pv, "%d/%d", proven, seeds);
        printf("%-6zu %-8s %-9.3f %-9.3f %-8s %-6s %-20s %-26s %-26s %s\n", n, ps, med, mx, ratio,
               pv, ts, obj, bnd, meth);
        fflush(stdout);
        if (proven == seeds && mx <= 10)
            s->within10 = n;
        if (proven == seeds && mx <= 60)
            s->within60 = n;
        if (proven == 0) {
            size_t next = n * 2;
            if (next <= max_n && next <= 512)
                printf("stopped: no seed of %zu tasks proven within %g s; %zu and larger not run\n",
                       n, limit, next);
            break;
        }
    }
}

/* The paper's formulation on the first seed of 32 and 128 tasks, against
 * our time on the same instance. */
static void run_paper(model m, size_t max_n, double limit, const series *s)
{
    static const size_t sizes[2] = {32, 128};
    for (int i = 0; i < 2; i++) {
        size_t n = sizes[i];
        if (n > max_n)
            break;
        if (s->ours_s[i] < 0) {
            printf("paper model, %s, %zu tasks: not run (our series stopped before)\n",
                   model_title[m], n);
            break;
        }
        outcome o = solve_one(m, n, 0, limit, 1);
        char ours[48];
        snprintf(ours, sizeof ours, "%.3f s%s", s->ours_s[i], s->ours_proven[i] ? "" : " unproven");
        if (o.proven)
            printf("paper model, %s, %zu tasks, seed 0: %.3f s proven (%s %.1f); ours %s -> "
                   "%.1fx faster than the paper's model here\n",
                   model_title[m], n, o.wall_s, m == CORRGPU ? "G*" : "W", o.objective, ours,
                   o.wall_s / fmax(s->ours_s[i], 1e-6));
        else {
            char best[32] = "none found";
            if (o.has_solution)
                snprintf(best, sizeof best, "%.1f", o.objective);
            printf("paper model, %s, %zu tasks, seed 0: %s after %.3f s (best %s, bound %.1f); "
                   "ours %s -> more than %.1fx faster than the paper's model here\n",
                   model_title[m], n, o.status, o.wall_s, best, o.bound, ours,
                   o.wall_s / fmax(s->ours_s[i], 1e-6));
            if (i + 1 < 2 && sizes[i + 1] <= max_n)
                printf("paper model, %s: not tried beyond %zu tasks\n", model_title[m], n);
            break;
        }
        fflush(stdout);
    }
}

/* ---- three instance families ------------------------------------------------------ */

/* The families "proven up to" is stated on: the bench's random instances
 * (above), the pai-like sample's first n tasks with kappa drawn per task
 * uniform in [1.1, 1.5] (CATS) or as they are (CorrGPU, alpha 0, 32 GiB
 * V100s), and gavel-like's job types resampled to n jobs (GOGH,
 * gogh_table). */
typedef enum family {
    FAM_RANDOM_CATS, FAM_RANDOM_CORRGPU, FAM_PAI_CATS, FAM_PAI_CORRGPU, FAM_GAVEL_GOGH, NFAMILIES
} family;

static const char *const family_title[NFAMILIES] = {
    "random, CATS per-task kappa",
    "random, CorrGPU",
    "pai-like, CATS per-task kappa",
    "pai-like, CorrGPU",
    "gavel-like resampled, GOGH",
};

typedef struct pai_sample {
    sample_set ss;
    catalog *cat;
} pai_sample;

static int pai_load(pai_sample *s)
{
    gp_err err = {{0}};
    if (samplegen_build("pai-like", SAMPLEGEN_DEFAULT_SEED, &s->ss, &err)) {
        fprintf(stderr, "bench_solve: %s\n", err.msg);
        return -1;
    }
    s->cat = catalog_new();
    catalog_add_builtin(s->cat);
    for (size_t i = 0; i < s->ss.profiles->ngpus; i++)
        catalog_add_gpu(s->cat, &s->ss.profiles->gpus[i]);
    return 0;
}

/* Options of one bench solve: the time limit, or with GPUPLAN_BENCH_WORK=S
 * a work limit of S nominal seconds instead (solve_opts.work_limit_s), so
 * that a run on a loaded machine grows the same tree as on a quiet one. */
static void bench_opts(solve_opts *o, double limit)
{
    solve_opts_default(o);
    o->time_limit_s = limit;
    o->threads = bench_threads();
    o->cuts = bench_cuts();
    const char *env = getenv("GPUPLAN_BENCH_WORK");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (end != env && v > 0)
            o->work_limit_s = v;
    }
}

/* One solve of family f at n tasks; *ok = 0 when the instance could not be
 * built. */
static solve_result family_solve(family f, size_t n, int seed, double limit,
                                 const pai_sample *pai, const gavel_sample *gav, int *ok)
{
    solve_opts o;
    bench_opts(&o, limit);
    solve_result res;
    solve_result_init(&res);
    gp_err err = {{0}};
    int rc = -1;
    *ok = 1;
    if (f == FAM_RANDOM_CATS || f == FAM_PAI_CATS) {
        cats_inst in;
        if (f == FAM_RANDOM_CATS) {
            cats_random(&in, n, seed, 0);
            rc = 0;
        } else {
            rc = cats_inst_from_model(pai->ss.cl, pai->cat, pai->ss.tr, n, &in, &err);
            rng r;
            rng_seed_stream(&r, 20240605, n);
            for (size_t l = 0; rc == 0 && l < in.ntasks; l++)
                in.tasks[l].kappa = rng_range(&r, 1.1, 1.5);
        }
        if (rc == 0) {
            rc = solve_cats(&in, &o, &res, &err);
            cats_inst_free(&in);
        }
    } else if (f == FAM_RANDOM_CORRGPU || f == FAM_PAI_CORRGPU) {
        corrgpu_inst in;
        if (f == FAM_RANDOM_CORRGPU) {
            corrgpu_random(&in, n, seed);
            rc = 0;
        } else {
            rc = corrgpu_inst_from_trace(pai->ss.tr, n, 32, 0, &in, &err);
        }
        if (rc == 0) {
            rc = solve_corrgpu(&in, &o, &res, &err);
            corrgpu_inst_free(&in);
        }
    } else {
        gogh_inst in;
        rc = gav ? gogh_table(gav, n, 0, &in) : -1;
        if (rc == 0) {
            rc = solve_gogh(&in, &o, &res, &err);
            gogh_inst_free(&in);
        }
    }
    if (rc) {
        if (err.msg[0])
            fprintf(stderr, "bench_solve: %s, %zu: %s\n", family_title[f], n, err.msg);
        *ok = 0;
    }
    return res;
}

/* `bench_solve families [MAX]`: per family and size (16..512, GOGH to
 * 128), the time to a proven optimum, or the gap left at the limit. */
static void run_families(size_t max_n, double limit)
{
    pai_sample pai;
    gavel_sample gav;
    int have_pai = pai_load(&pai) == 0, have_gav = gavel_load(&gav) == 0;
    printf("\nthree instance families: time to a proven optimum, else the gap at the %g s "
           "limit (one instance per size; a shared machine, load varies)\n", limit);
    printf("%-32s", "family");
    for (size_t n = 16; n <= max_n && n <= 512; n *= 2)
        printf(" %-18zu", n);
    printf("\n");
    for (int f = 0; f < NFAMILIES; f++) {
        if ((f == FAM_PAI_CATS || f == FAM_PAI_CORRGPU) && !have_pai)
            continue;
        printf("%-32s", family_title[f]);
        fflush(stdout);
        int stopped = 0;
        for (size_t n = 16; n <= max_n && n <= 512; n *= 2) {
            char cell[32] = "-";
            if (!stopped && !(f == FAM_GAVEL_GOGH && n > 128)) {
                int ok;
                double t0 = now_seconds();
                solve_result res = family_solve((family)f, n, 0, limit, &pai, have_gav ? &gav : NULL,
                                                &ok);
                double t = now_seconds() - t0;
                if (!ok)
                    snprintf(cell, sizeof cell, "error");
                else if (res.status == SOLVE_OPTIMAL)
                    snprintf(cell, sizeof cell, "%.3f s", t);
                else if (res.has_solution && isfinite(res.gap))
                    snprintf(cell, sizeof cell, "gap %.3g %%", 100 * res.gap);
                else
                    snprintf(cell, sizeof cell, "%s", solve_status_name(res.status));
                stopped = ok && res.status != SOLVE_OPTIMAL && !res.has_solution;
                solve_result_free(&res);
            }
            printf(" %-18s", cell);
            fflush(stdout);
        }
        printf("\n");
    }
    if (have_pai) {
        catalog_free(pai.cat);
        sample_set_free(&pai.ss);
    }
    if (have_gav)
        gavel_free(&gav);
}

/* `bench_solve one FAMILY N`: one solve of family FAMILY (its index in
 * the families table, 0..4) at N tasks, with what the table leaves out:
 * the heuristic's and the root's bounds, the nodes and how it closed. */
static void run_one(int f, size_t n, int seed, double limit)
{
    pai_sample pai;
    gavel_sample gav;
    int have_pai = pai_load(&pai) == 0, have_gav = gavel_load(&gav) == 0;
    if (f < 0 || f >= NFAMILIES || ((f == FAM_PAI_CATS || f == FAM_PAI_CORRGPU) && !have_pai)) {
        fprintf(stderr, "bench_solve one: no family %d\n", f);
    } else {
        int ok;
        double t0 = now_seconds();
        clock_t c0 = clock();
        solve_result res = family_solve((family)f, n, seed, limit, &pai, have_gav ? &gav : NULL, &ok);
        printf("%s, %zu: %s in %.3f s (CPU %.3f s), objective %.6g, bound %.6g (gap %.3g %%), "
               "heuristic %.6g, root %.6g, %ld nodes, %s\n",
               family_title[f], n, ok ? solve_status_name(res.status) : "error",
               now_seconds() - t0, (double)(clock() - c0) / CLOCKS_PER_SEC, res.objective,
               res.bound, 100 * res.gap,
               res.heur_objective, res.lp_bound, res.nodes, res.method);
        solve_result_free(&res);
    }
    if (have_pai) {
        catalog_free(pai.cat);
        sample_set_free(&pai.ss);
    }
    if (have_gav)
        gavel_free(&gav);
}

/* `bench_solve gogh N [SEED]`: GOGH on the random instances of the series
 * (gogh_random) at N jobs, each seed (0..2, or the one given) alone, with
 * the bounds the series leaves out and the process's CPU time next to the
 * wall time (the machine is shared: CPU time is what the solve cost). */
static void run_gogh(size_t n, int only_seed, double limit)
{
    for (int sd = only_seed < 0 ? 0 : only_seed; sd < (only_seed < 0 ? MAX_SEEDS : only_seed + 1);
         sd++) {
        gogh_inst in;
        gogh_random(&in, n, sd);
        solve_opts o;
        bench_opts(&o, limit);
        solve_result res;
        solve_result_init(&res);
        gp_err err = {{0}};
        double t0 = now_seconds();
        clock_t c0 = clock();
        int rc = solve_gogh(&in, &o, &res, &err);
        double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC, wall = now_seconds() - t0;
        if (rc)
            printf("GOGH random, %zu jobs, seed %d: error: %s\n", n, sd, err.msg);
        else
            printf("GOGH random, %zu jobs, seed %d: %s in %.3f s (CPU %.3f s), objective %.6g, "
                   "bound %.6g (gap %.3g %%), heuristic %.6g, root %.6g, %ld nodes, %s\n",
                   n, sd, solve_status_name(res.status), wall, cpu, res.objective, res.bound,
                   100 * res.gap, res.heur_objective, res.lp_bound, res.nodes, res.method);
        fflush(stdout);
        solve_result_free(&res);
        gogh_inst_free(&in);
    }
}

/* ---- cancel latency and time-limit overrun ---------------------------------------- */

/* The interrupt of `gpuplan solve` (an alarm here): sets the cancel flag
 * and notes when. */
static volatile int limits_cancel;
static volatile double limits_flag_at;

static void on_alarm(int sig)
{
    (void)sig;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    limits_flag_at = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    limits_cancel = 1;
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct limits_case {
    const char *phase;
    model m;
    size_t n;
    int no_bounds;
    double after_s;         /* the interrupt comes this long after the start */
} limits_case;

/* One solve interrupted after c->after_s, or (after_s = 0) run to a time
 * limit; prints the latency or the overrun. */
static void limits_one(const limits_case *lc, double limit)
{
    solve_opts o;
    solve_opts_default(&o);
    o.time_limit_s = limit;
    o.threads = bench_threads();
    o.cuts = bench_cuts();
    o.no_bounds = lc->no_bounds;
    o.cancel = &limits_cancel;
    limits_cancel = 0;
    limits_flag_at = 0;
    solve_result res;
    gp_err err = {{0}};
    int rc;
    corrgpu_inst ci;
    cats_inst ca;
    gogh_inst gi;
    if (lc->m == CORRGPU)
        corrgpu_random(&ci, lc->n, 0);
    else if (lc->m == GOGH)
        gogh_random(&gi, lc->n, 0);
    else
        cats_random(&ca, lc->n, 0, lc->m == CATS_SHARED);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    if (lc->after_s > 0) {
        struct itimerval it = {{0, 0}, {(time_t)lc->after_s,
                                        (suseconds_t)((lc->after_s - floor(lc->after_s)) * 1e6)}};
        setitimer(ITIMER_REAL, &it, NULL);
    }
    double t0 = mono_now();
    rc = lc->m == CORRGPU ? solve_corrgpu(&ci, &o, &res, &err)
       : lc->m == GOGH    ? solve_gogh(&gi, &o, &res, &err)
                          : solve_cats(&ca, &o, &res, &err);
    double t1 = mono_now();
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    if (lc->m == CORRGPU)
        corrgpu_inst_free(&ci);
    else if (lc->m == GOGH)
        gogh_inst_free(&gi);
    else
        cats_inst_free(&ca);
    if (rc) {
        printf("%-34s error: %s\n", lc->phase, err.msg);
        return;
    }
    if (lc->after_s > 0 && limits_flag_at > 0)
        printf("%-34s interrupt at %5.2f s, returned %.3f s later (%s, %s)\n", lc->phase,
               limits_flag_at - t0, t1 - limits_flag_at, solve_status_name(res.status),
               res.method);
    else if (lc->after_s > 0)
        printf("%-34s ended (%s, %s) in %.2f s, before the interrupt\n", lc->phase,
               solve_status_name(res.status), res.method, t1 - t0);
    else
        printf("%-34s limit %g s, took %.2f s (overrun %+.2f s; %s, %s, gap %.2f %%)\n",
               lc->phase, limit, t1 - t0, t1 - t0 - limit, solve_status_name(res.status),
               res.method, 100 * res.gap);
    fflush(stdout);
    solve_result_free(&res);
}

/* `bench_solve limits`: how soon an interrupt stops each phase of a solve
 * (the target is 0.5 s) and how far a time limit is overrun. */
static void run_limits(void)
{
    static const limits_case cases[] = {
        {"CATS per-task, branch and price", CATS_PER_TASK, 256, 0, 2.0},
        {"CATS per-task, compact root LP", CATS_PER_TASK, 512, 1, 1.0},
        {"CATS per-task, compact B&B", CATS_PER_TASK, 128, 1, 4.0},
        {"CorrGPU, branch and price", CORRGPU, 512, 0, 2.0},
        {"CorrGPU, compact MILP", CORRGPU, 256, 1, 2.0},
        {"GOGH 128 jobs, search", GOGH, 128, 0, 3.0},
        {"GOGH 256 jobs, search", GOGH, 256, 0, 1.0},
    };
    printf("\ninterrupt latency (target 0.5 s; shared machine, load varies)\n");
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        limits_one(&cases[k], 60);
    printf("\ntime-limit overrun\n");
    static const limits_case over[] = {
        {"GOGH 128 jobs", GOGH, 128, 0, 0},
        {"GOGH 256 jobs", GOGH, 256, 0, 0},
        {"CATS per-task 256 tasks", CATS_PER_TASK, 256, 0, 0},
        {"CATS per-task 256, compact MILP", CATS_PER_TASK, 256, 1, 0},
        {"CATS per-task 1024, compact MILP", CATS_PER_TASK, 1024, 1, 0},
    };
    for (size_t k = 0; k < sizeof over / sizeof *over; k++)
        limits_one(&over[k], 10);
}

int main(int argc, char **argv)
{
    double limit = 60;
    const char *env = getenv("GPUPLAN_BENCH_LIMIT");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (end != env && v > 0)
            limit = v;
    }
    size_t max_n = 512;
    if (argc > 1 && strcmp(argv[1], "limits") == 0) {
        run_limits();
        solve_shutdown();
        return 0;
    }
    if (argc > 3 && strcmp(argv[1], "one") == 0) {
        run_one(atoi(argv[2]), (size_t)strtol(argv[3], NULL, 10), argc > 4 ? atoi(argv[4]) : 0,
                limit);
        solve_shutdown();
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "gogh") == 0) {
        run_gogh((size_t)strtol(argv[2], NULL, 10), argc > 3 ? atoi(argv[3]) : -1, limit);
        solve_shutdown();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "families") == 0) {
        long v = argc > 2 ? strtol(argv[2], NULL, 10) : 512;
        run_families(v >= 16 ? (size_t)v : 512, limit);
        solve_shutdown();
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "series") == 0) {
        long m = strtol(argv[2], NULL, 10), v = argc > 3 ? strtol(argv[3], NULL, 10) : 0;
        series one;
        if (m >= 0 && m < NMODELS)
            run_series((model)m, v >= 2 ? (size_t)v : max_n, limit, &one);
        solve_shutdown();
        return 0;
    }
    gavel_sample g;
    int have_gavel = gavel_load(&g) == 0;
    run_rounds(have_gavel ? &g : NULL);
    if (have_gavel) {
        run_fleet(&g);
        gavel_free(&g);
    }
    if (argc > 1 && strcmp(argv[1], "rounds") == 0) {
        solve_shutdown();
        return 0;
    }
    if (argc > 1) {
        long v = strtol(argv[1], NULL, 10);
        if (v >= 2)
            max_n = (size_t)v;
    }
    double t0 = now_seconds();
    series s[NMODELS];
    for (int m = 0; m < NMODELS; m++)
        run_series((model)m, max_n, limit, &s[m]);
    printf("\n");
    for (int m = 0; m < CATS_SHARED; m++)
        run_paper((model)m, max_n, limit, &s[m]);
    run_families(max_n, limit);
    printf("\nlargest proven within 10 s: CorrGPU %zu, CATS %zu (shared kappa %zu), GOGH %zu\n",
           s[CORRGPU].within10, s[CATS_PER_TASK].within10, s[CATS_SHARED].within10,
           s[GOGH].within10);
    printf("largest proven within %g s: CorrGPU %zu, CATS %zu (shared kappa %zu), GOGH %zu\n",
           fmin(limit, 60), s[CORRGPU].within60, s[CATS_PER_TASK].within60,
           s[CATS_SHARED].within60, s[GOGH].within60);
    printf("targets: 128 tasks proven < 2 s CorrGPU, < 5 s CATS; 256 tasks proven < 60 s\n");
    printf("bench_solve total: %.1f s\n", now_seconds() - t0);
    solve_shutdown();
    return 0;
}
