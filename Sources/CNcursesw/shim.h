#ifndef IAPSIM_CNCURSESW_SHIM_H
#define IAPSIM_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D_XOPEN_SOURCE, which hides the wide-character API.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <poll.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <ncursesw/curses.h>

// From term.h, which is not included for the many macros it defines.
extern int setupterm(const char *term, int fildes, int *errret);

// Hidden by glibc without _XOPEN_SOURCE.
extern int wcwidth(wchar_t c);

// Swift 6 refuses mutable C globals and cannot import these macros.
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_lines(void) { return LINES; }
static inline FILE *cnc_stdout(void) { return stdout; }
static inline FILE *cnc_stdin(void) { return stdin; }
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline int cnc_key_resize(void) { return KEY_RESIZE; }

// Draws one cell: a (possibly wide) character with attributes and a colour pair.
static inline int cnc_put_cell(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) == ERR) return ERR;
    return mvadd_wch(y, x, &cell);
}

// True when the terminal has gone away (hang-up or error on stdin).
static inline int cnc_stdin_gone(void) {
    struct pollfd fd = { .fd = 0, .events = POLLIN, .revents = 0 };
    if (poll(&fd, 1, 0) < 0) return 1;
    return (fd.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

// 1 when the terminal type can move the cursor (terminfo `cup`), 0 when it cannot (e.g. dumb), -1 when unknown.
static inline int cnc_term_can_address_cursor(const char *term) {
    int err = 0;
    if (setupterm(term, 1, &err) != OK) return -1;
    char *cup = tigetstr("cup");
    return (cup != NULL && cup != (char *)-1) ? 1 : 0;
}

// SIGINT and SIGTERM are noted, not acted on: the main loop restores the terminal and exits with 128 + N.
static volatile sig_atomic_t cnc_signal_caught = 0;
static void cnc_on_signal(int number) { cnc_signal_caught = number; }
static inline void cnc_catch_quit_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cnc_on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}
static inline int cnc_caught_signal(void) { return cnc_signal_caught; }

#endif
