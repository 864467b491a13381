# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Chapter 2: a manual backward
#
# In chapter 1 the forward pass left a graph behind: every result points to its `grad_fn`, and
# every `grad_fn` points on through `next_functions`, down to the `AccumulateGrad` nodes of the
# leaves. This chapter is about the program that walks that graph when you call
# `loss.backward()`: the **engine**.
#
# We will first do its job by hand, then run the naive engine from the notes and count how much
# work it wastes, then read minitorch's engine, and finally write our own — and train a small
# network with it.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "setup"}
import os
import warnings

if os.environ.get("NBGRADER_EXECUTION"):  # autograde and validate: keep graded cells silent
    warnings.simplefilter("ignore")

import inspect
from collections import Counter

import numpy as np

import minitorch
import minitorch.viz as viz
from minitorch.autograd import engine
from minitorch.checks import check, check_runs
from minitorch.course import expect, observe

# %% [markdown]
# ## 1. Calling the `grad_fn`s by hand
#
# Here is the notes' second graph, at A = 3 and B = 2:
#
# $$C = A^2,\quad D = B^2,\quad E = C\,D,\quad F = D + E.$$
#
# D is used twice: by E and by F. Keep an eye on it.

# %%
A = minitorch.tensor([3.], requires_grad=True)
B = minitorch.tensor([2.], requires_grad=True)
C = A ** 2
D = B ** 2
E = C * D
F = D + E
viz.draw(F, name_from_caller=True)

# %% [markdown]
# A node is callable: give it the gradient of its output, and it returns the gradients of its
# inputs, one per entry of `next_functions`. So we can play engine ourselves, node by node,
# from F down. The one thing to get right is D: it gets a gradient from F *and* from E, and we
# must add the two before calling `D.grad_fn`.

# %%
F.manual_grad = minitorch.tensor(1)
D.manual_grad, E.manual_grad = F.grad_fn(F.manual_grad)
C.manual_grad, tmp2 = E.grad_fn(E.manual_grad)
D.manual_grad = D.manual_grad + tmp2          # first sum D's two gradients, then go on
A.manual_grad = C.grad_fn(C.manual_grad)
B.manual_grad = D.grad_fn(D.manual_grad)
A.manual_grad, B.manual_grad

# %% [markdown]
# 24 and 40, as in the notes: $\partial F/\partial A = 2A\,D = 24$ and
# $\partial F/\partial B = 2B\,(1 + C) = 40$. The results carry a `grad_fn`: a node called by
# hand runs in the current grad mode, so its arithmetic is recorded like any other. (A real
# backward turns recording off unless you ask for `create_graph=True`.)
#
# ## 2. The notes' naive autograd
#
# The notes automate this with a queue: pop a node, call it, push its inputs with the
# gradients it returned; a leaf adds what it gets into an `auto_grad` attribute. We add one
# line that counts how often each node is called.

# %%
def autograd(grad_fn, gradient, visits=None):
    """The notes' queue-based autograd, plus a `visits` counter of node calls."""
    visits = Counter() if visits is None else visits
    queue = [[grad_fn, gradient]]
    while queue != []:
        item = queue.pop()
        visits[item[0]] += 1
        gradients = item[0](item[1])
        functions = [x[0] for x in item[0].next_functions]
        if type(gradients) is not tuple:
            gradients = (gradients, )
        for grad, func in zip(gradients, functions):
            if type(func).__name__ == 'AccumulateGrad':
                if hasattr(func.variable, 'auto_grad'):
                    func.variable.auto_grad = func.variable.auto_grad + grad
                else:
                    func.variable.auto_grad = grad
            else:
                queue.append([func, grad])
    return visits


visits = autograd(F.grad_fn, minitorch.tensor(1))
print(A.auto_grad, B.auto_grad)
print("D.grad_fn ran", visits[D.grad_fn], "times")

# %% [markdown]
# The values are right. (The notes, on torch 1.7, printed `tensor(24., grad_fn=<UnbindBackward>)`
# for A; torch 2.13 prints `tensor([24.], grad_fn=<MulBackward0>)`, and so does minitorch.)
#
# But `D.grad_fn` ran **twice**: once with the gradient from F, once with the gradient from E.
# The naive engine never waits for a node's gradients to be complete; it sends each part on
# as soon as it arrives. The sum still comes out right (backward is linear in the gradient),
# but the work does not. Double the paths at every step, `y = y + y` a dozen times over, and
# each node is reached twice as often as the one above it.

# %%
for layers in (1, 4, 8, 12):
    x = minitorch.tensor(1., requires_grad=True)
    y = x
    for _ in range(layers):
        y = y + y
    calls = sum(autograd(y.grad_fn, minitorch.tensor(1.)).values())
    print(f"depth {layers:2d}: {calls:5d} node calls for {layers:2d} nodes, "
          f"x.auto_grad = {x.auto_grad}")

# %% [markdown]
# Exponential. And the waste is not only time: a node that runs on part of its gradient is
# wrong wherever the *whole* gradient matters — a hook that clips it, a `retain_grad()`. And
# an engine that frees a node's saved tensors once it has run (the real one does, unless
# `retain_graph=True`) could not run it a second time. The notes add one more limit: the
# example works only where every op has a single output. It hands a node **one** gradient
# per call (`item[0](item[1])`), so a node with several outputs, such as `unbind`, would be
# called with the gradient of one of them alone; the real engine collects one gradient per
# output in a buffer before it calls the node. (The `type(gradients) is not tuple` line
# is about the other side, a node's *inputs*: a node with one input returns a bare tensor.)
#
# ### The MLP from the notes
#
# The naive engine still agrees with `backward()` on a real model. The MLP has a shared hidden
# layer feeding two heads, `fc2` and `fc3`: a diamond again. (Your numbers differ from the
# notes': the weights are random. What matters is that the two lines agree.)

