"""The backward graph: nodes, the leaf accumulator and saved tensors.

Every recorded operation creates a :class:`Node`. A node knows the nodes of its inputs
through ``next_functions`` — one ``(node_or_None, output_nr)`` pair per tensor argument of the
forward — and computes, given the gradients of its outputs, the gradients of its inputs.
Leaves that require grad end in an :class:`AccumulateGrad` node that adds into ``.grad``.

>>> import minitorch
>>> a = minitorch.tensor(2., requires_grad=True)
>>> y = a * 3
>>> y.grad_fn.name(), y.grad_fn.next_functions[0][0].variable is a
('MulBackward0', True)
"""

from __future__ import annotations

import itertools
import operator
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _layout, course
from .. import _tensor as T
from .._args import hook_name, hook_result, post_accumulate_hook_result, type_string
from .._warn_once import warn_once
from ..backend import element_strides, is_c_contiguous, is_dense, strided_zeros
from . import grad_mode, profiler, torch_events

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = ["AccumulateGrad", "GradientEdge", "Node", "RemovableHandle", "SavedTensor",
           "accumulate_into_leaf", "allow_mutation_on_saved_tensors", "check_version",
           "disable_saved_tensors_hooks", "get_gradient_edge", "increment_version",
           "register_multi_grad_hook",
           "save_on_cpu", "saved_tensors_hooks", "use"]

_sequence = itertools.count()
_LAST = sys.maxsize  # the sequence number of every AccumulateGrad


class RemovableHandle:
    """Returned by ``register_hook``; ``handle.remove()`` unregisters the hook.

    >>> h = minitorch.ones(1, requires_grad=True).register_hook(lambda g: g)
    >>> h.remove()
    """

    __slots__ = ("_hooks", "_key")
    _ids = itertools.count()

    def __init__(self, hooks: dict[int, Any]) -> None:
        self._hooks = hooks
        self._key = next(RemovableHandle._ids)

    @property
    def id(self) -> int:
        """This handle's number, unique in the process (torch's ``RemovableHandle.id``)."""
        return self._key

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        self._hooks.pop(self._key, None)

    def __enter__(self) -> RemovableHandle:
        """``with t.register_hook(fn):`` keeps the hook for the block only.

        >>> x = minitorch.ones(1, requires_grad=True)
        >>> with x.register_hook(lambda g: g * 10):
        ...     (x * 2).sum().backward()
        >>> x.grad
        tensor([20.])
        """
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def add_hook(hooks: dict[int, Any], fn: Any, prepend: bool = False) -> RemovableHandle:
    """Register ``fn`` in an ordered hook dict (last, or first with ``prepend``) and return
    its handle."""
    handle = RemovableHandle(hooks)
    hooks[handle._key] = fn
    if prepend:
        *others, new = hooks.items()
        hooks.clear()
        hooks.update([new, *others])
    return handle


CPP_NODES = frozenset({"AccumulateGrad", "CopyBackwards", "CopySlices", "Error",
                       "NotImplemented"})
"""Nodes torch writes by hand in C++ (not generated per op): their ``name()`` is their C++
name, with its namespace (``torch::autograd::AccumulateGrad``)."""


# What torch's C++ nodes read from their type: a write to one is refused
_GETSETS = frozenset({"next_functions", "metadata", "requires_grad"})
_METHODS = frozenset({"name", "register_hook", "register_prehook"})


class _NodeType(type):
    """Node's metaclass: node classes print as torch's, bare for its C++ nodes
    (``<class 'MulBackward0'>``), with their module for a custom Function's. Each class
    keeps torch's ``name()`` of its nodes in ``_torch_name``."""

    def __init__(cls, name: str, bases: tuple, attrs: dict) -> None:
        super().__init__(name, bases, attrs)
        cls._torch_name = f"torch::autograd::{name}" if name in CPP_NODES else name

    def printed_name(cls) -> str:
        where = cls.__module__
        return cls.__qualname__ if where.startswith("minitorch") else f"{where}.{cls.__qualname__}"

    def __repr__(cls) -> str:
        return f"<class '{cls.printed_name()}'>"


