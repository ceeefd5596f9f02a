"""``python -m games.engine simulate`` cannot see the title until it is in
``TITLE_PACKAGES``; its ``simulate`` function plays it once the fixture registers it."""

from __future__ import annotations

import pytest

from games.engine.__main__ import simulate


@pytest.mark.usefixtures("lcdo")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulate_random_and_greedy_for_every_player_count(players: int) -> None:
    data = simulate("la-conquista-del-oeste", players, 4, ["greedy", "random"], "sim")
    assert data["games"] == 4
    assert sum(data["seat_games"].values()) == 4 * players
    # The greedy bot reaches the Pacific; the random one rarely does before the limit.
    assert data["wins"]["greedy"] >= 3
    again = simulate("la-conquista-del-oeste", players, 4, ["greedy", "random"], "sim")
    assert again["scores"] == data["scores"]
