# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Chapter 6: checking gradients with gradcheck
#
# You wrote a `backward` by hand (chapter 3). How do you know it is right? Autograd will
# happily run a wrong one: nothing in the engine compares your formula with the truth.
#
# `gradcheck` does. It computes every derivative a second time, the slow and dumb way — by
# nudging each input a little and watching the output move — and compares the two answers.
# This chapter is about that idea, its one numerical trap (the notes' float32 surprise), and
# the tools around it: `gradgradcheck`, `jacobian`, `hessian`, `vjp` and `jvp`. You will write a numerical
# Jacobian, a gradcheck with torch's pass rule and message, the fast mode torch uses by
# default in its own tests, and the notes' batch norm — proved right by your own check; then
# predict where the eps trap bites, build a Hessian from `create_graph` yourself, and predict
# what the functional API and gradgradcheck say.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "setup"}
import os
import warnings

if os.environ.get("NBGRADER_EXECUTION"):  # autograde and validate: keep graded cells silent
    warnings.simplefilter("ignore")

import importlib
import inspect

import numpy as np

import minitorch
import minitorch.viz as viz
from minitorch.autograd import Function
from minitorch.autograd.functional import hessian, jacobian
from minitorch.checks import check, check_runs
from minitorch.course import error_of, expect, observe

gradcheck_py = importlib.import_module("minitorch.autograd.gradcheck")  # the module, not the function
GradcheckError = gradcheck_py.GradcheckError

# %% [markdown]
# ## 1. The notes' experiment: a Sigmoid, and a surprise
#
# Here is the notes' custom `Sigmoid`, with its backward written by hand from
# $\sigma'(x) = \sigma(x)\,(1 - \sigma(x))$:

# %%
class Sigmoid(Function):

    @staticmethod
    def forward(ctx, x):
        output = 1 / (1 + minitorch.exp(-x))
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        output, = ctx.saved_tensors
        grad_x = output * (1 - output) * grad_output
        return grad_x


test_input = minitorch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], requires_grad=True)
test_input  # the values the notes printed (they drew them with randn; we type them in)

# %% [markdown]
# `gradcheck(func, inputs, eps=...)` returns True when the gradients agree. The notes found
# that both their Sigmoid and the built-in one pass with `eps=1e-3` and **fail** with the
# smaller `eps=1e-4`. (gradcheck warns on the float32 input: read the warning, it is the
# moral of the story.)

# %%
for eps in (1e-3, 1e-4):
    for name, f in (("Sigmoid.apply", Sigmoid.apply), ("minitorch.sigmoid", minitorch.sigmoid)):
        passed = minitorch.autograd.gradcheck(f, (test_input,), eps=eps, raise_exception=False)
        print(f"eps={eps:g}  {name}: {'pass' if passed else 'fail'}")

# %% [markdown]
# Smaller steps should give *better* derivatives, so why does the check get worse? Look at
# what gradcheck prints when it fails: the numerical Jacobian (finite differences) and the
# analytical one (your backward), one row per input element.

# %%
try:
    minitorch.autograd.gradcheck(Sigmoid.apply, (test_input,), eps=1e-4)
except GradcheckError as error:
    print(error)

# %% [markdown]
# The *analytical* values are right; the *numerical* ones are off in the fourth digit. The
# culprit is float32: it carries about 7 significant digits, and the difference
# $\sigma(x+\varepsilon) - \sigma(x-\varepsilon)$ of two numbers near 0.4 loses most of them
# when $\varepsilon = 10^{-4}$. Dividing by $2\varepsilon$ then blows the rounding error up.
# In float64 the same check passes at both steps, and at torch's default `eps=1e-6` (the
# notes run 1e-4 and 1e-6):

# %%
test_input = minitorch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], requires_grad=True,
                              dtype=minitorch.float64)
for eps in (1e-3, 1e-4, 1e-6):
    print(eps, minitorch.autograd.gradcheck(Sigmoid.apply, (test_input,), eps=eps),
          minitorch.autograd.gradcheck(minitorch.sigmoid, (test_input,), eps=eps))

# %% [markdown]
# ## 2. Central differences, and the U-shaped error
#
# The numerical derivative gradcheck uses is the **central difference**
#
# $$f'(x) \approx \frac{f(x+\varepsilon) - f(x-\varepsilon)}{2\varepsilon}.$$
#
# Two errors fight in it:
#
# - **truncation**: Taylor's formula gives $f(x\pm\varepsilon) = f \pm \varepsilon f' +
#   \tfrac{\varepsilon^2}{2} f'' \pm \tfrac{\varepsilon^3}{6} f''' + \dots$; the even terms
#   cancel, so the error is $\tfrac{\varepsilon^2}{6} f'''$ — it *shrinks* with $\varepsilon$.
#   (The forward difference $(f(x+\varepsilon) - f(x))/\varepsilon$ keeps the
#   $\tfrac{\varepsilon}{2} f''$ term: one order worse.)
# - **rounding**: each $f$ value is off by about $u\,|f|$, where $u$ is the unit roundoff
#   ($6\cdot10^{-8}$ in float32, $1.1\cdot10^{-16}$ in float64); divided by $2\varepsilon$ it
#   *grows* like $u|f|/\varepsilon$.
#
# Their sum is smallest near $\varepsilon \approx u^{1/3}$: about $4\cdot10^{-3}$ in float32
# (so 1e-3 works and 1e-4 is already on the rounding side) and $5\cdot10^{-6}$ in float64
# (torch's default 1e-6). Let us measure it, for the Sigmoid at $x = 0.5$:

# %%
import matplotlib.pyplot as plt

steps = np.logspace(-12, 0, 61)
exact = float(minitorch.sigmoid(minitorch.tensor(0.5, dtype=minitorch.float64)) *
              (1 - minitorch.sigmoid(minitorch.tensor(0.5, dtype=minitorch.float64))))


def difference_error(dtype, central):
    """|numerical - exact| of sigma'(0.5) for every step, all steps at once in one tensor."""
    x = minitorch.full((steps.size,), 0.5, dtype=dtype)
    eps = minitorch.tensor(steps, dtype=dtype)
    if central:
        slope = (minitorch.sigmoid(x + eps) - minitorch.sigmoid(x - eps)) / (2 * eps)
    else:
        slope = (minitorch.sigmoid(x + eps) - minitorch.sigmoid(x)) / eps
    return np.abs(slope.numpy().astype(np.float64) - exact)


fig, ax = plt.subplots(figsize=(7, 4))
for dtype, color in ((minitorch.float32, "tab:orange"), (minitorch.float64, "tab:blue")):
    name = str(dtype).removeprefix("minitorch.")
    ax.loglog(steps, difference_error(dtype, True), color=color, label=f"central, {name}")
    ax.loglog(steps, difference_error(dtype, False), color=color, ls=":", label=f"forward, {name}")
ax.set(xlabel="eps", ylabel="|numerical - exact|", title="d sigmoid / dx at 0.5", ylim=(1e-13, 1))
ax.axvline(1e-3, color="gray", lw=0.5)
ax.axvline(1e-4, color="gray", lw=0.5)
ax.legend()
plt.show()

# %% [markdown]
# Read the plot from the right: the error first falls (slope 2 for central differences,
# slope 1 for forward ones — truncation), then rises again with slope −1 (rounding), until
# $\varepsilon$ is so small that $x+\varepsilon$ rounds to $x$ and the difference is 0
# (float32's flat line on the left: an error of $|f'|$ itself). The float32 curve bottoms out between
# $10^{-3}$ and $10^{-2}$, the float64 one near $10^{-5}$, as predicted.
# At $\varepsilon = 10^{-4}$ a single float32 rounding step of $\sigma$ near 0.4 (an *ulp*,
# $3\cdot10^{-8}$), divided by $2\varepsilon$, is already $1.5\cdot10^{-4}$ of derivative;
# gradcheck allows `atol + rtol·|n|` ≈ $2.5\cdot10^{-4}$ here, so two ulps fail the check —
# that is the failure above. At $\varepsilon = 10^{-3}$ an ulp costs ten times less.
#
# Moral: **check gradients in float64**. minitorch warns, as torch does, when you don't.

