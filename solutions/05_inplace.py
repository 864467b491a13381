# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Chapter 5: in-place operations and the version counter
#
# Backward needs values from the forward pass: `y = x**2` needs `x` to compute `2x`. Autograd
# does not copy them; it *keeps a reference* to the tensor. So what happens if you change that
# tensor in place before backward runs? The gradient would be computed from the wrong value,
# silently. PyTorch's promise is stronger: *if you use in-place operations and see no error,
# the gradients are correct.* This chapter is about how that promise is kept.
#
# You will:
# 1. watch a tensor's version counter move, and reproduce the notes' failing cell;
# 2. meet the two escape hatches, `.data` (undetected, dangerous) and `.detach()` (detected),
#    anomaly mode, and saved-tensor hooks;
# 3. open `SavedTensor` in `minitorch/autograd/graph.py`;
# 4. write your own version-checked saved tensor, plug it into minitorch, catch the notes' bug
#    with it, and fix the notes' cell;
# 5. bend the backward with a tensor hook, and predict what the debugging tools (anomaly
#    mode, saved-tensor hooks, `retain_graph`, threads) do before you run them.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "setup"}
import os
import warnings

from minitorch.checks import check, check_runs
from minitorch.course import error_of, expect, observe

if os.environ.get("NBGRADER_EXECUTION"):  # autograde and validate: keep graded cells silent
    warnings.simplefilter("ignore")

import inspect
import itertools
import tempfile

import numpy as np

import minitorch
from minitorch import course, nn
from minitorch.autograd import graph

# %% [markdown]
# ## 1. Every tensor counts its in-place changes
#
# A tensor carries a *version counter*, `t._version`. It starts at 0 and every in-place
# operation adds one: `add_`, `mul_`, `zero_`, `copy_`, `t[i] = v`, `+=`. Out-of-place
# operations make a new tensor and leave it alone. Watch it move:

# %%
t = minitorch.ones(3)
steps = [
    ("start", lambda: None),
    ("t.add_(1)", lambda: t.add_(1)),
    ("t.mul_(2)", lambda: t.mul_(2)),
    ("t[0] = 5", lambda: t.__setitem__(0, 5.0)),
    ("t.zero_()", lambda: t.zero_()),
    ("u = t + 1", lambda: t + 1),
    ("t.requires_grad_()", lambda: t.requires_grad_()),
]
for text, step in steps:
    step()
    print(f"{text:20} t._version = {t._version}")

# %% [markdown]
# The counter belongs to the *memory*, not to the Python object: a view or a `detach()`ed
# tensor shares it (it is the same memory), `clone()` starts a new one (new memory). And
# `.data`, as we will see, gets a fresh one although it shares the memory: that is its trap.

# %%
d, c, data = t.detach(), t.clone(), t.data
print("t, detach(), clone(), .data:", t._version, d._version, c._version, data._version)
d.add_(1)
print("after d.add_(1):            ", t._version, d._version, c._version, data._version)

# %% [markdown]
# ## 2. The notes' failing cell
#
# The notes change `x` in place *after* `y1 = x**2` used it, then call backward:

# %%
x = minitorch.ones(1, 10, requires_grad=True)
y1 = x**2  # PowBackward0 saves x (it needs x for 2x)
print("saved x is x:", y1.grad_fn._saved_self is x, "| x._version =", x._version)
with minitorch.no_grad():
    x += 1  # but x changes in place: version 1
    y2 = x**2
z = y1**2 + y2**2
print("x._version =", x._version)
try:
    z.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# The notes (PyTorch 1.x) printed `[torch.FloatTensor [1, 10]] ... set_detect_anomaly(True).`;
# torch 2.13 ends the hint with `(True, check_nan=False)`, and minitorch says `minitorch.`
# where torch says `torch.`. Otherwise the message is the same, word for word.
#
# The graph shows what happened: `PowBackward0` saved `x` at version 0, and `x` is now at
# version 1.

# %%
minitorch.viz.draw(z, show_saved=True, show_version=True, name_from_caller=True)

# %% [markdown]
# Why refuse? `dz/dx` through `y1` is `2·y1 · 2x = 4x³`, with the `x` of the forward: `4`.
# Backward would read the `x` it kept, which is now `2`, and return `2·1 · 2·2 = 8`. A
# wrong gradient with no error is the worst kind of bug; the version counter turns it into a
# loud one.
#
# ## 3. In-place on leaves and on results
#
# An in-place change of a *leaf that requires grad* is refused outright, outside `no_grad`:
# autograd could not record it (a leaf has no history to attach it to). Under `no_grad` it is
# allowed (that is how optimizers update parameters) and only bumps the version.

# %%
w = minitorch.ones(2, requires_grad=True)
try:
    w.add_(1)
except RuntimeError as error:
    print("RuntimeError:", error)
with minitorch.no_grad():
    w.add_(1)
print(w, w._version)

# %% [markdown]
# An in-place change of a *result* is recorded: its `grad_fn` becomes the in-place operation's
# node. It is fine, unless some node saved the old value. `exp` saves its result (the
# derivative of `eˣ` is `eˣ`), so changing it breaks `ExpBackward0`; `x * 3` saves nothing
# that matters here, and the same change is harmless.

# %%
a = minitorch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.add_(1)
b.sum().backward()
print("b's grad_fn is now", b.grad_fn.name(), "| a.grad =", a.grad)

e = a.exp()
e.add_(1)
try:
    e.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# ## 4. `.data` versus `.detach()`
