/* The floor for start → first frame → exit: C and ncursesw drawing the same product list. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>

static const char *rows[] = {
    " iapsim · mock App Store                                 user alice · pending 0",
    "  Products                                                     Balance 0 coins",
    "  ▸ 60 Coins           Consumable       A handful of coins        ¥6",
    "    300 Coins          Consumable       A pouch of coins         ¥30",
    "    980 Coins          Consumable       A chest of coins, b…     ¥98",
    "    Remove Ads         Non-consumable   No more banners, fo…     ¥18",
    "    Ink Theme          Non-consumable   A brush-and-ink look     ¥12",
    "    Monthly VIP        Subscription     VIP perks, renews m…     ¥30",
    "    Season Pass        Non-renewing     One season of rewar…     ¥68",
};

int main(void) {
    setlocale(LC_ALL, "");
    initscr();
    for (unsigned i = 0; i < sizeof rows / sizeof *rows; i++) mvaddstr((int)i, 0, rows[i]);
    refresh();
    endwin();
    return 0;
}
