"""The root of the test suite: ``tests/`` and each title's ``titles/<package>/tests/``.

The shared setup and fixtures live in plugin modules so that every test folder, the titles'
included, gets the same ones: ``tests.fixtures`` (services marks, password hasher, cache
and channel prefixes per test, eager tasks, a real worker, the test-only title),
``tests.games.fixtures`` (users, API clients, a running table) and
``tests.browser.fixtures`` (the ASGI server and Chromium pages).
"""

pytest_plugins = ("tests.fixtures", "tests.games.fixtures", "tests.browser.fixtures")
