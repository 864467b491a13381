"""torch.func and forward-AD programs that must print what torch prints: vmap(grad) running
each op once on the batch (its batching rule: the last op's grad_fn, as torch's, where a
per-example loop would end in StackBackward0), and forward-mode tangents through softmax,
log_softmax and reductions with ``dtype=`` (torch's formulas: their dtypes and exact zeros).
"""

from __future__ import annotations

import pytest
import torch

import minitorch as mt
from tests.test_func_s20func_oracle import run

PROGRAMS: dict[str, str] = {}


def program(name: str, source: str) -> None:
    PROGRAMS[name] = source


# ------------------------------------------------------------------ vmap(grad): batching rules
program("vmap grad closure over a plain tensor", """
w = torch.randn(3)
x = torch.randn(4, 3)
r = torch.func.vmap(torch.func.grad(lambda v: (w * v).sin().sum()))(x)
print(r, r.grad_fn, r.requires_grad)
""")
program("vmap grad closure over a leaf: the ops' own nodes", """
w = torch.randn(3, requires_grad=True)
x = torch.randn(4, 3).abs() + 0.5
for f in (lambda v: (w * v).sin().sum(), lambda v: (w * v).exp().sum(),
          lambda v: (w + v).pow(2).sum(), lambda v: (w * v).tanh().sum(),
          lambda v: (w / v).sum(), lambda v: (w * v).relu().sum(),
          lambda v: torch.nn.functional.softmax(w * v, 0)[0],
          lambda v: torch.nn.functional.log_softmax(w * v, 0, dtype=torch.float64)[1],
          lambda v: (w * v).sum() ** 2, lambda v: (w * v).mean(), lambda v: (w * v).sqrt().sum(),
          lambda v: (v.pow(3) * w).sum()):
    g = torch.func.vmap(torch.func.grad(f))(x)
    print(type(g.grad_fn).__name__, g.requires_grad, g)
    g.sum().backward()
    print(w.grad)
    w.grad = None
""")
program("vmap grad: unbatched matrix times batched vector", """
M = torch.randn(2, 3, requires_grad=True)
x = torch.randn(4, 3)
g = torch.func.vmap(torch.func.grad(lambda v: (M @ v).tanh().sum()))(x)
print(type(g.grad_fn).__name__, g)
g.pow(2).sum().backward()
print(M.grad)
y = torch.func.vmap(lambda v: M @ v)(x)
print(y)
print(torch.func.vmap(lambda v: torch.matmul(M, v).sum())(x))
""")