# %%
class MLP(minitorch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = minitorch.nn.Linear(10, 5)
        self.relu = minitorch.nn.ReLU()
        self.fc2 = minitorch.nn.Linear(5, 2)
        self.fc3 = minitorch.nn.Linear(5, 2)
        self.fc4 = minitorch.nn.Linear(2, 2)

    def forward(self, x):
        x = self.fc1(x)
        x = self.relu(x)
        x1 = self.fc2(x)
        x2 = self.fc3(x)
        x2 = self.relu(x2)
        x2 = self.fc4(x2)
        return x1 + x2


minitorch.manual_seed(0)
x = minitorch.ones([10], requires_grad=True)
mlp = MLP()
mlp_state_dict = mlp.state_dict()

mlp = MLP()
mlp.load_state_dict(mlp_state_dict)
z = minitorch.sum(mlp(x))
mlp_visits = autograd(z.grad_fn, minitorch.tensor(1.))
print(x.auto_grad)

mlp = MLP()
mlp.load_state_dict(mlp_state_dict)
z = minitorch.sum(mlp(x))
z.backward()
print(x.grad)
print("nodes called twice by the naive engine:",
      sorted(node.name() for node, n in mlp_visits.items() if n > 1))

# %% [markdown]
# ## 3. The real engine: wait for every consumer
#
# PyTorch's engine (and minitorch's) fixes this with one number per node: its **dependency
# count**, how many edges point to it from nodes that will run. Before running anything it
# walks the graph once and counts. Then:
#
# 1. the root gets the initial gradient and is *ready*;
# 2. a ready node runs **once**, on the sum of the gradients it received;
# 3. each gradient it returns is *added* into its input's buffer, and that input's count drops
#    by one; at zero, every consumer has delivered, and the input is ready.
#
# Step through it: watch D wait (count 2, then 1) until both F and E have delivered.
# (Use the buttons; outside Jupyter, `stepper.steps` holds the same information.)

# %%
A = minitorch.tensor([3.], requires_grad=True)
B = minitorch.tensor([2.], requires_grad=True)
C = A ** 2
D = B ** 2
E = C * D
F = D + E
stepper = viz.BackwardStepper(F)
print([step.title for step in stepper.steps])
stepper

# %% [markdown]
# ### minitorch's engine, opened
#
# The counting walk is `engine.discover`. No recursion: the path from the root is a list, with
# a second list counting the edges walked at each of its nodes, so a chain of 100 000 nodes is
# fine. It returns the counts and the nodes in post-order (every node after all the nodes it
# leads to).

# %%
print(inspect.getsource(engine.discover))

# %%
deps, post_order = engine.discover([F.grad_fn])
print("D waits for", deps[D.grad_fn], "gradients, E for", deps[E.grad_fn])
print("post-order:", [node.name() for node in post_order])

# %% [markdown]
# `engine.execute` is longer, because it also serves `autograd.grad` (the `capture` of chosen
# edges), hooks, anomaly mode and the profiler. Its heart is this loop:
#
# ```python
# ready = [(-n._seq, n) for n in root_nodes if deps.get(n, 0) == 0]
# heapq.heapify(ready)
# while ready:
#     _, node = heapq.heappop(ready)                # the latest-created ready node first
#     grads = buffers.pop(node, None) or [None] * node._n_outputs
#     outs = _run_node(node, tuple(grads))          # hooks, then node._apply(grads)
#     if not keep_graph:
#         node._release()                           # free the saved tensors: retain_graph
#     for (child, nr), grad in zip(node.next_functions, outs):
#         if grad is not None:
#             _deliver(buffers, child, nr, grad)    # buf[nr] = grad if empty else buf[nr] + grad
#         deps[child] -= 1
#         if deps[child] == 0:
#             heapq.heappush(ready, (-child._seq, child))
# ```
#
# Three details worth noticing:
#
# * **The ready queue is a heap ordered by creation.** Every node gets a sequence number
#   `_seq` when the forward creates it; among ready nodes, the one created last runs first, as
#   in torch. An `AccumulateGrad` gets the largest `_seq` of all (torch's `UINT64_MAX`), so a
#   leaf's gradient is stored as soon as it is ready. Any order that respects the counts gives
#   the same gradients; this one also runs the most recent part of the forward first and
#   fires hooks in torch's order.
# * **Buffers sum.** `_deliver` adds a gradient to what is already waiting for the same
#   output of the same node. That is the line the naive engine was missing.
# * **Leaves are nodes too.** An `AccumulateGrad` node runs like any other; its `_apply` adds
#   into `.grad` (creating it the first time). That is why gradients *accumulate* across
#   backward calls — see below.
#
# ## 4. What the engine gives you
#
# Everything below runs through `engine.execute`.
#
# **Accumulation, and `zero_`.** Leaves add into `.grad`; they never overwrite it. (The notes
# spell the leaf `Variable(tensor, requires_grad=True)`, PyTorch's name before version 0.4
# merged `Variable` into `Tensor`; `minitorch.autograd.Variable` keeps the old spelling and
# gives an ordinary leaf tensor, as torch's does. Chapter 4 uses it the same way.)

# %%
x = minitorch.autograd.Variable(minitorch.ones(1, 2), requires_grad=True)
for _ in range(3):
    x.sum().backward()
    print(x.grad)

# %%
x = minitorch.autograd.Variable(minitorch.ones(1, 2), requires_grad=True)
x.sum().backward()
print(x.grad)
x.grad.zero_()
x.sum().backward()
print(x.grad)
x.grad.zero_()
x.sum().backward()
print(x.grad)

# %% [markdown]
# **Backward with a gradient argument.** For a non-scalar output, `backward(gradient)` starts
# the engine with `gradient` instead of 1: you get the gradient of `(y * gradient).sum()`.

# %%
x = minitorch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = minitorch.add(minitorch.pow(x, 2), x)
print(y)
gradient = minitorch.tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
y.backward(gradient)  # 2x + 1
print(x.grad)

x = minitorch.tensor([1., 2., 3.], requires_grad=True)
y = minitorch.pow(x, 2)
y.backward(minitorch.tensor([1.0, 0.1, 0.001]))
print(x.grad)

# %% [markdown]
# **`retain_graph`.** After a node runs, the engine frees what it saved for backward, so a
# second backward through the same graph fails — unless the first one said
# `retain_graph=True`.

# %%
A = minitorch.tensor(2., requires_grad=True)
B = minitorch.tensor(.5, requires_grad=True)
D = (A * B).exp()
D.backward(retain_graph=True)
D.backward()                     # fine: the graph was kept
print(A.grad)                    # 1.3591 twice: accumulated
try:
    D.backward()                 # the graph was freed by the previous call
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# What the second backward misses is only what the nodes *saved*: `exp` saved its result. A
# graph whose nodes saved nothing (the derivative of `x + 1` needs no value) can be walked
# again. And notes 001 add a caveat to `retain_graph`: setting it is *almost never
# necessary*, there is nearly always a better way. Two losses computed from one forward, for
# instance, need one backward of their sum, not two backwards with the graph kept:

# %%
x = minitorch.tensor(0., requires_grad=True)
y = x + 1
y.backward()
y.backward()                     # no node saved a tensor: nothing was freed
print("x + 1, backward twice:", x.grad)

x = minitorch.tensor(0., requires_grad=True)
y = x.exp()
loss1, loss2 = y * 2, y * 3
(loss1 + loss2).backward()       # one backward, instead of loss1's with retain_graph=True
print("one backward of loss1 + loss2:", x.grad)

# %% [markdown]
# **Gradients of intermediate results.** To save memory, backward keeps gradients of leaves
# only (`C.grad` is `None` and warns). Two ways to see an intermediate gradient: ask
# `autograd.grad`, which returns the gradients that reach the chosen tensors and leaves
# `.grad` alone, or register a hook on the tensor, which the engine calls with the gradient as
# it passes by.

# %%
A = minitorch.tensor(2., requires_grad=True)
B = minitorch.tensor(.5, requires_grad=True)
C = A * B
D = C.exp()
minitorch.autograd.grad(D, (C, A))

# %% [markdown]
# `grad` refuses an input that the output does not depend on, since a gradient of "nothing"
# is more often a bug than a wish; `allow_unused=True` (notes 001) gives `None` for it
# instead. (The notes' `only_inputs` is deprecated and ignored: `grad` never touches `.grad`.)

# %%
unused = minitorch.tensor(1., requires_grad=True)
D = (A * B).exp()
try:
    minitorch.autograd.grad(D, (A, unused), retain_graph=True)
except RuntimeError as error:
    print("RuntimeError:", error)
print(minitorch.autograd.grad(D, (A, unused), allow_unused=True))

# %%
def variable_hook(grad):
    print('the gradient of C is：', grad)


A = minitorch.tensor(2., requires_grad=True)
B = minitorch.tensor(.5, requires_grad=True)
C = A * B
hook_handle = C.register_hook(variable_hook)
D = C.exp()
D.backward()
hook_handle.remove()

# %% [markdown]
# The same two ways on the textbook's $z = \sum_i x_i w_i$ (seed 004). The first `grad` call
# keeps the graph for the second: the two are separate backward passes over the same graph.

# %%
minitorch.manual_seed(0)
x = minitorch.ones(3, requires_grad=True)
w = minitorch.rand(3, requires_grad=True)
y = x * w
z = y.sum()
print(minitorch.autograd.grad(z, y, retain_graph=True))
print(minitorch.autograd.grad(z, x), "= w:", w.detach())


def y_hook(grad):
    print('the gradient of y:', grad)


y = x * w
hook_handle = y.register_hook(y_hook)
y.sum().backward()
hook_handle.remove()

# %% [markdown]
# **`create_graph`: gradients of gradients.** With `create_graph=True` the engine records the
# backward's own arithmetic, so the gradient has a `grad_fn` and can be differentiated again.
# For $y = x^3$ at $x = 5$: $3x^2 = 75$, then $6x = 30$.

# %%
x = minitorch.tensor(5.0, requires_grad=True)
y = minitorch.pow(x, 3)
grad_x = minitorch.autograd.grad(y, x, create_graph=True)
print(grad_x)
grad_grad_x = minitorch.autograd.grad(grad_x[0], x)
print(grad_grad_x)

# %% [markdown]
# Without `create_graph=True` the first gradient is a plain tensor with no `grad_fn`, and
# asking for its gradient is the error of a `backward()` on a tensor that requires no grad.
#
# **Where there is no derivative.** `relu`, `abs` and `sqrt` have no derivative at 0, yet
# backward has to return *some* number there. Notes 002 give PyTorch's rules, tried in order:
#
# 1. if the function is differentiable at the point, use the derivative;
# 2. if it is convex there (at least locally), use the subgradient of **minimum norm**;
# 3. if it is concave there, use the supergradient of minimum norm;
# 4. if it is defined there, use the limit of the derivative (continuity), which may be `inf`;
# 5. if it is not defined (`sqrt(-1)`, `log(-1)`, a `nan` input), any value: usually `nan`.
#
# The chain rule then multiplies these choices like any other numbers. The notes' warning:
# $f(x) = \mathrm{relu}(x) - \mathrm{relu}(-x)$ is just $x$, yet its gradient at 0 comes out 0,
# not 1, because each relu contributes its own choice at the kink:

# %%
x = minitorch.tensor(0., requires_grad=True)
(x.relu() - (-x).relu()).backward()
print(x.grad)

# %% [markdown]
# ## Exercise 1: a topological order (3 points)
#
# Write `topological_order(root)`: every node reachable from the node `root`, each exactly
# once, in an order where **every node comes before all the nodes it leads to** (so `root`
# comes first and the `AccumulateGrad` nodes of the leaves come late). This is the order in
# which an engine may run the nodes.
#
# * Children are `node.next_functions`, pairs `(child, output_nr)`; `child` may be `None`
#   (an input that needs no gradient): skip it.
# * No recursion: a 10 000-node chain must work. Use an explicit stack.
# * Careful: visiting in breadth-first order, or listing a node when you first meet it, is
#   not enough. In the notes' graph F reaches D directly *and* through E; D must come after E.
#
# Hint: list each node once all its children are listed (post-order), then reverse.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "topological_order"}
def topological_order(root):
    """The nodes reachable from `root`, each before every node it leads to."""
    ### BEGIN SOLUTION
    order, seen = [], {root}
    stack = [(root, iter(root.next_functions))]
    while stack:
        node, children = stack[-1]
        for child, _ in children:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append((child, iter(child.next_functions)))
                break
        else:  # every child is listed: now this node can be
            stack.pop()
            order.append(node)
    order.reverse()
    return order
    ### END SOLUTION


# %% [markdown]
# Try it on the notes' graph:

# %%
A = minitorch.tensor([3.], requires_grad=True)
B = minitorch.tensor([2.], requires_grad=True)
C = A ** 2
D = B ** 2
E = C * D
F = D + E
with minitorch.course.needs("topological_order"):
    print([node.name() for node in topological_order(F.grad_fn)])

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "topological_order_visible", "points": 1}
def check_topological(order, expected_nodes):
    """Each expected node once, and every node before each of its children."""
    listed = Counter(order)
    check("the nodes listed twice", sorted(n.name() for n, k in listed.items() if k > 1), [],
          hint="list each node once, however many paths reach it")
    check("the reachable nodes missing from the order",
          sorted(n.name() for n in set(expected_nodes) - set(order)), [])
    check("the entries of the order that are not reachable nodes",
          sorted(repr(n) for n in set(order) - set(expected_nodes)), [])
    position = {node: i for i, node in enumerate(order)}
    for node in order:
        for child, _ in node.next_functions:
            if child is not None:
                check(f"whether {node.name()} comes before its input {child.name()}",
                      position[node] < position[child], True,
                      hint="a node runs only when every node that feeds it a gradient has "
                           "run: depth-first post-order, reversed, gives such an order")


