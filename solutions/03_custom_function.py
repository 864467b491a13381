# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Chapter 3: a custom Function
#
# Every operation autograd records is a *Function*: a forward that computes outputs and a
# backward that turns the gradients of the outputs into gradients of the inputs. `exp`,
# `*` and `@` are Functions written by the library; this chapter writes our own, looks at
# what `MyFunction.apply(...)` builds in the graph, and then rebuilds `apply` itself.
#
# You will:
# 1. run the notes' `Exp`, `Mul` and `Sigmoid` Functions and read the nodes they create;
# 2. open `minitorch/autograd/function.py`, where `apply` builds those nodes;
# 3. write two Functions, your own `apply`, and a `LinearFunction`;
# 4. plug your `apply` into minitorch and train a logistic regression with it.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "setup"}
import os
import warnings

from minitorch.checks import check, check_raises, check_runs
from minitorch.course import error_of, expect, observe

if os.environ.get("NBGRADER_EXECUTION"):  # autograde and validate: keep graded cells silent
    warnings.simplefilter("ignore")

# %%
import inspect

import numpy as np

import minitorch
from minitorch import Tensor
from minitorch.autograd import Function
from minitorch.autograd.graph import Node

# %% [markdown]
# ## 1. The notes' Exp
#
# A Function subclass has two static methods. `forward(ctx, *inputs)` computes the result;
# `backward(ctx, *grad_outputs)` returns one gradient per forward input. `ctx` is the
# scratchpad both share: `ctx.save_for_backward(...)` keeps tensors for later, and
# `ctx.saved_tensors` gives them back. You never call `forward` yourself: `Exp.apply(a)` does,
# and records the call in the graph.

# %%
class Exp(Function):  # computes e^x
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)  # backward needs e^i: keep it instead of recomputing
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result  # d/di e^i = e^i


a = minitorch.tensor([1.0], requires_grad=True)
result = Exp.apply(a)  # forward
print(result)
result.backward()
print(a.grad)

# %% [markdown]
# `a.grad` is e¹ = 2.7183 (the notes print it without showing the value): the derivative of
# eˣ is eˣ again. A custom Function `Exp` gets a node class named
# `ExpBackward` (built-in ops add an overload digit, `ExpBackward0`).
#
# The node *is* the `ctx` that forward saw. It knows which inputs need a gradient
# (`needs_input_grad`, one bool per forward argument) and where the gradient goes next
# (`next_functions`, one edge per tensor argument: here the `AccumulateGrad` of the leaf `a`).

# %%
node = result.grad_fn
print(node.name(), node.needs_input_grad)
print(node.next_functions, node.next_functions[0][0].variable is a)
print(isinstance(node, minitorch.autograd.FunctionCtx))

# %%
minitorch.viz.draw(result, params={"a": a})

# %% [markdown]
# ## 2. Mul: a non-tensor argument and a `None` gradient
#
# The textbook notes compute `w * x + b` with a fourth, plain-Python argument. Non-tensor
# state goes on `ctx` as an attribute (`save_for_backward` takes tensors only). `backward`
# still returns one value per forward argument: `None` for the flag, and `None` for `x`
# when the flag says x needs no gradient.

# %%
class Mul(Function):
    @staticmethod
    def forward(ctx, w, x, b, x_requires_grad=True):
        ctx.x_requires_grad = x_requires_grad
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        grad_w = grad_output * x
        if ctx.x_requires_grad:
            grad_x = grad_output * w
        else:
            grad_x = None
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b, None


w = minitorch.tensor([1.0, 2.0], requires_grad=True)
x = minitorch.tensor([3.0, 4.0], requires_grad=True)
b = minitorch.tensor([0.5, 0.5], requires_grad=True)
out = Mul.apply(w, x, b, False)
print(out)
print(out.grad_fn.needs_input_grad)
print(len(out.grad_fn.next_functions), "edges: one per tensor argument, none for the flag")
out.sum().backward()
print(w.grad, x.grad, b.grad)

# %% [markdown]
# `x.grad` stays `None`: backward returned `None` for it. The node has three edges, not
# four: the Python flag is not part of the graph.

# %% [markdown]
# ## 3. Sigmoid and gradcheck
#
# How do you know a hand-written backward is right? Compare it with finite differences:
# `gradcheck` nudges every input element by ±eps and checks that the slopes match the
# gradients backward returns. The notes' Sigmoid, checked in float64 on the input `randn(4)`
# they print:

# %%
class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        output = 1 / (1 + minitorch.exp(-x))
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        (output,) = ctx.saved_tensors
        grad_x = output * (1 - output) * grad_output
        return grad_x


gradcheck = minitorch.autograd.gradcheck
test_input = minitorch.tensor(
    [-0.4646, -0.4403, 1.2525, -0.5953], dtype=minitorch.float64, requires_grad=True
)
print(gradcheck(Sigmoid.apply, (test_input,)), gradcheck(minitorch.sigmoid, (test_input,)))

