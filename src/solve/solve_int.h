/*
 * solve_int.h — what the exact solvers share inside the engine (not a
 * public interface: cmd_solve.c, tests and benchmarks use solve.h; the
 * tests of the packing core include this one too).
 *
 * Two parts:
 *
 *   sg_*  GLPK plumbing (solve_glpk.c): output capture, time limit and
 *         cancel through the branch-and-bound callback, warm start,
 *         reading bound and gap, writing LP/MPS files.
 *
 *   pk_*  the packing core that CATS optimal and CorrGPU optimal are both
 *         instances of (solve_pack.c, solve_bounds.c, solve_colgen.c):
 *         items (task copies) with a size, pairwise conflicts, bins of a few
 *         classes (capacity, a cost that depends on the bin's "leader"),
 *         and server types that make bins of each class available at a
 *         fixed cost.  CorrGPU eq. 3–7 is one class of cost 1 with
 *         conflicts; CATS eq. 6–14 is a class per (GPU model, memory) whose
 *         bin cost is P_gs + alpha * f of the most demanding task in it,
 *         and a server type per kind of node.
 *
 * Item order: items are kept sorted so that, in every class, the cost of a
 * bin led by item j is never below that of one led by a later item.  The
 * cost of a bin is then the cost of its lowest-numbered item — its leader —
 * which is what makes the representative formulation (solve_pack.c) linear
 * without frequency variables.
 */
#ifndef GP_SOLVE_INT_H
#define GP_SOLVE_INT_H

#include <glpk.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>

#include "solve.h"
#include "core/hashtab.h"

/* The solvers' two tolerances.  SOLVE_EPS compares sizes and costs the
 * solvers compute themselves (sums of GiB, watts).  SOLVE_LP_EPS reads
 * values that come out of GLPK's simplex (LP bounds, column values, which
 * hold to its 1e-7 feasibility tolerance): a bound within it of a whole
 * number of quanta rounds down, not up. */
#define SOLVE_EPS 1e-9
#define SOLVE_LP_EPS 1e-6

/* Whole quanta a bound v (from an LP) asks for: ceil(v / quantum), with
 * GLPK's rounding forgiven. */
static inline double solve_quanta(double v, double quantum)
{
    return ceil(v / quantum - SOLVE_LP_EPS);
}

/* The step every integer combination of costs cost[0..n) is a multiple
 * of (their exact greatest common divisor), for solutions summing to at
 * most max_units; 0 when they have none (solve_quantum.c). */
double solve_quantum(const double *cost, size_t n, double max_units);

/* ---- GLPK plumbing --------------------------------------------------- */

/* One solve's context: options, start time, captured output. */
/* The work clock of solve_opts.work_limit_s: a simplex iteration is one
 * unit, a branch-and-bound node SOLVE_WORK_ITERS_PER_NODE units, and a unit
 * SOLVE_WORK_S_PER_ITER nominal seconds (about this machine's rate on
 * GOGH's rounds, so that work and time limits mean similar things). */
#define SOLVE_WORK_S_PER_ITER 3e-4
#define SOLVE_WORK_ITERS_PER_NODE 50

typedef struct sg_ctx {
    const solve_opts *o;
    double t0;
    double work;            /* units done (work clock) */
    /* Wall clock (now_seconds) at which a work-limited stage of a
     * time-limited solve stops all the same; 0 = none.  Only then can the
     * stage's end depend on the load, as any time limit does. */
    double deadline;
    int in_lns;             /* 1 inside a neighbourhood of pk_lns: no nested search */
    /* A search beside branch and price's tree (solve_bnp.c) stops as on
     * the cancel flag once the tree sets this (NULL: nothing to watch). */
    const atomic_int *halt;
    /* 1: the simplex runs in slices of pivots under a time limit too, so
     * that which optimal vertex a master returns does not depend on the
     * load (the searches beside the tree, whose packings the tree takes
     * at fixed nodes) */
    int pivot_slices;
    char *log;
    size_t loglen, logcap;
} sg_ctx;

