"""What a fresh seed found on the merged session-22 tree (issue #21), against torch:
multinomial allocated its int64 result inside numpy (a MemoryError) where torch's allocator
refuses it first; flip wrapped every dim before looking for a repeat, where torch checks each
dim in turn (so a repeat before an out-of-range dim is named first)."""

import pytest

from tests.oracle import assert_as_torch
from tests.test_badinput_s21fuzzt_oracle import assert_as_torch as expression_as_torch


@pytest.mark.parametrize("call", [
    "L.multinomial(L.ones(2, 3, dtype=L.float16), 2**31, replacement=True)",
    "L.multinomial(L.ones(3), 2**40, replacement=True)",
    "L.multinomial(L.ones(3), 2**40)",
    "L.multinomial(L.ones(0, 3), 2**40, replacement=True).shape",
])
def test_multinomial_allocates_first_as_torch(call: str) -> None:
    expression_as_torch(call)  # (less the allocator's C++ source prefix in torch's message)


@pytest.mark.parametrize("dims", [(0, -3, 3), (3, 0, -3), (0, 0), (1, -2, 5), (-1, 2), ()])
@pytest.mark.parametrize("form", ["L.flip(x, {d})", "x.flip({d})", "x.flip(*{d})"])
def test_flip_checks_each_dim_in_turn_as_torch(form: str, dims: tuple) -> None:
    def program(L):
        x = L.arange(6.).reshape(1, 3, 2)  # noqa: F841 (read by the call)
        return eval(form.format(d=dims))
    assert_as_torch(program)
