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


@pytest.mark.parametrize("call", [
    "L.nn.init.xavier_normal_(L.empty(4, 0, dtype=L.float64), gain=(0.5,))",
    "L.nn.init.xavier_uniform_(L.empty(4, 3), gain=[1])",
    "L.nn.init.xavier_uniform_(L.empty(4, 3), gain='a')",
    "L.optim.LBFGS([L.ones(2, requires_grad=True)], lr=None)",
    "L.optim.LBFGS([L.ones(2, requires_grad=True)], lr='a')",
    "L.nn.init.dirac_(L.empty(3, 2, 2, 0), groups=1.5)",
    "L.nn.init.dirac_(L.empty(4, 2, 3), groups=2.0)",
    "L.nn.init.dirac_(L.empty(4, 2, 3), groups=2)",
])
def test_torch_python_checks_in_its_words(call: str) -> None:
    """torch's Python (init's gain arithmetic, LBFGS's ``0.0 <= lr``, dirac_'s loop over the
    groups) fails in Python's words and order."""
    assert_as_torch(lambda L: eval(call))


@pytest.mark.parametrize("call", [
    "L.nn.functional.pdist(L.tensor([[0., 0.], [3., 4.], [1., 1.]]))",
    "L.nn.functional.pdist(L.ones(2), 2.)", "L.nn.functional.pdist(L.ones(2, 2), p='a')",
    "L.nn.functional.pdist(L.ones(2, 2), 'a')", "L.nn.functional.pdist(L.ones(2, 2), 1, 2)",
    "L.nn.functional.pdist(input=L.ones(3, 2), p=0.5)",
])
def test_functional_pdist_is_torchs(call: str) -> None:
    """``F.pdist`` is ``torch.pdist``, with its parser's words."""
    assert_as_torch(lambda L: eval(call))


@pytest.mark.parametrize("call", [
    "L.linalg.vector_norm(h, dtype=L.float16)", "L.linalg.matrix_norm(h, dtype=L.float16)",
    "L.linalg.matrix_norm(h.double(), ord=1, dtype=L.float32)", "L.norm(h, dtype=L.float16)",
    "L.linalg.vector_norm(h.double(), dtype=L.float32)", "L.linalg.norm(h, dtype=L.float16)",
    "L.linalg.vector_norm(h.half(), dtype=L.float32)", "L.linalg.vector_norm(h, dtype=L.int64)",
    "L.linalg.norm(h, ord='nuc', dtype=L.float16)", "L.norm(h, p='fro', dtype=L.float64)",
    "L.linalg.matrix_norm(h.half(), ord='fro', dtype=L.float32)",
    "L.linalg.norm(L.ones(2, 3, 4, dtype=L.float16), ord='nuc', dim=0)",
    "L.linalg.matrix_norm(L.ones(2, 3, 4, dtype=L.float16), ord=-2, dim=(0, 5))",
    "L.linalg.matrix_norm(L.ones(2, 3, 4, dtype=L.float16), ord=1, dim=(0,))",
])
def test_norm_dtypes_checked_first_as_torch(call: str) -> None:
    """A norm's ``dtype=`` may not narrow its input's (it was taken silently), and a norm of
    singular values refuses half input before its dims, as torch."""
    def program(L):
        h = L.ones(2, 3)  # noqa: F841 (read by the call)
        return eval(call)
    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "1e-45 / L.tensor([0.], dtype=L.float16)", "70000 / L.tensor([2.], dtype=L.float16)",
    "1e-45 / L.tensor([1.], dtype=L.float16)", "7 / L.tensor([2, 4], dtype=L.uint8)",
    "3 / L.tensor([True, False])", "'a' / L.tensor([1.])", "L.tensor([2.]).__rdiv__(3)",
])
def test_number_over_tensor_is_reciprocal_times_number(call: str) -> None:
    """torch's ``number / tensor`` operator is ``tensor.reciprocal() * number``: the number is
    read by the product (in float for a half tensor), not rounded to half first."""
    assert_as_torch(lambda L: eval(call))
