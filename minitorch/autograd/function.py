"""Custom differentiable operations: ``Function``, its ``ctx``, and ``apply``.

A Function pairs a ``forward`` with a ``backward``. ``apply`` runs the forward without
recording, then — when grad mode is on and an input requires grad — creates the backward
node (which *is* the ``ctx`` the forward saw), links it to the inputs' nodes through
``next_functions`` and makes it the ``grad_fn`` of the outputs. minitorch's built-in
operations are Functions too; the Functions you write run through ``apply_custom``, a
course seam that ``use(my_apply)`` replaces with your own ``apply``.

>>> import minitorch
>>> from minitorch.autograd import Function
>>> class Exp(Function):
...     @staticmethod
...     def forward(ctx, i):
...         result = i.exp()
...         ctx.save_for_backward(result)
...         return result
...     @staticmethod
...     def backward(ctx, grad_output):
...         result, = ctx.saved_tensors
...         return grad_output * result
>>> a = minitorch.tensor([1.], requires_grad=True)
>>> Exp.apply(a).backward(); a.grad
tensor([2.7183])
"""

from __future__ import annotations

import functools
import inspect
import numbers
import sys
import traceback
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .. import _batched_function, course
from .. import _tensor as T
from .._args import legacy, type_name
from ..backend import FLOAT_ERRORS, HOST_SCALARS, IGNORE_ALL, namespace, view_key
from . import anomaly_mode, forward_ad, grad_mode, profiler, torch_events
from .graph import (
    EMPTY,
    FREED,
    Node,
    SavedTensor,
    _sequence,
    _tensors,
    flat_edges,
    not_writable,
    refuse_write,
)

__all__ = ["BackwardCFunction", "Function", "FunctionCtx", "apply_custom", "once_differentiable",
           "use"]


# the public names of torch's built-in (C++) nodes
_NODE_API = frozenset({"metadata", "name", "next_functions", "register_hook", "register_prehook",
                       "requires_grad"})


