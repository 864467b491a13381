"""minitorch.viz.BackwardStepper, state by state, against the engine and torch.

The order is checked against minitorch's engine seen through another channel (node
pre-hooks, which the engine calls as it runs each node) and against torch's own execution
order; the gradients each node receives and sends against torch's node hooks; the queue and
the dependency counts against what the graph's structure says they must be.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
import torch
from test_viz import NEEDS_NN, mlp, notes_graph_1, notes_graph_2, notes_mlp, parse, torch_value

import minitorch
from minitorch.autograd.graph import AccumulateGrad
from minitorch.viz import BackwardStepper, dot
from minitorch.viz.dot import MISSING_DOT
from minitorch.viz.stepper import RUNNING, SENT

HAVE_DOT = shutil.which("dot") is not None


def build_mlp(L):
    model, x, z = mlp(L)
    return {**model.params, "x": x}, z


def build_notes_mlp(L):
    model, x, z = notes_mlp(L)
    return {**dict(model.named_parameters()), "x": x}, z


GRAPHS = {"exp(A*B)+E": notes_graph_1, "shared D": notes_graph_2, "MLP": build_mlp,
          "MLP (nn)": pytest.param(build_notes_mlp, marks=NEEDS_NN)}


def walk(root):
    """Every node reachable from ``root`` (minitorch or torch) and its incoming-edge list."""
    nodes, edges, stack = [root], [], [root]
    seen = {root}
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            edges.append((node, child))
            if child not in seen:
                seen.add(child)
                nodes.append(child)
                stack.append(child)
    return nodes, edges


def pair_nodes(m_root, t_root) -> dict:
    """minitorch node -> the torch node in the same place of the same computation."""
    pairs, stack = {m_root: t_root}, [(m_root, t_root)]
    while stack:
        m, t = stack.pop()
        for (mc, _), (tc, _) in zip(m.next_functions, t.next_functions):
            if mc is not None and mc not in pairs:
                pairs[mc] = tc
                stack.append((mc, tc))
    return pairs


def torch_run(F):
    """Run torch's backward; return its node order and each op node's (grad_inputs,
    grad_outputs)."""
    order, grads = [], {}
    for node in walk(F.grad_fn)[0]:
        node.register_prehook(lambda go, node=node: order.append(node))
        if type(node).__name__ != "AccumulateGrad":
            node.register_hook(lambda gi, go, node=node: grads.__setitem__(node, (gi, go)))
    F.backward()
    return order, grads


def close(m, t) -> bool:
    if m is None or t is None:
        return m is None and t is None
    return np.allclose(np.asarray(m.tolist()), t.detach().numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("build", GRAPHS.values(), ids=list(GRAPHS))
def test_steps_follow_the_engine_and_torch(build):
    names, F = build(minitorch)
    seen_by_engine = []
    for node in walk(F.grad_fn)[0]:
        node.register_prehook(lambda go, node=node: seen_by_engine.append(node))
    stepper = BackwardStepper(F, params=names)
    nodes = [s.node for s in stepper.steps]
    assert nodes == seen_by_engine
    assert len(nodes) == len(walk(F.grad_fn)[0])  # every node runs once

    t_names, t_F = build(torch)
    pairs = pair_nodes(F.grad_fn, t_F.grad_fn)
    t_order, t_grads = torch_run(t_F)
    # torch gives every AccumulateGrad the same top priority, so only their places in the
    # order are defined, not which leaf goes first
    assert [type(pairs[n]).__name__ for n in nodes] == [type(n).__name__ for n in t_order]
    assert ([pairs[n] for n in nodes if not isinstance(n, AccumulateGrad)]
            == [n for n in t_order if type(n).__name__ != "AccumulateGrad"])
    assert [s.position for s in stepper.steps] == list(range(1, len(nodes) + 1))
    for step in stepper.steps:
        if step.leaf is None:
            t_in, t_out = t_grads[pairs[step.node]]
            assert all(close(m, t) for m, t in zip(step.grad_outputs, t_out))
            assert all(close(m, t) for m, t in zip(step.grad_inputs, t_in))
            assert all(g is None for g in step.grad_inputs[len(t_in):])
        else:
            name = next(n for n, t in names.items() if t is step.leaf.tensor)
            assert step.leaf.name == name and step.leaf.before is None
            assert close(step.leaf.after, t_names[name].grad)
            assert close(step.grad_outputs[0], t_names[name].grad)


@pytest.mark.parametrize("build", GRAPHS.values(), ids=list(GRAPHS))
def test_queue_and_dependency_counts_follow_from_the_graph(build):
    names, F = build(minitorch)
    stepper = BackwardStepper(F, params=names)
    nodes, edges = walk(F.grad_fn)
    for k in range(len(stepper.steps) + 1):
        state = stepper.state(k)
        assert state.position == k
        assert state.ran == tuple(s.node for s in stepper.steps[:k])
        ran = set(state.ran)
        # a node waits for one gradient per edge from a consumer that has not run yet
        expected = {n: sum(1 for a, b in edges if b is n and a not in ran)
                    for n in nodes if n is not F.grad_fn}
        assert state.dependencies == expected
        ready = {n for n in nodes if n not in ran and (n is F.grad_fn or expected[n] == 0)}
        assert set(state.ready) == ready and len(state.ready) == len(ready)
        if k < len(stepper.steps):
            assert state.ready[0] is stepper.steps[k].node  # the queue's head runs next
            assert stepper.steps[k].ready == state.ready[1:]
        assert (state.step is None) == (k == 0)


def test_shared_subexpression_gradients_are_summed():
    names, F = notes_graph_2(minitorch)
    stepper = BackwardStepper(F, params=names)
    t_names, t_F = notes_graph_2(torch)
    t_names["D"].retain_grad()
    _, t_grads = torch_run(t_F)
    add, mul = t_F.grad_fn, t_F.grad_fn.next_functions[1][0]
    d_step = next(s for s in stepper.steps if s.node is names["D"].grad_fn)
    assert [(d.source, d.step) for d in d_step.deliveries] == [
        ("AddBackward0 (→ F)", 1), ("MulBackward0 (→ E)", 2)]
    assert close(d_step.deliveries[0].grad, t_grads[add][0][0])
    assert close(d_step.deliveries[1].grad, t_grads[mul][0][1])
    assert close(d_step.grad_outputs[0], t_names["D"].grad)
    # after MulBackward0 ran, both contributions wait at D
    waiting = stepper.state(2).waiting[names["D"].grad_fn]
    assert [d.source for d in waiting] == ["AddBackward0 (→ F)", "MulBackward0 (→ E)"]
    assert [d.source for d in stepper.state(1).waiting[names["D"].grad_fn]] == [
        "AddBackward0 (→ F)"]
    text = stepper.describe(3)
    assert "Step 3 of 6: PowBackward0 (→ D)" in text
    assert "from AddBackward0 (→ F): [1.]" in text and "from MulBackward0 (→ E): [9.]" in text
    assert "grad_outputs = ([10.])" in text


def test_the_users_grads_and_graph_are_left_alone():
    names, F = notes_graph_2(minitorch)
    A, C = names["A"], names["C"]
    C.retain_grad()
    F.backward(retain_graph=True)
    old = A.grad
    old_values = old.tolist()
    C.grad = None
    stepper = BackwardStepper(F, params=names)
    assert A.grad is old and A.grad.tolist() == old_values
    assert C.grad is None
    t_names, t_F = notes_graph_2(torch)
    t_F.backward(retain_graph=True)
    first = t_names["A"].grad.clone()
    t_F.backward()
    leaf = next(s.leaf for s in stepper.steps if s.leaf and s.leaf.tensor is A)
    assert close(leaf.before, first) and close(leaf.after, t_names["A"].grad)
    assert stepper.state(0).leaf_grads[A].tolist() == old_values
    assert close(stepper.state(len(stepper)).leaf_grads[A], t_names["A"].grad)
    F.backward()  # the graph was kept
    assert close(A.grad, t_names["A"].grad)


def test_hooks_run_once_and_their_effect_is_shown():
    def build(L, calls):
        names, F = notes_graph_2(L)
        names["D"].register_hook(lambda g: calls.append("D") or g * 2)
        names["A"].register_hook(lambda g: calls.append("A") or g * 3)
        return names, F

    calls, t_calls = [], []
    names, F = build(minitorch, calls)
    stepper = BackwardStepper(F, params=names)
    assert sorted(calls) == ["A", "D"]
    t_names, t_F = build(torch, t_calls)
    _, t_grads = torch_run(t_F)
    d_step = next(s for s in stepper.steps if s.node is names["D"].grad_fn)
    t_d = t_F.grad_fn.next_functions[0][0]
    assert close(d_step.grad_outputs[0], t_grads[t_d][1][0])  # after the hook: doubled
    unhooked = sum(float(d.grad.item()) for d in d_step.deliveries)
    assert unhooked * 2 == pytest.approx(float(d_step.grad_outputs[0].item()))
    a_leaf = next(s.leaf for s in stepper.steps if s.leaf and s.leaf.tensor is names["A"])
    assert close(a_leaf.after, t_names["A"].grad)
    assert names["A"].grad is None
    hooked = torch_value(t_grads[t_d][1][0])
    assert f"grad_outputs = ({hooked}) (after 1 tensor hook)" in stepper.describe(d_step.position)
    a_step = next(s for s in stepper.steps if s.leaf and s.leaf.tensor is names["A"])
    a_grad = torch_value(t_names["A"].grad)
    assert f"A.grad: None → {a_grad} (after 1 tensor hook)" in stepper.describe(a_step.position)


def test_a_backward_run_inside_a_hook_is_not_mixed_in():
    names, F = notes_graph_2(minitorch)
    other = minitorch.tensor(2., requires_grad=True)
    inner = []

    def hook(grad):
        with minitorch.enable_grad():  # backward runs its nodes without recording
            inner.append(minitorch.autograd.grad(other * other, other))

    names["D"].register_hook(hook)
    stepper = BackwardStepper(F, params=names)
    assert len(inner) == 1
    plain = BackwardStepper(notes_graph_2(minitorch)[1])
    assert [s.node.name() for s in stepper.steps] == [s.node.name() for s in plain.steps]


def test_several_outputs_and_an_explicit_gradient():
    def build(L):
        x = L.tensor([1., 2.], requires_grad=True)
        a, b = x.unbind(0)
        return x, L.stack([a * b, a + b])

    (_, y), (t_x, t_y) = build(minitorch), build(torch)
    gradient = [0.5, -1.0]
    stepper = BackwardStepper(y, minitorch.tensor(gradient))
    t_order, t_grads = torch_run_with(t_y, torch.tensor(gradient))
    pairs = pair_nodes(y.grad_fn, t_y.grad_fn)
    assert [pairs[s.node] for s in stepper.steps] == t_order  # a single leaf: no ties
    unbind = next(s for s in stepper.steps if s.node.name() == "UnbindBackward0")
    assert sorted(d.output_nr for d in unbind.deliveries) == [0, 0, 1, 1]
    assert all(close(m, t) for m, t in zip(unbind.grad_outputs, t_grads[pairs[unbind.node]][1]))
    assert close(stepper.steps[-1].leaf.after, t_x.grad)
    assert "(output 1)" in stepper.describe(unbind.position)


def torch_run_with(y, gradient):
    order, grads = [], {}
    for node in walk(y.grad_fn)[0]:
        node.register_prehook(lambda go, node=node: order.append(node))
        node.register_hook(lambda gi, go, node=node: grads.__setitem__(node, (gi, go)))
    y.backward(gradient)
    return order, grads


def test_errors_are_the_engines():
    y = minitorch.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        BackwardStepper(y)
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        BackwardStepper(minitorch.ones(1))
    stepper = BackwardStepper(y.sum())
    with pytest.raises(IndexError):
        stepper.state(len(stepper) + 1)
    stepper.go(99)
    assert stepper.position == len(stepper)
    stepper.go(-3)
    assert stepper.position == 0


def test_the_graph_marks_the_running_node_and_the_gradients_it_sends():
    names, F = notes_graph_2(minitorch)
    stepper = BackwardStepper(F, params=names)
    g = stepper.graph(2)
    nodes, edges = parse(g)
    running = nodes[g.node_id(names["E"].grad_fn)]
    assert running["fillcolor"] == RUNNING and running["penwidth"] == "3"
    assert running["lines"][0] == "▶ step 2: running"
    assert nodes[g.node_id(F.grad_fn)]["lines"][0] == "✓ ran at step 1"
    assert nodes[g.node_id(names["D"].grad_fn)]["lines"][0] == "ready #1"
    assert nodes[g.node_id(names["C"].grad_fn)]["lines"][0] == "ready #2"
    leaves = [a for a in nodes.values() if a["shape"] == "ellipse"]
    assert all(a["lines"][0] == "waits for 1 more" and a["lines"][-1] == "grad = None"
               for a in leaves)
    t_names, t_F = notes_graph_2(torch)
    _, t_grads = torch_run(t_F)
    t_sent = t_grads[t_F.grad_fn.next_functions[1][0]][0]  # what torch's MulBackward0 sent
    sent = {a: e["xlabel"] for a, b, e in edges if e.get("color") == SENT}
    assert sent == {g.node_id(names["C"].grad_fn): torch_value(t_sent[0]),
                    g.node_id(names["D"].grad_fn): torch_value(t_sent[1])}
    assert all(e["dir"] == "back" for *_, e in edges if e.get("color") == SENT)
    final, _ = parse(stepper.graph(len(stepper)))
    leaves = {a["lines"][-1] for a in final.values() if a["shape"] == "ellipse"}
    assert leaves == {f"grad = {torch_value(t_names[n].grad)}" for n in "AB"}


def test_the_widget_buttons_and_slider(monkeypatch, tmp_path):
    pytest.importorskip("ipywidgets")
    if not HAVE_DOT:
        monkeypatch.setenv("PATH", str(tmp_path))
        monkeypatch.setattr(dot, "_browser_widget_class", lambda: None)
    names, F = notes_graph_2(minitorch)
    stepper = BackwardStepper(F, params=names)
    box = stepper.widget
    ui = stepper._widget
    assert ui.back.disabled and not ui.next.disabled
    assert "<svg" in ui.picture.value if HAVE_DOT else MISSING_DOT[:40] in ui.picture.value
    ui.next.click()
    assert stepper.position == 1 and ui.slider.value == 1
    assert "Step 1 of 6: AddBackward0 (→ F)" in ui.panel.value
    if HAVE_DOT:
        assert "▶ step 1: running" in ui.picture.value
    ui.slider.value = 6
    assert stepper.position == 6 and ui.next.disabled and "A.grad: None → [24.]" in ui.panel.value
    ui.back.click()
    assert stepper.position == 5
    ui.reset.click()
    assert stepper.position == 0 and ui.slider.value == 0 and "Start (6 steps)" in ui.panel.value
    stepper.step()  # the Python methods move the widget too
    assert ui.slider.value == 1
    assert "application/vnd.jupyter.widget-view+json" in stepper._repr_mimebundle_()
    assert box is stepper.widget


def test_the_panel_never_covers_the_picture():
    """The picture's column shrinks (min-width 0) and its SVG scales to fit it; the panel
    keeps at most 420 px, so at 1000 px and wider the graph has most of the row."""
    pytest.importorskip("ipywidgets")
    if not HAVE_DOT:
        pytest.skip("needs dot for the SVG")
    names, F = notes_graph_2(minitorch)
    stepper = BackwardStepper(F, params=names)
    stepper.widget
    ui = stepper._widget
    assert ui.picture.layout.min_width == "0" and ui.picture.layout.flex.startswith("1 1")
    assert ui.panel.layout.max_width == "420px" and ui.panel.layout.flex == "0 0 auto"
    assert "<svg style='max-width: 100%; height: auto'" in ui.picture.value


def test_without_dot_the_browser_draws_the_stepper(monkeypatch, tmp_path):
    pytest.importorskip("graphviz_anywidget")
    monkeypatch.setenv("PATH", str(tmp_path))
    names, F = notes_graph_2(minitorch)
    stepper = BackwardStepper(F, params=names)
    stepper.widget
    ui = stepper._widget
    assert ui.in_browser and "MulBackward0" in ui.picture.dot_source
    ui.next.click()
    assert "▶ step 1: running" in ui.picture.dot_source


def test_without_dot_the_stepper_still_works(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    names, F = notes_graph_1(minitorch)
    stepper = BackwardStepper(F, params=names)
    assert stepper.svg(1) is None
    assert "▶ step 1: running" in stepper.graph(1).source
