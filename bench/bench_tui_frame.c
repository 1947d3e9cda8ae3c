/*
 * bench_tui_frame.c — SPEC §9: one TUI frame on a 10,000-GPU cluster must
 * draw in < 16 ms.  Draws the real screens (ui/scr_cluster.c,
 * ui/scr_compare.c) into a curses screen made with newterm() on /dev/null
 * at 200×60, many times, and reports ms per frame (mean and p95):
 *
 *   cluster/<view>    the Cluster heatmap of 1,250 servers × 8 V100 (about
 *                     60 % of the GPUs busy with 1–3 PAI-like tasks each,
 *                     some asleep), in each of its five views, the cursor
 *                     moving every frame so the screen really changes;
 *   cluster/scroll    the same, scrolling a page every frame;
 *   cluster/repaint   every frame a full repaint (clearok), the worst case
 *                     of a terminal that lost its contents;
 *   compare           the Compare screen with six runs side by side, each
 *                     with a 2,000-sample timeline and 5,000 finished tasks
 *                     (charts, legend and the live run table);
 *   compare/energy    the same with an energy price, carbon and PUE set:
 *                     each row's $energy and CO2e priced every frame.
 *
 * "Draw" is everything between a key and the bytes reaching the terminal:
 * erase, the screen's draw function from state, and doupdate().  Before
 * each frame the screen's tick runs, untimed, as in the main loop: it
 * keeps what drawing only reads (Compare's run summaries) up to date.  Not
 * a test: it prints numbers and the target, and always exits 0 unless the
 * terminal cannot be set up.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cstate.h"
#include "core/rng.h"
#include "samples/samplegen.h"
#include "samples/samplegen_int.h"
#include "core/util.h"
#include "ui/app.h"
#include "ui/draw.h"

#define ROWS 60
#define COLS 200
#define TARGET_MS 16.0

/* A busy 10,000-GPU cluster as an open snapshot of the Cluster screen. */
static void build_cluster(app *a)
{
    sample_set set;
    samplegen_pai_like(16000, 11, &set);
    gp_trace *tr = set.tr;
    set.tr = NULL;
    sample_set_free(&set);
    catalog *cat = catalog_new();
    catalog_add_builtin(cat);
    cluster *cl = cluster_new("big");
    for (int i = 0; i < 1250; i++) {
        node n;
        memset(&n, 0, sizeof n);
        snprintf(n.name, sizeof n.name, "s%04d", i);
        strcpy(n.gpu_model, "V100");
        n.gpu_count = 8;
        n.cpu_milli = 64000;
        n.ram_mib = 1 << 20;
        cluster_add_node(cl, &n);
    }
    gp_err err = {{0}};
    cstate *cs = cstate_new(cl, cat, &err);
    if (!cs) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    rng r;
    rng_seed(&r, 3);
    size_t ti = 0;
    for (size_t g = 0; g < cs->ngpus && ti + 3 < tr->ntasks; g++) {
        double u = rng_uniform(&r);
        cs->gpus[g].power = u < 0.3 ? GPU_ASLEEP : GPU_IDLE;
        if (u >= 0.6)
            continue;
        int k = 1 + (int)rng_below(&r, 3);
        for (int j = 0; j < k; j++, ti++) {
            task *tk = &tr->tasks[ti];
            tk->num_gpu = 1;
            if (cs_gpu_mem_free(&cs->gpus[g]) < tk->gpu_mem_gib)
                continue;
            int gi = (int)g;
            cstate_alloc(cs, tk, (int)ti, cs->gpus[g].node, &gi, 1);
        }
        cs->gpus[g].power = GPU_ACTIVE;
        cs->gpus[g].freq_mhz = 135 + 15 * (double)rng_below(&r, 82);
    }
    snapshot *sn = snapshot_new("bench");
    sn->tasks = tr;
    snprintf(sn->cluster_name, sizeof sn->cluster_name, "big");
    a->cl.snap = sn;
    a->cl.snap_cl = cl;
    a->cl.snap_cat = cat;
    a->cl.snap_cs = cs;
    a->cl.from_snapshot = 1;
    snprintf(a->cl.snap_name, sizeof a->cl.snap_name, "bench");
}

