/*
 * sim_tput.c — how fast a task progresses on one GPU, given what the GPU
 * is (SPEC §3.3 extended to heterogeneous GPUs).
 *
 * A task's progress is counted in standalone seconds on the reference: its
 * duration_s.  With a throughput table attached (sim_config.tput) a task
 * whose model and batch size form a job type of the table does its work in
 * iterations — duration_s times its reference throughput, the table's V100
 * figure (its highest elsewhere when the table has no V100 entry) — and on
 * a GPU whose profile names an accelerator class of the table it advances
 *   alone           at its measured throughput there,
 *   next to one     at its measured pair throughput there (Gavel's
 *   typed task      co-location table; the lower trace index is the pair's
 *                   first job, so each gets its own half),
 *   otherwise       at its solo throughput shared by demand, min(1, 1/U),
 * all relative to the reference throughput.  Every other task advances by
 * Amdahl's law (core/speed.h): its GPU is s = speed(GPU) / speed(reference)
 * times as fast as the one its trace was measured on, so it progresses at
 * 1 / (u / s + 1 - u) reference seconds a second, u its GPU fraction, and
 * demands its samples scaled to p / (s k) (sim_events.c's load_sample),
 * shared by demand.  The reference is named, never the cluster's own GPUs:
 * sim_config.ref_speed, else the profile sim_config.ref_gpu, else the
 * trace's ref_gpu, else a V100.  A GPU's clock factor (CATS eq. 5)
 * multiplies every case; a GPU PEACE holds uses its own rates
 * (sim_peace.c).
 *
 * Not here: which tasks share a GPU (sim.c) and re-timing (sim_events.c).
 */
#include "sim_int.h"

#include "core/speed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Gavel's reference accelerator: durations of a typed task are on it. */
#define SIM_TPUT_REF_ACCEL "v100"

/* The table's throughput a typed task's durations are measured at. */
static double reference_tput(const tput_index *ix, const gogh_jobtype *jt)
{
    double r = tput_solo(ix, SIM_TPUT_REF_ACCEL, jt);
    if (r > 0)
        return r;
    const char *accels[64];
    size_t n = tput_accels(ix, accels, 64);
    for (size_t a = 0; a < n; a++) {
        double t = tput_solo(ix, accels[a], jt);
        if (t > r)
            r = t;
    }
    return r;
}

static int resolve_reference(sim *s, gp_err *err)
{
    return speed_ref_resolve(s->cat, s->tr, s->cfg.ref_gpu, s->cfg.ref_speed, s->ref_name,
                             sizeof s->ref_name, &s->ref_speed, err);
}

const char *sim_ref_gpu(const sim *s)
{
    return s->ref_name;
}

double sim_ref_speed(const sim *s)
{
    return s->ref_speed;
}

void sim_ref_describe(const sim *s, char *buf, size_t len)
{
    speed_ref_describe(s->ref_name, s->ref_speed, buf, len);
}

int sim_tput_init(sim *s, gp_err *err)
{
    const sim_config *cfg = &s->cfg;
    if (resolve_reference(s, err))
        return -1;
    s->gfrac = xmalloc((s->tr->ntasks ? s->tr->ntasks : 1) * sizeof *s->gfrac);
    for (size_t i = 0; i < s->tr->ntasks; i++)
        s->gfrac[i] = speed_gpu_fraction(&s->tr->tasks[i]);
    if (!cfg->tput)
        return 0;
    s->tix = tput_index_new(cfg->tput);
    s->tt = xcalloc(s->tr->ntasks ? s->tr->ntasks : 1, sizeof *s->tt);
    for (size_t i = 0; i < s->tr->ntasks; i++) {
        sim_tput_task *t = &s->tt[i];
        if (tput_jobtype_of(&s->tr->tasks[i], &t->jt))
            t->ref = reference_tput(s->tix, &t->jt);
    }
    return 0;
}

void sim_tput_free(sim *s)
{
    tput_index_free(s->tix);
    free(s->tt);
    free(s->gfrac);
    s->tix = NULL;
    s->tt = NULL;
    s->gfrac = NULL;
}

