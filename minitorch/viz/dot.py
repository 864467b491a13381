"""Draw the backward graph with Graphviz, in torchviz's colours, readable by everyone.

``draw`` walks the graph from the given tensors' ``grad_fn`` along ``next_functions`` and
returns a :class:`Graph` (a ``graphviz.Digraph``) that Jupyter shows as SVG. Arrows point the
way the forward pass went: from an input's node to the node that consumed it.
The walk itself is :func:`walk`, a seam of the course: inside ``with use(trace):`` the
drawings follow a student's own ``trace`` instead.

Every kind of node has its own shape as well as its own colour, so the picture reads the
same in grey scale, for colour-blind readers, and on JupyterLab's dark theme (the drawing
keeps its white background):

===============  ==============================  ===========================
kind             shape                           fill
===============  ==============================  ===========================
op (grad_fn)     box, class name                 pale grey ``#DDDDDD``
leaf             ellipse, name / shape / value   light blue ``#99DDFF``
saved tensor     note (folded corner)            orange ``#EE8866``
output           box with a double border        mint green ``#44BB99``
===============  ==============================  ===========================

(Paul Tol's colour-blind-safe "light" scheme, meant for black text.)

>>> import minitorch
>>> from minitorch.viz import draw
>>> A = minitorch.tensor(2., requires_grad=True)
>>> g = draw((A * 3).exp(), params={"A": A})
>>> "ExpBackward0" in g.source and "MulBackward0" in g.source
True
"""

from __future__ import annotations

import functools
import html
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import graphviz

from .. import course
from .._tensor import Tensor
from ..autograd.graph import AccumulateGrad, Node
from ._names import tensor_names

__all__ = ["Graph", "Source", "draw", "show", "use", "walk"]

GraphEdge = tuple[Node, int]  # (node, i): the edge to node.next_functions[i]
SMALL = 6  # tensors with at most this many elements show their values

COLORS = {"op": "#DDDDDD", "leaf": "#99DDFF", "saved": "#EE8866", "output": "#44BB99",
          "more": "#FFFFFF"}
_STYLE = {
    "op": {"shape": "box"},
    "leaf": {"shape": "ellipse"},
    "saved": {"shape": "note"},
    "output": {"shape": "box", "peripheries": "2"},
    "more": {"shape": "box", "style": "filled,dashed"},
}
_GRAPH_ATTR = {"bgcolor": "white", "ranksep": "0.3", "nodesep": "0.25"}
# dot's default layout of a large graph whose leaves feed many nodes can take minutes; capping
# its network-simplex and crossing-minimisation passes keeps it to seconds
LARGE = 60
_FAST_LAYOUT = {"nslimit": "2", "nslimit1": "2", "mclimit": "0.5"}
_NODE_ATTR = {"style": "filled", "fontname": "monospace", "fontsize": "10",
              "fontcolor": "black", "color": "black", "height": "0.2", "margin": "0.08,0.04"}
_EDGE_ATTR = {"color": "black", "fontname": "monospace", "fontsize": "9", "fontcolor": "black"}

MISSING_DOT = (
    "Graphviz's `dot` program was not found on the PATH, so this graph cannot be drawn as "
    "SVG (the Python package `graphviz` only writes the DOT text; `dot` draws it).\n"
    "Either let JupyterLab draw it with Graphviz compiled to WebAssembly:\n"
    "    pip install graphviz-anywidget\n"
    "or install Graphviz; then restart the kernel and re-run the cell:\n"
    "    Debian/Ubuntu:  sudo apt-get install graphviz\n"
    "    conda:          conda install -c conda-forge graphviz\n"
    "    macOS:          brew install graphviz\n"
    "    others:         https://graphviz.org/download/\n"
    "Meanwhile, here is the graph's DOT source (paste it into any Graphviz viewer):"
)
IN_BROWSER = ("(Graphviz's `dot` is not installed: JupyterLab draws this graph with Graphviz "
              "compiled to WebAssembly, graphviz-anywidget. Its DOT source:)")