A = minitorch.tensor([3.], requires_grad=True)
B = minitorch.tensor([2.], requires_grad=True)
C = A ** 2
D = B ** 2
E = C * D
F = D + E
accumulate_A = C.grad_fn.next_functions[0][0]
accumulate_B = D.grad_fn.next_functions[0][0]
order = topological_order(F.grad_fn)
check("the first node of the order", order[0].name() if order else None, "AddBackward0",
      hint="the root comes first")
check_topological(order, [F.grad_fn, E.grad_fn, D.grad_fn, C.grad_fn, accumulate_A, accumulate_B])
check("whether E's node (MulBackward0) comes before D's (PowBackward0)",
      order.index(E.grad_fn) < order.index(D.grad_fn), True,
      hint="E = C * D feeds D a gradient: D's node must wait for it")
### BEGIN HIDDEN TESTS
# one valid order only, which breadth-first search misses: r reaches b directly and
# through two multiplications
x = minitorch.tensor(2., requires_grad=True)
b = x.exp()
r = (b * 3.0) * 2.0 + b
observe(topological_order(r.grad_fn), topological_order(b.grad_fn))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "topological_order_hidden", "points": 2}
x = minitorch.tensor(1., requires_grad=True)
chain = x
for _ in range(10_000):
    chain = chain * 1.0