# %% [markdown]
# ## 3. Second derivatives: gradgradcheck
#
# `gradgradcheck(func, inputs)` checks the *backward of the backward*: it runs gradcheck on
# the function that maps `(inputs, grad_outputs)` to the gradients of `func`, computed with
# `create_graph=True`. A backward built from differentiable tensor operations passes. One that
# detaches what it saved gives the right first derivative and a wrong second one:

# %%
class DetachedSigmoid(Function):

    @staticmethod
    def forward(ctx, x):
        output = 1 / (1 + minitorch.exp(-x))
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        output, = ctx.saved_tensors
        output = output.detach()   # "saves memory": the second derivative now misses a term
        return output * (1 - output) * grad_output


x = minitorch.tensor([0.3, -1.2, 2.0], dtype=minitorch.float64, requires_grad=True)
print("Sigmoid          gradcheck", minitorch.autograd.gradcheck(Sigmoid.apply, (x,)),
      " gradgradcheck", minitorch.autograd.gradgradcheck(Sigmoid.apply, (x,)))
print("DetachedSigmoid  gradcheck", minitorch.autograd.gradcheck(DetachedSigmoid.apply, (x,)),
      " gradgradcheck", minitorch.autograd.gradgradcheck(DetachedSigmoid.apply, (x,),
                                                         raise_exception=False))

# %% [markdown]
# ## 4. Jacobians and Hessians: autograd.functional
#
# gradcheck's *analytical* Jacobian is what `minitorch.autograd.functional.jacobian` returns:
# autograd run once per output element. The notes try it on three functions: a sum of
# squares, a `Linear(4, 2)` layer, and a 4×4 image through `AvgPool2d(2)` then squared. Note
# the layout: **output dims first, then input dims** (`(2, 4)` for the Linear layer). The
# Hessian of a scalar function has the input's shape twice.

# %%
fc = minitorch.nn.Linear(4, 2)
pool = minitorch.nn.AvgPool2d(kernel_size=2)


def scalar_func(x):
    y = x ** 2
    z = minitorch.sum(y)
    return z


def vector_func(x):
    y = fc(x)
    return y


def mat_func(x):
    x = x.reshape((1, 1,) + x.shape)  # noqa: RUF005  (the notes spell it so)
    x = pool(x)
    x = x.reshape(x.shape[2:])
    return x ** 2


vector_input = minitorch.randn(4, requires_grad=True)
mat_input = minitorch.randn((4, 4), requires_grad=True)

j = jacobian(scalar_func, vector_input)
assert j.shape == (4, )
assert minitorch.all(jacobian(scalar_func, vector_input) == 2 * vector_input)
h = hessian(scalar_func, vector_input)
assert h.shape == (4, 4)
assert minitorch.all(hessian(scalar_func, vector_input) == 2 * minitorch.eye(4))
j = jacobian(vector_func, vector_input)
assert j.shape == (2, 4)
assert minitorch.all(j == fc.weight)
j = jacobian(mat_func, mat_input)
assert j.shape == (2, 2, 4, 4)
j[0, 0]  # d out[0, 0] / d input: only the top-left 2x2 block of the image matters

# %% [markdown]
# gradcheck lays its Jacobians out the other way round — **one row per input element, one
# column per output element** — because that is how the numerical one is built: moving input
# element r fills row r. Keep both layouts in mind for the exercises.
#
# A whole Jacobian costs one backward per output element. Often one combination of it is
# all you need, and `autograd.functional` has two that cost one pass each:
#
# - `vjp(f, x, v)` returns `(f(x), v·J)`: a weighted sum of the Jacobian's **rows**, which
#   is what `f(x).backward(v)` computes (chapter 2's gradient argument);
# - `jvp(f, x, u)` returns `(f(x), J·u)`: a weighted sum of its **columns**, the derivative
#   of `f` along the direction `u`.
#
# For `f(x) = x[0] · x` at `x = [1, 2, 3]`, the vector `[0, 1, 0]` picks row 1 of J,
# `[2., 1., 0.]`, in `vjp`, and column 1, `[0., 1., 0.]`, in `jvp`:

# %%
from minitorch.autograd.functional import jvp, vjp


def first_times(x):
    return x[0] * x


x = minitorch.tensor([1., 2., 3.])
pick = minitorch.tensor([0., 1., 0.])
print(jacobian(first_times, x))
print("vjp:", vjp(first_times, x, pick)[1], " jvp:", jvp(first_times, x, pick)[1])

# %% [markdown]
# An output that does not depend on the input (here it was detached) has a Jacobian of
# zeros. With `strict=True`, `jacobian` (and `vjp`, `jvp`, `hessian`) raise instead, to tell
# you the function ignores its input:

# %%
print(jacobian(lambda x: x.detach() * 2, x))
try:
    jacobian(lambda x: x.detach() * 2, x, strict=True)
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ## 5. Inside minitorch: `autograd/gradcheck.py`
#
# The numerical Jacobian is a loop over input elements. `_perturbable` makes a private copy
# of the input; `_central_difference` moves one element of it down and up *in place*,
# evaluates `func` twice, and puts the element back:

# %%
print(inspect.getsource(gradcheck_py.numerical_jacobian))
print(inspect.getsource(gradcheck_py._central_difference))

# %% [markdown]
# `numerical_jacobian` is a course **seam** (the `@course.seam` line): you will plug your own
# in. The slow check then asks autograd for one vector-Jacobian product per output element
# (a one-hot `grad_outputs`: $e_k^\top J$ is column k), and compares the two Jacobians with
# `allclose` — torch's rule, relative to the *numerical* value:
#
# $$|a - n| \le \text{atol} + \text{rtol}\cdot|n| \quad\text{for every element.}$$

# %%
print(inspect.getsource(gradcheck_py._slow_check))
print(inspect.getsource(gradcheck_py.allclose))

# %% [markdown]
# Around that core, gradcheck also checks that the backward is deterministic (it runs it
# twice), that zero `grad_outputs` give zero gradients, and that an undefined (None) output
# gradient is handled. Fast mode (`fast_mode=True`) replaces the two full Jacobians by one
# random projection of each — your challenge exercise.

# %% [markdown]
# ## Exercise 1: a numerical Jacobian (3 points)
#
# Write `numerical_jacobian(f, x, eps=1e-6)`:
#
# - `f` takes one tensor shaped like `x` and returns one floating tensor `y`;
# - return a numpy array of shape `(x.numel(), y.numel())` whose row r is the derivative of
#   the flattened output with respect to element r of the flattened input, by **central
#   differences** with step `eps`;
# - do not modify `x`, and do not use autograd: the point is to check it.
#
# Hints: `x.detach().numpy()` gives the values as a numpy array — it shares memory with `x`,
# as in torch, so build moved copies (`flat + step`) rather than writing into it;
# `minitorch.tensor(array, dtype=x.dtype)` makes a tensor of an array, and `.reshape(-1)`
# flattens one.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "numerical_jacobian"}
def numerical_jacobian(f, x, eps=1e-6):
    """d f(x) / d x by central differences: shape (x.numel(), f(x).numel())."""
    ### BEGIN SOLUTION
    flat = x.detach().numpy().reshape(-1)
    shape = tuple(x.shape)

    def f_at(values):
        return f(minitorch.tensor(values.reshape(shape), dtype=x.dtype)).detach().numpy()

    rows = []
    for r in range(flat.size):
        step = np.zeros_like(flat)
        step[r] = eps
        rows.append((f_at(flat + step) - f_at(flat - step)).reshape(-1) / (2 * eps))
    return np.array(rows).reshape(flat.size, -1)
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "numerical_jacobian_visible", "points": 1}
x = minitorch.tensor([1.0, 2.0, 3.0], dtype=minitorch.float64)
J = numerical_jacobian(lambda t: t * t, x)
check("the shape of the Jacobian of t * t at 3 elements", np.shape(J), (3, 3))
check("the Jacobian of t * t at [1, 2, 3]", J, np.diag([2.0, 4.0, 6.0]), tol=1e-7,
      mistakes={"the difference is divided by eps, not 2 eps": np.diag([4.0, 8.0, 12.0])},
      hint="d(x²)/dx = 2x: central differences (f(x + eps) - f(x - eps)) / (2 eps)")

W = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]])
J = numerical_jacobian(lambda t: minitorch.tensor(W) @ t, x)
check("the shape of the Jacobian of W @ t, 3 inputs and 2 outputs", np.shape(J), (3, 2),
      hint="one row per input element, one column per output element")
check("the Jacobian of W @ t", J, W.T, tol=1e-7)
check("x after the Jacobians, and its requires_grad", [x.tolist(), x.requires_grad],
      [[1.0, 2.0, 3.0], False], hint="move a copy of x, never x itself")
### BEGIN HIDDEN TESTS
# New points, with steps large enough that a forward difference or a wrong divisor shows.
x = minitorch.tensor([[0.4, -1.3], [2.0, 0.7]], dtype=minitorch.float64)
observe(np.asarray(numerical_jacobian(lambda t: (t * t.sin()).sum(1), x, eps=1e-2), dtype=float),
        x.tolist())
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "numerical_jacobian_hidden", "points": 2}
# Central, not forward: with eps = 0.1, (f(x+eps) - f(x-eps)) / (2 eps) of x³ at 1 is exactly
# 3 + eps² = 3.01 (the forward difference gives 3.31, dividing by eps instead of 2 eps 6.02).
one = minitorch.tensor([1.0], dtype=minitorch.float64)
J = numerical_jacobian(lambda t: t ** 3, one, eps=0.1)
check("the Jacobian of t ** 3 at 1 with eps = 0.1", J, [[3.01]], mistakes={
          "the difference is a forward one, f(x + eps) - f(x)": [[3.31]],
          "the central difference is divided by eps, not 2 eps": [[6.02]]},
      hint="central differences: (f(x + eps) - f(x - eps)) / (2 eps)")
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("gradcheck.numerical_jacobian", "gradcheck.allclose"):
    # A tolerance-sensitive case: exp at eps = 1e-3 (central error ~ eps²/6 ~ 2e-7 relative).
    values = np.array([[0.2, -1.0, 0.7], [1.5, 0.0, -0.4]])
    x = minitorch.tensor(values, dtype=minitorch.float64)
    J = numerical_jacobian(lambda t: t.exp(), x, eps=1e-3)
    expect("the shape of the Jacobian of exp on a 2 x 3 input", np.shape(J),
           hint="one row and one column per element, the input flattened")
    expect("whether the Jacobian of exp matches diag(exp(x)) to a relative 1e-6",
           bool(np.allclose(J, np.diag(np.exp(values).reshape(-1)), rtol=1e-6, atol=1e-9)))

    # Finite differences of the forward, never the (here wrong) backward.
    class SinWrongBackward(Function):
        @staticmethod
        def forward(ctx, t):
            return t.sin()

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 0

    x = minitorch.tensor([0.3, -2.0], dtype=minitorch.float64, requires_grad=True)
    J = numerical_jacobian(SinWrongBackward.apply, x)
    expect("whether the Jacobian of a Function with a wrong backward is that of its forward",
           bool(np.allclose(J, np.diag(np.cos([0.3, -2.0])), rtol=1e-6, atol=1e-8)),
           hint="differentiate the forward numerically; never call backward")
    expect("x after the Jacobian, and its .grad", [x.tolist(), x.grad])

    # A matrix input and a 0-d output: one row per input element, one column.
    W = np.array([[1.0, 2.0], [-3.0, 0.5]])
    x = minitorch.tensor([[0.5, -1.0], [2.0, 1.0]], dtype=minitorch.float64)
    J = numerical_jacobian(lambda t: (t * minitorch.tensor(W)).sum(), x)
    expect("the shape of the Jacobian of a 0-d output of a 2 x 2 input", np.shape(J))
    expect("the Jacobian of (t * W).sum()", J[:, 0], tol=1e-7)

    # New points: an element-wise function, one of the first element only (rows 1, 2 are 0).
    x = minitorch.tensor([0.5, -0.25, 1.5], dtype=minitorch.float64)
    observe([np.asarray(numerical_jacobian(f, x, eps=0.05), dtype=float).tolist()
             for f in (lambda t: t.exp(), lambda t: minitorch.tensor(W[:, :1]) @ t[:1] ** 3)],
            np.asarray(numerical_jacobian(lambda t: t.exp(), one, eps=0.1), dtype=float).tolist(),
            x.tolist())
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 2: gradcheck with torch's rule and message (3 points)
#
# Write `my_gradcheck(func, inputs, numerical_jacobian, *, eps=1e-6, atol=1e-5, rtol=1e-3)`:
#
# - `inputs` is a tuple; the inputs that are tensors with `requires_grad=True` are checked
#   (number them 0, 1, ... in order, *among the checked ones*); the others are passed through;
# - `func(*inputs)` returns a tensor or a tuple of tensors (all of them require grad);
# - for every output i and every checked input j, compute the **analytical** Jacobian with
#   autograd (one `minitorch.autograd.grad` per output element, with a one-hot
#   `grad_outputs`, `retain_graph=True`, `allow_unused=True`; an unused input's gradient is
#   `None`: zeros) and the **numerical** one with the `numerical_jacobian` you are given
#   (the signature of exercise 1); both in gradcheck's layout (input elements × output
#   elements);
# - they agree if `|a - n| <= atol + rtol * |n|` for every element; on the first pair that
#   does not (outputs outer, inputs inner), raise `GradcheckError` (imported in the set-up
#   cell) with torch's message:
#
# ```
# Jacobian mismatch for output {i} with respect to input {j},
# numerical:{n as a minitorch tensor}
# analytical:{a as a minitorch tensor}
# ```
#   (a newline after each of the three lines; `minitorch.tensor(n)` of a float64 array prints
#   as torch does, `dtype=torch.float64` included);
# - return True when every pair agrees.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "my_gradcheck"}
def my_gradcheck(func, inputs, numerical_jacobian, *, eps=1e-6, atol=1e-5, rtol=1e-3):
    """True if func's backward agrees with numerical_jacobian; else GradcheckError."""
    ### BEGIN SOLUTION
    inputs = tuple(inputs)
    checked = [j for j, x in enumerate(inputs)
               if isinstance(x, minitorch.Tensor) and x.requires_grad]
    outputs = func(*inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    for i, output in enumerate(outputs):
        analytical = analytical_jacobians(output, [inputs[j] for j in checked])
        for number, (j, a) in enumerate(zip(checked, analytical)):
            n = numerical_jacobian(moving_only(func, inputs, j, i), inputs[j], eps)
            if not np.all(np.abs(a - n) <= atol + rtol * np.abs(n)):
                raise GradcheckError(
                    f"Jacobian mismatch for output {i} with respect to input {number},\n"
                    f"numerical:{minitorch.tensor(n)}\nanalytical:{minitorch.tensor(a)}\n")
    return True


def analytical_jacobians(output, xs):
    """Per input in xs: (x.numel(), output.numel()), column k from a one-hot grad_output."""
    jacobians = [np.zeros((x.numel(), output.numel())) for x in xs]
    for k in range(output.numel()):
        one_hot = np.zeros(output.numel())
        one_hot[k] = 1
        seed = minitorch.tensor(one_hot.reshape(tuple(output.shape)), dtype=output.dtype)
        grads = minitorch.autograd.grad(output, xs, seed, retain_graph=True, allow_unused=True)
        for jacobian_, g in zip(jacobians, grads):
            if g is not None:
                jacobian_[:, k] = g.detach().numpy().reshape(-1)
    return jacobians


def moving_only(func, inputs, j, i):
    """t -> output i of func, with t in place of inputs[j]."""
    def f(t):
        args = list(inputs)
        args[j] = t
        outputs = func(*args)
        return outputs[i] if isinstance(outputs, tuple) else outputs
    return f
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "my_gradcheck_visible", "points": 1}
def fd(f, x, eps):  # the test's own numerical Jacobian (central differences)
    flat = x.detach().numpy().reshape(-1)
    rows = []
    for r in range(flat.size):
        step = np.eye(flat.size)[r] * eps
        hi = f(minitorch.tensor((flat + step).reshape(tuple(x.shape)))).detach().numpy()
        lo = f(minitorch.tensor((flat - step).reshape(tuple(x.shape)))).detach().numpy()
        rows.append((hi - lo).reshape(-1) / (2 * eps))
    return np.array(rows)