#
# Both give you the same memory without the graph. The difference is the version counter:
# `detach()` shares it, so a change through it is still caught; `.data` has its own, so a
# change through it is invisible. Zero a sigmoid's output both ways (sigmoid saves its
# output, since `σ' = σ(1 - σ)`):

# %%
x = minitorch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
print("the true gradient σ(1-σ):", (y * (1 - y)).detach())
y.detach().zero_()
try:
    y.sum().backward()
except RuntimeError as error:
    print("through detach():", error)

x = minitorch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
y.data.zero_()
y.sum().backward()
print("through .data, no error, and a wrong gradient:", x.grad)

# %% [markdown]
# The notes also assign to `.data`: the values change, the version does not, and `x` stays a
# leaf that requires grad. Use `.data` only where you would use `no_grad`, and prefer
# `with minitorch.no_grad(): x.copy_(...)`, which the version counter sees.

# %%
x = minitorch.ones(1, 2, requires_grad=True)
x.data = x.data + 1
print(x.sum(), "| version", x._version)
print(x.requires_grad, x.is_leaf)

# %% [markdown]
# ## 5. Anomaly mode names the culprit
#
# The error says *that* a saved tensor changed, not *which operation* saved it. Run the
# forward under anomaly mode: every node then remembers the stack of its forward call, and
# when backward fails the engine warns with it (the warning names `PowBackward0` and shows the
# line `y1 = x**2`), and the hint changes. It slows everything down: use it to debug only.

# %%
with minitorch.autograd.set_detect_anomaly(True):
    x = minitorch.ones(1, 10, requires_grad=True)
    y1 = x**2
    with minitorch.no_grad():
        x += 1
    try:
        (y1**2).sum().backward()
    except RuntimeError as error:
        print("RuntimeError:", error)

# %% [markdown]
# How it works, in `minitorch/autograd/anomaly_mode.py`: while the mode is on, every recorded
# operation stores the Python stack of its forward call on its node (`node._anomaly_trace`); when a
# node raises in backward the engine calls this before re-raising:

# %%
print(inspect.getsource(minitorch.autograd.anomaly_mode.warn_forward_trace))

# %% [markdown]
# Anomaly mode checks one more thing: every gradient a node returns in backward. A `nan`
# there raises at once, naming the node, instead of flowing silently into `.grad`. Chapter 2's
# kinks give one: `sqrt` has derivative `inf` at 0, and `inf · 0` is `nan`:

# %%
x = minitorch.tensor(0., requires_grad=True)
(x.sqrt() * 0).backward()
print("without anomaly mode: x.grad =", x.grad)
with minitorch.autograd.set_detect_anomaly(True):
    x = minitorch.tensor(0., requires_grad=True)
    try:
        (x.sqrt() * 0).backward()
    except RuntimeError as error:
        print("RuntimeError:", error)

# %% [markdown]
# ## 6. Saved-tensor hooks: you decide where saved tensors live
#
# `saved_tensors_hooks(pack_hook, unpack_hook)` (notes 001) lets you store what backward
# needs somewhere else: `pack_hook(tensor)` runs when an operation saves a tensor and may
# return anything; `unpack_hook(packed)` runs in backward and must give the tensor back. (The
# notes name the API and its purpose but give no example.) In `y = x.exp(); (y * x).sum()`
# three tensors are packed: `exp` saves its result, `*` saves both operands. An operation
# whose derivative needs no value (`+`, `sum`) saves nothing, so nothing is packed for it.
# `unpack_hook` runs when backward uses a saved tensor, once per use: after the `with`
# block too (the hooks stay attached to what they packed), and again in a second backward
# through a kept graph.

# %%
packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t


x = minitorch.ones(3, requires_grad=True)
with graph.saved_tensors_hooks(pack, lambda t: t):
    y = x.exp()
    loss = (y * x).sum()
print(len(packed), "tensors packed")

# %% [markdown]
# The classic use is to save memory: keep the saved tensors on the CPU, or on disk, between
# forward and backward. Here they go to `.npy` files:

# %%
class save_on_disk(graph.saved_tensors_hooks):
    def __init__(self, folder):
        names = itertools.count()

        def pack_to_file(tensor):
            path = os.path.join(folder, f"{next(names)}.npy")
            np.save(path, tensor.detach().numpy())
            return path

        def unpack_from_file(path):
            return minitorch.from_numpy(np.load(path))

        super().__init__(pack_to_file, unpack_from_file)


x = minitorch.tensor([0.5, 1.0, 2.0], requires_grad=True)
with tempfile.TemporaryDirectory() as folder:
    with save_on_disk(folder):
        z = (x.exp() * x).sum()
    print(sorted(os.listdir(folder)))
    z.backward()
print(x.grad, "= (x + 1) eˣ")

# %% [markdown]
# There is a price. Once hooks store a tensor, the library no longer holds it, so it cannot
# check its version: with hooks, the notes' cell gives the wrong `8` without a word, in torch
# as in minitorch.

# %%
log = []
with graph.saved_tensors_hooks(lambda t: log.append(("pack", t._version)) or t,
                               lambda t: log.append(("unpack", t._version)) or t):
    x = minitorch.ones(1, 10, requires_grad=True)
    y1 = x**2
    with minitorch.no_grad():
        x += 1
        y2 = x**2
    z = y1**2 + y2**2
    z.sum().backward()
print(log)
print(x.grad)