with minitorch.course.switched_off("engine.execute", "engine.discover"):
    deep = check_runs("topological_order of a 10 000-node chain",
                      lambda: topological_order(chain.grad_fn),
                      hint="walk with a stack of your own, not recursion")
check("the length of the order of a 10 000-node chain, plus the leaf's AccumulateGrad",
      len(deep), 10_001, hint="walk with a stack of your own, not recursion")
### BEGIN HIDDEN TESTS
expect("whether the chain's order starts at its root and ends at x's AccumulateGrad",
       [deep[0] is chain.grad_fn, getattr(deep[-1], "variable", None) is x],
       hint="a chain has one order")
check_topological(deep, deep)

with minitorch.course.switched_off("engine.execute", "engine.discover"):
    # a ladder of diamonds: every node reached by 2 ** depth paths
    x = minitorch.tensor(1., requires_grad=True)
    ladder, nodes = x, []
    for _ in range(12):
        ladder = ladder * 2.0 + ladder * 3.0
        nodes += [ladder.grad_fn, *(n for n, _ in ladder.grad_fn.next_functions)]
    nodes.append(nodes[1].next_functions[0][0])  # x's AccumulateGrad, below the first layer
    ladder_order = topological_order(ladder.grad_fn)
    check_topological(ladder_order, nodes)

    # inputs that need no gradient (None children), and a node that uses x twice
    x = minitorch.tensor([1., 2.], requires_grad=True)
    y = (x * x) * minitorch.tensor([3., 4.]) + x
    order = check_runs("topological_order of (x * x) * a constant + x",
                       lambda: topological_order(y.grad_fn),
                       hint="a None in next_functions is an input that needs no gradient: "
                            "skip it")
    expect("whether None is in the order", None in order,
           hint="a None in next_functions is an input that needs no gradient: skip it")
    mul_xx = y.grad_fn.next_functions[0][0].next_functions[0][0]
    accumulate_x = y.grad_fn.next_functions[1][0]
    check_topological(order, [y.grad_fn, y.grad_fn.next_functions[0][0], mul_xx, accumulate_x])
    # the two nodes of a diamond's middle may come in either order, but both are MulBackward0:
    # the names in order are the same for every valid order
    observe([node.name() for node in ladder_order], order,
            topological_order(chain.grad_fn.next_functions[0][0])[-3:])
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 2: an engine that counts dependencies (5 points)
#
# Write `run_backward(root, grad)`: backpropagate the gradient `grad` of the root node's
# output through the whole graph, the way the real engine does, and **return the list of the
# nodes in the order you ran them**.
#
# * Count first: for every node reachable from `root`, how many edges point to it (an input
#   used twice, as in `x * x`, counts twice). Iteratively — a 10 000-node chain must work.
# * Then run: `root` starts ready with `grad`. Run a ready node **once**, with the **sum** of
#   every gradient delivered to it: `node(total)` returns its input gradients — one tensor if
#   it has one input, a tuple otherwise (an `AccumulateGrad` returns `()` and adds into its
#   leaf's `.grad`).
# * Deliver each returned gradient to the matching `next_functions` entry, skipping `None`
#   children; a `None` gradient adds nothing but still counts as delivered. A node becomes
#   ready when all its consumers have delivered.
# * Any order that respects the counts is fine; you do not need minitorch's heap.
#
# Every node in this chapter has a single output, so one gradient per node is enough.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "run_backward"}
def run_backward(root, grad):
    """Run every node reachable from `root` once, after all its consumers delivered;
    return the nodes in the order they ran."""
    ### BEGIN SOLUTION
    consumers = {root: 0}
    stack = [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            if child not in consumers:
                consumers[child] = 0
                stack.append(child)
            consumers[child] += 1
    waiting = {root: grad}
    ready, ran = [root], []
    while ready:
        node = ready.pop()
        outs = node(waiting.pop(node, None))
        ran.append(node)
        if not isinstance(outs, tuple):
            outs = (outs,)
        for (child, _), child_grad in zip(node.next_functions, outs):
            if child is None:
                continue
            if child_grad is not None:
                waiting[child] = waiting[child] + child_grad if child in waiting else child_grad
            consumers[child] -= 1
            if consumers[child] == 0:
                ready.append(child)
    return ran
    ### END SOLUTION


# %% [markdown]
# Try it on the notes' graph (grad mode off, as a real backward runs):

# %%
A = minitorch.tensor([3.], requires_grad=True)
B = minitorch.tensor([2.], requires_grad=True)
C = A ** 2
D = B ** 2
E = C * D
F = D + E
with minitorch.course.needs("run_backward"), minitorch.no_grad():
    ran = run_backward(F.grad_fn, minitorch.tensor([1.]))
    print([node.name() for node in ran])
    print(A.grad, B.grad)

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "run_backward_visible", "points": 2}
A = minitorch.tensor([3.], requires_grad=True)
B = minitorch.tensor([2.], requires_grad=True)
C = A ** 2
D = B ** 2
E = C * D
F = D + E
with minitorch.no_grad():
    ran = run_backward(F.grad_fn, minitorch.tensor([1.]))