class Node(metaclass=_NodeType):
    """A node of the backward graph (torch's ``torch.autograd.graph.Node``).

    Subclasses implement ``_apply(grads) -> tuple`` with one gradient per ``next_functions``
    entry. Calling a node by hand runs its backward in the current grad mode.

    >>> x = minitorch.tensor([3.], requires_grad=True)
    >>> (x ** 2).grad_fn(minitorch.tensor([1.]))
    tensor([6.], grad_fn=<MulBackward0>)
    """

    # A node of a big graph must be cheap: two slots are all every node sets. What few nodes
    # have (hooks, an anomaly trace, several outputs) reads a class default until it is set,
    # which gives that node an instance dict.
    # ``_next`` holds the ``next_functions`` entries flat, ``(node0, nr0, node1, nr1, ...)``:
    # one tuple per node instead of one more per edge. The garbage collector walks every
    # tracked object of a live graph, and a chain's node now keeps two (itself and this
    # tuple), not three; ``next_functions`` builds torch's pairs when it is read.
    # A built-in op's node may keep its one input's node alone there (see
    # ``BackwardCFunction._flat_next``): a chain's node is then one object, not two. Graph walks
    # read the flat tuple through ``_flat_next``.
    __slots__ = ("__dict__", "__weakref__", "_next", "_seq")
    _pre_hooks: dict[int, Any] | None = None
    _hooks: dict[int, Any] | None = None
    _tensor_pre_hooks: dict[int, Any] | None = None
    _retain_grad_hooks: dict[int, Any] | None = None
    _anomaly_trace: list[str] | None = None
    _n_outputs = 1
    _recorded = False  # True for the nodes torch writes in C++ (see ``next_functions``)
    _write_refusing: type | None = None  # a built-in op's node class's twin (see ``exposed``)
    _getset_owner: str | None = None  # the C++ type torch names when refusing a write
    _getsets = _GETSETS

    def __init__(self) -> None:
        self._next: tuple = ()
        self._seq = next(_sequence)

    def _sequence_nr(self) -> int:
        """The node's place in creation order, by which the engine runs ready nodes (latest
        first); an AccumulateGrad's is torch's largest, UINT64_MAX.

        >>> x = minitorch.ones(1, requires_grad=True)
        >>> y = x * 2; z = y + 1
        >>> z.grad_fn._sequence_nr() - y.grad_fn._sequence_nr()
        1
        """
        return 2 ** 64 - 1 if self._seq == _LAST else self._seq

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        """One ``(node_or_None, output_nr)`` pair per input: where each input's gradient goes.

        >>> x = minitorch.ones(1, requires_grad=True)
        >>> (x * 2).grad_fn.next_functions  # doctest: +ELLIPSIS
        ((<AccumulateGrad object at 0x...>, 0), (None, 0))
        """
        flat = self._flat_next()
        return with_edges(self, tuple(zip(map(exposed, flat[::2]), flat[1::2])))

    @next_functions.setter
    def next_functions(self, edges: Iterable[tuple[Node | None, int]]) -> None:
        # Your own Node subclass (the course's) lists its edges here; a node recorded by an
        # op, a Function or a leaf is torch's C++ node, whose edges are not writable.
        if self._recorded:
            raise not_writable(self, "next_functions")
        self._next = flat_edges(edges)

    def _flat_next(self) -> tuple:
        """``next_functions``, flat: ``(node0, nr0, node1, nr1, ...)``."""
        return self._next

    def name(self) -> str:
        """torch's name of the node: its class name, e.g. ``"MulBackward0"``, or for a node
        torch writes by hand in C++ its C++ name, e.g. ``"torch::autograd::AccumulateGrad"``
        (``type(node).__name__`` is ``"AccumulateGrad"``)."""
        return self._torch_name

    def __repr__(self) -> str:
        return f"<{_NodeType.printed_name(type(self))} object at {id(self):#x}>"

    @property
    def metadata(self) -> dict:
        """A dict for the user's own annotations, as in torch."""
        return self.__dict__.setdefault("_metadata", {})

    @metadata.setter
    def metadata(self, value: Any) -> None:
        raise not_writable(self, "metadata")

    @property
    def requires_grad(self) -> bool:
        """True, as every torch node says (a node exists only where a gradient flows).

        >>> (minitorch.ones(1, requires_grad=True) * 2).grad_fn.requires_grad
        True
        """
        return True

    @requires_grad.setter
    def requires_grad(self, value: Any) -> None:
        raise not_writable(self, "requires_grad")

    def _apply(self, grads: tuple[Tensor | None, ...]) -> tuple[Tensor | None, ...]:
        raise NotImplementedError

    def _apply_arrays(self, grads: tuple) -> tuple:
        """The engine's call when no graph of the backward is wanted. Gradients may come as
        arrays: a built-in op's node passes arrays on (see ``BackwardCFunction``); any other
        node gets tensors, as ``_apply``."""
        return self._apply(_tensors(grads))

    def _release(self) -> None:
        """Free what backward needed (saved tensors); called unless retain_graph."""

    def __call__(self, *grads: Tensor | None, **kwargs: Any) -> Any:
        if self._recorded:  # torch's C++ node: its binding's checks of the gradients
            grads = _call_grads(self, grads, kwargs)
        out = self._apply(grads)
        needs = getattr(self, "needs_input_grad", None)
        if self._recorded and needs is not None and getattr(self._forward_cls, "_trusted", 0):
            out = with_edges(self, tuple(  # a built-in node computes only what has an edge
                g if need else None for g, need in zip(out, needs)))
        _shown(out)  # the caller holds them now
        return out[0] if len(out) == 1 else out

    def __delattr__(self, name: str) -> None:
        # a getter of torch's C++ node (metadata, next_functions, a leaf's variable, a
        # Function's saved_tensors) cannot be deleted any more than written
        if self._recorded:
            if name in type(self)._getsets or (self._getset_owner is not None and isinstance(
                    getattr(type(self), name, None), property)):
                raise not_writable(self, name)
            if name in _METHODS and self._getset_owner is None:  # a C++ type's method
                raise AttributeError(f"'{type(self).__name__}' object attribute '{name}' is "
                                     "read-only")
        object.__delattr__(self, name)

    def register_prehook(self, fn: Callable[[tuple], tuple | None]) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before the node; a returned tuple replaces them."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        return add_hook(self._pre_hooks, fn)

    def register_hook(self, fn: Callable[[tuple, tuple], tuple | None]) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after the node; a tuple replaces grad_inputs."""
        if self._hooks is None:
            self._hooks = {}
        return add_hook(self._hooks, fn)

    def _register_tensor_hook(self, output_nr: int, fn: Any) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        return add_hook(self._tensor_pre_hooks, (output_nr, fn))


class GradientEdge(NamedTuple):
    """Where a tensor's gradient enters the graph: its ``node`` and the input of that node it
    arrives at (``output_nr``), as :func:`get_gradient_edge` gives it. ``autograd.grad`` and
    ``backward`` take one in place of the tensor in ``inputs``: the gradient that reaches
    that edge, though the tensor itself may be gone.

    >>> x = minitorch.ones(2, requires_grad=True); y = x * 3
    >>> minitorch.autograd.grad(y.sum() * 2, GradientEdge(y.grad_fn, 0))
    (tensor([2., 2.]),)
    """

    node: Node
    output_nr: int
    ownership_token: Any = None


def get_gradient_edge(tensor: T.Tensor) -> GradientEdge:
    """``tensor``'s :class:`GradientEdge`: its ``grad_fn`` and output number, or for a leaf
    that requires grad its AccumulateGrad.

    >>> get_gradient_edge(minitorch.ones(1, requires_grad=True)).node.name()
    'torch::autograd::AccumulateGrad'
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    return GradientEdge(*tensor._edge())