# %% [markdown]
# The log holds the fix: `x` was packed at version 0 and unpacked at version 1. A pack hook
# that *records* the version and an unpack hook that *checks* it would have caught the bug.
# That is what `SavedTensor` does, and what you will write.
#
# ## 7. Inside minitorch: `SavedTensor` in `autograd/graph.py`
#
# When a node saves a tensor (`ctx.save_for_backward`, or a built-in op), minitorch wraps it in
# a `SavedTensor`:

# %%
print(inspect.getsource(graph.SavedTensor))

# %% [markdown]
# - `__init__` records `tensor._version_counter.value` *at save time*: that is the whole trick.
#   It keeps the tensor itself (no copy), or, when saved-tensor hooks are active, whatever the
#   pack hook returned (the hook runs with grad mode off, as in torch). A node that saves *its own output* (exp, sigmoid) keeps only an alias
#   of the data, because the output points back at the node and the pair would form a cycle;
#   unpack rebuilds it.
# - `unpack(owner)` runs in backward. A freed value (after a backward without
#   `retain_graph`) gives torch's "backward through the graph a second time" error; a hooked
#   one comes back from the unpack hook *unchecked*; otherwise `check_version` compares:

# %%
print(inspect.getsource(graph.check_version))

# %% [markdown]
# The message names the tensor's type and shape, then, if it is not a leaf, *which output of
# which operation* it is (the node name without `Backward0`), then the two versions. One
# oddity is copied from torch: for a saved *input*, torch always writes "output 0" (it keeps
# an output number only for saved outputs).
#
# `check_version` is this chapter's *seam*: `SavedTensor.unpack` looks it up in the module at
# every call, so the course can plug something else in, or switch minitorch's own off while
# it grades you.
#
# ## Exercise 1: a version-checked saved tensor (4 points)
#
# Write a class `VersionedSave`:
#
# - `VersionedSave(tensor)` keeps `tensor` and records its version *now*;
# - `.get()` returns the tensor if no in-place operation changed it since; otherwise it raises
#   a `RuntimeError` with the message minitorch gives:
#
#   `PREFIX + "[torch.FloatTensor [1, 10]], which is output 0 of Pow, is at version 2; expected version 0 instead. " + HINT`
#
#   with the constants of the next cell. The type is `TENSOR_TYPES[tensor.dtype]`, the shape
#   the sizes joined by `", "` (`[]` for a 0-d tensor). The clause `, which is output N of X,`
#   appears only if the tensor has a `grad_fn` when `.get()` runs: `X` is `grad_fn.name()`
#   cut before `Backward` (`"PowBackward0"` gives `Pow`), and `N` is the tensor's
#   output number, which minitorch keeps in `tensor._output_nr` (torch's `tensor.output_nr`).
#
# Use the counter, not the values: a change that puts the same values back is still a change.
# The tests run with minitorch's own check switched off.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "message_parts"}
PREFIX = ("one of the variables needed for gradient computation has been modified by an "
          "inplace operation: ")
HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
TENSOR_TYPES = {minitorch.float32: "torch.FloatTensor",
                minitorch.float64: "torch.DoubleTensor"}

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "versioned_save"}
class VersionedSave:
    """Keep a tensor for backward; give it back only if nothing changed it in place."""

    def __init__(self, tensor):
        ### BEGIN SOLUTION
        self.tensor = tensor
        self.version = tensor._version
        ### END SOLUTION

    def get(self):
        ### BEGIN SOLUTION
        tensor, now = self.tensor, self.tensor._version
        if now == self.version:
            return tensor
        which = ""
        if tensor.grad_fn is not None:
            op = tensor.grad_fn.name().rsplit("Backward", 1)[0]
            which = f", which is output {tensor._output_nr} of {op},"
        shape = ", ".join(str(size) for size in tensor.shape)
        raise RuntimeError(f"{PREFIX}[{TENSOR_TYPES[tensor.dtype]} [{shape}]]{which} is at "
                           f"version {now}; expected version {self.version} instead. {HINT}")
        ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "versioned_save_basics", "points": 1}
# Unchanged tensors come back as they are; in-place changes are caught, out-of-place ones not.
def message_of(kept):
    """The message of the RuntimeError that kept.get() raises, or None if it returns."""
    try:
        kept.get()
    except NotImplementedError:  # not answered yet: not the error the tests look for
        raise
    except RuntimeError as error:
        return str(error)
    return None


t = minitorch.ones(3)
kept = VersionedSave(t)
check("whether get() of an unchanged tensor returns the tensor itself", kept.get() is t, True)
u = t + 1
t.requires_grad_()
check("whether get() still returns t after u = t + 1 and t.requires_grad_()", kept.get() is t,
      True, hint="out-of-place operations and requires_grad_() do not change t's version")
with minitorch.no_grad():
    t.mul_(1)  # same values, but an in-place change
message = message_of(kept)
check("whether get() raised a RuntimeError after t.mul_(1)", message is not None, True,
      hint="t changed in place (same values, a new version): compare versions, not values")
check("whether its message says the versions", "is at version 1; expected version 0 "
      "instead." in message, True, hint="the version now, then the version saved, in "
      "minitorch's words (see the message above)")
### BEGIN HIDDEN TESTS
later = VersionedSave(t)
observe(message, later.get() is t, message_of(later))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "versioned_save_message", "points": 1}
def expect_message(kept, body):
    """Check that kept.get() raises minitorch's message with this body; return it."""
    want = ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {body} Hint: enable anomaly detection to find the operation "
            "that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")
    got = message_of(kept)
    check("the message of get() after an in-place change", got, want)
    return got


