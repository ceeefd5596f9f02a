"""Events are self-describing: a page can write a log line from the event alone (plus the
players' names), and private data only travels in events addressed to its owner."""

from __future__ import annotations

from typing import Any

from titles.colorado_county.tests.engine.helpers import G, random_move, rng

NAMES = ["Nelly", "Joe", "Daisy", "Bill"]


def nums(values: list[int]) -> str:
    return ", ".join(map(str, values))


def line(e: dict[str, Any]) -> str:
    who = NAMES[e["seat"]] if "seat" in e else ""
    t = e["type"]
    if t == "game_started":
        return f"{e['num_players']} players; {NAMES[e['start_player']]} starts"
    if t == "round_started":
        return f"Round {e['round']} begins; {NAMES[e['start_player']]} starts"
    if t == "flags_dealt":
        return "; ".join(f"{NAMES[int(s)]}: {', '.join(f)}" for s, f in e["flags"].items())
    if t == "flag_placed":
        return f"{who} placed a {e['colour']} flag on {e['cell']}"
    if t == "flag_set_aside":
        return f"{who} set a {e['colour']} flag aside"
    if t == "cards_revealed":
        return "Revealed: " + ", ".join(c["id"] for c in e["cards"])
    if t == "bid_submitted":
        return f"{who} has bid" + (" (nothing, no cowboys)" if e["auto"] else "")
    if t == "my_bid":
        return f"You bid {nums(e['cowboys']) or 'nothing'}"
    if t == "bids_revealed":
        return "; ".join(
            f"{NAMES[b['seat']]} bid {len(b['cowboys'])} cowboys: {nums(b['cowboys'])}"
            f" - {'choice ' + str(b['rank']) if b['claims'] else 'no card'}"
            for b in e["bids"]
        )
    if t == "card_claimed":
        second = f" and {e['second']}" if e["second"] else ""
        return f"{who} took {e['card']} and occupied {e['flag']}{second}"
    if t == "claim_skipped":
        return f"{who} could use no card"
    if t == "lake_owner_changed":
        owner = "nobody" if e["owner"] is None else NAMES[e["owner"]]
        return f"{e['lake']} now belongs to {owner}"
    if t == "cards_discarded":
        return "Discarded: " + ", ".join(c["id"] for c in e["cards"])
    if t == "cowboys_drawn":
        return f"{who} drew {e['count']} cowboys ({e['reason']})"
    if t == "cowboys_drawn_detail":
        return f"You drew {nums(e['cowboys'])}"
    if t == "valuation":
        return f"Round {e['round']} scores: " + ", ".join(
            f"{NAMES[v['seat']]} {v['total']}" for v in e["seats"]
        )
    if t == "flags_removed":
        return f"Flags removed from {', '.join(e['cells'])}"
    if t == "sale_opened":
        return f"{NAMES[e['seller']]} sells {e['cell']}"
    if t == "sale_interest_declared":
        return f"{who} answered"
    if t == "my_sale_interest":
        return "You are " + ("interested" if e["interested"] else "not interested")
    if t == "sale_interest_revealed":
        return "Interested: " + (", ".join(NAMES[p] for p in e["interested"]) or "nobody")
    if t == "sale_bid_submitted":
        return f"{who} has bid for the land"
    if t == "my_sale_bid":
        return f"You bid {nums(e['cowboys'])} for the land"
    if t == "sale_bids_revealed":
        return "; ".join(f"{NAMES[b['seat']]}: {nums(b['cowboys'])}" for b in e["bids"])
    if t == "sale_paid":
        return f"{NAMES[e['buyer']]} paid {NAMES[e['seller']]} cowboy {nums(e['cowboys'])}"
    if t == "sale_closed":
        buyer = "nobody" if e["buyer"] is None else NAMES[e["buyer"]]
        return f"{e['cell']} sold by {NAMES[e['seller']]} to {buyer} for {e['price_count']}"
    if t == "game_over":
        return "Winners: " + ", ".join(NAMES[p] for p in e["winners"])
    raise AssertionError(f"undocumented event type {t}")


PRIVATE = {"my_bid", "cowboys_drawn_detail", "my_sale_interest", "my_sale_bid", "sale_paid"}


def test_every_event_can_be_written_as_a_log_line() -> None:
    seen: set[str] = set()
    for game in range(12):
        s, events = G.setup_events(4, game)
        rnd = rng(game)
        while True:
            for e in events:
                assert line(e)
                seen.add(e["type"])
                if e["type"] in PRIVATE:
                    assert isinstance(e["visible_to"], list)
                else:
                    assert e["visible_to"] == "all"
            if G.is_over(s):
                break
            seat, act = random_move(s, rnd, sell_chance=0.08)
            s, events = G.apply(s, seat, act)
    common = {
        "game_started",
        "round_started",
        "flags_dealt",
        "flag_placed",
        "cards_revealed",
        "bid_submitted",
        "my_bid",
        "bids_revealed",
        "card_claimed",
        "cowboys_drawn",
        "cowboys_drawn_detail",
        "valuation",
        "sale_opened",
        "sale_interest_declared",
        "my_sale_interest",
        "sale_interest_revealed",
        "sale_closed",
        "game_over",
        "lake_owner_changed",
    }
    assert common <= seen


def test_rulebook_style_bid_line() -> None:
    e = {
        "type": "bids_revealed",
        "visible_to": "all",
        "bids": [{"seat": 1, "cowboys": [2, 7, 29, 32], "rank": 1, "claims": True, "draws": 0}],
    }
    assert line(e) == "Joe bid 4 cowboys: 2, 7, 29, 32 - choice 1"
