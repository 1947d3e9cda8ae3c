/*
 * util_series_grid.c — GPU aggregates on an absolute time grid, kept as
 * tasks join and leave (util_series_grid.h).  State only in the caller's
 * useries_grid and useries_in.
 */
#include "util_series_grid.h"
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* What one running task adds to a GPU: cells [from, end) of the grid,
 * sampled from its anchor. */
typedef struct grid_member {
    int task;
    int64_t from, end;          /* absolute grid indices */
    double anchor;              /* seconds: where its progress 0 lies */
} grid_member;

/* One GPU's aggregate: cells [base, base + len) with their prefix sums
 * (pre[i] = sum of cells[0 .. i)), and the members that made it. */
typedef struct grid_gpu {
    grid_member *members;
    int nmembers, members_cap;
    int64_t base;
    size_t len, cap;
    int64_t *cells;             /* [cap] */
    int64_t *pre;               /* [cap + 1] */
} grid_gpu;

/* A member's end, for anchoring again the tasks that outlive it. */
typedef struct grid_end {
    int64_t end;
    int gpu, task;
} grid_end;

struct useries_grid_in {
    size_t n;                   /* samples */
    int constant;               /* no series: every sample c, rho 0 */
    int64_t c;
    int64_t *y;                 /* [n], unless constant */
    int64_t *sy, *syy;          /* prefix sums [n + 1], unless constant */
    size_t cap;                 /* of y (sy, syy: cap + 1) */
};

/* The sum of the incoming task's first n samples. */
static int64_t in_sum(const useries_grid_in *y, size_t n)
{
    return y->constant ? (int64_t)n * y->c : y->sy[n];
}

struct useries_grid {
    const gp_trace *tr;
    double step;
    grid_gpu *gpus;
    size_t ngpus;
    double *anchor;             /* [task]: first anchor seen, NAN = none */
    grid_end *heap;             /* min-heap by end */
    size_t nheap, heap_cap;
    int synced;                 /* a state was seen: */
    uint64_t state_id, nchanges;
    double now;
    int64_t start;              /* the cell holding now */
    /* The incoming side of the current decision, its arrays kept from one
     * decision to the next (a long task's would otherwise be mapped and
     * unmapped at each). */
    useries_grid_in in;
};

/* ---- the step ------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double useries_grid_step(const gp_trace *tr)
{
    double *p = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *p);
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++)
        if (useries_has_series(&tr->tasks[i]) && tr->tasks[i].util.period_s > 0)
            p[n++] = tr->tasks[i].util.period_s;
    double step = USERIES_NOMINAL_PERIOD_S;
    if (n) {
        qsort(p, n, sizeof *p, cmp_double);
        step = p[(n - 1) / 2];
    }
    free(p);
    return step;
}

/* ---- sampling --------------------------------------------------------------- */

/* Task tk's demand at progress x seconds, in grid units. */
static int64_t sample_at(const task *tk, double x)
{
    long idx = 0;
    if (useries_has_series(tk) && x > 0) {
        double i = floor(x / (tk->util.period_s > 0 ? tk->util.period_s : 1.0));
        idx = i > 0 ? (long)i : 0;
    }
    return llround(useries_pct_idx(tk, idx) * USERIES_GRID_SCALE);
}

/* The grid cell holding time t: cell c covers [c step, (c + 1) step). */
static int64_t cell_of(double step, double t)
{
    return (int64_t)floor(t / step);
}

/* The first cell after those a span ending at t overlaps. */
static int64_t cell_end(double step, double t)
{
    return (int64_t)ceil(t / step);
}

/* ---- one GPU -------------------------------------------------------------- */

useries_grid *useries_grid_new(const gp_trace *tr, double step_s)
{
    assert(step_s > 0);
    useries_grid *g = xcalloc(1, sizeof *g);
    g->tr = tr;
    g->step = step_s;
    g->anchor = xmalloc((tr->ntasks ? tr->ntasks : 1) * sizeof *g->anchor);
    for (size_t i = 0; i < tr->ntasks; i++)
        g->anchor[i] = NAN;
    return g;
}

