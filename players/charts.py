"""The rating history chart: plain geometry for an inline, server-rendered SVG."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 220
PAD_LEFT = 44
PAD_RIGHT = 12
PAD_TOP = 12
PAD_BOTTOM = 28


@dataclass(frozen=True)
class Tick:
    value: float
    y: float


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float
    index: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: list[Point]
    polyline: str
    ticks: list[Tick]
    left: int
    right: int
    top: int
    bottom: int


def _nice_step(span: float) -> float:
    raw = span / 4 or 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def rating_chart(values: Sequence[float]) -> Chart | None:
    """Chart geometry for shown ratings in order (the start value first); ``None`` if fewer
    than two values. The y axis has round ticks enclosing every value."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    step = _nice_step(max(high - low, 1.0))
    bottom_value = math.floor(low / step) * step
    top_value = math.ceil(high / step) * step
    if top_value == bottom_value:
        top_value += step
    left, right = PAD_LEFT, WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, HEIGHT - PAD_BOTTOM

    def y_of(value: float) -> float:
        return round(
            bottom - (value - bottom_value) / (top_value - bottom_value) * (bottom - top), 1
        )

    n = len(values)
    points = [
        Point(x=round(left + i * (right - left) / (n - 1), 1), y=y_of(v), value=v, index=i)
        for i, v in enumerate(values)
    ]
    ticks = []
    value = bottom_value
    while value <= top_value + step / 1000:
        ticks.append(Tick(value=round(value, 2), y=y_of(value)))
        value += step
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        ticks=ticks,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
    )