def increment_version(tensor: T.Tensor | Iterable[T.Tensor]) -> None:
    """Note that ``tensor`` (or each of several) was written in place behind autograd's back:
    its version moves on, so a copy of it saved for backward is refused (an inference tensor
    has no version to move).

    >>> t = minitorch.ones(2)
    >>> increment_version(t); increment_version([t, t]); t._version
    3
    """
    tensors = (tensor,) if isinstance(tensor, T.Tensor) else tensor
    if not hasattr(tensors, "__iter__"):
        raise RuntimeError("increment_version expect a Iterable[Tensor] as input")
    for t in tensors:
        if not isinstance(t, T.Tensor):
            raise RuntimeError("increment_version expects each element of the iterable to be a "
                               "tensor")
        if not t._inference:
            t._version_counter.value += 1


def _call_grads(node: Node, grads: tuple, kwargs: dict) -> tuple:
    """torch's refusals of a C++ node called by hand (one gradient, a tensor or None, per
    differentiable output, all positional), and the gradients as the node's backward takes
    them: None for an output such as sort's indices."""
    if kwargs:
        raise TypeError("keyword arguments are not supported")
    floating = [True] if node._n_outputs == 1 else [
        meta is not None and meta[1].kind in "fc" for meta in node._outputs_meta]
    if len(grads) != sum(floating):
        raise TypeError(f"expected {sum(floating)} arguments, got {len(grads)} instead")
    for i, grad in enumerate(grads):
        if grad is not None and not isinstance(grad, T.Tensor):
            raise TypeError(f"argument {i} is not a Variable")
    given = iter(grads)
    return tuple(next(given) if f else None for f in floating)


def flat_edges(edges: Iterable[tuple[Node | None, int]]) -> tuple:
    """``next_functions`` pairs, checked, as a node keeps them: ``(node0, nr0, node1, ...)``."""
    flat: list = []
    for i, edge in enumerate(edges):
        if not isinstance(edge, (tuple, list)) or len(edge) != 2:
            raise TypeError(
                f"next_functions takes one (node_or_None, output_nr) pair per input, but "
                f"entry {i} is {_describe(edge)}: give (t.grad_fn, t._output_nr) for a "
                f"tensor t made by an op, (its AccumulateGrad, 0) for a leaf that requires "
                f"grad, (None, 0) otherwise")
        flat += edge
    return tuple(flat)


def not_writable(node: Node, name: str) -> AttributeError:
    """torch's refusal to write one of a C++ node's attributes (``next_functions``, ...)."""
    owner = node._getset_owner or type(node).__name__
    return AttributeError(f"attribute '{name}' of '{owner}' objects is not writable")