# %% [markdown]
# Why float64, and what the step `eps` has to do with it, is the notes' surprise: in float32
# a *smaller* eps makes both sigmoids fail. Chapter 6 runs that experiment and explains it;
# here, gradcheck is the tool the exercises below use to test your own backwards.

# %% [markdown]
# ## 4. The rest of the ctx toolbox
#
# torch's `Function` has a few more tools, beyond what the notes show; each is one line in a
# Function:
# - `ctx.mark_non_differentiable(t)`: an output that has no gradient (an index, a mask);
# - `ctx.mark_dirty(t)`: forward changed an input in place and returns it;
# - `@once_differentiable` on backward: its result cannot be differentiated again;
# - `setup_context(ctx, inputs, output)`: the newer style, where `forward` takes no `ctx`.

# %%
class ArgsortValues(Function):
    """Sorted values (differentiable) and the sorting indices (not)."""

    @staticmethod
    def forward(ctx, x):
        order = np.argsort(x.detach().numpy())
        ctx.order = order
        indices = minitorch.tensor(order)
        ctx.mark_non_differentiable(indices)
        return x[order.tolist()], indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        grad_x = np.zeros(grad_values.shape, dtype=np.float32)
        grad_x[ctx.order] = grad_values.numpy()  # send each gradient back to where it came from
        return minitorch.tensor(grad_x)


class AddOne_(Function):
    """x += 1 in place."""

    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class Cube(Function):
    """x³ in the new style, with a backward that is differentiable only once."""

    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    @minitorch.autograd.function.once_differentiable
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad_output


v = minitorch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, indices = ArgsortValues.apply(v)
print(values, indices, indices.requires_grad)
(values * minitorch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(v.grad)

h = v * 1
print(AddOne_.apply(h), "version", h._version)  # changed in place: its version counter moved

(g,) = minitorch.autograd.grad((Cube.apply(v) * v).sum(), v, create_graph=True)
print(g)  # d(x⁴)/dx = 4x³, computed through Cube's backward once
try:
    g.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ## 5. When backward returns the wrong number of gradients
#
# `apply` holds backward to its contract: one gradient per forward argument. Extra trailing
# `None`s are tolerated; anything else is torch's error, with minitorch's same words:

# %%
class Bad(Function):
    @staticmethod
    def forward(ctx, p, q):
        return p * q

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output  # forgot q's gradient


p = minitorch.tensor([1.0, 2.0], requires_grad=True)
q = minitorch.tensor([3.0, 4.0], requires_grad=True)
try:
    Bad.apply(p, q).sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ## 6. Inside minitorch: `autograd/function.py`
#
# `Function.apply` is a small dispatcher. Built-in ops (`minitorch.ops`, whose forwards work
# on arrays and whose backwards are trusted) take `_apply_op`; every Function *you* write
# takes `apply_custom`, the piece this chapter rebuilds:

# %%
from minitorch.autograd import function

print(inspect.getsource(function.Function.apply))
print(inspect.getsource(function._new_node))
print(inspect.getsource(function.apply_custom))

# %% [markdown]
# Read `apply_custom` line by line:
# - `_new_node` makes the node, an instance of `ExpBackward` (a class the metaclass made for
#   `Exp`); it doubles as the ctx. `needs_input_grad` is filled before forward runs, so
#   forward could read it too. The call is recorded only when grad mode is on and some input
#   requires grad.
# - `_run_forward` runs forward with grad mode **off**: the `i.exp()` inside `Exp.forward`
#   must not record its own `ExpBackward0` node: the custom node replaces it.
# - `next_functions` gets one edge per **tensor** argument, in order: `a._edge()` is
#   `(a.grad_fn, output_nr)` for a computed tensor, `(AccumulateGrad, 0)` for a leaf that
#   requires grad, `(None, 0)` for a tensor that needs none.
# - `_link` makes the node the `grad_fn` of the outputs and packs the saved tensors (with
#   the version counters chapter 5 checks).
#
# When backward runs, the engine calls the node's `_apply_arrays` (no graph of the backward
# wanted) or `_apply` (`create_graph=True`); for a custom Function both end in `_backward`,
# which calls `Exp.backward` and checks what came back. (A built-in op may instead give its
# backward straight on arrays: the same formula, without a Tensor per step. The engine then
# carries arrays from node to node; `_grads_of_arrays` makes tensors for the leaves only, and
# marks the ones a leaf may keep as its `.grad` without a copy: arrays of their own, which no
# hook has seen.)

# %%
print(inspect.getsource(function.BackwardCFunction._backward))
print(inspect.getsource(function._validate_grads))

# %% [markdown]
# Built-in ops are Functions too. `a * 2` creates a `MulBackward0` node whose forward class
# is minitorch's `Mul` op, a subclass of `Function`:

# %%
op_node = (a * 2).grad_fn
print(op_node.name(), op_node._forward_cls, op_node._forward_cls.__mro__[1:3])
print(inspect.getsource(op_node._forward_cls))

# %% [markdown]
# ## Exercise 1: two Functions (3 points)
#
# Write `Tanh` and `LeakyReLU` as Functions, without calling minitorch's `tanh` backward (or
# any autograd) inside your backward: compute the gradient yourself.
# - `Tanh.apply(x)` is tanh(x). Save what backward needs; d tanh(x)/dx = 1 − tanh(x)².
# - `LeakyReLU.apply(x, slope)` is `x` where `x > 0` and `slope * x` elsewhere; `slope` is a
#   Python float. Its derivative is 1 where `x > 0`, else `slope`.
#
# Remember the contract: backward multiplies by `grad_output` and returns one value per
# forward argument. `minitorch.where(cond, a, b)` and `(x > 0)` (a bool tensor) may help.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "functions"}
class Tanh(Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        y = x.tanh()
        ctx.save_for_backward(y)
        return y
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (y,) = ctx.saved_tensors
        return grad_output * (1 - y * y)
        ### END SOLUTION


class LeakyReLU(Function):
    @staticmethod
    def forward(ctx, x, slope):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x)
        ctx.slope = slope
        return minitorch.where(x > 0, x, x * slope)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        return minitorch.where(x > 0, grad_output, grad_output * ctx.slope), None
        ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "functions_visible", "points": 1}