class FunctionCtx:
    """What ``forward`` and ``backward`` share: saved tensors, flags and your own attributes."""

    _dirty: tuple = ()  # class defaults until mark_dirty / mark_non_differentiable set them
    _non_differentiable: tuple = ()

    def save_for_forward(self, *tensors: T.Tensor | None) -> None:
        """Save tensors for ``jvp`` (forward-mode AD), read back there as ``ctx.saved_tensors``."""
        for tensor in tensors:
            if not (tensor is None or isinstance(tensor, T.Tensor)):
                raise AssertionError("save_for_forward expects all arguments to be tensors; you "
                                     "should save non-tensors as attributes on ctx.")
        self._saved_for_forward = tensors

    def save_for_backward(self, *tensors: T.Tensor | None) -> None:
        """Save tensors (or None) for backward; read them back with ``ctx.saved_tensors``
        (anything else is refused when the call is recorded, as in torch)."""
        self._to_save = tensors

    def mark_dirty(self, *tensors: T.Tensor) -> None:
        """Declare inputs that forward modified in place (and returns)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors: T.Tensor) -> None:
        """Declare outputs that have no gradient (e.g. indices)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None instead of zeros for unused outputs."""
        if type(value) is not bool:  # torch's C++ argument: a Python bool, nothing else
            raise TypeError("set_materialize_grads received an invalid combination of "
                            "arguments - got (), but expected (bool)")
        self._materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The node of one ``Function.apply`` call; it is also the ``ctx`` of that call."""

    # What every recorded call sets lives in slots, and a built-in op declares the few
    # attributes its forward keeps (``node_slots``): a node of ``x * y`` then has no instance
    # dict, one object fewer for the garbage collector to walk (CPython untracks an instance
    # dict only in a full collection) and ~150 bytes fewer.
    __slots__ = ("_saved", "_to_save", "needs_input_grad")
    _forward_cls: type[Function]
    _saved_names: tuple[str, ...] = ()
    _saved_values: dict[str, Any] = {}
    _recorded = True
    _getset_owner = "torch._C._FunctionBase"
    # Defaults most calls keep, read from the class until a call sets its own.
    _input_shapes: tuple = ()
    _outputs_meta: tuple = ()
    _materialize_grads = True

    def __init__(self, needs_input_grad: tuple[bool, ...] = ()) -> None:
        self._next: tuple = ()  # Node's two slots, set here: one call fewer per op
        self._seq = next(_sequence)
        self._saved: tuple[SavedTensor | None, ...] = ()
        self._to_save: tuple = ()
        self.needs_input_grad = needs_input_grad

    _in_jvp = False  # True while forward-mode AD runs the Function's jvp

    def _flat_next(self) -> tuple:
        """``next_functions``, flat. A built-in op's node whose one input that needs grad is
        output 0 of its node keeps that node alone in ``_next`` (``_edges``): the rest of its
        entries are ``(None, 0)``, where ``needs_input_grad`` is False."""
        edges = self._next
        if edges.__class__ is tuple:
            return edges
        before, after = _AROUND_ONE[self.needs_input_grad]
        return (*before, edges, 0, *after)

    @property
    def saved_tensors(self) -> tuple[T.Tensor | None, ...]:
        """The tensors given to ``save_for_backward`` (to ``save_for_forward`` in ``jvp``),
        version-checked."""
        if self._in_jvp and "_saved_for_forward" in self.__dict__:
            return self._saved_for_forward
        if self._saved == () and self._to_save:  # read inside forward, before packing
            return tuple(self._to_save)
        tensors = []
        try:
            for s in self._saved:
                tensors.append(None if s is None else s.unpack(self))
        except AttributeError as error:  # an unpack hook's: Python would answer it by calling
            self.__dict__["_getter_error"] = error  # __getattr__, which raises it instead
            raise
        return tuple(tensors)

    @saved_tensors.setter
    def saved_tensors(self, value: Any) -> None:
        raise not_writable(self, "saved_tensors")

    def __getattr__(self, name: str) -> Any:
        error = self.__dict__.pop("_getter_error", None)
        if error is not None:
            raise error
        if name.startswith("_raw_saved_"):  # the SavedTensor itself, for register_hooks
            names = type(self)._saved_names
            key = name[len("_raw_saved_"):]
            if key in names:
                return self._saved_object(names.index(key))
        if name.startswith("_saved_"):
            names = type(self)._saved_names
            key = name[len("_saved_"):]
            if key in names:  # unpacks this one tensor only, as torch does
                i = names.index(key)
                if self._saved == () and self._to_save:
                    return self._to_save[i]
                saved = self._saved[i] if i < len(self._saved) else None
                if saved is None and key == "other":
                    return self._saved_number()
                return None if saved is None else saved.unpack(self, by_backward=False)
            read = type(self)._saved_values.get(key)
            if read is not None:  # a number, flag or size the forward kept, in torch's form
                return read(self)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        """Python's listing, with torch's names of what the node saved (``_saved_self``, and
        ``_raw_saved_self`` for a tensor, ``_saved_dim``...) in place of minitorch's own
        slots for them.

        >>> import minitorch
        >>> [a for a in dir((minitorch.ones(2, requires_grad=True) * 2).grad_fn)
        ...  if a.startswith(("_saved", "_raw_saved"))]
        ['_raw_saved_other', '_raw_saved_self', '_saved_other', '_saved_self']
        """
        cls = type(self)
        names = set(super().__dir__()) - {"_saved", "_saved_names", "_saved_number",
                                          "_saved_object", "_saved_values"}  # (minitorch's)
        if cls._forward_cls._trusted:  # a built-in op's node: torch's C++ node shows no ctx
            names = {n for n in names if n.startswith("_") or n in _NODE_API}  # (what the op
            # kept for its backward, save_for_backward...)
        names.update(f"_saved_{n}" for n in (*cls._saved_names, *cls._saved_values))
        names.update(f"_raw_saved_{n}" for n in cls._saved_names)
        return sorted(names)

    def _saved_object(self, i: int) -> SavedTensor:
        """The ``i``-th SavedTensor, as torch's node holds one for each name even where it
        saved nothing (``x * 2``'s self: one of value None) or a number (its other)."""
        saved = self._saved[i] if i < len(self._saved) else None
        if saved is not None:
            return saved
        if FREED in self._saved:
            return FREED
        if type(self)._saved_names[i] == "other" and getattr(self, "scalar", None) is not None:
            return SavedTensor(self._saved_number(), False)
        return EMPTY

    def _saved_number(self) -> T.Tensor | None:
        """A number operand (``x * 2``'s 2) as torch saves it for ``_saved_other``: a 0-d
        tensor of its Python type's dtype (int64, float64, bool), freed with the graph."""
        number = getattr(self, "scalar", None)  # Mul's and Div's slot for it
        if number is None:
            return None
        self._check_not_released()
        from .._creation import tensor
        from .._dtype import bool as bool_
        from .._dtype import float64, int64
        return tensor(number, dtype=bool_ if isinstance(number, bool) else
                      int64 if isinstance(number, numbers.Integral) else float64)

    def _release(self) -> None:
        saved = self._saved
        for s in saved:
            if s is not None:
                s.release()
        numbers = 0
        for name in self._forward_cls.saved_slots:
            numbers += getattr(self, name, None) is not None  # torch saved it, now freed
        if numbers:
            released = (*saved, *(FREED,) * numbers)
            self._saved = _shared(released) if _only_none(saved) else released

    def _check_not_released(self) -> None:
        """torch's 'second time' error for a node whose saved slots were released (a node
        that reads its saved tensors gets it from them)."""
        if FREED in self._saved:
            FREED.unpack(self)  # raises

    def _apply(self, grads: tuple[T.Tensor | None, ...]) -> tuple[T.Tensor | None, ...]:
        if grad_mode._state.grad_enabled:
            self._check_not_released()
            return self._backward(grads)
        return _tensors(self._apply_arrays(grads))

    def _apply_arrays(self, grads: tuple) -> tuple:
        """The engine's call when no graph of the backward is wanted: a built-in op's backward
        on arrays (gradients come as arrays or tensors), which gives arrays. Otherwise the
        backward on tensors."""
        self._check_not_released()
        cls = self._forward_cls
        if cls.backward_arrays is not None and cls._trusted and not _among(None, grads) \
                and not _unpacks_by_hook(self):
            inputs = []
            for g in grads:
                inputs.append(g._data if isinstance(g, T.Tensor) else g)
            arrays = cls.backward_arrays(self, *inputs)
            if arrays is not NotImplemented:
                return _grads_of_arrays(arrays)
        return self._backward(_tensors(grads))

    def _backward(self, grads: tuple[T.Tensor | None, ...]) -> tuple[T.Tensor | None, ...]:
        """The Function's ``backward``, on tensors."""
        cls = self._forward_cls
        if self._materialize_grads and _among(None, grads):
            if cls._trusted and all(g is None for g in grads):  # as torch's built-in nodes
                return (None,) * (len(self._flat_next()) // 2)
            grads = tuple(T.zeros_of_meta(m) if g is None else g
                          for g, m in zip(grads, self._outputs_meta))
        result = _user_backward(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        if cls._trusted and not self._input_shapes:  # (set where an unpack hook's value
            return result  # may not fit: the engine's checks of a built-in node's gradients)
        return _validate_grads(self, result)


def _unpacks_by_hook(node: BackwardCFunction) -> bool:
    """Whether a tensor ``node`` saved comes back from an unpack hook, which may give any
    shape or dtype: its backward then runs on tensors, whose ops refuse what does not fit in
    torch's words (on arrays, numpy's)."""
    return any(getattr(s, "_unpack_hook", None) is not None for s in node._saved)


def _user_backward(node: BackwardCFunction, *grads: Any) -> Any:
    """The Function's ``backward`` (or ``vjp``) with the node as ctx, as it returns it; a
    custom Function's node has it as ``apply``, as torch's ``BackwardCFunction.apply``."""
    cls = node._forward_cls
    vjp = cls.vjp if cls.vjp is not Function.vjp else None  # torch's other name for backward
    if vjp is not None and cls.backward is not Function.backward:
        raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is "
                           "not allowed. You should only implement one of them.")
    return (vjp or cls.backward)(node, *grads)


def _shared(saved: tuple) -> tuple:
    """The tuple equal to ``saved`` that every node shares, for a ``saved`` that holds no
    tensor (only None and FREED, as ``x * 2`` saves): a big graph keeps no tuple a node."""
    return _SHARED.setdefault(saved, saved)


_SHARED: dict[tuple, tuple] = {}


def _grads_of_arrays(arrays: tuple) -> tuple:
    """What an array backward returned, as the engine carries it: arrays (numpy gives a
    scalar for a 0-d result, made an array here). The engine wraps the one that reaches a
    leaf first (see ``engine._deliver``)."""
    grads = []
    for a in arrays:
        grads.append(namespace(a).asarray(a) if isinstance(a, HOST_SCALARS) else a)
    return tuple(grads)


def _validate_grads(node: BackwardCFunction, grads: tuple) -> tuple:
    """torch's checks on what a custom backward returned, and broadcast reduction."""
    metas = node._input_shapes
    name = node.name()
    if len(grads) < len(metas) or any(g is not None for g in grads[len(metas):]):
        raise RuntimeError(
            f"function {name} returned an incorrect number of gradients "
            f"(expected {len(metas)}, got {len(grads)})"
        )
    for i, (g, meta) in enumerate(zip(grads, metas)):  # every one's kind first, then the
        if meta is None and g is not None:  # engine's checks of each
            raise RuntimeError(
                f"function {name} returned a gradient different than None at position "
                f"{i + 1}, but the corresponding forward input was not a Variable"
            )
        if g is not None and not isinstance(g, T.Tensor):
            raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
    out = []
    for i, (g, meta) in enumerate(zip(grads, metas)):
        if meta is None:
            continue
        if not node.needs_input_grad[i]:  # no edge: torch's engine checks nothing of it
            out.append(None)
            continue
        if g is not None and tuple(g.shape) != meta[0]:
            g = reduce_to_shape(name, i, g, meta[0])
        if g is not None and g.dtype is not meta[1]:
            g = g.to(meta[1])
        if g is not None and meta[2] is not None:  # (a built-in node's: not checked)
            g = on_device(g, meta[2], f"Function {name} returned an invalid gradient at index {i}")
        out.append(g)
    return tuple(out)


def on_device(grad: T.Tensor, device: Any, what: str) -> T.Tensor:
    """The engine's device check of a gradient for a tensor on ``device``: a 0-d gradient
    is moved there (torch's CPU scalars), any other refused in ``what``'s words."""
    if grad.device == device:
        return grad
    if grad.dim():
        raise RuntimeError(f"{what} - expected device {device} but got {grad.device}")
    if grad.is_meta:
        raise NotImplementedError("Cannot copy out of meta tensor; no data!")
    return grad.to(device)


def reduce_to_shape(name: str, index: int, grad: T.Tensor, shape: tuple) -> T.Tensor:
    """The engine's check of a gradient for an input of ``shape``: summed down to it where
    the input expands to the gradient's shape, else torch's "invalid gradient" error."""
    if not T.expandable_to(shape, tuple(grad.shape)):
        got = list(grad.shape)
        raise RuntimeError(
            f"Function {name} returned an invalid gradient at index {index} - got {got} "
            f"but expected shape compatible with {list(shape)}"
        )
    return T.sum_to(grad, shape)


class _FunctionMeta(type):
    """Gives each Function subclass its node class, named ``<Name>Backward``."""

    def __init__(cls, name: str, bases: tuple, attrs: dict) -> None:
        super().__init__(name, bases, attrs)
        node_name = attrs.get("node_name", f"{name}Backward")
        # a custom Function's node lives in torch.autograd.function, as torch's does
        where = cls.__module__ if cls._trusted else "torch.autograd.function"
        namespace = {"_forward_cls": cls, "_saved_names": getattr(cls, "saved_names", ()),
                     "_saved_values": getattr(cls, "saved_values", {}),
                     "__module__": where, "__slots__": attrs.get("node_slots", ())}
        if cls._trusted:  # a built-in op saves tensors or None: nothing to check
            namespace["save_for_backward"] = _save_unchecked
        else:  # torch's built-in nodes have no ``apply``; a custom Function's node has
            namespace["apply"] = _user_backward
        if cls._trusted:  # torch's C++ node
            namespace["_getset_owner"] = None
        cls._backward_cls = type(node_name, (BackwardCFunction,), namespace)
        if cls._trusted:
            cls._backward_cls._write_refusing = _write_refusing(cls._backward_cls)


def _write_refusing(node_cls: type) -> type:
    """The twin of a built-in op's node class that a node becomes once user code holds it
    (``graph.exposed``): writes refused in torch's words, the ``_saved_*`` getters among the
    attributes torch calls not writable."""
    saved = {f"{prefix}{name}" for name in (*node_cls._saved_names, *node_cls._saved_values)
             for prefix in ("_saved_", "_raw_saved_")}
    twin = type(node_cls.__name__, (node_cls,), {
        "__slots__": (), "__module__": node_cls.__module__, "__setattr__": refuse_write,
        "_write_refusing": None, "_getsets": node_cls._getsets | saved})
    del twin._torch_name  # the op class's own, which an op may rename after this
    return twin


def _save_unchecked(ctx: BackwardCFunction, *tensors: T.Tensor | None) -> None:
    ctx._to_save = tensors


class Function(metaclass=_FunctionMeta):
    """Base class for differentiable operations with a hand-written backward.

    Subclasses define ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` as static
    methods and are called through ``apply``. ``backward`` returns one gradient per forward
    argument (None where there is none). See the module docstring for an example.
    """

    _trusted = False  # built-in ops skip the checks on what backward returns
    # A built-in op may also give its backward on arrays, for when no graph of the backward is
    # wanted (tests/test_array_backward.py proves it equal to ``backward``); it returns
    # NotImplemented for the cases it leaves to ``backward``. Each array it returns is new, or
    # one of the gradients it got (or a view of one), never a saved tensor's memory: a leaf
    # may keep a new one as its .grad (see _grads_of_arrays).
    backward_arrays: Callable[..., Any] | None = None
    # The attributes a built-in op's forward sets on its ctx, kept in slots of its node.
    node_slots: tuple[str, ...] = ()
    # The attributes of the node that hold what torch saves as a tensor but minitorch keeps
    # as it is: a number torch wraps (``x * 2`` saves 2), an index (``index_select``). When
    # one is set, the node counts as having saved something: released after backward, so a
    # second backward through it raises as in torch, whether or not it reads them.
    saved_slots: tuple[str, ...] = ()
    # What torch's node shows as ``_saved_<name>`` beyond tensors (a dim, a flag, the input's
    # sizes): name -> a function of the node reading it from what the forward kept.
    saved_values: dict[str, Callable[[Any], Any]] = {}
    _profile_name: str | None = None
    # The key of torch_events.FORWARD naming the events torch records inside a call, from
    # its arguments, when it is not the op's event name (torch_events.variant).
    _profile_inner: Callable[[tuple, dict], str] | None = None
    setup_context: Callable | None = None
    generate_vmap_rule = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions "
            "are all static, so you should invoke them on the class itself. "
            "Instantiating an autograd function will raise an error in a future version of "
            "PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        """Compute the outputs from the inputs (runs without recording)."""
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        """Compute the gradients of the inputs from the gradients of the outputs."""
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward  # torch's other name for it: a Function may define either

    @staticmethod
    def vmap(info: Any, in_dims: tuple, *args: Any) -> Any:
        """The Function's batching rule under ``torch.func.vmap``: given ``info``
        (``batch_size``, ``randomness``), each argument's batched dim in ``in_dims`` (None
        where it has none) and the batched arguments, return ``(outputs, out_dims)``. Override
        it, or set ``generate_vmap_rule = True`` to map ``forward`` over the batch."""
        raise NotImplementedError("To use autograd.Function with vmap, you must either override "
                                  "the vmap staticmethod or set generate_vmap_rule=True.")

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        """Forward-mode AD: the tangents of the outputs from the tangents of the inputs."""
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run the Function: forward now, backward when gradients flow through the result."""
        if _CALLS_WITH_EXAMPLES[0] and cls._trusted and \
                _batched_function.has_batched(args, kwargs):  # vmap's op with no rule here
            return _batched_function.each_example(cls.apply, args, kwargs)
        if forward_ad.levels and cls._trusted and forward_ad.has_tangents(args):
            return forward_ad.apply_op(cls, args, kwargs)
        if cls.setup_context is not None and not cls._trusted:
            args, kwargs = _bound(cls.forward, args, kwargs), {}
        run = _apply_op if cls._trusted else apply_custom  # the seam, looked up at each call
        if not cls._trusted and _batched_function.transformed():  # torch.func's rules
            run = functools.partial(_batched_function.apply, run=run)
        prof = profiler._active
        if prof is not None:
            name = cls._profile_name or cls.__name__
            prof._push(name, "cpu_op", _shapes(name, args, kwargs) if prof.record_shapes else None)
            out = None
            try:
                key = name if cls._profile_inner is None else cls._profile_inner(args, kwargs)
                inner = torch_events.FORWARD.get(key)
                out = run(cls, args, kwargs) if inner is None else \
                    profiler.run_inside(inner, lambda: run(cls, args, kwargs))
            finally:
                prof._pop(_nbytes(out) if prof.profile_memory else 0)
            return out
        return run(cls, args, kwargs)


