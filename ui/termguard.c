/*
 * termguard.c — the SIGABRT handler that gives the terminal back
 * (termguard.h).  Everything the handler uses is prepared before it is
 * installed; the handler itself only calls write, tcsetattr, dup2, signal
 * and raise, which POSIX lists as async-signal-safe.
 */
#include "termguard.h"

#include <curses.h>
#include <signal.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static struct {
    int tty;                    /* -1: nothing saved */
    struct termios modes;       /* the terminal as curses found it */
    char undo[256];             /* terminfo strings that leave curses' screen */
    size_t undo_len;
    int out, err;               /* the real stdout and stderr, or -1 */
    int armed;
    struct sigaction previous;
} guard = {.tty = -1, .out = -1, .err = -1};

int termguard_save(int tty_fd)
{
    guard.tty = -1;
    if (!isatty(tty_fd) || tcgetattr(tty_fd, &guard.modes) != 0)
        return -1;
    guard.tty = tty_fd;
    return 0;
}

/* Appends terminfo capability cap (when the terminal has it). */
static void add_cap(const char *cap)
{
    const char *s = tigetstr(cap);
    if (!s || s == (const char *)-1)
        return;
    size_t n = strlen(s);
    if (guard.undo_len + n <= sizeof guard.undo) {
        memcpy(guard.undo + guard.undo_len, s, n);
        guard.undo_len += n;
    }
}

static void put(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, s, n);
        if (k <= 0)
            return;
        s += k;
        n -= (size_t)k;
    }
}

static void on_abort(int sig)
{
    put(guard.tty, guard.undo, guard.undo_len);
    tcsetattr(guard.tty, TCSANOW, &guard.modes);
    if (guard.out >= 0)
        dup2(guard.out, STDOUT_FILENO);
    if (guard.err >= 0)
        dup2(guard.err, STDERR_FILENO);
    static const char msg[] = "gpuplan: aborted\n";
    put(STDERR_FILENO, msg, sizeof msg - 1);
    /* Blocked while the handler runs, the raised signal is delivered with
     * the default action as it returns. */
    signal(sig, SIG_DFL);
    raise(sig);
}

void termguard_arm(int saved_out, int saved_err)
{
    if (guard.tty < 0 || guard.armed)
        return;
    /* Attributes off, the cursor shown, the keypad's own codes off, and
     * back from the alternate screen: what endwin() sends. */
    guard.undo_len = 0;
    add_cap("sgr0");
    add_cap("cnorm");
    add_cap("rmkx");
    add_cap("rmcup");
    guard.out = saved_out;
    guard.err = saved_err;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_abort;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGABRT, &sa, &guard.previous) == 0)
        guard.armed = 1;
}

void termguard_disarm(void)
{
    if (!guard.armed)
        return;
    sigaction(SIGABRT, &guard.previous, NULL);
    guard.armed = 0;
}