/* Starts capturing GLPK's terminal output into c->log (GLPK's hook is
 * per thread; it is the only global state the solvers touch). */
void sg_begin(sg_ctx *c, const solve_opts *o);
/* Stops capturing; hands the log to res when asked, else frees it. */
void sg_end(sg_ctx *c, solve_result *res);
/* In a thread of a solve's own: GLPK's hook (and its environment) are per
 * thread, so sg_attach puts c's hook on the calling thread, and sg_detach
 * takes it off and frees the thread's GLPK environment before it ends. */
void sg_attach(sg_ctx *c);
void sg_detach(void);
/* Adds text (NULL: nothing) to c's captured log, as GLPK's output is. */
void sg_log_append(sg_ctx *c, const char *text);
/* Seconds since the solve began: nominal ones under a work limit. */
double sg_elapsed(const sg_ctx *c);
/* Seconds left before the time (or work) limit (a large number when none). */
double sg_remaining(const sg_ctx *c);
/* Runs glp_simplex on P with GLPK's limits set from ours (and at most
 * sp->it_lim iterations in all) and counts its iterations on the work
 * clock; a slice of primal pivots that leaves the objective where it was
 * hands over to the dual simplex (sp->meth).  GLPK's return code. */
int sg_simplex(sg_ctx *c, glp_prob *P, glp_smcp *sp);
/* SOLVE_CANCELLED, SOLVE_TIMEOUT, or -1 when the solve may go on. */
int sg_should_stop(const sg_ctx *c);
/* The wall-clock time past which c must not run (its own time limit or a
 * deadline it inherited), 0 = none: what a work-limited stage started
 * from c sets as its deadline. */
double sg_deadline(const sg_ctx *c);
/* A stage of c on a work budget of its own, so that what it finds does
 * not depend on the load: *o becomes c's options with work_s nominal
 * seconds of work and no files to write, *sub a context with its own
 * clock, c's log and c's deadline.  The caller adds sub->work to c->work
 * when the stage is done. */
void sg_stage(const sg_ctx *c, double work_s, solve_opts *o, sg_ctx *sub);

/* One glp_intopt run: inputs, then what came out. */
typedef struct sg_mip {
    const double *start_x;  /* values of columns 1..n of a feasible solution, or NULL */
    double known_lb;        /* a valid lower bound from elsewhere (-HUGE_VAL: none) */
    double quantum;         /* every solution's objective is a multiple of it
                             * (0 = not known): bounds round up to one */
    int cuts;               /* let GLPK generate its cuts */
    /* out */
    int status;             /* SOLVE_* */
    int has_solution;
    double obj, bound, lp_obj;
    long nodes;
} sg_mip;

/* Solves the LP relaxation, then branch and bound, within the time left.
 * Minimisation only.  Solution values stay in P (glp_mip_col_val).
 * Returns -1 only on an internal GLPK failure. */
int sg_solve(sg_ctx *c, glp_prob *P, sg_mip *m, gp_err *err);
/* Writes P as the options ask (write_lp, write_mps); -1 on I/O failure. */
int sg_write(sg_ctx *c, glp_prob *P, gp_err *err);

/* Relative gap as GLPK computes it. */
double sg_gap(double obj, double bound);

/* ---- the packing core ----------------------------------------------- */

typedef struct pk_class {
    double cap;             /* memory of a bin (GiB) */
    double cap2;            /* second resource (utilization), <= 0 = unlimited */
    double *lead_cost;      /* [n] cost of a bin of this class led by item i;
                             * HUGE_VAL = item i may not use this class */
} pk_class;

typedef struct pk_stype {
    double cost;            /* static + other watts of an awake server */
    int count;              /* how many servers of this type exist */
    int *per_class;         /* [nclass] GPUs of each class it holds */
} pk_stype;

