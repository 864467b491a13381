"""The leftovers of the session-26 fuzzers, each a small program run on torch and on
minitorch (``L``) whose outcome, the value of ``R`` or the exception's type and message, must
be the same: var's parser refusing what is no tensor, the unpoolings' ``input.size()``,
random_split's order of reading, the histograms' allocations, LBFGS's empty history, the
record an ``out=`` of an op without a derivative takes, and ``fill_`` by a tensor."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt

NO_DERIVATIVE_OUT = "x = L.ones(2, requires_grad=True); o = L.empty(2); "


@pytest.mark.parametrize("program", [
    # var reads its input as a Tensor first: torch's parser words the refusal
    "R = L.var(None)",
    "R = L.var(None, 0)",
    "R = L.var('a', (), correction=3)",
    "R = L.var(None, correction=3)",
    "R = L.var(None, 0, 'a')",
    "R = L.var([1., 2.])",
    # the unpoolings ask their input's size()
    "R = L.nn.functional.max_unpool1d('a', L.ones(1, 1, 2, dtype=L.int64), 2)",
    "R = L.nn.functional.max_unpool2d('a', L.ones(1, 1, 2, 2, dtype=L.int64), 2)",
    "R = L.nn.functional.max_unpool1d(np.ones((1, 1, 2)), L.ones(1, 1, 2, dtype=L.int64), 2)",
    # random_split sums the lengths before it measures the dataset, each fraction in turn
    "R = L.utils.data.random_split(True, -3)",
    "R = L.utils.data.random_split(True, [0.5, 0.5])",
    "R = L.utils.data.random_split(True, [1.5, -0.5])",
    "R = L.utils.data.random_split(True, [1, 2])",
    "R = [len(s) for s in L.utils.data.random_split(range(5), [0.5, 0.5])]",
    # the histograms allocate their edges (histogram's before its range is read) and counts
    "R = L.histogram(L.ones(3), 2 ** 62)",
    "R = L.histogram(L.ones(3), 2 ** 62, range=(0., float('inf')))",
    "R = L.histogramdd(L.ones(3, 2), 2 ** 62)",
    "R = L.histogramdd(L.ones(3, 2), [0, 2 ** 62])",
    "R = L.histogramdd(L.ones(3, 2), [2 ** 62, 0])",
    "R = L.histogramdd(L.ones(3, 2), [2, 2 ** 62], range=[0., float('inf'), 0., 1.])",
    "R = L.histogramdd(L.ones(3, 2), [2 ** 40, 2 ** 40])",
    "R = L.histogramdd(L.ones(3, 3), [2 ** 21, 2 ** 21, 2 ** 21])",
    "R = L.histogramdd(L.ones(3, 2).int(), [2, 2 ** 62])",
    # LBFGS drops its oldest pair with list.pop: a history of 0 pops from an empty list
    "p = L.nn.Parameter(L.ones(2)); o = L.optim.LBFGS([p], history_size=0); "
    "R = o.step(lambda: (o.zero_grad(), (l := (p ** 2).sum()), l.backward(), l)[-1])",
    "p = L.nn.Parameter(L.tensor([1., 2.])); o = L.optim.LBFGS([p], history_size=1); "
    "[o.step(lambda: (o.zero_grad(), (l := (p ** 4).sum()), l.backward(), l)[-1]) "
    "for _ in range(3)]; R = p",
    # out= of an op torch gives no derivative: out takes its NotImplemented record
    NO_DERIVATIVE_OUT + "r = L.floor_divide(x, L.ones(2), out=o); "
    "R = (r is o, type(o.grad_fn).__name__, o.requires_grad, o.is_leaf)",
    NO_DERIVATIVE_OUT + "L.heaviside(x, L.ones(2), out=o); R = o.sum().backward()",
    NO_DERIVATIVE_OUT + "L.floor_divide(2, x, out=o); "
    "R = [type(f).__name__ for f, _ in o.grad_fn.next_functions]",
    NO_DERIVATIVE_OUT + "L.floor_divide(L.ones(2), x, out=o); R = o.sum().backward()",
    NO_DERIVATIVE_OUT + "L.conj_physical(x, out=o); "
    "R = (type(o.grad_fn).__name__, [type(f).__name__ for f, _ in o.grad_fn.next_functions])",
    NO_DERIVATIVE_OUT + "L.conj_physical(x, out=o); R = o.sum().backward()",
    NO_DERIVATIVE_OUT + "o = L.empty(3); L.floor_divide(x[None], 1, out=o); "
    "R = (o, o.grad_fn.name())",
    "x = L.ones(2, requires_grad=True); o = L.empty(2)\n"
    "with L.no_grad():\n    L.floor_divide(x, 2, out=o)\nR = o.requires_grad",
    "R = L.floor_divide(L.ones(2), 1, out=L.empty(2, requires_grad=True))",
    # fill_ by a 0-d tensor records FillBackward3 (fill's is FillBackward1)
    "v = L.tensor(2., requires_grad=True); y = L.zeros(3).fill_(v); y.sum().backward(); "
    "R = (type(y.grad_fn).__name__, v.grad)",
    "v = L.tensor(2., requires_grad=True); y = L.zeros(3, requires_grad=True).clone().fill_(v); "
    "R = [type(f).__name__ for f, _ in y.grad_fn.next_functions]",
    "v = L.tensor(2., requires_grad=True); R = type(L.fill(L.zeros(3), v).grad_fn).__name__",
    # sdpa where torch's CPU picks its flash kernel refuses a negative dropout there (its
    # selector turns only a positive one away); elsewhere the math path takes it
    *(f"q = L.ones({q}); R = L.nn.functional.scaled_dot_product_attention(q, {k}, {v}, "
      f"dropout_p=-0.5{extra})" for q, k, v, extra in [
          ("1, 1, 2, 4", "q", "q", ""), ("1, 1, 2, 4", "q", "q", ", is_causal=True"),
          ("1, 1, 2, 4, dtype=L.float64", "q", "q", ""),
          ("1, 1, 2, 4, dtype=L.float16", "q", "q", ""),
          ("1, 1, 2, 4", "L.ones(1, 1, 3, 4)", "L.ones(1, 1, 3, 4)", ""),
          ("1, 1, 2, 4", "q", "q", ", attn_mask=L.ones(2, 2).bool()"),
          ("1, 1, 2, 4", "q", "q", ", attn_mask=L.ones(1, 1, 1, 2)"),
          ("1, 1, 2, 4", "q", "q", ", attn_mask=L.ones(1, 2, 2)"),
          ("1, 1, 2, 4", "q", "L.ones(1, 1, 2, 3)", ""),
          ("2, 1, 2, 4", "L.ones(1, 1, 2, 4)", "L.ones(1, 1, 2, 4)", ""),
          ("1, 1, 2, 4", "L.ones(1, 1, 2, 8)[..., ::2]", "q", ""),
          ("1, 2, 4", "q", "q", ""), ("1, 1, 2, 4, dtype=L.int64", "q", "q", ""),
          ("1, 1, 2, 4, requires_grad=True", "q", "q", "")]),
    # linalg.pinv's hermitian is a bool to its parser
    "R = L.linalg.pinv(L.eye(3), 1, 2)",
    "R = L.linalg.pinv(L.eye(3), L.tensor(1.), 2.0)",
    "R = L.linalg.pinv(L.eye(3), hermitian=2)",
    "R = L.linalg.pinv(L.eye(3), 1, hermitian=2)",
    "R = L.linalg.pinv(L.eye(3), atol=1., hermitian=2)",
    "R = L.linalg.pinv(L.eye(3), 1, np.True_)",
    "R = L.linalg.pinv(L.eye(3), 0.5, True)",
    # diff(out=) refuses a call that does not bind in its own name
    "R = L.diff(L.ones(2, 3), 1, n=(1, 2), dim=1, out=L.ones(2, 3, requires_grad=True))",
    # pdist and cdist of rows of no elements: 0 for every order, inf's too
    "R = L.nn.functional.pdist(L.ones(2, 0), p=float('inf'))",
    "R = L.cdist(L.ones(2, 0), L.ones(3, 0), p=float('inf'))",
    "x = L.ones(3, 0, requires_grad=True); L.nn.functional.pdist(x, p=float('inf')).sum()"
    ".backward(); R = x.grad",
    # a loaded state without "step": only the optimizers whose __setstate__ reads it refuse
    *(f"p = L.ones(2, 2).requires_grad_(); o = L.optim.{name}([p]); sd = o.state_dict(); "
      "sd['state'] = {0: {'exp_avg': L.zeros(2, 2)}}; o.load_state_dict(sd); R = sorted(o.state[p])"
      for name in ("SparseAdam", "LBFGS", "Muon", "Adafactor", "Adam", "SGD")),
    # LBFGS's state keys in torch's order, step after step
    *(f"p = L.tensor([1.0, -2.0, 0.5]).requires_grad_(); o = L.optim.LBFGS([p], max_iter={n}); "
      "c = lambda: (o.zero_grad(), (l := ((p - 0.3) ** 4).sum()), l.backward(), l)[-1]; "
      "R = [(o.step(c), list(o.state_dict()['state'][0]))[1] for _ in range(3)]"
      for n in (1, 20)),
    # a Conv module's padding string refused with torch's set, printed in this process's order
    *(f"R = L.nn.{m}(1, 1, 2, padding='bad')" for m in ("Conv1d", "Conv2d", "Conv3d")),
    # soft_margin_loss's in-place mul_: its shapes before its cast
    "R = L.nn.functional.soft_margin_loss(L.ones(3, 2, dtype=L.int64), L.ones(3, dtype=L.float64))",
    "R = L.nn.functional.soft_margin_loss(L.ones(3, dtype=L.int64), L.ones(2, 3))",
    "R = L.nn.functional.soft_margin_loss(L.ones(2, 3), L.ones(3))",
    # logsumexp's out= sums, logs and adds the maxima in out's dtype (the exponentials in
    # the input's)
    *(f"R = L.logsumexp(L.tensor([[1.5, 2.5], [-1., 0.25]]{given}), -1, out=L.empty(2{into}))"
      for given, into in [(", dtype=L.float16", ""), ("", ", dtype=L.float64"),
                          (", dtype=L.float16", ", dtype=L.float64"), ("", ", dtype=L.float16"),
                          (", dtype=L.int64", ", dtype=L.float64"), ("", ", dtype=L.int64")]),
    "R = L.logsumexp(L.tensor([[1.5, float('inf')]]), 1, True, out=L.empty(1, 1, "
    "dtype=L.float64))",
    # conj_physical_ of a real tensor is an in-place op: a version, ConjPhysicalBackward1 and
    # autograd's refusal of a leaf (or its view) that requires grad
    "R = L.ones(2, 3, requires_grad=True).conj_physical_()",
    "R = L.conj_physical_(L.ones(2, 3, requires_grad=True))",
    "R = L.ones(2, 3, requires_grad=True).expand(2, 3).conj_physical_()",
    "x = L.ones(2, requires_grad=True); y = x * 1; r = y.conj_physical_(); y.sum().backward(); "
    "R = (r is y, y.grad_fn.name(), y._version, x.grad)",
    "x = L.ones(2, requires_grad=True); y = (x * 2)[:1]; y.conj_physical_(); R = y.grad_fn.name()",
    "x = L.ones(2); R = (x.conj_physical_() is x, x._version, "
    "L.ones(1).expand(3).conj_physical_())",
    # the losses' and get_total_norm's first reads, as torch's Python and parser make them
    "R = L.nn.functional.multi_margin_loss('a', 'b')",
    "R = L.nn.functional.multi_margin_loss(L.ones(3), 'a', margin='x')",
    "R = L.nn.functional.gaussian_nll_loss(None, L.ones(3, 2), L.ones(0))",
    "R = L.nn.functional.gaussian_nll_loss(L.ones(3, 2), L.ones(3, 2), L.ones(3))",
    "R = L.nn.functional.gaussian_nll_loss(L.ones(3, 2), L.ones(3, 2), L.ones(2))",
    "R = L.nn.utils.get_total_norm([1.0], norm_type=-0.0, error_if_nonfinite=2.0)",
    "R = L.nn.utils.get_total_norm([L.ones(2), L.ones(2, dtype=L.float64), L.ones(3)])",
    # a Distribution keeps its shapes as given (a custom subclass's tuple stays a tuple);
    # torch's own distributions and their expansions hold Sizes
    "R = L.distributions.Distribution((3,), validate_args=False).batch_shape",
    "R = L.distributions.Distribution([3], [2], validate_args=False).event_shape",
    "R = L.distributions.Distribution((1+2j)).batch_shape",
    "R = L.distributions.ExponentialFamily(event_shape=10 ** 20).event_shape",
    "R = L.distributions.Distribution().batch_shape",
    "R = L.distributions.Normal(L.zeros(3), 1.).expand([2, 3]).event_shape",
    "R = L.distributions.Independent(L.distributions.Normal(L.zeros(2, 3), 1.), 1).batch_shape",
    "R = L.distributions.Wishart(3., covariance_matrix=L.eye(2)).expand([4]).batch_shape",
    "R = L.distributions.OneHotCategorical(L.ones(3)).expand([2]).batch_shape",
    # vmap with out_dims None refuses an output that differs by example: a draw of
    # 'different' randomness makes a batched tensor, though no graph reaches an example
    "R = L.vmap(lambda x: L.rand(2), out_dims=None, randomness='different')(L.ones(3, 2))",
    "R = L.vmap(lambda x: L.randn(2) + 0, out_dims=None, randomness='different', "
    "chunk_size=2)(L.ones(3, 2))",
    "R = L.vmap(lambda x: L.nn.functional.dropout(L.ones(64)), out_dims=None, "
    "randomness='different')(L.ones(3, 2))",  # (64 draws: no two examples alike)
    "R = L.vmap(lambda x: (x * 2, L.rand(2)), out_dims=(0, None), "
    "randomness='different')(L.ones(3, 2))",
    "R = L.vmap(lambda x: (x * 2, L.ones(2)), out_dims=(0, None), "
    "randomness='different')(L.ones(3, 2))",
    "R = L.vmap(lambda x: L.rand(2), out_dims=None, randomness='same')(L.ones(3, 2)).shape",
    # an in-place method's argument types before a stray keyword, as torch's parser
    "R = L.ones(3, 3).triu_((1, 2), foo=1)",
    "R = L.ones(3, 3).triu_(diagonal=(1, 2), dimm=1)",
    "R = L.ones(3, 3).tril_((1, 2), foo=1)",
    "R = L.ones(3, 3).triu_(1, foo=1)",
    "R = L.ones(3, 3).triu_('a', diagonal=2)",
    "R = L.ones(3, 3).fill_diagonal_('a', foo=1)",
    "R = L.ones(3, 3).fill_diagonal_(1, 'a', foo=1)",
    "R = L.ones(3, 3).fill_diagonal_(1, foo=1)",
    # kron views its product as torch's _unsafe_view does: refused where a transposed
    # operand leaves the product's strides unviewable (torch's own refusal)
    "R = L.kron(L.ones(2, 3), L.ones(3, 2).t())",
    "R = L.kron(L.ones(2, 3).t(), L.ones(3, 2))",
    "R = L.kron(L.ones(1, 3, 4, 4), L.ones(1, 3, 4, 4).transpose(-1, -2))",
    "R = L.kron(L.ones(3), L.ones(2, 2).t())",
    "R = L.kron(L.ones(2, 2).t(), L.ones(1))",
    "R = L.kron(L.arange(6.).reshape(2, 3)[:, ::2], L.ones(2))",
    "R = L.kron(L.eye(2), L.ones(2, 2))",
    # torch.norm's Python reads input.layout first
    "R = L.norm(input='a', p=-1)",
    "R = L.norm(None)",
    # every torch.linalg function with out= refuses a call Python cannot bind in torch's
    # name for it (linalg_<name>)
    "R = L.linalg.tensorinv(L.ones(2, 3), (2, 3), 1)",
    "R = L.linalg.tensorinv(L.ones(2, 3), (2, 3), 1, out=L.ones(1))",
    "R = L.linalg.tensorinv(A=L.ones(4))",
    "R = L.linalg.tensorsolve(L.eye(4).reshape(4, 2, 2), L.ones(4), 1, 2)",
    "R = L.linalg.vecdot(L.ones(2), L.ones(2), 1)",
    "R = L.linalg.multi_dot([L.eye(2)], 1)",
    "R = L.linalg.matrix_power(L.eye(2), 2, 3)",
    "R = L.linalg.tensorinv(L.eye(4).reshape(4, 2, 2), ind=1).shape",
    # Variable's flags are read by torch's C parser as unsigned bytes
    *(f"R = L.autograd.Variable(L.ones(2), {flags}).requires_grad" for flags in (
        "None", "1.5", "300", "-1", "'a'", "255", "np.int64(2)", "True, None", "False, 1",
        "volatile=2", "'a', 'b'")),
    # margin_ranking_loss reads dim() and size() as torch's Python; clip_grad_norm refuses a
    # call in its own name
    "R = L.nn.functional.margin_ranking_loss(L.ones(1, 3, 4, 4, dtype=L.int16), L.ones(0, 3), "
    "[1.0, 2.0], None)",
    "R = L.nn.functional.margin_ranking_loss(L.ones(2), L.ones(2, 1), L.ones(2))",
    "R = L.nn.utils.clip_grad_norm([L.ones(2)], 0.5, 1, norm_type=2.)",
    "R = L.nn.utils.clip_grad_norm([L.ones(2)], 1., foo=1)",
    "R = L.nn.utils.clip_grad_norm([L.ones(2)])",
    # Chebyshev polynomials of a huge degree at points where torch takes its closed forms
    # (|x| < 1, x = ±1): no recurrence up to the degree (minitorch ran 2**62 steps)
    "R = L.special.chebyshev_polynomial_u(L.tensor([[0, 1, -1]]), 4611686018427387904)",
    "R = L.special.chebyshev_polynomial_t(L.tensor([0.5, -1., 1., 0.]), 2 ** 62)",
])
def test_as_torch(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("op", ["addcmul", "addcdiv", "addcmul_", "addcdiv_"])
@pytest.mark.parametrize("n", [3, 100])
@pytest.mark.parametrize("value", [1, 0.3, -2.5])
def test_half_addcmul_addcdiv_are_torchs_bits(op: str, n: int, value: float) -> None:
    """float16 addcmul/addcdiv compute in float32 and round once, as torch's opmath kernels
    (minitorch rounded each step in float16: 0.1 + 0.3 * 0.3 * 0.7 gave 0.16309, torch
    0.16296)."""
    rng = np.random.default_rng(n)
    a, b, c = (rng.standard_normal(n).astype(np.float16) for _ in range(3))
    c += np.float16(3)  # (a divisor away from 0)

    def run(L: Any) -> Any:
        x, y, z = (L.tensor(v) for v in (a, b, c))
        return getattr(x, op)(y, z, value=value) if op.endswith("_") else \
            getattr(L, op)(x, y, z, value=value)

    got, want = run(mt).numpy(), run(torch).numpy()
    np.testing.assert_array_equal(got.view(np.int16), want.view(np.int16))
