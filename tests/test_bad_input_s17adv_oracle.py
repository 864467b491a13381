"""Issue #21, session 17's adversary: misuse of the autograd and stateful API a random fuzzer
does not reach, against live torch. Each case is a small program run on torch and on
minitorch (``L``); its outcome, the value of ``R`` or the exception's type and message, must
be the same: a custom Function's tensors given by keyword are inputs like positional ones
(no gradient silently lost)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bad_input_fuzz21b_oracle import assert_as_torch

SIGNATURES = ["x", "x, y", "x, y=2.0", "x, y, z=3.0", "x, /, y", "x, *, y", "x, **kw", "*xs"]


def _function(signature: str) -> str:
    """A ctx-style Function whose forward takes ``signature`` and multiplies every tensor it
    is given; backward gives each input its own gradient (2, 3, 4, ... times g)."""
    return ("class Fn(L.autograd.Function):\n"
            "    @staticmethod\n"
            f"    def forward(ctx, {signature}):\n"
            "        ts = [v for v in dict(locals()).values() if isinstance(v, L.Tensor)]\n"
            "        ctx.n = len(ctx.needs_input_grad)\n"
            "        return ts[0] * ts[-1] if ts else L.ones(2)\n"
            "    @staticmethod\n"
            "    def backward(ctx, g):\n"
            "        return tuple(g * (i + 2) for i in range(ctx.n))\n"
            "a = L.ones(2, requires_grad=True)\nb = L.ones(2, requires_grad=True)\n")


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(SIGNATURES), st.lists(st.sampled_from(["a", "b", "1.5"]), max_size=2),
       st.dictionaries(st.sampled_from(["x", "y", "z", "kw", "ctx", "xs"]),
                       st.sampled_from(["a", "b", "1.5"]), max_size=3))
def test_a_functions_keyword_arguments_are_its_inputs(signature: str, args: list,
                                                      kwargs: dict) -> None:
    """torch puts each keyword argument in the place of the forward parameter it names (its
    gradient flows like a positional one's) and refuses the rest in its own words: a name
    forward does not take positionally, a place given twice, a place left empty."""
    call = ", ".join([*args, *(f"{k}={v}" for k, v in kwargs.items())])
    assert_as_torch(_function(signature) + f"y = Fn.apply({call})\n"
                    "(y + a + b).sum().backward()\nR = (y, a.grad, b.grad, y.grad_fn.n)")


@pytest.mark.parametrize("call", ["Fn.apply(x=a)", "Fn.apply(a, y=b)", "Fn.apply(y=b, x=a)",
                                  "Fn.apply(a, z=b)", "Fn.apply(a, x=b)", "Fn.apply(a, k=b)"])
def test_keyword_tensor_inputs_get_their_gradient(call: str) -> None:
    assert_as_torch(_function("x, y=2.0") + f"y = {call}\n"
                    "(y + a).sum().backward()\nR = (y, a.grad, b.grad)")


@pytest.mark.parametrize("op", ["y.clamp_(0, 1)", "y.clamp_(min=0)", "y.t_()", "y.squeeze_()",
                                "y.transpose_(0, 1)", "y.div_(2, rounding_mode='floor')",
                                "y.fill_(2)", "y.scatter_(0, L.tensor([[0, 1]]), 1.0)",
                                "y.mul_(2)", "y.exp_()", "y.copy_(L.zeros(2, 2))", "y[0] = 1",
                                "y = F.apply(x); z = y * y; y.mul_(2)"])
def test_a_modified_saved_tensor_is_named_by_its_node_with_overload(op: str) -> None:
    """The version-counter refusal names the node that wrote the tensor as torch does: its
    name less ``Backward``, keeping an overload's number (``Clamp1``, ``T1``, ``Fill2``)."""
    assert_as_torch("class F(L.autograd.Function):\n"
                    "    @staticmethod\n    def forward(ctx, x): return x * 1\n"
                    "    @staticmethod\n    def backward(ctx, g): return g\n"
                    "x = L.ones(2, 2, requires_grad=True)\ny = x * 1\nz = y * y\n"
                    f"{op}\nz.sum().backward()\nR = x.grad")


def _view_function(body: str, non_differentiable: str = "") -> str:
    mark = f"        ctx.mark_non_differentiable(outs[{non_differentiable}])\n" \
        if non_differentiable else ""
    return ("class F(L.autograd.Function):\n"
            "    @staticmethod\n    def forward(ctx, x):\n"
            f"        outs = {body}\n{mark}        return outs\n"
            "    @staticmethod\n    def backward(ctx, *gs): return L.ones(2, 2)\n")


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(["x", "x.view(2, 2)", "(x * 2).t()", "(x[0],)", "(x[0], 5)",
                        "(x[0], x[1])", "(x[0], x * 2)", "(x * 2, x[1])",
                        "(x[0], x[1], x * 2)"]),
       st.sampled_from(["", "0", "1"]), st.integers(0, 2),
       st.sampled_from(["o.mul_(2)", "o[:1].mul_(2)", "o.mul_(L.ones(o.shape, "
                        "requires_grad=True))", "o.zero_()"]),
       st.booleans(), st.booleans())