class _Drawn:
    """Shows as SVG in Jupyter when Graphviz's ``dot`` is installed; without it, as a
    graphviz-anywidget that draws in the browser, or else as install hints and the source."""

    source: str

    def _repr_svg_(self) -> str | None:
        try:
            return self.pipe(format="svg", encoding="utf-8")  # type: ignore[attr-defined]
        except graphviz.ExecutableNotFound:
            return None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None,
                          **kwargs: Any) -> dict[str, Any]:
        try:
            return super()._repr_mimebundle_(include, exclude, **kwargs)  # type: ignore[misc]
        except graphviz.ExecutableNotFound:
            return browser_bundle(self.source) or missing_dot_bundle(self.source)


class Graph(_Drawn, graphviz.Digraph):
    """A ``graphviz.Digraph`` that shows as SVG in Jupyter; without Graphviz's ``dot``
    program it is drawn in the browser (graphviz-anywidget) or, lacking that too, shown as a
    message saying how to install one, followed by the DOT source.

    >>> g = Graph()
    >>> g.node("a", "hello")
    >>> 'a [label=hello]' in g.source
    True
    """

    _ids: dict[int, str] = {}  # id(graph node or output tensor) -> DOT id, set by emit()

    def node_id(self, obj: Node | Tensor) -> str:
        """The DOT id of the node drawn for ``obj`` (a graph node, or an output tensor)."""
        return self._ids[id(obj)]


class Source(_Drawn, graphviz.Source):
    """DOT text (yours, say) that Jupyter draws like a :class:`Graph`, with or without ``dot``.

    >>> "a -> b" in Source("digraph { a -> b }").source
    True
    """


def browser_widget(source: str) -> Any:
    """A widget that draws ``source`` in JupyterLab with Graphviz compiled to WebAssembly, or
    None when graphviz-anywidget is not installed."""
    widget_class = _browser_widget_class()
    return None if widget_class is None else widget_class(dot_source=source, enable_zoom=False)


@functools.cache
def _browser_widget_class() -> Any:
    try:
        from graphviz_anywidget import GraphvizAnyWidget
    except ImportError:
        return None

    class Drawing(GraphvizAnyWidget):
        """graphviz-anywidget's widget; in the stepper, its drawing scales to its column."""

        _css = GraphvizAnyWidget._css + (".minitorch-stepper-picture svg "
                                         "{ max-width: 100%; height: auto; }")

    return Drawing


def browser_bundle(source: str) -> dict[str, Any] | None:
    """The widget's display data (what Jupyter shows without ``dot``), or None."""
    widget = browser_widget(source)
    if widget is None:
        return None
    data = widget._repr_mimebundle_()
    data = dict(data[0] if isinstance(data, tuple) else data)
    data["text/plain"] = f"{IN_BROWSER}\n\n{source}"
    return data


def missing_dot_bundle(source: str) -> dict[str, str]:
    """What Jupyter shows instead of the SVG when ``dot`` and graphviz-anywidget are missing."""
    text = f"{MISSING_DOT}\n\n{source}"
    page = (f"<div><pre style='white-space: pre-wrap'>{html.escape(MISSING_DOT)}</pre>"
            f"<pre>{html.escape(source)}</pre></div>")
    return {"text/plain": text, "text/html": page}


def draw(
    *roots: Tensor,
    params: Any = None,
    show_saved: bool = False,
    show_grad: bool = True,
    show_version: bool = False,
    max_nodes: int = 200,
    name_from_caller: bool = False,
) -> Graph:
    """The backward graph that ends at ``roots``, as a Graphviz digraph (SVG in Jupyter).

    ``params`` names leaves: a dict of name to tensor, or a Module (its ``named_parameters``).
    With ``name_from_caller=True`` the caller's variables name the tensors they hold (leaves,
    outputs, and the results of ops). ``show_saved`` adds the tensors each node saved for
    backward, ``show_version`` their version counters, ``show_grad`` the leaves' ``.grad``.
    Past ``max_nodes`` nodes the rest of the graph is folded into one "... more" node.
    Only the DOT text is built here; Graphviz's ``dot`` runs when the graph is displayed.

    >>> x = minitorch.tensor([3.], requires_grad=True)
    >>> y = x ** 2
    >>> g = draw(y, name_from_caller=True)
    >>> "→ y" in g.source and g.node_id(y.grad_fn)
    'n0'
    """
    frame = sys._getframe(1) if name_from_caller else None
    model = build(roots, tensor_names(params, frame), show_saved=show_saved,
                  show_grad=show_grad, show_version=show_version, max_nodes=max_nodes)
    return emit(model)