void useries_grid_free(useries_grid *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->ngpus; i++) {
        free(g->gpus[i].members);
        free(g->gpus[i].cells);
        free(g->gpus[i].pre);
    }
    free(g->gpus);
    free(g->anchor);
    free(g->heap);
    free(g->in.y);
    free(g->in.sy);
    free(g->in.syy);
    free(g);
}

static grid_gpu *gpu_of(useries_grid *g, size_t gi)
{
    if (gi >= g->ngpus) {
        size_t n = g->ngpus ? g->ngpus : 64;
        while (n <= gi)
            n *= 2;
        g->gpus = xrealloc(g->gpus, n * sizeof *g->gpus);
        memset(g->gpus + g->ngpus, 0, (n - g->ngpus) * sizeof *g->gpus);
        g->ngpus = n;
    }
    return &g->gpus[gi];
}

/* Drops the cells before grid index `start`: no comparison reads them
 * again (time only moves on; a rewind starts over).  Only once they are
 * half of what is held, so that the move costs O(1) a cell. */
static void gpu_drop_past(grid_gpu *gg, int64_t start)
{
    if (gg->len == 0) {
        gg->base = start;
        return;
    }
    if (start <= gg->base)
        return;
    size_t drop = (size_t)(start - gg->base);
    if (drop < gg->len && drop < gg->len / 2 + 64)
        return;
    if (drop >= gg->len) {
        gg->len = 0;
        gg->base = start;
        gg->pre[0] = 0;
        return;
    }
    memmove(gg->cells, gg->cells + drop, (gg->len - drop) * sizeof *gg->cells);
    memmove(gg->pre, gg->pre + drop, (gg->len - drop + 1) * sizeof *gg->pre);
    gg->len -= drop;
    gg->base = start;
}

/* Makes room for cells up to absolute index end (exclusive), zeroed. */
static void gpu_extend(grid_gpu *gg, int64_t end)
{
    if (end <= gg->base + (int64_t)gg->len)
        return;
    size_t len = (size_t)(end - gg->base);
    if (len > gg->cap) {
        size_t cap = gg->cap ? 2 * gg->cap : 64;
        while (cap < len)
            cap *= 2;
        gg->cells = xrealloc(gg->cells, cap * sizeof *gg->cells);
        gg->pre = xrealloc(gg->pre, (cap + 1) * sizeof *gg->pre);
        gg->cap = cap;
    }
    if (gg->len == 0)
        gg->pre[0] = 0;
    for (size_t i = gg->len; i < len; i++) {
        gg->cells[i] = 0;
        gg->pre[i + 1] = gg->pre[i];
    }
    gg->len = len;
}

/* Adds (sign 1) or subtracts (-1) member m's cells from `from` on;
 * returns the lowest index changed, relative to base (len: none). */
static size_t gpu_apply(grid_gpu *gg, const task *tk, const grid_member *m, double step,
                        int sign)
{
    int64_t lo = m->from > gg->base ? m->from : gg->base;
    int64_t hi = m->end < gg->base + (int64_t)gg->len ? m->end : gg->base + (int64_t)gg->len;
    if (lo >= hi)
        return gg->len;
    int64_t *cell = gg->cells - gg->base;
    if (!useries_has_series(tk)) {
        int64_t v = sign * sample_at(tk, 0);
        for (int64_t c = lo; c < hi; c++)
            cell[c] += v;
    } else {
        for (int64_t c = lo; c < hi; c++) {
            /* The sample at the cell's start; the task's first in the
             * cell it starts in. */
            int64_t v = sample_at(tk, (double)c * step - m->anchor);
            cell[c] += sign > 0 ? v : -v;
        }
    }
    return (size_t)(lo - gg->base);
}

/* Recomputes the prefix sums from relative index i on. */
static void gpu_prefix_from(grid_gpu *gg, size_t i)
{
    for (; i < gg->len; i++)
        gg->pre[i + 1] = gg->pre[i] + gg->cells[i];
}

