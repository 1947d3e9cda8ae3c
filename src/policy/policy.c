/*
 * policy.c — the policy registry and the families' traits, parsing of
 * policy specs and option overrides, preparing a policy for a run, the
 * placement contract, and explanation bookkeeping.
 */
#include "policy.h"
#include "policy_int.h"
#include "policy_table.h"
#include "core/strbuf.h"
#include "core/suggest.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one table of policies: adding a policy is its file plus one line
 * here and one in policy_table.h.  Within a family, table order is the
 * order of comparison tables (the fragmentation family in the FGD paper's
 * order). */
static const policy_ops *const policies[] = {
    &policy_cats, &policy_corrgpu, &policy_first, &policy_hotcloud, &policy_harmony,
    &policy_random, &policy_dotprod, &policy_gpuclustering, &policy_gpupacking,
    &policy_bestfit, &policy_fgd, &policy_pwr, &policy_pwr_fgd, &policy_gogh, &policy_gogh_p1,
    &policy_gogh_oracle, &policy_gavel, &policy_blind, NULL,
};

const policy_ops *policy_nth(size_t i)
{
    return i < sizeof policies / sizeof *policies - 1 ? policies[i] : NULL;
}

static const policy_family_info families[FAMILY_COUNT] = {
    [FAMILY_CORRELATION] = {"correlation", SHARE_TIME, NULL},
    [FAMILY_FRAGMENTATION] = {"fragmentation", SHARE_PARTITION, &policy_fgd},
    [FAMILY_ALLOCATION] = {"allocation", SHARE_PAIR, &policy_blind},
};

const policy_family_info *policy_family_get(policy_family f)
{
    assert(f >= 0 && f < FAMILY_COUNT);
    return &families[f];
}

const policy_ops *policy_family_nth(policy_family family, size_t i)
{
    const policy_ops *p;
    for (size_t k = 0; (p = policy_nth(k)); k++)
        if (p->family == family && i-- == 0)
            return p;
    return NULL;
}

const policy_ops *policy_find(const char *name)
{
    const policy_ops *p;
    for (size_t i = 0; (p = policy_nth(i)); i++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

int policy_option_index(const policy_ops *ops, const char *key)
{
    for (int i = 0; ops->options && ops->options[i].key; i++)
        if (strcmp(ops->options[i].key, key) == 0)
            return i;
    return -1;
}

int policy_spec_set_role(policy_spec *sp, option_role role, double v)
{
    int n = 0;
    for (int i = 0; sp->ops->options && sp->ops->options[i].key; i++) {
        const policy_option *o = &sp->ops->options[i];
        if (o->role != role)
            continue;
        sp->params[i] = v < o->min ? o->min : v > o->max ? o->max : v;
        n++;
    }
    return n;
}

double policy_spec_role(const policy_spec *sp, option_role role, double def)
{
    for (int i = 0; sp->ops->options && sp->ops->options[i].key; i++)
        if (sp->ops->options[i].role == role)
            return sp->params[i];
    return def;
}

int policy_places_tasks(const policy_ops *ops, gp_err *err)
{
    if (ops->place)
        return 0;
    return gp_error(err, "policy '%s' allocates every active task in rounds; only the "
                    "simulator (run, plan, the dashboard) runs it", ops->name);
}

static int set_value(policy_spec *sp, int idx, const char *value, gp_err *err)
{
    const policy_option *o = &sp->ops->options[idx];
    double v;
    if (parse_double(value, &v) || v < o->min || v > o->max)
        return gp_error(err, "%s.%s: expected a number in [%g, %g], got '%s'", sp->ops->name,
                        o->key, o->min, o->max, value);
    sp->params[idx] = v;
    return 0;
}

int policy_spec_parse(const char *text, policy_spec *out, gp_err *err)
{
    memset(out, 0, sizeof *out);
    /* The label names the runs made; refused, not cut, when too long. */
    if (strlen(text) >= sizeof out->label)
        return gp_error(err, "'%.24s...': a policy as written is at most %zu bytes "
                        "(it names the runs)", text, sizeof out->label - 1);
    strlcpy0(out->label, text, sizeof out->label);
    char name[GP_NAME_MAX];
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, text, n);
    name[n] = '\0';
    out->ops = policy_find(name);
    if (!out->ops) {
        strbuf known = STRBUF_INIT;
        const policy_ops *p;
        for (size_t i = 0; (p = policy_nth(i)); i++) {
            strbuf_sep(&known, ", ");
            strbuf_puts(&known, p->name);
        }
        suggest sg;
        suggest_init(&sg, name);
        for (size_t i = 0; (p = policy_nth(i)); i++)
            suggest_offer(&sg, p->name);
        char hint[300];
        gp_error(err, "unknown policy '%s'%s (known: %s)", name,
                 suggest_hint(&sg, hint, sizeof hint), strbuf_str(&known));
        strbuf_free(&known);
        return -1;
    }
    for (int i = 0; out->ops->options && out->ops->options[i].key; i++)
        out->params[i] = out->ops->options[i].def;
    if (colon) {
        if (!out->ops->options || !out->ops->options[0].key)
            return gp_error(err, "policy '%s' takes no value", name);
        return set_value(out, 0, colon + 1, err);
    }
    return 0;
}

int policy_spec_set(policy_spec *sp, const char *assignment, gp_err *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq)
        return gp_error(err, "expected KEY=VALUE, got '%s'", assignment);
    char key[64];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof key)
        n = sizeof key - 1;
    memcpy(key, assignment, n);
    key[n] = '\0';
    int idx = policy_option_index(sp->ops, key);
    if (idx < 0)
        return gp_error(err, "policy '%s' has no option '%s'", sp->ops->name, key);
    return set_value(sp, idx, eq + 1, err);
}