_CALLS_WITH_EXAMPLES = _batched_function.calls_with_examples  # (read on every op's call)


def _bound(forward: Callable[..., Any], args: tuple, kwargs: dict) -> tuple:
    """A setup_context-style call as torch passes it on: bound to ``forward``'s signature,
    defaults filled in, all positional (what ``setup_context`` sees as ``inputs``)."""
    bound = inspect.signature(forward).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args


def _needs_input_grad(args: tuple) -> tuple[bool, ...]:
    flags = []
    for a in args:
        flags.append(isinstance(a, T.Tensor) and (a._requires_grad or a._grad_fn is not None
                                                   or _rebased_view(a)))
    needs = tuple(flags)
    if len(needs) > 3:  # (few patterns of a few operands: those are shared between nodes)
        return needs
    return _NEEDS.setdefault(needs, needs)


_NEEDS: dict[tuple[bool, ...], tuple[bool, ...]] = {}


def _rebased_view(t: T.Tensor) -> bool:
    """Whether ``t``, a view without a history of its own, requires grad: once regenerated
    (see ``Tensor._rebased``), or as its base does; False for any other tensor."""
    if t._view_of is None:
        return False
    t._rebased()
    return t.requires_grad


def _new_node(cls: type[Function], args: tuple) -> tuple[BackwardCFunction, bool]:
    """The call's node (also its ctx), and whether the call is recorded."""
    node = cls._backward_cls(_needs_input_grad(args))
    return node, grad_mode._state.grad_enabled and True in node.needs_input_grad