xs = np.array([-1.5, -0.2, 0.3, 0.7, 2.0], dtype=np.float32)
gs = np.array([1.0, -2.0, 0.5, 3.0, 1.0], dtype=np.float32)

x = minitorch.tensor(xs, requires_grad=True)
y = Tanh.apply(x)
check("the name of Tanh.apply(x).grad_fn", getattr(y.grad_fn, "name", lambda: None)(),
      "TanhBackward")
check("Tanh.apply(x) at x = xs", y, np.tanh(xs), tol=1e-5)
y.backward(minitorch.tensor(gs))
check("x.grad after Tanh.apply(x).backward(gs)", x.grad, gs * (1 - np.tanh(xs) ** 2), tol=1e-5,
      mistakes={"the backward multiplies by 1 - x², not 1 - tanh(x)²": gs * (1 - xs ** 2),
                "the backward has the wrong sign": -gs * (1 - np.tanh(xs) ** 2),
                "the backward forgets grad_output": 1 - np.tanh(xs) ** 2},
      hint="d tanh(x)/dx = 1 - tanh(x)², times grad_output")

x = minitorch.tensor(xs, requires_grad=True)
z = LeakyReLU.apply(x, 0.1)
check("LeakyReLU.apply(x, 0.1) at x = xs", z, np.where(xs > 0, xs, 0.1 * xs), tol=1e-5)
check_runs("LeakyReLU.apply(x, 0.1).backward(gs)", lambda: z.backward(minitorch.tensor(gs)),
           hint="backward returns one gradient per forward argument: None for the slope")
check("x.grad after LeakyReLU.apply(x, 0.1).backward(gs)", x.grad,
      np.where(xs > 0, gs, 0.1 * gs), tol=1e-5,
      mistakes={"the backward forgets grad_output": np.where(xs > 0, 1.0, 0.1),
                "the slope is applied where x > 0": np.where(xs > 0, 0.1 * gs, gs)},
      hint="grad_output where x > 0, grad_output * slope elsewhere")
### BEGIN HIDDEN TESTS
xo = np.array([-2.5, -0.75, 0.1, 1.25, 3.0])  # float64: other correct formulas agree to 1e-15
go = minitorch.tensor([0.3, 1.5, -1.0, 2.0, -0.5], dtype=minitorch.float64)
x = minitorch.tensor(xo, requires_grad=True)
y = Tanh.apply(x)
y.backward(go)
observe(y.grad_fn.name(), y.detach(), x.grad)
x = minitorch.tensor(xo, requires_grad=True)
z = LeakyReLU.apply(x, 0.3)
z.backward(go)
observe(z.grad_fn.name(), z.detach(), x.grad)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "functions_hidden", "points": 2}
class _Ctx:
    """A stand-in ctx: the backward is called directly, with no graph and no engine."""

    needs_input_grad = (True, False)

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors


def _backward_directly(fn_cls, args, grad):
    ctx = _Ctx()
    with minitorch.no_grad():
        fn_cls.forward(ctx, *args)
    with minitorch.course.switched_off("engine.execute"):  # no autograd inside backward
        grads = fn_cls.backward(ctx, minitorch.tensor(grad))
    return grads if isinstance(grads, tuple) else (grads,)


(grad_x,) = _backward_directly(Tanh, (minitorch.tensor(xs),), gs)
check("Tanh.backward called directly, with a ctx of its own and no engine", grad_x,
      gs * (1 - np.tanh(xs) ** 2), tol=1e-5,
      hint="backward computes from what forward saved, with plain tensor operations")
