#ifndef IAPSIM_CNCURSESW_SHIM_H
#define IAPSIM_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D_XOPEN_SOURCE, which hides the wide-character API.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <poll.h>
#include <unistd.h>
#include <stdio.h>
#include <ncursesw/curses.h>

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

#endif
