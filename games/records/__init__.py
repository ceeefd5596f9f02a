"""What a game leaves on record: ``sealed_moves`` (the sealed moves' rows, written with the
move) and ``commitments`` (their salted hashes), ``export_replay`` (a finished game's export
and replay), ``fairness`` (the check of an export) and ``reliability`` (a player's record
over every table)."""