typedef struct pk_inst {
    int n;                  /* items */
    double *size;           /* [n] */
    double *size2;          /* [n] second resource, NULL = none */
    double *rank;           /* [n] order key: costs do not increase with it */
    int *task;              /* [n] the task item i is a copy of */
    int words;              /* 64-bit words per conflict row */
    uint64_t *conf;         /* [n * words] items that may not share a bin */
    int nclass;
    pk_class *cls;
    int ntype;              /* 0 = bins of every class are unlimited and free */
    pk_stype *type;
    /* Every bin costs exactly this and servers cost nothing (CorrGPU: 1;
     * CATS on one GPU class, one kappa, free servers: that GPU's watts), so
     * a cost is quantum x bins and bounds round up to a multiple of it;
     * 0 = costs differ. */
    double quantum;
} pk_inst;

/* A solution: which bin each item is in, each bin's class, active servers. */
typedef struct pk_sol {
    int nbins;
    int *bin_class;         /* [n] (at most n bins) */
    int *bin_of;            /* [n] */
    int *servers;           /* [ntype] */
    double cost;
} pk_sol;

/* Relative tolerance of "proven optimal" for real costs (watts): the
 * papers solved with PuLP at 1e-6 (CATS §2.2, CorrGPU §II). */
#define PK_REL_TOL 1e-6

/* 1 when lower bound lb proves a solution of cost ub optimal. */
int pk_closes(const pk_inst *p, double lb, double ub);
/* 1 when the search may stop: lb proves ub optimal, or within the relative
 * gap the options ask for (solve_opts.mip_gap, GLPK's measure). */
int pk_gap_met(const pk_inst *p, const sg_ctx *c, double lb, double ub);

void pk_inst_init(pk_inst *p, int n, int nclass, int ntype);
/* pk_inst_init for n items in p's classes, with p's capacities (and a
 * second size when p has one): what an instance derived from p (a node's,
 * a neighbourhood's) starts as, before its items are filled in. */
void pk_inst_init_like(pk_inst *q, const pk_inst *p, int n, int ntype);
void pk_inst_free(pk_inst *p);
static inline int pk_conflict(const pk_inst *p, int i, int k)
{
    return (int)((p->conf[(size_t)i * (size_t)p->words + (size_t)(k >> 6)] >> (k & 63)) & 1u);
}
void pk_set_conflict(pk_inst *p, int i, int k);
/* 1 when item i may be in a bin of class t at all. */
int pk_allowed(const pk_inst *p, int i, int t);

void pk_sol_init(pk_sol *s, const pk_inst *p);
void pk_sol_free(pk_sol *s);
void pk_sol_copy(pk_sol *dst, const pk_sol *src, const pk_inst *p);

/* Cost of s with the cheapest servers for its bins; HUGE_VAL when a bin
 * breaks a capacity, a conflict or a class, or no servers can host the
 * bins.  Fills s->servers and s->cost. */
double pk_eval(const pk_inst *p, pk_sol *s);
/* Cheapest server counts giving at least need[t] GPUs of each class
 * (HUGE_VAL when impossible); srv may be NULL. */
double pk_server_cost(const pk_inst *p, const int *need, int *srv);

/* solve_bounds.c — heuristics and combinatorial lower bounds. */
/* Best of several first-fit/best-fit orders and a bin-emptying local
 * search, within `seconds`; HUGE_VAL (and s untouched) when none fits. */
double pk_heuristic(const pk_inst *p, double seconds, pk_sol *s);
/* A lower bound on the optimal cost (memory, clique, leader-cost bounds). */
double pk_lower_bound(const pk_inst *p);
/* A large clique of the conflict graph (greedy from several starts);
 * writes its items to out (room for n) and returns its size. */
int pk_clique(const pk_inst *p, int *out);
/* The fewest bins any solution uses (memory L1/L2, clique, clique+memory). */
int pk_count_bound(const pk_inst *p);
/* Bins needed by items 0..m-1 at the least: memory over the largest
 * capacity, and the largest clique found among them. */
