# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Chapter 1: the graph behind every tensor
#
# You never ask PyTorch to build a graph. You multiply two tensors, take an exponential, add a
# third, and a graph is there, recorded as a side effect of the arithmetic. `backward()` then
# walks it from the result back to the inputs, applying the chain rule at every node.
#
# This chapter looks at that graph until it is no longer magic: what a node is
# (`grad_fn`), how nodes point at each other (`next_functions`), where a path ends
# (`AccumulateGrad` and its `.variable`), which tensors are *leaves*, and why the graph is
# built again on every forward pass. Then you write the tools to see it yourself: a graph
# walk, a leaf finder, a table of predictions, and a Graphviz drawing — and your walk will
# drive minitorch's own drawing code.
#
# Everything runs in `minitorch`, a small library that behaves like `torch.autograd` (the
# names, printed forms and numbers are torch's).

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "setup"}
import os
import warnings

from minitorch.checks import check, check_runs
from minitorch.course import expect, observe

if os.environ.get("NBGRADER_EXECUTION"):  # autograde and validate: keep graded cells silent
    warnings.simplefilter("ignore")

import inspect

from IPython.display import display

import minitorch
import minitorch.viz as viz
from minitorch import nn

# %% [markdown]
# ## 1. A graph you did not ask for
#
# The notes' first example computes `F = exp(A·B) + E` with three tensors that require
# gradients:

# %%
A = minitorch.tensor(2., requires_grad=True)
B = minitorch.tensor(.5, requires_grad=True)
E = minitorch.tensor(1., requires_grad=True)
C = A * B
D = C.exp()
F = D + E
print(F)
print([x.is_leaf for x in [A, B, C, D, E, F]])
print([x.grad_fn for x in [F, D, C, A]])

# %% [markdown]
# `F` prints its value, `3.7183`, and one more thing: `grad_fn=<AddBackward0>`. That is a
# **node** of the backward graph: the object that knows how to turn the gradient of `F` into
# gradients for the two inputs of the addition. Every result of a recorded operation carries
# one (`D` has an `ExpBackward0`, `C` a `MulBackward0`). The tensors you created yourself do
# not: `A.grad_fn` is `None`, and they are the **leaves** of the graph.
#
# (The notes, written for PyTorch 1.7, print `<ExpBackward ...>`; since 1.10 the names carry a
# digit that tells overloads apart, `ExpBackward0`. minitorch follows torch 2.13.)
#
# Here is the whole graph. Boxes are nodes, blue ellipses are leaves, the green box is the
# output; arrows go the way the forward pass went.

# %%
viz.show(F)

# %% [markdown]
# ## 2. Reading the graph: `next_functions`
#
# A node points at the nodes of its inputs through `next_functions`: one
# `(node, output_nr)` pair per input of the forward operation.

# %%
print(F.grad_fn.next_functions)

# %% [markdown]
# `F = D + E`, so there are two entries. The first is `D`'s node, `ExpBackward0` (and `0`
# says `D` is output number 0 of that node — operations with several outputs, such as
# `unbind`, number them). The second is for `E`. `E` is a leaf and has no `grad_fn`, yet
# something stands there: an **`AccumulateGrad`** node. It is where a path ends; when the
# gradient arrives, it is *added* to `E.grad` (added, because several paths may reach the same
# leaf). It knows its tensor as `.variable`. Its `name()` is longer than its class's name:
# torch writes a few nodes by hand in C++ (`AccumulateGrad`, `CopySlices`) and `name()` gives
# their C++ name, namespace included; nodes generated per operation, such as `ExpBackward0`,
# are named after their class alone.

# %%
accumulate = F.grad_fn.next_functions[1][0]
print(type(accumulate).__name__, accumulate.name(), accumulate.variable is E)
print(C.grad_fn.next_functions)
print([node.variable is leaf for (node, _), leaf in zip(C.grad_fn.next_functions, [A, B])])

# %% [markdown]
# A leaf gets **one** `AccumulateGrad`, reused by every node that consumes it: `x * x` lists
# the same node twice.

# %%
x = minitorch.tensor(3., requires_grad=True)
(first, _), (second, _) = (x * x).grad_fn.next_functions
print(first is second, first.variable is x)

# %% [markdown]
# ## 3. What `backward()` keeps
#
# `F.backward()` sends `dF/dF = 1` into `AddBackward0` and follows `next_functions` down to
# every `AccumulateGrad`. The notes pass `retain_graph=True`: it keeps what the nodes saved
# for backward, so that the same graph could be walked a second time. Nothing below walks
# this one again, so it changes nothing here; chapter 2 §4 shows what happens without it
# (and the notes' own API reference adds that it is almost never needed).

# %%
F.backward(retain_graph=True)
print(A.grad, B.grad, E.grad)