### BEGIN HIDDEN TESTS
xd = np.array([-3.0, -0.5, 0.25, 1.0, 4.0])
gd = np.array([0.5, -1.0, 2.0, -0.25, 3.0])
step = 1e-6
slope_fd = (np.tanh(xd + step) - np.tanh(xd - step)) / (2 * step)  # finite differences
(grad_x,) = _backward_directly(Tanh, (minitorch.tensor(xd),), gd)
expect("Tanh's gradient against central differences", grad_x, tol=1e-6)
observe(grad_x)

grad_x, grad_slope = _backward_directly(LeakyReLU, (minitorch.tensor(xd), 0.25), gd)
expect("LeakyReLU's gradient for its slope argument (a number)", grad_slope,
       hint="a number gets no gradient: return None in its place")
expect("LeakyReLU's gradient, slope 0.25", grad_x, tol=1e-9)
observe(grad_x, grad_slope)

# A negative slope: the output is positive where x < 0, so only x tells the two sides apart.
(grad_x, _) = _backward_directly(LeakyReLU, (minitorch.tensor(xd), -0.5), gd)
expect("LeakyReLU's gradient, slope -0.5", grad_x, tol=1e-9, mistakes={
          "the mask is taken from the output, which is positive where x < 0 for a negative "
          "slope": np.where(np.where(xd > 0, xd, -0.5 * xd) > 0, gd, -0.5 * gd)},
       hint="choose the side by the input x (save it), not by the output")
observe(grad_x)

x = minitorch.tensor(xd, requires_grad=True)
y = LeakyReLU.apply(Tanh.apply(x), 0.5)  # a chain of the two, through minitorch's apply
expect("the names of the nodes of LeakyReLU.apply(Tanh.apply(x), 0.5)",
       [y.grad_fn.name(), y.grad_fn.next_functions[0][0].name()])
y.sum().backward()
t = np.tanh(xd)
expect("x.grad through LeakyReLU(Tanh(x), 0.5)", x.grad, tol=1e-9)
observe(y.detach(), x.grad)
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 2: your own `apply` (6 points)
#
# Now build the node yourself. `my_apply(fn_cls, *args)` must do what `Exp.apply(a)` did:
# 1. create a `FunctionNode` (below): it is the call's ctx and its backward node;
# 2. set `node.needs_input_grad`: one bool per argument, True for a tensor that requires grad;
# 3. run `fn_cls.forward(node, *args)` with grad mode **off** (`minitorch.no_grad()`);
# 4. if grad mode was on and some input requires grad, record the call: `node.next_functions`
#    holds one edge per **tensor** argument, in order (`edge_to` below), and the output
#    becomes the node's output number 0. Otherwise return the output untouched.
#
# When backward runs, the engine calls `node._apply(grad_outputs)` and expects one gradient
# per entry of `next_functions`. Your `_apply` calls `fn_cls.backward`, checks that it got
# one gradient per forward argument (extra trailing `None`s are fine) and otherwise raises
# torch's error, e.g. `RuntimeError: function BadBackward returned an incorrect number of
# gradients (expected 2, got 1)`; then it drops the entries of non-tensor arguments.
#
# Forward returns a single tensor here (not a tuple). Three wires of minitorch's `Tensor` are
# yours to use: `t._output_nr` (which output of `t.grad_fn` the tensor is),
# `t._grad_accumulator()` (the one `AccumulateGrad` node of a leaf) and
# `out._set_grad_fn(node, 0)` (make `node` the `grad_fn` of `out`).

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "apply"}
class FunctionNode(Node):
    """The backward node of one `my_apply(fn_cls, ...)` call, and that call's ctx."""

    def __init__(self, fn_cls):
        super().__init__()
        self.fn_cls = fn_cls
        self.saved_tensors = ()
        self.needs_input_grad = ()
        self.is_tensor = ()  # yours to fill: True where the forward argument is a tensor

    def name(self):
        return f"{self.fn_cls.__name__}Backward"

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def _apply(self, grad_outputs):
        """Run backward; return one gradient per entry of next_functions."""
        ### BEGIN SOLUTION
        grads = self.fn_cls.backward(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        expected = len(self.is_tensor)
        if len(grads) < expected or any(g is not None for g in grads[expected:]):
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {expected}, got {len(grads)})")
        return tuple(g for g, is_tensor in zip(grads, self.is_tensor) if is_tensor)
        ### END SOLUTION


def edge_to(t):
    """The edge from a new node to the tensor `t`: `(node_or_None, output_nr)`."""
    ### BEGIN SOLUTION
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if t.requires_grad:
        return (t._grad_accumulator(), 0)
    return (None, 0)
    ### END SOLUTION