check("[A.grad, B.grad] for F = D + C * D, C = A ** 2, D = B ** 2 at A = 3, B = 2",
      [A.grad, B.grad], [[24.0], [40.0]], mistakes={
          "the gradient reaching D by one path overwrote the other instead of adding to it":
              [[24.0], [36.0]],
          "the gradient reaching D by one path overwrote the other (the one from C * D)":
              [[24.0], [4.0]]},
      hint="a node that receives gradients on several edges sums them before it runs")
check("how many nodes ran, and how many distinct ones", [len(ran), len(set(ran))], [6, 6],
      hint="each of the 6 nodes runs exactly once")
check("whether the root ran first and E's node before D's",
      [ran[0] is F.grad_fn, ran.index(E.grad_fn) < ran.index(D.grad_fn)], [True, True])

x = minitorch.tensor(3., requires_grad=True)
y = x * x + x
with minitorch.no_grad():
    run_backward(y.grad_fn, minitorch.tensor(1.))
check("x.grad for x * x + x at x = 3", x.grad.item() if x.grad is not None else None, 7.0,
      mistakes={"only the last gradient to reach x was kept": 1.0,
                "only the last gradient to reach x (from x * x) was kept": 3.0,
                "one of the two edges from x * x to x was dropped": 4.0},
      hint="three paths reach x: 3 + 3 + 1")

x = minitorch.tensor(1., requires_grad=True)
h = x * 2.0
y = h + h + h
seed = minitorch.tensor(1.)
with minitorch.no_grad():
    run_backward(y.grad_fn, seed)
