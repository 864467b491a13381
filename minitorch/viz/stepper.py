"""Step through a real backward pass, one node at a time.

``BackwardStepper(output)`` runs minitorch's own engine once, watching it through
:func:`minitorch.autograd.engine.observe`, and keeps what it saw: which node ran at each
step, the gradients that reached it (and from whom), the gradients it sent on, what each leaf
accumulated, the engine's ready queue and its dependency counts. Nothing is recomputed here:
every number comes from the engine's run.

The run is ``output.backward(gradient, retain_graph=True)``, so your graph stays usable, and
the ``.grad`` of every leaf (and retained tensor) is put back as it was afterwards: the
stepper accumulates into copies. Hooks run once, as in that backward call.

In Jupyter the stepper shows as a widget: Step / Back / Reset buttons and a slider, the
graph with the running node highlighted, and a table of gradients. In plain Python,
``stepper.steps`` and ``stepper.state(i)`` give the same information.

>>> import minitorch
>>> x = minitorch.tensor(3., requires_grad=True)
>>> y = x * x + x
>>> s = BackwardStepper(y)
>>> [step.title for step in s.steps]
['AddBackward0 (→ y)', 'MulBackward0', 'AccumulateGrad (x)']
>>> s.steps[-1].leaf.after        # x.grad after the run: 2*3 + 1, summed before accumulating
tensor(7.)
>>> x.grad is None                # your .grad is untouched
True
"""

from __future__ import annotations

import html
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .._creation import ones_like
from .._tensor import Tensor
from ..autograd import engine
from ..autograd.graph import AccumulateGrad, Node
from ._names import tensor_names
from .dot import MISSING_DOT, Graph, Mark, browser_widget, build, emit, kind, root_node, value_text

__all__ = ["BackwardStepper", "Delivery", "LeafUpdate", "State", "Step"]

RUNNING = "#EEDD88"  # light yellow (Tol's light scheme), plus a thick border and a text mark
SENT = "#0077BB"  # edges carrying this step's gradients: blue, thick, labelled


@dataclass(frozen=True)
class Delivery:
    """A gradient that arrived at a node: sent at ``step`` (0: the backward call itself) by
    ``source``, for the node's output ``output_nr``."""

    step: int
    source: str
    output_nr: int
    grad: Tensor


@dataclass(frozen=True)
class LeafUpdate:
    """What ``AccumulateGrad`` did to a leaf's ``.grad`` (``before`` None: it was unset)."""

    tensor: Tensor
    name: str
    before: Tensor | None
    after: Tensor | None


@dataclass(frozen=True)
class Step:
    """One node run by the engine.

    ``deliveries`` are the gradients other nodes sent it, ``grad_outputs`` what it ran on
    (their sum per output, after any hooks on those tensors), ``grad_inputs`` what it sent,
    one per ``node.next_functions`` entry. ``ready`` is the engine's queue while it runs (next
    first) and ``dependencies`` how many gradients each waiting node still expected.
    """

    position: int
    node: Node
    title: str
    deliveries: tuple[Delivery, ...]
    grad_outputs: tuple[Tensor | None, ...]
    grad_inputs: tuple[Tensor | None, ...]
    ready: tuple[Node, ...]
    dependencies: dict[Node, int]
    leaf: LeafUpdate | None


@dataclass(frozen=True)
class State:
    """The engine after ``position`` steps (0: before the first node runs).

    ``ready`` is its queue (next first), ``dependencies`` the gradients each node that has
    not run still waits for, ``waiting`` the gradients already delivered to those nodes, and
    ``leaf_grads`` each leaf's ``.grad`` so far.
    """

    position: int
    step: Step | None
    ran: tuple[Node, ...]
    ready: tuple[Node, ...]
    dependencies: dict[Node, int]
    waiting: dict[Node, tuple[Delivery, ...]]
    leaf_grads: dict[Tensor, Tensor | None]


