"""Colorado County: its rules (``engine/``, pure Python), its web side (forms, board
drawing, log words, templates, scripts), its translations (``locale/``), docs and tests."""

#: Words of this title that no core module, template or script may use (the title's slug,
#: package and name are added to them: ``tests/ops/test_titles_core.py``).
VOCABULARY = r"cowboy|\blakes?\b|\bflags?\b|greedy|valuation|claim_preview|CCBoard"
