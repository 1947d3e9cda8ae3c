/*
 * tui.h — the ncurses front end's entry point.
 */
#ifndef GP_TUI_H
#define GP_TUI_H

#include "cli/cli.h"

/* Runs the dashboard on ctx's database until the user quits; returns an
 * exit code. */
int tui_main(cli_ctx *ctx);

#endif
