"""APIs that an independent corpus of tutorial programs failed on (issue #20), each against
live torch: the constants ``pi``/``e``/``inf``/``nan``; ``sinh``/``cosh``/``asinh``/``acosh``/
``atanh``; ``nonzero``/``argwhere``; ``diagonal``/``diag``/``diag_embed``; ``nn.LazyLinear``
and ``nn.RNN``.
"""

from __future__ import annotations

import math
from typing import Any

import torch

import minitorch as mt

# ---------------------------------------------------------------------------- 1. constants


def test_constants_are_torch_floats() -> None:
    for name in ("pi", "e", "inf", "nan"):
        got, want = getattr(mt, name), getattr(torch, name)
        assert type(got) is type(want) is float
        assert repr(got) == repr(want)
    x = mt.tensor([0.0, mt.pi / 2])
    assert repr(mt.sin(x)) == repr(torch.sin(torch.tensor([0.0, torch.pi / 2])))
    assert repr(mt.full((2,), mt.inf)) == repr(torch.full((2,), torch.inf))



def test_math_constants_in_formulas() -> None:
    """The corpus' use: a Gaussian density with torch.pi, and masks with torch.inf."""
    def run(L: Any) -> str:
        x = L.linspace(-2, 2, 5)
        pdf = L.exp(-x ** 2 / 2) / math.sqrt(2 * L.pi)
        masked = L.tensor([1.0, 2.0]).masked_fill(L.tensor([True, False]), -L.inf)
        return f"{pdf} {masked} {L.tensor([L.nan]).isnan()} {L.tensor(L.e).log()}"

    assert run(mt) == run(torch)
