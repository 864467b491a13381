"""``torch.func``: function transforms (``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``,
``hessian``, ``vmap``) and ``functional_call``, built on minitorch's own autograd.

torch's transforms (functorch) wrap tensors level by level; here each transform is the
autograd this course teaches, applied to a fresh graph:

- ``grad(f)(x)`` runs ``f`` on a copy of ``x`` that requires grad and returns
  ``autograd.grad`` of the scalar result; the graph is kept (``create_graph``) so that
  transforms nest (``grad(grad(f))``), and dropped from what the outermost one returns;
- ``vjp`` is the same backward with a cotangent; ``jvp`` is forward-mode AD
  (:mod:`minitorch.autograd.forward_ad`);
- ``jacrev`` and ``jacfwd`` take one ``vjp`` per output element or one ``jvp`` per input
  element; ``hessian`` is ``jacfwd(jacrev(f))``;
- ``vmap`` runs ``f`` once on the whole batch where every op ``f`` calls has a batching rule
  (:mod:`minitorch._batched`), so its result has the last op's ``grad_fn`` as in torch;
  otherwise it calls ``f`` once per slice of the batch and stacks the results.

Inputs and outputs may be tuples, lists and dicts of tensors (torch's pytrees).

>>> import minitorch
>>> from minitorch.func import grad, vmap
>>> x = minitorch.tensor(0.5)
>>> grad(lambda t: t ** 3)(x)
tensor(0.7500)
>>> grad(grad(lambda t: t ** 3))(x)
tensor(3.)
>>> vmap(minitorch.dot)(minitorch.ones(2, 3), minitorch.ones(2, 3))
tensor([3., 3.])
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

import minitorch

from . import _batched_function
from ._batched import BatchedTensor, Raised, Refused, Unbatched, examples_are_tensors
from ._batched_function import own, vmapping
from ._tensor import Tensor, mark_traced, traced_creation
from .autograd import forward_ad as fwAD
from .autograd import grad_mode

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp",
           "linearize", "stack_module_state", "vjp", "vmap"]

_depth = threading.local()


# ---------------------------------------------------------------- pytrees
def _flatten(tree: Any) -> tuple[list, Any]:
    """The leaves of ``tree`` (tuples, lists and dicts nest; anything else is a leaf) and a
    spec to rebuild it with :func:`_unflatten`."""
    if isinstance(tree, (tuple, list)):
        parts = [_flatten(item) for item in tree]
        return [leaf for leaves, _ in parts for leaf in leaves], (type(tree), None,
                                                                   [s for _, s in parts])
    if isinstance(tree, dict):
        parts = [_flatten(item) for item in tree.values()]
        return [leaf for leaves, _ in parts for leaf in leaves], (dict, list(tree),
                                                                   [s for _, s in parts])
    return [tree], None


def _unflatten(leaves: list, spec: Any) -> Any:
    return _rebuild(iter(leaves), spec)


def _rebuild(leaves: Iterator, spec: Any) -> Any:
    if spec is None:
        return next(leaves)
    kind, keys, children = spec
    items = [_rebuild(leaves, child) for child in children]
    if kind is dict:
        return dict(zip(keys, items))
    return kind(items) if kind in (tuple, list) else kind(*items)


def _leaf_count(spec: Any) -> int:
    return 1 if spec is None else sum(_leaf_count(child) for child in spec[2])


def _spec_repr(spec: Any, indent: int = 0) -> str:
    """torch's ``repr`` of a TreeSpec: ``TreeSpec(tuple, None, [*,\n  *])``."""
    if spec is None:
        return "*"
    kind, keys, children = spec
    indent += 2
    parts = [_spec_repr(child, indent) for child in children]
    inner = (",\n" + " " * indent).join(parts)
    return f"TreeSpec({kind.__name__}, {keys}, [{inner}])"


class _Star:
    def __repr__(self) -> str:
        return "*"


def _spec_pprint(spec: Any) -> str:
    """torch's short form of a TreeSpec: the tree with ``*`` for each leaf, ``(*, *)``."""
    return repr(_unflatten([_Star()] * _leaf_count(spec), spec))


def _tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    leaves, spec = _flatten(tree)
    return _unflatten([fn(leaf) for leaf in leaves], spec)


# ---------------------------------------------------------------- levels
@contextlib.contextmanager
def _transform(kind: str) -> Iterator[bool]:
    """Enter one more transform of ``kind`` ("reverse", "forward" or "trace"); yields whether
    it is the outermost, whose results leave the transforms' graphs behind."""
    depth = getattr(_depth, "value", 0)
    _depth.value = depth + 1
    try:
        with grad_mode.enable_grad(), _batched_function.transforming(kind):
            yield depth == 0
    finally:
        _depth.value = depth


def _track(x: Any) -> Any:
    """``x`` as an input the transform differentiates: a fresh leaf, or (inside another
    transform, or for a tensor that already requires grad) an alias linked to ``x``."""
    if not isinstance(x, Tensor):
        return x
    if x.requires_grad:  # (still the transform's leaf to in-place ops, as torch's)
        return own(fwAD.internal_leaf(x.view_as(x)))
    fresh = own(fwAD.internal_leaf(x.detach()._set_requires_grad(True)))
    tangent = fwAD.unpack_dual(x).tangent if fwAD.levels else None
    if tangent is None:
        return fresh
    return own(fwAD.internal_leaf(fwAD.make_dual(fresh, tangent)))  # jacfwd(jacrev(f)): a
    # leaf too


def _release(tree: Any, outermost: bool) -> Any:
    """What a transform returns: at the outermost level each tensor leaves the transforms'
    graphs behind, detached unless it depends on a tensor of the caller's that requires grad
    (an input, or one ``func`` closes over: the result is then part of the caller's graph,
    as in torch)."""
    if not outermost:
        return tree
    return _tree_map(_released, tree)


def _released(t: Any) -> Any:
    if isinstance(t, BatchedTensor):
        return BatchedTensor(_released(t.value))
    return t.detach() if isinstance(t, Tensor) and not _reaches_caller(t) else t