def my_apply(fn_cls, *args):
    """Run `fn_cls` on `args` like `fn_cls.apply(*args)`, recording a FunctionNode."""
    ### BEGIN SOLUTION
    node = FunctionNode(fn_cls)
    node.is_tensor = tuple(isinstance(arg, Tensor) for arg in args)
    node.needs_input_grad = tuple(
        is_tensor and arg.requires_grad for is_tensor, arg in zip(node.is_tensor, args)
    )
    record = minitorch.is_grad_enabled() and any(node.needs_input_grad)
    with minitorch.no_grad():
        output = fn_cls.forward(node, *args)
    if record:
        node.next_functions = tuple(edge_to(arg) for arg in args if isinstance(arg, Tensor))
        output._set_grad_fn(node, 0)
    return output
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "apply_visible", "points": 2}
a = minitorch.tensor([1.0], requires_grad=True)
result = my_apply(Exp, a)
node = result.grad_fn
check("the type and name() of my_apply(Exp, a).grad_fn",
      [type(node).__name__, getattr(node, "name", lambda: None)()],
      ["FunctionNode", "ExpBackward"], hint="set a FunctionNode(fn_cls) as the output's grad_fn")
check("its needs_input_grad", node.needs_input_grad, (True,))
check("its next_functions, as (a's AccumulateGrad?, output_nr)",
      [(getattr(n, "variable", None) is a, k) for n, k in node.next_functions], [(True, 0)],
      hint="a leaf that requires grad: the edge leads to a._grad_accumulator()")
result.backward()
check("a.grad after my_apply(Exp, a).backward() at a = 1", a.grad, [np.e], tol=1e-6)

w = minitorch.tensor([1.0, 2.0], requires_grad=True)
x = minitorch.tensor([3.0, 4.0], requires_grad=True)
b = minitorch.tensor([0.5, 0.5])  # no grad: its edge is (None, 0)
out = my_apply(Mul, w, x, b, False)
check("needs_input_grad of my_apply(Mul, w, x, b, False)", out.grad_fn.needs_input_grad,
      (True, True, False, False),
      hint="one flag per forward argument: a tensor that requires grad, or not")
edges = out.grad_fn.next_functions
check("the number of edges of my_apply(Mul, w, x, b, False)", len(edges), 3,
      hint="one edge per tensor argument: the flag False gets none")
check("the edges, as (w's or x's AccumulateGrad, or None, output_nr)",
      [("w" if getattr(n, "variable", 0) is w else "x" if getattr(n, "variable", 0) is x
        else n, k) for n, k in edges], [("w", 0), ("x", 0), (None, 0)],
      hint="b needs no gradient: its edge is (None, 0)")
out.sum().backward()
check("[w.grad, x.grad] after out.sum().backward()", [w.grad, x.grad], [[3.0, 4.0], None],
      hint="Mul's backward returns None for x when its flag is False")
### BEGIN HIDDEN TESTS
w = minitorch.tensor([0.5, -1.0, 2.0], requires_grad=True)
x = minitorch.tensor([1.5, 2.5, -0.5])  # no grad
b = minitorch.tensor([1.0, 1.0, 1.0], requires_grad=True)
out = my_apply(Mul, w, x, b, True)
e = my_apply(Exp, out * 0.5)  # its edge leads to the built-in op's node
e.backward(minitorch.tensor([1.0, 2.0, 3.0]))
observe(out.grad_fn.name(), out.grad_fn.needs_input_grad, out.grad_fn.next_functions)
observe(e.grad_fn.next_functions, e.detach(), w.grad, x.grad, b.grad)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "apply_errors", "points": 1}
p = minitorch.tensor([1.0, 2.0], requires_grad=True)
q = minitorch.tensor([3.0, 4.0], requires_grad=True)
bad = my_apply(Bad, p, q).sum()
raised = str(check_raises("backward of Bad, whose backward returns 1 gradient for 2 inputs",
                          bad.backward, RuntimeError,
                          hint="count the gradients backward returns against the forward's "
                               "inputs, before handing them on"))
check("its message", raised,
      "function BadBackward returned an incorrect number of gradients (expected 2, got 1)")
### BEGIN HIDDEN TESTS
class _Twice(Function):
    @staticmethod
    def forward(ctx, p):
        return p * 2

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 2, grad_output * 2  # one too many


class _Scaled(Function):
    @staticmethod
    def forward(ctx, p, k):
        ctx.k = k
        return p * k

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.k, None, None  # trailing Nones are allowed


p = minitorch.tensor([1.0, -3.0], requires_grad=True)
try:
    my_apply(_Twice, p).sum().backward()
    raised = None
except RuntimeError as error:
    raised = str(error)
my_apply(_Scaled, p, 4.0).backward(minitorch.tensor([1.0, 0.25]))
observe(raised, p.grad)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "apply_hidden", "points": 2}
class _Probe(Function):
    """Records the grad mode its forward runs in; y = 3 * x * k with k a Python number."""

    seen = []

    @staticmethod
    def forward(ctx, x, k):
        _Probe.seen.append(minitorch.is_grad_enabled())
        ctx.k = k
        return x * (3 * k)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * (3 * ctx.k), None, None  # a trailing None is allowed


