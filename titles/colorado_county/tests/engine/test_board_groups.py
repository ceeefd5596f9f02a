"""The board's group counting: the fast ``pairs_and_largest`` (lone cells and pairs by
whole-mask shifts) agrees with ``component_sizes`` on any set of cells."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from titles.colorado_county.engine import board

masks = st.integers(min_value=0, max_value=board.FULL).map(lambda m: m & board.FULL)
sparse = st.tuples(masks, masks).map(lambda pair: pair[0] & pair[1])


@settings(max_examples=400)
@given(st.one_of(masks, sparse))
def test_pairs_and_largest_agree_with_the_group_sizes(mask: int) -> None:
    sizes = board.component_sizes(mask)
    assert sum(sizes) == mask.bit_count()
    assert board.pairs_and_largest(mask) == (sizes.count(2), max(sizes, default=0))