def exposed(node: Node | None) -> Node | None:
    """``node`` as user code gets it (``grad_fn``, ``next_functions``): a built-in op's node
    becomes its class's twin that refuses writes as torch's C++ node does (``refuse_write``).
    Only then: a ``__setattr__`` on every node would double the cost of recording an op,
    whose forward sets a dozen attributes, and a write to one (``scalar``) would change its
    gradient.

    >>> y = minitorch.ones(2, requires_grad=True) * 2
    >>> y.grad_fn.scalar = 5
    Traceback (most recent call last):
    AttributeError: 'MulBackward0' object has no attribute 'scalar'
    """
    twin = getattr(node, "_write_refusing", None)
    if twin is not None:
        node.__class__ = twin
    return node


def refuse_write(node: Node, name: str, value: Any) -> None:
    """``__setattr__`` of AccumulateGrad and Error: torch's C++ nodes have no instance
    dict, so a user's write is refused in torch's words. The engine's own bookkeeping
    (its ``_``-names) is written as usual.

    >>> x = minitorch.ones(1, requires_grad=True)
    >>> (x * 2).grad_fn.next_functions[0][0].foo = 1
    Traceback (most recent call last):
    AttributeError: 'AccumulateGrad' object has no attribute 'foo'
    """
    if name[0] == "_" and not name.startswith(("_saved_", "_raw_saved_")):  # torch's getters
        object.__setattr__(node, name, value)
        return
    kind = type(node).__name__
    if name in type(node)._getsets:
        raise not_writable(node, name)
    if name in _METHODS:
        raise AttributeError(f"'{kind}' object attribute '{name}' is read-only")
    raise AttributeError(f"'{kind}' object has no attribute '{name}'")


def _describe(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)} items"
    return f"a {type(value).__name__}"


class AccumulateGrad(Node):
    """The node that ends every path at a leaf: it adds the incoming gradient to ``.grad``.

    >>> x = minitorch.ones(2, requires_grad=True)
    >>> acc = (x * 2).grad_fn.next_functions[0][0]
    >>> acc.name(), type(acc).__name__, acc.variable is x
    ('torch::autograd::AccumulateGrad', 'AccumulateGrad', True)
    """

    __slots__ = ("variable",)
    _recorded = True
    _getsets = _GETSETS | {"variable"}
    __setattr__ = refuse_write

    def __init__(self, variable: Tensor) -> None:
        # (no Node.__init__: as in torch, an AccumulateGrad takes no number from the sequence)
        self._next = ()
        object.__setattr__(self, "variable", variable)
        self._seq = _LAST  # torch's UINT64_MAX: a ready leaf's gradient is stored first

    def __lt__(self, other: Node) -> bool:
        # ready AccumulateGrads tie, as in torch's priority queue, whose tie order (a binary
        # heap's) is the one heapq gives; the engine's heap compares them only on a tie
        return False

    def _apply(self, grads: tuple[Tensor | None, ...]) -> tuple[()]:
        if profiler._active is not None and grads[0] is not None:  # torch's kernels' events
            for event in _accumulate_events(self.variable, grads[0]):
                profiler._mark(*event)
        accumulate_into_leaf(self.variable, grads[0])
        return ()


def _accumulate_events(variable: Tensor, grad: Tensor) -> tuple:
    """The events of torch's AccumulateGrad: a first gradient is kept (``aten::detach``) when
    its layout is the variable's, else copied into one that is; a later one is added."""
    if variable._grad is not None:
        return torch_events.ACCUMULATE_GRAD["added"]
    if _obeys_layout(grad, variable):
        return torch_events.ACCUMULATE_GRAD["first"]
    return torch_events.ACCUMULATE_GRAD["copied"]


def _obeys_layout(grad: Tensor, variable: Tensor) -> bool:
    """torch's gradient layout contract: the ``.grad`` of a dense variable has its strides
    (a dim of size 1 aside, unless broadcast there), any other's is contiguous. Sums over a
    gradient (a norm to clip by) walk its memory in order, so its layout shows in their bits."""
    strides, own = element_strides(grad._data), element_strides(variable._data)
    if strides is None:  # an array library without strides: all is contiguous
        return True
    if not is_dense(variable.shape, own):
        return is_c_contiguous(grad._data)
    for n, stride, wanted in zip(grad.shape, strides, own):
        if (stride != wanted) if n != 1 else stride == 0:
            return False
    return True


def _copy_in_layout(grad: Tensor, variable: Tensor) -> Tensor:
    """``grad`` copied into the layout the contract gives ``variable.grad`` (torch's
    ``clone_obey_contract``): into the dense variable's strides (recorded as ``CopyBackwards``
    when grad mode is on), else a contiguous clone."""
    own = element_strides(variable._data)
    if own is not None and not is_dense(variable.shape, own):
        return grad.clone(memory_format=_layout.contiguous_format)
    data = strided_zeros(grad._xp, tuple(variable.shape), own, grad._data.dtype) \
        if own is not None else grad._xp.zeros_like(grad._data)
    if grad_mode._state.grad_enabled:
        return T.Tensor._make(data).copy_(grad)
    data[...] = grad._data  # (the profiler has AccumulateGrad's events for it already)
    return T.Tensor._make(data)


_accumulate_lock = threading.Lock()