void policy_spec_format(const policy_spec *sp, char *buf, size_t len)
{
    strbuf b = STRBUF_INIT;
    for (int i = 0; sp->ops->options && sp->ops->options[i].key; i++) {
        strbuf_sep(&b, " ");
        strbuf_printf(&b, "%s=%g", sp->ops->options[i].key, sp->params[i]);
    }
    strbuf_copy_to(&b, buf, len);
    strbuf_free(&b);
}

int policy_prepare(const policy_spec *sp, const cstate *cs, const gp_trace *tr, void **prep,
                   gp_err *err)
{
    return policy_prepare_with(sp, cs, tr, NULL, prep, err);
}

int policy_prepare_with(const policy_spec *sp, const cstate *cs, const gp_trace *tr,
                        const policy_inputs *in, void **prep, gp_err *err)
{
    static const policy_inputs none;
    *prep = NULL;
    if (!sp->ops->prepare)
        return 0;
    if (sp->ops->prepare(cs, tr, in ? in : &none, sp->params, prep, err)) {
        assert(*prep == NULL);
        return -1;
    }
    return 0;
}

void policy_release(const policy_spec *sp, void *prep)
{
    if (prep && sp->ops->release)
        sp->ops->release(prep);
}

/* ---- the placement contract ------------------------------------------------ */

