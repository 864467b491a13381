"""torch's ``*_copy`` functions: a view op's result in memory of its own.

Each is its view op (same checks, same values) followed by a copy; its node is the view's,
named with ``_copy`` (``PermuteBackward0_copy``), whose backward is the view's backward.
One table makes them all.

>>> import minitorch
>>> x = minitorch.ones(2, 3, requires_grad=True)
>>> y = minitorch.permute_copy(x, (1, 0)); y.shape, y.grad_fn.name()
(torch.Size([3, 2]), 'PermuteBackward0_copy')
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .. import _args, _call_form
from .._aliases import SPARSE_PARTS
from .._dtype import dtype as dtype_type
from .._tensor import Tensor
from ..autograd import grad_mode
from ._base import Op, wrap
from .pointwise import _NoDerivative

__all__ = ["COPIES", "ViewCopy", "copy_functions"]


class ViewCopy(Op):
    """A view op's outputs copied; the gradient is the view's own (a view is linear, so its
    vector-Jacobian product is the gradient of the view of a zero tensor)."""

    _nodes: dict = {}

    @classmethod
    def named(cls, node: str, profile: str) -> type[ViewCopy]:
        """This op under torch's ``node`` name (``ViewBackward0_copy``), one class per name."""
        if node not in cls._nodes:
            cls._nodes[node] = type(node.replace("Backward", ""), (cls,), {
                "node_name": node, "_profile_name": profile, "__module__": __name__,
                "named_twin": True})  # (ViewCopy itself, under a name)
        return cls._nodes[node]

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, view: Callable, outputs: Any) -> Any:
        ctx.view, ctx.shape, ctx.dtype = view, a.shape, a.dtype
        if isinstance(outputs, Tensor):
            return _copied(outputs)
        return tuple(_copied(o) for o in outputs)

    @staticmethod
    def tangent_formula(a: Tensor, tangent: Tensor, out: Any, dual: bool, *, view: Callable,
                        outputs: Any) -> Any:
        """The view of the tangent, copied (a tuple for a view op of several outputs): linear,
        so differentiated forward again as the view is."""
        viewed = view(tangent)
        return viewed.clone() if isinstance(viewed, Tensor) else \
            tuple(v.clone() for v in viewed)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        from .._creation import zeros
        from ..autograd import grad

        create = grad_mode.is_grad_enabled()
        with grad_mode.enable_grad():
            z = zeros(ctx.shape, dtype=ctx.dtype, requires_grad=True)
            outs = ctx.view(z)
            outs = (outs,) if isinstance(outs, Tensor) else tuple(outs)
            pairs = [(o, g) for o, g in zip(outs, grads) if g is not None]
            if not pairs:
                return (None,)
            return grad([o for o, _ in pairs], z, [g for _, g in pairs],
                        create_graph=create, allow_unused=True)


class DetachCopy(_NoDerivative):
    """``detach_copy``: torch records it under its ``NotImplemented`` node."""

    node_name = "NotImplemented"
    _profile_name = "aten::detach_copy"

    @staticmethod
    def compute(a: Tensor) -> Any:
        return a._xp.asarray(a._data, copy=True)


def _copied(t: Tensor) -> Tensor:
    return wrap(t._xp.asarray(t._data, copy=True))


def _slice(input: Tensor, dim: int = 0, start: int | None = None, end: int | None = None,
           step: int = 1) -> Tensor:
    """torch's ``slice`` (``aten::slice.Tensor``): ``input[..., start:end:step]`` on ``dim``."""
    bounds = [(v, n, p) for v, n, p in ((start, "start", 3), (end, "end", 4)) if v is not None]
    dim, step, *_ = _args.integers("slice_copy", (dim, "dim", 2), (step, "step", 5), *bounds)
    if input.dim() == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = _args.dim("slice_copy", dim, input.dim())
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    return input[(slice(None),) * d + (slice(start, end, step),)]


def _view(input: Tensor, size: Any = _args.OMITTED, dtype: Any = _args.OMITTED) -> Tensor:
    """``view`` to a tuple of sizes or to a dtype, as ``view_copy``'s two signatures."""
    target = dtype if size is _args.OMITTED else size
    if isinstance(target, (tuple, list, dtype_type)) and (dtype is _args.OMITTED or
                                                         size is _args.OMITTED):
        return input.view(target)
    given = {k: v for k, v in (("size", size), ("dtype", dtype)) if v is not _args.OMITTED}
    raise _args.invalid_combination("view_copy", (input,), *COPIES["view_copy"][2],
                                    keywords=given)


@_call_form.parser_types(size="int[]")  # (no lone int, unlike Tensor.expand)
def _expand(input: Tensor, size: Any, *, implicit: bool = False) -> Tensor:
    return input.expand(size, implicit=implicit)


def _split(input: Tensor, split_size: int, dim: int = 0) -> tuple:
    _args.integers("split_copy", (split_size, "split_size", 2), (dim, "dim", 3))
    return input.split(split_size, dim)