def accumulate_into_leaf(variable: Tensor, grad: Tensor | None) -> None:
    """Add ``grad`` to ``variable.grad`` after the tensor's hooks (AccumulateGrad's work)."""
    if grad is None:
        return
    if getattr(_hooks_ran, "variable", None) is not variable:
        grad = _leaf_hooks(variable, grad)
    # requires_grad_(False) since the graph was built: torch drops the gradient (its hooks,
    # post-accumulate ones too, still run)
    if variable._requires_grad:
        with _accumulate_lock:  # threads may share a leaf: the read-modify-write must not
            _accumulate(variable, grad)  # interleave
    for hook in list(variable._post_acc_hooks.values()) if variable._post_acc_hooks else ():
        post_accumulate_hook_result(hook_name(hook), variable, hook(variable))


_hooks_ran = threading.local()  # the leaf whose tensor hooks this thread has run already


@contextmanager
def leaf_hooks_first(variable: Tensor) -> Iterator[None]:
    """The leaf's tensor hooks have run (before its node's pre-hooks, as torch orders them):
    accumulating inside the block does not run them again."""
    _hooks_ran.variable = variable
    try:
        yield
    finally:
        _hooks_ran.variable = None


def _leaf_hooks(variable: Tensor, grad: Tensor) -> Tensor:
    if variable._hooks:
        grad._fresh = False  # a hook may keep it
        for hook in list(variable._hooks.values()):
            grad = _call_tensor_hook(hook, grad)
    return grad


def _shown(grads: Any) -> None:
    """The gradients are about to be seen outside the engine (a hook, an observer, a caller):
    none of them may become a ``.grad`` without a copy any more."""
    for g in grads:
        if g is not None:
            g._fresh = False


def _array_of(grad: Any) -> Any:
    """The array of a gradient the engine carries (a tensor or an array)."""
    return grad._data if isinstance(grad, T.Tensor) else grad


def _tensors(grads: Any) -> tuple:
    """Gradients as tensors (for a hook, an observer, a backward on tensors, a caller)."""
    return tuple([g if g is None or isinstance(g, T.Tensor) else T.Tensor._make(g)
                  for g in grads])


def _call_tensor_hook(hook: Callable, grad: Tensor) -> Tensor:
    result = hook(grad)
    if result is None:
        return grad
    return hook_result(hook_name(hook), grad, result)


def _accumulate(variable: Tensor, grad: Tensor) -> None:
    if grad.dtype is not variable.dtype:
        grad = grad.to(variable.dtype)
    old = variable._grad
    if old is None:
        if grad_mode._state.grad_enabled or not _obeys_layout(grad, variable):
            variable._grad = _copy_in_layout(grad, variable)
        elif grad._fresh:  # nothing else holds it (see Tensor._fresh): no copy needed
            grad._fresh = False
            variable._grad = grad
        else:
            variable._grad = grad._detached_copy()
    elif grad_mode._state.grad_enabled:
        variable._grad = _layout_checked(old + grad, variable)
    else:
        old._accumulate_(grad)
        _layout_checked(old, variable)


def retain_into(tensor: Tensor, grad: Tensor) -> None:
    """``retain_grad``'s work (torch's hook): a contiguous copy first, then ``old + grad``, a
    new tensor each time, so a ``.grad`` read (or set) earlier keeps its value."""
    old = tensor._grad
    tensor._grad = grad.clone(memory_format=_layout.contiguous_format) if old is None \
        else old + grad


def _layout_checked(grad: Tensor, variable: Tensor) -> Tensor:
    """A sum of gradients, with torch's warning (once per process) where it breaks the layout
    contract: a ``.grad`` set by hand in another layout stays in it."""
    if not _obeys_layout(grad, variable):
        warn_once("grad and param do not obey the gradient layout contract. This is not an "
                  "error, but may impair performance.\n"
                  f"grad.sizes() = {list(grad.shape)}, strides() = {list(grad.stride())}\n"
                  f"param.sizes() = {list(variable.shape)}, strides() = "
                  f"{list(variable.stride())}", stacklevel=2, key="layout contract")
    return grad


_FREED = object()


class _HookState(threading.local):
    stack: tuple[tuple[Callable, Callable], ...] = ()
    disabled: str | None = None  # disable_saved_tensors_hooks's message while it is active


_hook_state = _HookState()


def _index_operands(node: Node) -> tuple[int, ...]:
    """The operands of a built-in op's ``node`` that torch's node has no edge for."""
    return getattr(getattr(node, "_forward_cls", None), "index_operands", ())


def with_edges(node: Node, per_operand: tuple) -> tuple:
    """``per_operand`` (one item per operand of a built-in op's ``node``) without the
    operands torch's node has no edge for (a gather's index, a where's condition).

    >>> x = minitorch.ones(3, requires_grad=True)
    >>> node = minitorch.where(x > 0, x, 0.).grad_fn
    >>> with_edges(node, ("cond", "x", "other")), per_operand(node, ("x", "other"))
    (('x', 'other'), (None, 'x', 'other'))
    """
    skipped = _index_operands(node)
    if not skipped:
        return per_operand
    return tuple(item for i, item in enumerate(per_operand) if i not in skipped)


