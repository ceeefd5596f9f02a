"""Issue 43, trial item 8: the legend said tan means a border cell while the border cells a
player may flag are lit green; it now names both."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.accounts.factories import make_user
from titles.colorado_county.tests.web.tables import human_table

pytestmark = pytest.mark.django_db


def test_the_legend_names_the_green_cells_one_may_play() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = human_table([alice, bob])
    client = Client()
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    legend = html.split('<p class="legend">', 1)[1].split("</p>", 1)[0]
    assert "border cell (corner mark)" in legend
    assert "green: where you may play now (a border cell too)" in legend
    assert 'class="swatch-target"' in legend
