/*
 * fuzz_profile.c — libFuzzer harness for the profile field parser
 * (core/profile.h), what `gpuplan profile gpu|cpu NAME KEY=VALUE...` and the
 * dashboard's edit form apply.  An input is one KEY=VALUE per line; its
 * first byte picks a GPU (even) or CPU (odd) profile.  Each pair is split
 * at its first '=' as the command does; a refused pair must say why, an
 * accepted one must leave its field within the field's bounds; then every
 * field is printed into a short buffer and the cross-field check runs.
 * Each line is also read as a --gpu-cap list (power/power_cap.h): a refused
 * list must say why and leave no cap; an accepted one must print as a list
 * that reads back to the same print, and each of its caps, on a GPU profile that passed the
 * check, must give a clock within the profile's clocks or a message.
 * Seeds: pairs from the native fixtures' profile files (gpus.csv, cpus.csv
 * name the same keys), and "200", "V100=150,A100-40GB=250".
 */
#include "harness.h"
#include "core/profile.h"
#include "power/power_cap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (fuzz_seed_dir()) {
        static const char gpu[] = "\0mem_gib=16\nidle_w=25\nmax_w=250\nf_min_mhz=300\n"
                                  "f_max_mhz=1380\nbeta=0.91\ntput_class=v100\nspeed=1e0";
        static const char cpu[] = "\1cores=24\nidle_w=30\nmax_w=145.5";
        fuzz_write_seed("gpu", gpu, sizeof gpu - 1);
        fuzz_write_seed("cpu", cpu, sizeof cpu - 1);
        static const char caps[] = "\0idle_w=23.3\nmax_w=144.8\n200\nV100=150,A100-40GB=250";
        fuzz_write_seed("caps", caps, sizeof caps - 1);
        exit(0);
    }
    return 0;
}

/* The field of key, or NULL. */
static const profile_field *field_of(const profile_field *fields, const char *key)
{
    for (const profile_field *f = fields; f->key; f++)
        if (strcmp(f->key, key) == 0)
            return f;
    return NULL;
}

/* An accepted value must lie within its field's bounds. */
static void check_field(const void *profile, const profile_field *f)
{
    const char *p = (const char *)profile + f->offset;
    if (f->type == 's') {
        if (strnlen(p, (size_t)f->max) >= (size_t)f->max)
            abort();
        return;
    }
    double v = f->type == 'i' ? *(const int *)(const void *)p : *(const double *)(const void *)p;
    if (!isfinite(v) || v < f->min || v > f->max)
        abort();
}

static void apply_line(void *profile, const profile_field *fields, char *line)
{
    gp_err err = {{0}};
    char *eq = strchr(line, '=');
    if (!eq)
        return;                 /* the command refuses it before the parser */
    *eq = '\0';
    if (profile_set(profile, fields, line, eq + 1, &err)) {
        fuzz_require_message(&err, "profile_set");
        return;
    }
    const profile_field *f = field_of(fields, line);
    if (!f)
        abort();                /* accepted a key that is not a field */
    check_field(profile, f);
}

/* line as a cap list; each cap on profile p (NULL: none to try). */
static void check_caps(const char *line, const gpu_profile *p)
{
    power_caps c, again;
    gp_err err = {{0}};
    if (power_caps_parse(line, &c, &err)) {
        fuzz_require_message(&err, "power_caps_parse");
        if (power_caps_any(&c))
            abort();
        return;
    }
    /* %g rounds the watts: the printed list reads back to itself */
    static char back[POWER_CAPS_MAX * (GP_NAME_MAX + 32)], back2[sizeof back];
    power_caps_format(&c, back, sizeof back);
    if (power_caps_parse(back, &again, &err) || again.n != c.n)
        abort();
    power_caps_format(&again, back2, sizeof back2);
    if (strcmp(back, back2) != 0)
        abort();
    for (size_t i = 0; p && i <= c.n; i++) {
        double cap = i < c.n ? c.e[i].w : c.all_w, f;
        power_cap_effect eff;
        if (!(cap > 0))
            continue;
        if (power_cap_clock(p, cap, &f, &eff, &err)) {
            fuzz_require_message(&err, "power_cap_clock");
            continue;
        }
        if (!(f >= p->f_min_mhz && f <= p->f_max_mhz) && p->f_max_mhz >= p->f_min_mhz)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int is_gpu = data[0] % 2 == 0;
    gpu_profile g = {0};
    cpu_profile c = {0};
    strlcpy0(g.name, "fuzz", sizeof g.name);
    strlcpy0(c.name, "fuzz", sizeof c.name);
    g.beta = 0.91;
    void *profile = is_gpu ? (void *)&g : (void *)&c;
    const profile_field *fields = is_gpu ? gpu_profile_fields : cpu_profile_fields;
    /* NUL-terminated lines, as argv strings are. */
    char *text = xstrndup((const char *)data + 1, size - 1);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        apply_line(profile, fields, line);
    free(text);
    char buf[8];
    for (const profile_field *f = fields; f->key; f++)
        profile_get(profile, f, buf, sizeof buf);
    gp_err err = {{0}};
    int rc = is_gpu ? gpu_profile_check(&g, &err) : cpu_profile_check(&c, &err);
    if (rc)
        fuzz_require_message(&err, "profile check");
    text = xstrndup((const char *)data + 1, size - 1);
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        check_caps(line, is_gpu && rc == 0 ? &g : NULL);
    free(text);
    return 0;
}
