"""The action step (CO-11, CO-12): every seat takes one of the two options of the round's
action type, then any bonus actions the option gave (a played card's type, a leg's
benefit), in any order it likes as long as the newest bonus comes first, and ends with
``done``. All of it is sealed until the last seat is done (``endstep.reveal``)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.engine import IllegalAction

from .cards import card_order, is_card, without
from .data import (
    ACTION_OF,
    RAILWAY,
    REGION,
    REGIONS,
    SALOON_BOXES,
    TIPI_BOXES,
    TIPI_CENTRE,
    WANTED_BOXES,
    WANTED_SECOND_ENTRY_NUGGETS,
    colour_of,
    value_of,
)
from .state import Player

Action = dict[str, Any]
#: The action-step moves; each is sealed until the reveal (``title.SEALED``).
STEP_TYPES = ("take", "buy", "draw", "swap", "tick", "rail", "tipi")


def tickable_legs(p: Player) -> list[str]:
    """Region legs ``p`` may tick: in a region whose flag is ticked, hanging on the flag
    or on a ticked leg (the help page)."""
    out = []
    ticked = set(p.legs)
    for rid in p.flags:
        r = REGION[rid]
        for i, parent in enumerate(r.parents):
            leg = r.leg(i)
            if leg not in ticked and (parent < 0 or r.leg(parent) in ticked):
                out.append(leg)
    return sorted(out)


def kind_legs(p: Player, kind: str) -> int:
    return sum(REGION[leg.partition(".")[0]].kind == kind for leg in p.legs)


def tickable_rail(p: Player) -> list[int]:
    """CO-3: the next railway leg (past the junction, either branch until one is begun),
    if ``p`` has ticked more region legs of its kind than railway legs of that kind."""
    out = []
    for i, leg in enumerate(RAILWAY):
        if i in p.rail or (leg.after >= 0 and leg.after not in p.rail):
            continue
        if leg.after == 2 and any(q in p.rail for q in (3, 6)):
            continue  # one branch only past the junction
        used = sum(RAILWAY[j].kind == leg.kind for j in p.rail)
        if kind_legs(p, leg.kind) > used:
            out.append(i)
    return out


def playable(p: Player, hand: tuple[str, ...]) -> list[str]:
    """Distinct cards of ``hand`` that may be played: not already in the play area."""
    return sorted({c for c in hand if c not in p.area}, key=card_order)


def legal(p: Player) -> list[Action]:
    out: list[Action] = []
    kind = p.pending[0] if p.pending else ""
    if kind == "nugget":
        out.append({"type": "take"})
        out += [{"type": "buy", "card": c} for c in playable(p, p.hand) if value_of(c) <= p.nuggets]
    elif kind == "card":
        out.append({"type": "draw"})
        seen: set[tuple[str, ...]] = set()
        for pair in combinations(sorted(p.hand, key=card_order), 2):
            if colour_of(pair[0]) != colour_of(pair[1]) or pair in seen:
                continue
            seen.add(pair)
            rest = without(p.hand, pair)
            out += [{"type": "swap", "pay": list(pair), "card": c} for c in playable(p, rest)]
    elif kind == "check":
        out += [{"type": "tick", "leg": leg} for leg in tickable_legs(p)]
        out += [{"type": "rail", "leg": i} for i in tickable_rail(p)]
    elif kind == "tipi":
        if p.tipi > 0:
            out.append({"type": "tipi", "dir": "west"})
        if p.tipi < TIPI_BOXES - 1:
            out.append({"type": "tipi", "dir": "east"})
    out.append({"type": "done"})
    return out


def _arrive(p: Player, end: str) -> Player:
    if end in p.ends:
        return p
    return p.with_(ends=(*p.ends, end), arrived=(*p.arrived, end))


def benefit(p: Player, what: str) -> Player:
    """CO-5: what a ticked leg gives, at once."""
    if what in ("nugget", "card", "check"):
        return p.with_(pending=(what, *p.pending))
    if what == "gold":
        return p.with_(nuggets=p.nuggets + 1)
    if what == "tipi":
        if p.tipi < 0:
            return p.with_(tipi=TIPI_CENTRE)
        return p.with_(pending=("tipi", *p.pending))
    if what == "wanted" and p.wanted < WANTED_BOXES:
        p = p.with_(wanted=p.wanted + 1)
        if p.wanted == 2:
            p = p.with_(nuggets=p.nuggets + WANTED_SECOND_ENTRY_NUGGETS)
        return _arrive(p, "wanted") if p.wanted == WANTED_BOXES else p
    if what == "saloon" and p.saloon < SALOON_BOXES:
        p = p.with_(saloon=p.saloon + 1)
        return _arrive(p, "saloon") if p.saloon == SALOON_BOXES else p
    return p


def _play(p: Player, card: str, hand: tuple[str, ...]) -> Player:
    """Put ``card`` from ``hand`` (already less the paid cards) into the play area; its
    colour's action comes next, as a bonus (the help page)."""
    return p.with_(
        hand=without(hand, [card]),
        area=tuple(sorted((*p.area, card), key=card_order)),
        pending=(ACTION_OF[colour_of(card)], *p.pending[1:]),
    )