# %% [markdown]
# `dF/dA = B·e^{AB} = 0.5·e = 1.3591`, `dF/dB = A·e^{AB} = 5.4366`, `dF/dE = 1`: the values
# the notes print. The intermediate results keep nothing: `C.grad` and `D.grad` are `None`,
# to save memory. The notes show only `None None`; torch 2.13 (and minitorch) also **warn**
# you, because reading `.grad` of a non-leaf is almost always a mistake:

# %%
print(C.grad, D.grad)

# %% [markdown]
# If you do want an intermediate gradient, ask for it before `backward()` with
# `retain_grad()`. Here `dF/dC = e^C = e`:

# %%
C = A * B
C.retain_grad()
F = C.exp() + E
F.backward()
print(C.grad, A.grad)

# %% [markdown]
# (And `A.grad` is now `2 × 1.3591`: the second `backward()` *added* to the leaves' gradients.
# Accumulation is the subject of chapter 2.)
#
# ## 4. Leaves and `requires_grad`
#
# The textbook notes (004) show three spellings of "this leaf requires grad", and how the flag
# spreads: `c = a + b` requires grad because `a` does, even though nobody said so for `c`.

# %%
a = minitorch.randn(3, 4, requires_grad=True)
b = minitorch.zeros(3, 4).requires_grad_()
c = minitorch.randn(3, 4)
c.requires_grad = True
print(a.requires_grad, b.requires_grad, c.requires_grad)

a = minitorch.randn(3, 4, requires_grad=True)
b = minitorch.zeros(3, 4).requires_grad_()
c = a + b
d = c.sum()
d.backward()
print(a.grad)
print(a.requires_grad, b.requires_grad, c.requires_grad)
print(a.is_leaf, b.is_leaf, c.is_leaf)

# %% [markdown]
# The rule: **a result requires grad if any input does** (and grad mode is on — chapter 4), and
# **a tensor is a leaf if it has no `grad_fn`**. So a leaf is not only "a tensor you made":
# a result that does not require grad is recorded nowhere, has no `grad_fn`, and is a leaf
# too.

# %%
plain = minitorch.tensor([3., 4.])
print((plain * 2).requires_grad, (plain * 2).is_leaf)

# %% [markdown]
# Three more ways to get a tensor. Chapter 4 gives each a section; here, the two rules are
# all you need to read their flags:
#
# - `t.detach()` is a new tensor with `t`'s values and **no history**: no `grad_fn`, and it
#   does not require grad. `requires_grad_()` switches the flag on, in place, for such a leaf.
# - Inside `with minitorch.no_grad():` grad mode is off, so nothing is recorded: results
#   get no `grad_fn`. The block changes no tensor that already exists.
# - A layer's weights (`nn.Linear(2, 1).weight`, its `bias`) are `nn.Parameter`s: tensors the
#   layer created, which require grad. A layer's *output* is a result like any other.

# %%
t = minitorch.tensor([5., 6.], requires_grad=True)
cut = t.detach()
print("detach:", cut.requires_grad, cut.is_leaf, cut.grad_fn)
print("detach + requires_grad_():", cut.requires_grad_() is cut, cut.requires_grad)
with minitorch.no_grad():
    inside = t * 3
print("made in no_grad:", inside.requires_grad, inside.grad_fn, "| t still:", t.requires_grad)
layer = nn.Linear(3, 2)
print("parameters:", [(p.requires_grad, p.grad_fn) for p in layer.parameters()])

# %% [markdown]
# The textbook (004) checks autograd against a derivative worked out by hand:
# $y = x^2 e^x$ has $dy/dx = 2x\,e^x + x^2 e^x$. Autograd must give the same numbers. (The
# notes call `y.backward(t.ones(y.size()))` on the non-scalar `y`, the gradient argument of
# chapter 2 §4; `y.sum().backward()` is the same thing: the gradient of a sum is all ones.)

# %%
def f(x):
    return x**2 * minitorch.exp(x)


def gradf(x):
    """dy/dx worked out by hand."""
    return 2 * x * minitorch.exp(x) + x**2 * minitorch.exp(x)


minitorch.manual_seed(0)
x = minitorch.randn(3, 4, requires_grad=True)
y = f(x)
y.sum().backward()
print(x.grad)
print(gradf(x).detach())
print("autograd agrees with the hand derivative:", minitorch.allclose(x.grad, gradf(x)))

# %% [markdown]
# One more trap of names, from notes 002: `x = x + 1` does not change `x`. Python's `=` only
# moves a name; the right-hand side is a new tensor, a *result*, with a `grad_fn`, and no
# longer a leaf. The leaf is still there if another name holds it, and backward fills *its*
# `.grad`. (`x += 1` is different: it changes the tensor itself, in place, which torch refuses
# on a leaf that requires grad outside `no_grad`: chapters 4 and 5.)