def _reaches_caller(t: Tensor) -> bool:
    """Whether ``t``'s graph reaches a leaf that requires grad other than the transforms'
    own (their fresh inputs, forward AD's helpers)."""
    if not t.requires_grad:
        return False
    todo, seen = [t._current_grad_fn()], set()
    if todo[0] is None:
        return not fwAD.is_internal_leaf(t)
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None and not fwAD.is_internal_leaf(variable):
            return True
        todo.extend(next_node for next_node, _ in node.next_functions)
    return False


def _argnums(argnums: int | tuple[int, ...], count: int) -> tuple[int, ...]:
    """The positions ``argnums`` names among ``count`` arguments, checked as torch checks them
    (an int or a non-empty tuple of distinct ints, each in range)."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    nums = tuple(_argnum(n, count) for n in (
        argnums if isinstance(argnums, tuple) else (argnums,)))
    if isinstance(argnums, tuple) and not nums:
        raise RuntimeError("argnums must be non-empty")
    if len(set(nums)) != len(nums):
        raise RuntimeError(f"argnums elements must be unique, got {nums}")
    return nums


def _argnum(n: Any, count: int) -> int:
    """One position of ``argnums``, from the end where negative."""
    if not isinstance(n, int):
        raise RuntimeError(f"argnum must be int, got: {type(n)}")
    if not -count <= n < count:
        raise RuntimeError(f"Got argnum={n}, but only {count} positional inputs")
    return n % count


def _differentiable(x: Any, size: int | None = None) -> Any:
    """``x``, an input a transform differentiates, tracked (see :func:`_track`): torch's
    transforms take only tensors there. Inside vmap's call on the whole batch (``size``
    examples: only ``grad`` is batched here), ``x`` is batched, its rows tracked, an unbatched
    ``x`` expanded to one row per example first."""
    if size is not None and isinstance(x, BatchedTensor):
        return BatchedTensor(_track(x.value))
    if size is not None and isinstance(x, Tensor):
        return BatchedTensor(_track(x).expand(size, *x.shape), shared=True)
    _not_batched([x])
    if not isinstance(x, Tensor):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    return _track(x)


def _caller_aux(aux: Any, tracked: list, given: list) -> Any:
    """``aux`` with each tracked input put back as the caller's own tensor, as torch
    returns it."""
    originals = {id(t): g for t, g in zip(tracked, given)}
    return _tree_map(lambda t: originals.get(id(t), t), aux)


def _check_aux(aux: Any) -> None:
    """torch's refusal of an ``aux`` (has_aux=True) holding anything but tensors."""
    for leaf in _flatten(aux)[0]:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")


def _check_tensor_outputs(outputs: list, api: str) -> None:
    """torch's refusal of flat ``outputs`` that are empty, a lone None or not all tensors
    (``api``: how its message names the transform)."""
    if not outputs or (len(outputs) == 1 and outputs[0] is None):
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output "
                           f"(got output = {outputs})")
    for out in outputs:
        if not isinstance(out, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, "
                               f"got unsupported type {type(out)}")


def _check_vjp_outputs(outputs: list) -> None:
    """torch's refusal of what ``vjp`` cannot differentiate: non-tensor or integer outputs."""
    _check_tensor_outputs(outputs, "vjp(f, *primals)")
    for out in outputs:
        if not out.dtype.is_floating_point:
            raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or complex "
                               f"Tensors, got Tensor with dtype {out.dtype}")


def _split_aux(out: Any, has_aux: bool, call: str, check: bool = True) -> tuple[Any, Any]:
    """``(output, aux)`` of ``out`` (``call``: how torch's message names the transform), the
    aux checked unless told not to (grad checks it after its output, as torch)."""
    if not has_aux:
        return out, None
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{call}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    if check:
        _check_aux(out[1])
    return out


def _gradients(outputs: list, inputs: list, cotangents: list | None = None) -> list:
    """``autograd.grad`` of ``outputs`` for the tensors of ``inputs`` (zeros where an input
    does not reach them; non-tensors get None), the graph kept for nested transforms."""
    wrt = [t for t in inputs if isinstance(t, Tensor)]
    cotangents = cotangents or [None] * len(outputs)
    reached = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    found = minitorch.autograd.grad([o for o, _ in reached], wrt, [c for _, c in reached],
                                    retain_graph=True, create_graph=True,
                                    allow_unused=True) if wrt and reached else [None] * len(wrt)
    found = iter(g if g is not None else minitorch.zeros_like(t) for g, t in zip(found, wrt))
    return [next(found) if isinstance(t, Tensor) else None for t in inputs]


# ---------------------------------------------------------------- reverse mode
def grad_and_value(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
                   has_aux: bool = False) -> Callable[..., Any]:
    """A function returning ``(gradient, value)`` of ``func``'s scalar result with respect to
    the arguments ``argnums``.

    >>> minitorch.func.grad_and_value(lambda t: (t * t).sum())(minitorch.tensor([1., 2.]))
    (tensor([2., 4.]), tensor(5.))
    """
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = _argnums(argnums, len(args))
        given, _ = _flatten([args[n] for n in nums])
        size = _batch_of(_flatten(args)[0])
        with _transform("reverse") as outermost:
            args = list(args)
            for n in nums:
                args[n] = _tree_map(functools.partial(_differentiable, size=size), args[n])
            value, aux = _split_aux(func(*args, **kwargs), has_aux,
                                    "grad_and_value(f)(*args)", check=False)
            _check_scalar(value)
            leaves, spec = _flatten([args[n] for n in nums])
            aux = _caller_aux(aux, leaves, given)
            grads = _unflatten(_batched_gradients(value, leaves), spec)
            grads = grads[0] if isinstance(argnums, int) else tuple(grads)
            if has_aux:  # torch checks grad's aux after its output and gradients
                _check_aux(aux)
            result = (grads, (value, aux) if has_aux else value)
        return _release(result, outermost)
    return wrapper


