"""La Conquista del Oeste's web side: board drawing, forms, log words, templates, styles.

Its rules are in ``games/engine/la_conquista_del_oeste/``; this package is what the pages
show.
"""