/* The aggregate ends where its last member does: cells past it are 0. */
static void gpu_trim(grid_gpu *gg)
{
    int64_t end = gg->base;
    for (int i = 0; i < gg->nmembers; i++)
        if (gg->members[i].end > end)
            end = gg->members[i].end;
    if (end < gg->base + (int64_t)gg->len)
        gg->len = (size_t)(end - gg->base);
}

static void heap_push(useries_grid *g, grid_end e)
{
    if (g->nheap == g->heap_cap) {
        g->heap_cap = g->heap_cap ? 2 * g->heap_cap : 256;
        g->heap = xrealloc(g->heap, g->heap_cap * sizeof *g->heap);
    }
    size_t i = g->nheap++;
    while (i > 0 && g->heap[(i - 1) / 2].end > e.end) {
        g->heap[i] = g->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    g->heap[i] = e;
}

static grid_end heap_pop(useries_grid *g)
{
    grid_end top = g->heap[0], last = g->heap[--g->nheap];
    size_t i = 0, n = g->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && g->heap[c + 1].end < g->heap[c].end)
            c++;
        if (g->heap[c].end >= last.end)
            break;
        g->heap[i] = g->heap[c];
        i = c;
    }
    if (n)
        g->heap[i] = last;
    return top;
}

/* Adds task l to GPU gi anchored at `anchor`. */
static void gpu_join(useries_grid *g, int gi, int l, double anchor)
{
    grid_gpu *gg = gpu_of(g, (size_t)gi);
    const task *tk = &g->tr->tasks[l];
    grid_member m = {.task = l, .anchor = anchor};
    m.from = cell_of(g->step, anchor);
    if (m.from < g->start)
        m.from = g->start;
    m.end = cell_end(g->step, anchor + tk->duration_s);
    if (m.end - m.from > (int64_t)USERIES_GRID_MAX_CELLS)
        m.end = m.from + (int64_t)USERIES_GRID_MAX_CELLS;
    if (m.end < m.from)
        m.end = m.from;
    if (gg->nmembers == gg->members_cap) {
        gg->members_cap = gg->members_cap ? 2 * gg->members_cap : 4;
        gg->members = xrealloc(gg->members, (size_t)gg->members_cap * sizeof *gg->members);
    }
    gg->members[gg->nmembers++] = m;
    gpu_extend(gg, m.end);
    gpu_prefix_from(gg, gpu_apply(gg, tk, &m, g->step, 1));
    if (m.end > m.from)
        heap_push(g, (grid_end){m.end, gi, l});
}

/* Subtracts member k of GPU gi. */
static void gpu_leave(useries_grid *g, int gi, int k)
{
    grid_gpu *gg = &g->gpus[gi];
    grid_member m = gg->members[k];
    gg->members[k] = gg->members[--gg->nmembers];
    size_t from = gpu_apply(gg, &g->tr->tasks[m.task], &m, g->step, -1);
    gpu_trim(gg);
    gpu_prefix_from(gg, from);
    /* Should it run again (requeued after a failure), it starts anew. */
    g->anchor[m.task] = NAN;
}

static int has_task(const int *tasks, int n, int l)
{
    for (int i = 0; i < n; i++)
        if (tasks[i] == l)
            return 1;
    return 0;
}

/* Makes GPU gi's members the tasks cs runs there. */
static void gpu_sync(useries_grid *g, const cstate *cs, const double *progress, int gi)
{
    const cs_gpu *gpu = &cs->gpus[gi];
    if ((size_t)gi >= g->ngpus && gpu->ntasks == 0)
        return;
    grid_gpu *gg = gpu_of(g, (size_t)gi);
    gpu_drop_past(gg, g->start);
    for (int k = gg->nmembers - 1; k >= 0; k--)
        if (!has_task(gpu->tasks, gpu->ntasks, gg->members[k].task))
            gpu_leave(g, gi, k);
    for (int i = 0; i < gpu->ntasks; i++) {
        int l = gpu->tasks[i], known = 0;
        for (int k = 0; k < gg->nmembers && !known; k++)
            known = gg->members[k].task == l;
        if (known)
            continue;
        if (isnan(g->anchor[l]))
            g->anchor[l] = g->now - (progress ? progress[l] : 0);
        gpu_join(g, gi, l, g->anchor[l]);
    }
}

