"""Fuzz 21, session 17 (fuzz D seeds 5503 and 5504): results and refusals unlike torch's.
Each program runs under torch and minitorch (``L``): the same result ``R``, or the same
exception type and message."""

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch


@pytest.mark.parametrize("attribute", ["T", "mT", "H", "mH"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_transpose_properties_on_every_rank(attribute: str, shape: tuple,
                                            requires_grad: bool) -> None:
    """``x.T`` of a 0-D tensor is a permutation of nothing (torch warns once), ``mT``, ``H``
    and ``mH`` of one the tensor itself; inside vmap a vector's elements are 0-D."""
    assert_as_torch(f"x = L.ones({shape!r}).requires_grad_({requires_grad})\n"
                    f"y = x.{attribute}\nR = (y, y is x)")


def test_transpose_of_vmapped_elements() -> None:
    assert_as_torch("R = L.vmap(lambda x, y: x.T * y, in_dims=(-1, 0))(L.arange(3.), "
                    "L.ones(3))")