check("[x.grad, seed] after run_backward on h + h + h, h = 2x, with seed = tensor(1.)",
      [x.grad, seed], [6.0, 1.0], mistakes={
          "gradients are summed in place (+=), and AddBackward0 delivers one tensor on both "
          "its edges, so that tensor was added to itself": [8.0, 4.0]},
      hint="sum arriving gradients with a + b, a new tensor, never in place")
### BEGIN HIDDEN TESTS
x = minitorch.tensor([1.5, -2.], dtype=minitorch.float64, requires_grad=True)
w = minitorch.tensor([.5, 3.], dtype=minitorch.float64, requires_grad=True)
h = x * w  # used three times
y = (h.exp() * h + h * x).sum()
with minitorch.no_grad():
    ran = run_backward(y.grad_fn, minitorch.tensor(2., dtype=minitorch.float64))
observe(x.grad, w.grad, len(ran), sorted(node.name() for node in ran))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "run_backward_hidden", "points": 2}
class Tally(minitorch.autograd.Function):
    """Identity, counting how often its backward runs."""

    calls = 0

    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, grad):
        Tally.calls += 1
        return grad


x = minitorch.tensor(1., requires_grad=True)
ladder = x
for _ in range(12):  # 12 diamonds: a node reached by 2 ** 12 paths
    ladder = Tally.apply(ladder)
    ladder = ladder * 0.5 + ladder * 1.5
with minitorch.course.switched_off("engine.execute", "engine.discover"), minitorch.no_grad():
    run_backward(ladder.grad_fn, minitorch.tensor(1.))
check("how many times the 12 Tally nodes ran in all", Tally.calls, 12,
      hint="each node runs once, after all its gradients have arrived: count the edges into "
           "a node before running it")
check("x.grad after the 12 diamonds", x.grad.item() if x.grad is not None else None, 2.0 ** 12)

class FirstOnly(minitorch.autograd.Function):
    """a + b, whose backward sends b no gradient (None), though b requires grad."""

    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad):
        return grad, None


x = minitorch.tensor(1., requires_grad=True)
h = x * 2.0
y = FirstOnly.apply(h * 3.0, h) + h  # h's three consumers: 3 * h, FirstOnly (None) and +
with minitorch.course.switched_off("engine.execute", "engine.discover"), minitorch.no_grad():
    run_backward(y.grad_fn, minitorch.tensor(1.))
check("x.grad for y = FirstOnly(3h, h) + h, h = 2x, where FirstOnly sends h None",
      x.grad.item() if x.grad is not None else None, 8.0,
      mistakes={"a None gradient was not counted as delivered, so h's node never ran": None},
      hint="a None gradient still counts as delivered: the node runs once every consumer "
           "has answered, with None or a tensor")

deep = minitorch.tensor(1., requires_grad=True)
chain = deep
for _ in range(10_000):  # deeper than Python's recursion limit, as the instructions say
    chain = chain * 1.0
with minitorch.course.switched_off("engine.execute", "engine.discover"), minitorch.no_grad():
    check_runs("run_backward on a 10 000-node chain",
               lambda: run_backward(chain.grad_fn, minitorch.tensor(1.)),
               hint="keep your own stack (or queue), not recursion")
check("deep.grad after a chain of 10 000 multiplications by 1.0",
      deep.grad.item() if deep.grad is not None else None, 1.0)
### BEGIN HIDDEN TESTS
# three consumers with different gradients reach h: they must be summed, not overwritten
x = minitorch.tensor(1., requires_grad=True)
h = x * 2.0
y = h * 3.0 + h * 5.0 + h * h
again = x * 4.0
with minitorch.course.switched_off("engine.execute", "engine.discover"), minitorch.no_grad():
    ran = run_backward(y.grad_fn, minitorch.tensor(1.))
    observe(x.grad, len(ran))
    expect("x.grad for y = h * 3 + h * 5 + h * h, h = 2x, at x = 1", x.grad,
           hint="three consumers reach h: their gradients are summed, not overwritten")
    run_backward(again.grad_fn, minitorch.tensor(1.))
    observe(x.grad)
    expect("x.grad after a second backward through x * 4", x.grad,
           hint="a leaf's .grad accumulates across runs: add to it, never replace it")

x = minitorch.tensor(1., requires_grad=True)
chain = x
for _ in range(10_000):
    chain = chain * 1.0
with minitorch.course.switched_off("engine.execute", "engine.discover"), minitorch.no_grad():
    ran = run_backward(chain.grad_fn, minitorch.tensor(2.))
    observe(len(ran), x.grad)
expect("how many nodes ran for a 10 000-node chain, and x.grad", [len(ran), x.grad])

Tally.calls = 0
x = minitorch.tensor(1., dtype=minitorch.float64, requires_grad=True)
ladder = x
for _ in range(5):  # each Tally node has three consumers
    ladder = Tally.apply(ladder * 0.5)
    ladder = ladder + ladder * ladder
with minitorch.course.switched_off("engine.execute", "engine.discover"), minitorch.no_grad():
    ran = run_backward(ladder.grad_fn, minitorch.tensor(3., dtype=minitorch.float64))
    observe(Tally.calls, len(ran), x.grad)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "run_backward_plugged", "points": 1}
def mlp_loss(xp, params, data):
    """An MLP with two heads on a shared hidden layer, in numpy or minitorch."""
    w1, b1, w2, b2, w3, b3, w4, b4 = params
    relu = (lambda t: np.maximum(t, 0)) if xp is np else (lambda t: t.relu())
    hidden = relu(data @ w1.T + b1)
    out = hidden @ w2.T + b2 + relu(hidden @ w3.T + b3) @ w4.T + b4
    return (out * out).sum()