def show(*roots: Tensor, name_from_caller: bool = True, **options: Any) -> None:
    """Display the graph of ``roots`` in Jupyter (``draw``'s options; names come from the
    caller's variables unless ``name_from_caller=False``).

    >>> show(minitorch.ones(1, requires_grad=True) * 2)  # doctest: +ELLIPSIS
    viz.show draws in Jupyter only; here, print(viz.draw(y).source) gives the DOT text, ...
    """
    if not _in_jupyter():
        print(OUTSIDE_JUPYTER)
        return
    from IPython.display import display

    frame = sys._getframe(1) if name_from_caller else None
    params = options.pop("params", None)
    display(emit(build(roots, tensor_names(params, frame), **options)))


OUTSIDE_JUPYTER = ("viz.show draws in Jupyter only; here, print(viz.draw(y).source) gives the "
                   "DOT text, and viz.draw(y).render('graph', format='svg') an SVG file.")


def _in_jupyter() -> bool:
    """Whether code runs in an IPython kernel or shell, where ``display`` can draw."""
    ipython = sys.modules.get("IPython")
    return ipython is not None and ipython.get_ipython() is not None


# ---- the model: what to draw, independent of styling -------------------------------------

@dataclass
class Item:
    """One drawn node: its DOT id, kind (a key of ``COLORS``), label lines and tooltip."""

    id: str
    kind: str
    lines: list[str]
    tooltip: str


@dataclass
class Edge:
    """One drawn edge; ``key`` is ``(id(node), i)`` for ``node.next_functions[i]``."""

    tail: str
    head: str
    label: str = ""
    key: tuple[int, int] | None = None
    attrs: dict[str, str] = field(default_factory=dict)


@dataclass
class Mark:
    """Extra styling for one drawn node: attributes, and lines above and below its label."""

    attrs: dict[str, str] = field(default_factory=dict)
    above: list[str] = field(default_factory=list)
    below: list[str] = field(default_factory=list)


@dataclass
class Model:
    """The nodes and edges to draw, and the DOT id of each graph node and output tensor."""

    items: list[Item] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    ids: dict[int, str] = field(default_factory=dict)
    hidden: int = 0
    titles: dict[int, str] = field(default_factory=dict)  # id(node) -> short name for text

    def add(self, kind: str, lines: list[str], tooltip: str, obj: Any = None) -> str:
        item_id = f"n{len(self.items)}"
        self.items.append(Item(item_id, kind, lines, tooltip))
        if obj is not None:
            self.ids[id(obj)] = item_id
        return item_id


def build(
    roots: Sequence[Tensor],
    names: dict[int, tuple[Tensor, str]],
    *,
    show_saved: bool = False,
    show_grad: bool = True,
    show_version: bool = False,
    max_nodes: int = 200,
) -> Model:
    """Describe every node and edge to draw of the graph that ends at ``roots``."""
    for r in roots:
        if not isinstance(r, Tensor):
            raise TypeError(f"draw() expects tensors, but got {type(r).__name__}")
    nodes, edges = walk(roots)  # looked up at call time: the course's seam
    kept = nodes[:max_nodes]
    model = Model(hidden=len(nodes) - len(kept))
    labeller = _Labeller(names, show_grad, show_version)
    for node in kept:
        kind = "leaf" if isinstance(node, AccumulateGrad) else "op"
        lines, tip = labeller.node(node)
        model.add(kind, lines, tip, node)
        model.titles[id(node)] = labeller.title(node)
    _add_edges(model, edges, max_nodes)
    if show_saved:
        for node in kept:
            _add_saved(model, node, labeller)
    for r in roots:
        _add_output(model, r, labeller)
    return model


def kind(node: Node) -> str:
    """A node's label in drawings: its class name, as torchviz draws it (``name()`` of a
    node torch writes in C++ carries a namespace: ``torch::autograd::AccumulateGrad``).

    >>> kind((minitorch.ones(1, requires_grad=True) * 2).grad_fn.next_functions[0][0])
    'AccumulateGrad'
    """
    return type(node).__name__


