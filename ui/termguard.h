/*
 * termguard.h — gives the terminal back when the program aborts while
 * curses has it.
 *
 * The engine's allocation wrappers (src/core/util.c) print a message and
 * abort() on out-of-memory, and a failed assert() aborts too; curses would
 * leave the terminal without echo, in raw mode, on its alternate screen.
 * While the dashboard runs, a SIGABRT handler puts it back with what is
 * async-signal-safe: write(2) of the terminfo strings that leave curses'
 * screen (worked out beforehand) and tcsetattr(3) of the modes saved before
 * curses started (endwin() is not safe in a handler); then it restores the
 * default action and raises the signal again, so the process still dies of
 * SIGABRT.
 *
 * Not here: the other signals.  Curses handles SIGINT, SIGTERM (it cleans
 * up and exits), SIGTSTP and SIGWINCH (KEY_RESIZE) itself, and tui.c
 * restores the terminal at exit() with atexit().
 *
 * Its state is this file's own (a signal handler can reach nothing else).
 */
#ifndef GP_TERMGUARD_H
#define GP_TERMGUARD_H

/* Saves the modes of the terminal on tty_fd, before curses changes them.
 * Returns 0, or -1 when tty_fd is not a terminal (the guard stays off). */
int termguard_save(int tty_fd);
/* Once curses is set up: notes the strings that undo it and installs the
 * handler.  saved_out and saved_err (or -1) are descriptors of the real
 * stdout and stderr, put back on 1 and 2 so the last words reach the user. */
void termguard_arm(int saved_out, int saved_err);
/* Puts the previous SIGABRT action back (curses is about to close). */
void termguard_disarm(void);

#endif