int pk_count_lb(const pk_inst *p, int m, const int *clique, int nclique);

/* solve_colgen.c — the node LP of branch and price: the set-cover master
 * over patterns (a class and a set of items that may share a bin) with
 * pricing by an exact knapsack-with-conflicts search.  slo/shi bound the
 * server counts (NULL: 0..count). */
/* The patterns met so far are kept as a set of their hashes (a hashtab
 * with no equality function): a pattern whose hash is there is not added
 * again.  pk_pattern_hash does not depend on the order of the items. */
uint64_t pk_pattern_hash(int t, const int *items, int k);
int pk_seen_add(hashtab *seen, int t, const int *items, int k);   /* 1 when new */

typedef struct cg cg;

/* Rows the master LP gets besides covering, over N_q = the number of bins
 * led by root items below q: every solution has at least min_bins bins and
 * N_q >= prefix_lo[q] (the bins items 0..q-1 need are all led by some of
 * them); branch and price adds N_q <= prefix_hi[q] and raises prefix_lo.
 * root_of[i] is the root index of the lowest root item in node item i. */
typedef struct cg_cuts {
    int min_bins;
    int n0;
    const int *prefix_lo;   /* [n0 + 1], NULL = none */
    const int *prefix_hi;   /* [n0 + 1], INT_MAX = none; NULL = none */
    const int *root_of;     /* [n], NULL = identity */
} cg_cuts;

cg *cg_new(const pk_inst *p, const int *slo, const int *shi, const cg_cuts *cuts);
void cg_free(cg *g);
/* Adds a pattern (class t, k items) as a column. */
void cg_add(cg *g, int t, const int *items, int k);
/* Generates columns until the LP is optimal, the bound reaches ub, or time
 * runs out.  *lb is a valid lower bound for this node in every case (Farley
 * or Lagrangian while iterating, the LP value when converged).  Returns 0,
 * 1 when stopped early (time, or pricing gave up), -1 when the LP failed
 * (GLPK erred, or twice called the master infeasible, which it never is). */
int cg_run(cg *g, sg_ctx *c, double ub, double *lb, int *converged);
/* Rounds g's current master LP into packings; returns the best packing's
 * cost known afterwards.  cg_run calls it every CG_PRIMAL_EVERY master
 * solves when a gap is asked (solve_opts.mip_gap), and measures the gap
 * from the larger of its own bound and known_lb (the node's bound from
 * before, valid for it), so that the gap can be met while the LP is still
 * being priced.  fn NULL: neither (known_lb is then ignored). */
typedef double (*cg_primal_fn)(void *ctx, cg *g);
#define CG_PRIMAL_EVERY 8
void cg_set_primal(cg *g, cg_primal_fn fn, void *ctx, double known_lb);
int cg_ncols(const cg *g);
const int *cg_col(const cg *g, int col, int *cls, int *len);
double cg_value(const cg *g, int col);          /* lambda of a pattern */
double cg_servers(const cg *g, int k);          /* s_k */
int cg_uses_artificial(const cg *g);
glp_prob *cg_master(cg *g);
int cg_col_glp(const cg *g, int col);
/* The master of a child that differs from parent's node only by the bound
 * N_q <= bound (up) or N_q >= bound: the parent's basic columns and those
 * of least reduced cost with its optimal basis, so the child's first LP is
 * dual simplex pivots from there instead of a solve from scratch.  p is
 * the child's instance (the same items as the parent's); the caller frees
 * the result with cg_free. */
cg *cg_branch_prefix(cg *parent, const pk_inst *p, int q, int bound, int up);
/* Solves the master over the columns it has, without pricing: *z, its
 * value, is at least the LP's (pricing only lowers it) and estimates it
 * from above; no bound.  With max_iters > 0 and a basis that was dual
 * feasible (a fresh cg_branch_prefix), at most that many dual simplex
 * pivots: *z is then where the dual simplex got to, below the master's
 * value, and cg_run goes on from there.  Returns as cg_run. */