def root_node(t: Tensor) -> Node | None:
    """The node where backward from ``t`` starts (None if ``t`` does not require grad)."""
    if t.grad_fn is not None:
        return t.grad_fn
    return t._grad_accumulator() if t.requires_grad else None


@course.seam
def walk(roots: Sequence[Tensor]) -> tuple[list[Node], list[GraphEdge]]:
    """Every node of the graph that ends at ``roots``, each once, breadth-first from the
    outputs, and every edge as ``(node, i)`` for a non-None ``node.next_functions[i]``.

    >>> x = minitorch.tensor(3., requires_grad=True)
    >>> nodes, edges = walk([x * x])
    >>> [type(n).__name__ for n in nodes], [i for _, i in edges]
    (['MulBackward0', 'AccumulateGrad'], [0, 1])
    """
    starts = [n for n in (root_node(r) for r in roots) if n is not None]
    seen = {id(n) for n in starts}
    nodes = list(dict.fromkeys(starts))
    edges: list[GraphEdge] = []
    for node in nodes:  # the list grows while we read it: a queue without pops
        for i, (child, _) in enumerate(node.next_functions):
            if child is None:
                continue
            edges.append((node, i))
            if id(child) not in seen:
                seen.add(id(child))
                nodes.append(child)
    return nodes, edges


def _add_edges(model: Model, edges: list[GraphEdge], max_nodes: int) -> None:
    more = None
    cut: set[int] = set()
    for node, i in edges:
        head = model.ids.get(id(node))
        if head is None:  # the node itself is folded into "... more"
            continue
        child, nr = node.next_functions[i]
        tail = model.ids.get(id(child))
        if tail is not None:
            label = f"output {nr}" if child._n_outputs > 1 else ""
            model.edges.append(Edge(tail, head, label, key=(id(node), i)))
        elif id(node) not in cut:  # one dashed edge from "... more" per node that lost inputs
            cut.add(id(node))
            if more is None:
                more = model.add("more", [f"… {model.hidden} more nodes",
                                          f"(max_nodes={max_nodes})"],
                                 "the rest of the graph is not drawn")
            model.edges.append(Edge(more, head, attrs={"style": "dashed"}))


def _add_saved(model: Model, node: Node, labeller: _Labeller) -> None:
    saved = getattr(node, "_saved", ())
    names = getattr(type(node), "_saved_names", ())
    head = model.ids[id(node)]
    for i, s in enumerate(saved):
        if s is None:
            continue
        name = names[i] if i < len(names) else f"saved_tensors[{i}]"
        lines = labeller.saved(name, s)
        sid = model.add("saved", lines, f"{name}: saved by {kind(node)} for backward")
        model.edges.append(Edge(sid, head, attrs={"style": "dashed", "dir": "none"}))


def _add_output(model: Model, t: Tensor, labeller: _Labeller) -> None:
    lines, tip = labeller.output(t)
    out_id = model.add("output", lines, tip)
    model.ids.setdefault(id(t), out_id)
    node = root_node(t)
    if node is not None:
        label = f"output {t._output_nr}" if node._n_outputs > 1 else ""
        model.edges.append(Edge(model.ids[id(node)], out_id, label))


# ---- the course's seam: draw with your own graph walk --------------------------------------

Trace = Callable[[Tensor], tuple[Sequence[Node], Sequence[tuple[Node, Node]]]]


@contextmanager
def use(trace: Trace) -> Iterator[Trace]:
    """Draw with your own graph walk: inside the block, ``draw``, ``show`` and the stepper
    find the graph with ``trace(output) -> (nodes, edges)``: every node reachable from
    ``output.grad_fn``, each once, and one ``(node, next_node)`` pair per non-None entry of
    ``node.next_functions``. The reference walk is back on when the block ends.

    >>> def trace(t):       # a walk that finds only the first node
    ...     return [t.grad_fn], []
    >>> x = minitorch.tensor(3., requires_grad=True)
    >>> with use(trace):
    ...     g = draw(x * x)
    >>> "MulBackward0" in g.source, "AccumulateGrad" in g.source
    (True, False)
    """

    def walk_with_trace(roots: Sequence[Tensor]) -> tuple[list[Node], list[GraphEdge]]:
        if len(roots) != 1:
            raise ValueError(f"inside viz.use(trace), draw one tensor at a time (got "
                             f"{len(roots)}): your trace follows a single output")
        (root,) = roots
        if root.grad_fn is None:  # a leaf or a constant: nothing to trace
            start = root_node(root)
            return ([start] if start is not None else []), []
        nodes, pairs = trace(root)
        return _checked_nodes(nodes), _edge_indices(pairs)

    with course.plug(sys.modules[__name__], "walk", walk_with_trace):
        yield trace


