"""Colorado (Joachim Thôme, 2023): its rules (``engine/``, pure Python), its web side (the
sheets and reward board drawn on the server, the action panel, the log's words, the rules
page), its translations (``locale/``), docs and tests."""

#: Words of this title that no core module, template or script may use (its slug and
#: package are added to them: ``tests/ops/test_titles_core.py``).
VOCABULARY = r"nuggets?|\btipi\b|\bsaloon\b|sheriff|road map|standing answer"
