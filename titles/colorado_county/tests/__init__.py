"""colorado_county: its own tests (engine, web and browser)."""
