// The Swift floor for start → first frame → exit: the same product list through the same C shim.
import CNcursesw
import Glibc

let rows = [
    " iapsim · mock App Store                                 user alice · pending 0",
    "  Products                                                     Balance 0 coins",
    "  ▸ 60 Coins           Consumable       A handful of coins        ¥6",
    "    300 Coins          Consumable       A pouch of coins         ¥30",
    "    980 Coins          Consumable       A chest of coins, b…     ¥98",
    "    Remove Ads         Non-consumable   No more banners, fo…     ¥18",
    "    Ink Theme          Non-consumable   A brush-and-ink look     ¥12",
    "    Monthly VIP        Subscription     VIP perks, renews m…     ¥30",
    "    Season Pass        Non-renewing     One season of rewar…     ¥68",
]

setlocale(LC_ALL, "")
initscr()
for (i, row) in rows.enumerated() { mvaddstr(Int32(i), 0, row) }
refresh()
endwin()