def _checked_nodes(nodes: Sequence[Any]) -> list[Node]:
    for node in nodes:
        if not isinstance(node, Node):
            raise TypeError("trace must return graph nodes (a grad_fn or an AccumulateGrad), "
                            f"but its nodes hold a {type(node).__name__}")
    return list(nodes)


def _edge_indices(pairs: Sequence[tuple[Node, Node]]) -> list[GraphEdge]:
    """``(node, next_node)`` pairs as ``(node, i)`` edges; a repeated pair (``x * x``) takes
    the next matching entry of ``node.next_functions``."""
    used: set[tuple[int, int]] = set()
    edges = []
    for node, child in pairs:
        _checked_nodes([node, child])
        free = [i for i, (n, _) in enumerate(node.next_functions)
                if n is child and (id(node), i) not in used]
        if not free:
            raise ValueError(f"trace gave the edge {kind(node)} -> {kind(child)}, which is "
                             f"not (or not that often) in {kind(node)}.next_functions")
        used.add((id(node), free[0]))
        edges.append((node, free[0]))
    return edges


# ---- labels --------------------------------------------------------------------------------

class _Labeller:
    """Label lines for each kind of node, with the names and options of one drawing."""

    def __init__(self, names: dict[int, tuple[Tensor, str]], show_grad: bool,
                 show_version: bool) -> None:
        self.names = {k: name for k, (_, name) in names.items()}
        self.produced: dict[tuple[int, int], list[str]] = {}
        for t, name in names.values():
            if t.grad_fn is not None:
                self.produced.setdefault((id(t.grad_fn), t._output_nr), []).append(name)
        self.show_grad = show_grad
        self.show_version = show_version

    def title(self, node: Node) -> str:
        """A short name for text: the leaf's name, or the op and what it produced."""
        if isinstance(node, AccumulateGrad):
            name = self.names.get(id(node.variable))
            return f"AccumulateGrad ({name})" if name else "AccumulateGrad"
        made = self._made(node)
        return f"{kind(node)} (→ {made})" if made else kind(node)

    def _made(self, node: Node) -> str:
        parts = []
        for nr in range(node._n_outputs):
            for name in self.produced.get((id(node), nr), ()):
                parts.append(f"{name}[{nr}]" if node._n_outputs > 1 else name)
        return ", ".join(parts)

    def node(self, node: Node) -> tuple[list[str], str]:
        if isinstance(node, AccumulateGrad):
            return self._leaf(node)
        lines = [kind(node)]
        made = self._made(node)
        if made:
            lines.append(f"→ {made}")
        for nr, ref in sorted((node._retain_grad_hooks or {}).items()):
            lines.append(self._retained(node, nr, ref()))
        lines += _hook_lines(node, tensor=len(node._tensor_pre_hooks or ()))
        return lines, kind(node)

    def _retained(self, node: Node, nr: int, t: Tensor | None) -> str:
        which = f" [output {nr}]" if node._n_outputs > 1 else ""
        if self.show_grad and t is not None and t._grad is not None:
            return f"retain_grad{which}: grad = {value_text(t._grad)}"
        return f"retain_grad{which}"

    def _leaf(self, node: AccumulateGrad) -> tuple[list[str], str]:
        t = node.variable
        name = self.names.get(id(t))
        lines = [name] if name else []
        lines += self._tensor_lines(t)
        if self.show_grad and t._grad is not None:
            lines.append(f"grad = {value_text(t._grad)}")
        lines += _hook_lines(node, tensor=len(t._hooks or ()),
                             post=len(t._post_acc_hooks or ()))
        return lines, f"AccumulateGrad: leaf {name or ''} {_shape(t)}".replace("  ", " ")

    def _tensor_lines(self, t: Tensor) -> list[str]:
        lines = [_shape(t)]
        if t.numel() <= SMALL:
            lines.append(f"= {value_text(t)}")
        if self.show_version:
            lines.append(f"version {t._version_counter.value}")
        return lines

    def saved(self, name: str, s: Any) -> list[str]:
        t = s._tensor
        if not isinstance(t, Tensor):
            state = "packed by saved_tensors_hooks" if s._unpack_hook else "freed by backward"
            return [name, state]
        known = self.names.get(id(t))
        lines = [f"{name}: {known}" if known else name, _shape(t)]
        if t.numel() <= SMALL:
            lines.append(f"= {value_text(t)}")
        if self.show_version:
            now = t._version_counter.value
            lines.append(f"saved at version {s._version}")
            if now != s._version:
                lines.append(f"now version {now}: modified in place!")
        return lines

    def output(self, t: Tensor) -> tuple[list[str], str]:
        name = self.names.get(id(t))
        lines = [name or "output", *self._tensor_lines(t)]
        if self.show_grad and t.retains_grad and t._grad is not None:
            lines.append(f"grad = {value_text(t._grad)}")
        if t.grad_fn is None and not t.requires_grad:
            lines.append("(no grad_fn: nothing to draw)")
        return lines, f"output {name or ''} {_shape(t)}".replace("  ", " ")