x = minitorch.ones(1, 10, requires_grad=True)  # the notes' x, saved by y1 = x**2
kept = VersionedSave(x)
with minitorch.no_grad():
    x += 1
expect_message(kept, "[torch.FloatTensor [1, 10]] is at version 1; expected version 0 instead.")
### BEGIN HIDDEN TESTS
with minitorch.no_grad():
    x += 1
observe(message_of(kept), message_of(VersionedSave(x)))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "versioned_save_hidden", "points": 2}
# Results of operations, several changes, a later save, several outputs, 0-d tensors, .data
# and detach(); minitorch's own check switched off.
check("the shape of VersionedSave(minitorch.ones(2)).get()",
      tuple(VersionedSave(minitorch.ones(2)).get().shape), (2,))
### BEGIN HIDDEN TESTS
with course.switched_off("graph.check_version"):
    seen = []
    x = minitorch.ones(2, 3, dtype=minitorch.float64, requires_grad=True)
    e = x.exp()
    kept = VersionedSave(e)
    expect("whether get() returns an unchanged result of exp()", kept.get() is e)
    with minitorch.no_grad():
        e.mul_(2)
        e.add_(1)
    seen.append(expect_message(kept, "[torch.DoubleTensor [2, 3]], which is output 0 of "
                                     "Exp, is at version 2; expected version 0 instead."))

    w = minitorch.ones(3, requires_grad=True)
    with minitorch.no_grad():
        w.add_(1)
    kept = VersionedSave(w)  # saved at version 1
    expect("whether get() returns a tensor saved after an in-place change", kept.get() is w,
           hint="compare with the version at the time of saving, not 0")
    with minitorch.no_grad():
        w.mul_(2)
    seen.append(expect_message(kept, "[torch.FloatTensor [3]] is at version 2; expected "
                                     "version 1 instead."))

    class Two(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2, a * 3

        @staticmethod
        def backward(ctx, g, h):
            return 2 * g + 3 * h

    p, q = Two.apply(minitorch.ones(4, requires_grad=True))
    kept = VersionedSave(q)
    with minitorch.no_grad():
        q.zero_()
    seen.append(expect_message(kept, "[torch.FloatTensor [4]], which is output 1 of Two, "
                                     "is at version 1; expected version 0 instead."))

    s = minitorch.tensor(2.0, requires_grad=True) * 1
    kept = VersionedSave(s)
    s.add_(1)  # recorded: s's grad_fn is now AddBackward0
    seen.append(expect_message(kept, "[torch.FloatTensor []], which is output 0 of Add, is "
                                     "at version 1; expected version 0 instead."))

    y = minitorch.tensor([1.0, 2.0], requires_grad=True).sigmoid()
    kept = VersionedSave(y)
    y.data.zero_()  # .data has its own counter: undetected, as in minitorch and torch
    seen.append(kept.get() is y)
    y.detach().zero_()  # detach() shares it: detected
    seen.append(expect_message(kept, "[torch.FloatTensor [2]], which is output 0 of "
                                     "Sigmoid, is at version 1; expected version 0 instead."))
    observe(seen)
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 2: plug it in, and catch the notes' bug (2 points)
#
# `graph.use(saved_class)` plugs a class like yours into minitorch: inside the block, every
# tensor an operation saves for backward is kept in a `saved_class(tensor)`, and backward asks
# its `.get()` for it. (It rides on the saved-tensor hooks of section 6, which is also how you
# could do this in PyTorch; and it refuses tensors saved before the block, which your class
# never saw.)
#
# Write `catch_notes_bug(saved_class)`: run the notes' failing cell of section 2 (a fresh
# `x = minitorch.ones(1, 10, requires_grad=True)`, `y1`, the in-place `x += 1` and `y2` under
# `no_grad`, `z`, and `z.sum().backward()`) with `saved_class` plugged in, and return the
# message (`str`) of the `RuntimeError` that backward raises, or `None` if backward finishes.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "catch_notes_bug"}
def catch_notes_bug(saved_class):
    """The notes' failing cell with saved_class keeping the saved tensors: the error or None."""
    ### BEGIN SOLUTION
    with graph.use(saved_class):
        x = minitorch.ones(1, 10, requires_grad=True)
        y1 = x**2
        with minitorch.no_grad():
            x += 1
            y2 = x**2
        z = y1**2 + y2**2
        try:
            z.sum().backward()
        except RuntimeError as error:
            return str(error)
    return None
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "catch_notes_bug_visible", "points": 1}
class Spy:
    """Keeps tensors, checks nothing, and logs the versions it sees."""

    log = []

    def __init__(self, tensor):
        self.tensor = tensor
        Spy.log.append(("save", tensor._version))

    def get(self):
        Spy.log.append(("get", self.tensor._version))
        return self.tensor


check("catch_notes_bug(Spy)", check_runs("catch_notes_bug(Spy)", lambda: catch_notes_bug(Spy)),
      None,
      hint="Spy checks nothing: backward goes through, and there is no message to return")
check("what Spy logged: (save or get, the version then)", Spy.log,
      [("save", 0), ("save", 0), ("get", 0), ("get", 1)],
      hint="the notes' cell saves x twice (y1 = x**2, y2 = x**2), changes x in place, then "
           "backward gets both; use the class inside saved-tensor hooks for the whole cell")