# %%
x = minitorch.tensor(1., requires_grad=True)
leaf, before = x, id(x)
x = x * 3
print("same object:", id(x) == before, "| leaf:", x.is_leaf, x.grad_fn)
(x * x).backward()
print("the old leaf's gradient, d(3·leaf)²/d leaf = 18·leaf:", leaf.grad)

# %% [markdown]
# The notes draw `z = wx + b` as operators (boxes) between variables (ellipses). Here is the
# graph autograd records for it; `x` does not require grad, so nothing is drawn for it and its
# entry in `MulBackward0.next_functions` is `(None, 0)`:

# %%
w = minitorch.rand(3, requires_grad=True)
x = minitorch.ones(3)
b = minitorch.rand(3, requires_grad=True)
y = w * x
z = y + b
print(z.grad_fn.next_functions[0][0].next_functions)
viz.show(z)

# %% [markdown]
# ## 5. Nodes remember tensors
#
# To compute its gradient, a node keeps what it needs from the forward pass. For built-in
# operations you can peek at it through attributes starting with `_saved` (notes 002):
# `x.pow(2)` needs `x` (`d/dx x² = 2x`), and `x.exp()` needs its own result (`d/dx eˣ = eˣ`).

# %%
x = minitorch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)

x = minitorch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)

# %% [markdown]
# The saved result is a *different* tensor object with the same values: `y` points at its
# node, and if the node held `y` itself the two would form a reference cycle. `draw` can show
# saved tensors (orange notes):

# %%
viz.show(y, show_saved=True)

# %% [markdown]
# ## 6. A new graph every forward pass
#
# The graph is not declared in advance: it is whatever the Python code did *this time*. The
# notes' `f` multiplies the positive entries of `x`, with a `for` loop and an `if`:

# %%
def f(x):
    result = 1
    for ii in x:
        if ii.item() > 0:
            result = ii * result
    return result


x = minitorch.tensor([0.3071, 1.1043, 1.3605, -0.3471], requires_grad=True)
y = f(x)    # y = x[0]*x[1]*x[2]
y.backward()
print(x.grad)
viz.show(y)

# %% [markdown]
# The notes print `1.5023` for the first entry: they ran on random inputs and printed them
# rounded to four decimals. On these rounded inputs torch 2.13 and minitorch both print
# `1.5024`. Iterating over `x` is `unbind`: one node with four outputs, and the edge labels
# say which output each product used. With other values, another graph:

# %%
x = minitorch.tensor([1.2817, 1.7840, -1.7033, 0.1302], requires_grad=True)
y = f(x)    # y = x[0]*x[1]*x[3]
y.backward()
print(x.grad)
viz.show(y)

# %% [markdown]
# Same code, different graph: this one uses outputs 0, 1 and 3 of `UnbindBackward0`. Nothing
# about the first run survives into the second — each forward builds its graph from scratch,
# which is why any Python control flow just works.
#
# ## 7. Inside minitorch
#
# How does `next_functions` get its entries? When an operation is recorded, minitorch asks
# each tensor argument for its **edge**:

# %%
print(inspect.getsource(minitorch.Tensor._edge))

# %% [markdown]
# Three cases, the whole story of this chapter: a result points at its `grad_fn` (and which
# output of it it is); a leaf that requires grad points at its `AccumulateGrad`; anything else
# gives `(None, 0)`, so backward will not go there. (The first two lines are chapter 5's
# business: views.) The leaf's accumulator is created once and then reused, which is why
# `x * x` listed the same node twice:

# %%
print(inspect.getsource(minitorch.Tensor._grad_accumulator))
print(inspect.getsource(minitorch.Tensor.is_leaf.fget))

# %% [markdown]
# It keeps only a *weak* reference to it (`weakref.ref`), as torch does: the graph owns the
# node, the tensor only finds it again while a graph still uses it.
#
# And this is how `viz.draw` finds the graph it draws: a breadth-first walk with a `seen` set,
# so that a node reached by two paths is listed once, and a plain loop instead of recursion,
# so that a graph 100 000 nodes deep does not overflow Python's stack.

# %%
print(inspect.getsource(viz.dot.walk))

