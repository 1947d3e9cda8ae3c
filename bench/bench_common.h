/*
 * bench_common.h — what the policy benchmarks share: integer settings from
 * the environment, the policy list from $BENCH_POLICIES, and the SIGALRM
 * flag that stops a run at its budget.  Header-only (static functions).
 */
#ifndef GP_BENCH_COMMON_H
#define GP_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* $name as a positive integer, else def. */
static inline int bench_env_int(const char *name, int def)
{
    const char *v = getenv(name);
    return v && atoi(v) > 0 ? atoi(v) : def;
}

/* The policies to time: $BENCH_POLICIES split at commas into buf (at most
 * max), or the ndef defaults.  Returns how many. */
static inline size_t bench_pick_policies(const char **names, size_t max,
                                         const char *const *defaults, size_t ndef,
                                         char *buf, size_t bufsz)
{
    const char *env = getenv("BENCH_POLICIES");
    size_t n = 0;
    if (!env || !*env) {
        for (; n < ndef && n < max; n++)
            names[n] = defaults[n];
        return n;
    }
    snprintf(buf, bufsz, "%s", env);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && n < max;
         tok = strtok_r(NULL, ",", &save))
        names[n++] = tok;
    return n;
}

/* Set by SIGALRM when a run has used its budget; sim_run polls it.  (A
 * signal handler can only reach a static.) */
static volatile int bench_out_of_time;

static inline void bench_on_alarm(int sig)
{
    (void)sig;
    bench_out_of_time = 1;
}

#endif