/* Six saved-run records with long timelines, as Compare shows them. */
static void build_runs(app *a)
{
    runset *rs = &a->rs;
    static const char *const names[6] = {"cats", "corrgpu", "first", "hotcloud", "harmony",
                                         "fgd"};
    rng r;
    rng_seed(&r, 5);
    for (int i = 0; i < 6; i++) {
        run *rec = run_new(names[i]);
        for (int k = 0; k < 2000; k++) {
            run_point p;
            memset(&p, 0, sizeof p);
            p.t_s = k * 30.0;
            p.active_gpus = 4000 + 3000 * sin(k / 90.0 + i) + 500 * rng_uniform(&r);
            p.power_w = p.active_gpus * (150 + 10 * i);
            p.frag = 1e5 * rng_uniform(&r);
            p.queued = 50 * rng_uniform(&r);
            run_add_point(rec, &p);
        }
        for (int k = 0; k < 5000; k++) {
            run_outcome o;
            memset(&o, 0, sizeof o);
            o.task = k;
            o.end_s = k * 12.0;
            o.jct_s = 100 + 900 * rng_uniform(&r);
            o.sla_violated = rng_uniform(&r) < 0.05;
            run_add_outcome(rec, &o);
        }
        rs->slot[i].saved = rec;
        snprintf(rs->slot[i].spec.label, sizeof rs->slot[i].spec.label, "%s", names[i]);
    }
    rs->n = 6;
    rs->t = rs->t_end_hint = 2000 * 30.0;
    snprintf(rs->trace_name, sizeof rs->trace_name, "synthetic");
    snprintf(rs->cluster_name, sizeof rs->cluster_name, "big");
    a->cmp.mode = CMP_RUN;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

typedef void (*frame_fn)(app *a, int i);

/* The selection moves as a key moves it: cluster_select_gpu() also
 * scrolls the heatmap from the lines on screen (drawing stores nothing). */
static void move_cursor(app *a, int i)
{
    cluster_select_gpu(a, (i * 37) % 10000);
}

static void scroll_page(app *a, int i)
{
    cluster_select_gpu(a, (i * 8 * 16 * 50) % 10000);
}

static void repaint(app *a, int i)
{
    move_cursor(a, i);
    clearok(curscr, TRUE);
}

static void advance_time(app *a, int i)
{
    a->rs.t = 30000 + 15 * i;
}

/* Non-blank cells on the screen after a frame: the proof that the frame
 * really drew the heatmap and not an error message. */
static int cells_drawn(void)
{
    int n = 0;
    for (int y = 0; y < ROWS; y++)
        for (int x = 0; x < COLS; x++) {
            cchar_t cc;
            wchar_t wc[CCHARW_MAX + 1];
            attr_t at;
            short pair;
            if (mvin_wch(y, x, &cc) == OK && getcchar(&cc, wc, &at, &pair, NULL) == OK &&
                wc[0] != L' ' && wc[0] != 0)
                n++;
        }
    return n;
}

static void bench(app *a, const char *name, frame_fn before, int frames)
{
    double *ms = xmalloc((size_t)frames * sizeof *ms);
    const ui_screen *s = ui_screen_of(a->scr);
    for (int i = 0; i < frames; i++) {
        before(a, i);
        if (s->tick)
            s->tick(a, 0);
        double t0 = now_seconds();
        erase();
        draw_tabs(a);
        s->draw(a);
        refresh();
        ms[i] = (now_seconds() - t0) * 1e3;
    }
    qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
    double sum = 0;
    for (int i = 0; i < frames; i++)
        sum += ms[i];
    double mean = sum / frames, p95 = ms[(int)(0.95 * (frames - 1))];
    printf("tui_frame %-18s %dx%d: %6.2f ms/frame (p95 %6.2f, min %6.2f; %5d cells drawn) "
           "target %.0f ms: %s\n", name, COLS, ROWS, mean, p95, ms[0], cells_drawn(), TARGET_MS,
           p95 < TARGET_MS ? "met" : "MISSED");
    free(ms);
}

int main(void)
{
    setlocale(LC_ALL, "C.UTF-8");
    setenv("TERM", "xterm-256color", 0);
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = out && in ? newterm(NULL, out, in) : NULL;
    if (!scr) {
        fprintf(stderr, "bench_tui_frame: cannot set up a curses screen (TERM=%s)\n",
                getenv("TERM"));
        return 1;
    }
    resizeterm(ROWS, COLS);
    app *a = xcalloc(1, sizeof *a);
    runset_init(&a->rs);
    a->rows = ROWS;
    a->cols = COLS;
    draw_init(&a->caps);
    build_cluster(a);
    build_runs(a);

    static const char *const views[HEAT_NVIEWS] = {"alloc", "util", "power", "freq", "mem"};
    a->scr = SCR_CLUSTER;
    for (int v = 0; v < HEAT_NVIEWS; v++) {
        char name[32];
        a->cl.view = (heat_view)v;
        snprintf(name, sizeof name, "cluster/%s", views[v]);
        bench(a, name, move_cursor, 300);
    }
    a->cl.view = HEAT_UTIL;
    bench(a, "cluster/scroll", scroll_page, 300);
    bench(a, "cluster/repaint", repaint, 100);
    a->scr = SCR_COMPARE;
    bench(a, "compare/6 runs", advance_time, 100);
    /* the same with an energy price and carbon: each row priced hour by
     * hour from its timeline every frame (cmp_energy.h) */
    gp_err err;
    cmp_energy_init(&a->cmp.energy);
    if (cmp_energy_set(&a->cmp.energy, CMP_ENERGY_PRICE, "0.125", &err) ||
        cmp_energy_set(&a->cmp.energy, CMP_ENERGY_CARBON, "400", &err) ||
        cmp_energy_set(&a->cmp.energy, CMP_ENERGY_PUE, "1.3", &err))
        fprintf(stderr, "bench: %s\n", err.msg);
    bench(a, "compare/energy", advance_time, 100);
    cmp_energy_free(&a->cmp.energy);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    runset_clear(&a->rs);
    cluster_free_snapshot(&a->cl);
    free(a);
    return 0;
}