### BEGIN HIDDEN TESTS
class Refuse(Spy):
    def get(self):
        raise RuntimeError(f"refused at version {self.tensor._version}")


Spy.log = []
observe(catch_notes_bug(Refuse), Spy.log)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "catch_notes_bug_hidden", "points": 1}
# With minitorch's own check switched off, a checking class decides.
Spy.log = []
check("catch_notes_bug(Spy), and how many saves and gets Spy logged",
      [catch_notes_bug(Spy), len(Spy.log)], [None, 4])
### BEGIN HIDDEN TESTS
class Strict:
    def __init__(self, tensor):
        self.tensor, self.version = tensor, tensor._version

    def get(self):
        if self.tensor._version != self.version:
            raise RuntimeError(f"strict: {tuple(self.tensor.shape)} went from version "
                               f"{self.version} to {self.tensor._version}")
        return self.tensor


with course.switched_off("graph.check_version"):
    expect("catch_notes_bug(Strict), a class that raises its own message",
           check_runs("catch_notes_bug(Strict)", lambda: catch_notes_bug(Strict),
                     hint="catch the RuntimeError of backward and return its message"),
           hint="return the message of the RuntimeError the class raised, as it is")
    Spy.log = []
    expect("catch_notes_bug(Spy) with minitorch's check off", catch_notes_bug(Spy))
    expect("what Spy logged", Spy.log)
    observe(catch_notes_bug(Strict), Spy.log)
### END HIDDEN TESTS

# %% [markdown]
# ## Plug it in
#
# Your class now stands where minitorch's check stood. With minitorch's own check switched
# off, the notes' bug is caught by your code alone, with the same message:

# %%
with course.needs("versioned_save", "catch_notes_bug"), \
        course.switched_off("graph.check_version"):
    print(catch_notes_bug(VersionedSave))

# %% [markdown]
# And it is transparent when nothing is wrong: train a small network for a few steps with
# every saved tensor kept by `VersionedSave`, and again with minitorch's own `SavedTensor`; the
# losses agree to the last digit. The optimizer's in-place updates happen between a backward
# and the next forward, so no saved tensor is ever stale.

# %%
def train(steps=5):
    minitorch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    inputs, targets = minitorch.randn(16, 3), minitorch.randn(16, 1)
    opt = minitorch.optim.SGD(net.parameters(), lr=0.1)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = ((net(inputs) - targets) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 6))
    return losses


with course.needs("versioned_save"):
    with course.switched_off("graph.check_version"), graph.use(VersionedSave):
        yours = train()
    print(yours)
    print(train() == yours)

# %% [markdown]
# ## Exercise 3: fix the notes' cell (3 points)
#
# The cell wants three things: `y1` from `x` *before* the step, a step `x += 1` that changes
# the caller's `x` in place (think of an optimizer's update), and `y2` from the stepped `x`,
# without grad. Then `z = y1**2 + y2**2` and `z.sum().backward()`. The gradient it wants is the
# one through `y1` at the *old* `x`: `dz/dx = 4x³`.
#
# Write `fixed_cell(x)` for a leaf `x` that requires grad: do all that so that backward works
# with minitorch's check on, and return `z`. Afterwards `x` must hold the stepped values,
# and `x.grad` must be `4 x³` of the old values. (There is more than one good fix. `.data` is
# not one of them: check the gradient it gives.)

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "fixed_cell"}
def fixed_cell(x):
    """The notes' cell, fixed: the step in place, the gradient at the old x; returns z."""
    ### BEGIN SOLUTION
    y1 = x.clone() ** 2  # pow saves the clone, which the step does not touch
    with minitorch.no_grad():
        x += 1
        y2 = x**2
    z = y1**2 + y2**2
    z.sum().backward()
    return z
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "fixed_cell_visible", "points": 1}
x = minitorch.ones(1, 10, requires_grad=True)
z = check_runs("fixed_cell(x), x = ones(1, 10)", lambda: fixed_cell(x),
               hint="pow saves its input for backward: give it one the step does not change")
check("x after fixed_cell(x), x = ones(1, 10)", x, np.full((1, 10), 2.0),
      hint="the cell still adds 1 to x in place, under no_grad")
check("x.grad after fixed_cell(x)", x.grad, np.full((1, 10), 4.0), mistakes={
          "y2 is computed with grad on, so both branches count": np.full((1, 10), 36.0),
          "y1 is computed after the in-place step": np.full((1, 10), 32.0),
          "the step goes through x.data, which autograd does not see (4 x_old² x_new)":
              np.full((1, 10), 8.0)},
      hint="dz/dx = 4 x**3 at the old x = 1: y1 must use x before the change")
check("z after fixed_cell(x)", z, np.full((1, 10), 17.0), hint="1**2 + 4**2")
### BEGIN HIDDEN TESTS
x = minitorch.tensor([[2.0, -0.5]], requires_grad=True)
z = fixed_cell(x)
observe(z, x, x.grad)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "fixed_cell_hidden", "points": 2}
# Other values and dtypes, compared with numpy.
x = minitorch.ones(3, requires_grad=True)
check("fixed_cell(ones(3))", check_runs("fixed_cell(ones(3))", lambda: fixed_cell(x)),
      [17.0] * 3)