class SquareWrongSign(Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t

    @staticmethod
    def backward(ctx, grad_output):
        t, = ctx.saved_tensors
        return -2 * t * grad_output


def outcome(*args, **kwargs):
    """my_gradcheck's verdict: True, or its message (the sign of a zero does not matter)."""
    try:
        return my_gradcheck(*args, **kwargs)
    except GradcheckError as error:
        return str(error).replace("-0.0000", " 0.0000")
    except NotImplementedError:
        raise
    except Exception as error:  # any other error is a wrong verdict, shown as what it raised
        return f"raised {type(error).__name__}: {error}"


x = minitorch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], dtype=minitorch.float64,
                     requires_grad=True)
check("my_gradcheck of a right Sigmoid", outcome(Sigmoid.apply, (x,), fd), True)
x = minitorch.tensor([0.5, -1.25, 2.0], dtype=minitorch.float64, requires_grad=True)
message = outcome(SquareWrongSign.apply, (x,), fd)
check("the message of my_gradcheck for a backward with the wrong sign", message, (
    "Jacobian mismatch for output 0 with respect to input 0,\n"
    "numerical:tensor([[ 1.0000,  0.0000,  0.0000],\n"
    "        [ 0.0000, -2.5000,  0.0000],\n"
    "        [ 0.0000,  0.0000,  4.0000]], dtype=torch.float64)\n"
    "analytical:tensor([[-1.0000,  0.0000,  0.0000],\n"
    "        [ 0.0000,  2.5000,  0.0000],\n"
    "        [ 0.0000,  0.0000, -4.0000]], dtype=torch.float64)\n"))
### BEGIN HIDDEN TESTS
class CubeWrong(Function):  # the backward of t³ written as 2t: right at t = 0 and t = 2/3 only
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 3

    @staticmethod
    def backward(ctx, grad_output):
        t, = ctx.saved_tensors
        return 2 * t * grad_output


s = minitorch.tensor([0.5, 1.5], dtype=minitorch.float64, requires_grad=True)
t = minitorch.tensor([[1.25, -0.5, 2.0]], dtype=minitorch.float64, requires_grad=True)
observe(outcome(lambda s, t: (s[:1] * t).sin(), (s, t), fd),
        outcome(CubeWrong.apply, (s,), fd), outcome(CubeWrong.apply, (t,), fd))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "my_gradcheck_hidden", "points": 2}
def given(value):  # a numerical Jacobian that always answers [[value]]
    return lambda f, x, eps: np.array([[value]])


three_x = lambda t: 3 * t  # noqa: E731   its analytical Jacobian is [[3]]
x = minitorch.tensor([1.0], dtype=minitorch.float64, requires_grad=True)
# The rule is relative to the numerical value n: |3 - 9| <= 1 * 9 passes, |3 - 1| > 1 * 1 fails.
check("my_gradcheck with analytical 3, numerical 9, rtol = 1 (|3 - 9| <= 1 * 9)",
      outcome(three_x, (x,), given(9.0), atol=0.0, rtol=1.0), True,
      hint="the tolerance is relative to the numerical value: |a - n| <= atol + rtol * |n|")
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("gradcheck.numerical_jacobian", "gradcheck.allclose"):
    expect("what my_gradcheck raises with |a - n| = 2 > rtol * |n| = 1",
           error_of(lambda: my_gradcheck(three_x, (x,), given(1.0), atol=0.0, rtol=1.0)),
           hint="the tolerance is relative to the numerical value")
    # atol matters where the derivative is 0: |0 - 1e-6| <= 1e-5 + 1e-3 * 1e-6 passes.
    zero_x = lambda t: 0 * t  # noqa: E731
    expect("my_gradcheck with analytical 0, numerical 1e-6 (within atol)",
           outcome(zero_x, (x,), given(1e-6)), hint="atol matters where the derivative is 0")
    expect("what my_gradcheck raises with |0 - 1e-4| > atol + rtol * 1e-4",
           error_of(lambda: my_gradcheck(zero_x, (x,), given(1e-4))))

    # A Jacobian that is not square: (3 input elements, 2 output elements).
    W = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]])
    x3 = minitorch.tensor([0.2, -0.7, 1.1], dtype=minitorch.float64, requires_grad=True)
    expect("my_gradcheck of W @ t (a Jacobian that is not square)",
           outcome(lambda t: minitorch.tensor(W) @ t, (x3,), fd),
           hint="the analytical Jacobian has one row per input element, one column per output")

    # Several inputs and outputs: the pair is numbered among the checked inputs.
    class AddHalfSecond(Function):  # a + b, with half the gradient for b
        @staticmethod
        def forward(ctx, a, b):
            return a + b

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output, grad_output * 0.5

    c = minitorch.tensor([2.0, 2.0], dtype=minitorch.float64)  # not checked
    a = minitorch.tensor([1.0, -1.0], dtype=minitorch.float64, requires_grad=True)
    b = minitorch.tensor([0.5, 3.0], dtype=minitorch.float64, requires_grad=True)
    pair = lambda c, a, b: (a * b * c, AddHalfSecond.apply(a, b))  # noqa: E731
    expect("my_gradcheck of two right outputs of three inputs, one not checked",
           outcome(lambda c, a, b: (a * b * c, a + b), (c, a, b), fd))
    expect("what my_gradcheck raises for a second output with half the gradient for b",
           error_of(lambda: my_gradcheck(pair, (c, a, b), fd)),
           hint="number the pair among the inputs that require grad")
    expect("a.grad and b.grad after my_gradcheck", [a.grad, b.grad],
           hint="compute the analytical Jacobian with minitorch.autograd.grad, not backward()")

    # The rule on new values: |3 - 1.4| > 1 * 1.4, and |0 - 5e-6| <= 1e-5 + 1e-3 * 5e-6.
    observe(outcome(three_x, (x,), given(2.0), atol=0.0, rtol=1.0),
            outcome(three_x, (x,), given(1.4), atol=0.0, rtol=1.0),
            outcome(zero_x, (x,), given(5e-6)), outcome(zero_x, (x,), given(2e-5)),
            outcome(lambda c, b, a: (a * c, AddHalfSecond.apply(a, b)), (c, b, a), fd),
            outcome(lambda t: (minitorch.tensor(W) @ t, t * 0.5), (x3,), fd))
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 3 (challenge): fast mode, one projection instead of a Jacobian (2 points)
#
# A full Jacobian costs two evaluations of `func` per input element and one backward per
# output element. torch's `fast_mode=True` checks a single number instead. Pick unit vectors
# $u$ (input-shaped) and $v$ (output-shaped) with non-negative entries, and compare
#
# - the numerical $v^\top (J u)$: **one** central difference along the direction $u$,
#   $J u \approx \big(f(x + \varepsilon u) - f(x - \varepsilon u)\big) / (2\varepsilon)$,
#   dotted with $v$;
# - the analytical $(v^\top J)\,u$: **one** backward with `grad_outputs = v`, dotted with $u$.
#
# If every element of $J$ were within `atol` of the truth, the projections would be within
# $\text{atol} \cdot \sum u \cdot \sum v$ of each other, so that is fast mode's absolute
# tolerance: they agree if $|a - n| \le \text{atol}\sum u\sum v + \text{rtol}\,|n|$.
#
# Write `fast_gradcheck(func, x, u, v, *, eps=1e-6, atol=1e-5, rtol=1e-3)` for one input
# tensor `x` (requires grad) and one output. `u` and `v` are numpy arrays with as many
# elements as `x` and `func(x)` (any shape). Return the tuple `(passed, numerical,
# analytical)`, the two projections as Python floats. Call `func` at most three times.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "fast_gradcheck"}
def fast_gradcheck(func, x, u, v, *, eps=1e-6, atol=1e-5, rtol=1e-3):
    """(passed, v·(J u) by one central difference, (vᵀJ)·u by one backward)."""
    ### BEGIN SOLUTION
    u = np.asarray(u, dtype=np.float64).reshape(-1)
    v = np.asarray(v, dtype=np.float64).reshape(-1)
    shape = tuple(x.shape)
    values = x.detach().numpy()

    def f_at(moved):
        return func(minitorch.tensor(moved, dtype=x.dtype)).detach().numpy().reshape(-1)

    step = eps * u.reshape(shape)
    numerical = float(v @ (f_at(values + step) - f_at(values - step)) / (2 * eps))
    output = func(x)
    seed = minitorch.tensor(v.reshape(tuple(output.shape)), dtype=output.dtype)
    vj, = minitorch.autograd.grad(output, (x,), seed)
    analytical = float(vj.detach().numpy().reshape(-1) @ u)
    passed = abs(analytical - numerical) <= atol * u.sum() * v.sum() + rtol * abs(numerical)
    return bool(passed), numerical, analytical
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "fast_gradcheck_visible", "points": 1}
W = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]])
x = minitorch.tensor([0.2, -0.7, 1.1], dtype=minitorch.float64, requires_grad=True)
u = np.array([0.48, 0.6, 0.64])
v = np.array([0.6, 0.8])
passed, numerical, analytical = fast_gradcheck(lambda t: minitorch.tensor(W) @ t, x, u, v)
check("fast_gradcheck's verdict on W @ t", passed, True)
check("fast_gradcheck's numerical value v @ J @ u for W @ t", numerical, v @ W @ u, tol=1e-8,
      hint="the directional derivative along u, then the dot product with v")