def test_writing_in_place_to_a_functions_view_output(body: str, non_differentiable: str,
                                                     which: int, write: str, no_grad: bool,
                                                     requires_grad: bool) -> None:
    """A custom Function's output that is a view (or an input returned as-is) is refused an
    in-place write in torch's words: made inside a custom Function, or one of several
    views when the node has several differentiable outputs; made in no_grad mode when the
    call was not recorded."""
    if non_differentiable and not body.startswith("(x[0], x"):
        non_differentiable = ""
    mode = "L.no_grad()" if no_grad else "L.enable_grad()"
    assert_as_torch(_view_function(body, non_differentiable) +
                    f"x = L.ones(2, 2, requires_grad={requires_grad})\n"
                    f"with {mode}:\n    outs = F.apply(x)\n"
                    "outs = outs if isinstance(outs, tuple) else (outs,)\n"
                    f"o = outs[{which} % len(outs)]\n"
                    f"R = {write} if isinstance(o, L.Tensor) else 0")


DIRTY = ("class F(L.autograd.Function):\n"
         "    @staticmethod\n    def forward(ctx, x):\n"
         "        ctx.mark_dirty(x)\n        return x.mul_(2)\n"
         "    @staticmethod\n    def backward(ctx, g): return g * 3\n")


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(["b[:2]", "b[1]", "b.t()", "b.view(6)", "b[:, 1:]", "b.t()[0]"]),
       st.sampled_from(["", "y.mul_(5)", "b.add_(1)", "y.sin_()"]),
       st.sampled_from(["(x * 1)", "x.clone()", "L.ones(3, 2)", "x", "x.detach()"]),
       st.sampled_from(["y.sum()", "b.sum()", "(b * b).sum()", "y.sum() + b.sum()"]))
def test_a_view_a_function_marks_dirty_is_written_into_its_base(view: str, then: str,
                                                                  base: str, loss: str) -> None:
    """A view a Function writes in place (mark_dirty) is a write into its base, as a
    built-in in-place op on a view: the base's gradient passes the view's elements
    through the Function's backward (not silently around it), the versions count as
    torch's, and a leaf's view is refused."""
    assert_as_torch(DIRTY + f"x = L.ones(3, 2, requires_grad=True)\nb = {base}\n"
                    f"v = {view}\ny = F.apply(v)\n{then}\n"
                    f"({loss}).backward()\n"
                    "R = (x.grad, y, b, y._version, b._version, y.grad_fn.name())")


@pytest.mark.parametrize("base", ["x.detach()", "x * 1", "x.detach()[:2]", "(x * 1)[:2]", "x"])
@pytest.mark.parametrize("mode", ["L.no_grad()", "L.enable_grad()"])
def test_a_dirty_input_counts_one_more_version_recorded_or_not(base: str, mode: str) -> None:
    assert_as_torch(DIRTY + f"x = L.ones(3, 2, requires_grad=True)\nb = {base}\n"
                    f"with {mode}:\n    y = F.apply(b)\nR = (y._version, b._version, y)")


@pytest.mark.parametrize("pack", ["lambda t: t.add_(1)", "lambda t: t.mul_(1)",
                                  "lambda t: t.detach().zero_()", "lambda t: t.clone().add_(1)",
                                  "lambda t: t"])