with minitorch.course.switched_off("function.apply_custom"):  # minitorch's apply is off
    x = minitorch.tensor([1.0, -2.0], requires_grad=True)
    y = my_apply(_Probe, x, 2.0)
    check("the grad mode forward ran in, and the grad mode after my_apply",
          [_Probe.seen, minitorch.is_grad_enabled()], [[False], True],
          hint="run forward under no_grad(), which restores the mode when it ends")
    check("whether my_apply(_Probe, x, 2.0)'s edges are ((x's AccumulateGrad, 0),)",
          y.grad_fn.next_functions == ((x._grad_accumulator(), 0),), True)
    ### BEGIN HIDDEN TESTS
    expect("[y.requires_grad, y.is_leaf, y.grad_fn.name()] of a recorded call",
           [y.requires_grad, y.is_leaf, y.grad_fn.name()])
    expect("the output of _Probe", y)
    y.backward(minitorch.tensor([1.0, 0.5]))
    expect("x.grad through _Probe", x.grad)
    observe(_Probe.seen, y.grad_fn.name(), y.grad_fn.next_functions, y.detach(), x.grad)

    # a chain of your nodes: edges lead to the previous grad_fn; gradients multiply
    x = minitorch.tensor([0.5, 1.5], requires_grad=True)
    h = x * 2  # a built-in op in between
    e1 = my_apply(Exp, h)
    expect("whether the edge of my_apply(Exp, h) leads to (h.grad_fn, 0)",
           e1.grad_fn.next_functions == ((h.grad_fn, 0),),
           hint="a result of an operation: the edge leads to its grad_fn")
    e2 = my_apply(Exp, e1)
    expect("whether the edge of my_apply(Exp, e1) leads to e1's node",
           e2.grad_fn.next_functions[0][0] is e1.grad_fn)
    e2.sum().backward()
    xd = np.array([0.5, 1.5])
    expect("x.grad through two Exp nodes", x.grad, tol=1e-5)
    observe(e1.grad_fn.next_functions, e2.grad_fn.next_functions, e2.detach(), x.grad)

    # an input that is output 1 of a node with two outputs
    pair = minitorch.tensor([0.25, 2.0], requires_grad=True)
    first, second = pair.unbind()
    e3 = my_apply(Exp, second)
    expect("whether the edge to the second output of unbind() is (its grad_fn, 1)",
           e3.grad_fn.next_functions == ((second.grad_fn, 1),),
           mistakes={"the output number is always 0, not the tensor's _output_nr": False},
           hint="an edge names the output of the node too: t._output_nr")
    e3.backward()
    expect("pair.grad through exp of its second element", pair.grad, tol=1e-6)
    observe(e3.grad_fn.next_functions, pair.grad)

    # nothing to record: no grad mode, or no input that requires grad
    with minitorch.no_grad():
        expect("my_apply(Exp, x).grad_fn under no_grad()", my_apply(Exp, x).grad_fn,
               hint="record nothing when grad mode is off")
    c = my_apply(Mul, minitorch.tensor([2.0]), minitorch.tensor([3.0]), minitorch.tensor([1.0]))
    expect("[grad_fn, requires_grad] of a call where no input requires grad",
           [c.grad_fn, c.requires_grad], hint="record only when some input requires grad")
    expect("its value", c)
    observe(c.grad_fn, c.requires_grad, c)
    ### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "apply_hidden_errors", "points": 1}
class _TooMany(Function):
    @staticmethod
    def forward(ctx, p, q):
        return p + q

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output, grad_output


with minitorch.course.switched_off("function.apply_custom"):
    p = minitorch.tensor([1.0], requires_grad=True)
    q = minitorch.tensor([2.0], requires_grad=True)
    raised = check_raises("backward of a Function whose backward returns 3 gradients for 2 "
                          "inputs", lambda: my_apply(_TooMany, p, q).backward(), RuntimeError,
                          hint="the backward node counts the gradients it gets against its "
                               "forward's inputs before it hands them on")
    check("its message", str(raised), "function _TooManyBackward returned an incorrect number "
          "of gradients (expected 2, got 3)")
    ### BEGIN HIDDEN TESTS
    p = minitorch.tensor([1.0], requires_grad=True)
    outcome = error_of(lambda: my_apply(Bad, p, 5.0).backward())
    expect("the error of backward of a Function given 2 forward arguments (one a number) whose "
           "backward returns 1 gradient", outcome,
           hint="count every forward argument, tensors and numbers alike")
    observe(outcome)

    class _Between(Function):
        """p * k + q * 2, with the Python number k between two tensors."""

        @staticmethod
        def forward(ctx, p, k, q):
            ctx.k = k
            return p * k + q * 2

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.k, None, grad_output * 2

    p = minitorch.tensor([1.0, 2.0], requires_grad=True)
    q = minitorch.tensor([-1.0, 0.5], requires_grad=True)
    out = my_apply(_Between, p, 3.0, q)
    out.backward(minitorch.tensor([1.0, -1.0]))
    observe(out.grad_fn.next_functions, out.detach(), p.grad, q.grad)
    ### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 3: a linear layer as one Function (3 points)
