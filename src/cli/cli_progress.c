/*
 * cli_progress.c — the stderr progress bar of long commands (cli_progress.h).
 */
#include "cli_progress.h"

#include <stdio.h>
#include <unistd.h>

enum { BAR_WIDTH = 30 };

void cli_progress_init(cli_progress *p, const char *what)
{
    p->what = what;
    p->tty = isatty(STDERR_FILENO);
    p->shown = -1;
}

void cli_progress_show(cli_progress *p, double frac)
{
    if (!p->tty)
        return;
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    int pct = (int)(frac * 100);
    if (pct == p->shown)
        return;
    p->shown = pct;
    char bar[BAR_WIDTH + 1];
    int fill = (int)(frac * BAR_WIDTH);
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : ' ';
    bar[BAR_WIDTH] = '\0';
    fprintf(stderr, "\rgpuplan %s: [%s] %3d%%", p->what, bar, pct);
    fflush(stderr);
}

void cli_progress_done(cli_progress *p)
{
    if (p->tty && p->shown >= 0)
        fprintf(stderr, "\r%*s\r", BAR_WIDTH + 32, "");
    p->shown = -1;
}

void cli_progress_cb(void *p, double frac)
{
    cli_progress_show(p, frac);
}