check("fast_gradcheck's analytical value for W @ t", analytical, v @ W @ u, tol=1e-12,
      hint="one vector-Jacobian product: grad of the output with grad_outputs = v, dot u")
passed, _, analytical = fast_gradcheck(SquareWrongSign.apply, x, u, np.array([0.6, 0.0, 0.8]))
check("fast_gradcheck's verdict and analytical value for a backward with the wrong sign",
      [passed, analytical], [False, -2 * 0.2 * 0.6 * 0.48 - 2 * 1.1 * 0.8 * 0.64], tol=1e-12)


class NineWithBackwardThree(Function):  # forward 9t, backward 3: analytical 3, numerical 9
    @staticmethod
    def forward(ctx, t):
        return t * 9

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 3


one = minitorch.tensor([1.0], dtype=minitorch.float64, requires_grad=True)
check("fast_gradcheck's verdict with analytical 3, numerical 9, atol 0, rtol 1 (|3 - 9| <= 9)",
      fast_gradcheck(NineWithBackwardThree.apply, one, [1.0], [1.0], atol=0.0, rtol=1.0)[0],
      True, hint="the tolerance is relative to the numerical value: "
                 "|a - n| <= atol·sum(u)·sum(v) + rtol·|n|")
### BEGIN HIDDEN TESTS
x = minitorch.tensor([[0.3, -1.1], [0.8, 2.0]], dtype=minitorch.float64, requires_grad=True)
passed, numerical, analytical = fast_gradcheck(lambda t: (t.sin() * t).sum(0), x,
                                               np.full(4, 0.5), v, eps=1e-3)
observe(bool(passed), float(numerical), float(analytical))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "fast_gradcheck_hidden", "points": 1}
calls = []


def counted_exp(t):
    calls.append(1)
    return t.exp()


rng = np.random.default_rng(6)
values = rng.uniform(-1, 1, (5, 8))
x = minitorch.tensor(values, dtype=minitorch.float64, requires_grad=True)
u, v = rng.random(40), rng.random(40)
u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
passed, numerical, analytical = fast_gradcheck(counted_exp, x, u, v.reshape(5, 8), eps=1e-3)
truth = float(v @ (np.exp(values.reshape(-1)) * u))
check("whether fast mode evaluated func at most 3 times", len(calls) <= 3, True,
      hint=f"{len(calls)} evaluations: f(x + eps u), f(x - eps u) and one forward for "
           "backward suffice")
check("fast_gradcheck's verdict and analytical value on exp", [passed, analytical],
      [True, truth], tol=1e-12)
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("gradcheck.numerical_jacobian", "gradcheck.allclose"):
    # central, with the step divided by 2 eps: relative error ~ eps²/6, not eps/2
    expect("whether the numerical value is within a relative 1e-6 of the truth",
           abs(numerical - truth) < 1e-6 * abs(truth),
           hint="central, with the difference divided by 2 eps")
    # The absolute tolerance scales with sum(u) * sum(v) (= 2 here): where the derivative is 0,
    # a backward off by 1.5e-5 passes, one off by 5e-5 does not.
    class ZeroWrongBackward(Function):
        error = 0.0

        @staticmethod
        def forward(ctx, t):
            return t * 0

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ZeroWrongBackward.error

    x = minitorch.tensor([0.3, -0.8], dtype=minitorch.float64, requires_grad=True)
    u = v = np.array([np.sqrt(0.5), np.sqrt(0.5)])
    for error in (1.5e-5, 5e-5):  # within the tolerance, then past it
        ZeroWrongBackward.error = error
        passed, numerical, analytical = fast_gradcheck(ZeroWrongBackward.apply, x, u, v)
        expect(f"numerical and analytical values for a backward off by {error}",
               [numerical, analytical], tol=1e-15)
        expect(f"fast_gradcheck's verdict for a backward off by {error}", passed,
               hint="the absolute tolerance scales with sum(u) * sum(v)")

    verdicts = []
    for error in (1e-5, 1.9e-5, 3e-5):  # against an absolute tolerance of 2e-5
        ZeroWrongBackward.error = error
        verdicts.append(bool(fast_gradcheck(ZeroWrongBackward.apply, x, u, v)[0]))
    x = minitorch.tensor(values[:2].T, dtype=minitorch.float64, requires_grad=True)
    u = np.linspace(0.1, 0.6, 16)
    passed, numerical, analytical = fast_gradcheck(lambda t: t.exp() * t, x, u / np.linalg.norm(u),
                                                   np.full(16, 0.25), eps=1e-2)
    observe(verdicts, bool(passed), float(numerical), float(analytical))
### END HIDDEN TESTS

# %% [markdown]
# Fast mode needs three evaluations of `func` and one backward, whatever the size of $J$: 40
# inputs and 40 outputs above would have cost 80 evaluations and 40 backward passes. A wrong
# backward almost never survives a random projection (it would have to be wrong *orthogonally*
# to $u$ and $v$), and when it fails torch falls back to the slow mode to print the full
# Jacobians. Draw random $u, v$ yourself and try it on the notes' Sigmoid and on the wrong
# `SquareWrongSign` of exercise 2:

# %%
rng = np.random.default_rng(0)
x = minitorch.randn(30, dtype=minitorch.float64, requires_grad=True)
u, v = rng.random(30), rng.random(30)
u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
with minitorch.course.needs("fast_gradcheck"):
    print("Sigmoid:        ", fast_gradcheck(Sigmoid.apply, x, u, v))
    print("SquareWrongSign:", fast_gradcheck(SquareWrongSign.apply, x, u, v))

