"""The live side of a game: what leaves for its sockets through the channel layer
(``broadcast``: the group, the moves' frames, "read your document again", chat)."""