def _bad(message: str) -> IllegalAction:
    return IllegalAction("illegal_move", message)


def apply(p: Player, action: Action) -> Player:
    """Apply one action-step move (not ``done``) for a seat; ``IllegalAction`` if it is not
    one of ``legal(p)``."""
    kind = action.get("type")
    current = p.pending[0] if p.pending else ""
    rest = p.pending[1:]
    if kind == "take" and current == "nugget":
        return p.with_(nuggets=p.nuggets + 1, pending=rest, log=(*p.log, "take"))
    if kind == "buy" and current == "nugget":
        card = action.get("card")
        if not is_card(card) or card not in playable(p, p.hand):
            raise _bad("You cannot play that card (not in your hand, or already in play).")
        card = str(card)
        if value_of(card) > p.nuggets:
            raise IllegalAction("not_enough_nuggets", "You have too few nuggets for that card.")
        p = p.with_(nuggets=p.nuggets - value_of(card), log=(*p.log, f"buy:{card}"))
        return _play(p, card, p.hand)
    if kind == "draw" and current == "card":
        return p.with_(draws=p.draws + 3, pending=rest, log=(*p.log, "draw"))
    if kind == "swap" and current == "card":
        return _swap(p, action)
    if kind == "tick" and current == "check":
        leg = action.get("leg")
        if leg not in tickable_legs(p):
            raise _bad("That leg cannot be ticked now.")
        leg = str(leg)
        rid, _, index = leg.partition(".")
        region = REGION[rid]
        p = p.with_(legs=tuple(sorted((*p.legs, leg))), pending=rest, log=(*p.log, f"tick:{leg}"))
        if all(region.leg(i) in p.legs for i in range(len(region.parents))):
            p = p.gain(region.points).with_(log=(*p.log, f"region:{rid}"))
        return benefit(p, region.benefits[int(index)])
    if kind == "rail" and current == "check":
        i = action.get("leg")
        if isinstance(i, bool) or i not in tickable_rail(p):
            raise _bad("That railway leg cannot be ticked now.")
        i = int(i)
        leg = RAILWAY[i]
        p = p.with_(rail=(*p.rail, i), pending=rest, log=(*p.log, f"rail:{i}")).gain(leg.points)
        return benefit(p, leg.benefit)
    if kind == "tipi" and current == "tipi":
        step = {"west": -1, "east": 1}.get(str(action.get("dir")))
        if step is None or not 0 <= p.tipi + step < TIPI_BOXES:
            raise _bad("The tipi track goes no further that way.")
        p = p.with_(tipi=p.tipi + step, pending=rest, log=(*p.log, f"tipi:{action['dir']}"))
        if p.tipi == 0:
            return _arrive(p, "tipi_west")
        return _arrive(p, "tipi_east") if p.tipi == TIPI_BOXES - 1 else p
    raise _bad("That is not one of your choices now.")


def _swap(p: Player, action: Action) -> Player:
    pay, card = action.get("pay"), action.get("card")
    if (
        not isinstance(pay, list)
        or len(pay) != 2
        or not all(is_card(c) for c in pay)
        or colour_of(pay[0]) != colour_of(pay[1])
        or not is_card(card)
    ):
        raise _bad("Discard two cards of one colour to play another card.")
    try:
        rest = without(p.hand, pay)
    except ValueError:
        raise _bad("You do not hold the cards you would discard.") from None
    if card not in playable(p, rest):
        raise _bad("You cannot play that card (not in your hand, or already in play).")
    card = str(card)
    p = p.with_(discards=(*p.discards, *pay), log=(*p.log, f"swap:{pay[0]},{pay[1]}:{card}"))
    return _play(p, card, rest)


def all_region_legs() -> int:
    return sum(len(r.parents) for r in REGIONS)
