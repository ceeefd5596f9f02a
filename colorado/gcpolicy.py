"""The garbage collector's policy in a web process (called at the end of ``colorado.asgi``).

CPython's cycle collector runs a generation-0 pass every 700 net allocations of container
objects, and now and then a full pass over every object the process holds: Django, the
title engines, the sockets, about 170,000 objects in a web worker under the bench's load.
Each pass holds the interpreter lock, so the whole process stops for it. Measured under
the bench (200 players, two workers, docs/benchmarks/history.md "Seventh pass"): 1.7-1.8 s of
collection per worker in a 25 s run, about 0.6 ms of the two workers' CPU per move, and full
passes of 100-250 ms during which every move of that worker waited. Nearly all of it is
wasted: the site's objects are freed by reference counting, and what the collector walks
again and again is what the process loaded at start.

So, once the application is loaded, ``tune()`` moves everything alive into the permanent
generation (``gc.freeze()``: never scanned again) and raises generation 0's threshold to
``WEB_GC_THRESHOLD`` (20,000 by default): a pass every few seconds under load, over young
objects only. ``WEB_GC_THRESHOLD=0`` keeps CPython's defaults.
"""

from __future__ import annotations

import gc

from colorado.env import env_int

DEFAULT_THRESHOLD = 20_000


def tune() -> None:
    threshold = env_int("WEB_GC_THRESHOLD", DEFAULT_THRESHOLD, minimum=0, maximum=10_000_000)
    if not threshold:
        return
    gc.collect()  # what start-up left as garbage is not frozen with the rest
    gc.freeze()
    _, first, second = gc.get_threshold()
    gc.set_threshold(threshold, first, second)
