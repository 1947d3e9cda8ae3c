/*
 * main.c — the program: the command line front end, with the TUI as what
 * `gpuplan` alone opens.  The only file that knows both front ends.
 */
#include <locale.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "tui.h"

/* The dashboard needs a terminal on both ends: with input or output
 * redirected it would wait on no keyboard or write escape codes into a
 * file, so it says so and stops (a usage error, as a wrong option). */
static int open_dashboard(cli_ctx *ctx)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "gpuplan: the dashboard needs a terminal (standard %s is not one); "
                "for scripts use the commands: gpuplan --help\n",
                !isatty(STDIN_FILENO) ? "input" : "output");
        return EXIT_USAGE;
    }
    return tui_main(ctx);
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    return cli_main(argc, argv, open_dashboard);
}