def per_operand(node: Node, per_edge: tuple) -> tuple:
    """What :func:`with_edges` left out put back: None for each operand without an edge."""
    skipped = _index_operands(node)
    if not skipped:
        return per_edge
    given = iter(per_edge)
    return tuple(None if i in skipped else next(given)
                 for i in range(len(per_edge) + len(skipped)))


class SavedTensor:
    """A tensor saved for backward, with the version it had when it was saved.

    Unpacking checks that no in-place operation changed it since. A saved *output* of its
    own node keeps only its data (no reference back to the node, which would form a cycle)
    and is rebuilt as a new tensor on unpack.
    """

    __slots__ = ("_had_grad_fn", "_is_output", "_leaf_requiring_grad", "_output_nr",
                 "_packed", "_tensor", "_unpack_hook", "_version")

    def __init__(self, tensor: Tensor, is_output: bool) -> None:
        if tensor._inference:
            from .._tensor import check_can_save

            check_can_save(tensor)  # raises torch's error
        self._version = tensor._version_counter.value
        self._is_output = is_output
        self._had_grad_fn = tensor._grad_fn is not None
        self._output_nr = tensor._output_nr
        hooks = _hook_state.stack
        if hooks:
            pack, self._unpack_hook = hooks[-1]
            # torch makes the unpacked value a variable again: one that requires grad where
            # the saved tensor was such a leaf (refused for an integer value)
            self._leaf_requiring_grad = _leaf_requiring_grad(tensor, is_output)
            self._packed = _pack_without_grad(pack, tensor)
            self._tensor = None
            return
        self._unpack_hook = None
        self._packed = None
        self._tensor = tensor._output_alias() if is_output else tensor

    def unpack(self, owner: Node, by_backward: bool = True) -> Tensor:
        """The saved tensor, checked against in-place modification (and, ``by_backward`` of a
        built-in op, against ``detach_``: its node's backward reads the history it had)."""
        if self._tensor is _FREED:
            raise RuntimeError(_FREED_MESSAGE)
        if self._unpack_hook is not None:
            tensor = _unpack_with_hook(self._unpack_hook, self._packed)
            if self._leaf_requiring_grad and not (tensor.dtype.is_floating_point or
                                                  tensor.dtype.is_complex):
                raise RuntimeError("Only Tensors of floating point and complex dtype can "
                                   "require gradients")
            return tensor
        tensor = self._tensor
        if not self._is_output and tensor._view_creation is not None:
            tensor._rebased()  # torch reads a saved view's grad_fn first: its refusal comes first
        check_version(self, tensor, owner)  # the course's seam: looked up here at each call
        if by_backward and self._had_grad_fn and tensor._grad_fn is None and \
                not self._is_output and owner._forward_cls._trusted:
            raise RuntimeError(
                "Trying to use a saved tensor that has been detached in-place, i.e. with "
                ".detach_().This is not supported, please use out-of-place `.detach()` instead")
        if self._is_output:
            return tensor._rewrap_output(owner, self._output_nr)
        return tensor

    def __repr__(self) -> str:
        return f"<torch._C._autograd.SavedTensor object at {id(self):#x}>"

    def register_hooks(self, pack_hook: Callable[[Tensor], Any],
                       unpack_hook: Callable[[Any], Tensor]) -> None:
        """Pack this saved tensor now with ``pack_hook``; each unpack calls ``unpack_hook``
        (``grad_fn._raw_saved_self.register_hooks(pack, unpack)``, as torch's).

        >>> import minitorch
        >>> y = minitorch.ones(2, requires_grad=True).pow(2)
        >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
        """
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                f"Invoked with: {self!r}, {pack_hook!r}, {unpack_hook!r}")
        if self._tensor is _FREED:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward.")
        if self._unpack_hook is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already been set. "
                "Hint: only one pair of hooks is allowed at a time.")
        if self._tensor is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        self._leaf_requiring_grad = _leaf_requiring_grad(self._tensor, self._is_output)
        self._packed = _pack_without_grad(pack_hook, self._tensor.detach())  # torch's: the data
        self._unpack_hook, self._tensor = unpack_hook, None

    def release(self) -> None:
        """Drop the saved value; a later unpack raises torch's 'second time' error."""
        self._tensor = _FREED
        self._packed = None


def saved_as_written(node: Node | None, tensor: Tensor) -> None:
    """The outputs ``node`` saved stand for ``tensor``, which an in-place op just wrote them
    into: torch saves that tensor itself, so a later write into it is refused at backward.

    >>> x = minitorch.ones(2, requires_grad=True)
    >>> y = x.clone().exp_()
    >>> _ = y.exp_()  # overwrites the result the first exp_ saved
    >>> y.sum().backward()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    RuntimeError: one of the variables ... which is output 0 of Exp, is at version 2; ...
    """
    for saved in getattr(node, "_saved", None) or ():
        if saved is not None and saved._is_output and isinstance(saved._tensor, T.Tensor):
            saved._tensor._version_counter = tensor._version_counter
            saved._version = tensor._version_counter.value