static int check_gpu(const cstate *cs, const task *tk, const placement *pl, int k,
                     gpu_sharing sharing, gp_err *err)
{
    int g = pl->gpus[k];
    if (g < 0 || (size_t)g >= cs->ngpus || cs->gpus[g].node != pl->node)
        return gp_error(err, "task '%s': GPU %d is not a GPU of node %d", tk->name, g, pl->node);
    for (int j = 0; j < k; j++)
        if (pl->gpus[j] == g)
            return gp_error(err, "task '%s': GPU %d given twice", tk->name, g);
    const cs_gpu *gpu = &cs->gpus[g];
    const cs_node *n = &cs->nodes[pl->node];
    if (!n->gpu || !task_allows_model(tk, n->gpu->name))
        return gp_error(err, "task '%s' may not run on a GPU of %s", tk->name,
                        n->gpu ? n->gpu->name : "a CPU-only node");
    if (sharing != SHARE_PARTITION &&
        cs_gpu_mem_free(gpu) + GP_MEM_EPS_GIB < tk->gpu_mem_gib)
        return gp_error(err, "task '%s' needs %.2f GiB; %s/g%d has %.2f free", tk->name,
                        tk->gpu_mem_gib, n->name, gpu->dev, cs_gpu_mem_free(gpu));
    if (sharing == SHARE_PAIR && gpu->ntasks >= 2)
        return gp_error(err, "task '%s': %s/g%d already runs two tasks", tk->name, n->name,
                        gpu->dev);
    if (sharing == SHARE_PARTITION && cs_gpu_idle_milli(gpu) < task_gpu_share(tk))
        return gp_error(err, "task '%s' needs %d milli-GPU; %s/g%d has %d idle", tk->name,
                        task_gpu_share(tk), n->name, gpu->dev, cs_gpu_idle_milli(gpu));
    return 0;
}

int placement_check(const cstate *cs, const task *tk, const placement *pl, gpu_sharing sharing,
                    gp_err *err)
{
    if (pl->node < 0 || (size_t)pl->node >= cs->nnodes)
        return gp_error(err, "task '%s': no node %d", tk->name, pl->node);
    if (pl->ngpus != task_gpus(tk))
        return gp_error(err, "task '%s' placed on %d GPUs, expected %d", tk->name, pl->ngpus,
                        task_gpus(tk));
    for (int k = 0; k < pl->ngpus; k++)
        if (check_gpu(cs, tk, pl, k, sharing, err))
            return -1;
    /* Time-sharing GPU tasks are placed by memory only (CATS §3.3); CPU and
     * RAM bind CPU-only tasks there and every task of a partition. */
    if (sharing != SHARE_PARTITION && pl->ngpus > 0)
        return 0;
    const cs_node *n = &cs->nodes[pl->node];
    if (n->cpu_left < tk->cpu_milli || n->ram_left < tk->ram_mib)
        return gp_error(err, "task '%s' needs %lld milli-CPU and %lld MiB; %s has %lld and %lld "
                        "left", tk->name, (long long)tk->cpu_milli, (long long)tk->ram_mib,
                        n->name, (long long)n->cpu_left, (long long)n->ram_left);
    return 0;
}

void placement_devices(const cstate *cs, const placement *pl, char *buf, size_t len)
{
    strbuf b = STRBUF_INIT;
    for (int k = 0; k < pl->ngpus; k++) {
        strbuf_sep(&b, ",");
        strbuf_printf(&b, "%d", cs->gpus[pl->gpus[k]].dev);
    }
    strbuf_copy_to(&b, buf, len);
    strbuf_free(&b);
}

/* ---- explanations ---------------------------------------------------------- */

void explain_init(explain *ex, const char *const *term_names, int nterms)
{
    memset(ex, 0, sizeof *ex);
    if (nterms > EXPLAIN_MAX_TERMS)
        nterms = EXPLAIN_MAX_TERMS;
    for (int i = 0; i < nterms; i++)
        ex->term_name[i] = term_names[i];
    ex->nterms = nterms;
    ex->chosen = -1;
    ex->want_cands = 1;
}

void explain_reset(explain *ex)
{
    ex->ncands = 0;
    ex->chosen = -1;
    ex->summary[0] = '\0';
}

void explain_free(explain *ex)
{
    free(ex->cands);
    ex->cands = NULL;
    ex->ncands = ex->cands_cap = 0;
}

explain_cand *explain_add(explain *ex, int node_idx, int gpu)
{
    if (!explain_wants(ex))
        return NULL;
    grow_array((void **)&ex->cands, &ex->cands_cap, ex->ncands + 1, sizeof *ex->cands);
    explain_cand *c = &ex->cands[ex->ncands++];
    memset(c, 0, sizeof *c);
    c->node = node_idx;
    c->gpu = gpu;
    c->eligible = 1;
    return c;
}
