"""What built-in nodes show of what they saved, against torch: for each call form the node's
``name()``, the ``_saved_*`` and ``_raw_saved_*`` names its ``dir`` lists, and the value of
each (tensors by value, dtype and shape; ints, tuples, flags and sizes as torch gives them,
a negative int64 argument read back as unsigned). A scan of the public ops found nodes whose
tables were missing, named otherwise, or inherited by name from the wrong class."""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle import assert_as_torch


def _inputs(L: Any) -> dict:
    """The tensors the expressions read, each requiring grad."""
    def leaf(values: Any) -> Any:
        return L.tensor(values, requires_grad=True)

    return {"L": L, "x": leaf([[0.5, -1., 2.], [1.5, 0.25, -0.5]]),
            "y": leaf([[1., 2., 3.], [4., 5., 6.]]),
            "s": leaf([[3., 1., 0.5], [-1., 2., 0.25], [0.5, -0.5, 4.]]),
            "v": leaf([1., -2., 0.5]), "w": leaf([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]]),
            "c": L.tensor([[2., 0.5, -1.], [1., 1., 3.], [0., -2., 1.5]])}  # (no grad)


def _shown(value: Any) -> Any:
    """A saved value as compared: a SavedTensor by its type (its address differs)."""
    return type(value).__name__ if type(value).__name__ == "SavedTensor" else value


def _saved(L: Any, expression: str) -> tuple:
    """The node of ``expression``'s result (its first output where there are several): its
    name, its saved names as ``dir`` lists them, and each one's value."""
    out = eval(expression, _inputs(L))
    while isinstance(out, (tuple, list)):
        out = out[0]
    node = out.grad_fn
    names = sorted(a for a in dir(node) if a.startswith(("_saved_", "_raw_saved_")))
    return node.name(), names, tuple(_shown(getattr(node, a)) for a in names)


VIEWS = [
    "x.t()", "x.mT", "x.transpose(0, 1)", "x.transpose(-1, 0)", "x.swapaxes(0, 1)",
    "w.permute(-1, 0, 1)", "x.unsqueeze(-1)", "x.unsqueeze(0).squeeze(0)",
    "x.unsqueeze(1).squeeze((-2, 0))", "x.unsqueeze(0).squeeze(-3)", "x.clone().squeeze_(-1)",
    "x[0]", "x[-1]", "x[:, 1]", "x[0, -1]", "x[..., 0]", "x[:, 1:]", "x[:, -2:]", "x[::2]",
    "x[:, :-1]", "x[-100:1]", "x[0:100]", "x.select(0, 1)", "x.select(-1, -1)",
    "x.narrow(0, 0, 1)", "x.narrow(-1, -2, 2)", "x.unbind(0)[1]", "x.unbind(-1)[0]",
    "x.split(1)[0]", "x.split(2, -1)[1]", "x.split(5, 1)[0]", "x.split([1, 2], -1)[1]",
    "x.chunk(2, -1)[0]", "x.unsafe_split(1)[0]", "x.tensor_split(2, 1)[1]", "x.hsplit(3)[0]",
    "L.cat([x, y], -1)", "L.stack([x, y], -1)", "L.stack([x, y])",
]


@pytest.mark.parametrize("expression", VIEWS)
def test_a_view_shows_what_it_saved_as_torch(expression: str) -> None:
    """transpose's node listed ``_saved_dims`` for torch's ``_saved_dim0``/``_dim1`` (and
    t()'s, which saves nothing, too); select, slice (indexing, narrow, tensor_split), unbind
    and split showed nothing; negative dims and indices read back wrapped, where torch shows
    the arguments as written (as unsigned int64)."""
    assert_as_torch(lambda L: _saved(L, expression))


RAW = ["x * 2", "2 * x", "x * y", "x / 2", "x.max()", "x.min()"]


@pytest.mark.parametrize("expression", RAW)
def test_each_saved_name_has_its_raw_saved_tensor_as_torch(expression: str) -> None:
    """``_raw_saved_self`` of ``x * 2`` (which saved no self) was None, where torch gives a
    SavedTensor of value None; max()'s and min()'s nodes listed nothing, their saved names
    being set on a base class the node class did not read."""
    assert_as_torch(lambda L: _saved(L, expression))