class _Unrecorded(FunctionCtx):
    """The ctx of a built-in op call that records nothing (grad mode off, or no input needs
    grad): no node is made, and what forward saves is dropped with it."""

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.needs_input_grad = needs_input_grad

    def save_for_backward(self, *tensors: T.Tensor | None) -> None:
        """Nothing to keep: no backward will run."""


def _apply_op(cls: type[Function], args: tuple, kwargs: dict) -> Any:
    """A built-in op: its forward works on arrays, so it records nothing by itself.

    Its ``next_functions`` list every positional operand (a Python scalar gives ``(None, 0)``,
    as in torch), and what its backward returns is trusted. Float errors (inf, nan) are silent.
    """
    token = None if FLOAT_ERRORS.get() is IGNORE_ALL else FLOAT_ERRORS.set(IGNORE_ALL)
    try:
        if not grad_mode._state.grad_enabled:  # the backward pass and optimizers: no node
            return cls.forward(_Unrecorded((False,) * len(args)), *args, **kwargs)
        needs = _needs_input_grad(args)
        if True not in needs:
            return cls.forward(_Unrecorded(needs), *args, **kwargs)
        node = cls._backward_cls(needs)
        outputs = cls.forward(node, *args, **kwargs)
        node._next = _edges(args, needs)
        linked = _link(node, args, outputs)
        if _unpacks_by_hook(node):  # its gradients are then checked, as torch's engine
            node._input_shapes = tuple(  # checks every node's
                (tuple(a.shape), a.dtype, None) if isinstance(a, T.Tensor) else None
                for a in args)
        return linked
    finally:
        if token is not None:
            FLOAT_ERRORS.reset(token)


