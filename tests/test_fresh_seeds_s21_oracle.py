"""What fresh fuzz seeds found on the merged session-21 tree (issue #21), against torch:
``div(number, tensor, rounding_mode='trunc')`` failed inside minitorch (a number dividend has
no dtype); ``autograd.grad(..., is_grads_batched=True)`` with the implicit gradient accepted
rows a dim short of the output, which torch's engine refuses; an empty attention whose scores
do not broadcast with a non-empty value returned zeros where torch's product refuses."""

import pytest

from tests.oracle import assert_as_torch


@pytest.mark.parametrize("number", [-2.5, -7, 7, 2.0, True, 0])
@pytest.mark.parametrize("mode", ["trunc", "floor"])
@pytest.mark.parametrize("dtype", ["int16", "int64", "uint8", "float32", "float16", "float64"])
def test_number_divided_by_a_tensor_with_a_rounding_mode(dtype, mode, number):
    def program(L):
        a = L.tensor([[2, -2, 4], [3, 1, 7]], dtype=getattr(L, dtype))
        return L.divide(number, a, rounding_mode=mode)
    assert_as_torch(program)


@pytest.mark.parametrize("shape", [(1, 1), (3,), (), (1,), (3, 1), (1, 1, 1)])
@pytest.mark.parametrize("materialize", [True, False])
def test_implicit_gradient_batched(shape, materialize):
    def program(L):
        x = L.ones(shape, requires_grad=True)
        return L.autograd.grad(x * 2, x, is_grads_batched=True, materialize_grads=materialize)
    assert_as_torch(program)


@pytest.mark.parametrize("shapes", [
    ((0, 3, 4), (5, 4), (2, 5, 4), (3, 5)), ((0, 3, 4), (5, 4), (2, 5, 4), None),
    ((1, 3, 4), (1, 5, 4), (0, 5, 4), None), ((2, 3, 0), (1, 5, 0), (2, 5, 6), None),
    ((0, 3, 4), (2, 5, 4), (2, 5, 4), None), ((1, 3, 4), (2, 5, 4), (2, 5, 0), None),
    ((2, 1, 3, 4), (2, 5, 4), (0, 1, 5, 4), None), ((0, 3, 4), (1, 5, 4), (3, 5, 4), None),
])
def test_empty_attention_broadcastsassert_as_torch(shapes):
    *qkv, mask = shapes

    def program(L):
        q, k, v = (L.ones(s) for s in qkv)
        m = None if mask is None else L.ones(mask, dtype=L.bool)
        return L.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m)
    assert_as_torch(program)
