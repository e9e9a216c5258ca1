#ifndef IAPSIM_TEXT_WIDTH_H
#define IAPSIM_TEXT_WIDTH_H

#include <stdint.h>

// Columns a code point takes, by the C library's wcwidth in a UTF-8 locale: what ncurses and the terminal use to
// place it, whatever locale the process runs in. -1 for a code point wcwidth does not know (a control, unassigned).
int iapsim_wcwidth(uint32_t scalar);

#endif
