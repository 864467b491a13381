"""The backward engine: dependency counting, order, accumulation, retain/create_graph,
``autograd.grad``/``backward`` options, deep graphs, memory and threads.

Truth comes from live torch 2.13 (same program on both libraries), numpy and closed forms.
"""

from __future__ import annotations

import gc
import math
import sys
import threading
import warnings
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_same, assert_same_error, mt, numpy_of, raised_by

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])


def nodes_of(root: Any) -> list[Any]:
    """Every node reachable from ``root`` (iteratively, in discovery order)."""
    seen, out, stack = set(), [], [root]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        out.append(node)
        stack.extend(fn for fn, _ in node.next_functions)
    return out


def count_runs(root: Any) -> Counter:
    """Register a prehook on every node under ``root`` that counts its runs."""
    runs: Counter = Counter()
    for node in nodes_of(root):
        node.register_prehook(lambda grads, node=node: runs.update([node]))
    return runs


def diamond(L: Any) -> tuple[Any, Any, Any]:
    """x -> a = x * w -> {exp, sin, a itself} -> d -> e: a has fan-in 3, x and w fan-in 2."""
    x = L.tensor([0.5, 1.5], dtype=L.float64, requires_grad=True)
    w = L.tensor([2.0, -1.0], dtype=L.float64, requires_grad=True)
    a = x * w
    d = a.exp() * a.sin() + a
    e = (d * x).sum() + w.sum()
    return x, w, e


# ------------------------------------------------------------------ dependency counting


@LIBS
def test_every_node_runs_once(L: Any) -> None:
    *_, e = diamond(L)
    runs = count_runs(e.grad_fn)
    e.backward()
    assert len(runs) == len(nodes_of(e.grad_fn)) == 11
    assert set(runs.values()) == {1}


def test_wide_fan_in_runs_once_and_sums() -> None:
    twins = []
    for L in (mt, torch):
        x = L.tensor([0.3, -0.7], dtype=L.float64, requires_grad=True)
        a = x.exp()
        outs = [a * k for k in range(1, 11)] + [a.sin(), a.tanh(), a]
        runs = count_runs(a.grad_fn)
        arrived: list[Any] = []
        a.grad_fn.register_prehook(lambda grads, arrived=arrived: arrived.append(grads[0]))
        L.stack(outs).sum().backward()
        assert runs[a.grad_fn] == 1
        twins.append((arrived[0], x.grad))
    (got_sum, got_grad), (want_sum, want_grad) = twins
    assert_same(got_sum, want_sum, "gradient summed at a")
    assert_same(got_grad, want_grad, "x.grad")


def test_order_is_torch_order_and_topological() -> None:
    """The engine's run order (seen through ``engine.observe``) is a topological order of
    the graph and the very order torch runs the same graph in."""
    orders = {}
    for L in (mt, torch):
        *_, e = diamond(L)
        ran: list[Any] = []
        for node in nodes_of(e.grad_fn):
            node.register_prehook(lambda grads, node=node, ran=ran: ran.append(node))
        if L is mt:
            events: list[tuple[str, Any]] = []
            with mt.autograd.engine.observe(recorder(events)):
                e.backward()
            runs = [info["node"] for event, info in events if event == "run"]
            assert runs == ran, "observe and prehooks disagree"
            assert [ev for ev, _ in events] == ["start"] + ["run", "done"] * len(runs)
            assert_topological(runs)
            assert_dependencies(events[0][1]["dependencies"], e.grad_fn)
        else:
            e.backward()
        orders[L] = [type(n).__name__ for n in ran]
    assert orders[mt] == orders[torch]


def recorder(events: list) -> Callable[..., None]:
    """An engine observer that appends ``(event, info)`` to ``events``."""

    def record(event: str, **info: Any) -> None:
        events.append((event, info))

    return record


