"""max_pool1d checks its input and window as torch's two kernels do: without indices
(``check_max_pool1d``: 2-D or 3-D with only the batch dim empty, each window argument one
int, then the values) and with them (``max_pool1d_with_indices``: its rank range, its own
words for a window argument of another length, then max_pool2d's checks of the input with a
height of one)."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_CALLS = ["x3, 0", "x3, 2, 0", "x3, 2, 1, 2", "x3, 5", "x3, (2, 2)", "x3, 2, (1, 1)",
          "x3, 2, 1, (0, 0)", "x3, 2, 1, -1", "x3, 2, dilation=0", "x3, 2, dilation=(1, 1)",
          "x3, 2, dilation=[]", "x3, 2, 1, []", "x3, 3, 2, 1, ceil_mode=True",
          "L.arange(8).view(1, 2, 4), 2", "x2, 3, 1, 1, 2", "L.zeros(0, 2, 3), 2",
          "L.zeros(2, 0, 3), 2", "L.zeros(1, 2, 0), 2, stride=1", "L.ones(3), 2", "x3, []",
          "x3, 2, []", "x4, 2", "x3.requires_grad_(), 3, 1", "x2, [2]", "x2, 2, [1], [0]"]


@pytest.mark.parametrize("indices", [False, True])
@pytest.mark.parametrize("call", _CALLS)
def test_max_pool1d_checks_as_torch(call: str, indices: bool) -> None:
    assert_as_torch("F = L.nn.functional\nx2 = L.arange(8.).view(2, 4)\n"
                    "x3 = L.arange(8.).view(1, 2, 4)\nx4 = L.arange(8.).view(1, 1, 2, 4)\n"
                    f"R = F.max_pool1d({call}, return_indices={indices})")