/* Starts over: every aggregate emptied, the anchors of tasks no longer
 * running forgotten (a rewound run starts them again). */
static void grid_reset(useries_grid *g, const cstate *cs)
{
    for (size_t i = 0; i < g->ngpus; i++) {
        g->gpus[i].nmembers = 0;
        g->gpus[i].len = 0;
    }
    g->nheap = 0;
    char *running = xcalloc(g->tr->ntasks ? g->tr->ntasks : 1, 1);
    for (size_t a = 0; a < cs->nactive; a++) {
        const cs_gpu *gpu = &cs->gpus[cs->active[a]];
        for (int i = 0; i < gpu->ntasks; i++)
            running[gpu->tasks[i]] = 1;
    }
    for (size_t l = 0; l < g->tr->ntasks; l++)
        if (!running[l] || g->anchor[l] > g->now)
            g->anchor[l] = NAN;
    free(running);
}

/* Anchors again, from its progress now, every running task whose
 * contribution ended before the window starts. */
static void reanchor_overruns(useries_grid *g, const cstate *cs, const double *progress)
{
    while (g->nheap && g->heap[0].end <= g->start) {
        grid_end e = heap_pop(g);
        grid_gpu *gg = &g->gpus[e.gpu];
        int k = 0;
        while (k < gg->nmembers && !(gg->members[k].task == e.task && gg->members[k].end == e.end))
            k++;
        if (k == gg->nmembers || !has_task(cs->gpus[e.gpu].tasks, cs->gpus[e.gpu].ntasks, e.task))
            continue;               /* it left (and maybe came back) */
        double anchor = g->now - (progress ? progress[e.task] : 0);
        if (cell_end(g->step, anchor + g->tr->tasks[e.task].duration_s) <= g->start)
            continue;               /* no time left: it completes now */
        gpu_leave(g, e.gpu, k);
        g->anchor[e.task] = anchor;
        gpu_join(g, e.gpu, e.task, anchor);
    }
}

void useries_grid_sync(useries_grid *g, const cstate *cs, const double *progress, double now_s)
{
    int back = g->synced && now_s < g->now;
    int other = !g->synced || cs->id != g->state_id || cs->nchanges < g->nchanges ||
                cs->nchanges - g->nchanges > CS_CHANGES_RING;
    g->now = now_s;
    g->start = cell_of(g->step, now_s);
    if (back)
        grid_reset(g, cs);
    if (back || other) {
        for (size_t i = 0; i < g->ngpus && i < cs->ngpus; i++)
            if (g->gpus[i].nmembers)
                gpu_sync(g, cs, progress, (int)i);
        for (size_t a = 0; a < cs->nactive; a++)
            gpu_sync(g, cs, progress, cs->active[a]);
    } else {
        for (uint64_t c = g->nchanges; c < cs->nchanges; c++) {
            const cs_node *n = &cs->nodes[cs->changed[c % CS_CHANGES_RING]];
            for (int d = 0; d < n->ngpus; d++)
                gpu_sync(g, cs, progress, n->gpu0 + d);
        }
    }
    reanchor_overruns(g, cs, progress);
    g->synced = 1;
    g->state_id = cs->id;
    g->nchanges = cs->nchanges;
}

const int64_t *useries_grid_cells(const useries_grid *g, int gpu, int64_t *base, size_t *len)
{
    if ((size_t)gpu >= g->ngpus) {
        *base = 0;
        *len = 0;
        return NULL;
    }
    *base = g->gpus[gpu].base;
    *len = g->gpus[gpu].len;
    return g->gpus[gpu].cells;
}

/* ---- the incoming side and the comparison --------------------------------- */