#
# `LinearFunction.apply(x, weight, bias)` computes `x @ weight.T + bias` for `x` of shape
# `(N, in)`, `weight` of shape `(out, in)` and `bias` of shape `(out,)` or `None`. Write its
# backward by hand (no autograd inside it): with `g` of shape `(N, out)`,
# the gradient of `x` is `g @ weight`, of `weight` is `g.T @ x`, of `bias` the sum of `g`
# over the batch. Return `None` for a `None` bias, and skip what `ctx.needs_input_grad` says
# is not needed. Then check it with `gradcheck` in float64, as the notes do.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "linear"}
class LinearFunction(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x, weight)
        out = x @ weight.T
        return out if bias is None else out + bias
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        x, weight = ctx.saved_tensors
        grad_x = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_output @ weight
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.T @ x
        if ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_x, grad_weight, grad_bias
        ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "linear_visible", "points": 1}
rng = np.random.default_rng(3)
xs, ws, bs = rng.normal(size=(4, 3)), rng.normal(size=(2, 3)), rng.normal(size=2)
x, w, b = (minitorch.tensor(v, requires_grad=True) for v in (xs, ws, bs))
out = LinearFunction.apply(x, w, b)
check("LinearFunction.apply(x, w, b)", out, xs @ ws.T + bs, tol=1e-9,
      hint="x @ weight.T + bias, as nn.Linear")
g = np.random.default_rng(5).normal(size=(4, 2))
out.backward(minitorch.tensor(g))
check("x.grad after out.backward(g)", x.grad, g @ ws, tol=1e-9, hint="grad_output @ weight")
check("w.grad after out.backward(g)", w.grad, g.T @ xs, tol=1e-9,
      hint="grad_output.T @ x: one row per output feature")
check("b.grad after out.backward(g)", b.grad, g.sum(axis=0), tol=1e-9,
      hint="the bias is added to every row: sum grad_output over the batch (dim 0)")
out = check_runs("LinearFunction.apply(x, w, None)", lambda: LinearFunction.apply(x, w, None),
                 hint="bias may be None: then forward adds nothing")
check("LinearFunction.apply(x, w, None)", out, xs @ ws.T, tol=1e-9)
check("gradcheck of LinearFunction.apply on (x, w, None)",
      check_runs("gradcheck of LinearFunction.apply on (x, w, None)",
                 lambda: minitorch.autograd.gradcheck(LinearFunction.apply, (x, w, None),
                                                      raise_exception=False)),
      True, hint="without a bias, backward returns None in its place")
### BEGIN HIDDEN TESTS
other = np.random.default_rng(30)
x, w, b = (minitorch.tensor(other.normal(size=shape), requires_grad=True)
           for shape in ((3, 5), (4, 5), (4,)))
out = LinearFunction.apply(x, w, b)
out.backward(minitorch.tensor(other.normal(size=(3, 4))))
observe(out.detach(), x.grad, w.grad, b.grad)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "linear_hidden", "points": 2}
class _LinearCtx:
    """A stand-in ctx: LinearFunction.backward is called directly, with no engine."""

    def __init__(self, needs):
        self.needs_input_grad = needs

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors


def _linear_backward(args, grad, needs=(True, True, True)):
    ctx = _LinearCtx(needs)
    with minitorch.no_grad():
        LinearFunction.forward(ctx, *(minitorch.tensor(a) if a is not None else None for a in args))
    with minitorch.course.switched_off("engine.execute"):  # no autograd inside backward
        return LinearFunction.backward(ctx, minitorch.tensor(grad))


rng = np.random.default_rng(4)  # its own draws: this cell does not depend on the one above
xs, ws, bs, gs = (rng.normal(size=shape) for shape in ((4, 3), (2, 3), (2,), (4, 2)))
grad_x, grad_w, grad_b = _linear_backward((xs, ws, bs), gs)
check("the gradient for the bias, called directly", grad_b, gs.sum(axis=0), tol=1e-9,
      hint="sum grad_output over the batch (dim 0): shape (2,), the bias's shape")
### BEGIN HIDDEN TESTS
expect("the gradient for x, called directly", grad_x, tol=1e-9)
expect("the gradient for the weight, called directly", grad_w, tol=1e-9)
observe(grad_x, grad_w, grad_b)

xs, ws, gs = rng.normal(size=(5, 4)), rng.normal(size=(4, 4)), rng.normal(size=(5, 4))
grad_x, grad_w, grad_b = _linear_backward((xs, ws, None), gs, needs=(False, True, False))
expect("the gradient for a bias that is None", grad_b,
       hint="no bias, or needs_input_grad[2] False: None")
