/*
 * repro.c — the table of reproduced papers, rows, and what every paper's
 * experiments share: loading inputs and simulating a policy (repro.h).
 *
 * Not here: any paper's experiment (repro_<paper>.c), output formats
 * (cmd_reproduce.c).
 */
#include "repro.h"
#include "repro_table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const REPRO_HOLDS = "holds";
const char *const REPRO_DIRECTION = "direction";
const char *const REPRO_DIFFERS = "differs";
const char *const REPRO_MEASURED = "measured";
const char *const REPRO_NOT_RUN = "not run";

static const repro_paper *const papers[] = {
    &repro_corrgpu,
    &repro_cats,
    &repro_fgd,
    &repro_gogh,
    &repro_peace,
};

const repro_paper *repro_paper_nth(size_t i)
{
    return i < sizeof papers / sizeof *papers ? papers[i] : NULL;
}

const repro_paper *repro_paper_find(const char *name)
{
    for (size_t i = 0; i < sizeof papers / sizeof *papers; i++)
        if (strcmp(papers[i]->name, name) == 0)
            return papers[i];
    return NULL;
}

void repro_out_init(repro_out *o, store *st, int save)
{
    memset(o, 0, sizeof *o);
    o->st = st;
    o->save = save;
}

void repro_out_free(repro_out *o)
{
    free(o->rows);
    o->rows = NULL;
    o->n = o->cap = 0;
}

static repro_row *add_row(repro_out *o, const char *paper, const char *experiment,
                          const char *quantity, const char *theirs, double ours,
                          const char *ours_fmt, const char *verdict)
{
    grow_array((void **)&o->rows, &o->cap, o->n + 1, sizeof *o->rows);
    repro_row *r = &o->rows[o->n++];
    memset(r, 0, sizeof *r);
    r->paper = paper;
    strlcpy0(r->experiment, experiment, sizeof r->experiment);
    strlcpy0(r->quantity, quantity, sizeof r->quantity);
    strlcpy0(r->theirs, theirs, sizeof r->theirs);
    strlcpy0(r->tolerance, "-", sizeof r->tolerance);
    r->ours = ours;
    if (isnan(ours))
        snprintf(r->ours_text, sizeof r->ours_text, "-");
    else
        snprintf(r->ours_text, sizeof r->ours_text, ours_fmt, ours);
    r->verdict = verdict;
    return r;
}

repro_row *repro_add(repro_out *o, const char *paper, const char *experiment,
                     const char *quantity, const char *theirs, double ours,
                     const char *ours_fmt, const char *verdict, const char *reason_fmt, ...)
{
    repro_row *r = add_row(o, paper, experiment, quantity, theirs, ours, ours_fmt, verdict);
    if (reason_fmt) {
        va_list ap;
        va_start(ap, reason_fmt);
        vsnprintf(r->reason, sizeof r->reason, reason_fmt, ap);
        va_end(ap);
    }
    return r;
}

repro_row *repro_add_claim(repro_out *o, const char *paper, const char *experiment,
                           const char *quantity, const char *theirs, const repro_claim *c,
                           double ours, const char *ours_fmt, const char *reason_fmt, ...)
{
    repro_row *r = add_row(o, paper, experiment, quantity, theirs, ours, ours_fmt,
                           repro_judge(c, ours));
    repro_claim_text(c, r->tolerance, sizeof r->tolerance);
    if (reason_fmt) {
        va_list ap;
        va_start(ap, reason_fmt);
        vsnprintf(r->reason, sizeof r->reason, reason_fmt, ap);
        va_end(ap);
    }
    return r;
}

/* -1, 0 or 1: the side of zero v lies on. */
static int side(double v, double zero)
{
    return (v > zero) - (v < zero);
}

