/*
 * profile.h — the editable fields of GPU and CPU profiles, described once
 * so the CLI (`gpuplan profile`) and the TUI's edit form validate the same
 * way.
 */
#ifndef GP_PROFILE_H
#define GP_PROFILE_H

#include <stddef.h>

#include "model.h"
#include "util.h"

typedef struct profile_field {
    const char *key;            /* column name, as in gpus.csv / cpus.csv */
    const char *help;
    size_t offset;              /* of a double (or int for cores, char[] for text) */
    char type;                  /* 'd' double, 'u' double or "unknown" (NAN),
                                 * 'i' int, 's' text */
    double min, max;
} profile_field;

extern const profile_field gpu_profile_fields[];   /* terminated by key NULL */
extern const profile_field cpu_profile_fields[];

/* Sets one field from text; 0 or -1 with "key: expected ..." in err. */
int profile_set(void *profile, const profile_field *fields, const char *key,
                const char *value, gp_err *err);
/* The field's value as text. */
void profile_get(const void *profile, const profile_field *f, char *buf, size_t len);
/* Cross-field checks (max >= idle, f_max >= f_min); 0 or -1. */
int gpu_profile_check(const gpu_profile *g, gp_err *err);

/* After an edit from old (NULL for a new profile) to *g in which
 * alpha_w_per_mhz was not given: when max_w, idle_w or f_max_mhz changed
 * and old's slope was the one its figures give, the slope is derived
 * again from the new figures (else the model would still draw the old
 * max_w at f_max); a slope that was not derived (measured) is not
 * guessed at: -1 with the reason and the derived value.  A new profile
 * without a slope gets the derived one.  0 otherwise. */
int gpu_profile_follow_slope(const gpu_profile *old, gpu_profile *g, gp_err *err);
/* "key old -> new" for every field that differs, "; "-separated, into
 * buf ("" when none). */
void profile_changes(const void *old, const void *new_, const profile_field *fields,
                     char *buf, size_t len);
int cpu_profile_check(const cpu_profile *p, gp_err *err);

#endif