def grad(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
         has_aux: bool = False) -> Callable[..., Any]:
    """A function returning the gradient of ``func``'s scalar result with respect to the
    arguments ``argnums`` (with ``has_aux``: ``(gradient, aux)``).

    >>> minitorch.func.grad(lambda t: t.sin())(minitorch.tensor(0.))
    tensor(1.)
    """
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        grads, value = both(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


def _batch_of(leaves: list) -> int | None:
    """The batch size where a vmap calls a transform on its whole batch at once (some of the
    arguments are batched), else None."""
    return next((x.value.shape[0] for x in leaves if isinstance(x, BatchedTensor)), None)


def _batched_gradients(value: Any, leaves: list) -> list:
    """The gradients of ``value`` for ``leaves``, where both may be batched (``grad`` inside
    vmap's one call, as torch batches it): every example's value depends only on its own row
    of the batched inputs, so the gradient of their sum is each example's gradient."""
    if not any(isinstance(x, BatchedTensor) for x in leaves):
        return _gradients([value], leaves)
    output = value.value if isinstance(value, BatchedTensor) else value
    found = _gradients([output], [_unwrapped(x) for x in leaves],
                       [minitorch.ones_like(output)])
    return [BatchedTensor(g) if isinstance(x, BatchedTensor) else g
            for g, x in zip(found, leaves)]


def _unwrapped(x: Any) -> Any:
    return x.value if isinstance(x, BatchedTensor) else x


def _check_scalar(value: Any) -> None:
    if not isinstance(value, (Tensor, BatchedTensor)):
        raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a Tensor, "
                           f"got {type(value)}")
    if value.dim() != 0:
        raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                           f"Tensor, got tensor with {value.dim()} dims. Maybe you wanted to "
                           "use the vjp or jacrev APIs instead?")


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple:
    """``(func(*primals), vjp_fn)``; ``vjp_fn(cotangents)`` is the vector-Jacobian product for
    each primal (a tuple, one per primal).

    >>> out, vjp_fn = minitorch.func.vjp(lambda t: t * 3, minitorch.tensor([1., 2.]))
    >>> vjp_fn(minitorch.tensor([1., 0.]))
    (tensor([3., 0.]),)
    """
    given, _ = _flatten(primals)
    _not_batched(given, lambda: func(*primals))
    with _transform("reverse") as outermost:
        tracked = _tree_map(_differentiable, primals)
        output, aux = _split_aux(func(*tracked), has_aux, "vjp(f, *primals)")
    outputs, out_spec = _flatten(output)
    _check_vjp_outputs(outputs)
    inputs, in_spec = _flatten(tracked)
    aux = _caller_aux(aux, inputs, given)

    def vjp_fn(cotangents: Any) -> tuple:
        leaves, spec = _flatten(cotangents)
        if spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function. cotangents: "
                               f"{_spec_pprint(spec)}, primal output: "
                               f"{_spec_pprint(out_spec)}")
        with _transform("reverse"):
            grads = _unflatten(_gradients(outputs, inputs, leaves), in_spec)
        return _release(tuple(grads), outermost)

    result = (_release(output, outermost), vjp_fn)
    return (*result, _release(aux, outermost)) if has_aux else result


