"""Land sales (CC-9): announce, interest, payment or auction, settlement.

While a sale is open (``State.sale``) the rest of the game waits (CC-9.3); ``close_sale``
settles it, re-evaluates the lakes (CC-9.8) and lets the interrupted phase resume
(ruling c), revealing the turn's bids if an emptied hand completes them (ruling a).
"""

from __future__ import annotations

from typing import Any, Final

from . import board
from .lakes import update_lakes
from .rules import check_bids, cowboy_list, draw, uncommitted
from .scoring import rank_masks
from .state import Sale, State, replace_at

Event = dict[str, Any]
ALL: Final = "all"


def sale_possible(s: State) -> bool:
    """CC-9.2: while the round's stack has face-down cards and no sale is open."""
    return s.phase != "over" and bool(s.stack) and s.sale is None


def open_sale(s: State, seat: int, cell: int, ev: list[Event]) -> None:
    s.markers[seat] &= ~(1 << cell)
    s.sale_cards = replace_at(s.sale_cards, seat, s.sale_cards[seat] - 1)
    s.sales_round = replace_at(s.sales_round, seat, s.sales_round[seat] + 1)
    asked = tuple(o for o in s.seats_from(seat) if o != seat and uncommitted(s, o))
    s.sale = Sale(seat, cell, asked, s.n)
    ev.append(
        {
            "type": "sale_opened",
            "visible_to": ALL,
            "seller": seat,
            "cell": board.CELL_NAMES[cell],
            "asked": list(asked),
        }
    )
    if not asked:
        close_sale(s, -1, 0, ev)


def sale_interest(s: State, seat: int, interested: bool, ev: list[Event]) -> None:
    sale = s.open_sale()
    replaced = sale.answers[seat] is not None
    sale.answers[seat] = interested
    ev.append(
        {"type": "sale_interest_declared", "visible_to": ALL, "seat": seat, "replaced": replaced}
    )
    ev.append(
        {"type": "my_sale_interest", "visible_to": [seat], "seat": seat, "interested": interested}
    )
    if any(sale.answers[o] is None for o in sale.asked):
        return
    buyers = sale.interested()
    ev.append({"type": "sale_interest_revealed", "visible_to": ALL, "interested": buyers})
    if not buyers:
        close_sale(s, -1, 0, ev)
    elif len(buyers) == 1:
        sale.stage = "pay"
        sale.buyer = buyers[0]
    else:
        sale.stage = "bid"


def sale_pay(s: State, seat: int, cowboy: int, ev: list[Event]) -> None:
    sale = s.open_sale()
    ev.append(
        {
            "type": "sale_paid",
            "visible_to": [seat, sale.seller],
            "buyer": seat,
            "seller": sale.seller,
            "cowboys": [cowboy],
        }
    )
    close_sale(s, seat, 1 << cowboy, ev)


def sale_bid(s: State, seat: int, mask: int, ev: list[Event]) -> None:
    sale = s.open_sale()
    replaced = sale.sale_bids[seat] is not None
    sale.sale_bids[seat] = mask
    ev.append({"type": "sale_bid_submitted", "visible_to": ALL, "seat": seat, "replaced": replaced})
    ev.append(
        {"type": "my_sale_bid", "visible_to": [seat], "seat": seat, "cowboys": cowboy_list(mask)}
    )
    bidders = sale.interested()
    if any(sale.sale_bids[o] is None for o in bidders):
        return
    bids = [b or 0 for b in sale.sale_bids]
    ranking = [o for o in rank_masks(bids, s.seats_from(sale.seller)) if o in bidders]
    ev.append(
        {
            "type": "sale_bids_revealed",
            "visible_to": ALL,
            "ranking": ranking,
            "bids": [
                {"seat": o, "cowboys": cowboy_list(bids[o]), "rank": i + 1}
                for i, o in enumerate(ranking)
            ],
        }
    )
    close_sale(s, ranking[0], bids[ranking[0]], ev)


def close_sale(s: State, buyer: int, price: int, ev: list[Event]) -> None:
    """CC-9.5..9.8: settle the sale, the seller draws 2, lakes are re-evaluated."""
    sale = s.open_sale()
    seller, cell = sale.seller, sale.cell
    if buyer >= 0:
        s.hands[buyer] &= ~price
        s.hands[seller] |= price
        s.markers[buyer] |= 1 << cell
    s.sale = None
    ev.append(
        {
            "type": "sale_closed",
            "visible_to": ALL,
            "seller": seller,
            "cell": board.CELL_NAMES[cell],
            "buyer": None if buyer < 0 else buyer,
            "outcome": "sold" if buyer >= 0 else "no_buyer",
            "price_count": price.bit_count(),
        }
    )
    draw(s, seller, 2, ev, "sale")
    update_lakes(s, ev, prefer=buyer, clockwise_from=seller, cell=cell)
    check_bids(s, ev)