# %% [markdown]
# ## Exercise 4: the notes' batch norm, proved right (2 points)
#
# The notes' last example is a batch-norm forward written by hand: normalise every channel
# (dim 1) of an `(N, C, H, W)` input by its mean and **biased** variance over the batch and the
# two spatial dims, then scale and shift per channel:
#
# ```python
# def dummy_bn_forward(x, bn_weight, bn_bias, eps, mean_val=None, var_val=None):
#     if mean_val is None:
#         mean_val = x.mean([0, 2, 3])
#     if var_val is None:
#         # careful: torch.var is unbiased by default, so set unbiased=False by hand
#         var_val = x.var([0, 2, 3], unbiased=False)
#
#     x = x - mean_val[None, ..., None, None]  # per channel: mean_val.shape == [channel]
#     x = x / torch.sqrt(var_val[None, ..., None, None] + eps)
#     x = x * bn_weight[..., None, None] + bn_bias[..., None, None]
#     return mean_val, var_val, x
# ```
#
# Write it with minitorch operations, so that autograd differentiates it (not with
# `minitorch.nn.functional.batch_norm`: its single `NativeBatchNormBackward0` node is what we
# want to check, not what we check with). Given `mean_val` and `var_val` (eval mode, the
# running statistics), use them as they are.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "dummy_bn_forward"}
def dummy_bn_forward(x, bn_weight, bn_bias, eps, mean_val=None, var_val=None):
    """(mean_val, var_val, normalised x), per channel of an (N, C, H, W) x."""
    ### BEGIN SOLUTION
    if mean_val is None:
        mean_val = x.mean([0, 2, 3])
    if var_val is None:
        var_val = x.var([0, 2, 3], unbiased=False)
    x = x - mean_val[None, ..., None, None]
    x = x / minitorch.sqrt(var_val[None, ..., None, None] + eps)
    x = x * bn_weight[..., None, None] + bn_bias[..., None, None]
    return mean_val, var_val, x
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "dummy_bn_forward_visible", "points": 1}
def numpy_bn(x, weight, bias, eps):  # the test's own batch norm, in numpy
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))  # numpy's var is biased
    y = (x - mean[:, None, None]) / np.sqrt(var[:, None, None] + eps)
    return mean, var, y * weight[:, None, None] + bias[:, None, None]


rng = np.random.default_rng(60)
xs, ws, bs = rng.normal(1, 2, (2, 3, 2, 2)), rng.uniform(0.5, 2, 3), rng.normal(0, 1, 3)
x, w, b = (minitorch.tensor(a, dtype=minitorch.float64, requires_grad=True) for a in (xs, ws, bs))
mean, var, y = check_runs("dummy_bn_forward(x, w, b, 0.1) of a (2, 3, 2, 2) x",
                          lambda: dummy_bn_forward(x, w, b, 0.1),
                          hint="statistics over dims (0, 2, 3): one per channel")
want = numpy_bn(xs, ws, bs, 0.1)
check("the shapes of mean, var and y", [tuple(mean.shape), tuple(var.shape), tuple(y.shape)],
      [(3,), (3,), (2, 3, 2, 2)], hint="one mean and one variance per channel (dim 1)")
check("the per-channel mean", mean, want[0], tol=1e-12)
check("the per-channel variance", var, want[1], tol=1e-12,
      mistakes={"the variance is the unbiased one (divided by n - 1)": xs.var(
          axis=(0, 2, 3), ddof=1)}, hint="batch norm normalises with the biased variance")
check("y", y, want[2], tol=1e-12)
check("whether y requires grad", y.requires_grad, True)
check(f"whether y's grad_fn, {type(y.grad_fn).__name__}, is a BatchNorm node",
      "BatchNorm" in type(y.grad_fn).__name__, False,
      hint="build y from operations; calling minitorch's batch norm is not the exercise")
### BEGIN HIDDEN TESTS
new = np.random.default_rng(61)
x3, w3, b3 = (minitorch.tensor(a, dtype=minitorch.float64)
              for a in (new.normal(-1, 0.5, (3, 2, 1, 2)), [1.5, 0.5], [0.25, -2.0]))
observe([t.detach().numpy() for t in dummy_bn_forward(x3, w3, b3, 1e-3)])
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "dummy_bn_forward_hidden", "points": 1}
# The gradient of sum(y * g) for x, weight and bias, against central differences of numpy_bn:
# the gradient for x flows through the batch statistics too (detaching them is wrong).
g = rng.normal(0, 1, (2, 3, 2, 2))
mean, var, y = dummy_bn_forward(x, w, b, 0.1)
grads = minitorch.autograd.grad((y * minitorch.tensor(g)).sum(), (x, w, b))
for k, (array, grad) in enumerate(zip((xs, ws, bs), grads)):
    want = np.zeros(array.size)
    for r in range(array.size):
        moved = [xs, ws, bs]
        step = np.eye(array.size)[r].reshape(array.shape) * 1e-6
        hi = (numpy_bn(*[m + step if i == k else m for i, m in enumerate(moved)], 0.1)[2] * g).sum()
        lo = (numpy_bn(*[m - step if i == k else m for i, m in enumerate(moved)], 0.1)[2] * g).sum()
        want[r] = (hi - lo) / 2e-6
    check(f"the gradient for {('x', 'weight', 'bias')[k]} against central differences",
          bool(np.allclose(grad.detach().numpy().reshape(-1), want, rtol=1e-5, atol=1e-7)),
          True, hint="the gradient for x flows through the batch statistics too: do not "
                     "detach them")
### BEGIN HIDDEN TESTS
# Eval mode: the given statistics are used as they are.
running_mean = minitorch.tensor([0.5, -1.0, 2.0], dtype=minitorch.float64)
running_var = minitorch.tensor([4.0, 0.25, 1.0], dtype=minitorch.float64)
mean, var, y = dummy_bn_forward(x, w, b, 0.0, running_mean, running_var)
expect("whether eval mode returns the given statistics themselves",
       [mean is running_mean, var is running_var])
expected = ((xs - np.array([0.5, -1.0, 2.0])[:, None, None]) / np.array([2.0, 0.5, 1.0])[:, None, None]
            * ws[:, None, None] + bs[:, None, None])
expect("y in eval mode", y, tol=1e-12,
       hint="eval mode normalises with the given statistics, not the batch's")
observe(y.detach().numpy())
# A wider batch: the variance is still the biased one.
xs2 = rng.normal(0, 3, (5, 3, 1, 3))
mean, var, y = dummy_bn_forward(minitorch.tensor(xs2), minitorch.tensor(ws), minitorch.tensor(bs), 1e-5)
expect("the variance of a wider batch", var, tol=1e-12, hint="the biased variance")
observe(var.detach().numpy(), y.detach().numpy())
# The gradients of a new loss, sum(y² g), through the batch statistics.
new = np.random.default_rng(62)
xs4, g4 = new.normal(0.5, 1.5, (3, 2, 2, 1)), new.normal(0, 1, (3, 2, 2, 1))
x4, w4, b4 = (minitorch.tensor(a, dtype=minitorch.float64, requires_grad=True)
              for a in (xs4, [0.8, 1.7], [0.1, -0.3]))
y4 = dummy_bn_forward(x4, w4, b4, 1e-3)[2]
observe([grad.detach().numpy() for grad in
         minitorch.autograd.grad((y4 * y4 * minitorch.tensor(g4)).sum(), (x4, w4, b4))])
### END HIDDEN TESTS

# %% [markdown]
# Now prove the backward of your batch norm with **your** gradcheck and **your** numerical
# Jacobian. The graph shows why it is not trivial: `x` reaches the output directly *and*
# through the mean and the variance.

# %%
x, w, b = (minitorch.tensor(a, dtype=minitorch.float64, requires_grad=True) for a in (xs, ws, bs))


def bn_output(x, w, b):
    return dummy_bn_forward(x, w, b, 1e-5)[2]


with minitorch.course.needs("numerical_jacobian", "my_gradcheck", "dummy_bn_forward"):
    print(my_gradcheck(bn_output, (x, w, b), numerical_jacobian))
    viz.show(bn_output(x, w, b).sum())

# %% [markdown]
# ## Exercise 5: predict gradcheck's verdict (2 points)
#
# Section 2 explained the U-shaped error: too large a step and truncation wins, too small a
# step and rounding wins, and where the bottom of the U lies depends on the dtype. Use it to
# **predict**, before running anything, whether `gradcheck(minitorch.sigmoid, (x,), eps=eps)`
# passes on the notes' input `[-0.4646, -0.4403, 1.2525, -0.5953]` in each of these cases
# (gradcheck's default tolerances, `atol=1e-5`, `rtol=1e-3`). Write `True` (passes) or
# `False` in `eps_predictions`. Then check yourself with `verdict(dtype, eps)`.

# %%
CASES = [("float32", 1e-2), ("float32", 1e-5), ("float32", 0.3),
         ("float64", 1e-2), ("float64", 1e-10), ("float64", 1e-14), ("float64", 0.3)]