### BEGIN HIDDEN TESTS
for dtype, values in [(minitorch.float64, [[0.5, -1.0, 2.0], [3.0, 0.0, -0.25]]),
                      (minitorch.float32, [1.5, -2.0, 0.75])]:
    old = np.array(values)
    x = minitorch.tensor(values, dtype=dtype, requires_grad=True)
    z = fixed_cell(x)
    expect(f"whether x is still a leaf that requires grad, of dtype {dtype}",
           [x.is_leaf, x.requires_grad, x.dtype == dtype],
           hint="change x in place; do not replace it with a new tensor")
    expect(f"x after fixed_cell, {dtype}", x, tol=1e-5)
    expect(f"x.grad after fixed_cell, {dtype}", x.grad, tol=1e-5,
           hint="dz/dx = 4 x**3 at the old x")
    expect(f"z after fixed_cell, {dtype}", z, tol=1e-5)
    observe(z, x, x.grad)
### END HIDDEN TESTS

# %% [markdown]
# ## Exercise 4: a hook that rescales part of the backward (3 points)
#
# A hook registered on a tensor with `t.register_hook(hook)` is called with the gradient that
# reached `t`. If it returns `None`, the gradient goes on unchanged; if it returns a tensor,
# **that tensor replaces the gradient** for everything below `t`. (Textbook note 004 says a
# hook "should not return a value": that is the rule for a hook that only *looks*, as the
# printing hooks of section 4 do. Returning a value is how a hook *changes* the backward.)
# `register_hook` returns a handle, and `handle.remove()` takes the hook off again.
#
# Write `scaled_backward(loss, t, factor)`:
#
# - run `loss.backward()` **once**, with the gradient that reaches `t` multiplied by
#   `factor` before it flows on to `t`'s inputs (or into `t.grad`, if `t` is a leaf);
# - return the gradient of `loss` with respect to `t` as it arrived, **before** scaling;
# - remove your hook before returning, **also when backward raises** (`try` / `finally`):
#   a later backward through `t` must not be scaled.
#
# With `factor=-1.0` this is the *gradient reversal layer* of domain adaptation: the layers
# below `t` are trained to make the loss above it worse.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "scaled_backward"}
def scaled_backward(loss, t, factor):
    """loss.backward() with the gradient through t scaled by factor; the unscaled
    gradient that reached t."""
    ### BEGIN SOLUTION
    arrived = []

    def scale(grad):
        arrived.append(grad)
        return grad * factor

    handle = t.register_hook(scale)
    try:
        loss.backward()
    finally:
        handle.remove()
    return arrived[0]
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "scaled_backward_visible", "points": 1}
x = minitorch.tensor([1., 2.], requires_grad=True)
t = x + 1.0
g = scaled_backward((t * t).sum(), t, 10.0)
check("the type of what scaled_backward returned", type(g).__name__, "Tensor",
      hint="return the gradient that reached t")
check("the gradient that reached t, d(sum t²)/dt = 2t", g, [4.0, 6.0],
      mistakes={"the gradient returned is the scaled one, not the one that arrived":
                [40.0, 60.0]})
check("x.grad, 10 × 2t", x.grad, [40.0, 60.0],
      mistakes={"the hook's result is not returned, so nothing is scaled": [4.0, 6.0]},
      hint="the hook returns the new gradient: return grad * factor")
x.grad = None
(t * 5).sum().backward()
check("x.grad of a plain backward through t after scaled_backward", x.grad, [5.0, 5.0],
      mistakes={"the hook was left on t": [50.0, 50.0]},
      hint="remove the hook when backward is done (handle.remove())")
### BEGIN HIDDEN TESTS
w = minitorch.tensor([0.5, -1.5, 2.0], dtype=minitorch.float64, requires_grad=True)
h = (w * 3.0).exp()
g = scaled_backward((h * w).sum(), h, -1.0)            # gradient reversal below h
observe(g, w.grad)
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "scaled_backward_hidden", "points": 2}
leaf = minitorch.tensor([3., -1.], requires_grad=True)
g = scaled_backward((leaf * leaf).sum(), leaf, 0.5)
check("the gradient that reached the leaf, 2 × leaf", g, [6.0, -2.0])
check("leaf.grad, scaled by 0.5", leaf.grad, [3.0, -1.0],
      hint="a hook on a leaf runs before .grad is filled: what it returns is accumulated")
### BEGIN HIDDEN TESTS
observe(g, leaf.grad)
class FailsOnce(minitorch.autograd.Function):
    """Identity whose first backward raises."""

    armed = True

    @staticmethod
    def forward(ctx, x):
        return x * 1.0

    @staticmethod
    def backward(ctx, grad):
        if FailsOnce.armed:
            FailsOnce.armed = False
            raise RuntimeError("this backward fails once")
        return grad


x = minitorch.tensor([1., 2.], requires_grad=True)
t = FailsOnce.apply(x) + 1.0
expect("the error of scaled_backward when backward raises",  # the hook runs, then backward raises
       error_of(lambda: scaled_backward((t * t).sum(), t, 100.0)),
       hint="let the error of backward propagate")
x.grad = None
(t * 5).sum().backward()
expect("x.grad of a plain backward after scaled_backward raised", x.grad,
       mistakes={"the hook stayed on after backward raised": [500.0, 500.0]},
       hint="remove the hook in a finally block")
observe(x.grad)
x = minitorch.tensor([1., 2., 3.], dtype=minitorch.float64, requires_grad=True)
t = x * x
u = t.sum() * t                                       # t reached by two paths
g = scaled_backward((u * x).sum(), t, 3.0)
observe(g, x.grad)
### END HIDDEN TESTS

