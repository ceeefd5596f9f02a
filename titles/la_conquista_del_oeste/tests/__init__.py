"""la_conquista_del_oeste: its own tests (engine, web and browser)."""