expect("the gradient for a square weight", grad_w, tol=1e-9,
       mistakes={"the weight's gradient is transposed": (gs.T @ xs).T}, hint="grad_output.T @ x")
observe(grad_w, grad_b)  # not grad_x: computing a gradient nobody needs is allowed

x = minitorch.tensor(rng.normal(size=(1, 4)), requires_grad=True)
w = minitorch.tensor(rng.normal(size=(3, 4)), requires_grad=True)
b = minitorch.tensor(rng.normal(size=3), requires_grad=True)
expect("gradcheck of LinearFunction on a batch of one",
       minitorch.autograd.gradcheck(LinearFunction.apply, (x, w, b), raise_exception=False))
observe(LinearFunction.apply(x, w, b).detach())
### END HIDDEN TESTS

# %% [markdown] id="plug-it-in"
# ## Plug it in
#
# `minitorch.autograd.function.use(my_apply)` routes every user-defined Function through your
# `my_apply` inside the block (built-in ops keep minitorch's own path, so forwards still
# work). The notes' examples again, now recorded by your code:

# %%
with minitorch.course.needs("functions", "apply"), function.use(my_apply):
    a = minitorch.tensor([1.0], requires_grad=True)
    result = Exp.apply(a)
    print(result, type(result.grad_fn).__name__)
    result.backward()
    print(a.grad)

    w = minitorch.tensor([1.0, 2.0], requires_grad=True)
    x = minitorch.tensor([3.0, 4.0], requires_grad=True)
    b = minitorch.tensor([0.5, 0.5], requires_grad=True)
    out = Mul.apply(w, x, b)
    print(out)
    out.sum().backward()
    print(w.grad, x.grad, b.grad)

    test_input = minitorch.tensor(
        [-0.4646, -0.4403, 1.2525, -0.5953], dtype=minitorch.float64, requires_grad=True
    )
    # gradcheck also sends an undefined (None) gradient through by default; our small node
    # passes it to backward as it is, where minitorch's node would turn it into zeros
    print(gradcheck(Sigmoid.apply, (test_input,), eps=1e-6, check_undefined_grad=False))

# %% [markdown]
# And something real: a logistic regression, whose sigmoid is the notes' `Sigmoid` and whose
# every custom node is built by your `my_apply`. Two clouds of points, one line between them:

# %%
rng = np.random.default_rng(0)
points = np.concatenate([rng.normal(-1.0, 0.7, size=(50, 2)), rng.normal(1.0, 0.7, size=(50, 2))])
labels = np.concatenate([np.zeros(50), np.ones(50)])
features = minitorch.tensor(points, dtype=minitorch.float32)
targets = minitorch.tensor(labels, dtype=minitorch.float32)

weight = minitorch.zeros(2, requires_grad=True)
bias = minitorch.zeros(1, requires_grad=True)
optimizer = minitorch.optim.SGD([weight, bias], lr=0.5)

with minitorch.course.needs("functions", "apply"), function.use(my_apply):
    for step in range(101):
        prob = Sigmoid.apply(features @ weight + bias)
        loss = -(targets * prob.log() + (1 - targets) * (1 - prob).log()).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 25 == 0:
            accuracy = ((prob > 0.5) == (targets > 0.5)).float().mean().item()
            print(f"step {step:3d}  loss {loss.item():.4f}  accuracy {accuracy:.2f}")
    print(type(prob.grad_fn).__name__, prob.grad_fn.name())

# %%
with minitorch.course.needs("functions", "apply"):
    minitorch.viz.show(loss, params={"weight": weight, "bias": bias}, name_from_caller=False)

# %% [markdown]
# ## What PyTorch does
#
# `torch.autograd.Function.apply` does the same in C++ (`THPFunction_apply`): it builds a
# `<Name>Backward` node that is also the ctx, runs forward with grad mode off, collects one
# edge per tensor input and sets the outputs' `grad_fn`; the engine later calls the node,
# which calls your backward and validates what it returns. The same code in torch, when it
# is installed:

# %%
if os.environ.get("NBGRADER_EXECUTION"):  # grading: nothing here is graded, skip the import
    torch = None
else:
    try:
        import torch
    except ImportError:
        torch = None

if torch is None:
    print("torch skipped: not installed, or the notebook is being graded")
else:
    class TorchExp(torch.autograd.Function):
        forward = staticmethod(Exp.forward)
        backward = staticmethod(Exp.backward)

    class TorchBad(torch.autograd.Function):
        forward = staticmethod(Bad.forward)
        backward = staticmethod(Bad.backward)

    a = torch.tensor([1.0], requires_grad=True)
    result = TorchExp.apply(a)
    result.backward()
    print(result, a.grad, result.grad_fn.next_functions)
    try:
        TorchBad.apply(torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)).sum().backward()
    except RuntimeError as error:
        print("RuntimeError:", error)