FREED = object.__new__(SavedTensor)
"""A saved tensor already released: what stands, after backward, for a number that torch
saved as a (wrapped-number) tensor, so that a second backward raises as torch's. Every node
shares this one: a released node holds nothing of its own."""
FREED.release()

EMPTY = object.__new__(SavedTensor)
"""What a node shows (``_raw_saved_<name>``) for a tensor it did not save: torch's
SavedTensor of value None, whose hooks it refuses. Every node shares this one."""
EMPTY._tensor = EMPTY._packed = EMPTY._unpack_hook = None


_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


@course.seam
def check_version(saved: SavedTensor, tensor: Tensor, owner: Node) -> None:
    """Raise torch's error if an in-place operation changed ``tensor`` since ``saved`` kept it.

    ``saved`` recorded the version at save time; ``owner`` is the node unpacking it. A saved
    output is named after ``owner``; a saved input after its current ``grad_fn`` (as output 0:
    torch keeps no output number for saved inputs); a leaf after nothing.

    >>> x = minitorch.ones(2, requires_grad=True)
    >>> y = x * x
    >>> with minitorch.no_grad():
    ...     _ = x.add_(1)
    >>> y.backward(minitorch.ones(2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    RuntimeError: one of the variables ... [torch.FloatTensor [2]] is at version 1; expected...
    """
    if saved._is_output:
        refuse_changed(tensor, saved._version, owner, saved._output_nr)
    else:
        refuse_changed(tensor, saved._version)


def refuse_changed(tensor: Tensor, version: int, creator: Node | None = None,
                   nr: int = 0) -> None:
    """torch's error if ``tensor`` is no longer at ``version``: an input kept for backward
    (named after its current ``grad_fn``), or output ``nr`` of ``creator``.

    >>> refuse_changed(minitorch.ones(1), 0)
    """
    now = tensor._version_counter.value
    if now == version:
        return
    if creator is None:
        creator = _creator_of(tensor)
    which = ""
    if creator is not None:
        name = creator.name()
        if type(creator).__name__ not in CPP_NODES and "Backward" in name:
            head, _, overload = name.rpartition("Backward")  # ClampBackward1: Clamp1
            name = head if overload == "0" else head + overload
        which = f", which is output {nr} of {name},"
    shape = ", ".join(str(s) for s in tensor.shape)
    raise RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{type_string(tensor.dtype)} [{shape}]]{which} is at "
        f"version {now}; expected version {version} instead. {_anomaly_hint()}"
    )


def _creator_of(tensor: Tensor) -> Node | None:
    try:
        return tensor.grad_fn  # a view written through takes a new one first, as torch's
    except RuntimeError:  # ... which a namespace without strides cannot locate: name the old
        return tensor._grad_fn


