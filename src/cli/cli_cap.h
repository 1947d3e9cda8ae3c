/*
 * cli_cap.h — the --gpu-cap option that run and plan share: its parser,
 * the checks against a cluster, and the line saying what the cap does to
 * each GPU model (a clock clamp, PEACE's split, or nothing).
 */
#ifndef GP_CLI_CAP_H
#define GP_CLI_CAP_H

#include "power/power_cap.h"

#include <stdio.h>

#define CLI_CAP_HELP "power cap per GPU in W, or per GPU model as MODEL=W,MODEL=W (a " \
    "model not named is uncapped): each capped GPU's clock is held where its profile's " \
    "power curve meets the cap (see docs/power-cap.md)"

/* OPT_CALLBACK parser of --gpu-cap into a power_caps. */
int cli_parse_caps(void *value, const char *arg, gp_err *err);

/* Every model the caps name is a known profile; every capped model of cl
 * can be held (not below its idle draw; not below its lowest clock's draw
 * unless peace_gpu, PEACE's model, is it). */
int cli_caps_check(const power_caps *c, const cluster *cl, const catalog *cat,
                   const char *peace_gpu, gp_err *err);

/* "MODEL W W: what it does; ..." for the capped GPU models of cl. */
void cli_caps_describe(const power_caps *c, const cluster *cl, const catalog *cat,
                       const char *peace_gpu, char *buf, size_t len);

/* A notice on err_out for each capped model of cl the cap leaves alone. */
void cli_caps_notes(FILE *err_out, const power_caps *c, const cluster *cl,
                    const catalog *cat);

/* The same two for the profiles p[0..n) a plan builds its clusters of
 * (NULL entries skipped; no PEACE in a plan). */
void cli_caps_describe_profiles(const power_caps *c, const gpu_profile *const *p, size_t n,
                                char *buf, size_t len);
void cli_caps_notes_profiles(FILE *err_out, const power_caps *c, const gpu_profile *const *p,
                             size_t n);

#endif
