"""The title conformance suite: one set of checks, run over every registered title and
seat count (and the test-only title), so a new title is proven without a line here."""
