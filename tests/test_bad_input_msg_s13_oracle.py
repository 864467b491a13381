"""Bad input on which minitorch raised torch's exception type with another message (found by
the differential fuzz of seeds 2202-2203), against live torch. Each case is a small program
run on torch and on minitorch (``L``); its outcome, the value of ``R`` or the exception's type
and message, must be the same.
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch


@pytest.mark.parametrize("d", ["None", "'float64'", "float", "3", "L.ones(1)", "L.int64",
                               "L.bool", "L.float16"])
def test_set_default_dtype_refusals_as_torch(d: str) -> None:
    """A non-dtype default is an "invalid dtype object" first; a dtype that is no floating
    type is refused without that prefix."""
    assert_as_torch(f"try:\n    L.set_default_dtype({d})\nfinally:\n"
                    "    L.set_default_dtype(L.float32)\nR = L.get_default_dtype()")


def test_set_default_dtype_is_positional_only() -> None:
    """torch's ``d`` is positional-only: naming it is Python's error."""
    assert_as_torch("L.set_default_dtype(d=L.float64)")
