"""The titles (games) this site hosts: one folder each, ``titles/<package>/``.

``TITLE_PACKAGES`` is the one list of them. Both sides read it: the rules registry
(``games.engine.get_rules``, Django-free, used by the engine's command line too) imports
each title's pure rules package ``titles.<package>.engine`` (it exports ``RULES``), and the
settings install each ``titles.<package>`` as a Django app (its web side, templates, static
files and translation catalogues). ``python manage.py starttitle <package>`` adds a line.

This module imports nothing: the engine and the settings both read it.
"""

TITLE_PACKAGES: tuple[str, ...] = (
    "colorado_county",
    "la_conquista_del_oeste",
    "colorado_2023",
)