size_t sim_tput_unknown(const sim *s, int *first)
{
    size_t n = 0;
    *first = -1;
    for (size_t i = 0; s->tt && i < s->tr->ntasks; i++) {
        if (s->tt[i].jt.model[0] && s->tt[i].ref <= 0) {
            if (n++ == 0)
                *first = (int)i;
        }
    }
    return n;
}

static const gpu_profile *profile_of(const sim *s, int g)
{
    return s->st.cs->nodes[s->st.cs->gpus[g].node].gpu;
}

/* A typed task's speed on GPU g from the table: *whole = 1 when it is a
 * measured figure for the GPU's whole task set (no demand sharing on
 * top); 0 when the table has nothing for it there. */
static double table_speed(const sim *s, int ti, int g, int *whole)
{
    const sim_tput_task *t = &s->tt[ti];
    const gpu_profile *prof = profile_of(s, g);
    *whole = 0;
    if (!prof || !prof->tput_class[0])
        return 0;
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    if (gpu->ntasks == 2) {
        int other = gpu->tasks[0] == ti ? gpu->tasks[1] : gpu->tasks[0];
        const sim_tput_task *o = &s->tt[other];
        if (o->ref > 0) {
            double tj = 0;
            if (ti < other)
                tj = tput_pair(s->tix, prof->tput_class, &t->jt, &o->jt, NULL);
            else
                tput_pair(s->tix, prof->tput_class, &o->jt, &t->jt, &tj);
            if (tj > 0) {
                *whole = 1;
                return tj / t->ref;
            }
        }
    }
    double solo = tput_solo(s->tix, prof->tput_class, &t->jt);
    *whole = gpu->ntasks == 1;
    return solo / t->ref;
}

double sim_task_gpu_rate(const sim *s, int ti, int g)
{
    const sim_gpu *sg = &s->st.gpus[g];
    if (sg->peace_on)
        return s->st.tasks[ti].peace_rate;
    if (s->tt && s->tt[ti].ref > 0) {
        int whole;
        double v = table_speed(s, ti, g, &whole);
        if (v > 0)
            return whole ? sg->clock * v : sg->rate * v;
        return sg->rate * gpu_speed(profile_of(s, g));  /* a typed task: V100 = 1 */
    }
    return sg->rate * speed_rate(s->gfrac[ti], sim_task_speedup(s, ti, g));
}

int sim_task_timed_by_table(const sim *s, int ti)
{
    return s->tt && s->tt[ti].ref > 0;
}

double sim_task_speedup(const sim *s, int ti, int g)
{
    (void)ti;
    if (g < 0)
        return 1;
    return gpu_speed(profile_of(s, g)) / s->ref_speed;
}

double sim_tput_truth(const sim *s, int ti, const char *accel, int partner)
{
    if (!s->tt || !(s->tt[ti].ref > 0))
        return 0;
    const gogh_jobtype *j = &s->tt[ti].jt;
    if (partner < 0)
        return tput_solo(s->tix, accel, j);
    if (!(s->tt[partner].ref > 0))
        return 0;
    double t = 0;
    if (ti < partner)
        t = tput_pair(s->tix, accel, j, &s->tt[partner].jt, NULL);
    else
        tput_pair(s->tix, accel, &s->tt[partner].jt, j, &t);
    return t;
}

double sim_tput_now(const sim *s, int ti, int *partner)
{
    *partner = -1;
    const sim_task *tk = &s->st.tasks[ti];
    if (!s->tt || !(s->tt[ti].ref > 0) || tk->status != ST_RUNNING || tk->pl.ngpus < 1)
        return 0;
    int g = tk->pl.gpus[0];
    const cs_gpu *gpu = &s->st.cs->gpus[g];
    const sim_gpu *sg = &s->st.gpus[g];
    if (gpu->ntasks > 2 || sg->peace_on || !(sg->clock > 0))
        return 0;
    if (gpu->ntasks == 2)
        *partner = gpu->tasks[0] == ti ? gpu->tasks[1] : gpu->tasks[0];
    return sim_task_gpu_rate(s, ti, g) / sg->clock * s->tt[ti].ref;
}