# %% [markdown]
# ## Exercise 1: trace a graph (3 points)
#
# Write `trace(t)`, which returns `(nodes, edges)` for the graph that ends at tensor `t`:
#
# - `nodes`: every node reachable from `t.grad_fn` along `next_functions`, **each exactly
#   once**, with `t.grad_fn` first (the others in any order);
# - `edges`: one pair `(node, next_node)` for **every non-`None` entry** of `next_functions`,
#   for every node in `nodes`. `x * x` has two entries for the same `AccumulateGrad`, so it
#   gives two equal pairs;
# - a tensor without a `grad_fn` gives `([], [])`.
#
# Walk the graph with a loop and a stack (or queue), not with recursion: the tests trace a
# chain of 5 000 operations. Nodes compare and hash by identity, so a `set` of nodes works.
# `viz.dot.walk` above is the idea; yours takes one tensor and gives node pairs.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "trace"}
def trace(t):
    """Return (nodes, edges) of the backward graph that ends at tensor t."""
    ### BEGIN SOLUTION
    if t.grad_fn is None:
        return [], []
    nodes, edges = [t.grad_fn], []
    seen, stack = {t.grad_fn}, [t.grad_fn]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            edges.append((node, next_node))
            if next_node not in seen:
                seen.add(next_node)
                nodes.append(next_node)
                stack.append(next_node)
    return nodes, edges
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "trace_visible", "points": 1}
A = minitorch.tensor(2., requires_grad=True)
B = minitorch.tensor(.5, requires_grad=True)
E = minitorch.tensor(1., requires_grad=True)
from collections import Counter


def summary(nodes, edges):
    """What every correct trace shares, whatever its order: the first node, and how many
    nodes and edges of each kind (the next cells use it too)."""
    return (nodes[0].name() if nodes else None, Counter(n.name() for n in nodes),
            Counter((n.name(), m.name()) for n, m in edges))


F = (A * B).exp() + E
nodes, edges = trace(F)
check("the first node of trace(F): F.grad_fn", nodes[0].name() if nodes else None,
      "AddBackward0", hint="start the walk at the root's grad_fn")
check("the names of the nodes of trace(F), sorted", sorted(n.name() for n in nodes),
      ["AddBackward0", "ExpBackward0", "MulBackward0"] + ["torch::autograd::AccumulateGrad"] * 3)
check("the edges (node, next_node) of trace(F) by name, sorted",
      sorted((n.name(), m.name()) for n, m in edges), [
          ("AddBackward0", "ExpBackward0"), ("AddBackward0", "torch::autograd::AccumulateGrad"),
          ("ExpBackward0", "MulBackward0"), ("MulBackward0", "torch::autograd::AccumulateGrad"),
          ("MulBackward0", "torch::autograd::AccumulateGrad")],
      hint="an edge goes from a node to each non-None node in its next_functions")

x = minitorch.tensor(3., requires_grad=True)
nodes, edges = trace(x * x + x)
check("the number of nodes of trace(x * x + x)", len(nodes), 3,
      hint="each node once, even when two paths reach it")
check("the number of edges of trace(x * x + x)", len(edges), 4,
      hint="one edge per non-None next_functions entry: MulBackward0 reaches x's "
           "AccumulateGrad twice")
deep = x
for _ in range(5000):  # deeper than Python's recursion limit, as the instructions say
    deep = deep * 1.0
nodes, edges = check_runs("trace on a chain of 5 000 multiplications", lambda: trace(deep),
                          hint="walk with a loop and a stack (or queue) of your own, not "
                               "recursion")
check("the number of nodes of trace on a chain of 5 000 multiplications", len(nodes), 5001)
### BEGIN HIDDEN TESTS
p = minitorch.tensor([1., 2.], requires_grad=True)
observe(summary(*trace((p.exp() * p).sum())), summary(*trace(p * p * p)))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "trace_hidden", "points": 2}
check("trace of a leaf", trace(minitorch.tensor(1., requires_grad=True)), ([], []),
      hint="a leaf has no grad_fn: no nodes, no edges")
### BEGIN HIDDEN TESTS
def check_trace(t, n_nodes):
    """trace(t) is closed under next_functions, lists each node once, and each edge once
    per non-None entry; it has n_nodes nodes (counted by hand). Returns its summary."""
    nodes, edges = trace(t)
    expect(f"whether the first node of a trace of {n_nodes} nodes is the root's grad_fn",
           bool(nodes) and nodes[0] is t.grad_fn)
    expect(f"the number of nodes, and of distinct nodes, of a trace of {n_nodes} nodes",
           [len(nodes), len({id(n) for n in nodes})],
           hint="each node once: remember the nodes already seen (by identity)")
    listed = {id(n) for n in nodes}
    expected, got, unlisted = {}, {}, set()
    for node in nodes:
        for next_node, _ in node.next_functions:
            if next_node is not None:
                if id(next_node) not in listed:
                    unlisted.add(f"{next_node.name()} (an input of {node.name()})")
                key = (id(node), id(next_node))
                expected[key] = expected.get(key, 0) + 1
    expect(f"the inputs of listed nodes that a trace of {n_nodes} nodes does not list",
           sorted(unlisted), hint="follow every non-None next_functions entry")
    for node, next_node in edges:
        key = (id(node), id(next_node))
        got[key] = got.get(key, 0) + 1
    expect(f"the number of edges of a trace of {n_nodes} nodes", len(edges),
           hint="one (node, next_node) pair per non-None next_functions entry")
    expect(f"whether each edge of a trace of {n_nodes} nodes is (node, one of its inputs)",
           got == expected, hint="the pair is (node, next_node), in that order")
    return summary(nodes, edges)


