"""A second, wider catalogue of bad-input calls for the fuzzer of ``badinput.py``: the parts
of the public API the first catalogue leaves out (more creation functions, torch.* functions
and Tensor methods, in-place ops on leaves, dtype promotion, numpy values as arguments,
keyword misuse, nn layers, losses, optimizers, autograd.grad/backward/Function/hooks and
forward AD). Its pools add tensors with nan/inf, leaves that require grad, 0-d integer
tensors and numpy arrays and scalars.

Run it by hand for the numbers::

    python tests/badinput.py --catalogue wide --seed 200 --calls 3000

>>> from badinput import fuzz
>>> counts, _ = fuzz(seed=0, calls=20, catalogue=WIDE_CALLS)
>>> sum(counts.values())
20
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from badinput import DIMS, DTYPES, FLAGS, INTS, NUMBERS, SIZES, TENSORS, _const, _tensor


def _special(values: list, dtype: str = "float32", grad: bool = False) -> Callable[[Any], Any]:
    def make(L: Any) -> Any:
        return L.tensor(values, dtype=getattr(L, dtype), requires_grad=grad)

    make.__name__ = f"tensor({values}, {dtype}{', grad' if grad else ''})"
    return make


def _leaf(shape: tuple) -> Callable[[Any], Any]:
    make = _tensor(shape, "float32", requires_grad=True)
    make.__name__ = f"leaf{shape}"
    return make


MORE_TENSORS = [
    *TENSORS, _special([1.0, math.nan, math.inf]), _special([-math.inf, 0.0, -0.0], "float64"),
    _special([2 ** 62, -3, 0], "int64"), _special(5, "int64"), _special(True, "bool"),
    _special([[True, False, True], [False, False, True]], "bool"),
    _leaf((3,)), _leaf((2, 3)), _leaf(()), _special([0.5, 2.0, 3.0], grad=True)]
NUMPY_VALUES = [_const(v) for v in (
    np.float32(2.5), np.float64(-1.0), np.int32(3), np.int64(-2), np.bool_(False),
    np.array(2.0), np.array([1.0, 2.0, 3.0]), np.array([1, 2, 3], dtype=np.int32),
    np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32), np.array([True, False]),
    np.array([1 + 1j]), np.uint8(3), np.float16(1.5))]
MORE_NUMBERS = NUMBERS + NUMPY_VALUES + [_const(v) for v in (-0.0, 2 ** 62, 3, 0.5, 1e-9)]
MORE_INDICES = [_const(v) for v in (
    (slice(None), 0), (0, slice(None)), (Ellipsis, 0), (0, Ellipsis, 0), (slice(5, 1),),
    (slice(-10, 10),), ([0, 0], [1, 2]), [[0, 1], [1, 0]], [-1, 0], [True, False, True],
    [[True, False, True], [False, False, True]], (None, None), (0, None, 0), (Ellipsis,),
    (Ellipsis, Ellipsis), np.array([0, 1]), np.array([True, False]), np.int32(0),
    np.bool_(True), np.array(1), (1, [0, 1]), ([0, 1], slice(None), 0), -1.0, "0", b"0",
    (), [], [[]], slice(np.int64(0), np.int64(2)), slice(None, None, True))] + [
    lambda L: L.tensor([[0, 1], [1, 0]]), lambda L: L.tensor(True),
    lambda L: L.tensor([-3, 2]), lambda L: L.tensor([], dtype=L.int64),
    lambda L: L.tensor([[True, False, True], [False, True, True]]),
    lambda L: L.tensor(0.0), lambda L: (L.tensor([0, 1]), L.tensor([1, 2]))]
LOSS_NAMES = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
              "binary_cross_entropy_with_logits", "nll_loss", "cross_entropy"]
REDUCTIONS = [_const(v) for v in ("mean", "sum", "none", "bad", None, 1, True)]
OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]
OPTIMIZER_KWARGS = [_const(v) for v in (
    {"lr": -1.0}, {"lr": 0.1, "momentum": -0.5}, {"lr": 0.1, "weight_decay": -1},
    {"lr": 0.1, "nesterov": True}, {"lr": 0.1, "betas": (1.5, 0.9)},
    {"lr": 0.1, "betas": (0.9, -0.1)}, {"lr": 0.1, "eps": -1e-8}, {"lr": 0.1, "alpha": -1},
    {"lr": 0.1, "lr_decay": -1}, {"lr": "a"}, {"lr": math.nan}, {"lr": 0.1, "foo": 1},
    {"lr": 0.1, "betas": 0.9}, {"lr": 0.1}, {}, {"lr": 0.1, "momentum": 0.9, "dampening": 0.5,
                                                 "nesterov": True},
    {"lr": 0.1, "amsgrad": True}, {"lr": 0.1, "maximize": True}, {"lr": 0}, {"lr": True})]
PARAMS = [lambda L: [L.ones(2, requires_grad=True)], _const([]),
          lambda L: L.ones(2, requires_grad=True), lambda L: [L.ones(2, requires_grad=True) * 2],
          lambda L: [L.ones(2)], lambda L: [{"params": [L.ones(2, requires_grad=True)]}],
          lambda L: [{"lr": 0.1}], _const([3]), lambda L: [L.ones(2, dtype=L.int64)],
          lambda L: (lambda p: [p, p])(L.ones(2, requires_grad=True))]
KWARGS = [_const(v) for v in ({}, {"foo": 1}, {"dtype": None}, {"requires_grad": 1},
                               {"out": None}, {"dim": 0}, {"keepdim": True}, {"axis": 0})]


# ---------------------------------------------------------------------------- autograd
def _function(L: Any, kind: str) -> Any:
    """A custom Function whose forward or backward misbehaves as ``kind`` says."""

    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            if kind == "save int":
                ctx.save_for_backward(3)
            elif kind == "save":
                ctx.save_for_backward(a, b)
            elif kind == "non-diff input":
                ctx.mark_non_differentiable(b)
            if kind == "returns int":
                return 3
            if kind == "returns input":
                return a
            return a * b

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            results = {"one grad": (g,), "three grads": (g, g, g), "wrong shape": (g[:1], g),
                       "int grad": (3, g), "wrong dtype": (g.double(), g), "save": (g, g),
                       "list": [g, g], "none": None}
            if kind == "save":
                a, b = ctx.saved_tensors
                return g * b, g * a
            return results.get(kind, (g, g))

    a, b = L.ones(2, requires_grad=True), L.ones(2, requires_grad=True)
    out = F.apply(a, b)
    if kind == "save":
        b.detach().add_(1)  # a saved input changed: backward must refuse
    out.sum().backward()
    return a.grad


FUNCTION_KINDS = [_const(k) for k in ("one grad", "three grads", "wrong shape", "int grad",
                                      "wrong dtype", "save int", "returns int",
                                      "returns input", "non-diff input", "save", "list",
                                      "none", "fine")]


def _backward_gradient(L: Any, t: Any, gradient: Any) -> Any:
    x = t.detach().float().requires_grad_()
    (x * 2).backward(gradient)
    return x.grad


def _grad_outputs(L: Any, t: Any, grad_output: Any) -> Any:
    x = t.detach().float().requires_grad_()
    return L.autograd.grad(x * 2, x, grad_outputs=grad_output)


def _twice(L: Any, retain: Any) -> Any:
    x = L.ones(2, requires_grad=True)
    y = (x.exp() * 2).sum()
    y.backward(retain_graph=retain)
    y.backward()
    return x.grad


def _modified(L: Any, op: str) -> Any:
    x = L.ones(3, requires_grad=True)
    y = x * 2
    z = {"exp": y.exp, "sigmoid": y.sigmoid, "mul": lambda: y * y, "pow": lambda: y ** 2,
         "relu": y.relu, "add": lambda: y + 1}[op]()
    y.add_(1)
    z.sum().backward()
    return x.grad


def _assign_grad(L: Any, t: Any, value: Any) -> Any:
    x = t.detach().clone()
    x.grad = value
    return x.grad


def _inplace_leaf(L: Any, t: Any, op: str, grad: Any) -> Any:
    x = t.detach().clone().requires_grad_(grad)
    {"add_": lambda: x.add_(1), "zero_": x.zero_, "fill_": lambda: x.fill_(2),
     "mul_": lambda: x.mul_(2), "setitem": lambda: x.__setitem__(0, 1) if x.dim() else None,
     "relu_": x.relu_, "clamp_": lambda: x.clamp_(0, 1), "exp_": x.exp_,
     "copy_": lambda: x.copy_(L.zeros(x.shape)), "no_grad add_": lambda: _no_grad(L, x)}[op]()
    return x


def _no_grad(L: Any, x: Any) -> Any:
    with L.no_grad():
        return x.add_(1)


def _forward_ad(L: Any, t: Any, tangent: Any, inside: bool) -> Any:
    fwAD = L.autograd.forward_ad
    if not inside:
        return fwAD.make_dual(t, tangent)
    with fwAD.dual_level():
        dual = fwAD.make_dual(t, tangent)
        out = (dual * 2).sin()
        primal, tan = fwAD.unpack_dual(out)
        return primal, tan


def _hook_on(L: Any, t: Any, fn: Any) -> Any:
    return t.register_hook(fn) is not None


def _grad_unused(L: Any, allow: Any, materialize: Any) -> Any:
    x, z = L.ones(2, requires_grad=True), L.ones(2, requires_grad=True)
    return L.autograd.grad((x * 2).sum(), [x, z], allow_unused=allow,
                           materialize_grads=materialize)


def _autograd_backward(L: Any, tensors: str, grads: str) -> Any:
    x = L.ones(2, requires_grad=True)
    y = x * 3
    t = {"y": y, "list": [y, y.sum()], "sum": y.sum(), "int": 3, "leaf": L.ones(2)}[tensors]
    g = {"none": None, "ones": L.ones(2), "list": [L.ones(2), None], "bad shape": L.ones(3),
         "double": L.ones(2, dtype=L.float64), "scalar": L.tensor(1.0), "int": 2}[grads]
    L.autograd.backward(t, g)
    return x.grad


# ---------------------------------------------------------------------------- nn
def _layer(L: Any, name: str, args: tuple, x: Any) -> Any:
    layer = getattr(L.nn, name)(*args)
    return layer(x) if x is not None else type(layer).__name__


LAYERS = [_const(v) for v in (
    ("Linear", (3, 2)), ("Linear", (0, 2)), ("Linear", (3, 2.5)), ("Linear", (3, "a")),
    ("Conv2d", (1, 2, 3)), ("Conv2d", (1, 2, 0)), ("Conv2d", (1, 2, 3, 0)),
    ("Conv2d", (1, 2, 3, 1, -1)), ("Conv2d", (2, 2, 3, 1, 0, 1, 3)), ("Conv2d", (0, 2, 1)),
    ("MaxPool2d", (2,)), ("MaxPool2d", (0,)), ("MaxPool2d", (3, 1, 2)), ("AvgPool2d", (2,)),
    ("AvgPool2d", (-1,)), ("BatchNorm1d", (3,)), ("BatchNorm1d", (0,)), ("BatchNorm2d", (2,)),
    ("Dropout", (1.5,)), ("Dropout", (-0.1,)), ("Dropout", ("a",)), ("Dropout", (0.5,)),
    ("Softmax", (5,)), ("Softmax", (None,)), ("LogSoftmax", (1.5,)), ("Flatten", (3, 0)),
    ("Flatten", ()), ("ReLU", (True,)), ("Sigmoid", ()), ("Tanh", (1,)), ("Identity", (5,)),
    ("Sequential", (3,)), ("Sequential", ()), ("MSELoss", ("bad",)), ("Parameter", (3,)),
    ("Parameter", ())) ]
LAYER_INPUTS = [_const(None), *TENSORS,
                lambda L: L.ones(2, 1, 4, 4), lambda L: L.ones(1, 4, 4),
                lambda L: L.ones(2, 2, 5, 5), lambda L: L.ones(2, 3, dtype=L.float64)]


def _loss(L: Any, name: str, a: Any, b: Any, reduction: Any) -> Any:
    return getattr(L.nn.functional, name)(a, b, reduction=reduction)


def _module_misuse(L: Any, kind: str) -> Any:
    m = L.nn.Linear(2, 2)
    if kind == "load missing":
        return m.load_state_dict({"weight": L.ones(2, 2)})
    if kind == "load shape":
        return m.load_state_dict({"weight": L.ones(3, 2), "bias": L.ones(2)})
    if kind == "load extra":
        return m.load_state_dict({"weight": L.ones(2, 2), "bias": L.ones(2), "x": L.ones(1)})
    if kind == "param name dot":
        return m.register_parameter("a.b", None)
    if kind == "param not parameter":
        return m.register_parameter("p", L.ones(2))
    if kind == "param int name":
        return m.register_parameter(3, None)
    if kind == "buffer name":
        return m.register_buffer("", L.ones(2))
    if kind == "weight = tensor":
        m.weight = L.ones(2, 2)
        return None
    if kind == "add_module":
        return m.add_module("x", 3)
    if kind == "train str":
        return m.train("yes")
    if kind == "forward no args":
        return m()
    return m.zero_grad(set_to_none="x")


MODULE_MISUSES = [_const(k) for k in (
    "load missing", "load shape", "load extra", "param name dot", "param not parameter",
    "param int name", "buffer name", "weight = tensor", "add_module", "train str",
    "forward no args", "zero_grad")]


def _optimizer(L: Any, name: str, params: Any, kwargs: dict) -> Any:
    opt = getattr(L.optim, name)(params, **kwargs)
    return type(opt).__name__


def _step(L: Any, name: str, kwargs: dict) -> Any:
    p = L.nn.Parameter(L.tensor([1.0, -2.0]))
    opt = getattr(L.optim, name)([p], **kwargs)
    for _ in range(2):
        opt.zero_grad()
        (p * p).sum().backward()
        opt.step()
    return p.detach()


# ---------------------------------------------------------------------------- the catalogue
def _m(name: str) -> Callable[..., Any]:
    """``x.name(*args)``."""
    return lambda L, t, *a: getattr(t, name)(*a)


def _f(name: str) -> Callable[..., Any]:
    """``L.name(*args)``."""
    return lambda L, *a: getattr(L, name)(*a)


T, N, D, F, Z = MORE_TENSORS, MORE_NUMBERS, DIMS, FLAGS, INTS
WIDE_CALLS: dict[str, tuple[Callable[..., Any], list]] = {
    # creation
    "full_like(x, fill, dtype)": (lambda L, t, v, d: L.full_like(t, v, dtype=d), [T, N, DTYPES]),
    "empty_like(x).shape": (lambda L, t: L.empty_like(t).shape, [T]),
    "rand_like(x).shape": (lambda L, t: L.rand_like(t).shape, [T]),
    "randn_like(x, dtype).shape": (lambda L, t, d: L.randn_like(t, dtype=d).shape,
                                   [T, DTYPES]),
    "randint(low, high, size).shape": (lambda L, a, b, s: L.randint(a, b, s).shape,
                                       [Z, Z, SIZES]),
    "randint(high, size).shape": (lambda L, b, s: L.randint(b, s).shape, [N, SIZES]),
    "randperm(n).shape": (lambda L, n: L.randperm(n).shape, [Z]),
    "linspace(a, b, steps)": (_f("linspace"), [N, N, Z]),
    "logspace(a, b, steps)": (_f("logspace"), [N, N, Z]),
    "zeros(size, dtype, requires_grad)": (
        lambda L, s, d, r: L.zeros(*s, dtype=d, requires_grad=r), [SIZES, DTYPES, F]),
    "tensor(data, requires_grad)": (lambda L, x, r: L.tensor(x, requires_grad=r),
                                    [[*NUMPY_VALUES, _const([1, 2]), _const([1.5])], F]),
    "tensor(numpy, dtype)": (lambda L, x, d: L.tensor(x, dtype=d), [NUMPY_VALUES, DTYPES]),
    "from_numpy(array)": (_f("from_numpy"), [NUMPY_VALUES]),
    "eye(n, dtype)": (lambda L, n, d: L.eye(n, dtype=d), [Z, DTYPES]),
    "normal(mean, std, size).shape": (lambda L, m, s, z: L.normal(m, s, z).shape, [N, N, SIZES]),
    "bernoulli(x).shape": (lambda L, t: L.bernoulli(t).shape, [T]),
    "ones(kwargs)": (lambda L, k: L.ones(2, **k), [KWARGS]),
    "ones(size=)": (lambda L, s: L.ones(size=s), [SIZES]),
    "full(size, fill, dtype positional)": (lambda L, v, d: L.full((2,), v, d), [N, DTYPES]),
    # torch.* functions
    "add(x, y, alpha)": (lambda L, a, b, al: L.add(a, b, alpha=al), [T, T + N, N]),
    "sub(x, number, alpha)": (lambda L, a, b, al: L.sub(a, b, alpha=al), [T, N, N]),
    "mul(x, number)": (_f("mul"), [T, N]),
    "div(x, y)": (_f("div"), [T, T + N]),
    "pow(x, y)": (_f("pow"), [T, T + N]),
    "where(c, x, y)": (_f("where"), [T, T + N, T + N]),
    "clamp(x, min=, max=)": (lambda L, t, a, b: L.clamp(t, min=a, max=b), [T, T + N, N]),
    "maximum(x, number)": (_f("maximum"), [T, N]),
    "dot(x, y)": (_f("dot"), [T, T]),
    "matmul(x, y)": (_f("matmul"), [T, T]),
    "addmm(bias, a, b)": (_f("addmm"), [T, T, T]),
    "addmm(bias, a, b, beta, alpha)": (
        lambda L, c, be, al: L.addmm(c, L.ones(2, 3), L.ones(3, 3), beta=be, alpha=al),
        [T, N, N]),
    "index_add(x, dim, index, source)": (_f("index_add"), [T, D, T, T]),
    "x.index_add_(0, index, source)": (lambda L, t, i, s: t.clone().index_add_(0, i, s),
                                      [T, MORE_INDICES, T]),
    "narrow(x, dim, start, length)": (_f("narrow"), [T, D, N, Z]),
    "permute(x, dims)": (_f("permute"), [T, D]),
    "squeeze(x, dim)": (_f("squeeze"), [T, D]),
    "transpose(x, a, b)": (_f("transpose"), [T, D, D]),
    "flatten(x, a, b)": (_f("flatten"), [T, D, D]),
    "norm(x, p)": (lambda L, t, p: L.norm(t, p), [T, N]),
    "x.norm(p, dim)": (_m("norm"), [T, N, D]),
    "std(x, dim, keepdim)": (lambda L, t, d, k: L.std(t, d, keepdim=k), [T, D, F]),
    "x.var(dim, unbiased)": (_m("var"), [T, D, F]),
    "x.std(correction=)": (lambda L, t, c: t.std(correction=c), [T, N]),
    "allclose(x, y)": (_f("allclose"), [T, T]),
    "equal(x, y)": (_f("equal"), [T, T]),
    "result_type(x, y)": (_f("result_type"), [T + N, T + N]),
    "broadcast_shapes(a, b)": (_f("broadcast_shapes"), [SIZES, SIZES]),
    "numel(x)": (_f("numel"), [T + N]),
    "softmax(x, dim, dtype)": (lambda L, t, d, dt: L.softmax(t, d, dtype=dt), [T, D, DTYPES]),
    "argmin(x, dim, keepdim)": (lambda L, t, d, k: L.argmin(t, d, keepdim=k), [T, D, F]),
    "all(x, dim)": (_f("all"), [T, D]),
    "x.any()": (_m("any"), [T]),
    "round(x, decimals)": (lambda L, t, n: L.round(t, decimals=n), [T, Z]),
    "x.sign()": (_m("sign"), [T]),
    "x.reciprocal()": (_m("reciprocal"), [T]),
    "sin(x)": (_f("sin"), [T]),
    "x.tanh()": (_m("tanh"), [T]),
    "x.sqrt() int": (_m("sqrt"), [T]),
    "x.mean(dim, keepdim, dtype)": (lambda L, t, d, k, dt: t.mean(d, k, dtype=dt),
                                    [T, D, F, DTYPES]),
    "x.sum(dtype=)": (lambda L, t, dt: t.sum(dtype=dt), [T, DTYPES]),
    "x.max(y)": (_m("max"), [T, T]),
    "x.max(dim, keepdim) positional": (lambda L, t, d, k: tuple(t.max(d, k)), [T, D, F]),
    "x.sum(kwargs)": (lambda L, t, k: t.sum(**k), [T, KWARGS]),
    # Tensor methods
    "x.masked_fill(mask, value)": (_m("masked_fill"), [T, T, N + T]),
    "x.masked_fill_(mask, value)": (lambda L, t, m, v: t.clone().masked_fill_(m, v),
                                    [T, T, N]),
    "x.sum_to_size(size)": (lambda L, t, s: t.sum_to_size(*s), [T, SIZES]),
    "x.expand_as(y)": (_m("expand_as"), [T, T]),
    "x.view_as(y)": (_m("view_as"), [T, T]),
    "x.reshape_as(y)": (_m("reshape_as"), [T, T]),
    "x.type(dtype)": (_m("type"), [T, DTYPES]),
    "x.to(y)": (_m("to"), [T, [*T, _const("cpu"), _const("float32"), _const(3)]]),
    "x.long()/bool()": (lambda L, t: (t.long(), t.bool(), t.double()), [T]),
    "x.item()": (_m("item"), [T]),
    "x.element_size()": (_m("element_size"), [T]),
    "x.numpy()": (lambda L, t: t.numpy().tolist(), [T]),
    "x.uniform_(a, b)": (lambda L, t, a, b: t.clone().uniform_(a, b).shape, [T, N, N]),
    "x.normal_(mean, std)": (lambda L, t, a, b: t.clone().normal_(a, b).shape, [T, N, N]),
    "x.random_(a, b)": (lambda L, t, a, b: t.clone().random_(a, b).shape, [T, Z, Z]),
    "x.exponential_(lambd)": (lambda L, t, a: t.clone().exponential_(a).shape, [T, N]),
    "x.bernoulli_(p)": (lambda L, t, p: t.clone().bernoulli_(p).shape, [T, N]),
    "x.clamp_(min, max)": (lambda L, t, a, b: t.clone().clamp_(a, b), [T, N, N]),
    "x.pow_(number)": (lambda L, t, v: t.clone().pow_(v), [T, N]),
    "x.div_(y)": (lambda L, a, b: a.clone().div_(b), [T, T + N]),
    "x.add_(number)": (lambda L, t, v: t.clone().add_(v), [T, N]),
    "x.sub_(y, alpha)": (lambda L, a, b, al: a.clone().sub_(b, alpha=al), [T, T, N]),
    "x.mul_(y)": (lambda L, a, b: a.clone().mul_(b), [T, T]),
    "x.mT / x.t()": (lambda L, t: (t.mT, t.t()), [T]),
    "x.size(dim) numpy": (_m("size"), [T, NUMPY_VALUES]),
    "x.dim()/ndim/numel()": (lambda L, t: (t.dim(), t.ndim, t.numel()), [T]),
    "x.detach_() of a view": (lambda L, t: t.detach()[0:1].detach_() if t.dim() else None,
                              [T]),
    "x.unsqueeze(dim) numpy": (_m("unsqueeze"), [T, NUMPY_VALUES]),
    # indexing
    "x[index] wide": (lambda L, t, i: t[i], [T, MORE_INDICES]),
    "x[index] = number wide": (lambda L, t, i, v: _setitem(t, i, v), [T, MORE_INDICES, N]),
    "x[index] = tensor": (lambda L, t, i, v: _setitem(t, i, v), [T, MORE_INDICES, T]),
    # operators, promotion, numpy operands
    "x + numpy": (lambda L, t, v: t + v, [T, NUMPY_VALUES]),
    "numpy * x": (lambda L, t, v: v * t, [T, [_const(v) for v in (np.float32(2.5),
                                                                 np.int64(3), np.bool_(True),
                                                                 np.float64(0.5))]]),
    "x - y": (lambda L, a, b: a - b, [T, T]),
    "x * y": (lambda L, a, b: a * b, [T, T]),
    "x / y": (lambda L, a, b: a / b, [T, T]),
    "x // number": (lambda L, t, v: t // v, [T, N]),
    "x % number": (lambda L, t, v: t % v, [T, N]),
    "x == other": (lambda L, t, v: t == v, [T, [*N, _const([1]), _const(None)]]),
    "x >= y": (lambda L, a, b: a >= b, [T, T]),
    "x | y": (lambda L, a, b: a | b, [T, T + N]),
    "x ^ number": (lambda L, t, v: t ^ v, [T, N]),
    "x @ number": (lambda L, t, v: t @ v, [T, N]),
    "x op= number": (lambda L, t, v: _iadd(t.clone(), v), [T, N]),
    "bool(x) / float(x) / int(x)": (lambda L, t: (bool(t), float(t), int(t)), [T]),
    "len(x) / iter(x)": (lambda L, t: (len(t), list(t)), [T]),
    "x.__index__": (lambda L, t: [0, 1, 2, 3, 4, 5, 6][t], [T]),
    # in-place on leaves and saved tensors
    "in-place on a leaf": (_inplace_leaf, [T, [_const(k) for k in (
        "add_", "zero_", "fill_", "mul_", "setitem", "relu_", "clamp_", "exp_", "copy_",
        "no_grad add_")], F]),
    "in-place on a saved tensor": (_modified, [[_const(k) for k in (
        "exp", "sigmoid", "mul", "pow", "relu", "add")]]),
    "x.requires_grad_(flag) wide": (lambda L, t, f: t.detach().requires_grad_(f).requires_grad,
                                    [T, F]),
    "x.grad = value": (_assign_grad, [T, [*T, _const(3), _const(None), _const([1.0])]]),
    # autograd
    "x.backward(gradient)": (_backward_gradient, [T, [*T, _const(None), _const(2.0)]]),
    "autograd.grad(.., grad_outputs)": (_grad_outputs, [T, [*T, _const(None)]]),
    "backward twice": (_twice, [F]),
    "Function misbehaving": (_function, [FUNCTION_KINDS]),
    "autograd.grad unused": (_grad_unused, [F, F]),
    "autograd.backward(tensors, grads)": (_autograd_backward, [
        [_const(k) for k in ("y", "list", "sum", "int", "leaf")],
        [_const(k) for k in ("none", "ones", "list", "bad shape", "double", "scalar", "int")]]),
    "x.register_hook(fn)": (_hook_on, [T, [_const(3), _const(None), _const(lambda g: g)]]),
    "forward_ad.make_dual": (_forward_ad, [T, [*T, _const(None), _const(2.0)], F]),
    "unpack_dual(x)": (lambda L, t: tuple(L.autograd.forward_ad.unpack_dual(t)), [T]),
    "y.grad_fn(...)": (lambda L, t: (t * 2).grad_fn(t) if t.grad_fn is None and t.requires_grad
                       else (t * 2).grad_fn, [T]),
    "no_grad()(fn)": (lambda L, f: L.no_grad()(f), [[_const(3), _const(None),
                                                     _const(lambda: 1)]]),
    "set_grad_enabled(mode) as function": (
        lambda L, m: (L.set_grad_enabled(m), L.is_grad_enabled(), L.set_grad_enabled(True))[1],
        [F]),
    # nn
    "nn layer(args)(x)": (lambda L, spec, x: _layer(L, *spec, x), [LAYERS, LAYER_INPUTS]),
    "F.loss(x, y, reduction)": (lambda L, n, a, b, r: _loss(L, n, a, b, r),
                                [[_const(n) for n in LOSS_NAMES], T, T, REDUCTIONS]),
    "F.linear(x, w, b)": (lambda L, x, w, b: L.nn.functional.linear(x, w, b), [T, T, T]),
    "F.conv2d(x, w, stride, padding)": (
        lambda L, x, s, p: L.nn.functional.conv2d(L.ones(1, 1, 4, 4), x, stride=s, padding=p),
        [[*T, lambda L: L.ones(2, 1, 3, 3)], Z, Z]),
    "F.max_pool2d(x, k)": (lambda L, x, k: L.nn.functional.max_pool2d(x, k),
                           [[*T, lambda L: L.ones(1, 2, 4, 4)], Z]),
    "F.avg_pool2d(x, k, stride)": (lambda L, x, k, s: L.nn.functional.avg_pool2d(x, k, s),
                                   [[*T, lambda L: L.ones(1, 2, 4, 4)], Z, Z]),
    "F.batch_norm(x, mean, var)": (
        lambda L, x, m, v: L.nn.functional.batch_norm(x, m, v), [T, T, T]),
    "F.dropout(x, p, training)": (lambda L, t, p, tr: L.nn.functional.dropout(t, p, tr).shape,
                                  [T, N, F]),
    "F.relu(x, inplace)": (lambda L, t, f: L.nn.functional.relu(t, inplace=f), [T, F]),
    "F.log_softmax(x, dim, dtype)": (lambda L, t, d, dt: L.nn.functional.log_softmax(
        t, d, dtype=dt), [T, D, DTYPES]),
    "F.nll_loss(x, y, ignore_index)": (
        lambda L, t, y, i: L.nn.functional.nll_loss(t, y, ignore_index=i), [T, T, Z]),
    "F.cross_entropy(x, y, label_smoothing)": (
        lambda L, y, s: L.nn.functional.cross_entropy(L.ones(2, 3), y, label_smoothing=s),
        [T, N]),
    "module misuse": (_module_misuse, [MODULE_MISUSES]),
    # optim
    "optimizer(params, **kwargs)": (lambda L, n, p, k: _optimizer(L, n, p, k),
                                    [[_const(n) for n in OPTIMIZERS], PARAMS, OPTIMIZER_KWARGS]),
    "optimizer steps": (_step, [[_const(n) for n in OPTIMIZERS], OPTIMIZER_KWARGS]),
}


def _setitem(t: Any, index: Any, value: Any) -> Any:
    t = t.detach().clone()
    t[index] = value
    return t


def _iadd(t: Any, v: Any) -> Any:
    t += v
    t *= v
    return t
