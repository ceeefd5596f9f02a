"""Browser tests of this title (headless Chromium; fixtures in tests/browser/fixtures.py)."""