with minitorch.course.switched_off("viz.dot.walk", "engine.discover"):
    expect("trace of a result that does not require grad", trace(minitorch.tensor([1., 2.]) * 2))
    a = minitorch.tensor([1., 2.], requires_grad=True)
    summaries = [check_trace(a * minitorch.tensor([3., 4.]), 2)]  # (None, 0): the constant
    summaries.append(check_trace(a * 2 + 1, 3))
    y = a
    for _ in range(10):                                 # 2**10 paths, 11 nodes
        y = y + y
    summaries.append(check_trace(y, 11))
    y = a
    for _ in range(5000):                               # deeper than Python's recursion
        y = y * 1.0
    summaries.append(check_trace(y, 5001))
    p, q, r, _ = minitorch.tensor([0.3071, 1.1043, 1.3605, -0.3471], requires_grad=True)
    summaries.append(check_trace(r * (q * (p * 1)), 5))  # 3 x Mul, Unbind, AccumulateGrad
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    # Sum, 2 Addmm, 2 T, Relu and 4 AccumulateGrad
    summaries.append(check_trace(net(minitorch.ones(2, 3)).sum(), 10))
    observe(trace(minitorch.tensor(1.) * a.detach()), *summaries)
### END HIDDEN TESTS

# %% [markdown]
# Your trace works on any graph minitorch builds: the notes' `z = wx + b`, and the second run
# of `f`.

# %%
with minitorch.course.needs("trace"):
    print([n.name() for n in trace(z)[0]])
    nodes, edges = trace(f(minitorch.tensor([1.2817, 1.7840, -1.7033, 0.1302],
                                            requires_grad=True)))
    print(len(nodes), "nodes,", len(edges), "edges")

# %% [markdown]
# ## Exercise 2: find the leaves (2 points)
#
# Write `leaves(t)`: the list of **tensors** whose `.grad` a `t.backward()` would fill — the
# `.variable` of every `AccumulateGrad` node reachable from `t`, each tensor once (in any
# order). Tensors, not nodes. A leaf that requires grad is its own answer (`leaves(x)` is
# `[x]`); a tensor that does not require grad has none.
#
# You may build on your `trace`, or walk the graph again. An accumulator is an
# `minitorch.autograd.graph.AccumulateGrad`, the only kind of node with a `.variable`.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "leaves"}
def leaves(t):
    """Return the tensors that t.backward() would accumulate gradients into."""
    ### BEGIN SOLUTION
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    nodes, _ = trace(t)
    return [node.variable for node in nodes if hasattr(node, "variable")]
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "leaves_visible", "points": 1}
A = minitorch.tensor(2., requires_grad=True)
B = minitorch.tensor(.5, requires_grad=True)
E = minitorch.tensor(1., requires_grad=True)
def canonical(found):
    """The leaves as the grader compares them: their values (distinct here), in any order."""
    return sorted((minitorch.course.observed(t) for t in found), key=repr)


found = leaves((A * B).exp() + E)
check("the types of what leaves() returned", sorted({type(t).__name__ for t in found}),
      ["Tensor"], hint="return the tensors (an AccumulateGrad's .variable), not the nodes")
check("the leaves of (A * B).exp() + E, as A, B, E or 'other'",
      sorted("A" if t is A else "B" if t is B else "E" if t is E else "other" for t in found),
      ["A", "B", "E"])
