"""The backward engine: run every node once, after all its consumers have delivered.

``execute`` discovers the nodes reachable from the roots with an explicit stack (no
recursion, so a chain of 100 000 nodes is fine), counts for each node how many gradients it
must wait for, and then runs nodes whose count reached zero — latest-created first, as torch
does — summing the gradients that arrive at the same node. Leaves accumulate into ``.grad``.
``use`` plugs in another engine (the course's students write their own).

>>> import minitorch
>>> x = minitorch.tensor(3., requires_grad=True)
>>> y = x * x + x                 # two paths reach x: the gradients are summed
>>> y.backward(); x.grad
tensor(7.)
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .. import _tensor as T
from .. import course
from .._args import node_hook_result
from ..backend import add_into, quiet
from . import anomaly_mode, forward_ad, grad_mode, profiler, torch_events
from .graph import (
    AccumulateGrad,
    Node,
    _array_of,
    _call_tensor_hook,
    _leaf_hooks,
    _shown,
    _tensors,
    accumulate_into_leaf,
    leaf_hooks_first,
    per_operand,
    retain_into,
    with_edges,
)

if TYPE_CHECKING:
    from .._tensor import Tensor

__all__ = ["accumulate_into_leaf", "discover", "execute", "is_checkpoint_valid", "observe",
           "queue_callback", "use"]


Edge = tuple[Node, int]
_observers: list[Callable[..., None]] = []
_capturing: list[bool] = []  # per running backward: was it given inputs (grad, inputs=)?


def is_checkpoint_valid() -> bool:
    """Whether the running backward (if any) computes every gradient it reaches, as
    ``backward()`` without ``inputs`` does: torch's ``_is_checkpoint_valid``, which the
    reentrant checkpoint needs to rerun its function inside the backward.

    >>> is_checkpoint_valid()
    True
    """
    return not _capturing or not _capturing[-1]


@contextmanager
def _task(capturing: bool) -> Iterator[None]:
    _capturing.append(capturing)
    try:
        yield
    finally:
        _capturing.pop()


@contextmanager
def observe(callback: Callable[..., None]) -> Iterator[None]:
    """Call ``callback(event, **info)`` as the engine works (used by the backward stepper).

    Events: ``"start"`` (dependencies, ready), ``"run"`` (node, grad_outputs, ready,
    dependencies), ``"done"`` (node, grad_inputs).
    """
    _observers.append(callback)
    try:
        yield
    finally:
        _observers.remove(callback)


@course.seam
def discover(roots: Sequence[Node]) -> tuple[dict[Node, int], list[Node]]:
    """Count each reachable node's incoming edges; also return the nodes in post-order
    (every node after all nodes it leads to)."""
    deps: dict[Node, int] = {}
    order: list[Node] = []
    seen: set[Node] = set()
    for root in roots:  # one walk per root not reached yet: a root another leads to comes
        if root not in seen:  # first in the order, as any node
            seen.add(root)
            _walk(root, deps, order, seen)
    return deps, order


def _walk(root: Node, deps: dict[Node, int], order: list[Node], seen: set[Node]) -> None:
    # The path from the root, and how many edges of each of its nodes are walked: two flat
    # lists, not a tuple per level, so a 100 000-deep chain leaves the garbage collector alone.
    # A node's edges are read in one inner loop up to the first child not seen yet, which the
    # walk then enters (its edges are read again, from where it stopped, when it comes back).
    path, walked = [root], [0]
    while path:
        node, i = path[-1], walked[-1]
        edges = _walked_edges(node)  # next_functions, flat: (node0, nr0, node1, nr1, ...)
        end = len(edges)
        while i < end:
            child = edges[i]
            i += 2
            if child is not None:
                deps[child] = deps.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    break
        else:  # every edge walked: the node comes after all it leads to
            path.pop()
            walked.pop()
            order.append(node)
            continue
        walked[-1] = i
        path.append(child)
        walked.append(0)


def _walked_edges(node: Node) -> tuple:
    """The node's next_functions, flat, as far as a walk that follows edges needs them: a
    node kept alone in ``_next`` is the one edge that leads anywhere (see Node). The pair made
    for it lives only while it is read: a walk that kept one per level of a deep chain would
    feed the garbage collector a million new objects."""
    edges = node._next
    return edges if edges.__class__ is tuple else (edges, 0)


def _prune(order: list[Node], targets: set[Node]) -> tuple[set[Node], dict[Node, int]]:
    """Keep the nodes from which a target can be reached; recount dependencies among them."""
    needed: set[Node] = set()
    for node in order:
        if node in targets or any(n in needed for n in _walked_edges(node)[::2] if n is not None):
            needed.add(node)
    deps: dict[Node, int] = {}
    for node in needed:
        for child in _walked_edges(node)[::2]:  # next_functions' nodes
            if child in needed:
                deps[child] = deps.get(child, 0) + 1
    return needed, deps


@course.seam
def execute(
    roots: Sequence[Edge],
    root_grads: Sequence[Tensor],
    *,
    keep_graph: bool,
    create_graph: bool,
    capture: Sequence[Edge] | None = None,
    accumulate: bool = True,
) -> list[Tensor | None]:
    """Backpropagate ``root_grads`` from the ``roots`` edges through the graph.

    With ``capture``, only the nodes that lead to those edges run, and the gradients that
    reach them are returned (in order); ``accumulate=False`` leaves every ``.grad`` alone.
    """
    root_nodes = list(dict.fromkeys(n for n, _ in roots))
    deps, order = discover(root_nodes)
    needed = None
    if capture is not None:
        needed, deps = _prune(order, {n for n, _ in capture})
        root_nodes = [n for n in root_nodes if n in needed]
    buffers: dict[Node, list] = {}
    captured: dict[Edge, Any] = {}
    wanted = set(capture or ())
    # backward(inputs=...) runs the nodes of its non-leaf inputs too (their gradients go no
    # further), freeing their saved tensors, as torch's engine does; autograd.grad does not
    ran_targets = {n for n, _ in wanted} if accumulate else set()
    ready = [(-n._seq, n) for n in root_nodes if deps.get(n, 0) == 0]
    heapq.heapify(ready)
    observer = _observers[-1] if _observers else None
    if observer:
        observer("start", dependencies=dict(deps), ready=[n for _, n in ready])
    pop, push = heapq.heappop, heapq.heappush  # once, not per node
    # inf/nan in backward stay silent, as in torch; the backward is recorded for create_graph
    with quiet(), grad_mode._recording(create_graph), _task(capture is not None):
        for (node, nr), grad in zip(roots, root_grads):
            _deliver(buffers, node, nr, grad)
        while ready:
            node = pop(ready)[1]
            grads = buffers.pop(node, None) or [None] * node._n_outputs
            if node._tensor_pre_hooks or node._retain_grad_hooks:
                grads = _run_tensor_hooks(node, _tensors(grads))
            if wanted:
                grads = _tensors(grads)
                if not accumulate and type(node) is AccumulateGrad and grads[0] is not None:
                    grads = [_leaf_hooks(node.variable, grads[0])]  # it will not run them
                for nr, grad in enumerate(grads):
                    if (node, nr) in wanted:
                        captured[(node, nr)] = grad
                        _shown((grad,))
            if needed is not None and not _must_run(node, needed, accumulate) and \
                    node not in ran_targets:
                continue
            if observer:
                grads = _tensors(grads)
                observer("run", node=node, grad_outputs=grads,
                         ready=[n for _, n in ready], dependencies=dict(deps))
            prof = profiler._active
            if prof is not None:  # torch's event for the node and the sums of what it gives
                prof._push(f"autograd::engine::evaluate_function: {node.name()}",
                           "cpu_op", None)
            try:
                outs = _run_node(node, tuple(grads), create_graph)
                if not keep_graph:
                    node._release()
                if observer:
                    outs = _tensors(outs)
                    _shown(outs)
                    observer("done", node=node, grad_inputs=outs)
                # next_functions, flat: (node0, nr0, node1, nr1, ...), read a pair at a time;
                # or the one input's node alone, output 0 of it (see Node)
                edges = node._next
                if edges.__class__ is tuple:
                    edges = iter(edges)
                    sent = zip(edges, edges, outs)
                else:
                    sent = ((edges, 0, outs[node.needs_input_grad.index(True)]),)
                for child, nr, grad in sent:
                    if child is None or (needed is not None and child not in needed):
                        continue
                    if grad is not None:
                        _deliver(buffers, child, nr, grad, grads, outs)
                    left = deps[child] - 1
                    deps[child] = left
                    if left == 0:
                        push(ready, (-child._seq, child))
            finally:
                if prof is not None:
                    prof._pop(0)
    _run_final_callbacks()
    return [captured.get(edge) for edge in capture] if capture is not None else []


_final_callbacks: list[Callable[[], None]] = []


def queue_callback(callback: Callable[[], None]) -> None:
    """Run ``callback()`` once the current backward pass ends (torch's ``queue_callback``)."""
    _final_callbacks.append(callback)


def _run_final_callbacks() -> None:
    while _final_callbacks:
        _final_callbacks.pop(0)()


@contextmanager
def use(student_backward: Callable[[Node, Tensor], Any]) -> Iterator[Callable[..., Any]]:
    """Inside the block, ``loss.backward()`` and ``autograd.backward`` run ``student_backward``.

    ``student_backward(root, grad)`` gets the root's node (``loss.grad_fn``, or a leaf's
    ``AccumulateGrad``) and the gradient of the root tensor; it must run every node once and
    let the ``AccumulateGrad`` nodes fill the leaves' ``.grad``. It runs with grad mode off, and
    afterwards the graph is freed unless ``retain_graph=True``. What it cannot serve is refused
    with ``NotImplementedError``: ``create_graph=True``, ``autograd.grad`` and
    ``backward(inputs=...)``, several roots at once, and nodes with several outputs.

    >>> def traced(root, grad):
    ...     print("my engine starts at", root.name())
    ...     root(grad)
    >>> x = minitorch.tensor(2., requires_grad=True)
    >>> with use(traced):
    ...     x.backward()
    my engine starts at torch::autograd::AccumulateGrad
    >>> x.grad
    tensor(1.)
    """

    def adapted(roots: Sequence[Edge], root_grads: Sequence[Tensor], *, keep_graph: bool,
                create_graph: bool, capture: Sequence[Edge] | None = None,
                accumulate: bool = True) -> list[Tensor | None]:
        _refuse_for_student(roots, create_graph, capture)
        (root, _), = roots
        nodes = _reachable(root)
        if any(n._n_outputs > 1 for n in nodes):
            raise NotImplementedError(
                "the plugged engine handles nodes with one output only, and this graph has a "
                "node with several (a Function returning several tensors)")
        with grad_mode._recording(False):  # the gradients themselves are not recorded
            student_backward(root, root_grads[0])
        if not keep_graph:
            for node in nodes:
                node._release()
        return []

    with course.plug(sys.modules[__name__], "execute", adapted):
        yield student_backward


def _refuse_for_student(roots: Sequence[Edge], create_graph: bool,
                        capture: Sequence[Edge] | None) -> None:
    if capture is not None:
        raise NotImplementedError(
            "the plugged engine only accumulates into .grad: autograd.grad and "
            "backward(inputs=...) need minitorch's engine (leave the engine.use block)")
    if create_graph:
        raise NotImplementedError(
            "the plugged engine does not build a graph of the backward: call backward without "
            "create_graph=True (or leave the engine.use block)")
    if len(roots) != 1:
        raise NotImplementedError(
            "the plugged engine starts from one root: call backward on one tensor at a time")


def _reachable(root: Node) -> list[Node]:
    """Every node reachable from ``root`` (an explicit stack, no recursion). Not ``discover``:
    the plugged engine must run while grading has ``discover`` switched off."""
    seen = {root}
    stack = [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append(child)
    return list(seen)


def _deliver(buffers: dict[Node, list], node: Node, nr: int, grad: Any,
             came: tuple = (), went: tuple = ()) -> None:
    """Put ``grad`` into the input buffer of ``node`` (output ``nr``), summed with what is
    there. It is one of the gradients ``went`` out of a node that got ``came``.

    Gradients travel as arrays; a leaf's buffer holds a Tensor (made when its first gradient
    arrives), which says whether the engine owns its memory (``_fresh``: the leaf may keep it
    as ``.grad``, and later gradients are added into it in place). However many gradients
    reach a leaf, that is one Tensor, or two.
    """
    buf = buffers.get(node)
    leaf = type(node) is AccumulateGrad
    if buf is None:
        if nr == 0 and node._n_outputs == 1 and not leaf:  # the common case: one gradient
            buffers[node] = [grad]
            return
        buf = buffers[node] = [None] * max(node._n_outputs, nr + 1)
    old = buf[nr]
    if old is not None:
        if profiler._active is None:
            buf[nr] = _sum(old, grad, leaf)
        else:
            with profiler.op_event("aten::add_" if _stealable(buffers, old) else "aten::add"):
                buf[nr] = _sum(old, grad, leaf)
    elif leaf and not isinstance(grad, T.Tensor):
        buf[nr] = t = T.Tensor._make(grad)
        if _own_array(grad, came, went):
            t._fresh = True
    else:
        buf[nr] = grad


def _own_array(array: Any, came: tuple, went: tuple) -> bool:
    """An array backward returned ``array`` (one of ``went``) from the gradients that ``came``:
    it is the backward's own memory unless it is a view, one of those gradients, or returned
    twice (``Function.backward_arrays`` returns nothing else)."""
    if getattr(array, "base", array) is not None:
        return False
    for g in came:
        if g is not None and _array_of(g) is array:
            return False
    seen = 0
    for g in went:
        seen += g is array
    return seen == 1


def _stealable(buffers: dict[Node, list], old: Any) -> bool:
    """Whether torch's input buffer adds the next gradient into ``old`` in place (``add_``)
    rather than into a new tensor (``add``): only when it holds the last reference to
    ``old`` and to all of its memory, so not for a view (an expanded gradient) nor for a
    gradient waiting in another buffer too (a node that passed its input on twice)."""
    array = _array_of(old)
    if getattr(array, "base", None) is not None:
        return False
    held = 0
    for buf in buffers.values():
        for g in buf:
            held += g is not None and _array_of(g) is array
    return held == 1


def _sum(old: Any, grad: Any, for_leaf: bool) -> Any:
    """Two gradients that arrived for the same output of a node, added up.

    With a graph of the backward wanted, the sum is a recorded op. Without, it is the sum of
    the arrays, as torch's input buffer: no op, no node. A sum the engine made is its own
    memory, so the next gradient for a leaf is added into it in place.
    """
    a = old._data if isinstance(old, T.Tensor) else old
    b = grad._data if isinstance(grad, T.Tensor) else grad
    if grad_mode._state.grad_enabled or forward_ad.levels or type(a) is not type(b) or \
            a.dtype != b.dtype:  # (under forward AD, the sum carries the tangents)
        old, grad = _tensors((old, grad))
        return old + grad
    if for_leaf and old._fresh and a.shape == b.shape:
        add_into(a, b)
        return old
    if not for_leaf:
        return a + b
    total = T.Tensor._make(a + b)
    total._fresh = True  # a new array, unseen: the leaf may keep it (see Tensor._fresh)
    return total


def _must_run(node: Node, needed: set[Node], accumulate: bool) -> bool:
    """In a pruned run, a node runs if it leads on to a target (or is a leaf to fill)."""
    if isinstance(node, AccumulateGrad):
        return accumulate
    return any(child in needed for child in _walked_edges(node)[::2])


def _run_tensor_hooks(node: Node, grads: list) -> list:
    """Hooks registered with ``Tensor.register_hook`` on the node's outputs, then retain_grad."""
    _shown(grads)
    if node._tensor_pre_hooks:
        grads = list(grads)
        for nr, hook in list(node._tensor_pre_hooks.values()):
            if nr < len(grads) and grads[nr] is not None:
                grads[nr] = _call_tensor_hook(hook, grads[nr])
    if node._retain_grad_hooks:
        for nr, ref in list(node._retain_grad_hooks.items()):
            tensor = ref()
            if tensor is not None and nr < len(grads) and grads[nr] is not None:
                retain_into(tensor, grads[nr])
    return grads


def _run_node(node: Node, grads: tuple, create_graph: bool) -> tuple:
    """Run a node with its hooks. Gradients travel as arrays where no one sees them (no hook,
    no profiler, no anomaly mode, no graph of the backward): a Tensor is made only for a leaf,
    a hook, or a node that works on tensors."""
    if node._pre_hooks:
        grads = _tensors(grads)
        if type(node) is AccumulateGrad and grads[0] is not None and node.variable._hooks:
            # torch runs a leaf's tensor hooks before its node's pre-hooks
            grads = (_leaf_hooks(node.variable, grads[0]),)
            with leaf_hooks_first(node.variable):
                return _run_node_hooked(node, grads, create_graph)
        return _run_node_hooked(node, grads, create_graph)
    return _run_node_after_prehooks(node, grads, create_graph)


def _run_node_hooked(node: Node, grads: tuple, create_graph: bool) -> tuple:
    _shown(grads)
    for hook in list(node._pre_hooks.values()):
        result = hook(grads)
        if result is not None:
            grads = node_hook_result(hook, grads, result)
    return _run_node_after_prehooks(node, grads, create_graph)


def _run_node_after_prehooks(node: Node, grads: tuple, create_graph: bool) -> tuple:
    prof = profiler._active
    if prof is not None or anomaly_mode._enabled:
        outs = _run_watched(node, _tensors(grads), prof)
    elif create_graph:
        outs = node._apply(grads)
    elif forward_ad.levels and hasattr(node, "_backward"):
        # under forward AD the backward's ops carry tangents (forward-over-reverse): on tensors
        outs = node._backward(_tensors(grads))
    else:  # the common case: arrays
        outs = node._apply_arrays(grads)
    if node._hooks:  # (they see one gradient per edge, as torch's)
        outs, grads = with_edges(node, _tensors(outs)), _tensors(grads)
        _shown(outs)
        _shown(grads)
        for hook in list(node._hooks.values()):
            result = hook(outs, grads)
            if result is not None:
                outs = node_hook_result(hook, outs, result)
        outs = per_operand(node, outs)
    return outs


def _run_watched(node: Node, grads: tuple, prof: Any) -> tuple:
    """A node under the profiler (its event, inside the engine's evaluate_function event) or
    anomaly mode."""
    if prof is not None:  # torch records the node's inputs: the gradients it gets
        name = node.name()
        prof._push(name, "cpu_op", [() if g is None else tuple(g.shape) for g in grads]
                   if prof.record_shapes else None)
    try:
        formula = torch_events.BACKWARD.get(name) if prof is not None else None
        if formula is not None and not grad_mode._state.grad_enabled:
            # torch's formula calls other ops than minitorch's: record torch's, and run
            # minitorch's backward (on arrays, unrecorded) inside the one doing the work
            return profiler.run_inside(formula, lambda: _unrecorded(node, grads))
        # a profiled node runs its backward on tensors, so its ops are recorded as torch's
        return _apply(node, grads, tensors=prof is not None)
    finally:
        if prof is not None:
            prof._pop(0)


def _unrecorded(node: Node, grads: tuple) -> tuple:
    """The node's backward with the profiler paused on this thread (its events are
    :data:`torch_events.BACKWARD`'s), as tensors."""
    with profiler.paused():
        return _tensors(_apply(node, grads))


def _apply(node: Node, grads: tuple, tensors: bool = False) -> tuple:
    run = getattr(node, "_backward", node._apply) if tensors else node._apply
    if not anomaly_mode._enabled:
        return run(grads)
    try:
        outs = run(grads)
    except Exception:
        anomaly_mode.warn_forward_trace(node)
        raise
    if anomaly_mode._check_nan:
        anomaly_mode.check_nan(node, outs)
    return outs
