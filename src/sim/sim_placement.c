/*
 * sim_placement.c — the placement metric of a finished run: its policy's
 * time-averaged busy GPUs with CATS Alg. 4 (DFS) off.
 *
 * DFS is a power mechanism, CATS's own (§3.4: the power state manager's
 * frequency adaptation module; §6 credits it with CATS's lower power, not
 * with its GPU count).  Lowering a clock stretches the tasks it runs by
 * up to kappa, and so the time-averaged count of busy GPUs, whatever the
 * placement; Fig. 8a's "average number of GPUs used" compares placements.
 * So a run with DFS on is simulated once more with it off, and that
 * twin's avg_gpus is the run's place_gpus; a run with DFS off is its own
 * twin.  Power and energy stay the run's own, DFS included.
 *
 * `gpuplan run` calls it on the record it took from the simulator; the
 * dashboard, whose simulators keep their records (Step and Cluster read
 * them), through sim_finish_placement, so both twins are made alike.
 */
#include "sim.h"
#include "sim_int.h"

#include <math.h>

int sim_placement_gpus(const sim_config *cfg, const cluster *cl, const catalog *cat,
                       const gp_trace *tr, const policy_spec *pol, run *r, gp_err *err)
{
    if (run_metric_get(r, "dfs", 0) == 0) {
        run_set_metric(r, "place_gpus", run_metric_get(r, "avg_gpus", 0));
        return 0;
    }
    sim_config c = *cfg;
    c.dfs = 0;
    c.keep_explain = 0;
    c.explain_candidates = 0;
    c.checkpoint_every = SIM_NO_REWIND;
    c.sample_s = -1;
    sim *s = sim_new(&c, cl, cat, tr, pol, err);
    if (!s)
        return -1;
    sim_run(s, NULL);
    sim_finish(s);
    run_set_metric(r, "place_gpus", run_metric_get(sim_run_record(s), "avg_gpus", 0));
    sim_free(s);
    return 0;
}

int sim_finish_placement(sim *s, gp_err *err)
{
    if (!s->rec)
        return 0;
    sim_finish(s);
    if (!isnan(run_metric_get(s->rec, "place_gpus", NAN)))
        return 0;               /* computed since the last rewind */
    return sim_placement_gpus(&s->cfg, s->cl, s->cat, s->tr, &s->pol, s->rec, err);
}