# ------------------------------------------------------------------ forward AD: dtypes
program("forward ad reductions and softmax with dtype=", """
with fwAD.dual_level():
    for primal in (torch.float64, torch.float32, torch.float16):
        x = fwAD.make_dual(torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=primal),
                           torch.tensor([[1.0, 1.0], [1.0, 2.0]], dtype=torch.float64))
        for d in (torch.float32, torch.float64):
            for f in (lambda: x.cumprod(1, dtype=d), lambda: x.prod(dtype=d),
                      lambda: x.prod(0, dtype=d), lambda: x.mean(dtype=d),
                      lambda: x.mean(0, dtype=d), lambda: x.cumsum(0, dtype=d),
                      lambda: x.softmax(0, dtype=d), lambda: x.log_softmax(0, dtype=d),
                      lambda: x.sum(0, dtype=d), lambda: x.nansum(0, dtype=d)):
                p, t = fwAD.unpack_dual(f())
                print(p.dtype, t.dtype, t.tolist())
""")
program("forward ad softmax tangents: torch's formula", """
with fwAD.dual_level():
    for primal in (torch.float64, torch.float32):
        x = fwAD.make_dual(torch.tensor([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]], dtype=primal),
                           torch.tensor([[1.0, 1.0, 1.0], [1.0, 2.0, -3.0]],
                                        dtype=torch.float64))
        for y in (x.softmax(0), x.softmax(1), x.log_softmax(0), x.log_softmax(-1),
                  F.softmax(x, 1, dtype=torch.float32), torch.log_softmax(x, 0),
                  torch.special.softmax(x, 1), torch.special.log_softmax(x, 1)):
            p, t = fwAD.unpack_dual(y)
            print(p.dtype, t.dtype, t.tolist())
""")
program("backward through a dual softmax tangent: exp's result was modified", """
x = torch.tensor([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]], dtype=torch.float64)
w = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
with fwAD.dual_level():
    y = (fwAD.make_dual(x, torch.ones_like(x) * 0.5) * w).log_softmax(1)
    p, t = fwAD.unpack_dual(y)
    print(t)
    t.sum().backward()
""")
program("softmax jacobians through torch.func", """
x = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64)
for f in (lambda v: v.softmax(-1), lambda v: v.log_softmax(0),
          lambda v: F.log_softmax(v * 2, -1), lambda v: torch.softmax(v, -1, dtype=torch.float32)):
    print(torch.func.jacfwd(f)(x))
    print(torch.func.jvp(f, (x,), (torch.ones_like(x),)))
""")
program("reductions with dtype=: one node, gradients in the input's dtype", """
x = torch.tensor([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]], dtype=torch.float64, requires_grad=True)
for f in (lambda: x.prod(1, dtype=torch.float32), lambda: x.prod(dtype=torch.float32),
          lambda: x.cumprod(1, dtype=torch.float32), lambda: x.cumsum(0, dtype=torch.float32),
          lambda: x.mean(dtype=torch.float32), lambda: x.mean(1, dtype=torch.float32)):
    y = f()
    print(y.grad_fn.name(), [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)
    print(g, torch.autograd.grad(g.sum(), x))
with fwAD.dual_level():
    w = torch.randn(2, 3, dtype=torch.float64)
    d = fwAD.make_dual(x.detach(), torch.ones(2, 3, dtype=torch.float64) * 0.5)
    for y in ((d * w).mean(1, dtype=torch.float32), (d * w).cumsum(1, dtype=torch.float32),
              (d * w).prod(1, dtype=torch.float32), (d * w).cumprod(1, dtype=torch.float32)):
        print(fwAD.unpack_dual(y))
""")

# ------------------------------------------------------------------ generate_vmap_rule
program("generate_vmap_rule: saved tensors, shared inputs, in_dims", """
class MulExp(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, w):
        return (x * w).exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        ctx.save_for_backward(x, w, output)
    @staticmethod
    def backward(ctx, g):
        x, w, out = ctx.saved_tensors
        return g * out * w, g * out * x
x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(3, requires_grad=True)
y = torch.func.vmap(MulExp.apply, in_dims=(0, None))(x, w)
print(y)
y.sum().backward()
print(x.grad, w.grad)
z = torch.func.vmap(MulExp.apply, in_dims=(1, 0))(x, w[:, None].expand(3, 4))
print(z.shape, z.grad_fn)
g = torch.func.vmap(torch.func.grad(lambda v: MulExp.apply(v, w).sum()))(x)
print(g)
print(torch.func.vmap(torch.func.grad(lambda v, u: MulExp.apply(v, u).sum(), argnums=1))(x, x))
""")
program("generate_vmap_rule: two outputs", """
class SinCos(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x.sin(), x.cos()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, gs, gc):
        (x,) = ctx.saved_tensors
        return gs * x.cos() - gc * x.sin()
x = torch.randn(3, 2, requires_grad=True)
s, c = torch.func.vmap(SinCos.apply)(x)
print(s, c)
(s * 2 + c).sum().backward()
print(x.grad)
""")

# Left as they are (torch's behaviour in the reason); strict: a fix makes them fail.
KNOWN: dict[str, str] = {}


def program_cases(programs: dict[str, str], known: dict[str, str]) -> list:
    """The names of ``programs``, those in ``known`` marked as strict xfails (their reason:
    torch's behaviour), for ``pytest.mark.parametrize``."""
    return [pytest.param(name, marks=pytest.mark.xfail(reason=known[name], strict=True))
            if name in known else name for name in programs]


def assert_prints_same(source: str) -> None:
    """``source`` prints with minitorch as ``torch`` what it prints with torch."""
    assert run(source, mt) == run(source, torch)


@pytest.mark.parametrize("name", program_cases(PROGRAMS, KNOWN))
def test_program_prints_what_torch_prints(name: str) -> None:
    assert_prints_same(PROGRAMS[name])