_NO_EDGE = (None, 0)


def _edges(args: tuple, needs: tuple[bool, ...]) -> Any:
    """A built-in op's ``next_functions``, as its node keeps them: flat, ``(node0, nr0, node1,
    nr1, ...)``, one pair per positional operand (a number's is ``(None, 0)``). When one
    operand needs grad and it is output 0 of its node, that node alone: a tuple that holds a
    node is one more object for the garbage collector, which walks every object of a live
    graph, so a chain's node is then one object instead of two. ``_flat_next`` expands it."""
    flat: list = []
    for a in args:
        flat += a._edge() if isinstance(a, T.Tensor) else _NO_EDGE
    around = _AROUND_ONE.get(needs) or _around_one(needs)
    if around is not _SEVERAL and flat.count(None) == len(args) - 1:
        at = len(around[0])  # the one operand's node and output number in ``flat``
        if flat[at] is not None and flat[at + 1] == 0:
            return flat[at]
    return tuple(flat)


def _around_one(needs: tuple[bool, ...]) -> tuple:
    """For a ``needs_input_grad`` with one True: the flat ``(None, 0)`` entries before and
    after that operand's; for any other, ``_SEVERAL``. Kept per pattern (there are few)."""
    if needs.count(True) != 1:
        return _AROUND_ONE.setdefault(needs, _SEVERAL)
    at = needs.index(True)
    return _AROUND_ONE.setdefault(needs, (_NO_EDGE * at, _NO_EDGE * (len(needs) - at - 1)))


_SEVERAL = ((), ())
_AROUND_ONE: dict[tuple[bool, ...], tuple[tuple, tuple]] = {}


@course.seam
def apply_custom(cls: type[Function], args: tuple, kwargs: dict) -> Any:
    """Run a user-defined Function ``cls`` on ``args`` (what ``cls.apply(*args)`` does).

    The forward runs without recording; when the call is recorded, the node lists the
    tensor arguments only in ``next_functions`` and remembers each argument's shape and
    dtype for the checks on what backward returns. This is the seam ``use`` replaces.

    >>> class Scale(Function):
    ...     @staticmethod
    ...     def forward(ctx, x, k): ctx.k = k; return x * k
    ...     @staticmethod
    ...     def backward(ctx, g): return g * ctx.k, None
    >>> import minitorch
    >>> y = apply_custom(Scale, (minitorch.ones(1, requires_grad=True), 3), {})
    >>> y.grad_fn.name(), len(y.grad_fn.next_functions)
    ('ScaleBackward', 1)
    """
    if kwargs:
        args = _placed(cls.forward, args, kwargs)
    node, record = _new_node(cls, args)
    outputs = _run_forward(cls, node, args)
    if cls.setup_context is not None:
        _check_saved_as_is(node, args, outputs, record)
    if not record:
        _check_dirty(node, outputs if isinstance(outputs, tuple) else (outputs,))
        outputs = _unrecorded(node, args, outputs)
    else:
        node._next = flat_edges(a._edge() for a in args if isinstance(a, T.Tensor))
        node._input_shapes = tuple(  # (a custom Function's gradients are checked on device)
            (tuple(a.shape), a.dtype, None if cls._trusted else a.device)
            if isinstance(a, T.Tensor) else None for a in args
        )
        outputs = _link(node, args, outputs)
    _mark_views(node, outputs if isinstance(outputs, tuple) else (outputs,))
    if forward_ad.levels:  # forward-mode AD: the Function's jvp gives the outputs' tangents
        return forward_ad.custom_jvp(cls, node, args, outputs)
    return outputs