const char *repro_judge(const repro_claim *c, double ours)
{
    if (isnan(ours))
        return REPRO_DIFFERS;
    switch (c->kind) {
    case REPRO_AT_MOST:
        return ours <= c->paper ? REPRO_HOLDS : REPRO_DIFFERS;
    case REPRO_AT_LEAST:
        return ours >= c->paper ? REPRO_HOLDS : REPRO_DIFFERS;
    case REPRO_FIGURE:
        break;
    }
    int close = fabs(ours - c->paper) <= c->tol;
    if (isnan(c->zero))
        return close ? REPRO_HOLDS : REPRO_DIFFERS;
    /* A paper figure at the neutral value claims no direction: only its
     * size can agree. */
    int theirs = side(c->paper, c->zero);
    if (theirs == 0)
        return close ? REPRO_HOLDS : REPRO_DIFFERS;
    if (side(ours, c->zero) != theirs)
        return REPRO_DIFFERS;
    return close ? REPRO_HOLDS : REPRO_DIRECTION;
}

void repro_claim_text(const repro_claim *c, char *buf, size_t len)
{
    switch (c->kind) {
    case REPRO_AT_MOST:
        snprintf(buf, len, "<= %g", c->paper);
        return;
    case REPRO_AT_LEAST:
        snprintf(buf, len, ">= %g", c->paper);
        return;
    case REPRO_FIGURE:
        if (c->tol == 0)
            snprintf(buf, len, "exact");
        else
            snprintf(buf, len, "+-%g", c->tol);
        return;
    }
}

void repro_not_run(repro_out *o, const char *paper, const char *experiment, const char *why)
{
    repro_add(o, paper, experiment, "-", "-", NAN, "%g", REPRO_NOT_RUN, "%s", why);
}

int repro_load(store *st, const char *trace, const char *cluster_name, repro_inputs *in,
               gp_err *err)
{
    memset(in, 0, sizeof *in);
    if (store_load_catalog(st, &in->cat, err) ||
        store_get_cluster(st, cluster_name, &in->cl, err) ||
        store_get_trace(st, trace, &in->tr, err)) {
        repro_inputs_free(in);
        return -1;
    }
    return 0;
}

void repro_inputs_free(repro_inputs *in)
{
    trace_free(in->tr);
    cluster_free(in->cl);
    catalog_free(in->cat);
    memset(in, 0, sizeof *in);
}

/* "name[:value] [key=value ...]" into a spec labelled with the whole text. */
static int parse_policy(const char *text, policy_spec *sp, gp_err *err)
{
    char buf[256];
    strlcpy0(buf, text, sizeof buf);
    char *save = NULL, *tok = strtok_r(buf, " ", &save);
    if (!tok || policy_spec_parse(tok, sp, err))
        return -1;
    while ((tok = strtok_r(NULL, " ", &save)))
        if (policy_spec_set(sp, tok, err))
            return -1;
    strlcpy0(sp->label, text, sizeof sp->label);
    return 0;
}

run *repro_simulate_tally(repro_out *o, const repro_inputs *in, const char *policy,
                          const sim_config *cfg, repro_tally *tally, gp_err *err)
{
    policy_spec sp;
    if (parse_policy(policy, &sp, err))
        return NULL;
    sim_config c = *cfg;
    c.checkpoint_every = SIM_NO_REWIND;     /* nobody rewinds */
    if (tally) {
        memset(tally, 0, sizeof *tally);
        c.explain_candidates = 1;           /* the notes say which filter rejected */
    }
    sim *s = sim_new(&c, in->cl, in->cat, in->tr, &sp, err);
    if (!s)
        return NULL;
    if (tally)
        while (sim_step(s))
            repro_tally_add(tally, sim_last_explain(s));
    else
        sim_run(s, NULL);
    sim_finish(s);
    run *r = sim_take_run(s);
    sim_free(s);
    if (o->save && store_put_run(o->st, r, err)) {
        run_free(r);
        return NULL;
    }
    return r;
}

run *repro_simulate(repro_out *o, const repro_inputs *in, const char *policy,
                    const sim_config *cfg, gp_err *err)
{
    return repro_simulate_tally(o, in, policy, cfg, NULL, err);
}