### BEGIN HIDDEN TESTS
p = minitorch.tensor([1., 2.], requires_grad=True)
q = minitorch.tensor(3., requires_grad=True)
observe(canonical(leaves((p * q).sum() * minitorch.tensor(5.) + q)), canonical(leaves(p * p)))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "leaves_hidden", "points": 1}
x = minitorch.tensor(3., requires_grad=True)
found = leaves(x * x + x)
check("the leaves of x * x + x, as x or 'other'", ["x" if t is x else "other" for t in found],
      ["x"], hint="x once, though three edges reach it")
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("viz.dot.walk", "engine.discover"):
    expect("leaves(x) of a leaf x, as x or 'other'", ["x" if t is x else "other"
                                                    for t in leaves(x)],
           hint="a leaf that requires grad is its own leaf")
    expect("how many leaves a tensor without grad has", len(leaves(minitorch.tensor(1.))))
    expect("how many leaves a result without grad has", len(leaves(minitorch.tensor(1.) * 2)))
    observe(canonical(leaves(x)), canonical(leaves(minitorch.tensor(1.) * 2)))
    w = minitorch.tensor([1., 2.], requires_grad=True)
    found = leaves(w * minitorch.tensor([3., 4.]))
    expect("the leaves of w * a constant, as w or 'other'",
           ["w" if t is w else "other" for t in found],
           hint="a None entry of next_functions (a constant) is no leaf")
    observe(canonical(found))
    cut = (w * 2).detach() * x                         # detach() cuts w off the graph
    found = leaves(cut)
    expect("the leaves of (w * 2).detach() * x, as x or 'other'",
           ["x" if t is x else "other" for t in found])
    observe(canonical(found))
    y = w
    for _ in range(5000):
        y = y * 1.0
    found = check_runs("leaves of a chain 5000 deep", lambda: leaves(y),
                       hint="walk with a stack of your own, not recursion")
    expect("the leaves of a chain 5000 deep, as w or 'other'",
           ["w" if t is w else "other" for t in found],
           hint="walk with a stack of your own, not recursion")
    observe(canonical(found))
    minitorch.manual_seed(1)                           # observed parameter values
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    inputs = minitorch.ones(2, 3, requires_grad=True)
    found = leaves(net(inputs).sum())
    candidates = [*net.parameters(), inputs]
    expect("the leaves of a small MLP's output: which of its 4 parameters and its input were "
           "found, in any order, and how many leaves in all",
           [[any(t is leaf for leaf in found) for t in candidates], len(found)])
    observe(canonical(found))
### END HIDDEN TESTS

# %% [markdown]
# The leaves of a model's loss are its parameters (and any input that requires grad): exactly
# what an optimizer updates.

# %%
net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
with minitorch.course.needs("leaves"):
    print([tuple(t.shape) for t in leaves(net(minitorch.ones(4, 3)).sum())])

# %% [markdown]
# ## Exercise 3: predict `requires_grad` and `is_leaf` (2 points)
#
# With these three tensors and a `Linear` layer:

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "table_setup"}
a = minitorch.tensor([1., 2.], requires_grad=True)
b = minitorch.tensor([3., 4.])
lin = nn.Linear(2, 1)
EXPRESSIONS = [
    "a",
    "b",
    "a * b",
    "b * 2",
    "(a * b).sum()",
    "a[0]",
    "a.detach()",
    "a.detach().requires_grad_()",
    "lin.weight",
    "lin(b)",
    "with no_grad(): a",
    "with no_grad(): a * b",
]

# %% [markdown]
# what are `requires_grad` and `is_leaf` of each expression's result? (`with no_grad(): e`
# means the value of `e` computed inside `with minitorch.no_grad():`.) Fill `predictions` with a pair
# `(requires_grad, is_leaf)` for each string of `EXPRESSIONS`, **without running them** —
# reason from the two rules of section 4 (and the three cases after them). The first is done for you; add the others below it
# (`predictions["b"] = (..., ...)`). Then check yourself in a new cell, if you like.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "table"}
predictions = {
    "a": (True, True),
}
### BEGIN SOLUTION
predictions.update({
    "b": (False, True),
    "a * b": (True, False),
    "b * 2": (False, True),
    "(a * b).sum()": (True, False),
    "a[0]": (True, False),
    "a.detach()": (False, True),
    "a.detach().requires_grad_()": (True, True),
    "lin.weight": (True, True),
    "lin(b)": (True, False),
    "with no_grad(): a": (True, True),
    "with no_grad(): a * b": (False, True),
})
### END SOLUTION

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "table_visible", "points": 1}
check("the keys of predictions", sorted(predictions), sorted(EXPRESSIONS))
check("the expressions whose prediction is not a pair of bools",
      sorted(e for e, v in predictions.items() if not (isinstance(v, tuple) and len(v) == 2
                                                       and all(isinstance(f, bool) for f in v))),
      [], hint="each value is a pair (requires_grad, is_leaf) of bools")