class BackwardStepper:
    """Walk through the engine's execution of ``output.backward(gradient)``, step by step.

    ``params`` and ``name_from_caller`` name the tensors as in :func:`minitorch.viz.draw`
    (here the caller's variable names are used by default); ``show_saved`` draws saved
    tensors too, and ``max_nodes`` caps the drawing (every step is still recorded).

    >>> a = minitorch.tensor([2.], requires_grad=True)
    >>> stepper = BackwardStepper((a * 3).sum())
    >>> stepper.step(); stepper.state().step.title
    'SumBackward0'
    >>> stepper  # doctest: +SKIP
    (in Jupyter: the graph, the buttons and the slider)
    """

    def __init__(self, output: Tensor, gradient: Tensor | None = None, *, params: Any = None,
                 name_from_caller: bool = True, show_saved: bool = False,
                 max_nodes: int = 200) -> None:
        frame = sys._getframe(1) if name_from_caller else None
        names = tensor_names(params, frame)
        self.model = build([output], names, show_saved=show_saved, show_grad=False,
                           max_nodes=max_nodes)
        recorder = _Recorder(self.model.titles, {k: n for k, (_, n) in names.items()})
        root = root_node(output)
        if root is not None:
            initial = ones_like(output) if gradient is None else gradient
            recorder.deliver(root, output._output_nr, initial, "backward()", 0)
        with _grads_set_aside(root), engine.observe(recorder):
            output.backward(gradient, retain_graph=True)
        self.steps: list[Step] = recorder.steps
        self._start = recorder.start_dependencies
        self._deliveries = recorder.all_deliveries
        self._leaves = recorder.initial_grads
        self.position = 0
        self._svg: dict[int, str] = {}
        self._widget: Any = None

    def __len__(self) -> int:
        return len(self.steps)

    # ---- walking ----------------------------------------------------------------------
    def go(self, position: int) -> None:
        """Show the state after ``position`` steps (clamped to ``0 .. len(steps)``)."""
        self.position = max(0, min(position, len(self.steps)))
        if self._widget is not None:
            self._refresh()

    def step(self) -> None:
        """Run (show) the next node."""
        self.go(self.position + 1)

    def back(self) -> None:
        """Go back one step."""
        self.go(self.position - 1)

    def reset(self) -> None:
        """Back to the start, before any node ran."""
        self.go(0)

    def state(self, position: int | None = None) -> State:
        """The engine's state after ``position`` steps (default: the current position)."""
        k = self.position if position is None else position
        if not 0 <= k <= len(self.steps):
            raise IndexError(f"position {k} is outside 0..{len(self.steps)}")
        ran = tuple(s.node for s in self.steps[:k])
        if k < len(self.steps):
            nxt = self.steps[k]
            ready, deps = (nxt.node, *nxt.ready), dict(nxt.dependencies)
        else:
            ready, deps = (), {n: 0 for n in self._start}
        done = set(map(id, ran))
        waiting = {}
        for node, arrived in self._deliveries:
            if id(node) not in done:
                got = tuple(d for d in arrived if d.step <= k)
                if got:
                    waiting[node] = got
        grads = dict(self._leaves)
        for s in self.steps[:k]:
            if s.leaf is not None:
                grads[s.leaf.tensor] = s.leaf.after
        return State(k, self.steps[k - 1] if k else None, ran, ready, deps, waiting, grads)

    # ---- pictures -----------------------------------------------------------------------
    def graph(self, position: int | None = None) -> Graph:
        """The drawn graph with the state at ``position`` marked (a ``viz.Graph``)."""
        state = self.state(position)
        return emit(self.model, *self._marks(state))

    def _marks(self, state: State) -> tuple[dict[str, Mark], dict]:
        ids = self.model.ids
        marks: dict[str, Mark] = {}

        def mark(node: Node, line: str, **attrs: str) -> None:
            if id(node) in ids:
                marks[ids[id(node)]] = Mark(attrs, [line])

        for j, node in enumerate(state.ran, 1):
            mark(node, f"✓ ran at step {j}", style="filled,dashed")
        for i, node in enumerate(state.ready, 1):
            mark(node, f"ready #{i}", penwidth="2")
        for node, count in state.dependencies.items():
            if count:
                mark(node, f"waits for {count} more")
        edges: dict[tuple[int, int], dict[str, str]] = {}
        step = state.step
        if step is not None:
            mark(step.node, f"▶ step {step.position}: running", fillcolor=RUNNING, penwidth="3")
            for i, g in enumerate(step.grad_inputs):
                edges[(id(step.node), i)] = {
                    "xlabel": _val(g), "color": SENT, "fontcolor": SENT, "penwidth": "2.5",
                    "dir": "back"}
        for s in self.steps:  # every leaf shows its .grad, so the layout barely moves
            if s.leaf is not None and id(s.node) in ids:
                g = state.leaf_grads[s.leaf.tensor]
                marks.setdefault(ids[id(s.node)], Mark()).below.append(f"grad = {_val(g)}")
        return marks, edges

    def svg(self, position: int | None = None) -> str | None:
        """The marked graph as SVG, or None when Graphviz's ``dot`` is not installed."""
        k = self.position if position is None else position
        if k not in self._svg:
            svg = self.graph(k)._repr_svg_()
            if svg is None:
                return None
            self._svg[k] = svg[svg.find("<svg"):]
        return self._svg[k]

    # ---- text ---------------------------------------------------------------------------
    def sections(self, position: int | None = None) -> list[tuple[str, list[str]]]:
        """What the stepper's panel shows, as (heading, lines) pairs."""
        state = self.state(position)
        title = self._title
        out: list[tuple[str, list[str]]] = []
        step = state.step
        if step is None:
            out.append((f"Start ({len(self.steps)} steps)",
                        ["The engine has counted each node's dependencies; the nodes that "
                         "wait for nothing are ready."]))
        else:
            out.append((f"Step {step.position} of {len(self.steps)}: {step.title}", []))
            several = step.node._n_outputs > 1
            out.append(("receives", [
                f"from {d.source}{f' (output {d.output_nr})' if several else ''}: "
                f"{value_text(d.grad)}" for d in step.deliveries]
                + [f"grad_outputs = ({', '.join(_val(g) for g in step.grad_outputs)})"
                   + _after_hooks(step.node._tensor_pre_hooks)]))
            out.append(("sends", [f"to {title(child)}: {_val(g)}" for (child, _), g
                                  in zip(step.node.next_functions, step.grad_inputs)
                                  if child is not None] or ["(nothing: a path ends here)"]))
            if step.leaf is not None:
                leaf = step.leaf
                out.append(("accumulates", [f"{leaf.name or 'leaf'}.grad: {_val(leaf.before)}"
                                            f" → {_val(leaf.after)}"
                                            + _after_hooks(leaf.tensor._hooks)]))
        out.append(("ready queue (next first)", [title(n) for n in state.ready] or ["(empty)"]))
        out.append(("dependencies still awaited",
                    [f"{title(n)}: {c}" for n, c in state.dependencies.items() if c]
                    or ["(none)"]))
        out.append(("delivered, waiting to run",
                    [f"{title(n)} ← {' + '.join(value_text(d.grad) for d in ds)}"
                     for n, ds in state.waiting.items()] or ["(none)"]))
        return out

    def describe(self, position: int | None = None) -> str:
        """The panel as plain text."""
        parts = []
        for heading, lines in self.sections(position):
            parts.append(heading)
            parts += [f"  {line}" for line in lines]
        return "\n".join(parts)

    def _title(self, node: Node) -> str:
        return self.model.titles.get(id(node), kind(node))

    # ---- widget -------------------------------------------------------------------------
    @property
    def widget(self) -> Any:
        """The ipywidgets UI (built on first use)."""
        if self._widget is None:
            self._widget = _Controls(self)
            self._refresh()
        return self._widget.box

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def _refresh(self) -> None:
        w = self._widget
        w.slider.value = self.position
        w.back.disabled = self.position == 0
        w.reset.disabled = self.position == 0
        w.next.disabled = self.position == len(self.steps)
        w.panel.value = _html(self.sections())
        if w.in_browser:
            w.picture.dot_source = self.graph().source
            return
        svg = self.svg()
        if svg is None:
            svg = (f"<pre style='white-space: pre-wrap'>{html.escape(MISSING_DOT)}</pre>"
                   f"<pre>{html.escape(self.graph().source)}</pre>")
        else:  # scaled down to its column, so that it never reaches under the panel
            svg = svg.replace("<svg ", f"<svg style='{FIT}' ", 1)
        w.picture.value = f"<div class='minitorch-stepper-graph'>{svg}</div>"


