"""The pages show each card's words from the title's catalogue: the English of every card
there is exactly the data file's, and a reader sees them in their own language."""

from __future__ import annotations

from django.utils import translation

from titles.la_conquista_del_oeste.card_words import CARD_WORDS
from titles.la_conquista_del_oeste.engine.data import DATA
from titles.la_conquista_del_oeste.log_words import card_text, card_title


def test_every_cards_words_are_the_data_files() -> None:
    cards = {**DATA.opportunity, **DATA.incident}
    assert set(CARD_WORDS) == set(cards)
    for cid, card in cards.items():
        assert CARD_WORDS[cid] == (card.title, card.text), cid


def test_a_french_reader_reads_the_cards_in_french() -> None:
    with translation.override("fr"):
        assert card_title("inc-12") == "Blizzard"  # the same word in French
        assert card_title("opp-04") == "Pépite d'or"
        assert "500 $" in card_text("opp-04")
        assert "Receive" not in card_text("opp-04")
