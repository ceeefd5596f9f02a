"""La Conquista del Oeste: its rules (``engine/``, pure Python), its web side (board
drawing, forms, log words, templates, styles), its translations (``locale/``), docs and
tests."""

#: Words of this title that no core module, template or script may use (the title's slug,
#: package and name are added to them: ``tests/ops/test_titles_core.py``).
VOCABULARY = (
    r"conquista|\boutfits?\b|sheriff|poker|cardsharp|\boxen\b|revolver|\bwagons?\b"
    r"|roy bean|langtry|\bduels?\b"
)
