"""Pairing and scoring, checked against hand computations (docs/tournaments.md)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tournaments import pairing
from tournaments.scoring import TableResult, standings

# No database, task queue or channel layer: CI's embedded run leaves it out.
pytestmark = pytest.mark.modeless


def _duel(winner: int, loser: int, draw: bool = False) -> TableResult:
    return TableResult({winner: 1, loser: 1 if draw else 2})


def test_round_robin_of_two_seat_tables_meets_everyone_once() -> None:
    for n in (4, 5, 6, 7):
        rounds = pairing.round_robin(n, 2)
        assert len(rounds) == (n if n % 2 else n - 1)
        met = [tuple(t) for r in rounds for t in r.tables]
        assert sorted(met) == sorted(combinations(range(n), 2))
        byes = [b for r in rounds for b in r.byes]
        assert sorted(byes) == (list(range(n)) if n % 2 else [])


def test_round_robin_at_larger_tables_covers_every_pair() -> None:
    assert [r.tables for r in pairing.round_robin(4, 4)] == [[[0, 1, 2, 3]]]
    for n, k in ((6, 3), (7, 3), (8, 4), (9, 3)):
        rounds = pairing.round_robin(n, k)
        covered = {p for r in rounds for t in r.tables for p in combinations(sorted(t), 2)}
        assert covered == set(combinations(range(n), 2)), (n, k)
        for r in rounds:
            assert all(len(t) == k for t in r.tables)
            assert len(r.byes) == n % k


def test_swiss_pairs_by_standing_without_rematches_and_gives_the_bye_lowest_first() -> None:
    first = pairing.swiss([0, 1, 2, 3, 4], 2, met={})
    assert first.tables == [[0, 1], [2, 3]]
    assert first.byes == [4]
    # 0 and 1 met already: 0 meets 2, and 1 meets 3; 4 had the bye, so 3 … no: the
    # lowest without one is 3, who sits out.
    second = pairing.swiss([0, 1, 2, 3, 4], 2, met={(0, 1): 1}, byes=[4])
    assert second.byes == [3]
    assert second.tables == [[0, 2], [1, 4]]
    # Backtracking: a greedy top-down pairing would force 2 and 3 to meet again.
    third = pairing.swiss([0, 1, 2, 3], 2, met={(0, 1): 1, (2, 3): 1, (0, 2): 1})
    assert third.tables == [[0, 3], [1, 2]]


def test_swiss_at_larger_tables_swaps_to_avoid_repeat_meetings() -> None:
    plan = pairing.swiss(list(range(6)), 3, met={(0, 1): 1, (0, 2): 1, (1, 2): 1})
    assert all(len(t) == 3 for t in plan.tables)
    repeats = sum(
        1 for t in plan.tables for p in combinations(sorted(t), 2) if p in {(0, 1), (0, 2), (1, 2)}
    )
    assert repeats < 3


def test_knockout_bracket_gives_the_byes_to_the_top_seeds() -> None:
    assert pairing.knockout_first(8) == [[0, 7], [3, 4], [1, 6], [2, 5]]
    assert pairing.knockout_first(6) == [[0], [3, 4], [1], [2, 5]]
    assert pairing.knockout_next([0, 4, 1, 5]) == [[0, 4], [1, 5]]
    assert pairing.knockout_rounds(6) == 3


def test_swiss_standings_and_tie_breaks_by_hand() -> None:
    a, b, c, d = 1, 2, 3, 4
    results = [
        _duel(a, d),
        _duel(b, c, draw=True),  # round 1
        _duel(b, a),
        _duel(c, d),  # round 2
        _duel(a, c),
        _duel(b, d, draw=True),  # round 3
    ]
    lines = standings([a, b, c, d], results, [], seats=2, order="swiss")
    by = {line.entrant: line for line in lines}
    # Points: A 1+0+1, B ½+1+½, C ½+1+0, D 0+0+½.
    assert [by[e].points for e in (a, b, c, d)] == [2, 2, Fraction(3, 2), Fraction(1, 2)]
    # Buchholz: the opponents' points. A: D ½ + B 2 + C 1½ = 4; B: C + A + D = 4;
    # C: B + D + A = 4½; D: A + C + B = 5½.
    assert [by[e].buchholz for e in (a, b, c, d)] == [4, 4, Fraction(9, 2), Fraction(11, 2)]
    # Sonneborn-Berger: A beat D (½) and C (1½) = 2; B drew C (¾), beat A (2), drew D (¼) = 3.
    assert by[a].sonneborn_berger == 2
    assert by[b].sonneborn_berger == 3
    # A and B level on points and Buchholz: B's Sonneborn-Berger puts B first.
    assert [line.entrant for line in lines] == [b, a, c, d]


def test_round_robin_head_to_head_before_sonneborn_berger_by_hand() -> None:
    a, b, c, d = 1, 2, 3, 4
    results = [_duel(a, b), _duel(d, c), _duel(c, a), _duel(b, d), _duel(a, d), _duel(b, c)]
    rr = standings([a, b, c, d], results, [], seats=2, order="round_robin")
    # A 2, B 2, C 1, D 1. A beat B; D beat C, though C's Sonneborn-Berger (beat A: 2) is
    # above D's (beat C: 1).
    assert [line.entrant for line in rr] == [a, b, d, c]
    assert [line.head_to_head for line in rr] == [1, 0, 1, 0]
    swiss = standings([a, b, c, d], results, [], seats=2, order="swiss")
    # By Buchholz (C and D both 5) then Sonneborn-Berger, C comes before D.
    assert [line.entrant for line in swiss][2:] == [c, d]


def test_rank_points_at_a_four_seat_table_and_byes() -> None:
    table = TableResult({1: 1, 2: 2, 3: 2, 4: 4})
    lines = {
        line.entrant: line
        for line in standings([1, 2, 3, 4, 5], [table], [5], seats=4, order="swiss")
    }
    assert [lines[e].points for e in (1, 2, 3, 4)] == [3, Fraction(3, 2), Fraction(3, 2), 0]
    assert lines[5].points == Fraction(3, 2)  # a bye at four-seat tables: the middle
    two_seat = standings([1, 2, 3], [_duel(1, 2)], [3], seats=2, order="swiss")
    assert {line.entrant: line.points for line in two_seat}[3] == 1  # a bye is a win