FIT = "max-width: 100%; height: auto"


class _Controls:
    """The widgets: buttons and slider on top, the picture and the panel side by side.

    The picture takes the room the panel (at most 420 px) leaves, and may shrink to nothing
    (``min_width`` 0): a wide graph scales down or scrolls inside it, never under the panel.
    Without ``dot``, graphviz-anywidget draws the picture in the browser.
    """

    def __init__(self, stepper: BackwardStepper) -> None:
        import ipywidgets as W

        self.back = W.Button(description="Back", icon="step-backward", tooltip="previous step")
        self.next = W.Button(description="Step", icon="step-forward", button_style="primary",
                             tooltip="run the next node")
        self.reset = W.Button(description="Reset", icon="undo", tooltip="back to the start")
        self.slider = W.IntSlider(value=0, min=0, max=len(stepper.steps), description="step")
        picture = None if stepper.svg() is not None else browser_widget(stepper.graph().source)
        self.in_browser = picture is not None
        self.picture = picture if self.in_browser else W.HTML()
        self.picture.layout = W.Layout(overflow="auto", flex="1 1 0%", min_width="0")
        self.picture.add_class("minitorch-stepper-picture")
        self.panel = W.HTML(layout=W.Layout(flex="0 0 auto", width="34%", min_width="260px",
                                            max_width="420px", overflow="auto"))
        self.back.on_click(lambda _: stepper.back())
        self.next.on_click(lambda _: stepper.step())
        self.reset.on_click(lambda _: stepper.reset())
        self.slider.observe(lambda change: stepper.go(change["new"]), names="value")
        self.box = W.VBox([W.HBox([self.back, self.next, self.reset, self.slider]),
                           W.HBox([self.picture, self.panel])])
        self.box.add_class("minitorch-stepper")