rng = np.random.default_rng(2)
shapes = [(5, 10), (5,), (2, 5), (2,), (2, 5), (2,), (2, 2), (2,)]
arrays = [rng.standard_normal(shape) for shape in shapes]
data = rng.standard_normal((4, 10))
params = [minitorch.tensor(a, requires_grad=True) for a in arrays]
with minitorch.course.switched_off("engine.execute", "engine.discover"), \
        engine.use(run_backward):
    mlp_loss(minitorch, params, minitorch.tensor(data)).backward()
check("which parameters got no .grad", [i for i, p in enumerate(params) if p.grad is None], [],
      hint="every parameter gets a .grad")
### BEGIN HIDDEN TESTS
eps = 1e-6
for array, param in zip(arrays, params):
    numeric = np.zeros_like(array)
    for index in np.ndindex(array.shape):
        saved = array[index]
        array[index] = saved + eps
        up = mlp_loss(np, arrays, data)
        array[index] = saved - eps
        down = mlp_loss(np, arrays, data)
        array[index] = saved
        numeric[index] = (up - down) / (2 * eps)
    expect(f"whether the gradient of a parameter of shape {array.shape} matches finite "
           "differences", bool(np.allclose(param.grad.numpy(), numeric, rtol=1e-5, atol=1e-6)))

with minitorch.course.switched_off("engine.execute", "engine.discover"), \
        engine.use(run_backward):
    observe(*(param.grad for param in params))
    loss = mlp_loss(minitorch, params, minitorch.tensor(data[::-1] * 0.5))
    loss.backward(retain_graph=True)
    (loss * 2.0).backward()  # through the kept graph: 3 times this loss's gradient in all
    observe(*(param.grad for param in params))
### END HIDDEN TESTS

# %% [markdown]
# ## 5. Plug it in: train the notes' MLP with your engine
#
# `engine.use(run_backward)` swaps your function in for minitorch's engine: inside the block,
# `loss.backward()` calls `run_backward(loss.grad_fn, gradient)` with grad mode off, and frees
# the graph afterwards unless you pass `retain_graph=True`. What your engine cannot do it
# refuses: `create_graph=True`, `autograd.grad`, several roots at once.
#
# Two copies of the notes' MLP start from the same weights; one trains with minitorch's engine,
# the other with yours, five SGD steps each. They must stay together.

# %%
def train(model, steps=5):
    """A few SGD steps on a fixed regression batch; the loss of each step."""
    generator = np.random.default_rng(0)
    inputs = minitorch.tensor(generator.standard_normal((8, 10)), dtype=minitorch.float32)
    targets = minitorch.tensor(generator.standard_normal((8, 2)), dtype=minitorch.float32)
    optimizer = minitorch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = ((model(inputs) - targets) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


minitorch.manual_seed(0)
reference_model = MLP()
my_model = MLP()
my_model.load_state_dict(reference_model.state_dict())

print("minitorch's engine:", np.round(train(reference_model), 5))
with minitorch.course.needs("run_backward"):
    with engine.use(run_backward):
        print("your engine:       ", np.round(train(my_model), 5))

    reference_params = dict(reference_model.named_parameters())
    for name, param in my_model.named_parameters():
        difference = np.abs(param.grad.numpy() - reference_params[name].grad.numpy()).max()
        assert difference < 1e-6, (name, difference)
    print("every parameter's gradient matches to 1e-6")

# %%
x = minitorch.tensor(5.0, requires_grad=True)
with engine.use(run_backward):
    try:
        minitorch.autograd.grad(x ** 3, x, create_graph=True)
    except NotImplementedError as error:
        print("NotImplementedError:", error)

# %% [markdown]
# How does `use` work? Every caller inside minitorch looks the engine up as `engine.execute`
# at call time, so replacing that module attribute for the length of a `with` block reaches
# them all; `minitorch.course.reset()` puts the reference back if a block was left open.

# %%
print(inspect.getsource(engine.use))

# %% [markdown]
# ## Exercise 3: predict, then run (3 points)
#
# Each row below is a small program; its last line sets `answer`. Every name in it is fresh:
# `tensor` is `minitorch.tensor` and `autograd` is `minitorch.autograd`. **Before running
# anything**, predict `answer` for each row from what this chapter and chapter 1 showed:
#
# - a number if `answer` is a one-element tensor (its `.item()`: `8.0`, `float("inf")`,
#   `float("nan")`), `True`/`False` or `None` if it is one of those;
# - the name of the exception, as a string (`"RuntimeError"`), if a line raises.
#
# Write the predictions in `predictions`; the first is done for you. Then check yourself:
# `run_row("b")` runs row b and returns the same kind of value. Where you were wrong, find
# the section that explains why.

# %%
ROWS = {
    "a": "x = tensor(2., requires_grad=True)\ny = x * x\ny.backward()\ny.backward()\nanswer = x.grad",
    "b": "x = tensor(2., requires_grad=True)\ny = x * x\ny.backward(retain_graph=True)\ny.backward()\nanswer = x.grad",
    "c": "t = tensor([1., 2.])\nt.sum().backward()\nanswer = t.grad",
    "d": "x = tensor(2., requires_grad=True)\nleaf = x\nx = x + 1\n(x * x).backward()\nanswer = leaf.grad",
    "e": "x = tensor(2., requires_grad=True)\nx = x + 1\nanswer = x.is_leaf",
    "f": "x = tensor(2., requires_grad=True)\ny = x * 3\ny.register_hook(lambda g: g * 10)\ny.backward()\nanswer = x.grad",
    "g": "x = tensor(2., requires_grad=True)\ny = x * 3\nseen = []\ny.register_hook(lambda g: seen.append(g))\ny.backward()\nanswer = x.grad",
    "h": "x = tensor(2., requires_grad=True)\ny = x * 3\nhandle = y.register_hook(lambda g: g * 10)\nhandle.remove()\ny.backward()\nanswer = x.grad",
    "i": "x = tensor(2., requires_grad=True)\ny = x * x\nz = 3 * y\n(g,) = autograd.grad(z, y)\nanswer = g",
    "j": "x = tensor(2., requires_grad=True)\ny = x * x\nz = 3 * y\n(g,) = autograd.grad(z, y)\nanswer = x.grad",
    "k": "x = tensor(0., requires_grad=True)\nx.relu().backward()\nanswer = x.grad",
    "l": "x = tensor(0., requires_grad=True)\nx.abs().backward()\nanswer = x.grad",
    "m": "x = tensor(0., requires_grad=True)\nx.sqrt().backward()\nanswer = x.grad",
    "n": "x = tensor(0., requires_grad=True)\nx.abs().sqrt().backward()\nanswer = x.grad",
    "o": "x = tensor(5., requires_grad=True)\n(g,) = autograd.grad(x ** 3, x, create_graph=True)\n(gg,) = autograd.grad(g, x)\nanswer = gg",
    "p": "x = tensor(5., requires_grad=True)\n(g,) = autograd.grad(x ** 3, x)\n(gg,) = autograd.grad(g, x)\nanswer = gg",
    "q": "x = tensor([1., 2., 3.], requires_grad=True)\ny = x ** 2\ny.backward(tensor([1., 0.5, 0.25]))\nanswer = x.grad[2]",
    "r": "x = tensor(2., requires_grad=True)\ny = x * x\ny.retain_grad()\nz = y * 3\nz.backward()\nanswer = y.grad",
}


def run_row(key):
    """Run ROWS[key] with fresh names: `answer`'s value, or the exception's class name."""
    names = {"tensor": minitorch.tensor, "autograd": minitorch.autograd}
    try:
        exec(ROWS[key], names)
    except Exception as error:
        return type(error).__name__
    answer = names["answer"]
    return answer.item() if isinstance(answer, minitorch.Tensor) else answer


for key, code in ROWS.items():
    print(f"--- {key}\n{code}")

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "predict_rows"}
predictions = {
    "a": "RuntimeError",
}
### BEGIN SOLUTION
predictions.update({
    "b": 8.0, "c": "RuntimeError", "d": 6.0, "e": False, "f": 30.0, "g": 3.0, "h": 3.0,
    "i": 3.0, "j": None, "k": 0.0, "l": 0.0, "m": float("inf"), "n": float("nan"),
    "o": 30.0, "p": "RuntimeError", "q": 1.5, "r": 3.0,
})
### END SOLUTION

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "predict_rows_visible", "points": 1}
def same(predicted, actual):
    """Equal, with nan equal to nan and 3 equal to 3.0 (but True not equal to 1.0)."""
    if isinstance(predicted, bool) or isinstance(actual, bool):
        return predicted is actual
    if isinstance(predicted, (int, float)) and isinstance(actual, (int, float)):
        return predicted == actual or (predicted != predicted and actual != actual)
    return predicted == actual


