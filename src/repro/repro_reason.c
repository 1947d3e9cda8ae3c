/*
 * repro_reason.c — measured reasons for `reproduce` rows: the fluid lower
 * bound of a trace and the tally of what a policy's filters rejected
 * (repro_reason.h).
 *
 * Not here: running a simulation (repro.c), any paper's rows.
 */
#include "repro_reason.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double repro_fluid_gpus(const gp_trace *tr)
{
    double work = 0, t0 = INFINITY, t1 = -INFINITY;
    for (size_t i = 0; i < tr->ntasks; i++) {
        const task *tk = &tr->tasks[i];
        int v = task_gpus(tk);
        t0 = fmin(t0, tk->arrival_s);
        t1 = fmax(t1, tk->arrival_s + tk->duration_s);
        if (v > 0)
            work += tk->util_mean / 100 * tk->duration_s * v;
    }
    return t1 > t0 ? work / (t1 - t0) : 0;
}

/* The filter a rejected candidate's note names.  The policies write
 * "rho ..." for the correlation threshold, "mean ...", "... sum ..." for
 * the utilization one, and corr_reason()'s words for a window that does
 * not fit. */
static size_t *filter_of(repro_tally *t, const char *note)
{
    if (strncmp(note, "rho", 3) == 0)
        return &t->by_corr;
    if (strncmp(note, "mean", 4) == 0 || strstr(note, " sum "))
        return &t->by_util;
    if (strcmp(note, "memory") == 0 || strncmp(note, "too few", 7) == 0 ||
        strncmp(note, "GPU model", 9) == 0)
        return &t->by_fit;
    return &t->by_other;
}

static int opened_fresh(const explain *ex)
{
    if (ex->chosen < 0 || (size_t)ex->chosen >= ex->ncands)
        return 0;
    const char *note = ex->cands[ex->chosen].note;
    return strncmp(note, "fresh", 5) == 0 || strncmp(note, "new GPU", 7) == 0;
}

void repro_tally_add(repro_tally *t, const explain *ex)
{
    if (!ex)
        return;
    t->decisions++;
    t->fresh += opened_fresh(ex);
    for (size_t i = 0; i < ex->ncands; i++) {
        const explain_cand *c = &ex->cands[i];
        if ((int)i == ex->chosen && opened_fresh(ex))
            continue;           /* the fallback, not a candidate scored */
        t->candidates++;
        if (!c->eligible)
            (*filter_of(t, c->note))++;
    }
    if (!t->terms[0] && ex->nterms > 0) {
        size_t off = 0;
        for (int k = 0; k < ex->nterms && off < sizeof t->terms; k++)
            off += (size_t)snprintf(t->terms + off, sizeof t->terms - off, "%s%s",
                                    k ? ", " : "", ex->term_name[k]);
    }
}

void repro_tally_text(const repro_tally *t, const char *who, char *buf, size_t len)
{
    size_t rejected = t->by_fit + t->by_corr + t->by_util + t->by_other;
    snprintf(buf, len, "%s rejected %zu of %zu candidates (memory/room %zu, correlation %zu, "
             "utilization %zu); %zu of %zu placements opened an empty GPU; read %s", who,
             rejected, t->candidates, t->by_fit, t->by_corr, t->by_util, t->fresh,
             t->decisions, t->terms[0] ? t->terms : "-");
}