int cg_resolve(cg *g, sg_ctx *c, int max_iters, double *z);
/* Adds up to max_new subset-row cuts over three items that the master's
 * current LP solution violates by min_viol or more (see solve_colgen.c);
 * returns how many.  A child made by cg_branch_prefix keeps those of its
 * parent's that bind at the parent's optimum. */
int cg_separate(cg *g, int max_new, double min_viol);
int cg_ncuts(const cg *g);
const int *cg_cut(const cg *g, int s);          /* cut s's three items */
/* Frees the cut rows in copy, a copy of g's master (the integer master:
 * its packings may cover an item twice). */
void cg_relax_cuts(const cg *g, glp_prob *copy);
/* Points g at another copy of the instance it was built for (same items). */
void cg_rebind(cg *g, const pk_inst *p);

/* solve_bnp.c — branch and price over the packing core: Ryan–Foster
 * branching on pairs of items (together / apart), then on server counts and
 * item classes; a rounding heuristic at every node and the integer master
 * at the root.  Improves *best; returns the proven lower bound (HUGE_VAL
 * when the search proved infeasibility) and sets *complete when the tree
 * was exhausted (then the bound equals the best cost); *root_lb is the
 * root's column-generation bound. */
double pk_bnp(const pk_inst *p, sg_ctx *c, pk_sol *best, long *nodes, int *complete,
              double *root_lb);

/* solve_lns.c — repacks the items of a few bins of *best at a time
 * exactly (a small branch and price each, every other bin held) and keeps
 * what makes the whole packing cheaper, until *best meets lb or work_s
 * nominal seconds of work (sg_ctx.work) are spent.  Never worsens *best.
 * guide, when not NULL, is a master LP over p's own items (the root's):
 * its fractional columns name bins worth repacking together. */
void pk_lns(const pk_inst *p, sg_ctx *c, pk_sol *best, double lb, double work_s,
            const cg *guide);

/* solve_bounds.c: completes a partial solution (bin_of < 0 = unplaced) by
 * first fit and the bin-emptying search; returns its cost or HUGE_VAL. */
double pk_complete(const pk_inst *p, pk_sol *s);
/* The same from nothing placed: every item of p by first fit into s. */
double pk_first_fit(const pk_inst *p, pk_sol *s);

/* solve_pack_ls.c — for one class of unlimited bins (CorrGPU): a search
 * over partial packings that empties a bin of s at a time, until s has
 * target bins, work_s nominal seconds (sg_elapsed) pass, max_steps moves
 * are made (more while it keeps removing bins: LS_PROGRESS_FACTOR) or the
 * solve must stop.  s is replaced only by packings pk_eval accepts;
 * returns how many bins it removed. */
int pk_fewer_bins(const pk_inst *p, sg_ctx *c, pk_sol *s, int target, double work_s,
                  long max_steps, uint64_t seed);

/* solve_why.c — once a solve proved the instance infeasible: the first
 * task that fits nowhere and why, else that the tasks clash together
 * (res->why, res->why_task); the bound and gap are cleared. */
void cats_why(const cats_inst *in, solve_result *res);
void corrgpu_why(const corrgpu_inst *in, solve_result *res);
void gogh_why(const gogh_inst *in, solve_result *res);

/* solve_pack.c — the whole pipeline: heuristics, bounds, column
 * generation, the representative MILP; fills res (status, objective,
 * bound, gap, method, sizes) and *sol (the best solution). */
int pk_solve(const pk_inst *p, const pk_sol *start, sg_ctx *c, solve_result *res,
             pk_sol *sol, gp_err *err);

/* ---- reached only by the tests (and the benchmarks) ---- */

void gogh_inst_random(gogh_inst *in, size_t n, struct rng *r);

#endif