def verdict(dtype, eps):
    """Does minitorch's gradcheck pass the built-in sigmoid at this dtype and step?"""
    x = minitorch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], requires_grad=True,
                         dtype=getattr(minitorch, dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the float32 warning: you know it by now
        return minitorch.autograd.gradcheck(minitorch.sigmoid, (x,), eps=eps,
                                            raise_exception=False)


# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "eps_predictions"}
# eps_predictions = {("float32", 1e-2): ..., ...}: one bool per case of CASES
### BEGIN SOLUTION
eps_predictions = {
    ("float32", 1e-2): True, ("float32", 1e-5): False, ("float32", 0.3): False,
    ("float64", 1e-2): True, ("float64", 1e-10): True, ("float64", 1e-14): False,
    ("float64", 0.3): False,
}
### END SOLUTION

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "eps_predictions_visible", "points": 1}
check("the type of eps_predictions", type(eps_predictions).__name__, "dict")
check("the cases of CASES not predicted", [case for case in CASES if case not in eps_predictions],
      [], hint="predict every case of CASES")
check("the predictions that are not True (passes) or False (fails)",
      {case: value for case, value in eps_predictions.items() if not isinstance(value, bool)}, {})
### BEGIN HIDDEN TESTS
observe({case: eps_predictions.get(case) for case in CASES[:3]})
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "eps_predictions_hidden", "points": 1}
check("the number of predictions, one per case", len(eps_predictions), len(CASES))
### BEGIN HIDDEN TESTS
observe({case: eps_predictions.get(case) for case in CASES})
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 6: beyond first order, a Hessian from `create_graph` (3 points)
#
# `gradgradcheck` (section 3) and `hessian` (section 4) both rest on one mechanism: with
# `create_graph=True`, `autograd.grad` records the backward's own arithmetic, so the gradient
# it returns has a `grad_fn` and can be differentiated again (chapter 2 §4: $x^3$ at 5 gives
# 75, then 30).
#
# Write `my_hessian(f, x)` for a function `f` of a 1-D tensor `x` that returns a scalar:
#
# - the gradient $g = \nabla f(x)$ with `create_graph=True` (on a copy of `x` that requires
#   grad: `x.detach().requires_grad_()`);
# - row $i$ of the Hessian is the gradient of $g_i$ with respect to `x`: one more
#   `autograd.grad` per row, with `retain_graph=True`, since every row walks the same graph;
# - return an `(n, n)` tensor of `x`'s dtype that requires no grad
#   (`minitorch.stack(rows)`, then `.detach()`).
#
# Not with `minitorch.autograd.functional.hessian` or `jacobian`: they are switched off in the
# tests. Every function in the tests has a gradient that depends on `x` in every element.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "my_hessian"}
def my_hessian(f, x):
    """The (n, n) Hessian of the scalar f at the 1-D x, by differentiating the gradient."""
    ### BEGIN SOLUTION
    x = x.detach().requires_grad_()
    (g,) = minitorch.autograd.grad(f(x), x, create_graph=True)
    rows = [minitorch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(x.numel())]
    return minitorch.stack(rows).detach()
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "my_hessian_visible", "points": 1}
H = check_runs("my_hessian of x0³ + x1³ + x0·x1 at (1, 2)",
               lambda: my_hessian(lambda t: (t ** 3).sum() + t[0] * t[1],
                                  minitorch.tensor([1., 2.], dtype=minitorch.float64)),
               hint="a copy of x that requires grad; the gradient with create_graph=True; "
                    "each row with retain_graph=True")
check("the type and shape of the Hessian", [type(H).__name__, tuple(getattr(H, "shape", ()))],
      ["Tensor", (2, 2)])
check("d²/dx² of x0³ + x1³ + x0·x1 at (1, 2)", H, [[6.0, 1.0], [1.0, 12.0]],
      mistakes={"every row is the gradient of the summed gradient": [[7.0, 13.0], [7.0, 13.0]]},
      hint="row i is the gradient of g[i], the i-th element of the gradient")
check("[H.requires_grad, H.dtype]", [H.requires_grad, H.dtype], [False, minitorch.float64],
      hint="detached, in x's dtype")
### BEGIN HIDDEN TESTS
observe(my_hessian(lambda t: (t.exp() * t).sum(), minitorch.tensor([0.5, -1.0, 2.0],
                                                                  dtype=minitorch.float64)))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "my_hessian_hidden", "points": 2}
def rosenbrock(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


point = minitorch.tensor([-1.2, 1.0], dtype=minitorch.float64)
H = check_runs("my_hessian of Rosenbrock at (-1.2, 1)", lambda: my_hessian(rosenbrock, point))
check("the Hessian of Rosenbrock at (-1.2, 1)", H,
      [[2 - 400 * (1.0 - 3 * 1.44), 400 * 1.2], [400 * 1.2, 200.0]], tol=1e-12)
### BEGIN HIDDEN TESTS
functional = minitorch.autograd.functional
kept = functional.hessian, functional.jacobian, globals()["hessian"], globals()["jacobian"]


def switched_off(*args, **kwargs):
    raise RuntimeError("autograd.functional is switched off in this test: use autograd.grad")


def sigmoid_pair(t):
    return minitorch.sigmoid(t[0]) * minitorch.sigmoid(t[1]) + (t * t).sum()


functional.hessian = functional.jacobian = hessian = jacobian = switched_off
try:
    rng = np.random.default_rng(66)
    m = minitorch.tensor(rng.normal(size=(4, 4)), dtype=minitorch.float64)
    quadratic = my_hessian(lambda t: (t * (m @ t)).sum(), minitorch.tensor(rng.normal(size=4)))
    expect("the Hessian of a quadratic form t·(m t)", quadratic, tol=1e-12)
    cubic = my_hessian(lambda t: (t ** 3).sum() * t.sum(), minitorch.tensor([0.5, -1.0, 2.0]))
    smooth_point = minitorch.tensor([0.3, -0.7], dtype=minitorch.float64)
    smooth = my_hessian(sigmoid_pair, smooth_point)
finally:
    functional.hessian, functional.jacobian, hessian, jacobian = kept
expect("the Hessian of a smooth function of two sigmoids", smooth, tol=1e-10)
observe(H, quadratic, cubic, smooth)
### END HIDDEN TESTS

# %% [markdown]
# Something real: Newton's method. A gradient step walks downhill; a Newton step solves
# $H\,\delta = \nabla f$ and jumps to the bottom of the local quadratic. On the Rosenbrock
# valley, from the classic start $(-1.2, 1)$, your Hessian finds the minimum $(1, 1)$ in a
# handful of steps (gradient descent needs thousands):

# %%
p = minitorch.tensor([-1.2, 1.0], dtype=minitorch.float64)
with minitorch.course.needs("my_hessian"):
    for step in range(7):
        q = p.detach().requires_grad_()
        (g,) = minitorch.autograd.grad(rosenbrock(q), q)
        p = p - minitorch.tensor(np.linalg.solve(my_hessian(rosenbrock, p).numpy(), g.numpy()))
        print(step, p, f"f = {rosenbrock(p).item():.3g}")

# %% [markdown]
# ## Exercise 7: predict, then run: Jacobians, vjp/jvp and gradgradcheck (2 points)
#
# Each row below is a small program; its last line sets `answer`. In it, `tensor` and `ones`
# are minitorch's, `jacobian`, `hessian`, `vjp` and `jvp` are `autograd.functional`'s,
# `gradcheck` and `gradgradcheck` are `autograd`'s, `x64` is a fresh
# `tensor([0.3, -1.2, 2.0], dtype=float64, requires_grad=True)`, and `DetachedSquare` is the
# Function defined below: `x²`, whose backward detaches what it saved. **Before running
# anything**, predict `answer` for each row from sections 3 and 4:
#
# - a shape as a tuple of ints (`(2, 4)`) if `answer` is a shape;
# - a number if it is a one-element tensor (its `.item()`), `True`/`False` if a bool;
# - the name of the exception, as a string (`"RuntimeError"`), if a line raises.
#
# Write the predictions in `functional_predictions`; the first is done for you. Then check
# yourself with `run_functional_row("b")`.

# %%
class DetachedSquare(Function):

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return 2 * x.detach() * grad_output


FUNCTIONAL_ROWS = {
    "a": "answer = jacobian(lambda x: (x ** 2).sum(), tensor([1., 2., 3.])).shape",
    "b": "answer = jacobian(lambda x: x ** 2, tensor([1., 2., 3.])).shape",
    "c": "answer = jacobian(lambda x: x.sum(0), ones(2, 3)).shape",
    "d": "answer = hessian(lambda x: (x ** 3).sum(), tensor([1., 2.]))[1, 1]",
    "e": "answer = hessian(lambda x: (x ** 3).sum(), tensor([1., 2.]))[0, 1]",
    "f": "out, v_J = vjp(lambda x: x * x.sum(), tensor([1., 2., 3.]), tensor([1., 0., 0.]))\nanswer = v_J.sum()",
    "g": "out, J_u = jvp(lambda x: x * x.sum(), tensor([1., 2., 3.]), tensor([1., 0., 0.]))\nanswer = J_u.sum()",
    "h": "answer = jacobian(lambda x: x.sum().detach() * x, tensor([1., 2.]))[0, 1]",
    "i": "answer = jacobian(lambda x: x.sum().detach() * x, tensor([1., 2.]), strict=True)[0, 0]",
    "j": "answer = gradcheck(DetachedSquare.apply, (x64,))",
    "k": "answer = gradgradcheck(DetachedSquare.apply, (x64,), raise_exception=False)",
    "l": "answer = gradgradcheck(lambda x: x.exp() * x, (x64,))",
    "m": "answer = gradgradcheck(lambda x: x.relu(), (x64,))",
}


def run_functional_row(key):
    """Run FUNCTIONAL_ROWS[key] with fresh names: `answer` (a shape as a tuple, a tensor's
    `.item()`), or the name of the exception a line raised."""
    functional = minitorch.autograd.functional
    names = {"tensor": minitorch.tensor, "ones": minitorch.ones, "jacobian": functional.jacobian,
             "hessian": functional.hessian, "vjp": functional.vjp, "jvp": functional.jvp,
             "gradcheck": minitorch.autograd.gradcheck,
             "gradgradcheck": minitorch.autograd.gradgradcheck, "DetachedSquare": DetachedSquare,
             "x64": minitorch.tensor([0.3, -1.2, 2.0], dtype=minitorch.float64,
                                     requires_grad=True)}
    try:
        exec(FUNCTIONAL_ROWS[key], names)
    except Exception as error:
        return type(error).__name__
    answer = names["answer"]
    if isinstance(answer, minitorch.Tensor):
        return answer.item()
    return tuple(answer) if isinstance(answer, tuple) else answer


def shown(value):
    """A prediction in one form: shapes as tuples, numbers as floats."""
    if isinstance(value, (list, tuple)):
        return repr(tuple(value))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(float(value))
    return repr(value)


for key, code in FUNCTIONAL_ROWS.items():
    print(f"--- {key}\n{code}")

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "functional_predictions"}
functional_predictions = {
    "a": (3,),
}
### BEGIN SOLUTION
functional_predictions.update({
    "b": (3, 3), "c": (3, 2, 3), "d": 12.0, "e": 0.0, "f": 9.0, "g": 12.0, "h": 0.0,
    "i": 3.0, "j": True, "k": False, "l": True, "m": True,
})
### END SOLUTION

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "functional_predictions_visible", "points": 1}
check("the keys of functional_predictions", sorted(functional_predictions),
      sorted(FUNCTIONAL_ROWS), hint='one key per row: functional_predictions = {"a": (3,), ...}')
