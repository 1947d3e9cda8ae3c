/*
 * settings_int.h — what settings.c defines beyond settings.h for the tests
 * and the benchmarks alone: the dashboard calls none of it, so it is not part
 * of settings.h's interface.
 */
#ifndef GP_SETTINGS_INT_H
#define GP_SETTINGS_INT_H

#include "settings.h"

/* Parses the file's text into *s (which keeps what the text does not
 * set).  0, or -1 with err naming the line. */
int settings_parse(const char *text, ui_settings *s, gp_err *err);
/* The file's text for s; the caller frees it. */
char *settings_format(const ui_settings *s);

#endif