check('predictions["a * b"]', predictions["a * b"], (True, False), hint="C = A * B in section 1")
### BEGIN HIDDEN TESTS
observe({e: repr(predictions.get(e)) for e in ("b", "b * 2", "(a * b).sum()", "a[0]",
                                               "a.detach()")})
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "table_hidden", "points": 1}
check("the number of predictions", len(predictions), len(EXPRESSIONS))
### BEGIN HIDDEN TESTS
observe({e: repr(predictions.get(e)) for e in EXPRESSIONS})
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 4: draw it yourself (3 points)
#
# Graphviz draws graphs written in its DOT language. Write `to_dot(nodes, edges)`, which
# takes what `trace` returns and gives the DOT source of a directed graph:
#
# ```
# digraph {
#     n0 [label="AddBackward0" shape=box]
#     n1 [label="AccumulateGrad" shape=ellipse]
#     n1 -> n0
# }
# ```
#
# - one line per node: an id of your choice (letters, digits, `_`), then
#   `[label="<type(node).__name__>" shape=...]` — the node's class name, as torchviz labels
#   it (not `name()`, whose `torch::autograd::` would crowd the picture); `ellipse` for
#   `AccumulateGrad` nodes, `box` for the others;
# - one line per pair in `edges`, `tail -> head`, pointing **the way the forward pass went**
#   (as in `viz.draw`): from `next_node`, the input, to `node`, which consumed it. Equal
#   pairs give equal lines.
#
# Two nodes with the same name are different nodes: give every node its own id.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "to_dot"}
def to_dot(nodes, edges):
    """Return the DOT source of the graph (nodes, edges) given by trace."""
    ### BEGIN SOLUTION
    ids = {id(node): f"n{k}" for k, node in enumerate(nodes)}
    lines = ["digraph {"]
    for node in nodes:
        shape = "ellipse" if hasattr(node, "variable") else "box"
        lines.append(f'    {ids[id(node)]} [label="{type(node).__name__}" shape={shape}]')
    for node, next_node in edges:
        lines.append(f"    {ids[id(next_node)]} -> {ids[id(node)]}")
    lines.append("}")
    return "\n".join(lines)
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "to_dot_visible", "points": 1}
import re


def parse_dot(text):
    """{id: (label, shape)} and [(tail, head)] of a DOT digraph, one statement per line."""
    nodes, arrows = {}, []
    for line in text.splitlines():
        arrow = re.match(r'\s*"?(\w+)"?\s*->\s*"?(\w+)"?', line)
        node = re.match(r'\s*"?(\w+)"?\s*\[(.*)\]', line)
        if arrow:
            arrows.append(arrow.groups())
        elif node and node.group(1) not in ("graph", "node", "edge"):
            attrs = dict(re.findall(r'(\w+)\s*=\s*"?([\w.]+)"?', node.group(2)))
            nodes[node.group(1)] = (attrs.get("label"), attrs.get("shape"))
    return nodes, arrows


def drawing(nodes, edges):
    """What every correct DOT of (nodes, edges) shares: the nodes drawn (label, shape) and
    the arrows (tail label, head label), sorted."""
    drawn, arrows = parse_dot(to_dot(nodes, edges))
    named = sorted((drawn.get(tail, ("?",))[0], drawn.get(head, ("?",))[0])
                   for tail, head in arrows)
    return sorted(drawn.values(), key=repr), named


A = minitorch.tensor(2., requires_grad=True)
B = minitorch.tensor(.5, requires_grad=True)
E = minitorch.tensor(1., requires_grad=True)
F = (A * B).exp() + E
add = F.grad_fn
(exp, _), (acc_e, _) = add.next_functions
mul = exp.next_functions[0][0]
(acc_a, _), (acc_b, _) = mul.next_functions
text = to_dot([add, exp, acc_e, mul, acc_a, acc_b],
              [(add, exp), (add, acc_e), (exp, mul), (mul, acc_a), (mul, acc_b)])
check("the first word of the DOT text", text.split()[0] if text.split() else "", "digraph")
check("the number of arrows (->) for 5 edges", text.count("->"), 5,
      hint="one arrow per edge, a pair listed twice included")
check('how many nodes are labelled AccumulateGrad and MulBackward0',
      [text.count('label="AccumulateGrad"'), text.count('label="MulBackward0"')], [3, 1],
      hint='one node statement per node, each with label="<its type(node).__name__>"')
### BEGIN HIDDEN TESTS
v = minitorch.tensor(3., requires_grad=True)
g = v * v * v.exp()                                    # two MulBackward0
(g_mul, _), (g_exp, _) = g.grad_fn.next_functions
g_acc = g_exp.next_functions[0][0]
observe(drawing([g.grad_fn, g_mul, g_exp, g_acc], [(g.grad_fn, g_mul), (g.grad_fn, g_exp),
                                                  (g_mul, g_acc), (g_mul, g_acc), (g_exp, g_acc)]))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "to_dot_hidden", "points": 2}
x = minitorch.tensor(3., requires_grad=True)
check('whether the DOT of x.exp() labels a node "ExpBackward0"',
      'label="ExpBackward0"' in to_dot([x.exp().grad_fn], []), True)