@pytest.mark.parametrize("op", ["x.exp()", "x * x", "x.sin()"])
@pytest.mark.parametrize("where", ["context", "register_hooks"])
def test_a_pack_hook_may_not_write_its_input(pack: str, op: str, where: str) -> None:
    """A pack hook writing into the tensor it is given (or an alias of it) is refused as
    torch refuses it, by the context manager or ``SavedTensor.register_hooks``; writing
    into a copy is allowed."""
    if where == "context":
        program = (f"with L.autograd.graph.saved_tensors_hooks({pack}, lambda t: t):\n"
                   f"    y = {op}\n")
    else:
        saved = "result" if op == "x.exp()" else "self"
        program = (f"y = {op}\n"
                   f"y.grad_fn._raw_saved_{saved}.register_hooks({pack}, lambda t: t)\n")
    assert_as_torch(f"x = L.ones(2, requires_grad=True) * 1\n{program}"
                    "y.sum().backward()\nR = (y, x)")


@pytest.mark.parametrize("hooks", ["3, 4", "lambda t: t, None", "'a', lambda t: t"])
def test_saved_tensors_hooks_must_be_callables(hooks: str) -> None:
    assert_as_torch(f"with L.autograd.graph.saved_tensors_hooks({hooks}):\n    R = 1")


@pytest.mark.parametrize("value", ["'no'", "1", "0", "None", "1.0", "L.tensor(True)",
                                   "np.bool_(True)", "True", "False", "value=False"])
def test_set_materialize_grads_takes_a_bool(value: str) -> None:
    """Anything but a Python bool is refused, as torch's C++ argument parser refuses it
    (not taken as truthy, which would silently change what backward receives)."""
    assert_as_torch("class F(L.autograd.Function):\n"
                    "    @staticmethod\n    def forward(ctx, x):\n"
                    f"        ctx.set_materialize_grads({value})\n        return x * 2, x * 3\n"
                    "    @staticmethod\n    def backward(ctx, g, h):\n"
                    "        return g if h is None else g + h\n"
                    "x = L.ones(2, requires_grad=True)\nF.apply(x)[0].sum().backward()\n"
                    "R = x.grad")


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.sampled_from(["(x * 2)", "x.exp()", "x.sum()", "x.sort()[0]", "x.topk(2)[0]",
                        "x.max(0).values", "L.aminmax(x)[0]", "L.frexp(x)[0]",
                        "x.split(1)[0]", "x.unbind()[0]",
                        "(x * 1).grad_fn.next_functions[0][0].variable.__mul__(1)"]),
       st.lists(st.sampled_from(["None", "3", "'a'", "L.ones(3)", "L.tensor(1.0)",
                                 "L.ones(2)"]), max_size=3),
       st.sampled_from(["", "grad=None"]))
def test_a_node_called_by_hand_checks_its_gradients(made: str, grads: list,
                                                   keyword: str) -> None:
    """``y.grad_fn(...)`` takes one gradient, a tensor or None, per differentiable output of
    the node, positionally; anything else is refused as torch's binding refuses it (no
    Python error from inside the backward), and a fitting call returns torch's gradients."""
    call = ", ".join([*grads, *([keyword] if keyword else [])])
    assert_as_torch(f"x = L.ones(3, requires_grad=True)\ny = {made}\nR = y.grad_fn({call})")


NODES = ["node = (L.ones(2, requires_grad=True) * 2).grad_fn\n",
         "x = L.ones(3, requires_grad=True)\nnode = (x * 2).grad_fn.next_functions[0][0]\n",
         "class Fn(L.autograd.Function):\n"
         "    @staticmethod\n    def forward(ctx, x):\n        ctx.k = 1\n        return x * 2\n"
         "    @staticmethod\n    def backward(ctx, g): return g\n"
         "node = Fn.apply(L.ones(3, requires_grad=True)).grad_fn\n"]


@pytest.mark.parametrize("node, name", [
    (node, name) for node in NODES
    for name in ["metadata", "next_functions", "variable", "foo", "k", "name", "register_hook",
                 *(["saved_tensors"] if "Fn" in node else [])]])
def test_deleting_a_nodes_attribute_as_torch(node: str, name: str) -> None:
    """A getter of a node (a leaf's ``variable`` too) is no more deletable than writable; a
    custom node's own attribute is."""
    assert_as_torch(node + f"del node.{name}\nR = hasattr(node, '{name}')")