void useries_grid_in_attach(useries_in *in, useries_grid *g, const gp_trace *tr, int ti)
{
    const task *tk = &tr->tasks[ti];
    useries_grid_in *gi = &g->in;
    /* Its samples as they would lie on the grid were it placed now: the
     * cell holding now carries its first sample. */
    double off = (double)g->start * g->step - g->now;
    double rem = tk->duration_s - off;
    double n = rem > 0 ? ceil(rem / g->step) : 1;
    gi->n = n < 1 ? 1 : n > USERIES_GRID_MAX_CELLS ? USERIES_GRID_MAX_CELLS : (size_t)n;
    gi->constant = !useries_has_series(tk);
    gi->c = gi->constant ? sample_at(tk, 0) : 0;
    if (!gi->constant) {
        if (gi->n > gi->cap) {
            gi->cap = gi->n > 2 * gi->cap ? gi->n : 2 * gi->cap;
            gi->y = xrealloc(gi->y, gi->cap * sizeof *gi->y);
            gi->sy = xrealloc(gi->sy, (gi->cap + 1) * sizeof *gi->sy);
            gi->syy = xrealloc(gi->syy, (gi->cap + 1) * sizeof *gi->syy);
        }
        gi->sy[0] = gi->syy[0] = 0;
        for (size_t k = 0; k < gi->n; k++) {
            gi->y[k] = sample_at(tk, off + (double)k * g->step);
            gi->sy[k + 1] = gi->sy[k] + gi->y[k];
            gi->syy[k + 1] = gi->syy[k] + gi->y[k] * gi->y[k];
        }
    }
    in->grid = g;
    in->gin = gi;
}

/* Pearson's rho from exact integer sums over n samples; 0 when either
 * side is constant (SPEC §5.1) or n < 2. */
static double rho_of(__int128 n, __int128 sx, __int128 sy, __int128 sxx, __int128 syy,
                     __int128 sxy)
{
    if (n < 2)
        return 0;
    __int128 cov = n * sxy - sx * sy;
    __int128 vx = n * sxx - sx * sx;
    __int128 vy = n * syy - sy * sy;
    if (vx <= 0 || vy <= 0)
        return 0;
    double r = (double)cov / (sqrt((double)vx) * sqrt((double)vy));
    return r > 1 ? 1 : r < -1 ? -1 : r;
}

void useries_grid_compare(const useries_grid *g, const useries_in *in, int gi, double rho_over,
                          int *skipped, useries_cmp *out)
{
    const useries_grid_in *y = in->gin;
    *skipped = 0;
    memset(out, 0, sizeof *out);
    const grid_gpu *gg = (size_t)gi < g->ngpus ? &g->gpus[gi] : NULL;
    int64_t ahead = gg && gg->nmembers ? gg->base + (int64_t)gg->len - g->start : 0;
    if (ahead <= 0) {
        out->task_mean = (double)in_sum(y, y->n) / ((double)y->n * USERIES_GRID_SCALE);
        return;
    }
    assert(gg->base <= g->start);
    size_t i0 = (size_t)(g->start - gg->base);
    size_t n = (size_t)ahead < y->n ? (size_t)ahead : y->n;
    int64_t sx = gg->pre[i0 + n] - gg->pre[i0];
    out->n = n;
    out->gpu_mean = (double)sx / ((double)n * USERIES_GRID_SCALE);
    out->task_mean = (double)in_sum(y, n) / ((double)n * USERIES_GRID_SCALE);
    if (y->constant)
        return;
    if (out->gpu_mean + out->task_mean > rho_over) {
        *skipped = 1;
        return;
    }
    /* Blocks of 4096 samples in 64 bits (a sample is below 2^31), each
     * block's sums then in 128. */
    const int64_t *x = gg->cells + i0;
    __int128 sxx = 0, sxy = 0;
    for (size_t k0 = 0; k0 < n; k0 += 4096) {
        size_t k1 = n - k0 < 4096 ? n : k0 + 4096;
        int64_t bxx = 0, bxy = 0;
        for (size_t k = k0; k < k1; k++) {
            bxx += x[k] * x[k];
            bxy += x[k] * y->y[k];
        }
        sxx += bxx;
        sxy += bxy;
    }
    out->rho = rho_of((__int128)n, sx, y->sy[n], sxx, y->syy[n], sxy);
}