@contextmanager
def use(student_apply: Callable[..., Any]) -> Iterator[Callable[..., Any]]:
    """Inside the block, every user-defined Function runs through ``student_apply``.

    ``student_apply(fn_cls, *args)`` is called as ``MyFunction.apply(*args)`` runs, and returns
    its outputs. minitorch's built-in ops keep their own path, so the forward can use them.
    Calls it cannot serve (keyword arguments, ``setup_context``-style Functions) are refused.

    >>> import minitorch
    >>> class Double(Function):
    ...     @staticmethod
    ...     def forward(ctx, x): return x * 2
    >>> def forward_only(fn_cls, *args):   # records nothing: a toy apply
    ...     print("my apply runs", fn_cls.__name__)
    ...     return fn_cls.forward(None, *args)
    >>> with use(forward_only):
    ...     Double.apply(minitorch.ones(2))
    my apply runs Double
    tensor([2., 2.])
    """

    def adapted(cls: type[Function], args: tuple, kwargs: dict) -> Any:
        if kwargs:
            raise NotImplementedError(
                f"{cls.__name__}.apply got keyword arguments {sorted(kwargs)}, but the plugged "
                "apply(fn_cls, *args) takes positional arguments only"
            )
        if cls.setup_context is not None:
            raise NotImplementedError(
                f"{cls.__name__} has a setup_context, but the plugged apply calls "
                "forward(ctx, *args): write its forward with a ctx"
            )
        return student_apply(cls, *args)

    with course.plug(sys.modules[__name__], "apply_custom", adapted):
        yield adapted


def _run_forward(cls: type[Function], node: BackwardCFunction, args: tuple) -> Any:
    with grad_mode._recording(False):
        if cls.setup_context is not None:
            out = cls.forward(*args)
            cls.setup_context(node, args, out)
            return out
        return cls.forward(node, *args)


def _check_saved_as_is(node: BackwardCFunction, args: tuple, outputs: Any,
                       record: bool) -> None:
    """torch's refusal, where ``setup_context`` saved it (for backward or forward), of an
    input that forward returned as it is (not written in place): its output is a new
    tensor, which ctx never saw. Unrecorded, torch lets it pass for an input that requires
    grad only.

    >>> class Same(Function):
    ...     forward = staticmethod(lambda x: x)
    ...     setup_context = staticmethod(lambda ctx, inputs, out: ctx.save_for_backward(out))
    >>> import minitorch
    >>> Same.apply(minitorch.ones(1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: An input that has been returned as-is as output is being saved for backward...
    """
    outs = outputs if isinstance(outputs, tuple) else (outputs,)
    dirty = node.__dict__.get("_dirty", ())
    saved = (*node._to_save, *node.__dict__.get("_saved_for_forward", ()))
    if any(isinstance(t, T.Tensor) and _among(t, outs) and _among(t, args) and
           not _among(t, dirty) and (record or not t.requires_grad) for t in saved):
        raise RuntimeError("An input that has been returned as-is as output is being saved for "
                           "backward. This is not supported if you override setup_context. You "
                           "should return and save a view of the input instead, e.g. with "
                           "x.view_as(x) or setup ctx inside the forward function itself.")


def _placed(forward: Callable[..., Any], args: tuple, kwargs: dict) -> tuple:
    """A ctx-style call's keyword arguments put in the places of ``forward``'s parameters
    they name, as torch places them (so a tensor given by keyword is an input like any
    other): no defaults filled in, and torch's refusals, which name ``forward()`` alone."""
    code = forward.__code__
    names = code.co_varnames[1:code.co_argcount]  # after ctx; not keyword-only, not **kwargs
    placed: list[Any] = list(args)
    for name, value in kwargs.items():
        if name not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
        at = names.index(name)
        if at < len(args):
            raise TypeError(f"forward() got multiple values for argument '{name}'")
        placed.extend([_MISSING] * (at + 1 - len(placed)))
        placed[at] = value
    for at, value in enumerate(placed):
        if value is _MISSING:
            raise TypeError(f"forward() missing required argument: '{names[at]}' (position {at})")
    return tuple(placed)


_MISSING = object()


def _link(node: BackwardCFunction, args: tuple, outputs: Any) -> Any:
    """Make the node the ``grad_fn`` of the outputs (one tensor or a tuple), then pack what
    it saved."""
    if isinstance(outputs, tuple):
        return tuple(_link_outputs(node, args, outputs))
    if not isinstance(outputs, T.Tensor) or node._dirty or node._non_differentiable or \
            not outputs.dtype.is_floating_point:
        return _link_outputs(node, args, (outputs,))[0]
    # The common case, kept short: one new tensor out of an op
    if _among(outputs, args):
        outputs = outputs._alias()  # an input returned unchanged becomes a new tensor
    outputs._set_grad_fn(node, 0)
    _finish(node, (outputs,))
    return outputs


def _unrecorded(node: BackwardCFunction, args: tuple, outputs: Any) -> Any:
    """The outputs (one or a tuple) of a call torch does not record (no input requires grad,
    or grad mode is off) as torch gives them: an input returned comes back as a new alias
    without grad (unless it was modified in place and needs none), any other output that
    requires grad is detached in place, unless it is a view."""
    outs, dirty = outputs if isinstance(outputs, tuple) else (outputs,), node._dirty
    for written in dirty:  # torch counts the write recorded or not
        written._version_counter.value += 1
    given = []
    for out in outs:
        if isinstance(out, T.Tensor) and _among(out, args) and (
                out.requires_grad or not _among(out, dirty)):
            out = out.detach() if out.requires_grad else out._alias()  # torch's: a view
        elif isinstance(out, T.Tensor) and out.requires_grad and out._base is None:
            out.detach_()
        given.append(out)
    return tuple(given) if isinstance(outputs, tuple) else given[0]


def _mark_views(node: BackwardCFunction, outs: tuple) -> None:
    """torch's refusal to come of writing in place to a Function's output that is a view (the
    write's backward would override the Function's): each such output, unless forward wrote
    it in place itself, is marked as made by a custom Function, or, when the node has
    several differentiable outputs, as one of them."""
    linked = sum(isinstance(out, T.Tensor) and out._grad_fn is node for out in outs)
    creation = "multi_output" if linked > 1 else "custom_function"
    dirty = node.__dict__.get("_dirty", ())
    for out in outs:
        if isinstance(out, T.Tensor) and out._view_of is not None and not _among(out, dirty):
            out._view_creation = creation