def _unfold(input: Tensor, dimension: int, size: int, step: int) -> Tensor:
    return input.unfold(dimension, size, step)


def _alias(input: Tensor) -> Tensor:
    return input.view_as(input)


def _part(name: str) -> Callable[[Tensor], Tensor]:
    """A sparse layout's part of ``input`` (refused: minitorch's tensors are strided)."""
    def part(input: Tensor) -> Tensor:
        return getattr(input, name)()

    return part


# name -> (its view op: a minitorch function's name or a callable; torch's node name where the
# view's own differs; torch's signatures where it has several)
COPIES: dict[str, tuple[Any, str | None, tuple]] = {
    "view_copy": (_view, "ViewBackward0", (
        "Tensor input, torch.dtype dtype, *, Tensor out = None",
        "Tensor input, tuple of ints size, *, Tensor out = None")),
    "permute_copy": ("permute", None, ()),
    "expand_copy": (_expand, None, ()),
    "t_copy": ("t", None, ()),
    "transpose_copy": ("transpose", None, ()),
    "squeeze_copy": ("squeeze", None, ("Tensor input, *, Tensor out = None",
                                       "Tensor input, int dim, *, Tensor out = None",
                                       "Tensor input, tuple of ints dim, *, Tensor out = None")),
    "unsqueeze_copy": ("unsqueeze", None, ()),
    "diagonal_copy": ("diagonal", None, ()),
    "select_copy": ("select", None, ()),
    "slice_copy": (_slice, "SliceBackward0", ()),
    "split_copy": (_split, "SplitBackward0", ()),
    "split_with_sizes_copy": ("split_with_sizes", None, ()),
    "unbind_copy": ("unbind", None, ()),
    "unfold_copy": (_unfold, None, ()),
    "alias_copy": (_alias, "AliasBackward0", ()),
    "as_strided_copy": ("as_strided", None, ()),
    "view_as_real_copy": ("view_as_real", None, ()),
    "view_as_complex_copy": ("view_as_complex", None, ()),
    **{f"{name}_copy": (_part(name), None, ()) for name in SPARSE_PARTS},
}


def _copy_function(name: str, view: Callable, node_name: str | None,
                   signatures: tuple) -> Callable:
    """The public ``name``: ``view`` (checked and run as the caller wrote it) then copied."""
    signature = inspect.signature(view)

    def fn(input: Tensor, *args: Any, **kwargs: Any) -> Any:
        try:
            signature.bind(input, *args, **kwargs)
        except TypeError:  # Python's refusal of the call comes first, in torch's words
            if refused := _call_form.too_many_positional(view, name, (input, *args), False):
                raise TypeError(refused) from None
            return view(input, *args, **kwargs)
        _args.tensor_args(name, (input, "input", 1))
        if hasattr(view, "parser_types") and (typed := _call_form.parameter_types(
                view, name, (input, *args), kwargs)):  # (its own types, where it declares them)
            raise TypeError(typed)
        out = view(input, *args, **kwargs)
        first = out if isinstance(out, Tensor) else (out[0] if len(out) else None)
        node = None if first is None else first.grad_fn
        if node is None or not grad_mode.is_grad_enabled():  # (a clone keeps a dual's tangent)
            return out.clone() if isinstance(out, Tensor) else tuple(o.clone() for o in out)
        op = ViewCopy.named(f"{node_name or node.name()}_copy", f"aten::{name}")
        result = op.apply(input, view=lambda t: view(t, *args, **kwargs), outputs=out)
        return result if isinstance(result, Tensor) else tuple(result)

    if view.__module__ == __name__:  # this module's own: Python names it in its refusals
        view.__name__ = view.__qualname__ = name
    fn.__name__ = fn.__qualname__ = name
    fn.__wrapped__ = view  # type: ignore[attr-defined]  # (its signature; Python's refusals)
    fn.alias_of = view.__name__  # type: ignore[attr-defined]  # its refusals under this name
    if signatures:
        fn.torch_signatures = signatures  # type: ignore[attr-defined]
    fn.__doc__ = (f"``{name[:-5]}`` of ``input`` in new memory (torch's ``{name}``).\n\n"
                  f"    >>> minitorch.{name} is not None\n    True\n    ")
    return fn


def copy_functions(namespace: dict) -> dict:
    """The ``*_copy`` functions, their view ops read from ``namespace`` (minitorch's own)."""
    made = {name: _copy_function(name, namespace[view] if isinstance(view, str) else view,
                                 node, signatures)
            for name, (view, node, signatures) in COPIES.items()}
    made["detach_copy"] = detach_copy
    return made


def detach_copy(input: Tensor) -> Tensor:
    """A copy of ``input`` detached; torch records it under a ``NotImplemented`` node.

    >>> minitorch.detach_copy(minitorch.ones(2))
    tensor([1., 1.])
    """
    _args.tensor_args("detach_copy", (input, "input", 1))
    DetachCopy.check_no_tangents((input,))
    return DetachCopy.on(input) if grad_mode.is_grad_enabled() else _copied(input)
