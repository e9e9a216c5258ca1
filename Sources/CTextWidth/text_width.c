#define _GNU_SOURCE
#include <locale.h>
#include <wchar.h>
#include "text_width.h"

// One UTF-8 locale for the process, made once: wcwidth answers by LC_CTYPE, and the process's own may be "C" (tests)
// or a non-UTF-8 one (LANG=C), where every non-ASCII character would measure -1.
static locale_t utf8_locale(void) {
    static locale_t locale = (locale_t)0;
    if (locale == (locale_t)0) {
        locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
        if (locale == (locale_t)0) locale = newlocale(LC_CTYPE_MASK, "en_US.UTF-8", (locale_t)0);
    }
    return locale;
}

int iapsim_wcwidth(uint32_t scalar) {
    locale_t utf8 = utf8_locale();
    if (utf8 == (locale_t)0) return -1;
    locale_t previous = uselocale(utf8);
    int width = wcwidth((wchar_t)scalar);
    uselocale(previous);
    return width;
}
