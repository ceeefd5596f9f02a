"""Games, seats and the move log (see docs/ and the game server issue)."""
