/*
 * solve_fleet.c — the cheapest fleet (solve.h): which GPU models to buy,
 * and how many, for a set of jobs to meet their minimum throughputs (GOGH
 * Problem 1, eq. 2b–2f) at the least purchase price plus energy cost.
 *
 * Why it is Problem 1: a GPU bought and left idle adds its price and
 * nothing else, so an optimal fleet buys exactly the GPUs its placement
 * runs.  Every candidate is therefore offered at its largest count, and
 * each GPU in use is charged its price plus the energy of the combination
 * it runs (GOGH_MIN_COST in solve_gogh.c); the counts are read back from
 * the placement.  Under a GPU power cap a clamped candidate is offered at
 * its capped throughputs and draw (solve_cap.c), which prices the cap:
 * slower GPUs, more of them, each drawing less.  Not here: the search
 * (solve_gogh.c), the command's comparisons (cmd_solve.c).
 */
#include "solve_cap.h"
#include "solve_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fleet_result_free(fleet_result *r)
{
    solve_result_free(&r->sol);
    free(r->count);
    memset(r, 0, sizeof *r);
    solve_result_init(&r->sol);
}

int fleet_could_use(const gp_trace *tr, size_t ntasks)
{
    int n = 0;
    size_t seen = 0;
    for (size_t i = 0; i < tr->ntasks && (!ntasks || seen < ntasks); i++)
        if (tr->tasks[i].num_gpu > 0) {
            n += tr->tasks[i].num_gpu;
            seen++;
        }
    return n;
}

/* The candidates as a catalog and a cluster of max_count GPUs of each. */
static int offer(const fleet_candidate *cand, size_t ncand, int could_use, int by_speed,
                 catalog *cat, cluster *cl, gp_err *err)
{
    for (size_t i = 0; i < ncand; i++) {
        gpu_profile p = *cand[i].prof;
        if (!by_speed && !p.tput_class[0])
            return gp_error(err, "GPU profile %s has no throughput class (k80, p100, v100): "
                                 "its jobs' speed is unknown", p.name);
        if (catalog_gpu(cat, p.name))
            return gp_error(err, "GPU profile %s is named twice", p.name);
        if (cand[i].price_usd >= 0)
            p.price_usd = cand[i].price_usd;
        catalog_add_gpu(cat, &p);
        int left = cand[i].max_count > 0 ? cand[i].max_count : could_use;
        for (int k = 0; left > 0; k++, left -= GP_NODE_MAX_GPUS) {
            node nd;
            memset(&nd, 0, sizeof nd);
            snprintf(nd.name, sizeof nd.name, "%s-%d", p.name, k);
            strlcpy0(nd.gpu_model, p.name, sizeof nd.gpu_model);
            nd.gpu_count = left < GP_NODE_MAX_GPUS ? left : GP_NODE_MAX_GPUS;
            cluster_add_node(cl, &nd);
        }
    }
    return 0;
}

/* The caps on the instance's types, one per candidate in order; the jobs'
 * minimums were set from the uncapped throughputs, and stay. */
static int cap_candidates(const fleet_candidate *cand, size_t ncand, const power_caps *caps,
                          gogh_inst *out, gp_err *err)
{
    const gpu_profile **prof = xcalloc(ncand + 1, sizeof *prof);
    for (size_t i = 0; i < ncand; i++)
        prof[i] = cand[i].prof;
    int rc = gogh_inst_cap(out, prof, caps, err);
    free(prof);
    return rc;
}

int fleet_inst_from_model(const fleet_candidate *cand, size_t ncand, const gp_trace *tr,
                          const tput_catalog *tp, const fleet_params *fp, gogh_inst *out,
                          gp_err *err)
{
    memset(out, 0, sizeof *out);
    if (ncand == 0)
        return gp_error(err, "no GPU profile to buy");
    if (!(fp->usd_per_kwh >= 0) || !(fp->hours >= 0))
        return gp_error(err, "the electricity price and the horizon must not be negative");
    catalog *cat = catalog_new();
    cluster *cl = cluster_new("fleet");
    int rc = offer(cand, ncand, fleet_could_use(tr, fp->ntasks), !tp, cat, cl, err);
    /* the reference, for speeds only: not a candidate, so no GPUs of it */
    if (rc == 0 && !tp && fp->ref && !catalog_gpu(cat, fp->ref->name))
        catalog_add_gpu(cat, fp->ref);
    if (rc == 0)
        rc = gogh_inst_from_model(cl, cat, tr, tp, fp->ntasks, fp->min_frac, out, err);
    catalog_free(cat);
    cluster_free(cl);
    if (rc)
        return -1;
    assert(out->ntypes == ncand);
    if (fp->caps && cap_candidates(cand, ncand, fp->caps, out, err)) {
        gogh_inst_free(out);
        return -1;
    }
    out->objective = GOGH_MIN_COST;
    out->usd_per_w = fp->usd_per_kwh * fp->hours / 1000;   /* W over hours, in kWh */
    return 0;
}

int solve_fleet(const gogh_inst *in, const solve_opts *o, fleet_result *res, gp_err *err)
{
    memset(res, 0, sizeof *res);
    solve_result_init(&res->sol);
    if (in->objective != GOGH_MIN_COST)
        return gp_error(err, "solve_fleet: the instance must have the GOGH_MIN_COST objective");
    if (solve_gogh(in, o, &res->sol, err))
        return -1;
    res->ntypes = in->ntypes;
    res->count = xcalloc(in->ntypes + 1, sizeof *res->count);
    const solve_result *s = &res->sol;
    for (size_t g = 0; s->has_solution && g < in->naccels; g++) {
        int busy = 0;
        for (size_t q = 0; q < s->nplace; q++)
            busy |= s->place[q].gpu == (int)g;
        if (!busy)
            continue;
        const gogh_accel_type *ty = &in->types[in->accels[g].type];
        res->count[in->accels[g].type]++;
        res->capex_usd += ty->price_usd;
        res->power_w += s->gpu_watts[g];
    }
    res->energy_usd = in->usd_per_w * res->power_w;
    return 0;
}
