/*
 * plan_int.h — what plan.c defines beyond plan.h for the tests and the
 * benchmarks alone: the engine calls none of it, so it is not part of
 * plan.h's interface.
 */
#ifndef GP_PLAN_INT_H
#define GP_PLAN_INT_H

#include "plan.h"

/* The GPU counts lo..hi by step (at most PLAN_MAX_COUNTS, the step grown
 * to fit); returns how many. */
int plan_counts(const plan_params *p, int *out, int cap);

/* A cluster of `gpus` GPUs of profile prof in servers of per_server. */
cluster *plan_cluster(const gpu_profile *prof, int gpus, int per_server);

/* Applies the threshold sliders to a policy spec: its options of role
 * OPT_CORR_THRESHOLD get corr, those of OPT_UTIL_THRESHOLD util_pct
 * (clamped to their ranges); NAN leaves them at the spec's values. */
void plan_apply_thresholds(policy_spec *sp, double corr, double util_pct);

#endif