check("the rows whose prediction is not a shape, a number, a bool or a name",
      sorted(key for key, value in functional_predictions.items()
             if not isinstance(value, (tuple, list, int, float, bool, str))), [],
      hint='write (2, 4), 8.0, True/False or "RuntimeError"')
check("your prediction for row b", shown(functional_predictions["b"]), "(3, 3)",
      hint="output dims first, then input dims (section 4)")
### BEGIN HIDDEN TESTS
observe([shown(functional_predictions.get(key)) for key in ("c", "f", "g", "k")])
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "functional_predictions_hidden", "points": 1}
check("the number of predictions", len(functional_predictions), len(FUNCTIONAL_ROWS),
      hint="one prediction per row of FUNCTIONAL_ROWS")
### BEGIN HIDDEN TESTS
observe({key: shown(value) for key, value in functional_predictions.items()
         if key in FUNCTIONAL_ROWS})
### END HIDDEN TESTS

# %% [markdown] id="plug-it-in"
# ## Plug it in
#
# `gradcheck_py.use(fn)` makes minitorch's own `gradcheck` (and `gradgradcheck`, which calls
# it) take its numerical Jacobians from your `numerical_jacobian`, for every (input, output)
# pair, until the block ends. Everything else — the analytical side, the pass rule, the extra
# checks — stays minitorch's. Check the notes' Sigmoid, a wrong Function, your batch norm and
# a second derivative:

# %%
with minitorch.course.needs("numerical_jacobian", "dummy_bn_forward"), \
        gradcheck_py.use(numerical_jacobian):
    x64 = minitorch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], dtype=minitorch.float64,
                           requires_grad=True)
    print("Sigmoid:        ", minitorch.autograd.gradcheck(Sigmoid.apply, (x64,)))
    print("SquareWrongSign:", minitorch.autograd.gradcheck(SquareWrongSign.apply, (x64,),
                                                           raise_exception=False))
    print("batch norm:     ", minitorch.autograd.gradcheck(bn_output, (x, w, b)))
    print("gradgradcheck:  ", minitorch.autograd.gradgradcheck(Sigmoid.apply, (x64,)))

# %% [markdown]
# Your Jacobian also reproduces the notes' float32 lesson (it perturbs in the input's dtype):

# %%
x32 = minitorch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], requires_grad=True)
with minitorch.course.needs("numerical_jacobian"), gradcheck_py.use(numerical_jacobian):
    for eps in (1e-3, 1e-4):
        print(eps, minitorch.autograd.gradcheck(Sigmoid.apply, (x32,), eps=eps,
                                                raise_exception=False))

# %% [markdown]
# ## What PyTorch does
#
# `torch.autograd.gradcheck` is the same algorithm with more options (complex inputs, sparse
# and batched gradients, forward-mode AD). Its numerical Jacobian perturbs the input in place
# too; `fast_mode=True` is exercise 3 for every (input, output) pair, with random $u, v$
# drawn from a generator with a fixed seed.
# PyTorch's own test suite runs gradcheck and gradgradcheck on nearly every operator
# (`OpInfo` tests in `test/test_ops_gradients.py`), in float64. The cell below replays the
# notes' experiment in torch, if it is installed (not while grading: it grades nothing).
# (torch's fast mode happens to pass the float32 case at eps = 1e-4: one projection can hide
# what the element-wise check sees.)

# %%
if os.environ.get("NBGRADER_EXECUTION"):  # grading: this cell grades nothing, torch costs seconds
    torch = None
else:
    try:
        import torch
    except ImportError:
        torch = None

if torch is None:
    print("torch is not loaded (not installed, or the notebook is being graded): skipped")
else:
    class TorchSigmoid(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            output = 1 / (1 + torch.exp(-x))
            ctx.save_for_backward(output)
            return output

        @staticmethod
        def backward(ctx, grad_output):
            output, = ctx.saved_tensors
            return output * (1 - output) * grad_output

    for dtype, eps in ((torch.float32, 1e-3), (torch.float32, 1e-4), (torch.float64, 1e-4)):
        t = torch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], dtype=dtype, requires_grad=True)
        print(dtype, eps, torch.autograd.gradcheck(TorchSigmoid.apply, (t,), eps=eps,
                                                   raise_exception=False),
              torch.autograd.gradcheck(TorchSigmoid.apply, (t,), eps=eps, fast_mode=True,
                                       raise_exception=False))
    print(torch.autograd.functional.jacobian(lambda t: (t ** 2).sum(), torch.ones(4)))