def _html(sections: list[tuple[str, list[str]]]) -> str:
    rows = []
    for heading, lines in sections:
        rows.append(f"<div><b>{html.escape(heading)}</b></div>")
        rows += [f"<div style='margin-left: 1em; font-family: monospace'>{html.escape(x)}</div>"
                 for x in lines]
    return f"<div class='minitorch-stepper-panel'>{''.join(rows)}</div>"


def _after_hooks(hooks: dict | None) -> str:
    n = len(hooks or ())
    return f" (after {n} tensor hook{'s' if n > 1 else ''})" if n else ""


def _val(t: Tensor | None) -> str:
    return "None" if t is None else value_text(t)


def _copy(t: Tensor | None) -> Tensor | None:
    return None if t is None else t.detach().clone()


class _Recorder:
    """The observer: turns the engine's events into ``Step`` records."""

    def __init__(self, titles: dict[int, str], names: dict[int, str]) -> None:
        self.titles = titles
        self.names = names
        self.steps: list[Step] = []
        self.start_dependencies: dict[Node, int] = {}
        self.initial_grads: dict[Tensor, Tensor | None] = {}
        self.all_deliveries: list[tuple[Node, list[Delivery]]] = []
        self._by_node: dict[int, list[Delivery]] = {}
        self._nodes: set[int] | None = None
        self._running: dict[int, dict[str, Any]] = {}

    def title(self, node: Node) -> str:
        return self.titles.get(id(node), kind(node))

    def deliver(self, node: Node, nr: int, grad: Tensor, source: str, step: int) -> None:
        arrived = self._by_node.get(id(node))
        if arrived is None:
            arrived = self._by_node[id(node)] = []
            self.all_deliveries.append((node, arrived))
        arrived.append(Delivery(step, source, nr, _copy(grad)))

    def __call__(self, event: str, **info: Any) -> None:
        if event == "start":
            if self._nodes is None:
                self.start_dependencies = dict(info["dependencies"])
                self._nodes = {id(n) for n in (*info["dependencies"], *info["ready"])}
            return
        node = info["node"]
        if self._nodes is None or id(node) not in self._nodes:
            return  # a backward run by a hook, inside this one
        if event == "run":
            self._run(node, info)
        elif event == "done":
            self._done(node, info["grad_inputs"])

    def _run(self, node: Node, info: dict[str, Any]) -> None:
        before = None
        if isinstance(node, AccumulateGrad):
            before = _copy(node.variable._grad)
            self.initial_grads[node.variable] = before
        ready = sorted(info["ready"], key=lambda n: -n._seq)  # the engine's pop order
        self._running[id(node)] = {
            "grad_outputs": tuple(map(_copy, info["grad_outputs"])), "ready": tuple(ready),
            "dependencies": dict(info["dependencies"]), "before": before}

    def _done(self, node: Node, grad_inputs: tuple) -> None:
        run = self._running.pop(id(node))
        position = len(self.steps) + 1
        leaf = None
        if isinstance(node, AccumulateGrad):
            t = node.variable
            leaf = LeafUpdate(t, self.names.get(id(t), ""), run["before"], _copy(t._grad))
        self.steps.append(Step(
            position, node, self.title(node), tuple(self._by_node.get(id(node), ())),
            run["grad_outputs"], tuple(map(_copy, grad_inputs)), run["ready"],
            run["dependencies"], leaf))
        for (child, nr), g in zip(node.next_functions, grad_inputs):
            if child is not None and g is not None:
                self.deliver(child, nr, g, self.title(node), position)


@contextmanager
def _grads_set_aside(root: Node | None) -> Iterator[None]:
    """Give every leaf and retained tensor of the graph a copy of its ``.grad`` for the run,
    and put the originals back afterwards."""
    tensors: list[Tensor] = []
    for node in engine.discover([root])[1] if root is not None else ():
        if isinstance(node, AccumulateGrad):
            tensors.append(node.variable)
        for ref in (node._retain_grad_hooks or {}).values():
            if ref() is not None:
                tensors.append(ref())
    saved = [t._grad for t in tensors]
    for t in tensors:
        t._grad = _copy(t._grad)
    try:
        yield
    finally:
        for t, g in zip(tensors, saved):
            t._grad = g
