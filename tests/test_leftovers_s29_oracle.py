"""What the session-29 fuzzers found, each a small program run on torch and on minitorch
(``L``) whose outcome, the value of ``R`` or the exception's type and message, must be the
same: the legacy constructors' alias of a tensor, a keyword no overload takes, ``out=``
checked only once the call parses (and out's dtype before the rest by logsumexp and
index_select), F's out= where torch's takes one, unique's order of checks, softmax's
``_stacklevel``, the Chebyshev polynomials' int64 edges and closed forms, and ``copy_``'s
tangent."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

LEAF = "x = L.ones(2, requires_grad=True); "
GRAPH = "x = L.ones(2, requires_grad=True) * 2; "
DUAL = "fa = L.autograd.forward_ad\nwith fa.dual_level():\n    "


@pytest.mark.parametrize("program", [
    # torch's legacy constructors alias a tensor: a view in its graph (minitorch lost the
    # gradient: a new leaf that did not require grad)
    LEAF + "R = L.Tensor(x)",
    LEAF + "y = L.Tensor(x); R = (y.grad_fn.name(), y._base is x, y.is_leaf)",
    GRAPH + "y = L.Tensor(x); R = (y.grad_fn.name(), y._base is x)",
    GRAPH + "y = L.FloatTensor(x); y.sum().backward(); R = y.requires_grad",
    "x = L.ones(2, 1, dtype=L.float64, requires_grad=True); R = L.DoubleTensor(x)",
    LEAF + "R = L.FloatTensor(other=x).grad_fn.name()",
    LEAF + "R = L.ones(2).new(x).grad_fn.name()",
    GRAPH + "y = L.ones(2).new(x); R = (y._base is x, y.requires_grad)",
    "x = L.ones(2); y = L.Tensor(x); y.add_(1); R = (x, y._base is x, y.requires_grad)",
    "x = L.ones(2); R = L.Tensor(x, device='cpu')",
    "R = L.FloatTensor(L.ones(2, dtype=L.float64))",
    "R = L.ones(2).new(L.ones(2, dtype=L.int64))",
    "R = (L.Tensor(), L.Tensor(2, 3).shape, L.Tensor([1, 2]), L.LongTensor([1, 2]))",
    "class P(L.Tensor): pass\nR = type(P(L.ones(2))).__name__",
    "p = L.nn.Parameter(L.ones(2)); R = (type(p).__name__, p.requires_grad, p.is_leaf)",
    # a keyword that no overload takes with that type: a number as scatter's src=
    "R = L.zeros(3).scatter(0, L.tensor([0]), src=2.0)",
    "R = L.scatter(L.zeros(3), 0, L.tensor([0]), src=2.0)",
    "R = L.zeros(3).scatter_(0, L.tensor([0]), src=2.0)",
    "R = L.zeros(3).scatter(0, L.tensor([0]), src=2.0, reduce='add')",
    "R = L.zeros(3).scatter(0, L.tensor([0]), src=L.ones(1))",
    "R = L.zeros(3).scatter(0, L.tensor([0]), value=2.0)",
    "R = L.lerp(L.ones(2), end=1.0, weight=0.5)",
    "R = L.pow(L.ones(2), exponent=2.0)",
    "R = L.clamp(L.ones(2), min=L.zeros(2))",
    "R = L.where(L.ones(2) > 0, L.ones(2), other=2.0)",
    # out= is checked only once torch's parser takes the call
    "R = L.cumprod(L.ones(2, 3, requires_grad=True), dim=1, out=L.ones(2, 3), foo=1)",
    "R = L.cumprod(L.ones(2, 3), 1, 'a', out=L.ones(2, 3, requires_grad=True))",
    "R = L.mean(L.ones(2, 3), 1, True, L.float32, 5, out=L.ones(2, requires_grad=True))",
    "R = L.nansum(L.ones(2, 3), 1, False, L.float32, 3, out=L.ones(2, requires_grad=True))",
    "R = L.empty((2, 3), dtype=L.int64, dimm=1, out=L.ones(2, 3))",
    "R = L.zeros(2, 3, foo=1, out=L.ones(2, 3, requires_grad=True))",
    "R = L.ones((2, 3), 4, out=L.ones(2, 3, requires_grad=True))",
    "R = L.full((2, 3), 4, 5, out=L.ones(2, 3, requires_grad=True))",
    "R = L.arange(0, end=5, step=1, dimm=1, out=L.ones(2, 3, requires_grad=True))",
    "R = L.arange(0, 5, 1, 3, out=L.ones(5, requires_grad=True))",
    # a kernel that checks out's dtype before its other checks: logsumexp's wants a floating
    # out before it reads its dims; index_select's compares it before the indices' range
    "R = L.logsumexp(L.tensor([[1], [2]], dtype=L.uint8), 4, out=L.ones(2, dtype=L.int64))",
    "R = L.logsumexp(L.tensor([3, 1, 2], dtype=L.int32), [0, -1], out=L.ones(2, dtype=L.int64))",
    "R = L.logsumexp(L.ones(2, 3, dtype=L.float64), 1, out=L.ones(2, dtype=L.float16))",
    "R = L.logsumexp(L.ones(2, 3, requires_grad=True), 1, out=L.ones(2, dtype=L.int64))",
    "R = L.index_select(L.ones(2, 3), -2, L.tensor([-4]), out=L.ones(1, 3, dtype=L.int64))",
    "R = L.index_select(L.ones(2, 3), 5, L.tensor([0]), out=L.ones(1, 3, dtype=L.int64))",
    "R = L.index_select(L.ones(2, 3), 0, L.tensor([[0]]), out=L.ones(1, 3, dtype=L.int64))",
    "R = L.index_select(L.ones(2, 3), 0, L.tensor([0.]), out=L.ones(1, 3, dtype=L.int64))",
    "R = L.index_select(L.ones(()), 0, L.tensor([0]), out=L.ones(1, dtype=L.int64))",
    # F's functions that are torch's C functions take out= (normalize's Python one too)
    *(f"o = {out}; R = (L.nn.functional.{call}, o)" for call in (
        "gelu(L.tensor([1., -2.]), approximate='tanh', out=o)",
        "linear(L.ones(2, 3), L.ones(4, 3), L.ones(4), out=o)",
        "logsigmoid(L.tensor([1., -2.]), out=o)", "softplus(L.tensor([1., -2.]), 2., out=o)",
        "softshrink(L.tensor([1., -0.2]), out=o)", "avg_pool2d(L.ones(1, 2, 4, 4), 2, out=o)",
        "avg_pool3d(L.ones(1, 2, 4, 4, 4), 2, out=o)",
        "normalize(L.tensor([[3., 4.]]), out=o)")
      for out in ("L.empty(0)", "L.empty(2, dtype=L.float64)", "L.ones(3, requires_grad=True)",
                  "'zz'")),
    "R = L.nn.functional.linear(L.ones(2, 3, requires_grad=True), L.ones(4, 3), out=L.empty(0))",
    "R = L.nn.functional.logsigmoid(L.ones(2), out=L.empty(0), foo=2)",
    "R = L.nn.functional.normalize(L.ones(2, 3), 2.0, -9, out='a')",
    "R = L.nn.functional.normalize(L.ones(2, 3), 2.0, 2, out=L.ones(2, 3, requires_grad=True))",
    "R = L.nn.functional.normalize(L.tensor([[3., 4.]], requires_grad=True), out=L.empty(1, 2))",
    "R = L.nn.functional.normalize(L.tensor([[3., 4.]]), out=2.0)",
    # an out= of another shape is laid over its storage as torch's resize does: a view that
    # shrinks writes into its base (minitorch gave it new memory, so the base never saw it)
    "x = L.zeros(4); R = (L.add(L.ones(2), 1, out=x[0:3]), x)",
    "x = L.zeros(6); R = (L.add(L.ones(4), 1, out=x[1:2]), x)",
    "x = L.zeros(2, 2); R = (L.add(L.ones(2, 2), 1, out=x.t()), x)",
    "x = L.zeros(0); R = (L.add(L.ones(3), 1, out=x), x)",
    "x = L.zeros(4); v = x[1:3]; v.resize_(3); v.fill_(7); R = x",
    "v = L.ones(3)[:2]; v.resize_(2, 3); R = v.shape",
    # torch's parser checks every argument's type before it unpacks any value (an int past
    # int64 overflows then)
    "R = L.gather(L.tensor([]), 9223372036854775808, L.tensor([True, False]), sparse_grad=1.5)",
    "R = L.scatter_reduce(L.tensor([3, 1, 2], dtype=L.int32), 2 ** 63, L.tensor([-4]), "
    "L.tensor([1., 2.]), 'add', include_self=0)",
    "R = L.ones(3).scatter_reduce(2 ** 63, L.tensor([0]), L.ones(1), 'sum', include_self=0)",
    "R = L.ones(3).index_select(2 ** 63, 'a')",
    "R = L.gather(L.ones(2), 2 ** 63, L.tensor([0]))",
    # cov's weights are tensors; a factory's device= is parsed with out= too
    "R = L.ones(3, 2, dtype=L.float64).t().cov(fweights=False)",
    "R = L.ones(2, 3).cov(aweights=[1, 2, 3])",
    "R = L.cov(L.ones(2, 3), fweights=L.tensor([1, 2, 1]), aweights=2.0)",
    "R = L.zeros(2, 0, out=L.ones(2, 3, 4), device='amax')",
    "R = L.arange(3, out=L.ones(2), device='zz')",
    "R = L.ones(2, out=L.ones(2), device='cpu')",
    # 2**40 pieces of an empty tensor: torch cannot allocate its vector of them (minitorch
    # built them, for hours)
    *(f"x = L.empty(0).as_strided([0, 2 ** 40], [0, 1]); R = {call}" for call in (
        "x.unbind(1)", "x.split(1, 1)", "x.chunk(2 ** 40, 1)", "x.tensor_split(2 ** 40, 1)",
        "L.empty(0).tensor_split(2 ** 40)", "x.unsafe_split(1, 1)", "x.hsplit(2 ** 40)")),
    # the op torch's autograd or parser names: inverse's and take_along_dim's out=, unique's
    # input (its function is Python: torch names the op it calls)
    "R = L.inverse(L.eye(2, requires_grad=True), out=L.ones(2, 2))",
    "R = L.take_along_dim(L.ones(2, 3, requires_grad=True), L.tensor([[0]]), 1, "
    "out=L.ones(2, 1))",
    "R = L.unique(2.5, 2, 0)", "R = L.unique(2.5, dim=0)", "R = L.unique([1, 2])",
    # the accelerators minitorch has not: the parser's types first (non_blocking's too), then
    # the device string as torch reads it, then torch's refusal of the device
    *(f"R = L.ones(2).{kind}({args})" for kind in ("ipu", "xpu", "mtia") for args in (
        "'xy'", "None, 'nearest'", "'cpu'", "'xpu'", "'mtia:1'", "1.5, 'a'", "None, True")),
    # nonzero_static's rows as torch allocates them; the triplet loss reads ndim, as torch's
    # Python
    "R = L.nonzero_static(L.ones(3, 2, dtype=L.float64), size=4611686018427387904)",
    "R = L.nn.functional.triplet_margin_with_distance_loss(2.0, L.ones(2, 1), L.ones(2, 3))",
    # unique's dim: its type, then the flags' types, then its range (as torch's parser)
    "R = L.unique(L.tensor([1., 2, 3, 4]), 1, None, 0, 9223372036854775808)",
    "R = L.unique(L.tensor([1., 2, 3, 4]), 1, None, 0, 'a')",
    "R = L.unique(L.tensor([1., 2, 3, 4]), True, False, False, 2 ** 63)",
    # softmax's _stacklevel goes to warnings.warn, which wants an int (with an implicit dim)
    "R = L.nn.functional.softmax(input=L.zeros(0, dtype=L.int16), _stacklevel=(1+2j))",
    "R = L.nn.functional.log_softmax(L.zeros(2), _stacklevel='a')",
    "R = L.nn.functional.softmin(L.zeros(2), _stacklevel=None)",
    "R = L.nn.functional.softmax(L.zeros(2), 0, _stacklevel=None)",
    # Chebyshev's polynomials: torch's int64 sums at x = ±1 wrap past 2**63, its closed
    # forms meet the degree in x's dtype, and the shifted ones have their own degree cutoffs
    "R = L.special.shifted_chebyshev_polynomial_w(L.tensor([[True], [False]]), "
    "n=4611686018427387904)",
    "R = L.special.chebyshev_polynomial_w(L.tensor([1., -1.]), 2 ** 62)",
    "R = L.special.chebyshev_polynomial_v(L.tensor([1., -1.]), 2 ** 62 + 1)",
    "R = L.special.chebyshev_polynomial_u(L.tensor([1., -1.]), 2 ** 63 - 1)",
    "R = L.special.chebyshev_polynomial_u(L.tensor([0.5], dtype=L.float64), 2 ** 31)",
    "R = L.special.shifted_chebyshev_polynomial_u(L.tensor([0.75]), 2 ** 31)",
    "R = L.special.shifted_chebyshev_polynomial_u(L.tensor([0.5], dtype=L.float64), 7)",
    "R = L.special.shifted_chebyshev_polynomial_w(L.tensor([0.5], dtype=L.float64), 7)",
    "R = L.special.shifted_chebyshev_polynomial_v(L.tensor([0.3], dtype=L.float64), 7)",
    # copy_ into a tensor without a tangent gives it src's tangent as it is: its dtype, its
    # values (minitorch cast it to the destination's dtype and back)
    DUAL + "d = fa.make_dual(L.ones(3, 1, 2), L.full((3, 1, 2), 0.3, dtype=L.float16))\n    "
    "y = L.ones(3, 1, 2); y.copy_(d); R = fa.unpack_dual(y).tangent",
    DUAL + "d = fa.make_dual(L.ones(2, dtype=L.float16), L.full((2,), 0.3, dtype=L.float64))\n"
    "    y = L.ones(2, dtype=L.float16); y.copy_(d); R = fa.unpack_dual(y).tangent",
    DUAL + "d = fa.make_dual(L.ones(3, dtype=L.float64), L.arange(3.) * 0.3)\n    "
    "y = L.zeros(2, 3); y.copy_(d); t = fa.unpack_dual(y).tangent\n    "
    "R = (t, t.stride(), t._base is None)",
    DUAL + "d = fa.make_dual(L.ones(2), L.full((2,), 0.3, dtype=L.float16))\n    "
    "y = fa.make_dual(L.ones(2), L.ones(2)); y.copy_(d); R = fa.unpack_dual(y).tangent",
    DUAL + "d = fa.make_dual(L.ones(2), L.full((2,), 0.3, dtype=L.float16))\n    "
    "y = L.ones(2, 2)[0]; y.copy_(d); R = fa.unpack_dual(y).tangent",
])
def test_as_torch(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("grow", [
    "v.resize_(5)", "v.resize_(2, 3)", "L.add(L.ones(4), 1, out=v)", "L.zeros(5, out=v)"])
def test_a_view_cannot_outgrow_a_base_in_use(grow: str) -> None:
    """torch grows the storage a view shares with its base, for both; numpy cannot grow memory
    that other arrays share, so minitorch refuses where the base is still held (it gave the
    view new memory, which the base never saw), and loses nothing."""
    import minitorch as L

    x = L.arange(3.)
    v = x[1:3]
    with pytest.raises(RuntimeError, match="cannot grow the memory a view shares with its base"):
        eval(grow)
    assert x.tolist() == [0., 1., 2.] and v.tolist() == [1., 2.] and v._base is x
