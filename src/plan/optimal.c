/*
 * optimal.c — when the "Optimal" row of a comparison is wanted, and
 * computing it (optimal.h).
 */
#include "optimal.h"

#include <stdlib.h>
#include <string.h>

static size_t gpu_tasks(const gp_trace *tr)
{
    size_t n = 0;
    for (size_t i = 0; i < tr->ntasks; i++)
        n += tr->tasks[i].num_gpu > 0;
    return n;
}

int optimal_row_wanted(const sim_config *cfg, const cluster *cl, const catalog *cat,
                       const gp_trace *tr, const policy_spec *specs, size_t n)
{
    size_t k = gpu_tasks(tr);
    if (k == 0 || k > OPTIMAL_AUTO_TASKS || cfg->tput || cluster_common_speed(cl, cat) == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (sim_power_model_of(cfg, &specs[i]) != POWER_CATS)
            return 0;
    return 1;
}

int optimal_row_compute(const sim_config *cfg, const cluster *cl, const catalog *cat,
                        const gp_trace *tr, double time_limit_s, solve_run_row *row,
                        gp_err *err)
{
    solve_opts so;
    solve_opts_default(&so);
    so.time_limit_s = time_limit_s;
    if (cfg->kappa <= 0)
        return solve_cats_for_run(cl, cat, tr, gpu_tasks(tr), &so, row, err);
    /* a view of the trace whose tasks carry the override (series shared) */
    gp_trace view = *tr;
    view.tasks = xmemdup(tr->tasks, tr->ntasks * sizeof *view.tasks);
    for (size_t i = 0; i < view.ntasks; i++)
        view.tasks[i].kappa = cfg->kappa;
    int rc = solve_cats_for_run(cl, cat, &view, gpu_tasks(tr), &so, row, err);
    free(view.tasks);
    return rc;
}
