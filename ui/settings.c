/*
 * settings.c — the dashboard's remembered settings (settings.h): the
 * key = value file, its path, loading and saving.
 */
#include "settings.h"
#include "settings_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Copies a value into a fixed field; too long is an error, not a cut. */
static int set_field(char *dst, size_t cap, const char *v, int line, const char *key,
                     gp_err *err)
{
    if (strlen(v) >= cap)
        return gp_error(err, "line %d: %s: at most %zu characters", line, key, cap - 1);
    strlcpy0(dst, v, cap);
    return 0;
}

static int set_policies(ui_settings *s, char *v, int line, gp_err *err)
{
    s->npolicies = 0;
    char *save = NULL;
    for (char *t = strtok_r(v, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        t = trim(t);
        if (!*t)
            continue;
        if (s->npolicies == SETTINGS_MAX_POLICIES)
            return gp_error(err, "line %d: policies: at most %d", line, SETTINGS_MAX_POLICIES);
        if (set_field(s->policies[s->npolicies++], GP_NAME_MAX, t, line, "policies", err))
            return -1;
    }
    return 0;
}

/* The energy setting's keys, in cmp_energy_item order. */
static const char *const energy_keys[SETTINGS_ENERGY_ITEMS] = {
    "energy_price", "energy_carbon", "energy_pue", "energy_years", "energy_usd_per_kw_month"};

static int parse_line(ui_settings *s, char *l, int line, gp_err *err)
{
    l = trim(l);
    if (!*l || *l == '#')
        return 0;
    char *eq = strchr(l, '=');
    if (!eq)
        return gp_error(err, "line %d: expected key = value, got '%s'", line, l);
    *eq = '\0';
    char *key = trim(l), *v = trim(eq + 1);
    if (strcmp(key, "chart_style") == 0)
        return set_field(s->chart_style, sizeof s->chart_style, v, line, key, err);
    if (strcmp(key, "trace") == 0)
        return set_field(s->trace, sizeof s->trace, v, line, key, err);
    if (strcmp(key, "cluster") == 0)
        return set_field(s->cluster, sizeof s->cluster, v, line, key, err);
    if (strcmp(key, "policies") == 0)
        return set_policies(s, v, line, err);
    for (int k = 0; k < SETTINGS_ENERGY_ITEMS; k++)
        if (strcmp(key, energy_keys[k]) == 0)
            return set_field(s->energy[k], sizeof s->energy[k], v, line, key, err);
    return 0;                   /* a key of another version */
}

int settings_parse(const char *text, ui_settings *s, gp_err *err)
{
    char *copy = xstrdup(text), *save = NULL;
    int line = 0, rc = 0;
    /* strtok_r would skip empty lines and so miscount them. */
    for (char *l = copy; l && rc == 0; l = save) {
        save = strchr(l, '\n');
        if (save)
            *save++ = '\0';
        rc = parse_line(s, l, ++line, err);
    }
    free(copy);
    return rc;
}

char *settings_format(const ui_settings *s)
{
    strbuf b = STRBUF_INIT;
    strbuf_puts(&b, "# gpuplan dashboard settings (rewritten when they change)\n");
    strbuf_printf(&b, "chart_style = %s\n", s->chart_style);
    strbuf_printf(&b, "trace = %s\n", s->trace);
    strbuf_printf(&b, "cluster = %s\n", s->cluster);
    strbuf_puts(&b, "policies = ");
    for (int i = 0; i < s->npolicies; i++)
        strbuf_printf(&b, "%s%s", i ? "," : "", s->policies[i]);
    strbuf_puts(&b, "\n");
    for (int k = 0; k < SETTINGS_ENERGY_ITEMS; k++)
        if (s->energy[k][0])
            strbuf_printf(&b, "%s = %s\n", energy_keys[k], s->energy[k]);
    return strbuf_take(&b);
}

int settings_equal(const ui_settings *a, const ui_settings *b)
{
    if (strcmp(a->chart_style, b->chart_style) || strcmp(a->trace, b->trace) ||
        strcmp(a->cluster, b->cluster) || a->npolicies != b->npolicies)
        return 0;
    for (int k = 0; k < SETTINGS_ENERGY_ITEMS; k++)
        if (strcmp(a->energy[k], b->energy[k]))
            return 0;
    for (int i = 0; i < a->npolicies; i++)
        if (strcmp(a->policies[i], b->policies[i]))
            return 0;
    return 1;
}

char *settings_path(void)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg)
        return xasprintf("%s/gpuplan/settings", xdg);
    const char *home = getenv("HOME");
    return xasprintf("%s/.config/gpuplan/settings", home && *home ? home : ".");
}

int settings_load(const char *path, ui_settings *s, gp_err *err)
{
    FILE *probe = fopen(path, "r");
    if (!probe)
        return errno == ENOENT ? 0 : gp_error(err, "%s: %s", path, strerror(errno));
    fclose(probe);
    size_t len;
    char *text = read_file(path, &len, err);
    if (!text)
        return -1;
    int rc = settings_parse(text, s, err);
    free(text);
    if (rc)
        gp_error_prefix(err, "%s", path);
    return rc;
}

int settings_save(const char *path, const ui_settings *s, gp_err *err)
{
    const char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        char *dir = xstrndup(path, (size_t)(slash - path));
        int rc = mkdir_p(dir, err);
        free(dir);
        if (rc)
            return -1;
    }
    char *tmp = xasprintf("%s.tmp", path), *text = settings_format(s);
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        rc = gp_error(err, "%s: %s", tmp, strerror(errno));
        if (f)
            remove(tmp);
    } else if (rename(tmp, path) != 0) {
        rc = gp_error(err, "%s: %s", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    free(text);
    return rc;
}
