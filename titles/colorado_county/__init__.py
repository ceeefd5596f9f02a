"""Colorado County's web side: forms, board drawing, log words, templates and scripts.

Its rules are in ``games/engine/colorado_county/``; this package is what the pages show.
"""