# %% [markdown]
# Run it on a small model: a `body` layer computes features, a `head` layer a loss from them.
# `scaled_backward` on the features leaves the head's gradient alone and scales the body's:
# by 1 it is a plain backward, by 0 the body is frozen (as if the features were detached),
# by −1 the body's gradient is reversed.

# %%
minitorch.manual_seed(0)
body, head = minitorch.nn.Linear(3, 4), minitorch.nn.Linear(4, 1)
data = minitorch.randn(8, 3)
with minitorch.course.needs("scaled_backward"):
    for factor in (1.0, 0.0, -1.0):
        for param in (*body.parameters(), *head.parameters()):
            param.grad = None
        features = body(data)
        scaled_backward((head(features) ** 2).mean(), features, factor)
        print(f"factor {factor:+.0f}: head.weight.grad[0, :2] = {head.weight.grad[0, :2]}"
              f"  body.weight.grad[0, :2] = {body.weight.grad[0, :2]}")

# %% [markdown]
# ## Exercise 5: predict, then run: the debugging tools (3 points)
#
# Each row below is a small program; its last line sets `answer`. Every name in it is fresh:
# `tensor`, `autograd` and `no_grad` are minitorch's; `hooks` is a `saved_tensors_hooks`
# block whose pack and unpack hooks append `"pack"` and `"unpack"` to the list `log` and
# return what they were given; `one_after_another(f, g, ...)` runs each function in a new
# thread, one thread after the other (so the result is the same every run), and returns the
# list of what each returned, or its exception's name. **Before running anything**, predict
# `answer` for each row, from sections 5 and 6, chapter 2's `retain_graph` and kinks, and
# chapter 4's threads:
#
# - a number if `answer` is a number or a one-element tensor (its `.item()`: `8.0`,
#   `float("nan")`), or `None`;
# - the name of the exception, as a string (`"RuntimeError"`), if a line raises; but if the
#   row runs in anomaly mode and backward raises, the name of the node that anomaly mode's
#   warning blames (`"MulBackward0"`).
#
# Write the predictions in `debug_predictions`; the first is done for you. Then check
# yourself: `run_debug_row("b")` runs row b and returns the same kind of value. Where you
# were wrong, find the section that explains why.

# %%
import threading

DEBUG_ROWS = {
    "a": "x = tensor([1., 2.], requires_grad=True)\ny = x ** 2\nwith no_grad():\n    x += 1\ny.sum().backward()\nanswer = x.grad",
    "b": "with autograd.set_detect_anomaly(True):\n    x = tensor([1., 2.], requires_grad=True)\n    a = x.exp()\n    b = x ** 2\n    with no_grad():\n        x += 1\n    (a + b).sum().backward()\nanswer = x.grad",
    "c": "with autograd.set_detect_anomaly(True):\n    x = tensor([1., 2.], requires_grad=True)\n    y = x.exp()\n    y += 1\n    (y * x).sum().backward()\nanswer = x.grad",
    "d": "x = tensor(0., requires_grad=True)\nx.abs().sqrt().backward()\nanswer = x.grad",
    "e": "with autograd.set_detect_anomaly(True):\n    x = tensor(0., requires_grad=True)\n    x.abs().sqrt().backward()\nanswer = x.grad",
    "f": "with hooks:\n    x = tensor([1., 2.], requires_grad=True)\n    loss = (x * x).sum()\nanswer = log.count(\"pack\")",
    "g": "with hooks:\n    x = tensor([1., 2.], requires_grad=True)\n    loss = (x + 1).sum()\nanswer = log.count(\"pack\")",
    "h": "with hooks:\n    x = tensor([1., 2.], requires_grad=True)\n    with no_grad():\n        loss = (x * x).sum()\nanswer = log.count(\"pack\")",
    "i": "with hooks:\n    x = tensor([1., 2.], requires_grad=True)\n    loss = (x.exp() * x).sum()\nanswer = log.count(\"unpack\")",
    "j": "with hooks:\n    x = tensor([1., 2.], requires_grad=True)\n    loss = x.exp().sum()\nloss.backward()\nanswer = log.count(\"unpack\")",
    "k": "with hooks:\n    x = tensor([1., 2.], requires_grad=True)\n    loss = x.exp().sum()\n    loss.backward(retain_graph=True)\n    loss.backward()\nanswer = log.count(\"unpack\")",
    "l": "x = tensor(0., requires_grad=True)\ny = x.exp()\ny.backward()\ny.backward()\nanswer = x.grad",
    "m": "x = tensor(0., requires_grad=True)\ny = 1 - x\ny.backward()\ny.backward()\nanswer = x.grad",
    "n": "x = tensor(0., requires_grad=True)\ny = x.exp()\n(y * y + y).backward()\nanswer = x.grad",
    "o": "w = tensor(1., requires_grad=True)\nshared = (w * 3).exp()\noutcomes = one_after_another(lambda: (shared * 1).backward(),\n                             lambda: (shared * 2).backward())\nanswer = outcomes.count(\"RuntimeError\")",
    "p": "w = tensor(1., requires_grad=True)\nshared = (w * 3).exp()\noutcomes = one_after_another(lambda: (shared * 1).backward(retain_graph=True),\n                             lambda: (shared * 2).backward(retain_graph=True))\nanswer = outcomes.count(\"RuntimeError\")",
    "q": "w = tensor(1., requires_grad=True)\none_after_another(*[lambda: autograd.grad(w * 3, w)] * 4)\nanswer = w.grad",
    "r": "w = tensor(1., requires_grad=True)\none_after_another(*[lambda: (w * 3).backward()] * 4)\nanswer = w.grad",
}