def test_a_raw_saved_tensor_of_none_refuses_hooks_as_torch() -> None:
    """A SavedTensor of value None refuses hooks in torch's words."""
    def program(L: Any) -> Any:
        node = (L.ones(2, requires_grad=True) * 2).grad_fn
        return node._raw_saved_self.register_hooks(lambda t: t, lambda t: t)

    assert_as_torch(program)


PRODUCTS = [
    "x @ y.t()", "x.mm(s)", "x.mm(c)", "c.mm(x.t())", "x.matmul(s.t())",
    "L.nn.functional.linear(x, y)", "L.nn.functional.linear(x, s, v)", "L.addmm(s, s, c)",
    "L.addmm(c, c, s.t(), beta=2, alpha=0.5)", "L.addmv(v, s, v)", "L.addmv(v, c, v, beta=3)",
    "L.addr(s, v, v, alpha=2)", "L.baddbmm(w, w, w.mT)", "L.addbmm(w[0], w, w, beta=0.5)",
]


@pytest.mark.parametrize("expression", PRODUCTS)
def test_a_matrix_product_shows_what_it_saved_as_torch(expression: str) -> None:
    """mm's and addmm's nodes lacked torch's ``_saved_*_sym_sizes`` and ``_sym_strides``
    (the strides only of an operand whose gradient is wanted, else ``()``) and addmm's
    alpha and beta; addmv, addr, baddbmm and addbmm showed nothing, and saved both operands
    where torch saves each only for the other's gradient."""
    assert_as_torch(lambda L: _saved(L, expression))


REDUCTIONS_AND_POINTWISE = [
    "x.sum(-1)", "x.sum((-1, 0), keepdim=True)", "x.mean(-1)", "x.mean([0, -1])",
    "x.max(-1)[0]", "x.min(0, keepdim=True)[0]", "x.amax()", "x.amax(-1)",
    "x.amin((0, 1), keepdim=True)", "x.atan2(y)", "x.hypot(y)", "x.fmax(y)", "x.fmin(y)",
    "x.logaddexp(y)", "x.logaddexp2(y)", "x.copysign(y)", "x.xlogy(y)", "x.clamp_min(0)",
    "x.clamp_max(1)", "x.maximum(y)", "x.addcmul(y, y, value=2)", "x.sort()[0]",
    "x.sort(0, descending=True)[0]", "x.topk(2)[0]", "x.topk(1, -2)[0]", "x.H",
]


@pytest.mark.parametrize("expression", REDUCTIONS_AND_POINTWISE)
def test_a_reduction_or_binary_op_shows_what_it_saved_as_torch(expression: str) -> None:
    """A reduction's negative dims read back wrapped (torch: as written, unsigned); amax and
    amin lacked dim and keepdim; atan2, hypot, fmax, fmin, logaddexp(2), xlogy showed self
    under ``_saved_other`` and other under ``_saved_self``, copysign the other operand as its
    result; clamp_min and clamp_max listed both bounds; sort and topk lacked the input's
    sizes and showed their dim wrapped; ``x.H`` showed dims 0 and 1 (torch: -2, -1)."""
    assert_as_torch(lambda L: _saved(L, expression))


@pytest.mark.parametrize("fn", ["addr", "addmv"])
def test_an_operand_whose_gradient_is_not_wanted_is_not_saved_as_torch(fn: str) -> None:
    """addr and addmv saved both operands: an in-place change of the one torch does not
    save (only the other's gradient reads it) was refused at backward."""
    def program(L: Any) -> Any:
        a = L.ones(3, requires_grad=True)
        first = a * 1
        second = L.ones(3) if fn == "addr" else L.ones(3, 3)
        out = L.addr(L.zeros(3, 3), first, second) if fn == "addr" else \
            L.addmv(L.zeros(3), second, first)
        first.add_(1)
        out.sum().backward()
        return a.grad

    assert_as_torch(program)