def jacrev(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, *,
           has_aux: bool = False, chunk_size: int | None = None) -> Callable[..., Any]:
    """A function returning the Jacobian of ``func`` with respect to ``argnums``, one row
    (a ``vjp``) per output element: shape ``output.shape + input.shape``. Rows are computed
    one at a time whatever ``chunk_size`` (torch's batch of rows) says.

    >>> minitorch.func.jacrev(lambda t: t ** 2)(minitorch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        nums = _argnums(argnums, len(args))
        given, _ = _flatten([args[n] for n in nums])
        _not_batched(given, lambda: func(*args))
        with _transform("reverse") as outermost:
            args = list(args)
            for n in nums:
                args[n] = _tree_map(_differentiable, args[n])
            output, aux = _split_aux(func(*args), has_aux, "vjp(f, *primals)")  # torch's
            inputs, spec = _flatten([args[n] for n in nums])
            outputs, out_spec = _flatten(output)
            _check_vjp_outputs(outputs)
            if chunk_size is not None and chunk_size < sum(o.numel() for o in outputs):
                _check_chunk_count(chunk_size)  # (one chunk of all the rows: never split)
            aux = _caller_aux(aux, inputs, given)
            if not inputs:  # torch's Jacobian of no input: none to put in the output's tree
                raise ValueError(f"treespec.unflatten(leaves): `leaves` has length 0 but the "
                                 f"spec refers to a pytree that holds {len(outputs)} items "
                                 f"({_spec_repr(out_spec)}).")
            per_output = [[_stack_rows(out, x, _rows(outputs, k, x)) for x in inputs]
                          for k, out in enumerate(outputs)]
            jac = [_unflatten(row, spec) for row in per_output]
            jac = [j[0] if isinstance(argnums, int) else tuple(j) for j in jac]
            jac = _unflatten(jac, out_spec)
        result = (jac, aux) if has_aux else jac
        return _release(result, outermost)
    return wrapper


def _rows(outputs: list, k: int, x: Any) -> list:
    """One backward per element of output ``k``: the gradient of that element for ``x``.
    Where there are other outputs, torch's backward goes through them too, with zero
    cotangents (their ``+0.`` added to a ``-0.`` entry makes it ``+0.``)."""
    if not isinstance(x, Tensor):
        return []
    rows = []
    flat = outputs[k].reshape(-1)
    with _batched_function.cotangents_batching():
        for i in range(flat.numel()):
            if len(outputs) == 1:
                (g,) = _gradients([flat[i]], [x])
            else:
                cotangents = [minitorch.zeros_like(o) for o in outputs]
                cotangents[k].view(-1)[i] = 1
                (g,) = _gradients(outputs, [x], cotangents)
            rows.append(g)
    return rows


def _stack_rows(out: Tensor, x: Any, rows: list) -> Any:
    if not isinstance(x, Tensor):
        return None
    if not rows:  # torch's batch of no rows: the backward run on none, viewed
        (g,) = _gradients([out], [x], [minitorch.zeros_like(out)])
        return g.reshape(-1)[:0].reshape((*out.shape, *x.shape))
    return minitorch.stack(rows).reshape((*out.shape, *x.shape))


# ---------------------------------------------------------------- forward mode
def jvp(func: Callable[..., Any], primals: Any, tangents: Any, *, strict: bool = False,
        has_aux: bool = False) -> tuple:
    """``(func(*primals), J @ tangents)`` by forward-mode AD.

    >>> minitorch.func.jvp(lambda t: t ** 2, (minitorch.tensor([3.]),), (minitorch.tensor([1.]),))
    (tensor([9.]), tensor([6.]))
    """
    _check_primals(primals, tangents, func)
    given, spec = _flatten(primals)
    with _transform("forward") as outermost, fwAD.nested_level():
        duals = [own(fwAD.make_dual(p, t)) for p, t in zip(given, _flatten(tangents)[0])]
        output, aux = _split_aux(func(*_unflatten(duals, spec)), has_aux,
                                 "jvp(f, primals, tangents)")
        outputs, out_spec = _flatten(output)
        _check_tensor_outputs(outputs, "jvp(f, primals, tangents)")
        pairs = [fwAD.unwrapped_for_grad(out) for out in outputs]
        if strict and any(pair.tangent is None for pair in pairs):
            raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is "
                               "independent of the inputs. This is not allowed with "
                               "strict=True.")
        values = _unflatten([pair.primal for pair in pairs], out_spec)
        slopes = _unflatten([minitorch.zeros_like(pair.primal) if pair.tangent is None
                             else pair.tangent for pair in pairs], out_spec)
    result = (values, slopes, aux) if has_aux else (values, slopes)
    return _release(result, outermost)


def linearize(func: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is the Jacobian of ``func`` at
    ``primals`` times ``tangents`` (torch traces the graph once; here each call runs
    :func:`jvp`, same values).

    >>> out, jvp_fn = minitorch.func.linearize(minitorch.sin, minitorch.zeros(2))
    >>> jvp_fn(minitorch.ones(2))
    tensor([1., 1.])
    """
    output = func(*primals)
    flat_primals, spec = _flatten(primals)
    # torch's trace tangents are empty; zeros here, as func sees (and may print) them
    zeros = [p.new_empty(()).zero_().expand_as(p) for p in flat_primals]
    with traced_creation():  # torch's trace: what reads a traced value is refused here
        _linear_part(func, primals, zeros, traced=True)
    metadata = [(p.shape, p.device, p.dtype) for p in flat_primals]

    def jvp_fn(*tangents: Any) -> Any:
        flat_tangents, tangent_spec = _flatten(tangents)
        if tangent_spec != spec:
            raise RuntimeError(f"Expected the tangents {_spec_repr(tangent_spec)} to have the "
                               f"same argspec as the primals {_spec_repr(spec)}")
        for idx, (t, meta) in enumerate(zip(flat_tangents, metadata)):
            for what, want in zip(("shape", "device", "dtype"), meta):
                got = _read(t, what)
                if got != want:
                    raise RuntimeError(f"tangent:{idx} with {what} {got} in flattened pytree "
                                       f"doesn't match the {what} {want} of the "
                                       "corresponding primal.")
        result = _linear_part(func, primals, flat_tangents)
        if any(isinstance(t, Tensor) and t.requires_grad for t in flat_primals + flat_tangents):
            return result
        # torch replays a trace: a tensor func made requiring grad is made again without
        return _tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t, result)

    return output, jvp_fn


def _read(tangent: Any, name: str) -> Any:
    """Attribute ``name`` of ``tangent``, read one at a time as torch's check reads them: a
    tangent that is no tensor fails at the first it lacks, in Python's words."""
    if not hasattr(tangent, name):
        raise AttributeError(f"'{type(tangent).__name__}' object has no attribute '{name}'")
    return getattr(tangent, name)


def _linear_part(func: Callable[..., Any], primals: tuple, flat_tangents: list,
                 traced: bool = False) -> Any:
    """The tangents of ``func``'s outputs for the (flat) tangents of ``primals``; its other
    outputs as they are. torch traces this once in ``linearize``, so what it refuses is
    refused there."""
    given, spec = _flatten(primals)
    with _transform("trace") as outermost, fwAD.nested_level(), _batched_function.tracing():
        duals = [fwAD.make_dual(p, t) for p, t in zip(given, flat_tangents)]
        for dual in duals if traced else ():
            mark_traced(dual)
        outputs, out_spec = _flatten(func(*_unflatten(duals, spec)))
        pairs = [fwAD.unwrapped_for_grad(o) if isinstance(o, Tensor) else None for o in outputs]
        slopes = [o if pair is None else minitorch.zeros_like(pair.primal)
                  if pair.tangent is None else pair.tangent for o, pair in zip(outputs, pairs)]
    return _release(_unflatten(slopes, out_spec), outermost)


def _check_primals(primals: Any, tangents: Any, func: Callable[..., Any]) -> None:
    if not isinstance(primals, tuple):  # tangents: their structure is compared to primals'
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. "
                           "E.g. it should be valid to call f(*primals).")
    p_leaves, p_spec = _flatten(primals)
    t_leaves, t_spec = _flatten(tangents)
    _not_batched(p_leaves + t_leaves, lambda: func(*primals), "forward")
    if p_spec != t_spec:
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have "
                           "the same python structure. For example, if primals is a tuple of "
                           "3 tensors, tangents also must be. Got primals with structure "
                           f"{_spec_repr(p_spec)} and tangents with structure "
                           f"{_spec_repr(t_spec)}")
    for leaves, name in ((p_leaves, "primals"), (t_leaves, "tangents")):
        if not leaves:
            raise RuntimeError(f"jvp(f, primals, tangents): Expected {name} to contain at least "
                               "one Tensor.")
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"jvp(f, primals, tangents): Expected {name} to only contain "
                                   f"Tensors, got {type(leaf)}")