def _anomaly_hint() -> str:
    from .anomaly_mode import is_anomaly_enabled

    if is_anomaly_enabled():
        return ("Hint: the backtrace further above shows the operation that failed to compute "
                "its gradient. The variable in question was changed in there or anywhere later. "
                "Good luck!")
    return ("Hint: enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


class saved_tensors_hooks:
    """Choose how tensors saved for backward are stored: ``pack_hook(tensor)`` runs when an
    op saves a tensor and may return anything; ``unpack_hook(packed)`` runs when backward
    needs the tensor back and must return a tensor with the same values. The hooks apply to
    operations recorded inside the ``with`` block, in this thread; the innermost block wins.
    Subclass it to give a storage policy a name (torch's ``save_on_cpu`` is one).

    ``y = x.exp(); (y * x).sum()`` packs three tensors: exp saves its result, mul both
    operands, sum nothing.

    >>> import minitorch
    >>> packed = []
    >>> def pack(t):
    ...     packed.append(t.shape)
    ...     return t
    >>> x = minitorch.ones(3, requires_grad=True)
    >>> with saved_tensors_hooks(pack, lambda t: t):
    ...     y = x.exp(); z = (y * x).sum()
    >>> len(packed)
    3

    Offloading to disk: between forward and backward, the saved tensors live in files.

    >>> import itertools, os, tempfile
    >>> import numpy as np
    >>> class save_on_disk(saved_tensors_hooks):
    ...     def __init__(self, folder):
    ...         names = itertools.count()
    ...         def pack_to_file(tensor):
    ...             path = os.path.join(folder, f"{next(names)}.npy")
    ...             np.save(path, tensor.detach().numpy())
    ...             return path
    ...         def unpack_from_file(path):
    ...             return minitorch.from_numpy(np.load(path))
    ...         super().__init__(pack_to_file, unpack_from_file)
    >>> x = minitorch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with save_on_disk(folder):
    ...         z = (x.exp() * x).sum()
    ...     print(sorted(os.listdir(folder)))
    ...     z.backward()
    ['0.npy', '1.npy', '2.npy']
    >>> x.grad                   # (x + 1) * exp(x)
    tensor([ 2.4731,  5.4366, 22.1672])
    """

    def __init__(self, pack_hook: Callable[[Tensor], Any],
                 unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        from .. import _batched_function

        _batched_function.check_saved_tensors_hooks()
        if _hook_state.disabled is not None:
            raise RuntimeError(_hook_state.disabled)
        if not callable(self.pack_hook) or not callable(self.unpack_hook):
            raise TypeError(
                "_push_saved_tensors_default_hooks(): incompatible function arguments. The "
                "following argument types are supported:\n    1. (arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\n"
                f"Invoked with: {self.pack_hook!r}, {self.unpack_hook!r}")
        _hook_state.stack = (*_hook_state.stack, (self.pack_hook, self.unpack_hook))

    def __exit__(self, *exc: object) -> None:
        _hook_state.stack = _hook_state.stack[:-1]


def _pack_without_grad(pack_hook: Callable[[Tensor], Any], tensor: Tensor) -> Any:
    """Run a pack hook with grad mode off, as torch does (its operations are not recorded);
    one that writes into the tensor it packs is refused, as torch refuses it."""
    version = tensor._version_counter.value
    with grad_mode._recording(False):
        packed = pack_hook(tensor)
    if tensor._version_counter.value != version:
        raise RuntimeError(
            "A saved tensor pack hook is modifying its input in place. Tensors provided as "
            "input to pack hook cannot be modified by in-place operations as this can lead to "
            "unexpected side-effects. Please open an issue if you need to perform in-place "
            "operations on the input to a pack hook.")
    return packed


def _leaf_requiring_grad(tensor: Tensor, is_output: bool) -> bool:
    """Whether a saved tensor is a leaf that requires grad: what torch unpacks as one again."""
    return not is_output and tensor._grad_fn is None and tensor._requires_grad


def _unpack_with_hook(unpack_hook: Callable[[Any], Tensor], packed: Any) -> Tensor:
    from .._args import type_name
    from .._tensor import Tensor

    tensor = unpack_hook(packed)
    if not isinstance(tensor, Tensor):
        raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                        f"result of type {type_name(tensor)}")
    return tensor


@contextmanager
def use(saved_class: Callable[[Tensor], Any]) -> Iterator[None]:
    """The course's seam: your class keeps, and checks, every tensor saved inside the block.

    Each tensor an operation saves for backward becomes ``saved_class(tensor)`` (so it can
    record the version then), and backward asks that object's ``.get()`` for the tensor (so
    it can check the version now). It rides on the saved-tensor hooks (an inner
    ``saved_tensors_hooks`` block wins), and ``check_version`` refuses tensors saved before
    the block, which ``saved_class`` never saw (so use it from one thread: the hooks are this
    thread's, the refusal is everyone's). Everything is restored on exit, and by
    ``minitorch.course.reset()``.

    >>> class Keep:
    ...     def __init__(self, tensor):
    ...         self.tensor = tensor
    ...     def get(self):
    ...         return self.tensor
    >>> x = minitorch.tensor(3., requires_grad=True)
    >>> with use(Keep):
    ...     (x * x).backward()
    >>> x.grad
    tensor(6.)
    """
    if not callable(getattr(saved_class, "get", None)):
        raise TypeError(f"graph.use needs a class whose objects give the saved tensor back with "
                        f".get(); {saved_class!r} has no get method")
    name = getattr(saved_class, "__name__", repr(saved_class))

    def saved_before_use(saved: SavedTensor, tensor: Tensor, owner: Node) -> None:
        raise RuntimeError(f"{owner.name()} needs a tensor saved before graph.use({name}) "
                           f"began, which {name} never saw: run the forward inside the block")

    pair = (_pack_once(saved_class, name), operator.methodcaller("get"))
    with course.plug(_hook_state, "stack", (*_hook_state.stack, pair)), \
            course.plug(sys.modules[__name__], "check_version", saved_before_use):
        yield


def _pack_once(saved_class: Callable[[Tensor], Any], name: str) -> Callable[[Tensor], Any]:
    """``saved_class`` as a pack hook that refuses to be re-entered: a class that saves a
    tensor for backward itself (say, by building a ``SavedTensor``) would recurse forever."""
    packing = False

    def pack(tensor: Tensor) -> Any:
        nonlocal packing
        if packing:
            raise RuntimeError(f"{name}(tensor) saved a tensor for backward itself: it must "
                               f"keep the tensor, not save it again")
        packing = True
        try:
            return saved_class(tensor)
        finally:
            packing = False

    return pack


# The tools built on the hooks above live in their own module, reached from here as in torch.
from .saved_tools import (  # noqa: E402
    allow_mutation_on_saved_tensors,
    disable_saved_tensors_hooks,
    register_multi_grad_hook,
    save_on_cpu,
)
