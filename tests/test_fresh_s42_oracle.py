"""Fresh fuzz seeds of session 42 and what they opened: a factory's ``out=`` (its version
count, its ``requires_grad=True``), the value ``t[key] = v`` copies (torch's copy_to: the
value itself, filled, or viewed and expanded), AccumulateGrad's ``+=`` after a ``.data`` of
another shape, setup_context saving an input returned as it is, the parser's None for a
factory's ``requires_grad`` (and a C function's arity), and the NaN of piecewise gradients
in torch's vectorised body. Each program runs under torch and minitorch (``L``) and must
raise torch's exception with its message, or give torch's result; the sweeps report every
mismatch at once."""

from __future__ import annotations

import warnings

import pytest

from tests.oracle import sweep

FACTORIES = ["L.zeros(2, 3, out=o)", "L.ones(6, out=o)", "L.full((2, 3), 2.5, out=o)",
             "L.arange(6., out=o)", "L.eye(2, out=o)", "L.empty(2, 3, out=o)",
             "L.linspace(0, 1, 6, out=o)", "L.randn(2, 3, out=o)", "L.rand(6, out=o)",
             "L.logspace(0, 1, 6, out=o)", "L.range(0., 5., out=o)"]


@pytest.mark.parametrize("requires_grad", ["", ", requires_grad=True"])
def test_a_factory_counts_one_write_into_out(requires_grad: str) -> None:
    """h5 fuzz s42 (seeds 4201, 4202): zeros/eye/arange/full with an ``out=`` of another
    shape counted two writes (its resize too); torch counts one, two for randn (its
    composite resize_ then normal_), none for an empty of out's own shape. torch's
    ``requires_grad=True`` makes ``out`` require grad; minitorch's left it as it was."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (range's deprecation)
        sweep([f"o = L.zeros({shape}); r = {call[:-1]}{requires_grad})\n"
               "result = o._version, o.requires_grad, r is o, o.shape, o.stride()"
               for call in FACTORIES for shape in ("6", "2, 3", "()", "0")])


SETITEM = [("L.zeros(())", "...", "L.tensor(2.)"), ("L.zeros(())", "...", "L.tensor([2.])"),
           ("L.zeros(3)", "...", "L.tensor(2.)"), ("L.zeros(3)", "...", "L.tensor([2.])"),
           ("L.zeros(3)", "0", "L.tensor(2.)"), ("L.zeros(3)", "slice(0, 1)", "L.tensor([2.])"),
           ("L.zeros(3)", "slice(0, 2)", "L.tensor([[2.]])"),
           ("L.zeros(2, 3)", "0", "L.tensor([2.])"), ("L.zeros(2, 3)", "0", "L.tensor([[2.]])"),
           ("L.zeros(2, 3)", "0", "L.tensor([[2., 3., 4.]])"),
           ("L.zeros(2, 3)", "(slice(None), 1)", "L.tensor([[2.], [3.]])"),
           ("L.zeros(())", "None", "L.tensor([2.])"), ("L.zeros(())", "None", "L.tensor(2.)"),
           ("L.zeros(1)", "...", "L.tensor(2.)"), ("L.zeros(3)", "True", "L.tensor([2.])"),
           ("L.zeros(3)", "L.tensor(1)", "L.tensor([2.])"),
           ("L.zeros(3)", "L.tensor([0, 1])", "L.tensor([[2.]])")]


def test_setitem_copies_the_value_as_torchs_copy_to() -> None:
    """h5 fuzz s42: ``x[...] = v`` of a 0-d x recorded FillBackward3 (torch: CopyBackwards,
    their shapes agree); a value of the part's own shape was viewed first (torch copies it
    as it is), a one-element value with dims was not expanded (torch's ExpandBackward0)."""
    sweep([f"a = {base}.requires_grad_(); x = a.clone(); v = {value}.requires_grad_()\n"
           f"x[{key}] = v; (x * 2).sum().backward()\n"
           "result = (x, a.grad, v.grad, N(x.grad_fn), [N(n) for n, _ in "
           "x.grad_fn.next_functions], [[N(n) for n, _ in n.next_functions] for n, _ in "
           "x.grad_fn.next_functions if n is not None])" for base, key, value in SETITEM])


def test_a_gradient_accumulates_into_one_of_another_shape_as_torchs_add_() -> None:
    """h5 fuzz s42: after ``x.data = `` a tensor of another shape, backward's ``x.grad +=
    new`` broadcasts as torch's in-place add (a 0-d new gradient into a (3,) one is
    accepted) and refuses with its messages (sizes, then the output's shape)."""
    head = ("x = L.tensor([[-0.75, 2.0, 0.5], [1., 2., 3.]], requires_grad=True)\n"
            "(x * 2).sum().backward()\n")
    sweep([f"{head}x.data = {data}; (x * 3).sum().backward(); result = x.grad"
           for data in ("L.tensor(1.0)", "L.tensor([1., 2., 3.])", "L.ones(4)",
                        "L.ones(2, 1)", "L.ones(3, 2, 3)", "L.ones(1, 2, 3)", "L.ones(2, 4)")])


def _saving_function(forward: str, saved: str, dirty: bool) -> str:
    marks = "; ctx.mark_dirty(inputs[0])" if dirty else ""
    return ("def setup(ctx, inputs, output):\n"
            f"    ctx.{saved}{marks}\n"
            "Fn = type('Fn', (L.autograd.Function,), {'forward': staticmethod("
            f"{forward}), 'setup_context': staticmethod(setup), 'backward': staticmethod("
            "lambda ctx, *g: g), 'jvp': staticmethod(lambda ctx, *g: g)})\n")


@pytest.mark.parametrize("forward", ["lambda x, y: x", "lambda x, y: x.add_(1)",
                                     "lambda x, y: (x, y * 2)"])
def test_setup_context_refuses_saving_an_input_returned_as_it_is(forward: str) -> None:
    """h5 fuzz s42: torch refuses an input saved by setup_context (for backward or forward)
    that forward returned as it is, recorded or not, but for an unrecorded input that
    requires grad; minitorch refused only a recorded call."""
    programs = []
    for saved in ("save_for_backward(inputs[0])", "save_for_backward(output[0] if "
                  "isinstance(output, tuple) else output)", "save_for_forward(inputs[0])"):
        for dirty in (False, True):
            for x_grad, y_grad, mode in (("True", "False", "L.enable_grad()"),
                                         ("True", "False", "L.no_grad()"),
                                         ("False", "True", "L.enable_grad()"),
                                         ("False", "False", "L.no_grad()"),
                                         ("False", "True", "L.inference_mode()")):
                programs.append(
                    _saving_function(forward, saved, dirty) +
                    f"x = L.ones(2, requires_grad={x_grad}).clone()\n"
                    f"y = L.ones(2, requires_grad={y_grad})\n"
                    f"with {mode}:\n    o = Fn.apply(x, y)\n"
                    "result = o[0] if isinstance(o, tuple) else o")
    sweep(programs)


def test_a_factorys_requires_grad_takes_none_where_torchs_parser_does() -> None:
    """h5 fuzz s42: ``range(..., requires_grad=None)`` passed (torch's hand-written
    signature refuses it); ``empty_like(x, requires_grad=None, size=...)`` named
    requires_grad where torch's generated parser lets None through and names the unknown
    keyword; from_numpy's keyword and arity are a C function's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sweep([f"result = {call}" for call in (
            "L.range(0, 2, requires_grad=None)", "L.range(1e-10, -3, 1e-10, requires_grad=None)",
            "L.tensor(1., requires_grad=None)", "L.zeros(2, requires_grad=None, bogus=1)",
            "L.full((2,), 1., requires_grad=None, bogus=1)",
            "L.zeros_like(L.ones(2), requires_grad=None, bogus=1)",
            "L.empty_like(L.ones(2), requires_grad=None, size=(2,))",
            "L.full_like(L.ones(2), 1., requires_grad=None, bogus=1)",
            "L.scalar_tensor(1., requires_grad=None, bogus=1)",
            "L.empty_strided((2,), (1,), requires_grad=None, bogus=1)",
            "L.normal(0., 1., (2,), requires_grad=None, bogus=1)",
            "L.randint(3, (2,), requires_grad=None, bogus=1)",
            "L.from_numpy(np.ones(2), requires_grad=None)", "L.from_numpy()",
            "L.from_numpy(np.ones(2), np.ones(2))", "L.ones(2).apply_(f=abs)",
            "L.ones(2).apply_()")])


ACTIVATIONS = ["F.relu6(x)", "F.hardtanh(x)", "F.hardswish(x)", "F.hardsigmoid(x)",
               "F.elu(x)", "F.selu(x)", "F.celu(x, 0.5)", "F.elu(x * 1, inplace=True)",
               "F.hardshrink(x)", "F.softshrink(x)", "F.gelu(x)", "F.leaky_relu(x)"]


@pytest.mark.parametrize("n", [5, 16, 24, 40])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_piecewise_gradients_of_nan_are_torchs_body_and_tail(n: int, dtype: str) -> None:
    """h4 fuzz s42 (seed 4201): hardswish's gradient at NaN was 1 where torch's is NaN.
    torch's CPU loop runs its vectorised form two vectors at a time, then a scalar tail,
    and the two send NaN to different branches (hardtanh/relu6: 0 against the gradient;
    elu/selu/celu and hardswish: NaN against it). float32 gelu and its gradient (oneDNN's
    kernel on this CPU) are checked in the same pass, infinities and zeros included."""
    values = [float("nan"), 3.0, -3.0, 0.0, -0.0, float("inf"), -float("inf"), 6.0, 0.5,
              -0.5, 20.0, -1.0] * 4
    sweep([f"nan, inf = float('nan'), float('inf')\n"  # (the values' printed names)
           f"x = L.tensor({values[:n]}, dtype=L.{dtype}, requires_grad=True)\n"
           f"y = {call}; y.backward(L.ones_like(y)); result = y, x.grad" for call in ACTIVATIONS
           if dtype == "float32" or "gelu" not in call])  # (float64 gelu: ATen's own erf)


def test_a_sequence_factory_keeps_an_out_of_as_many_elements() -> None:
    """h5 fuzz s42: arange/range/linspace/logspace resize out only where its number of
    elements differs (arange warns then); an out of as many elements keeps its shape and
    layout, filled in its logical order (minitorch made it 1-d)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sweep([f"o = {out}; r = {call}; result = o, o.stride(), r is o, o._version"
               for out in ("L.zeros(2, 3)", "L.zeros(3, 2).t()", "L.zeros(())", "L.zeros(0)")
               for call in ("L.arange(6., out=o)", "L.arange(5., out=o)",
                            "L.linspace(0, 1, 6, out=o)", "L.logspace(0, 1, 5, out=o)",
                            "L.range(0., 5., out=o)")])


JOINS = ["L.cat([o, L.ones(2, 3)], out=o)", "L.cat([o[:1], L.ones(1, 3)], out=o)",
         "L.cat([L.ones(1, 3), o[1:]], out=o)", "L.stack([o, L.ones(2, 3)], out=o)",
         "L.stack([o[0], o[1]], out=p)", "L.stack([o, L.ones(2, 3)], out=o.int())",
         "L.cat([o.view(-1)[:3], o.view(-1)[3:]], out=o.view(-1))",
         "L.cat([e, L.ones(2)], out=e)", "L.hstack([o, o], out=o)",
         "L.vstack([o, L.ones(2, 3)], out=o)",
         "L.column_stack([o, L.ones(2, 3)], out=o)", "L.cat([o, o.clone()], out=L.empty(0))"]


def test_cat_and_stack_refuse_an_out_that_is_one_of_their_tensors() -> None:
    """Autograd fuzzer s41/s42: cat/stack with out= one of their tensors (or memory it
    shares) wrote it silently; torch refuses the overlap, and stack, whose out is resized
    first, then finds its tensors of different sizes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sweep([f"o = L.ones(2, 3); p = L.ones(2, 2, 3); e = L.zeros(0)\nr = {call}\n"
               "result = r, o, p, e" for call in JOINS])


def test_torch_s_own_answers_for_a_few_calls() -> None:
    """Math and nn fuzzers s42 (seed 4201), own fuzzer seed 7: inner of a 0-d operand is
    mul, out= and all (its cast into an int32 out); kthvalue of a 0-d bool copies it out;
    float16 polygamma's n! and product in float32 (was -inf); expand_copy takes no lone int;
    a strided tensor's sparse parts refused in torch's words, their _copy functions too;
    max_unpool's backward gathers over the last dim of its batch; torch.dropout's p printed
    as C++ prints a double. nn fuzzer s42 (seed 4202): binary_cross_entropy_with_logits reads
    its reduction first; pdist's backward has no float16 kernel; huber's delta is taken in
    the input's dtype (1e308: inf in float32, so an infinite error gives NaN). Math fuzzer
    s42 (seed 4203): lerp of a tensor weight takes an out of its input's dtype only."""
    sweep([f"result = {call}" for call in (
        "L.inner(L.tensor(0, dtype=L.int8), L.tensor([[-2, 126]], dtype=L.int8).expand(2, 2), "
        "out=L.zeros((2, 2), dtype=L.int32))",
        "L.inner(L.tensor(2.), L.ones(3), out=L.zeros(0, dtype=L.int32))",
        "L.inner(L.tensor(2., requires_grad=True), L.ones(3), out=L.zeros(3))",
        "L.outer(L.tensor([-128, -5], dtype=L.int8), L.tensor([3], dtype=L.int8).expand(3), "
        "out=L.zeros((2, 3), dtype=L.int8))",
        "L.ger(L.tensor([0.5, -0.4])[::2], L.tensor([-1.37]), out=L.zeros((1, 1)))",
        "L.kron(L.tensor([-3.5, -1.]), L.tensor([1.1, 0.4]), out=L.zeros(1))",
        "L.tensor(True).kthvalue(1)", "L.tensor([True]).kthvalue(1)",
        "L.polygamma(10, L.tensor([1.6, 2.25, 4.3, 2.5], dtype=L.float16))",
        "L.polygamma(3, L.tensor([0.3, 1.6], dtype=L.float16))",
        "L.expand_copy(L.zeros(3), -1)", "L.expand_copy(L.zeros(3), size=3)",
        "L.expand_copy(L.zeros(3), (2, 3))", "L.view_copy(L.zeros(3), L.int32)",
        "L.zeros(3).indices()", "L.zeros(3).values()", "L.zeros(3).crow_indices()",
        "L.zeros(3).ccol_indices()", "L.zeros(3).indices(1)", "L.values_copy(L.zeros(3))",
        "L.row_indices_copy(L.zeros(3))", "L.view_as_real_copy(L.zeros(3))",
        "L.dropout(L.ones(2), 2, False)", "L.dropout(L.ones(2), 1.0000001, False)",
        "F.binary_cross_entropy_with_logits([1.], [1.], reduction=None)",
        "F.binary_cross_entropy_with_logits(L.ones(1), [1.], reduction='x')",
        "F.huber_loss(L.tensor([[0.434]]), L.tensor([[float('inf')]]), delta=1e308, "
        "reduction='sum')",
        "F.huber_loss(L.tensor([0.5, 2., -3., 1e30]), L.zeros(4), reduction='none')",
        "L.lerp(L.ones(3), L.zeros(3), L.full((3,), 0.5), out=L.zeros(3, dtype=L.float16))",
        "L.lerp(L.ones(1), L.zeros(1), L.zeros(3, 0), out=L.zeros(1, dtype=L.float16))",
        "L.lerp(L.ones(3), L.zeros(3), weight=L.full((3,), .5), out=L.zeros(3, dtype=L.int64))",
        "L.lerp(L.ones(3), L.zeros(3), 0.5, out=L.zeros(3, dtype=L.float16))",
        "L.float_power(L.ones(1), exponent=2, out=L.ones(1))")] + [
        f"x = L.ones({shape}, dtype=L.float16, requires_grad=True); r = F.pdist(x)\n"
        "r.sum().backward(); result = x.grad" for shape in ("(0, 2)", "(1, 2)", "(3, 2)")] + [
        "x = L.tensor([[[0.2, -1.7, -0.4, -1.], [-1.6, 0.2, 0.9, 1.1]]], requires_grad=True)\n"
        f"y, i = F.max_pool1d({x}, 2, return_indices=True)\n"
        f"r = F.max_unpool1d(y, i, {k}); r.sum().backward(); result = r, x.grad"
        for x in ("x", "x[0]") for k in (0, 2)])


def test_a_clone_of_an_inference_tensor_counts_its_copy() -> None:
    """h5 fuzz s42: clone (contiguous, to) of an inference tensor outside inference mode is
    torch's copy_ into a new normal tensor, counted once; minitorch's counted none."""
    sweep(["with L.inference_mode():\n    z = L.ones(2, 3)\n"
           f"w = {call}; result = w, w._version, w.is_inference()"
           for call in ("z.clone()", "z.t().contiguous()", "z.contiguous()", "z.double()",
                        "z.to(L.int64)", "z.to(copy=True)", "L.clone(z)", "z.float()")])


OPTIMIZERS = [("SGD", "lr=a, momentum=b, weight_decay=a"), ("Adam", "lr=a, betas=(b, c)"),
              ("AdamW", "lr=a"), ("RAdam", "lr=a"), ("RMSprop", "lr=a, alpha=b"),
              ("SGD", "lr=f, momentum=f"), ("Adam", "lr=f"), ("Adagrad", "lr=a")]


@pytest.mark.parametrize(("name", "settings"), OPTIMIZERS)
def test_numpy_settings_step_as_torchs_python_numbers(name: str, settings: str) -> None:
    """nn fuzzer s42 (seed 4201): RAdam with ``lr=np.float64(0.05)`` updated in float64 (a
    numpy float64 widens a float32 array), so a weight that torch steps to 0 came to 7e-10;
    SGD refused a numpy float32 momentum. torch's ops read numpy scalars as numbers."""
    sweep(["a, b, c, f = np.float64(0.05), np.float64(0.9), np.float64(0.99), np.float32(0.9)\n"
           "w = L.tensor([[0.5, -1.0, 2.0], [0.1, 0.2, -0.3]], requires_grad=True)\n"
           f"opt = L.optim.{name}([w], {settings})\n"
           "for _ in range(6):\n"
           "    opt.zero_grad(); (w.abs().sum() + (w * w).sum()).backward(); opt.step()\n"
           "result = w"])


def test_a_0d_operands_gradient_graph_is_torchs_whole_sum() -> None:
    """h5 fuzz s42 (seed 4203): torch's at::sum_to of a 0-d shape is ``sum()`` (one
    SumBackward0, even of a 0-d gradient, as expand's backward calls it); minitorch summed
    over dims and viewed (SumBackward1, ViewBackward0), and functional.jvp's graph showed it."""
    head = "a = L.tensor(2., requires_grad=True); b = L.ones(2, 3, requires_grad=True)\n"
    sweep([head + body + "\nresult = g, N(g.grad_fn), [N(n) for n, _ in g.grad_fn.next_functions]"
           for body in (
               "g, = L.autograd.grad((a * b).sum(), a, create_graph=True)",
               "g, = L.autograd.grad((a + b).pow(2).sum(), a, create_graph=True)",
               "g, = L.autograd.grad(a.expand(()), a, L.tensor(1., requires_grad=True), "
               "create_graph=True)",
               "g, = L.autograd.grad(a.expand(3), a, L.ones(3, requires_grad=True), "
               "create_graph=True)",
               "g = L.autograd.functional.jvp(lambda t: t.exp().sum(), (a.detach(),), "
               "v=L.ones_like(a), create_graph=True)[1]")])


def test_transpose_backward_takes_its_dims_as_written() -> None:
    """h5 fuzz s42 (seed 4203): TransposeBackward0 called on a gradient of fewer dims
    wrapped its dims for the input's (torch's formula transposes the dims as written);
    transpose_'s node saves them too, and the batch-first GRU/LSTM's (0, 1)."""
    sweep([
        "x = L.ones(2, 3, requires_grad=True); y = x.transpose(0, -1)\n"
        "result = y.grad_fn(L.ones(5))",
        "x = L.ones(2, 3, 4, requires_grad=True); y = x * 1; y.transpose_(2, -3)\n"
        "(y * L.arange(24.).view(4, 3, 2)).sum().backward()\n"
        "result = x.grad, y.grad_fn._saved_dim0, y.grad_fn._saved_dim1",
        "L.manual_seed(0); m = L.nn.GRU(3, 4, batch_first=True)\n"
        "x = L.ones(2, 5, 3, requires_grad=True); o, h = m(x); o.sum().backward()\n"
        "result = N(o.grad_fn), o.grad_fn._saved_dim0, o.grad_fn._saved_dim1"])


def test_copies_of_an_expanded_tensor_are_laid_out_as_torchs() -> None:
    """h5 fuzz s42 (seed 4203): ``tensor(x)`` of an expanded x kept numpy's order (its
    broadcast dim first) where torch's copy is ``x.to(copy=True)``'s; a unary op of an
    expanded integer tensor was laid out by its float copy, which had lost the zero strides."""
    layouts = ("L.arange(12.).reshape(1, 3, 4).expand(2, 3, 4)",
               "L.arange(3.).reshape(3, 1).expand(3, 4).t()",
               "L.arange(6.).reshape(2, 1, 3).expand(2, 4, 3).transpose(0, 2)",
               "L.arange(6).reshape(2, 1, 3).expand(2, 4, 3).transpose(0, 2)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sweep([f"x = {x}; r = {call}; result = r, r.stride()" for x in layouts
               for call in ("L.tensor(x)", "x.exp()", "x.sqrt()", "x.to(copy=True)",
                            "x.narrow_copy(0, 1, 1)", "x.narrow_copy(-1, 0, 2)")])


