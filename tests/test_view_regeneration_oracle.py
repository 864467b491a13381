"""A view's grad_fn after its memory was written in place, against torch.

torch gives a view a new grad_fn (``AsStridedBackward0``, its elements taken from the base as
it is now) whenever the version counter it shares with its base has moved since the view
took its grad_fn: a write through the view, its base or another view, recorded or not (under
``no_grad``, ``inference_mode``, through ``detach()``). It refuses that for views made in
no_grad or inference mode and for the views of an op that returns several, and a view
requires grad whenever its base does. Each program runs in both libraries and every
observable is compared: node names before and after, versions, ``requires_grad``,
``is_leaf``, the new node's next functions, the printed form and the gradient, or torch's
error (type and message).
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import pytest
import torch

import minitorch as mt


def _name(node: Any) -> Any:
    return None if node is None else node.name()


def _observe(L: Any, x: Any, base: Any) -> list:
    """Everything torch lets a program see of view ``x`` of leaf ``base``, then a backward."""
    seen = [_name(x.grad_fn), x._version, base._version, x.requires_grad, x.is_leaf, repr(x)]
    if x.grad_fn is not None:
        seen.append([(_name(f), nr) for f, nr in x.grad_fn.next_functions])
    weights = L.arange(float(x.numel())).view(x.shape)
    (x * weights).sum().backward()
    return [*seen, None if base.grad is None else base.grad.tolist()]


def _outcome(program: Any, L: Any) -> Any:
    try:
        return program(L)
    except Exception as error:  # the error is the outcome compared
        return type(error).__name__, str(error)


VIEWS = {
    "view": lambda a: a.view(12), "slice": lambda a: a[1:], "t": lambda a: a.t(),
    "unsqueeze": lambda a: a.unsqueeze(0), "select": lambda a: a[1],
    "diagonal": lambda a: a.diagonal(),
    "narrow": lambda a: a.narrow(1, 1, 2), "permute": lambda a: a.permute(1, 0),
    "view of a view": lambda a: a.view(12)[2:5], "unflatten": lambda a: a.unflatten(1, (2, 2)),
    "movedim": lambda a: a.movedim(0, 1), "unbind": lambda a: a.unbind(0)[1],
    "split": lambda a: a.split(2)[0], "chunk": lambda a: a.chunk(2, 1)[1],
}
WRITES = {
    "setitem": lambda x: x.__setitem__(0, 5.0), "add_": lambda x: x.add_(1),
    "mul_": lambda x: x.mul_(2), "fill_": lambda x: x.fill_(3), "zero_": lambda x: x.zero_(),
    "copy_": lambda x: x.copy_(x.detach() * 0 + 7), "clamp_": lambda x: x.clamp_(max=0.5),
}
MODES = {"no_grad": lambda L: L.no_grad(), "inference_mode": lambda L: L.inference_mode()}


@pytest.mark.parametrize(("view", "write", "mode"),
                         list(itertools.product(VIEWS, WRITES, MODES)))
def test_a_write_outside_grad_mode_regenerates_the_view(view: str, write: str,
                                                       mode: str) -> None:
    def program(L: Any) -> list:
        a = L.ones(3, 4, requires_grad=True)
        x = VIEWS[view](a)
        before = _name(x.grad_fn)
        with MODES[mode](L):
            WRITES[write](x)
        return [before, *_observe(L, x, a), repr(a)]
    assert _outcome(program, mt) == _outcome(program, torch)


def _write_through_base(L: Any) -> list:
    a = L.ones(2, 3, requires_grad=True)
    x = a[0]
    with L.no_grad():
        a[1] = 3.0
    return _observe(L, x, a)


def _write_through_detach(L: Any) -> list:
    a = L.ones(3, requires_grad=True)
    x = a.view(3)
    a.detach().add_(1)
    return _observe(L, x, a)


def _write_with_out(L: Any) -> list:
    a = L.ones(3, requires_grad=True)
    x = a.view(3)
    with L.no_grad():
        L.add(x, 1, out=x)
    return _observe(L, x, a)


def _views_of_a_view(L: Any) -> list:
    a = L.ones(3, 4, requires_grad=True)
    v = a[1]
    w = v[1:]
    with L.no_grad():
        a.zero_()
    return [_name(v.grad_fn), _observe(L, w, a),
            [_name(f) for f, _ in v.grad_fn.next_functions]]


def _non_leaf_base(L: Any) -> list:
    a = L.ones(3, requires_grad=True)
    b = a * 2
    x = b[1:]
    with L.no_grad():
        b.mul_(3)
    names = [_name(x.grad_fn), _name(b.grad_fn),
             [_name(f) for f, _ in x.grad_fn.next_functions]]
    x.sum().backward()
    return [*names, a.grad.tolist()]


def _recorded_write_on_the_base(L: Any) -> list:
    a = L.ones(2, 2, requires_grad=True)
    b = a.clone()
    x = b[0]
    b.mul_(2)
    return [_name(x.grad_fn), [_name(f) for f, _ in x.grad_fn.next_functions]]


def _grad_fn_is_kept_until_the_next_write(L: Any) -> list:
    a = L.ones(3, requires_grad=True)
    x = a.view(3)
    with L.no_grad():
        x[0] = 5.0
    first = x.grad_fn
    kept = first is x.grad_fn
    with L.no_grad():
        x[1] = 5.0
    return [kept, first is x.grad_fn, _name(x.grad_fn)]


def _base_that_required_grad_later(L: Any) -> list:
    b = L.ones(3)
    x = b.view(3)
    b.add_(1)
    before = [_name(x.grad_fn), x.requires_grad]
    b.requires_grad_()
    return [*before, _name(x.grad_fn), x.requires_grad, x.is_leaf]


def _integer_view(L: Any) -> list:
    i = L.arange(3)
    v = i.view(3)
    i.add_(1)
    return [v.requires_grad, _name(v.grad_fn)]


def _retain_grad_moves_other_hooks_stay(L: Any) -> list:
    calls = []
    a = L.ones(2, 2, requires_grad=True)
    x = a[0]
    x.retain_grad()
    x.register_hook(lambda g: calls.append(g.tolist()))
    with L.no_grad():
        x.mul_(2)
    (x * L.tensor([1.0, 2.0])).sum().backward()
    return [_name(x.grad_fn), x.retains_grad, x.grad.tolist(), calls, a.grad.tolist()]


def _retain_grad_moves_on_an_in_place_op(L: Any) -> list:
    a = L.ones(3, requires_grad=True)
    b = a * 2
    b.retain_grad()
    b.mul_(3)
    b.sum().backward()
    return [b.retains_grad, b.grad.tolist(), a.grad.tolist()]


def _retain_grad_on_a_written_view_and_its_base(L: Any) -> list:
    a = L.ones(2, 2, requires_grad=True)
    b = a * 1
    b.retain_grad()
    v = b[0]
    v.retain_grad()
    v.mul_(3)
    (v.sum() + b.sum()).backward()
    return [b.retains_grad, v.retains_grad, b.grad.tolist(), v.grad.tolist(), a.grad.tolist()]


def _no_grad_view_requires_grad(L: Any) -> list:
    a = L.ones(3, requires_grad=True)
    with L.no_grad():
        y = a.view(3)
        z = a[1:]
        w = a.view(3) + 0
    seen = [y.requires_grad, _name(y.grad_fn), y.is_leaf, z.requires_grad, w.requires_grad,
            repr(y), y.grad]
    out = y * 2
    seen += [out.requires_grad, [(_name(f), nr) for f, nr in out.grad_fn.next_functions]]
    out.sum().backward()
    y.sum().backward()
    return [*seen, a.grad, _name(y[0].grad_fn), y[0].requires_grad]


def _inference_mode_views(L: Any) -> list:
    a = L.ones(3, requires_grad=True)
    with L.inference_mode():
        y = a.view(3)
        b = L.ones(3, requires_grad=True)
        z = b.view(3)
        inside = [z.requires_grad, z.is_inference(), repr(z)]
        z.add_(1)
        inside.append(_name(z.grad_fn))
    return [y.requires_grad, y.is_inference(), repr(y), *inside, z.requires_grad]


def _multi_output_view_without_grad_written_with_one(L: Any) -> Any:
    p = L.ones(2, 3).split(1)[0]
    p.add_(L.ones(3, requires_grad=True))


def _no_grad_view_without_grad_written_with_one(L: Any) -> Any:
    b = L.ones(3)
    with L.no_grad():
        v = b[1:]
    v.add_(L.ones(2, requires_grad=True))


def _custom_function_returns_a_non_differentiable_input(L: Any) -> list:
    class Same(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.mark_non_differentiable(x)
            return x

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g

    x = L.ones(2, requires_grad=True)
    y = Same.apply(x)
    return [y.requires_grad, y.is_leaf, repr(y)]


def _bases(L: Any) -> list:
    """``_base``: the first tensor of a chain of views, None for others and for a view of an
    inference tensor."""
    a = L.ones(3, 4, requires_grad=True)
    with L.no_grad():
        made_in_no_grad = a[0]
    with L.inference_mode():
        inference = L.ones(3)
        of_inference, of_normal = inference.view(3), a.view(12)
    i = L.arange(4)
    return [a.view(12)._base is a, a[0][1:]._base is a, made_in_no_grad._base is a,
            of_inference._base is None, of_normal._base is a, i.view(2, 2)._base is i,
            a.view(12).detach()._base is None, a.unbind(0)[0]._base is a, a._base is None,
            (a * 1)._base is None, a.reshape(12)._base is a, a.t().contiguous()._base is None]


PROGRAMS = [
    _bases,
    _write_through_base, _write_through_detach, _write_with_out, _views_of_a_view,
    _non_leaf_base, _recorded_write_on_the_base, _grad_fn_is_kept_until_the_next_write,
    _base_that_required_grad_later, _integer_view, _retain_grad_moves_other_hooks_stay,
    _retain_grad_moves_on_an_in_place_op, _retain_grad_on_a_written_view_and_its_base,
    _no_grad_view_requires_grad, _inference_mode_views,
    _multi_output_view_without_grad_written_with_one, _no_grad_view_without_grad_written_with_one,
    _custom_function_returns_a_non_differentiable_input,
]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__.strip("_"))
def test_views_as_torch(program: Any) -> None:
    got, want = _outcome(program, mt), _outcome(program, torch)
    if callable(getattr(want, "name", None)):  # a node: compare what it is
        got, want = _name(got), _name(want)
    assert got == want


# ---------------------------------------- views torch refuses to regenerate or to write through

def _in_mode(L: Any, mode: str) -> Any:
    return {"grad": contextlib.nullcontext, "no_grad": L.no_grad,
            "inference": L.inference_mode}[mode]()


_SELECT, _SLICE = (lambda t: t[0]), (lambda t: t[1:])
_UNBIND, _SPLIT = (lambda t: t.unbind(0)[0]), (lambda t: t.split(1)[1])
# how a view is made from its base: each step a view op and the mode it runs in
ORIGINS = {
    "no_grad view": [("no_grad", _SELECT)], "inference view": [("inference", _SELECT)],
    "no_grad view of a view": [("grad", _SELECT), ("no_grad", _SLICE)],
    "inference view of a view": [("grad", _SELECT), ("inference", _SLICE)],
    "view of a no_grad view": [("no_grad", _SELECT), ("grad", _SLICE)],
    "view of an inference view": [("inference", _SELECT), ("grad", _SLICE)],
    "unbind output": [("grad", _UNBIND)], "split output": [("grad", _SPLIT)],
    "view of an unbind output": [("grad", _UNBIND), ("grad", _SLICE)],
    "no_grad view of an unbind output": [("grad", _UNBIND), ("no_grad", _SLICE)],
    "unbind output made in no_grad": [("no_grad", _UNBIND)],
    "unbind output made in inference mode": [("inference", _UNBIND)],
    "plain view": [("grad", _SELECT), ("grad", _SLICE)],
}
BASES = {"leaf": lambda L: L.ones(3, 2, requires_grad=True),
         "non-leaf": lambda L: L.ones(3, 2, requires_grad=True) * 1}


def _base_written_in_no_grad(L: Any, base: Any, view: Any) -> Any:
    with L.no_grad():
        base.add_(1)
    return [_name(view.grad_fn), view.requires_grad, repr(view)]


def _base_written_in_grad_mode(L: Any, base: Any, view: Any) -> Any:
    base.mul_(2)
    return [_name(view.grad_fn), repr(view)]


def _view_written_in_grad_mode(L: Any, base: Any, view: Any) -> Any:
    view.add_(1)
    return [_name(view.grad_fn), _name(base.grad_fn)]


def _view_written_in_no_grad(L: Any, base: Any, view: Any) -> Any:
    with L.no_grad():
        view.mul_(2)
    return [repr(view), view.is_leaf]


THEN = [_base_written_in_no_grad, _base_written_in_grad_mode, _view_written_in_grad_mode,
        _view_written_in_no_grad]


@pytest.mark.parametrize("then", THEN, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("base", list(BASES))
@pytest.mark.parametrize("origin", list(ORIGINS))
def test_refused_views_as_torch(origin: str, base: str, then: Any) -> None:
    """Each way of making a view, then a write that needs its grad_fn regenerated or that
    goes through it: torch's node, or its refusal (type and message)."""
    def program(L: Any) -> Any:
        view = root = BASES[base](L)
        for mode, op in ORIGINS[origin]:
            with _in_mode(L, mode):
                view = op(view)
        return then(L, root, view)
    assert _outcome(program, mt) == _outcome(program, torch)
