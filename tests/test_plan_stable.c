/*
 * test_plan_stable.c — the planner's two answers on one model (plan layer,
 * src/plan/plan.c): the first crossing (fewest GPUs meeting the SLA
 * target) and the stable answer (fewest GPUs from which every larger count
 * swept meets it), and the flag for a curve that is not monotonic.  The
 * sweeps are made by hand: ten tasks, each violation a JCT over kappa x
 * its duration, so a point's SLA violations are whatever the case says.
 */
#include "testutil.h"

#include "plan/plan.h"

#define NT 10
#define MAXC 8

/* A one-model plan of counts 8, 16, ... whose point c has viol[c] of its
 * ten tasks over the SLA (-1: not run yet). */
static void make_plan(plan *pl, gp_trace *tr, plan_result *res, double jct[][NT],
                      const int *viol, int n)
{
    memset(pl, 0, sizeof *pl);
    plan_params_default(&pl->p);
    pl->p.npolicies = 1;
    pl->p.kappa = 2;
    pl->p.sla_target_pct = 10;
    pl->tr = tr;
    pl->res = res;
    pl->ncounts = n;
    for (int c = 0; c < n; c++) {
        res[c] = (plan_result){.policy = 0, .gpus = 8 * (c + 1), .done = viol[c] >= 0,
                               .ntasks = NT, .ran = NT, .jct = jct[c]};
        for (int i = 0; i < NT; i++)
            jct[c][i] = i < viol[c] ? 300 : 100;    /* 300 > 2 x 100 */
    }
}

static void test_stable_answer(void **state)
{
    (void)state;
    static const struct {
        int viol[MAXC];         /* tasks over the SLA at 8, 16, ... GPUs */
        int n;
        int first, stable;      /* count indexes; -1 none */
        int nonmono;
    } cases[] = {
        {{5, 3, 1, 0, 0}, 5, 2, 2, 0},          /* monotonic: one answer */
        {{5, 1, 3, 2, 0, 0}, 6, 1, 4, 1},       /* meets at 16, misses at 24 and 32 */
        {{5, 1, 3, 1, 0}, 5, 1, 3, 1},          /* the openb FGD shape */
        {{5, 1, 0, 0, 3}, 5, 1, -1, 1},         /* the largest count misses */
        {{5, 4, 3, 2}, 4, -1, -1, 0},           /* none meets */
        {{0, 0, 0}, 3, 0, 0, 0},
        {{5, 1, 0, -1}, 4, 1, -1, 1},           /* a count not run yet is no promise */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        gp_trace *tr = trace_new("hand");
        for (int i = 0; i < NT; i++) {
            task tk;
            task_init(&tk);
            snprintf(tk.name, sizeof tk.name, "t%d", i);
            tk.duration_s = 100;
            trace_add_task(tr, &tk);
        }
        plan pl;
        plan_result res[MAXC];
        double jct[MAXC][NT];
        make_plan(&pl, tr, res, jct, cases[k].viol, cases[k].n);
        int first = plan_best(&pl, 0, &pl.p), stable = plan_stable(&pl, 0, &pl.p);
        if (first != cases[k].first || stable != cases[k].stable ||
            plan_nonmonotonic(&pl, 0, &pl.p) != cases[k].nonmono)
            fail_msg("case %zu: first %d stable %d non-monotonic %d; wanted %d %d %d", k,
                     first, stable, plan_nonmonotonic(&pl, 0, &pl.p), cases[k].first,
                     cases[k].stable, cases[k].nonmono);
        trace_free(tr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stable_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
