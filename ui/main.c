/*
 * main.c — the program: the command line front end, with the TUI as what
 * `gpuplan` alone opens.  The only file that knows both front ends.
 */
#include <locale.h>

#include "cli/cli.h"
#include "tui.h"

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    return cli_main(argc, argv, tui_main);
}
