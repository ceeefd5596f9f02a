"""The live side of a game: its sockets (``consumers``: ``/ws/games/<id>/``), what leaves for
them through the channel layer (``broadcast``: the group, the moves' frames, "read your
document again", chat), the frames built from a move (``frames``), a socket's reads
(``reads``) and version watch (``watch``), the seats' seen marks (``seen_marks``) and what
one account may hold of the sockets (``socket_limits``)."""
