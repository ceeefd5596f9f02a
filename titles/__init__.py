"""The titles' web sides, one Django app per title (``titles/<slug>/``), listed in the
``TITLE_APPS`` setting. The core (``games``, ``accounts``, ``notifications``, ``colorado``)
never imports them: it reaches a title through ``games.titles``."""
