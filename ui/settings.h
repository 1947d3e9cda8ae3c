/*
 * settings.h — what the dashboard remembers from one start to the next:
 * the chart style, the last trace, cluster and policies picked in
 * Compare, and Compare's energy price, carbon intensity and PUE.  Kept in $XDG_CONFIG_HOME/gpuplan/settings (else
 * ~/.config/gpuplan/settings) as `key = value` lines; read once at start,
 * written when one changes.
 *
 * Unknown keys and blank or `#` lines are skipped (a newer version's file
 * still loads); a malformed line is an error naming its line.  No curses
 * here: tests parse and write without a terminal.
 */
#ifndef GP_SETTINGS_H
#define GP_SETTINGS_H

#include <stddef.h>

#include "core/model.h"
#include "core/util.h"

#define SETTINGS_MAX_POLICIES 6
#define SETTINGS_ENERGY_MAX 512     /* a number or a series file's path */
#define SETTINGS_ENERGY_ITEMS 5     /* price, carbon, PUE, TCO years, USD/kW-month */

typedef struct ui_settings {
    char chart_style[16];       /* "braille", "blocks", "ascii"; "" = the terminal's */
    char trace[GP_NAME_MAX];    /* "" = none remembered */
    char cluster[GP_NAME_MAX];
    char policies[SETTINGS_MAX_POLICIES][GP_NAME_MAX];
    int npolicies;
    /* Compare's energy setting as typed (cmp_energy.h): price, carbon,
     * PUE, the TCO's years and facility cost; "" = not set */
    char energy[SETTINGS_ENERGY_ITEMS][SETTINGS_ENERGY_MAX];
} ui_settings;

/* 1 when a and b hold the same settings. */
int settings_equal(const ui_settings *a, const ui_settings *b);

/* The file's path from the environment; the caller frees it. */
char *settings_path(void);
/* Reads path into *s; a missing file leaves *s as it is and is no error. */
int settings_load(const char *path, ui_settings *s, gp_err *err);
/* Writes s to path (its directory made first), through a temporary file
 * renamed over it, so a crash leaves the old file or the new one. */
int settings_save(const char *path, const ui_settings *s, gp_err *err);

#endif