check("the rows not predicted", sorted(set(ROWS) - set(predictions)), [],
      hint="predict every row of ROWS")
check("the predictions that are not a number, True/False, None or an exception's name",
      {key: value for key, value in predictions.items()
       if not (value is None or isinstance(value, (bool, int, float, str)))}, {})
check("the exception names that do not end in Error",
      {key: value for key, value in predictions.items()
       if isinstance(value, str) and not value.endswith("Error")}, {},
      hint='name the exception\'s class, as "RuntimeError"')
### BEGIN HIDDEN TESTS
observe({key: repr(predictions.get(key)) for key in ("b", "c", "d", "e", "f", "g", "h")})
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "predict_rows_hidden", "points": 2}
check("the number of predictions, one per row", len(predictions), len(ROWS))
### BEGIN HIDDEN TESTS
observe({key: repr(predictions.get(key)) for key in ROWS})
### END HIDDEN TESTS

# %% [markdown]
# ## 6. What PyTorch does
#
# PyTorch's engine is C++ (`torch/csrc/autograd/engine.cpp`), but it is the same algorithm:
#
# * `compute_dependencies` walks the graph from the roots with an explicit stack and counts,
#   for every node, the edges that point to it.
# * Ready nodes wait in a `ReadyQueue`, a priority queue ordered by the node's
#   `sequence_nr` (the most recently created node first, `AccumulateGrad` before all) —
#   minitorch's heap of `-_seq`.
# * Gradients for a node are summed in an `InputBuffer` until its count reaches zero.
# * Each device has its own worker thread and queue: a CPU backward runs on the thread that
#   called it, which is why several threads can run backward at once (notes 002).
#
# The same naive queue and the real engine, in torch (skipped if torch is not installed):

# %%
if os.environ.get("NBGRADER_EXECUTION"):
    torch = None  # a grading run has no use for torch: skip its slow import
else:
    try:
        import torch
    except ImportError:
        torch = None

if torch is None:
    print("torch is not installed (or this is a grading run): skipped")
else:
    tA = torch.tensor([3.], requires_grad=True)
    tB = torch.tensor([2.], requires_grad=True)
    tD = tB ** 2
    tF = tD + (tA ** 2) * tD
    naive_calls = autograd(tF.grad_fn, torch.tensor(1), Counter())
    print("naive:", tA.auto_grad, tB.auto_grad, "- D's node ran", naive_calls[tD.grad_fn], "times")
    tF.backward()
    print("torch.backward:", tA.grad, tB.grad)
