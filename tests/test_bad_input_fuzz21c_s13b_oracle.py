"""Bad input found by issue #21's third fuzz (seed 2203, session 13) where minitorch refused,
or answered, differently from torch: function transforms over functions returning
non-tensors, nested vmap over an empty batch, gradcheck's order of checks, multi-head
attention's assertions, interpolate's modes and sizes, ``view(dtype)`` and the strides of
empty tensors. Each case runs on torch and on minitorch (``L``) and must end the same.
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

X = "x = L.tensor([1., 2.])\n"
_NON_TENSORS = ["x.sum().item()", "3", "None", "'a'", "(x.sin(), 1.0)",
                "{'a': x.sin(), 'b': None}", "[x.sin(), 'a']", "()", "[]", "((x,), [x, 2])"]


@pytest.mark.parametrize("value", _NON_TENSORS)
@pytest.mark.parametrize("call", [
    "R = L.func.jacfwd(f)(x)", "R = L.func.jacrev(f)(x)", "R = L.func.grad(f)(x)",
    "R = L.func.hessian(f)(x)", "R = L.func.jvp(f, (x,), (x,))",
    "R = L.func.vjp(f, x)[0]", "R = L.func.grad_and_value(f)(x)",
    "R = L.func.jacfwd(f)(L.ones(0))"])
def test_transforms_of_non_tensor_outputs_as_torch(call: str, value: str) -> None:
    """A transform whose function returns a non-tensor (or nothing) says so in torch's words,
    naming jvp for forward mode and vjp for reverse mode (not an internal unpack error)."""
    assert_as_torch(X + f"f = lambda x: {value}\n" + call)


@pytest.mark.parametrize("aux", [*_NON_TENSORS, "x", "(x, [x], {'a': x})"])
@pytest.mark.parametrize("call", [
    "R = L.func.jacfwd(f, has_aux=True)(x)", "R = L.func.jacrev(f, has_aux=True)(x)",
    "R = L.func.grad(f, has_aux=True)(x)", "R = L.func.grad_and_value(f, has_aux=True)(x)",
    "R = L.func.jvp(f, (x,), (x,), has_aux=True)", "R = L.func.vjp(f, x, has_aux=True)[2]"])
@pytest.mark.parametrize("output", ["x.sin().sum()", "x.sin()", "2.0", "x.long()"])
def test_transforms_check_aux_as_torch(call: str, aux: str, output: str) -> None:
    """has_aux=True: the aux holds only tensors, checked before the output (after it for
    grad), in torch's words."""
    assert_as_torch(X + f"f = lambda x: ({output}, {aux})\n" + call)


@pytest.mark.parametrize("body", [
    "x.sum().item()", "x.item()", "float(x.sum())", "int(x.sum())", "x.tolist()",
    "x.sum().tolist()", "x.numpy()", "(x, x.sum().item())", "x.sum(0).item()",
    "1 if x.sum() > 0 else 0", "3", "None", "[x, [x, None]]", "x.mean()", "x.sum(-1)"])
@pytest.mark.parametrize("x", ["L.tensor([[1., 2.], [3., 4.]])", "L.tensor([1., 2.])"])
def test_vmap_reading_numbers_as_torch(body: str, x: str) -> None:
    """Inside vmap, ``.item()``, ``float()``, ``tolist()`` of a batched value are refused as
    torch refuses them; non-tensor outputs get torch's message."""
    assert_as_torch(f"R = L.vmap(lambda x: {body})({x})")
    assert_as_torch(f"R = L.vmap(lambda x: {body}, out_dims=None)({x})")