def _check_dirty(node: BackwardCFunction, outs: tuple) -> None:
    """What forward marked must be tensors, and every input marked dirty must be returned
    (torch checks it, recorded or not)."""
    if not all(isinstance(t, T.Tensor) for t in node._non_differentiable):
        raise RuntimeError("mark_non_differentiable only accepts variable arguments, but got ")
    if not all(isinstance(t, T.Tensor) for t in node._dirty):
        raise RuntimeError("mark_dirty can only accept variables, but argument ")
    if any(not _among(d, outs) for d in node.__dict__.get("_dirty", ())):
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")


def _link_outputs(node: BackwardCFunction, args: tuple, outs: tuple) -> list:
    dirty, non_diff = node._dirty, node._non_differentiable
    _check_saveable(node._to_save)  # torch collects what to save before the marks
    _check_dirty(node, outs)
    linked = []
    for nr, out in enumerate(outs):
        if isinstance(out, T.Tensor):
            differentiable = not _among(out, non_diff)  # the tensor forward marked, not its alias
            if _among(out, dirty):
                if out._grad_fn is None and out.requires_grad:  # (a view's: its base's too)
                    raise RuntimeError("a leaf Variable that requires grad has been used in an "
                                       "in-place operation.")
                if out._view_of is not None and out._view_of[0]._requires_grad:
                    raise RuntimeError("a view of a leaf Variable that requires grad is being "
                                       "used in an in-place operation.")
                out._version_counter.value += 1
            elif _among(out, args):  # a view of it; one marked non-differentiable detached
                out = out._alias() if differentiable or not out.requires_grad else \
                    out._output_alias()
            if differentiable and not out.dtype.is_floating_point:
                differentiable = _integer_output_recorded(node, args, out)
            if differentiable:  # as torch's
                out._set_grad_fn(node, nr)
                if out._view_of is not None:  # the node is this version's grad_fn
                    out._view_of = (out._view_of[0], out._version_counter.value)
                    if _among(out, dirty):
                        _rebase_written_view(out)
        linked.append(out)
    _finish(node, linked)
    return linked


# set while a built-in op writes in place: torch rebases the written tensor's history
# whatever its dtype (its rebase_history checks none, set_history does), so an integer or bool
# tensor written in place by a value that requires grad requires grad itself
_writing_in_place = [False]


@contextmanager
def writing_in_place() -> Iterator[None]:
    """Inside the block, a built-in op's output of an integer or bool dtype is recorded (it
    is written in place into a tensor of that dtype), as torch's in-place ops record it; a
    gradient that reaches its node fails.

    >>> import minitorch
    >>> x = minitorch.tensor([1, 2])
    >>> x.le_(minitorch.tensor(1., requires_grad=True)).grad_fn.name()
    'LeBackward1'
    """
    before = _writing_in_place[0]
    _writing_in_place[0] = True
    try:
        yield
    finally:
        _writing_in_place[0] = before


def _integer_output_recorded(node: BackwardCFunction, args: tuple, out: T.Tensor) -> bool:
    """Whether an output of an integer or bool dtype is recorded: a built-in op's written in
    place (its node then refuses gradients), as torch's rebase_history records it (copy_
    excepted); none elsewhere, after torch's set_history refusal of one from an integer input
    that requires grad; a custom Function's never."""
    cls = node._forward_cls
    if not cls._trusted:
        return False
    if not _writing_in_place[0]:
        _refuse_integer_history(args, out)
        return False
    if cls.records_integer_writes:
        _refuses_gradients(node)
    return cls.records_integer_writes


def _refuse_integer_history(args: tuple, out: T.Tensor) -> None:
    """torch's set_history refusal: an op whose output of an integer or bool dtype would
    record a gradient from an input of such a dtype that requires grad (one written in place
    by a value that requires grad). An op of floating inputs gives such outputs without a
    history (their gradient is not defined)."""
    if any(isinstance(a, T.Tensor) and not a.dtype.is_floating_point and a.requires_grad
           for a in args):
        raise RuntimeError(f"Autograd not support dtype: {legacy(out.dtype)}")


def refuse_saved_integer(node: Node | None, original: T.Tensor) -> None:
    """torch's refusal of an in-place op into an integer or bool tensor that requires grad
    (written in place by a value that does) whose node saved the tensor's old values: torch
    records a copy of them first, which set_history refuses.

    >>> import minitorch
    >>> x = minitorch.tensor([1, 2]).le_(minitorch.tensor(1., requires_grad=True))
    >>> x.mul_(x)
    Traceback (most recent call last):
    RuntimeError: Autograd not support dtype: Long
    """
    if original.dtype.is_floating_point or not original.requires_grad:
        return
    if any(saved is not None and saved._tensor is original
           for saved in getattr(node, "_saved", None) or ()):
        raise RuntimeError(f"Autograd not support dtype: {legacy(original.dtype)}")


def _refuses_gradients(node: Node) -> None:
    """``node``, the history of an integer or bool tensor (written in place by a value that
    requires grad), fails when a gradient reaches it, as torch's engine fails casting the
    gradient to that dtype."""
    def refused(*args: Any) -> Any:
        raise RuntimeError(
            'isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at "/__w/pytorch/'
            'pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. ')

    node._apply = node._apply_arrays = node._backward = refused