def assert_topological(order: list[Any]) -> None:
    """Every node runs after all the nodes that send it a gradient."""
    position = {node: i for i, node in enumerate(order)}
    for consumer in order:
        for producer, _ in consumer.next_functions:
            if producer is not None:
                assert position[producer] > position[consumer], (producer, consumer)


def assert_dependencies(dependencies: dict, root: Any) -> None:
    """The engine's dependency counts are the number of incoming edges of each node."""
    incoming: Counter = Counter()
    for node in nodes_of(root):
        incoming.update(fn for fn, _ in node.next_functions if fn is not None)
    assert {n: c for n, c in dependencies.items() if c} == dict(incoming)


def test_observer_sees_the_gradients() -> None:
    x = mt.tensor(3.0, requires_grad=True)
    y = x * x
    seen: dict[str, Any] = {}

    def record(event: str, **info: Any) -> None:
        if event == "done" and info["node"] is y.grad_fn:
            seen["grad_inputs"] = info["grad_inputs"]

    with mt.autograd.engine.observe(record):
        y.backward()
    assert [g.item() for g in seen["grad_inputs"]] == [3.0, 3.0]


# ------------------------------------------------------------------ retain_graph


@LIBS
def test_retain_graph_then_second_backward(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.clone()
    y.backward()  # the graph was kept: a second pass works and accumulates
    assert x.grad.equal(first * 2)
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second"):
        y.backward()  # ... but the second pass freed it


@LIBS
def test_graph_without_saved_tensors_runs_twice(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


@LIBS
def test_create_graph_retains_by_default(L: Any) -> None:
    x = L.tensor(2.0, requires_grad=True)
    y = x**3
    (g,) = L.autograd.grad(y, x, create_graph=True)
    (g2,) = L.autograd.grad(y, x)  # still there: retain_graph defaulted to True
    assert (g.item(), g2.item()) == (12.0, 12.0)


def shared_prefix_freed(L: Any) -> None:
    """Backward through z1 frees y's node, which z2 still needs."""
    x = L.ones(3, requires_grad=True)
    y = x.exp()
    z1, z2 = y.sum(), (y * 2).sum()
    z1.backward()
    z2.backward()


def saved_tensor_read_after_free(L: Any) -> None:
    x = L.ones(3, requires_grad=True)
    y = x.exp()
    y.sum().backward()
    y.grad_fn._saved_result


@pytest.mark.parametrize("scenario", [shared_prefix_freed, saved_tensor_read_after_free])
def test_freed_graph_errors_like_torch(scenario: Callable[[Any], None]) -> None:
    want = raised_by(scenario, torch)
    assert want is not None
    assert_same_error(raised_by(scenario, mt), want)


# ------------------------------------------------------------------ higher order


def higher(L: Any, fn: Callable[..., Any], arrays: list[np.ndarray], order: int) -> list[Any]:
    """Derivatives of ``fn`` up to ``order``, each one the vjp of the previous with a fixed
    vector, taken w.r.t. the first input; create_graph on all but the last."""
    inputs = [L.tensor(a, requires_grad=True) for a in arrays]
    out = fn(L, *inputs)
    results = []
    rng = np.random.default_rng(7)
    for k in range(order):
        v = L.tensor(rng.standard_normal(out.shape))
        (out,) = L.autograd.grad(out, inputs[0], grad_outputs=v, create_graph=k < order - 1)
        results.append(out)
    return results


HIGHER = {
    "x**3": lambda L, x: x**3,
    "sin(x)*exp(x)": lambda L, x: x.sin() * x.exp(),
    "tanh(x)/(1+x**2)": lambda L, x: x.tanh() / (1 + x**2),
    "sigmoid(x)**2 - log(x*x+1)": lambda L, x: x.sigmoid() ** 2 - (x * x + 1).log(),
    "x*y + x**2*exp(y)": lambda L, x, y: x * y + x**2 * y.exp(),
    "(x@W).tanh() with W": lambda L, x, y: (x @ y).tanh(),
    "2**x * sqrt(x*x+1)": lambda L, x: 2**x * (x * x + 1).sqrt(),
}
ARITY = {"x*y + x**2*exp(y)": [(4,), (4,)], "(x@W).tanh() with W": [(2, 3), (3, 2)]}


@pytest.mark.parametrize("name", HIGHER)
def test_higher_order_grads_like_torch(name: str) -> None:
    rng = np.random.default_rng(list(HIGHER).index(name))
    arrays = [rng.uniform(-1.5, 1.5, shape) for shape in ARITY.get(name, [(5,)])]
    got = higher(mt, HIGHER[name], arrays, 3)
    want = higher(torch, HIGHER[name], arrays, 3)
    for k, (g, w) in enumerate(zip(got, want), 1):
        assert_same(g, w, f"order {k}")  # values, and requires_grad: True, True, False


def test_higher_order_by_finite_differences() -> None:
    """Third derivative of x**2 * exp(x), from create_graph, against the closed form and a
    central difference of the analytic second derivative."""
    x0 = np.array([-0.4, 0.3, 1.1])
    x = mt.tensor(x0, requires_grad=True)
    (d1,) = mt.autograd.grad((x**2 * x.exp()).sum(), x, create_graph=True)
    (d2,) = mt.autograd.grad(d1.sum(), x, create_graph=True)
    (d3,) = mt.autograd.grad(d2.sum(), x)
    closed = (x0**2 + 6 * x0 + 6) * np.exp(x0)
    np.testing.assert_allclose(d3.numpy(), closed, rtol=1e-12)

    def second(v: np.ndarray) -> np.ndarray:
        return (v**2 + 4 * v + 2) * np.exp(v)

    eps = 1e-6
    np.testing.assert_allclose(d3.numpy(), (second(x0 + eps) - second(x0 - eps)) / (2 * eps),
                               rtol=1e-6)


# ------------------------------------------------------------------ grad / backward options


def leaves(L: Any) -> tuple[Any, Any, Any]:
    x = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
    w = L.tensor([1.5, 0.25, -0.75], dtype=L.float64, requires_grad=True)
    unused = L.tensor([3.0, 4.0], dtype=L.float64, requires_grad=True)
    return x, w, unused


def _grad_outputs(L: Any) -> tuple:
    x, w, _ = leaves(L)
    y = x.exp() * w
    return L.autograd.grad(y, (x, w), grad_outputs=L.tensor([1.0, -2.0, 0.5], dtype=L.float64))


def _several_outputs(L: Any) -> tuple:
    x, w, _ = leaves(L)
    grad_outputs = [L.ones(3, dtype=L.float64), L.tensor(2.0, dtype=L.float64)]
    return L.autograd.grad([x * w, (x.sin() * w).sum()], [w, x], grad_outputs=grad_outputs)


def _allow_unused(L: Any) -> tuple:
    x, w, unused = leaves(L)
    return L.autograd.grad((x * w).sum(), [unused, x], allow_unused=True)


def _materialize(L: Any) -> tuple:
    x, w, unused = leaves(L)
    return L.autograd.grad((x * w).sum(), [x, unused], materialize_grads=True)


def _materialize_create_graph(L: Any) -> tuple:
    """Under create_graph the zeros of an unused input are a leaf that requires grad."""
    x, w, unused = leaves(L)
    return L.autograd.grad((x * w).sum(), [x, unused], materialize_grads=True,
                           create_graph=True)


def _non_leaf_inputs(L: Any) -> tuple:
    x, w, _ = leaves(L)
    y = x * w
    z = y.tanh()
    out = (z * x).sum()
    return L.autograd.grad(out, [z, y, x])


def _output_as_input(L: Any) -> tuple:
    x, _, _ = leaves(L)
    y = x.exp()
    return L.autograd.grad(y, [y, x], grad_outputs=L.ones(3, dtype=L.float64))


def _leaf_as_output(L: Any) -> tuple:
    x, _, _ = leaves(L)
    return L.autograd.grad(x, x, grad_outputs=L.full((3,), 2.0, dtype=L.float64))


def _subset_leaves_untouched(L: Any) -> tuple:
    x, w, _ = leaves(L)
    (gw,) = L.autograd.grad((x * w * w).sum(), w)
    return gw, x.grad, w.grad


def _retain_then_backward(L: Any) -> tuple:
    x, w, _ = leaves(L)
    y = (x.exp() * w).sum()
    (gx,) = L.autograd.grad(y, x, retain_graph=True)
    y.backward()
    return gx, x.grad, w.grad


def _create_graph_grad(L: Any) -> tuple:
    x, w, _ = leaves(L)
    (gx,) = L.autograd.grad((x**2 * w).sum(), x, create_graph=True)
    (gw,) = L.autograd.grad(gx.sum(), w)
    return gx, gw


def _backward_inputs_leaf(L: Any) -> tuple:
    x, w, _ = leaves(L)
    (x.sin() * w).sum().backward(inputs=[x])
    return x.grad, w.grad


def _backward_inputs_single_tensor(L: Any) -> tuple:
    x, w, _ = leaves(L)
    (x.sin() * w).sum().backward(inputs=w)
    return x.grad, w.grad


def _backward_inputs_accumulate(L: Any) -> tuple:
    x, w, _ = leaves(L)
    y = (x * w * w).sum()
    y.backward(inputs=[w], retain_graph=True)
    y.backward(inputs=[w, x])
    return x.grad, w.grad


def _backward_inputs_create_graph(L: Any) -> tuple:
    x, w, _ = leaves(L)
    (x**3 * w).sum().backward(inputs=[x], create_graph=True)
    (gw,) = L.autograd.grad(x.grad.sum(), w)
    return x.grad, gw


def _autograd_backward_several(L: Any) -> tuple:
    x, w, _ = leaves(L)
    L.autograd.backward([x * w, (x.exp()).sum()],
                        grad_tensors=[L.tensor([1.0, 2.0, 3.0], dtype=L.float64), None])
    return x.grad, w.grad


OPTIONS = {f.__name__.strip("_"): f for f in [
    _grad_outputs, _several_outputs, _allow_unused, _materialize, _materialize_create_graph,
    _non_leaf_inputs,
    _output_as_input, _leaf_as_output, _subset_leaves_untouched, _retain_then_backward,
    _create_graph_grad, _backward_inputs_leaf, _backward_inputs_single_tensor,
    _backward_inputs_accumulate, _backward_inputs_create_graph, _autograd_backward_several,
]}


@pytest.mark.parametrize("name", OPTIONS)
def test_grad_and_backward_options_like_torch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about create_graph=True in backward
        want = OPTIONS[name](torch)
        got = OPTIONS[name](mt)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        if w is None:
            assert g is None, f"result {i}: expected None"
        else:
            assert_same(g, w, f"result {i}")


def test_backward_inputs_non_leaf_retains_grad() -> None:
    x = mt.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    (y * y).sum().backward(inputs=[y])
    assert y.retains_grad
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert y.grad.tolist() == [6.0, 12.0]


def test_backward_empty_inputs_error() -> None:
    def scenario(L: Any) -> None:
        L.ones(2, requires_grad=True).sum().backward(inputs=[])

    assert_same_error(raised_by(scenario, mt), raised_by(scenario, torch))


# ------------------------------------------------------------------ deep graphs and memory


@contextmanager
def gc_disabled() -> Iterator[None]:
    """Only reference counting frees objects inside (a cycle would keep them alive)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def test_100k_chain_backpropagates_and_frees_memory() -> None:
    """y = sin(sin(...sin(x))), 100 000 deep: every SinBackward0 saves its input. Backward
    must not recurse, its value is the product of the cosines, and the saved intermediates
    die right after backward, the nodes when the output dies, all by reference counting."""
    n, middle = 100_000, 50_000
    with gc_disabled():
        x = mt.tensor(1.0, dtype=mt.float64, requires_grad=True)
        y = x
        for i in range(n):
            y = y.sin()
            if i == middle:
                tensor_ref, node_ref = weakref.ref(y), weakref.ref(y.grad_fn)
        assert tensor_ref() is not None, "the next SinBackward0 saved this tensor"
        y.backward()
        assert tensor_ref() is None, "backward freed the saved tensors"
        assert node_ref() is not None, "the graph lives as long as its output"
        del y
        assert node_ref() is None, "the graph was freed by reference counting (no cycle)"
    value, derivative = 1.0, 1.0
    for _ in range(n):
        derivative *= math.cos(value)
        value = math.sin(value)
    assert x.grad.item() == pytest.approx(derivative, rel=1e-9)


def test_graph_freed_without_backward_by_refcount() -> None:
    with gc_disabled():
        x = mt.ones(3, requires_grad=True)
        y = (x.exp() * x).sigmoid()
        refs = [weakref.ref(n) for n in nodes_of(y.grad_fn)]
        saved = weakref.ref(y.grad_fn._saved_result)
        del y
        assert all(r() is None for r in refs)
        assert saved() is None


def test_retained_graph_is_freed_with_its_output() -> None:
    with gc_disabled():
        x = mt.ones(3, requires_grad=True)
        h = x.exp()
        y = (h * h).sum()
        y.backward(retain_graph=True)
        h_ref = weakref.ref(h)
        del h
        assert h_ref() is not None, "retain_graph keeps the saved tensor"
        del y
        assert h_ref() is None


# ------------------------------------------------------------------ threads


@contextmanager
def tiny_switch_interval() -> Iterator[None]:
    """Make the interpreter switch threads after almost every bytecode."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def run_threads(target: Callable[[int], Any], n: int) -> list[Any]:
    """Run ``target(k)`` for k in 0..n-1 in threads; re-raise the first error."""
    results: list[Any] = [None] * n
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            results[k] = target(k)
        except BaseException as error:  # handed to the main thread
            errors.append(error)

    with tiny_switch_interval():
        threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if errors:
        raise errors[0]
    return results


@LIBS
def test_ten_threads_backward_on_separate_graphs(L: Any) -> None:
    """Each thread builds its own graph and runs backward and grad (half with create_graph)
    at the same time. The results equal, bit for bit, those of the same work done one
    thread at a time, so no engine state is shared by threads."""
    n = 10
    x0 = np.linspace(-1.0, 1.0, 5)

    def work(k: int, barrier: threading.Barrier | None = None) -> tuple:
        x = L.tensor(x0 + k, requires_grad=True)
        if barrier is not None:
            barrier.wait()
        for _ in range(3):
            x.grad = None
            ((x * k).sin() * x.exp()).sum().backward()
        y = (x.tanh() * (k + 1)).sum()
        (g,) = L.autograd.grad(y, x, create_graph=k % 2 == 0)
        return numpy_of(x.grad), numpy_of(g), g.requires_grad

    alone = [work(k) for k in range(n)]
    barrier = threading.Barrier(n)
    together = run_threads(lambda k: work(k, barrier), n)
    for k, ((b1, g1, r1), (b2, g2, r2)) in enumerate(zip(alone, together)):
        np.testing.assert_array_equal(b2, b1)
        np.testing.assert_array_equal(g2, g1)
        assert r1 == r2 == (k % 2 == 0)
        v = x0 + k
        np.testing.assert_allclose(b1, (k * np.cos(k * v) + np.sin(k * v)) * np.exp(v),
                                   rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(g1, (k + 1) / np.cosh(v) ** 2, rtol=1e-9, atol=1e-12)


def shared_leaf_accumulation(L: Any) -> list[float]:
    """Ten threads backpropagate into one shared leaf at once, ten times each (every other
    time with create_graph, where accumulation is out of place); returns w.grad per trial."""
    totals = []
    for _ in range(20):
        w = L.zeros(3, dtype=L.float64, requires_grad=True)
        barrier = threading.Barrier(10)

        def work(k: int, w: Any = w, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            for i in range(10):
                (w * float(k)).sum().backward(create_graph=i % 2 == 1)

        run_threads(work, 10)
        totals.append(w.grad.tolist()[0])
    return totals


def test_shared_leaf_accumulation_across_threads_torch() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_graph=True in backward warns about a cycle
        assert shared_leaf_accumulation(torch) == [10.0 * sum(range(10))] * 20


def test_shared_leaf_accumulation_across_threads() -> None:
    assert shared_leaf_accumulation(mt) == [10.0 * sum(range(10))] * 20


def test_next_functions_are_pairs_built_on_read() -> None:
    x = mt.ones(2, requires_grad=True)
    y = x.exp() * x + 1.0
    t = torch.ones(2, requires_grad=True)
    z = t.exp() * t + 1.0
    shape = [[type(n).__name__, nr] for n, nr in y.grad_fn.next_functions]
    assert shape == [[type(n).__name__, nr] for n, nr in z.grad_fn.next_functions]
    assert y.grad_fn.next_functions == y.grad_fn.next_functions
    node = mt.autograd.graph.Node()
    acc = x.grad_fn or x._grad_accumulator()
    node.next_functions = [[acc, 0], (None, 0)]  # any pairs, as students write them
    assert node.next_functions == ((acc, 0), (None, 0))
    node.next_functions = (e for e in [(acc, 0)])
    assert node.next_functions == ((acc, 0),)


@pytest.mark.parametrize("edges", [[mt.ones(1)], [(None, 0, 1)], [None]])
def test_next_functions_refuses_what_is_not_a_pair(edges: list) -> None:
    node = mt.autograd.graph.Node()
    with pytest.raises(TypeError, match=r"one \(node_or_None, output_nr\) pair per input, but "
                                        r"entry 0 is a "):
        node.next_functions = edges
    assert node.next_functions == ()


def test_a_chain_node_is_one_object_for_the_garbage_collector() -> None:
    """A long graph's cost to Python's cyclic collector is its tracked objects: a chain's
    node keeps its one input's node in a slot, not in a tuple of next_functions, nor one
    more tuple per edge (benchmarks/README.md)."""
    def tracked() -> int:
        gc.collect()
        return len(gc.get_objects())

    n = 2000
    x = mt.tensor(1.0, requires_grad=True)
    before = tracked()
    y = x
    for _ in range(n):
        y = y * 1.0
    per_node = (tracked() - before) / n
    assert 0.9 < per_node < 1.1, per_node
    assert y.grad_fn.next_functions[0][0].next_functions[1] == (None, 0)
    # nor an instance dict, which CPython untracks only in a full collection (a node user
    # code was handed, through grad_fn or next_functions, has one: see graph.exposed)
    for node in ((y * 1.0)._grad_fn, (x * x + x)._grad_fn, (x / 2 - x)._grad_fn):
        assert not [r for r in gc.get_referents(node) if isinstance(r, dict)], node
    y.backward()
    assert x.grad.item() == 1.0


def test_gradients_reaching_one_leaf_are_summed_as_arrays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``y = y * x + x``: 2n gradients arrive at x's AccumulateGrad; the engine sums their
    arrays into one buffer and makes a Tensor or two, not one per gradient."""
    n = 50
    x = mt.tensor(0.9, dtype=mt.float64, requires_grad=True)
    t = torch.tensor(0.9, dtype=torch.float64, requires_grad=True)
    y, z = x, t
    for _ in range(n):
        y, z = y * x + x, z * t + t
    made = []
    original = mt.Tensor._make
    monkeypatch.setattr(mt.Tensor, "_make",
                        classmethod(lambda cls, a: made.append(a) or original(a)))
    y.backward()
    z.backward()
    assert len(made) <= 3, len(made)  # the root's ones, a leaf buffer, and the first sum
    assert x.grad.item() == pytest.approx(t.grad.item(), rel=1e-12)
