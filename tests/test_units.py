"""Numbers as the command line and the window show them."""

from __future__ import annotations

from hypothesis import given, strategies as st

from simgui.core.units import format_share


def test_a_share_reads_as_rounded_but_never_100_unless_it_is():
    assert format_share(87.349) == "87.3"
    assert format_share(99.94) == "99.9"
    assert format_share(99.97) == "99.9"  # not 100.0: 100 % is for identical copies
    assert format_share(99.996, 2) == "99.99"
    assert format_share(100.0) == "100.0"
    assert format_share(0.0) == "0.0"


@given(st.floats(0, 100), st.integers(0, 3))
def test_a_share_below_100_never_reads_100_and_stays_within_a_step(value, digits):
    text = format_share(value, digits)
    assert (float(text) == 100) == (value == 100)
    assert abs(float(text) - value) <= 10 ** -digits + 1e-9