def _rebase_written_view(view: T.Tensor) -> None:
    """A view forward wrote in place (marked dirty) is, as after a built-in in-place op, a
    write into its base: the base's history passes the view's elements through the node.

    >>> import minitorch
    >>> class Double(Function):
    ...     @staticmethod
    ...     def forward(ctx, x): ctx.mark_dirty(x); return x.mul_(2)
    ...     @staticmethod
    ...     def backward(ctx, g): return g * 2
    >>> base = minitorch.ones(3, requires_grad=True) * 1
    >>> _ = Double.apply(base[:2])
    >>> base.grad_fn.name()
    'torch::autograd::CopySlices'
    """
    from ..ops.inplace import CopySlices

    root = view._view_of[0]
    key = view_key(root._data, view._data)
    view._rebase_view(CopySlices.apply(root._history_alias(), view, key=key), key)


def _finish(node: BackwardCFunction, linked: Any) -> None:
    """Note what makes zeros for gradients that never come (several outputs, or a custom
    Function), record the forward's stack (anomaly mode), and pack the tensors forward saved."""
    if len(linked) > 1 or not node._forward_cls._trusted:
        node._outputs_meta = tuple([T.meta_of(o) for o in linked])
        node._n_outputs = len(linked)
    if anomaly_mode._enabled:
        node._anomaly_trace = _forward_trace()
    to_save = node._to_save
    if to_save:
        node._saved = _shared(to_save) if _only_none(to_save) else _pack(to_save, linked)
        node._to_save = ()


def _pack(to_save: tuple, outputs: Any) -> tuple:
    """A SavedTensor for each tensor forward saved (None stays None)."""
    for t in to_save:  # refused before any is packed (a pack hook runs for none of them)
        if t is not None and not isinstance(t, T.Tensor):
            _check_saveable(to_save)  # raises, naming the argument
    packed = []  # plain loops, no generator frame: every recorded op that saves comes here
    for t in to_save:
        packed.append(None if t is None else SavedTensor(t, _among(t, outputs)))
    return tuple(packed)


def _check_saveable(to_save: tuple) -> None:
    """``save_for_backward`` takes tensors and None only (checked when the call is recorded)."""
    for i, t in enumerate(to_save):
        if t is not None and not isinstance(t, T.Tensor):
            raise TypeError("save_for_backward can only save variables, but argument "
                            f"{i} is of type {type_name(t)}")


def _only_none(values: tuple) -> bool:
    for v in values:  # noqa: SIM110 - a loop is cheaper than all() on a few items
        if v is not None:
            return False
    return True


def _among(value: Any, values: Any) -> bool:
    """``value`` is one of ``values`` (by identity: ``in`` would compare tensors by value)."""
    for v in values:  # noqa: SIM110 - on the one to three items it sees, 2.5x faster than any()
        if v is value:
            return True
    return False


def _forward_trace() -> list[str]:
    """The stack of the forward call, up to the line that called ``apply``."""
    stack = traceback.extract_stack()
    while stack and stack[-1].filename in (__file__, course.__file__):
        stack.pop()
    return traceback.format_list(stack)


def _shapes(name: str, args: tuple, kwargs: dict) -> list:
    """The input shapes torch records for the op ``name``: one per argument of its schema."""
    shapes = [tuple(a.shape) if isinstance(a, T.Tensor) else () for a in args]
    if kwargs.get("dims", kwargs.get("dim")) is not None and f"{name}.dim" in \
            torch_events.ARITY:
        name = f"{name}.dim"
    return torch_events.recorded_shapes(name, shapes)


def _nbytes(out: Any) -> int:
    outs = out if isinstance(out, tuple) else (out,)
    return sum(o._data.nbytes for o in outs if isinstance(o, T.Tensor))


class Error(Node):
    """Stands after a once-differentiable backward (torch's ``Error`` node): differentiating
    it again fails."""

    _recorded = True
    __setattr__ = refuse_write

    def __init__(self, message: str) -> None:
        super().__init__()
        self._message = message

    def _apply(self, grads: tuple) -> tuple:
        raise RuntimeError(self._message)


def delayed_error(grad: T.Tensor, message: str) -> T.Tensor:
    """``grad`` behind an :class:`Error` node when it records a graph (a backward run with
    ``create_graph=True``), else ``grad`` itself: torch's ``DelayedError``, for a gradient
    whose own derivative it refuses.

    >>> import minitorch
    >>> delayed_error(minitorch.ones(1, requires_grad=True) * 2, "no")
    tensor([2.], grad_fn=<Error>)
    """
    if not grad.requires_grad:
        return grad
    node = Error(message)
    node._next = grad._edge()
    out = grad.detach()
    out._set_grad_fn(node, 0)
    return out


def once_differentiable(
    backward: Callable[..., Any],
) -> Callable[..., Any]:
    """Mark a backward as not differentiable itself: double backward through it raises.

    >>> class Square(Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x); return x * x
    ...     @staticmethod
    ...     @once_differentiable
    ...     def backward(ctx, g):
    ...         x, = ctx.saved_tensors; return 2 * x * g
    """

    @functools.wraps(backward)
    def wrapper(ctx: Any, *grads: Any) -> Any:
        with grad_mode._recording(False):
            result = backward(ctx, *grads)
        if not (grad_mode._state.grad_enabled and any(isinstance(g, T.Tensor) and g.requires_grad
                                             for g in grads)):
            return result
        return _after_delayed_error(result, grads)

    return wrapper


def _after_delayed_error(result: Any, grads: tuple) -> Any:
    single = not isinstance(result, tuple)
    outs = (result,) if single else result
    err = Error(
        "trying to differentiate twice a function that was marked with @once_differentiable"
    )
    err._next = flat_edges(g._edge() if isinstance(g, T.Tensor) else (None, 0) for g in grads)
    wrapped = []
    for nr, g in enumerate(outs):
        if isinstance(g, T.Tensor):
            g = g.detach()
            g._set_grad_fn(err, nr)
        wrapped.append(g)
    return wrapped[0] if single else tuple(wrapped)
