"""minitorch.viz.draw: the DOT it writes, its SVG, and what happens without Graphviz's `dot`.

Truth for the graph's structure comes from torch: the same computation is built in both
libraries and every drawn edge must be an edge of torch's graph (node names at both ends),
with the same multiplicities. Values printed in labels must read as torch prints them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
import torch

import minitorch
from minitorch.viz import Graph, Source, dot, draw, show
from minitorch.viz.dot import COLORS, IN_BROWSER, MISSING_DOT

HAVE_DOT = shutil.which("dot") is not None
NEEDS_DOT = pytest.mark.skipif(
    not HAVE_DOT, reason="Graphviz's `dot` program is not installed (apt-get install graphviz)")

# ---- reading DOT back ------------------------------------------------------------------------

_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s\]]+)')
_NODE = re.compile(r"^\t(\w+) \[(.*)\]$")
_EDGE = re.compile(r"^\t(\w+) -> (\w+)(?: \[(.*)\])?$")


def _attrs(text: str | None) -> dict[str, str]:
    out = {}
    for key, value in _ATTR.findall(text or ""):
        out[key] = value[1:-1] if value.startswith('"') else value
    return out


def parse(g: Graph) -> tuple[dict[str, dict[str, str]], list[tuple[str, str, dict[str, str]]]]:
    """The nodes (id -> attributes, with ``lines`` = the label's lines) and edges of a DOT."""
    nodes, edges = {}, []
    for line in g.source.splitlines():
        if m := _EDGE.match(line):
            edges.append((m[1], m[2], _attrs(m[3])))
        elif (m := _NODE.match(line)) and m[1] not in ("graph", "node", "edge"):
            attrs = _attrs(m[2])
            attrs["lines"] = attrs.get("label", "").split("\\n")
            nodes[m[1]] = attrs
    return nodes, edges


def kind_of(attrs: dict[str, str]) -> str:
    return next(k for k, c in COLORS.items() if c == attrs["fillcolor"])


def torch_value(t: torch.Tensor) -> str:
    """torch's printed values of a tensor, without ``tensor(`` and ``)``."""
    return repr(t.detach())[len("tensor("):-1]


def torch_edges(root: torch.Tensor, names: dict[int, str]) -> Counter:
    """(input node, consumer node) pairs of torch's graph; leaves by name, ops by class."""
    def label(node):
        if type(node).__name__ == "AccumulateGrad":
            return names[id(node.variable)]
        return node.name()

    edges, seen, stack = Counter(), {root.grad_fn}, [root.grad_fn]
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            edges[(label(child), label(node))] += 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return edges


def drawn_edges(g: Graph) -> Counter:
    """The same pairs read from the DOT: leaves by their first label line, ops by class."""
    nodes, edges = parse(g)
    return Counter((nodes[a]["lines"][0], nodes[b]["lines"][0]) for a, b, attrs in edges
                   if kind_of(nodes[a]) in ("op", "leaf") and kind_of(nodes[b]) == "op")


# ---- the notes' graphs -------------------------------------------------------------------------

def notes_graph_1(L):
    """F = exp(A * B) + E, the notes' first example."""
    A = L.tensor(2., requires_grad=True)
    B = L.tensor(.5, requires_grad=True)
    E = L.tensor(1., requires_grad=True)
    F = (A * B).exp() + E
    return {"A": A, "B": B, "E": E}, F


def notes_graph_2(L):
    """C = A**2, D = B**2, E = C*D, F = D + E: D feeds two nodes."""
    A = L.tensor([3.], requires_grad=True)
    B = L.tensor([2.], requires_grad=True)
    C = A ** 2
    D = B ** 2
    E = C * D
    F = D + E
    return {"A": A, "B": B, "C": C, "D": D, "E": E}, F


MLP_SHAPES = {"fc1.weight": (5, 10), "fc1.bias": (5,), "fc2.weight": (2, 5), "fc2.bias": (2,),
              "fc3.weight": (2, 5), "fc3.bias": (2,), "fc4.weight": (2, 2), "fc4.bias": (2,)}


class MLPParams:
    """The notes' MLP (fc1 → relu → fc2 | fc3 → relu → fc4, summed), as bare parameters with
    ``named_parameters()``, the way a Module offers them."""

    def __init__(self, L, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.params = {k: L.tensor(rng.standard_normal(s).astype(np.float32),
                                 requires_grad=True)
                       for k, s in MLP_SHAPES.items()}

    def named_parameters(self):
        return iter(self.params.items())

    def __call__(self, x):
        p = self.params

        def fc(n, h):
            return h @ p[f"fc{n}.weight"].t() + p[f"fc{n}.bias"]

        h = fc(1, x).relu()
        return (fc(2, h) + fc(4, fc(3, h).relu())).sum()


def mlp(L):
    model = MLPParams(L)
    x = L.ones(10, requires_grad=True)
    return model, x, model(x)


# ---- structure -------------------------------------------------------------------------------

def test_notes_graph_1_nodes_edges_labels_and_colours():
    names, F = notes_graph_1(minitorch)
    t_names, t_F = notes_graph_1(torch)
    g = draw(F, params=names)
    nodes, edges = parse(g)
    kinds = Counter(kind_of(a) for a in nodes.values())
    assert kinds == {"op": 3, "leaf": 3, "output": 1}
    ops = {a["lines"][0] for a in nodes.values() if kind_of(a) == "op"}
    assert ops == {"AddBackward0", "ExpBackward0", "MulBackward0"}
    for a in nodes.values():
        assert a["shape"] == {"op": "box", "leaf": "ellipse", "output": "box"}[kind_of(a)]
    leaves = {a["lines"][0]: a["lines"] for a in nodes.values() if kind_of(a) == "leaf"}
    for name, t in t_names.items():
        assert leaves[name][1:3] == ["()", f"= {torch_value(t)}"]
    out = next(a for a in nodes.values() if kind_of(a) == "output")
    assert out["peripheries"] == "2" and out["lines"][-1] == f"= {torch_value(t_F)}"
    assert drawn_edges(g) == torch_edges(t_F, {id(t): n for n, t in t_names.items()})
    assert (g.node_id(F.grad_fn), g.node_id(F), {}) in edges  # grad_fn -> output


def test_grads_shown_after_backward_as_torch_prints_them():
    names, F = notes_graph_1(minitorch)
    t_names, t_F = notes_graph_1(torch)
    F.backward()
    t_F.backward()
    nodes, _ = parse(draw(F, params=names))
    leaves = {a["lines"][0]: a["lines"] for a in nodes.values() if kind_of(a) == "leaf"}
    for name, t in t_names.items():
        assert f"grad = {torch_value(t.grad)}" in leaves[name]
    nodes, _ = parse(draw(F, params=names, show_grad=False))
    assert not any(line.startswith("grad") for a in nodes.values() for line in a["lines"])


def test_shared_subexpression_is_one_node_with_two_consumers():
    names, F = notes_graph_2(minitorch)
    t_names, t_F = notes_graph_2(torch)
    g = draw(F, params=names)
    nodes, edges = parse(g)
    assert drawn_edges(g) == torch_edges(t_F, {id(t_names["A"]): "A", id(t_names["B"]): "B"})
    d = g.node_id(names["D"].grad_fn)
    consumers = sorted(nodes[b]["lines"][0] for a, b, _ in edges if a == d)
    assert consumers == ["AddBackward0", "MulBackward0"]
    assert sum(1 for a in nodes.values() if a["lines"][0] == "PowBackward0") == 2
    # ops are labelled with the tensor they produced
    assert nodes[d]["lines"] == ["PowBackward0", "→ D"]
    assert nodes[g.node_id(names["E"].grad_fn)]["lines"] == ["MulBackward0", "→ E"]


def test_names_from_the_callers_variables():
    A = minitorch.tensor([3.], requires_grad=True)
    B = minitorch.tensor([2.], requires_grad=True)
    C = A ** 2
    D = B ** 2
    E = C * D
    F = D + E
    _hidden = F  # names starting with "_" (IPython's history) are ignored
    g = draw(F, name_from_caller=True)
    nodes, _ = parse(g)
    first = {a["lines"][0] for a in nodes.values()}
    assert {"A", "B", "F"} <= first
    for t, name in [(C, "C"), (D, "D"), (E, "E")]:
        assert f"→ {name}" in nodes[g.node_id(t.grad_fn)]["lines"]
    assert not any("_hidden" in line for a in nodes.values() for line in a["lines"])
    unnamed, _ = parse(draw(F))
    assert not any(line in ("A", "B", "→ C") for a in unnamed.values() for line in a["lines"])
    # explicit params win over variable names
    named, _ = parse(draw(F, params={"alpha": A}, name_from_caller=True))
    assert "alpha" in {a["lines"][0] for a in named.values()}


def test_params_must_be_a_dict_or_have_named_parameters():
    x = minitorch.ones(1, requires_grad=True)
    with pytest.raises(TypeError, match="named_parameters"):
        draw(x * 2, params=[x])
    with pytest.raises(TypeError, match="expects tensors"):
        draw(np.ones(2))


def test_mlp_structure_matches_torch_and_params_are_named():
    model, _, z = mlp(minitorch)
    t_model, t_x, t_z = mlp(torch)
    g = draw(z, params=model)
    names = {id(t): n for n, t in t_model.params.items()}
    names[id(t_x)] = "(10,)"  # x is unnamed: its first line is its shape
    assert drawn_edges(g) == torch_edges(t_z, names)
    nodes, _ = parse(g)
    leaves = {a["lines"][0]: a["lines"] for a in nodes.values() if kind_of(a) == "leaf"}
    assert leaves["fc1.weight"][:2] == ["fc1.weight", "(5, 10)"]
    assert not any(line.startswith("=") for line in leaves["fc1.weight"])  # 50 values: hidden
    assert leaves["fc1.bias"][2] == f"= {torch_value(t_model.params['fc1.bias'])}"
    # the caller's Module variable names its parameters as var.param
    nodes, _ = parse(draw(z, name_from_caller=True))
    assert "model.fc4.weight" in {a["lines"][0] for a in nodes.values()}


def notes_mlp(L):
    """The notes' MLP exactly as written there, as an ``nn.Module``, with seeded weights."""
    nn = L.nn

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(10, 5)
            self.relu = nn.ReLU()
            self.fc2 = nn.Linear(5, 2)
            self.fc3 = nn.Linear(5, 2)
            self.fc4 = nn.Linear(2, 2)

        def forward(self, x):
            x = self.fc1(x)
            x = self.relu(x)
            x1 = self.fc2(x)
            x2 = self.fc3(x)
            x2 = self.relu(x2)
            x2 = self.fc4(x2)
            return x1 + x2

    model = MLP()
    rng = np.random.default_rng(1)
    model.load_state_dict({k: L.tensor(rng.standard_normal(tuple(v.shape)).astype(np.float32))
                           for k, v in model.state_dict().items()})
    x = L.ones([10], requires_grad=True)
    return model, x, L.sum(model(x))


NEEDS_NN = pytest.mark.skipif(not hasattr(minitorch, "nn"), reason="minitorch.nn is missing")


@NEEDS_NN
def test_notes_mlp_module_structure_matches_torch():
    model, _, z = notes_mlp(minitorch)
    t_model, t_x, t_z = notes_mlp(torch)
    g = draw(z, params=model)
    names = {id(p): n for n, p in t_model.named_parameters()}
    names[id(t_x)] = "(10,)"
    assert drawn_edges(g) == torch_edges(t_z, names)
    nodes, _ = parse(g)
    leaves = {a["lines"][0] for a in nodes.values() if kind_of(a) == "leaf"}
    assert leaves == {n for n, _ in t_model.named_parameters()} | {"(10,)"}


def test_multi_output_edges_show_the_output_number():
    def build(L):
        x = L.tensor([1., 2.], requires_grad=True)
        a, b = x.unbind(0)
        return b * a

    y, t_y = build(minitorch), build(torch)
    nodes, edges = parse(draw(y))
    labels = [e.get("label") for a, b, e in edges if nodes[a]["lines"][0] == "UnbindBackward0"]
    assert labels == [f"output {nr}" for _, nr in t_y.grad_fn.next_functions]


def test_saved_tensors_are_orange_notes_named_as_torch_names_them():
    names, F = notes_graph_1(minitorch)
    _, t_F = notes_graph_1(torch)
    g = draw(F, params=names, show_saved=True)
    nodes, edges = parse(g)
    saved = {}
    for a, b, attrs in edges:
        if kind_of(nodes[a]) == "saved":
            assert nodes[a]["shape"] == "note" and attrs["dir"] == "none"
            saved.setdefault(nodes[b]["lines"][0], set()).add(nodes[a]["lines"][0].split(":")[0])
    stack, expected = [t_F.grad_fn], {}
    while stack:
        node = stack.pop()
        tensors = {a[len("_saved_"):] for a in dir(node) if a.startswith("_saved_")
                   and isinstance(getattr(node, a), torch.Tensor)}
        if tensors:
            expected[node.name()] = tensors
        stack += [c for c, _ in node.next_functions if c is not None]
    assert saved == expected
    # a saved input that is a named tensor says so
    assert "self: A" in {a["lines"][0] for a in nodes.values()}
    assert not any(kind_of(a) == "saved" for a in parse(draw(F))[0].values())


def test_saved_version_shows_an_in_place_change():
    def build(L):
        x = L.ones(2, requires_grad=True)
        a = x.clone()
        y = a * a
        a.mul_(2)
        return a, y

    (_, y), (t_a, _) = build(minitorch), build(torch)
    nodes, _ = parse(draw(y, show_saved=True, show_version=True))
    notes = [a["lines"] for a in nodes.values() if kind_of(a) == "saved"]
    assert len(notes) == 2
    for lines in notes:
        assert "saved at version 0" in lines
        assert f"now version {t_a._version}: modified in place!" in lines
    nodes, _ = parse(draw(y, show_saved=True))
    assert not any("version" in line for a in nodes.values() for line in a["lines"])


def test_retained_grads_and_hooks_are_marked_in_text():
    names, F = notes_graph_2(minitorch)
    A, C, D = names["A"], names["C"], names["D"]
    C.retain_grad()
    A.register_hook(lambda g: g)
    A.register_post_accumulate_grad_hook(lambda t: None)
    D.register_hook(lambda g: g)
    D.register_hook(lambda g: g)
    F.grad_fn.register_prehook(lambda g: None)
    g = draw(F, params=names)
    nodes, _ = parse(g)

    def lines(obj):
        return nodes[g.node_id(obj)]["lines"]

    assert "retain_grad" in lines(C.grad_fn)
    assert {"with 1 tensor hook", "with 1 post-accumulate hook"} <= set(lines(_acc_of(A, F)))
    assert "with 2 tensor hooks" in lines(D.grad_fn)
    assert "with 1 node pre-hook" in lines(F.grad_fn)
    F.backward()
    t_names, t_F = notes_graph_2(torch)
    t_names["C"].retain_grad()
    t_F.backward()
    g = draw(F, params=names)
    nodes, _ = parse(g)
    assert f"retain_grad: grad = {torch_value(t_names['C'].grad)}" in lines(C.grad_fn)


def _acc_of(A, F):
    """A's AccumulateGrad in the notes' second graph (through C = A ** 2)."""
    mul = F.grad_fn.next_functions[1][0]
    return mul.next_functions[0][0].next_functions[0][0]


def test_large_graphs_keep_the_top_and_fold_the_rest():
    x = minitorch.tensor(1., requires_grad=True)
    y = x
    for _ in range(1000):
        y = y * 1.001
    g = draw(y, max_nodes=50)
    nodes, edges = parse(g)
    graph_nodes = [a for a in nodes.values() if kind_of(a) in ("op", "leaf")]
    assert len(graph_nodes) == 50
    more = [i for i, a in nodes.items() if kind_of(a) == "more"]
    assert len(more) == 1
    assert nodes[more[0]]["lines"][0] == "… 951 more nodes"  # 1000 ops + 1 leaf - 50
    assert g.node_id(y.grad_fn)  # the top (the output's node) is kept
    cut = [b for a, b, _ in edges if a == more[0]]
    assert len(cut) == 1 and nodes[cut[0]]["lines"][0] == "MulBackward0"


def test_deep_graph_needs_no_recursion():
    x = minitorch.tensor(1., requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y + 1.0
    nodes, _ = parse(draw(y, max_nodes=10))
    assert any(a["lines"][0] == "… 19991 more nodes" for a in nodes.values())


def _chain_of_200_nodes():
    x = minitorch.tensor([1., 2.], requires_grad=True)
    w = minitorch.tensor([.5, .1], requires_grad=True)
    y = x
    for i in range(132):
        y = (y * w).tanh() if i % 2 else y + x
    return y, {"x": x, "w": w}


def test_a_200_node_graph_is_drawn_whole_and_laid_out_with_limits():
    # How long it takes is benchmarks/run.py's business; here, that dot is told to be quick.
    y, params = _chain_of_200_nodes()
    nodes, _ = parse(draw(y, params=params))
    assert sum(kind_of(a) in ("op", "leaf") for a in nodes.values()) == 200
    assert "nslimit" in draw(y).source


@NEEDS_DOT
@pytest.mark.slow
def test_rendering_a_200_node_graph_with_many_uses_of_the_leaves():
    y, params = _chain_of_200_nodes()
    assert "<svg" in draw(y, params=params, show_saved=True)._repr_svg_()


def test_colours_are_light_enough_for_black_text_and_shapes_tell_kinds_apart():
    def luminance(hex_colour):
        rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    for colour in COLORS.values():  # WCAG AAA contrast with black text
        assert (luminance(colour) + 0.05) / 0.05 >= 7, colour
    names, F = notes_graph_1(minitorch)
    nodes, _ = parse(draw(F, params=names, show_saved=True))
    looks = {kind_of(a): (a["shape"], a.get("peripheries")) for a in nodes.values()}
    assert len(set(looks.values())) == len(looks) == 4
    assert 'bgcolor=white' in draw(F).source  # the picture stays white on a dark theme
    assert 'fontcolor=black' in draw(F).source


# ---- display -----------------------------------------------------------------------------------

@NEEDS_DOT
def test_svg_rendering():
    names, F = notes_graph_2(minitorch)
    g = draw(F, params=names, show_saved=True)
    bundle = g._repr_mimebundle_()
    svg = bundle["image/svg+xml"]
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for text in ("PowBackward0", "MulBackward0", "AddBackward0", "→ D", "self: A"):
        assert text in svg
    for colour in COLORS.values():
        if colour != COLORS["more"]:
            assert f'fill="{colour.lower()}"' in svg
    assert g._repr_svg_() == svg


def test_without_dot_the_browser_draws_the_graph(monkeypatch, tmp_path):
    pytest.importorskip("graphviz_anywidget")
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no `dot` anywhere
    names, F = notes_graph_2(minitorch)
    g = draw(F, params=names)
    bundle = g._repr_mimebundle_()
    assert "image/svg+xml" not in bundle
    assert "application/vnd.jupyter.widget-view+json" in bundle  # JupyterLab draws it
    assert bundle["text/plain"] == f"{IN_BROWSER}\n\n{g.source}"
    mine = Source("digraph { a -> b }")._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in mine


def test_without_dot_or_its_wasm_the_notebook_gets_instructions_and_the_source(
        monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no `dot` anywhere
    monkeypatch.setattr(dot, "_browser_widget_class", lambda: None)  # no graphviz-anywidget
    names, F = notes_graph_2(minitorch)
    g = draw(F, params=names)  # building needs no `dot`
    bundle = g._repr_mimebundle_()
    assert "image/svg+xml" not in bundle
    text = bundle["text/plain"]
    for hint in ("apt-get install graphviz", "conda install -c conda-forge graphviz",
                 "brew install graphviz"):
        assert hint in text and hint in bundle["text/html"]
    assert text.endswith(g.source)
    assert g._repr_svg_() is None
    from IPython.core.formatters import DisplayFormatter

    data, _ = DisplayFormatter().format(g)  # what Jupyter does with a cell's result
    assert MISSING_DOT.splitlines()[0] in data["text/plain"]


def test_show_displays_the_graph_named_from_the_callers_variables(monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", shown.append)
    monkeypatch.setattr(dot, "_in_jupyter", lambda: True)
    x = minitorch.tensor([3.], requires_grad=True)
    y = x ** 2
    assert show(y) is None
    (g,) = shown
    assert isinstance(g, Graph)
    nodes, _ = parse(g)
    assert nodes[g.node_id(y.grad_fn)]["lines"] == ["PowBackward0", "→ y"]
    show(y, name_from_caller=False, show_saved=True)
    nodes, _ = parse(shown[1])
    assert "y" not in {a["lines"][0] for a in nodes.values()}
    assert any(kind_of(a) == "saved" for a in nodes.values())


def test_show_outside_jupyter_prints_a_one_line_hint(capsys):
    show(minitorch.ones(1, requires_grad=True) * 2)
    out = capsys.readouterr().out
    assert out == dot.OUTSIDE_JUPYTER + "\n" and "viz.draw(y).source" in out


def test_importing_viz_without_graphviz_says_what_to_install():
    code = ("import sys; sys.modules['graphviz'] = None\n"
            "try:\n    import minitorch.viz\n"
            "except ModuleNotFoundError as e:\n    print(e.name, '|', e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("graphviz | minitorch.viz needs the graphviz Python package: "
                          "pip install graphviz") and out.count("\n") == 1


def test_printing_a_tensor_stays_torch_text():
    _, F = notes_graph_1(minitorch)
    _, t_F = notes_graph_1(torch)
    draw(F)
    assert repr(F) == repr(t_F)
    assert not hasattr(F, "_repr_svg_") and not hasattr(F, "_repr_mimebundle_")


def test_graph_without_grad():
    x = minitorch.ones(2)
    nodes, edges = parse(draw(x))
    (node,) = nodes.values()
    assert kind_of(node) == "output" and "(no grad_fn: nothing to draw)" in node["lines"]
    assert edges == []


@pytest.mark.parametrize("module", ["minitorch.viz", "minitorch.viz.dot", "minitorch.viz.stepper",
                                    "minitorch.viz._names"])
def test_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module), extraglobs={"minitorch": minitorch})
    assert result.attempted > 0 and result.failed == 0


def test_several_roots_share_their_common_nodes():
    A = minitorch.tensor([3.], requires_grad=True)
    B = A * 2
    C = B.exp()
    g = draw(B, C, A, name_from_caller=True)
    nodes, edges = parse(g)
    assert Counter(kind_of(a) for a in nodes.values()) == {"op": 2, "leaf": 1, "output": 3}
    outputs = {a["lines"][0]: i for i, a in nodes.items() if kind_of(a) == "output"}
    assert (g.node_id(B.grad_fn), outputs["B"], {}) in edges
    assert (g.node_id(C.grad_fn), outputs["C"], {}) in edges
    assert (g.node_id(B.grad_fn.next_functions[0][0]), outputs["A"], {}) in edges
