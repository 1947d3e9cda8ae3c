/*
 * cli_progress.h — a progress bar on stderr for the long commands (import,
 * generate): "gpuplan import: [#######             ]  35%", rewritten in
 * place with \r.  Only a terminal shows that as progress; in a log or a
 * pipe it is noise, so nothing is printed unless stderr is a terminal.
 */
#ifndef GP_CLI_PROGRESS_H
#define GP_CLI_PROGRESS_H

typedef struct cli_progress {
    const char *what;           /* "import", "generate" */
    int tty;                    /* stderr is a terminal */
    int shown;                  /* percent last drawn, -1 before the first */
} cli_progress;

void cli_progress_init(cli_progress *p, const char *what);
/* Draws frac (0..1) when its whole percent changed since the last call. */
void cli_progress_show(cli_progress *p, double frac);
/* Clears the bar (when one was drawn). */
void cli_progress_done(cli_progress *p);
/* cli_progress_show() through a void * context, for the engine's
 * progress callbacks (import_opts.progress). */
void cli_progress_cb(void *p, double frac);

#endif