def test_empty_strided_takes_a_negative_step_as_torchs_tensor_does() -> None:
    """h5 fuzz s42 (seed 4204): a negative stride that passes torch's storage check (a dim
    of one element, or no elements at all) becomes numpy's step there (1 for the last dim,
    else the next dim's size times its step); minitorch kept it, or refused a dim of one."""
    sweep([f"r = {call}; result = r.shape, r.stride()" for call in (
        "L.empty_strided((0, 2), (-1, 1))", "L.ones(3).new_empty_strided((0, 2), (-1, 1))",
        "L.empty_strided((2, 2), (-1, 1))", "L.empty_strided((0,), (-5,))",
        "L.empty_strided((1, 2), (-1, 1))", "L.empty_strided((0, 3), (5, -2))",
        "L.empty_strided((2, 1, 3), (3, -7, 1))")])


MODULE_PROGRAMS = [
    # a full backward hook prepended, as torch's signature takes it
    "m = L.nn.Linear(2, 2); calls = []\n"
    "m.register_full_backward_hook(lambda mod, gi, go: calls.append(1), prepend=False)\n"
    "m.register_full_backward_hook(lambda mod, gi, go: calls.append(2), prepend=True)\n"
    "m.register_full_backward_pre_hook(lambda mod, go: calls.append(3), prepend=True)\n"
    "m(L.ones(3, 2, requires_grad=True)).sum().backward(); result = calls",
    # a module whose output is a dict: warned, its hooks not called, backward as it is
    "M = type('M', (L.nn.Module,), {'forward': lambda self, x: {'a': x * 2}}); m = M()\n"
    "calls = []; m.register_full_backward_hook(lambda *a: calls.append(1))\n"
    "x = L.ones(2, requires_grad=True); m(x)['a'].sum().backward(); result = x.grad, calls",
    # shared modules and buffers listed twice without duplicates removed; a bad prefix
    "b = L.nn.BatchNorm1d(2); m = L.nn.Sequential(b, L.nn.Linear(2, 2), L.nn.Sequential(b))\n"
    "result = [n for n, _ in m.named_buffers(remove_duplicate=False)], "
    "[n for n, _ in m.named_parameters(remove_duplicate=False)]",
    "result = list(L.nn.Linear(2, 2).named_parameters(prefix=3))",
    # Module.to takes no copy argument; a conversion keeps the .grad tensor and its flag
    "result = L.nn.Linear(2, 2).to(copy=True)",
    "result = L.nn.Linear(2, 2).to(L.float64, False, False)",
    "result = L.nn.Linear(2, 2).to('cpu', L.float64, False).weight.dtype",
    "m = L.nn.Linear(2, 2); m.weight.grad = L.ones(2, 2, requires_grad=True)\n"
    "g = m.weight.grad; m.double(); result = m.weight.grad, g is m.weight.grad",
    # the batch norm count: None skips it; a state dict of its own version reports it
    "b = L.nn.BatchNorm1d(2); b.num_batches_tracked = None\n"
    "result = b(L.tensor([[1., 2.], [3., 5.]])), b.running_mean",
    "src = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.BatchNorm1d(2)); sd = src.state_dict()\n"
    "sd.pop('1.num_batches_tracked'); m = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.BatchNorm1d(2))"
    "\nresult = str(m.load_state_dict(sd, strict=False))",
    "src = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.BatchNorm1d(2)); sd = src.state_dict()\n"
    "sd._metadata['1']['version'] = 1; sd.pop('1.num_batches_tracked')\n"
    "m = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.BatchNorm1d(2))\n"
    "result = str(m.load_state_dict(sd))",
    "src = L.nn.BatchNorm1d(2, track_running_stats=False); m = L.nn.BatchNorm1d(2)\n"
    "result = str(m.load_state_dict(src.state_dict(), strict=False))",
    # torch's class attributes, and a list container's dir() without its indices
    "m = L.nn.Linear(1, 1); result = m.dump_patches, m.call_super_init, str(m.T_destination)",
    "result = [k for k in dir(L.nn.ModuleList([L.nn.Tanh()])) if k.isdigit()], "
    "[k for k in dir(L.nn.Sequential(L.nn.Tanh())) if k.isdigit()]",
    # two iterable datasets chain; a pack of 2-d lengths; norms of a missing tensor
    "D = type('D', (L.utils.data.IterableDataset,), {'__iter__': lambda self: iter(range(3))})\n"
    "c = D() + D(); result = type(c).__name__, list(c)",
    "result = L.nn.utils.rnn.pack_padded_sequence(L.ones(2, 4, 2), L.tensor([[3, 1]]), "
    "batch_first=True)",
    "result = L.nn.utils.rnn.pack_padded_sequence(L.ones(3, 1, 2), L.tensor(3))",
    "result = L.nn.utils.weight_norm(L.nn.Linear(2, 2, bias=False), name='bias')",
    "result = L.nn.utils.parametrizations.weight_norm(L.nn.Linear(2, 2, bias=False), "
    "name='bias')",
    "m = L.nn.utils.parametrizations.spectral_norm(L.nn.Linear(0, 2), dim=1)\n"
    "result = list(m.state_dict()), m(L.ones(3, 0))",
    "result = L.nn.utils.spectral_norm(L.nn.Linear(2, 0))",
    # a module without forward takes no keyword (torch's placeholder's name); typenames
    "M = type('M', (L.nn.Module,), {}); result = M()(L.ones(2), y=L.ones(2))",
    "result = L.nn.Module()(L.ones(2))",
    "result = L.nn.utils.vector_to_parameters(np.arange(6.), [])",
    # a Subset indexed with a list indexes its dataset with the list of its indices
    "result = L.utils.data.Subset(L.utils.data.TensorDataset(L.arange(5.), L.arange(5)), "
    "[4, 2])[[0, 1]]",
    "result = L.utils.data.Subset(range(5), [1, 2])[[0, 1]]",
    # weight norms view the weight as a matrix first: ambiguous of no elements
    "result = L.nn.utils.parametrizations.weight_norm(L.nn.Linear(0, 2), dim=1)",
    "result = list(L.nn.utils.parametrizations.weight_norm(L.nn.Linear(0, 2)).state_dict())",
    "result = L.nn.utils.weight_norm(L.nn.Conv1d(0, 2, 3), dim=1)",
    "result = L.nn.utils.weight_norm(L.nn.Conv1d(2, 3, 3), dim=1).weight_g.shape",
    # binary_cross_entropy reads its reduction first too
    "result = F.binary_cross_entropy([1.], [1.], reduction=None)"]


def test_modules_and_their_utilities_as_torchs() -> None:
    """nn.Module fuzzer s42 (helper-written, seeds 4261/4262): full backward hooks took no
    ``prepend`` and failed on a module returning a dict; named_* without duplicates removed
    still skipped a shared module; Module.to took copy=; a dtype conversion made a new .grad
    without its requires_grad; a batch norm with no count failed; a state dict of the
    batch norm's own version was given a count it did not hold; IterableDataset + ... was
    refused; 2-d lengths, a weight norm of a missing bias and a spectral norm of no inputs
    failed inside minitorch; torch's Module attributes and containers' dir() differed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sweep(MODULE_PROGRAMS)