def jacfwd(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0,
           has_aux: bool = False, *, randomness: str = "error") -> Callable[..., Any]:
    """A function returning the Jacobian of ``func`` with respect to ``argnums``, one column
    (a ``jvp``) per input element: shape ``output.shape + input.shape``. The columns are
    torch's vmap over the unit tangents: ``randomness`` is vmap's (random ops refused by
    default; otherwise drawn once per column here).

    >>> minitorch.func.jacfwd(lambda t: t ** 2)(minitorch.tensor([1., 2.]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        nums = _argnums(argnums, len(args))
        leaves, spec = _flatten([args[n] for n in nums])
        _check_randomness(randomness)
        if not leaves:  # torch stacks the columns of no input element
            raise AssertionError("tensors must have at least one element")
        _not_batched(leaves, lambda: func(*args), "forward")
        given = argnums if isinstance(argnums, tuple) else (argnums,)
        target = _as_given(_unplaced(func, args, [n % len(args) for n in given if n < 0]),
                           leaves)
        with vmapping(randomness):
            columns = [_columns(target, args, nums, spec, leaves, k, has_aux)
                       for k in range(len(leaves))]
            first = next((c[1] for c in columns if c[1] is not None), None)
            # an empty input's columns: none, but torch's are a view of the tangents' graph
            zero = _push(target, args, nums, spec, leaves, k=None, has_aux=has_aux) \
                if first is None or any(not x.numel() for x in leaves) else None
        output, aux = first or _first(zero, has_aux)
        if first is None and has_aux:
            _check_aux_has_columns(aux)
        outputs, out_spec = _flatten(output)
        slopes = _flatten(zero[1])[0] if zero else outputs
        jac = []
        for i, out in enumerate(outputs):
            per_input = [_stack_columns(col[0], i, slopes[i], out, x)
                         for col, x in zip(columns, leaves)]
            part = _unflatten(per_input, spec)
            jac.append(part[0] if isinstance(argnums, int) else tuple(part))
        jac = _unflatten(jac, out_spec)
        return (jac, aux) if has_aux else jac
    return wrapper


def _as_given(func: Callable[..., Any], leaves: list) -> Callable[..., Any]:
    """``func``, each call after the first seeing the input ``leaves`` as they were given:
    jacfwd calls ``func`` once per column where torch's vmap calls it once, so what ``func``
    writes into its inputs in place (``F.elu_(x)``) is undone before the next call, memory
    and version, and is done once in all, as in torch."""
    saved = [(x, x.detach().clone()._data, x._version_counter.value) for x in leaves
             if isinstance(x, Tensor)]
    calls = [0]

    def call(*args: Any, **kwargs: Any) -> Any:
        if calls[0]:
            for x, data, version in saved:
                if x._version_counter.value != version:
                    x._data[...] = data
                    x._version_counter.value = version
        calls[0] += 1
        return func(*args, **kwargs)
    return call


def _check_aux_has_columns(aux: Any) -> None:
    """Refuse, as torch does, the aux of a Jacobian over no input element: torch keeps the
    aux of its first column, and with no columns a tensor aux has no first one to give."""
    if any(isinstance(leaf, Tensor) for leaf in _flatten(aux)[0]):
        raise IndexError("index 0 is out of bounds for dimension 0 with size 0")


def _unplaced(func: Callable[..., Any], args: tuple, positions: list) -> Callable[..., Any]:
    """``func`` with the arguments at ``positions`` kept as given: torch's jacfwd puts its
    duals in by comparing each position with ``argnums`` as written, which a negative one
    never equals, so that input counts as a constant (its Jacobian zeros)."""
    if not positions:
        return func

    def call(*full: Any) -> Any:
        full = list(full)
        for p in positions:
            full[p] = args[p]
        return func(*full)
    return call


def _stack_columns(columns: list, i: int, slope: Tensor, out: Tensor, x: Tensor) -> Tensor:
    """The Jacobian of output ``i`` for input ``x`` from its flat columns (none for an empty
    ``x``: an empty view of ``slope``, the output's tangent along no input)."""
    if not columns:
        return slope.reshape(-1)[:0].reshape((*out.shape, *x.shape))
    if not x.dim():  # torch's column dim of a 0-d input is squeezed away (SqueezeBackward1)
        return minitorch.stack(columns[i], -1).reshape((*out.shape, 1)).squeeze(-1)
    return minitorch.stack(columns[i], -1).reshape((*out.shape, *x.shape))


def _columns(func: Callable[..., Any], args: tuple, nums: tuple, spec: Any, leaves: list,
             k: int, has_aux: bool) -> tuple[list, Any]:
    """The jvps of ``func`` along each unit vector of input leaf ``k``: one list per output
    (each a list of flat columns), and the (output, aux) of the first call."""
    columns: list[list] = []
    first = None
    for j in range(leaves[k].numel()):
        result = _push(func, args, nums, spec, leaves, (k, j), has_aux)
        slopes, _ = _flatten(result[1])
        if first is None:
            first = _first(result, has_aux)
            columns = [[] for _ in slopes]
        for column, slope in zip(columns, slopes):
            column.append(slope.reshape(-1))
    return columns, first


def _push(func: Callable[..., Any], args: tuple, nums: tuple, spec: Any, leaves: list,
          k: tuple[int, int] | None, has_aux: bool) -> tuple:
    """The jvp of ``func`` along element ``j`` of input leaf ``i`` (``k = (i, j)``; None:
    along no input, for the output alone)."""
    tangents = [minitorch.zeros_like(t) for t in leaves]
    if k is not None:
        i, j = k
        unit = minitorch.zeros(leaves[i].numel(), dtype=leaves[i].dtype)
        unit[j] = 1
        tangents[i] = unit.reshape(leaves[i].shape)
    return jvp(_with_args(func, args, nums, spec), tuple(leaves), tuple(tangents),
               has_aux=has_aux)


def _first(result: tuple, has_aux: bool) -> tuple[Any, Any]:
    """``(output, aux)`` of one :func:`jvp` result."""
    return result[0], result[2] if has_aux else None


def _with_args(func: Callable[..., Any], args: tuple, nums: tuple, spec: Any) -> Callable:
    """``func`` as a function of the leaves of the arguments ``nums`` only."""
    def call(*leaves: Any) -> Any:
        chosen = _unflatten(list(leaves), spec)
        full = list(args)
        for n, value in zip(nums, chosen):
            full[n] = value
        return func(*full)
    return call


def hessian(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:
    """A function returning the Hessian of ``func``'s scalar result: ``jacfwd(jacrev(func))``.

    >>> minitorch.func.hessian(lambda t: (t ** 3).sum())(minitorch.tensor([1., 2.]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


# ---------------------------------------------------------------- batching
def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0,
         randomness: str = "error", *, chunk_size: int | None = None) -> Callable[..., Any]:
    """``func`` mapped over dim ``in_dims`` of its inputs, the results' batch at ``out_dims``
    (``None`` in ``in_dims``: that input is shared). ``func`` runs once on the whole batch
    where its ops have batching rules, else once per slice, the results stacked.

    >>> minitorch.func.vmap(lambda r: r.sum())(minitorch.tensor([[1., 2.], [3., 4.]]))
    tensor([3., 7.])
    """
    _check_randomness(randomness)
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        leaves, spec = _flatten(args)
        _not_batched(leaves)
        _check_out_dims(out_dims, func)
        call = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
        dims = _leaf_dims(in_dims, args, spec, call, _name(func))
        _check_dims(leaves, dims, call)
        size = _batch_size(leaves, dims)
        _check_chunks(size, chunk_size)
        with vmapping(randomness):
            out = _mapped(func, leaves, dims, spec, kwargs, size, out_dims, randomness)
        if chunk_size is not None and isinstance(out, Tensor) and isinstance(out_dims, tuple):
            # torch's chunks are joined by a stricter reading of out_dims: no 1-tuple for a
            # lone tensor
            raise AssertionError("flat_out_dims must not be None")
        return out
    return wrapper


def _not_batched(leaves: list, probe: Callable[[], Any] | None = None,
                 kind: str = "reverse") -> None:
    """A transform has no batching rule here: called inside vmap's one call on the whole
    batch, it sends vmap to one call per example (torch nests its levels instead). ``probe``
    (the transform's function on the batch, inside a level of ``kind``) runs first: what
    torch's batched call of it refuses (``.item()``, data-dependent control flow) is refused
    as in torch, not hidden by the plain tensors each example's call sees."""
    if any(isinstance(x, BatchedTensor) for x in leaves):
        if probe is not None:
            with _transform(kind):
                probe()
        raise Unbatched("transform")


def _check_chunks(size: int, chunk_size: Any) -> None:
    """What torch's chunked vmap does with ``chunk_size``: a float fails in its arithmetic
    and a batch of none leaves no chunk to call ``func`` on (its assertion)."""
    if chunk_size is None:
        return
    _check_chunk_count(chunk_size)
    if not size:
        raise AssertionError("arg_spec must not be None")


def _check_chunk_count(chunk_size: Any) -> None:
    """torch's chunk sizes are ``[chunk_size] * (total // chunk_size)``: a list times a float
    fails."""
    if not isinstance(chunk_size, int):
        raise TypeError(f"can't multiply sequence by non-int of type "
                        f"'{type(chunk_size).__name__}'")


def _check_randomness(randomness: str) -> None:
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")


def _name(func: Callable[..., Any]) -> str:
    return getattr(func, "__name__", repr(func))


def _check_out_dims(out_dims: Any, func: Callable[..., Any]) -> None:
    """torch's check, before the call: ``out_dims`` is an int, None, or a tree of them."""
    if not all(d is None or isinstance(d, int) for d in _flatten(out_dims)[0]):
        raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an "
                         "int, None or a python collection of ints representing where in the "
                         "outputs the vmapped dimension should appear.")


def _out_dims(out_dims: Any, out: Any, func: Callable[..., Any]) -> list:
    """The batch dim of each leaf of ``func``'s output ``out``: ``out_dims`` is an int (or
    None) for every leaf, or a tree shaped like a prefix of ``out`` (a lone tensor also takes a
    1-tuple), as torch reads it."""
    out_spec = _flatten(out)[1]
    if isinstance(out, (Tensor, BatchedTensor)):
        single = out_dims is None or isinstance(out_dims, int)
        flat = [out_dims] if single else list(out_dims) if (
            isinstance(out_dims, tuple) and len(out_dims) == 1) else None
    else:
        flat = _broadcast(out_dims, out_spec)
    if flat is None:
        raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is "
                         "not compatible with the structure of `outputs`. out_dims has structure "
                         f"{_spec_repr(_flatten(out_dims)[1])} but outputs has structure "
                         f"{_spec_repr(out_spec)}.")
    return flat


def _mapped(func: Callable[..., Any], leaves: list, dims: list, spec: Any, kwargs: dict,
            size: int, out_dims: Any, randomness: str) -> Any:
    """vmap's work: one call on the whole batch where it can, else one per example."""
    before = minitorch.get_rng_state()
    once = _run_once(func, leaves, dims, spec, kwargs, out_dims)
    if once is not None:
        return once
    # what the batched attempt drew before an op sent it to the per-example calls is
    # drawn again by them: torch draws once
    minitorch.set_rng_state(before)
    results = []
    state = minitorch.get_rng_state() if randomness == "same" else None
    for i in range(max(size, 1)):  # a batch of none: one stand-in example tells the shapes
        if state is not None:  # each example draws what the first drew
            minitorch.set_rng_state(state)
        sliced = [_example(x, d, i, size) for x, d in zip(leaves, dims)]
        results.append(func(*_unflatten(sliced, spec), **kwargs))
    flat = _out_dims(out_dims, results[0], func)
    if None in flat:  # outputs with no batch dim: the same for every example
        _unbatched(func, leaves, dims, spec, kwargs, flat, size)
    outputs = [_flatten(r)[0] for r in results]
    _no_batch_where_none([BatchedTensor(outputs[0][j]) if any(
        not _alike(o[j], outputs[0][j]) for o in outputs[1:]) else None
        for j in range(len(flat))], flat, func)  # (one that differs by example has a batch:
    # a draw of 'different' randomness, which leaves no graph)
    out_spec = _flatten(results[0])[1]
    stacked = [outputs[0][j] if d is None else _stack_out([o[j] for o in outputs], d, func)
               for j, d in enumerate(flat)]
    if not size:
        stacked = [t if d is None else t.narrow(d, 0, 0) for t, d in zip(stacked, flat)]
    return _unflatten(stacked, out_spec)


def _run_once(func: Callable[..., Any], leaves: list, dims: list, spec: Any, kwargs: dict,
              out_dims: Any) -> Any:
    """``func``'s outputs for the whole batch from one call on batched tensors; None where an
    op it calls has no batching rule here (or fails: the per-slice calls then say why)."""
    batched = [x if d is None else BatchedTensor.at(x, d) for x, d in zip(leaves, dims)]
    try:
        with examples_are_tensors():
            out = func(*_unflatten(batched, spec), **kwargs)
    except Refused as refused:  # torch's RuntimeError, whatever minitorch called it
        raise RuntimeError(str(refused)) from None
    except Raised as raised:
        raise raised.error from None
    except Unbatched:
        return None
    except Exception as error:
        none = out_dims is None or (isinstance(out_dims, (tuple, list)) and None in out_dims)
        if any(isinstance(b, BatchedTensor) and not b.value.shape[0] for b in batched) \
                and (none or "BatchedTensor" not in str(error)):  # (an op with no rule names
            raise  # it) a batch of none: no example's call would say why
        return None
    values, out_spec = _flatten(out)
    flat = _out_dims(out_dims, out, func)
    _no_batch_where_none(values, flat, func)
    mapped = [(v, d) for v, d in zip(values, flat) if d is not None]
    if not mapped or not all(isinstance(v, BatchedTensor) for v, _ in mapped):
        return None  # an output that does not depend on the batch: stacked copies instead
    if not all(-v.value.dim() <= d < v.value.dim() for v, d in mapped):
        return None  # the per-slice path says what is wrong
    return _unflatten([v if d is None else _moved(v.value, 0, d) for v, d in zip(values, flat)],
                      out_spec)


def _alike(a: Any, b: Any) -> bool:
    """Two examples' outputs are the same: tensors of one shape and values (nan alike)."""
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        return a is b or bool(a == b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    a, b = a.detach(), b.detach()
    same = a == b
    return bool((same | (a.isnan() & b.isnan()) if a.is_floating_point() else same).all())


def _no_batch_where_none(values: list, flat: list, func: Callable[..., Any]) -> None:
    """torch refuses an output with a batch dim where its out_dim is None."""
    if any(isinstance(v, BatchedTensor) and d is None for v, d in zip(values, flat)):
        raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` can not return a "
                         "BatchedTensor when out_dim is None")


def _example(x: Tensor, d: int | None, i: int, size: int) -> Tensor:
    """Example ``i`` of ``x`` batched along ``d`` (zeros standing in for a batch of none)."""
    if d is None:
        return x
    return x.select(d, i) if size else x.new_zeros(x.shape[:d] + x.shape[d:][1:])


def _unbatched(func: Callable[..., Any], leaves: list, dims: list, spec: Any, kwargs: dict,
               flat: list, size: int) -> None:
    """Where out_dims says None (``flat``), ``func``'s output must not depend on the batch:
    checked with one call on batched tensors where the ops have rules, else by the graph of
    the first example's output (:func:`_reaches_example`)."""
    batched = [x if d is None else BatchedTensor.at(x, d) for x, d in zip(leaves, dims)]
    try:
        with examples_are_tensors():
            values = _flatten(func(*_unflatten(batched, spec), **kwargs))[0]
    except Refused as refused:  # torch's RuntimeError, whatever minitorch called it
        raise RuntimeError(str(refused)) from None
    except Exception:  # an op without a batching rule here (an in-place one, say)
        values = _reaches_example(func, leaves, dims, spec, kwargs, flat, size)
    _no_batch_where_none(values, flat, func)


def _reaches_example(func: Callable[..., Any], leaves: list, dims: list, spec: Any,
                     kwargs: dict, flat: list, size: int) -> list:
    """``func``'s outputs on copies of the first example, each output that out_dims says
    None (``flat``) wrapped as batched where its graph reaches an example: torch's batched
    tensor is the same whatever op (``mul_``) made it."""
    roots = [_example(x, d, 0, size).detach()._set_requires_grad(True)
             if d is not None and x.is_floating_point() else None for x, d in zip(leaves, dims)]
    with grad_mode.enable_grad():
        values = _flatten(func(*_unflatten([x if r is None else r.clone() for x, r in
                                            zip(leaves, roots)], spec), **kwargs))[0]
    wrt = [r for r in roots if r is not None]
    return [BatchedTensor(v) if d is None and wrt and isinstance(v, Tensor) and v.grad_fn
            and any(g is not None for g in minitorch.autograd.grad(
                v, wrt, minitorch.ones_like(v), retain_graph=True, allow_unused=True))
            else v for v, d in zip(values, flat)]


def _moved(x: Tensor, source: int, destination: int) -> Tensor:
    """``x`` with dim ``source`` moved to ``destination`` (torch's movedim: a permute), or
    ``x`` itself where it stays."""
    source, destination = source % x.dim(), destination % x.dim()
    if source == destination:
        return x
    order = [d for d in range(x.dim()) if d != source]
    order.insert(destination, source)
    return x.permute(*order)


def _leaf_dims(in_dims: Any, args: tuple, spec: Any, call: str, name: str) -> list:
    """The mapped dim of each leaf of ``args``: ``in_dims`` is an int (or None) for every
    leaf, or a tuple shaped like a prefix of ``args`` (torch's broadcast of a pytree);
    ``name``: the mapped function's."""
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"{call}: expected `in_dims` to be int or a (potentially nested) tuple "
                         f"matching the structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({name})(<inputs>): got no inputs. "
                         "Maybe you forgot to add inputs, or you are trying to vmap over a "
                         "function with no inputs. The latter is unsupported.")
    dims = _broadcast(in_dims, spec)
    if dims is None:
        raise ValueError(f"{call}: in_dims is not compatible with the structure of `inputs`. "
                         f"in_dims has structure {_spec_repr(_flatten(in_dims)[1])} but inputs "
                         f"has structure {_spec_repr(spec)}.")
    return dims


def _broadcast(prefix: Any, spec: Any) -> list | None:
    """``prefix``'s leaves repeated over the leaves of ``spec`` below them; None where
    ``prefix`` is not a prefix of that tree."""
    _, sub_spec = _flatten(prefix)
    if sub_spec is None:  # a leaf, whatever its type, stands for every leaf below it
        return [prefix] * _leaf_count(spec)
    if spec is None or sub_spec[0] is not spec[0] or sub_spec[1] != spec[1]:
        return None
    items = prefix.values() if isinstance(prefix, dict) else prefix
    if len(items) != len(spec[2]):
        return None
    dims: list = []
    for item, child in zip(items, spec[2]):
        part = _broadcast(item, child)
        if part is None:
            return None
        dims.extend(part)
    return dims


def _check_dims(leaves: list, dims: list, call: str) -> None:
    for x, d in zip(leaves, dims):
        if d is not None and not isinstance(d, int):
            raise ValueError(f"{call}: Got in_dim={d} for an input but in_dim must be either an "
                             "integer dimension or None.")
        if d is not None and not isinstance(x, Tensor):
            raise ValueError(f"{call}: Got in_dim={d} for an input but the input is of type "
                             f"{type(x)}. We cannot vmap over non-Tensor arguments, please use "
                             "None as the respective in_dim")
        if d is not None and not -x.dim() <= d < x.dim():
            raise ValueError(f"{call}: Got in_dim={d} for some input, but that input is a Tensor "
                             f"of dimensionality {x.dim()} so expected in_dim to satisfy "
                             f"-{x.dim()} <= in_dim < {x.dim()}.")


def _batch_size(leaves: list, dims: list) -> int:
    sizes = [x.shape[d] for x, d in zip(leaves, dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(n != sizes[0] for n in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _stack_out(values: list, out_dim: int, func: Callable[..., Any]) -> Any:
    if not all(isinstance(v, Tensor) for v in values):
        name = _name(func)
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                         f"{type(values[0])}. Did you mean to set out_dims= to None for output?")
    return minitorch.stack(values, out_dim)


# ---------------------------------------------------------------- modules
def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = None,
                    kwargs: dict | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """``module(*args, **kwargs)`` with its parameters and buffers replaced, for this call
    only, by the tensors of ``parameter_and_buffer_dicts`` (names as in ``state_dict``).

    >>> lin = minitorch.nn.Linear(1, 1)
    >>> params = {"weight": minitorch.tensor([[2.]]), "bias": minitorch.tensor([1.])}
    >>> minitorch.func.functional_call(lin, params, minitorch.tensor([3.]))
    tensor([7.])
    """
    replacements = _replacements(parameter_and_buffer_dicts)
    if strict:
        _check_strict(module, replacements)
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _swapped(module, replacements):
        return module(*args, **(kwargs or {}))


def stack_module_state(models: Any) -> tuple[dict, dict]:
    """The parameters and buffers of same-class ``models``, each stacked along a new dim 0:
    what ``vmap(functional_call)`` over an ensemble takes. Stacked parameters are new leaves.

    >>> params, buffers = stack_module_state([minitorch.nn.Linear(2, 3) for _ in range(4)])
    >>> tuple(params["weight"].shape), buffers
    ((4, 3, 2), {})
    """
    if len(models) == 0:  # (a sequence, as torch reads it: by len() and by index)
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    first = type(models[0])
    if any(type(m) is not first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    return (_stacked([dict(m.named_parameters()) for m in models]),
            _stacked([dict(m.named_buffers()) for m in models]))


def _stacked(states: list[dict]) -> dict:
    """Each name's tensors stacked; a new leaf that requires grad where they all do."""
    stacked = {}
    for name in states[0]:
        tensors = [state[name] for state in states]
        wanted = {t.requires_grad for t in tensors}
        if len(wanted) > 1:
            raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        result = minitorch.stack(tensors)
        stacked[name] = result.detach().requires_grad_() if wanted == {True} else result
    return stacked


def _replacements(dicts: Any) -> dict:
    """functional_call's dict, or list or tuple of dicts, as one dict (no name twice)."""
    if isinstance(dicts, dict):
        return dicts
    if not isinstance(dicts, (tuple, list)):
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of "
                         f"dicts, but got {type(dicts)}")
    if not all(isinstance(d, dict) for d in dicts):
        raise ValueError("Expected all elements of parameter_and_buffer_dicts to be "
                         "dictionaries")
    names = [name for d in dicts for name in d]
    repeated = list(dict.fromkeys(n for n in names if names.count(n) > 1))
    if repeated:
        raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional "
                         "call is ambiguous")
    return {name: value for d in dicts for name, value in d.items()}


def _check_strict(module: Any, replacements: dict) -> None:
    names = {n for n, _ in module.named_parameters()} | {n for n, _ in module.named_buffers()}
    missing = sorted(names - set(replacements))
    unexpected = sorted(set(replacements) - names)
    errors = [f"{what} key(s): {', '.join(map(repr, keys))}."
              for what, keys in (("Unexpected", unexpected), ("Missing", missing)) if keys]
    if errors:
        raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                           + "\n\t".join(errors))


@contextlib.contextmanager
def _swapped(module: Any, replacements: dict) -> Iterator[None]:
    """Each named tensor in place of the module's own, put back afterwards."""
    saved = []
    try:
        for name, value in replacements.items():
            if value is not None and not isinstance(value, (Tensor, BatchedTensor)):
                raise TypeError(f"{value} is not an instance of torch.Tensor")
            owner, _, leaf = name.rpartition(".")
            sub = module.get_submodule(owner) if owner else module
            registry = sub._parameters if leaf in sub._parameters else sub._buffers
            saved.append((sub, registry, leaf, registry.get(leaf, None), leaf in registry))
            registry[leaf] = value
            sub.__dict__[leaf] = value
        yield
    finally:
        for sub, registry, leaf, old, had in reversed(saved):
            if had:
                registry[leaf] = old
                sub.__dict__[leaf] = old
            else:
                registry.pop(leaf, None)
                sub.__dict__.pop(leaf, None)
