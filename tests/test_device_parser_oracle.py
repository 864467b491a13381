"""``device(...)`` parses its arguments as torch's parser does, with its two signatures
(``torch.device device`` and ``str type, int index = -1``): one argument fits both (a bad
one gets the invalid-combination listing), two fit the second alone (its own refusals:
multiple values, a type that is no string, an unknown keyword), none or three fit neither."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_CALLS = ["None", "3.5", "[1]", "True", "'cpu', 'x'", "'cpu', 0, 1", "", "'cpu', None",
          "type='cpu'", "type='cpu', index=0", "foo=1", "device='cpu'", "device='cpu:0'",
          "type='cpu', device='cpu'", "'cpu', foo=1", "0, 1", "L.device('cpu')",
          "L.device('cpu'), 0", "'cpu', type='cpu'", "index=0", "'cpu:0', 1", "'cpu', -1",
          "type=L.device('cpu')", "device=L.device('meta')", "'meta', index=None",
          "index=0, foo=1", "type=3, index=0", "'cuda', 0"]


@pytest.mark.parametrize("call", _CALLS)
def test_device_arguments_as_torch(call: str) -> None:
    assert_as_torch(f"R = repr(L.device({call}))")