def _hook_lines(node: Node, tensor: int = 0, post: int = 0) -> list[str]:
    """Say which hooks are registered (text, so it does not depend on colour)."""
    counts = [(tensor, "tensor hook"), (len(node._pre_hooks or ()), "node pre-hook"),
              (len(node._hooks or ()), "node hook"), (post, "post-accumulate hook")]
    return [f"with {n} {what}{'s' if n > 1 else ''}" for n, what in counts if n]


def _shape(t: Tensor) -> str:
    return str(tuple(t.shape))


def value_text(t: Tensor) -> str:
    """Values as minitorch prints them, on one line, or just the shape when there are many.

    >>> value_text(minitorch.tensor([1., 2.5]))
    '[1.0000, 2.5000]'
    """
    if t.numel() > SMALL:
        return f"shape {_shape(t)}"
    text = repr(t.detach())
    body = text[len("tensor("):].split(", dtype=")[0].rstrip(")")
    return " ".join(line.strip() for line in body.splitlines())


# ---- emitting DOT --------------------------------------------------------------------------

def _label(lines: Iterable[str]) -> str:
    # escape user text's backslashes and keep "<...>" from being read as an HTML label
    return graphviz.nohtml("\\n".join(line.replace("\\", "\\\\") for line in lines))


def emit(
    model: Model,
    marks: dict[str, Mark] | None = None,
    edge_marks: dict[tuple[int, int], dict[str, str]] | None = None,
) -> Graph:
    """The DOT of ``model``; ``marks`` restyles nodes (by DOT id), ``edge_marks`` adds
    attributes to next_functions edges (by ``Edge.key``; use ``xlabel`` rather than ``label``
    there, so marking an edge does not move the other nodes)."""
    marks = marks or {}
    edge_marks = edge_marks or {}
    large = len(model.items) > LARGE
    g = Graph(graph_attr={**_GRAPH_ATTR, **(_FAST_LAYOUT if large else {})},
              node_attr=_NODE_ATTR, edge_attr=_EDGE_ATTR)
    g._ids = model.ids
    for item in model.items:
        mark = marks.get(item.id) or Mark()
        attrs = {"fillcolor": COLORS[item.kind], **_STYLE[item.kind], **mark.attrs}
        label = _label([*mark.above, *item.lines, *mark.below])
        g.node(item.id, label, tooltip=item.tooltip, **attrs)
    for e in model.edges:
        attrs = {**e.attrs, **edge_marks.get(e.key, {})} if e.key else dict(e.attrs)
        if "xlabel" in attrs:
            attrs["xlabel"] = _label([attrs["xlabel"]])
        if e.label:  # an xlabel is placed after the layout: cheaper, but may overlap
            attrs["xlabel" if large else "label"] = _label([e.label])
        g.edge(e.tail, e.head, **attrs)
    return g
