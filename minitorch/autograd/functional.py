"""Derivatives of whole functions: ``jacobian``, ``hessian``, ``vjp``, ``jvp``, ``hvp``, ``vhp``.

Everything here is built from :func:`minitorch.autograd.grad`, one reverse pass at a time:

- ``vjp``: one backward with ``v`` as ``grad_outputs`` gives ``vᵀ J``.
- ``jacobian``: one backward per output element, with a one-hot ``grad_outputs``; the result
  has shape ``output.shape + input.shape``.
- ``jvp`` without forward mode: ``u ↦ uᵀ J`` is linear in ``u``, so differentiating it with
  respect to ``u`` (the *double-backward trick*) gives ``J v``.
- ``hessian`` is the jacobian of the gradient; ``vhp``/``hvp`` differentiate the gradient once
  more, the latter with the double-backward trick.

>>> import minitorch
>>> from minitorch.autograd.functional import jacobian, hessian
>>> x = minitorch.tensor([1., 2.])
>>> jacobian(lambda t: (t ** 2).sum(), x)
tensor([2., 4.])
>>> hessian(lambda t: (t ** 2).sum(), x)
tensor([[2., 0.],
        [0., 2.]])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import minitorch

from . import grad_mode

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_V_FOR_SINGLE_INPUT = ("The vector v can only be None if the input to the user-provided "
                       "function is a single Tensor with a single element.")

# What strict mode says when a gradient is missing (None), by the backward pass it came from.
_INDEPENDENT = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
            "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{i} in the grad_jacobian. This is not allowed in strict mode as it "
                         "prevents from using the double backward trick to replace forward "
                         "mode AD.",
}

# ... and when, with create_graph=True, a tensor that should carry a graph does not.
_NO_GRAPH = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when running "
               "in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the "
                   "user-provided function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is "
               "independent of the input. This is not allowed in strict mode. You should ensure "
               "that your function is thrice differentiable and that the hessian depends on the "
               "inputs.",
    "first order": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode when create_graph=True.",
    "second order": "The hessian of the user-provided function is independent of input {i}. "
                    "This is not allowed in strict mode when create_graph=True.",
}


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), vᵀ J)``: the vector-Jacobian product, shaped like the inputs.

    ``v`` is shaped like the outputs; it may be omitted when the output has one element.

    >>> x = minitorch.tensor([1., 2.])
    >>> vjp(lambda t: t * 3, x, minitorch.tensor([1., 0.]))
    (tensor([3., 6.]), tensor([3., 0.]))
    """
    with grad_mode._recording(True):
        inputs_tuple, inputs = _tensors(inputs, "inputs", "vjp")
        inputs = _differentiable_copies(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "vjp", strict)
        if v is not None:
            v = _vector(v, outputs, outputs_tuple, create_graph, "vjp")
        elif len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function "
                               "returns a single Tensor with a single element.")
    with grad_mode._recording(create_graph or grad_mode.is_grad_enabled()):
        result = _fill_in_zeros(_grad(outputs, inputs, v, create_graph), inputs, strict,
                                create_graph, "back")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), J v)``: the Jacobian-vector product, shaped like the outputs.

    Computed with the double-backward trick (two reverse passes), as torch does here.

    >>> x = minitorch.tensor([1., 2.])
    >>> jvp(lambda t: t ** 2, x, minitorch.tensor([1., 1.]))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    with grad_mode._recording(True):
        inputs_tuple, inputs = _tensors(inputs, "inputs", "jvp")
        inputs = _differentiable_copies(inputs, create_graph, need_graph=True)
        v = _vector_for_inputs(v, inputs, inputs_tuple, create_graph, "jvp")
        outputs_tuple, outputs = _call(func, inputs, "jvp", strict)
        # the backward is linear in these dummy grad_outputs: their value never matters
        dummies = tuple(minitorch.zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with grad_mode._recording(create_graph or grad_mode.is_grad_enabled()):
        result = _fill_in_zeros(_grad(grad_inputs, dummies, v, create_graph), outputs, strict,
                                create_graph, "back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), outputs_tuple))


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
             strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs``: shape ``output.shape + input.shape``.

    With several inputs (a tuple) the result is a tuple over inputs; with several outputs,
    a tuple over outputs of those. ``vectorize=True`` is accepted and gives the same result
    (minitorch has no vmap; it loops over output elements either way).

    >>> w = minitorch.tensor([[1., 2.], [3., 4.], [5., 6.]])
    >>> jacobian(lambda x: w @ x, minitorch.ones(2))
    tensor([[1., 2.],
            [3., 4.],
            [5., 6.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        return _forward_jacobian(func, inputs, create_graph, strict, vectorize)
    with grad_mode._recording(True):
        inputs_tuple, inputs = _tensors(inputs, "inputs", "jacobian")
        inputs = _differentiable_copies(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or `vectorize=False`.")
        if not outputs:  # torch's vectorized rows need an output; its loop's result is read
            raise AssertionError("Expected at least one tensor") if vectorize else \
                IndexError("tuple index out of range")  # at [0]
        if vectorize and not sum(out.numel() for out in outputs):
            # torch's vmap over the rows of the identity: it reads row 0 of none
            raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
        result = tuple(_jacobian_of(i, out, inputs, create_graph, strict, vectorize)
                       for i, out in enumerate(outputs))
    return _unpack(_finish(result, create_graph), (outputs_tuple, inputs_tuple))


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
            strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar function: shape ``input.shape + input.shape``.

    With a tuple of inputs, ``result[i][j]`` is the block for inputs ``i`` and ``j``.

    >>> hessian(lambda x: (x ** 3).sum(), minitorch.tensor([1., 2.]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    inputs_tuple, inputs = _tensors(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar(*xs: Any) -> Any:
        out = func(*xs)
        outputs_tuple, outputs = _tensors(out, "outputs of the user-provided function",
                                          "hessian")
        _check_requires_grad(outputs, "outputs", strict)
        _check_scalar(outputs_tuple, outputs, "hessian")
        return out.squeeze()

    def gradient(*xs: Any) -> Any:
        if outer_jacobian_strategy == "forward-mode":  # the duals must enter the graph
            xs = tuple(x.requires_grad_(True) for x in xs)
        grads = jacobian(scalar, xs, create_graph=True)
        _check_requires_grad(grads, "jacobian", strict)
        return grads

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict,
                      vectorize=vectorize, strategy=outer_jacobian_strategy)
    return _unpack(result, (inputs_tuple, inputs_tuple))


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), vᵀ H)`` for a scalar function, shaped like the inputs.

    >>> vhp(lambda x: (x ** 3).sum(), minitorch.tensor([1., 2.]), minitorch.tensor([1., 1.]))
    (tensor(9.), tensor([ 6., 12.]))
    """
    with grad_mode._recording(True):
        inputs_tuple, inputs, v, outputs_tuple, outputs, grads = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "vhp")
    with grad_mode._recording(create_graph or grad_mode.is_grad_enabled()):
        result = _fill_in_zeros(_grad(grads, inputs, v, create_graph), inputs, strict,
                                create_graph, "double_back")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), H v)`` for a scalar function, by the double-backward trick.

    Equal to ``vhp`` whenever the Hessian is symmetric, and slower; prefer ``vhp``.

    >>> hvp(lambda x: (x ** 3).sum(), minitorch.tensor([1., 2.]), minitorch.tensor([1., 1.]))
    (tensor(9.), tensor([ 6., 12.]))
    """
    with grad_mode._recording(True):
        inputs_tuple, inputs, v, outputs_tuple, outputs, grads = _gradient_of_scalar(
            func, inputs, v, create_graph, strict, "hvp")
        dummies = tuple(minitorch.zeros_like(x, requires_grad=True) for x in inputs)
        double_back = _grad(grads, inputs, dummies, create_graph=True)
        _check_requires_grad(grads, "hessian", strict)
    with grad_mode._recording(create_graph or grad_mode.is_grad_enabled()):
        result = _fill_in_zeros(_grad(double_back, dummies, v, create_graph), inputs, strict,
                                create_graph, "double_back_trick")
    return (_unpack(_finish(outputs, create_graph), outputs_tuple),
            _unpack(_finish(result, create_graph), inputs_tuple))


def standard_basis(t: Any) -> Iterator[Any]:
    """One-hot tensors shaped like ``t``, one per element, in memory order.

    >>> [e.tolist() for e in standard_basis(minitorch.zeros(2))]
    [[1.0, 0.0], [0.0, 1.0]]
    """
    shape = tuple(t.shape)
    for k in range(t.numel()):
        e = minitorch.zeros(t.numel(), dtype=t.dtype)
        e[k] = 1
        yield e.reshape(shape)


# ---------------------------------------------------------------------------- the pieces


def _jacobian_of(i: int, output: Any, inputs: tuple, create_graph: bool,
                 strict: bool, vectorize: bool = False) -> tuple:
    """d(output)/d(each input), one reverse pass per output element (an empty output has
    none to stack: torch's loop refuses it, its ``vectorize`` batch gives zeros)."""
    if vectorize and not output.numel():
        return tuple(minitorch.zeros((*output.shape, *x.shape), dtype=x.dtype) for x in inputs)
    rows: list[list] = [[] for _ in inputs]
    for e in standard_basis(output):
        vj = _grad((output,), inputs, (e,), create_graph, retain_graph=True)
        for j, (row, g, x) in enumerate(zip(rows, vj, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {i} of the user-provided function is "
                                       f"independent of input {j}. This is not allowed in "
                                       "strict mode.")
                g = minitorch.zeros_like(x)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(_NO_GRAPH["first order"].format(i=i))
            row.append(g)
    return tuple(minitorch.stack(row).reshape(tuple(output.shape) + tuple(x.shape))
                 for row, x in zip(rows, inputs))


def _gradient_of_scalar(func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool,
                        strict: bool, name: str) -> tuple:
    """What vhp and hvp share: checked inputs, v and output, and the gradient with a graph."""
    inputs_tuple, inputs = _tensors(inputs, "inputs", name)
    inputs = _differentiable_copies(inputs, create_graph, need_graph=True)
    v = _vector_for_inputs(v, inputs, inputs_tuple, create_graph, name)
    outputs_tuple, outputs = _call(func, inputs, name, strict)
    _check_scalar(outputs_tuple, outputs, name)
    grads = _grad(outputs, inputs, None, create_graph=True)
    _check_requires_grad(grads, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs_tuple, outputs, grads


def _call(func: Callable[..., Any], inputs: tuple, name: str, strict: bool) -> tuple[bool, tuple]:
    outputs_tuple, outputs = _tensors(func(*inputs), "outputs of the user-provided function",
                                      name)
    _check_requires_grad(outputs, "outputs", strict)
    return outputs_tuple, outputs


def _grad(outputs: tuple, inputs: tuple, grad_outputs: Any, create_graph: bool,
          retain_graph: bool | None = None) -> tuple:
    """``autograd.grad`` over the outputs that require grad; None for unreached inputs."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, grads = zip(*pairs)
    return minitorch.autograd.grad(outs, inputs, grads, retain_graph=retain_graph,
                                   create_graph=create_graph, allow_unused=True)


def _tensors(value: Any, arg_name: str, fn_name: str | None) -> tuple[bool, tuple]:
    """(whether ``value`` was a tuple, ``value`` as a tuple of tensors; torch's message names
    ``fn_name``, None as it is where torch's code gives none)."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not isinstance(item, minitorch.Tensor):
            which = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the {which} has type {type(item)}.")
    return is_tuple, items


def _differentiable_copies(tensors: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """New tensor objects to differentiate with respect to. With create_graph the graph must
    reach the caller's tensors, so they are aliased differentiably; otherwise detached."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad
                 else t.detach().requires_grad_(need_graph) for t in tensors)


def _vector(v: Any, like: tuple, like_tuple: bool, create_graph: bool, name: str) -> tuple:
    """``v`` as a tuple of tensors, checked against the tensors it multiplies."""
    _, v = _tensors(v, "v", name)
    v = _differentiable_copies(v, create_graph, need_graph=False)
    if len(v) != len(like):
        if like_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, like)):
        if a.shape != b.shape:
            entry = f"Entry {i} in " if like_tuple else ""
            raise RuntimeError(
                f"{entry}v has invalid size: should be {b.shape} but got {a.shape}.")
    return v


def _vector_for_inputs(v: Any, inputs: tuple, inputs_tuple: bool, create_graph: bool,
                       name: str) -> tuple | None:
    if v is not None:
        return _vector(v, inputs, inputs_tuple, create_graph, name)
    if len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError(_V_FOR_SINGLE_INPUT)
    return None


def _check_scalar(outputs_tuple: bool, outputs: tuple, name: str) -> None:
    if outputs_tuple:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {name} should contain a single "
            "element")


def _check_requires_grad(tensors: tuple, kind: str, strict: bool) -> None:
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(_INDEPENDENT["back"].format(i=i))
        if not t.requires_grad:
            raise RuntimeError(_NO_GRAPH[kind].format(i=i))


def _fill_in_zeros(grads: tuple, refs: tuple, strict: bool, create_graph: bool,
                   stage: str) -> tuple:
    """Zeros (shaped like ``refs[i]``) for missing gradients, or strict mode's errors."""
    out = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i=i))
            g = minitorch.zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            order = "second order" if stage.startswith("double") else "first order"
            raise RuntimeError(_NO_GRAPH[order].format(i=i))
        out.append(g)
    return tuple(out)


def _finish(result: Any, create_graph: bool) -> Any:
    """Detach everything handed back unless the caller asked for the graph (torch's
    ``_grad_postprocess``, which reads an empty tuple's first item)."""
    if isinstance(result, tuple) and not result:
        raise IndexError("tuple index out of range")
    if create_graph:
        return result
    if isinstance(result, tuple):
        return tuple(_finish(r, create_graph) for r in result)
    return result.detach()


def _unpack(result: tuple, was_tuple: Any) -> Any:
    """Undo the tupling of single inputs/outputs (``was_tuple`` may be an (outer, inner)
    pair for nested results)."""
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            result = tuple(r[0] for r in result)
        return result if outer else result[0]
    return result if was_tuple else result[0]


_VECTORIZE_ONLY = ("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                   "only implemented for `vectorize=True`.")  # sic: torch's message


def _forward_jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool,
                      strict: bool, vectorize: bool) -> Any:
    """jacobian's forward-mode strategy: one forward pass (:mod:`forward_ad`) per input
    element, its tangent a unit vector; the tangents of the outputs are the columns. As in
    torch, the results over inputs come as lists."""
    if create_graph:
        raise NotImplementedError(
            'torch.autograd.functional.jacobian: `create_graph=True` and `strategy="forward-'
            'mode"` are not supported together (yet). Please either set `create_graph=False` '
            'or `strategy="reverse-mode"`.')
    if strict:
        raise RuntimeError(
            'torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are '
            'not supported together (yet). Please either set `strict=False` or `strategy='
            '"reverse-mode"`.')
    inputs_tuple, inputs = _tensors(inputs, "inputs", "jacobian")
    if not vectorize:  # torch's loop form, after it reads the inputs
        raise NotImplementedError(_VECTORIZE_ONLY)
    # the inputs as given: torch's tangents keep a graph back to inputs that require grad
    per_input = [_forward_columns(func, inputs, i) for i in range(len(inputs))]
    outputs_tuple, outputs = per_input[0][0]
    result = []
    for k, out in enumerate(outputs):
        # the tangents keep their graph (forward-over-reverse); torch's reshape of its
        # permuted batch is an alias, of a batch the permutation leaves contiguous a view
        blocks = [_reshaped(minitorch.stack(columns[k], -1), (*out.shape, *x.shape))
                  if columns[k] else minitorch.zeros((*out.shape, *x.shape), dtype=out.dtype)
                  for (_, columns), x in zip(per_input, inputs)]
        result.append(blocks if inputs_tuple else blocks[0])
    if not outputs_tuple:
        return result[0]
    return result if inputs_tuple else tuple(result)


def _reshaped(columns: Any, shape: tuple) -> Any:
    """``columns`` (one per input element, last) as ``shape``: torch's view of its batch
    moved last, an alias (``ReshapeAliasBackward0``) where that left it non-contiguous."""
    rows, count = columns.shape
    kind = minitorch.ops.shape.ReshapeAlias if rows > 1 and count > 1 \
        else minitorch.ops.shape.View
    return kind.apply(columns, shape=shape)


def _forward_columns(func: Callable[..., Any], inputs: tuple, i: int) -> tuple:
    """``((outputs_tuple, outputs), columns)``: the outputs of ``func`` and, per output, the
    flat tangents for each unit vector of input ``i``."""
    from . import forward_ad  # forward_ad imports the package this module is part of

    x = inputs[i]
    called, columns = None, None
    for j in range(max(x.numel(), 1) if x.numel() else 0):
        unit = minitorch.zeros(x.numel(), dtype=x.dtype)
        unit[j] = 1
        with forward_ad.dual_level():
            duals = [forward_ad.make_dual(t, unit.reshape(x.shape) if k == i
                                          else minitorch.zeros_like(t))
                     for k, t in enumerate(inputs)]
            outputs_tuple, outputs = _tensors(func(*duals), "outputs", None)  # torch's _jacfwd
            pairs = [forward_ad.unpack_dual(out) for out in outputs]
        if called is None:
            called = (outputs_tuple, tuple(p.primal.detach() for p in pairs))
            columns = [[] for _ in pairs]
        for column, pair in zip(columns, pairs):
            tangent = (pair.tangent if pair.tangent is not None
                       else minitorch.zeros_like(pair.primal))
            column.append(tangent.reshape(-1))
    if called is None:  # an input with no elements: call once for the outputs' shapes
        outputs_tuple, outputs = _tensors(func(*inputs), "outputs", None)
        called, columns = (outputs_tuple, outputs), [[] for _ in outputs]
    return called, columns