def one_after_another(*functions):
    """Run each function in a new thread, one after the other: what each returned, or the
    name of the exception it raised."""
    results = []

    def run(function):
        try:
            results.append(function())
        except Exception as error:
            results.append(type(error).__name__)

    for function in functions:
        thread = threading.Thread(target=run, args=(function,))
        thread.start()
        thread.join()
    return results


def run_debug_row(key):
    """Run DEBUG_ROWS[key] with fresh names: `answer`'s value; if a line raises, the
    exception's name, or the node that anomaly mode's warning blames."""
    log = []
    names = {"tensor": minitorch.tensor, "autograd": minitorch.autograd,
             "no_grad": minitorch.no_grad, "one_after_another": one_after_another, "log": log,
             "hooks": graph.saved_tensors_hooks(lambda t: log.append("pack") or t,
                                                lambda t: log.append("unpack") or t)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(DEBUG_ROWS[key], names)
        except Exception as error:
            blamed = [str(w.message).split()[3].rstrip(".") for w in caught
                      if str(w.message).startswith("Error detected in ")]
            return blamed[0] if blamed else type(error).__name__
    answer = names["answer"]
    return answer.item() if isinstance(answer, minitorch.Tensor) else answer


for key, code in DEBUG_ROWS.items():
    print(f"--- {key}\n{code}")

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "debug_predictions"}
debug_predictions = {
    "a": "RuntimeError",
}
### BEGIN SOLUTION
debug_predictions.update({
    "b": "PowBackward0", "c": "ExpBackward0", "d": float("nan"), "e": "AbsBackward0",
    "f": 2, "g": 0, "h": 0, "i": 0, "j": 1, "k": 2, "l": "RuntimeError", "m": -2.0,
    "n": 3.0, "o": 1, "p": 0, "q": None, "r": 12.0,
})
### END SOLUTION

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "debug_predictions_visible", "points": 1}
check("the keys of debug_predictions", sorted(debug_predictions), sorted(DEBUG_ROWS),
      hint='one key per row: debug_predictions = {"a": "RuntimeError", "b": ..., ...}')
check("the rows whose prediction is not a number, None or a name",
      sorted(key for key, value in debug_predictions.items()
             if isinstance(value, bool) or not (value is None or isinstance(value, (int, float, str)))),
      [], hint='write 2, 8.0, float("nan"), None, "RuntimeError" or "MulBackward0"')
check("the rows whose name is neither an exception nor a node",
      sorted(key for key, value in debug_predictions.items() if isinstance(value, str)
             and not value.endswith(("Error", "Backward0"))), [],
      hint='an exception\'s class ("RuntimeError") or a node\'s ("PowBackward0")')
### BEGIN HIDDEN TESTS
observe([repr(float(value)) if isinstance(value, (int, float)) else repr(value)
         for value in map(debug_predictions.get, ("b", "c", "f", "g", "l", "o"))])
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "debug_predictions_hidden", "points": 2}
check("the number of predictions", len(debug_predictions), len(DEBUG_ROWS),
      hint="one prediction per row of DEBUG_ROWS")
### BEGIN HIDDEN TESTS
observe({key: repr(float(value)) if isinstance(value, (int, float)) else repr(value)
         for key, value in debug_predictions.items() if key in DEBUG_ROWS})
### END HIDDEN TESTS

# %% [markdown]
# ## What PyTorch does
#
# In torch the saved tensor is a C++ `SavedVariable`. Its constructor records
# `saved_version_ = variable._version()`, and `SavedVariable::unpack` compares it with the
# version counter's current value and builds the message you wrote (the output number and the
# node come from the variable and its `grad_fn`). The counter itself lives in the tensor's
# `TensorImpl` and is shared by views and `detach()`; `.data` makes a new one, which is why
# torch's documentation calls `.data` unsafe. With `saved_tensors_hooks`, torch skips the
# check exactly as minitorch does, so a pack/unpack pair like yours is how you would add it
# back. The same experiments in torch, if it is installed:

# %%
import contextlib

torch = None
if os.environ.get("NBGRADER_EXECUTION"):
    print("nbgrader is grading: skipped (this cell grades nothing; importing torch is slow)")
else:
    try:
        import torch
    except ImportError:
        print("torch is not installed here: skipped")

if torch is not None:
    def notes_cell(hooks):
        """The notes' failing cell in torch, forward inside ``hooks``: the outcome."""
        x = torch.ones(1, 10, requires_grad=True)
        with hooks:
            y1 = x**2
            with torch.no_grad():
                x += 1
                y2 = x**2
            z = y1**2 + y2**2
        try:
            z.sum().backward()
        except RuntimeError as error:
            return f"RuntimeError: {error}"
        return f"no error, x.grad = {x.grad[0, 0].item()}"

    def check_unpack(kept):
        tensor, version = kept
        if tensor._version != version:
            raise RuntimeError(f"stale: version {version} -> {tensor._version}")
        return tensor

    hooks = torch.autograd.graph.saved_tensors_hooks
    print("torch's own check:", notes_cell(contextlib.nullcontext()))
    print("identity hooks:   ", notes_cell(hooks(lambda t: t, lambda t: t)))
    print("checking hooks:   ", notes_cell(hooks(lambda t: (t, t._version), check_unpack)))