### BEGIN HIDDEN TESTS
def check_dot(nodes, edges):
    drawn, arrows = parse_dot(to_dot(nodes, edges))
    expect(f"the number of node statements for {len(nodes)} nodes", len(drawn),
           hint="one node statement per node, each with its own id")
    expect("the labels of the nodes drawn, sorted", sorted(label for label, _ in drawn.values()))
    expect("the shape of each kind of node drawn, (label, shape) sorted",
           sorted({(label, shape) for label, shape in drawn.values()}))
    got = sorted((drawn.get(tail, ("?",))[0], drawn.get(head, ("?",))[0])
                 for tail, head in arrows)
    expect("the arrows (tail label, head label), sorted", got,
           hint="one arrow per pair, from the input (next_node) to its consumer",
           mistakes={"the arrows point from the consumer to its input": sorted(
              (type(n).__name__, type(m).__name__) for n, m in edges)})
    observe(drawing(nodes, edges))
    return arrows


check_dot([add, exp, acc_e, mul, acc_a, acc_b],
          [(add, exp), (add, acc_e), (exp, mul), (mul, acc_a), (mul, acc_b)])
x = minitorch.tensor(3., requires_grad=True)
y = x * x
acc_x = y.grad_fn.next_functions[0][0]
check_dot([y.grad_fn, acc_x], [(y.grad_fn, acc_x), (y.grad_fn, acc_x)])
u, v = minitorch.tensor(1., requires_grad=True), minitorch.tensor(2., requires_grad=True)
s = u.exp() + v.exp()                                  # two ExpBackward0, two ids
(e1, _), (e2, _) = s.grad_fn.next_functions
a1, a2 = e1.next_functions[0][0], e2.next_functions[0][0]
arrows = check_dot([s.grad_fn, e1, e2, a1, a2],
                   [(s.grad_fn, e1), (s.grad_fn, e2), (e1, a1), (e2, a2)])
expect("the number of distinct arrow tails of u.exp() + v.exp()", len({tail for tail, _ in arrows}),
       hint="each node has its own id, also two nodes of the same name")
expect("the DOT of no nodes and no edges, parsed", parse_dot(to_dot([], [])))
observe(drawing([], []))
### END HIDDEN TESTS

# %% [markdown]
# Your DOT, drawn by Graphviz:

# %%
with minitorch.course.needs("trace", "to_dot"):
    display(viz.Source(to_dot(*trace(F))))

# %% [markdown]
# ## Plug it in: your trace draws minitorch's pictures
#
# `viz.draw` finds the graph with `viz.dot.walk`, a **seam**: `viz.use(trace)` puts your
# `trace` in its place for the duration of a `with` block (minitorch turns your node pairs
# into its own edges, and refuses pairs that are not in `next_functions`). Here is the notes'
# MLP, with two branches that meet again, drawn by your walk:

# %%
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


mlp = MLP()
x = minitorch.ones([10], requires_grad=True)
z = minitorch.sum(mlp(x))
with minitorch.course.needs("trace"), viz.use(trace):
    picture = viz.draw(z, name_from_caller=True)
    display(picture)

# %% [markdown]
# Same picture as minitorch's own walk? Count the drawn nodes and arrows of both:

# %%
reference = viz.draw(z, name_from_caller=True)
with minitorch.course.needs("trace"):
    print(picture.source.count("->"), reference.source.count("->"))
    print(picture.source.count("label="), reference.source.count("label="))

# %% [markdown]
# ## What PyTorch does
#
# Everything in this chapter is torch's design: `grad_fn`, `next_functions` as
# `(node, output_nr)` pairs, one `AccumulateGrad` per leaf with its `.variable`, the warning
# on a non-leaf's `.grad`. torch's nodes are C++ objects, but they answer the same questions,
# so your `trace`, `leaves` and `to_dot` run unchanged on a torch graph — if they recognise an
# accumulator by its `.variable` (or its class), not by `name()`: torch's is
# `torch::autograd::AccumulateGrad`, as minitorch's.
# (torchviz's `make_dot` is the grown-up version of your `to_dot`.)

# %%
if os.environ.get("NBGRADER_EXECUTION"):
    torch = None  # this cell grades nothing: spare the grader torch's slow import
else:
    try:
        import torch
    except ImportError:
        torch = None

if torch is None:
    print("torch is not installed here (or nbgrader is grading): this comparison is skipped")
else:
    tA = torch.tensor(2., requires_grad=True)
    tB = torch.tensor(.5, requires_grad=True)
    tE = torch.tensor(1., requires_grad=True)
    tF = (tA * tB).exp() + tE
    print(tF, tF.grad_fn.next_functions)
    with minitorch.course.needs("trace", "leaves", "to_dot"):
        nodes, edges = trace(tF)
        print([n.name() for n in nodes])
        print([t is tA or t is tB or t is tE for t in leaves(tF)])
        display(viz.Source(to_dot(nodes, edges)))
