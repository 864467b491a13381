"""Fresh fuzz seeds of session 39 and what they opened: a method's lone argument that its
int overload does not take but that is an index (``x.hsplit(tensor([2]))``: the ints one by
one), which the function form refuses; torch's C++ losses (``torch.margin_ranking_loss``,
``torch.binary_cross_entropy_with_logits``), whose parser reads every argument first and
whose kernels broadcast where F's Python checks refuse. Each case runs under torch and
minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result, gradients included."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from tests.oracle import assert_as_torch

LONE = {  # a lone argument, by how torch's parser reads it
    "0-d int tensor": lambda L: L.tensor(2), "1-elem tensor": lambda L: L.tensor([2]),
    "1x1 tensor": lambda L: L.tensor([[1]]), "bool tensor": lambda L: L.tensor(True),
    "1-elem bool tensor": lambda L: L.tensor([True]), "0-d array": lambda L: np.array(1),
    "1-elem array": lambda L: np.array([1]), "numpy int": lambda L: np.int64(2),
    "float tensor": lambda L: L.tensor([2.0]), "int": lambda L: 2, "bool": lambda L: True,
}


@pytest.mark.parametrize("lone", list(LONE))
@pytest.mark.parametrize("name", ["hsplit", "vsplit", "dsplit", "squeeze", "count_nonzero"])
@pytest.mark.parametrize("method", [True, False])
def test_a_lone_index_is_the_int_overload_or_one_of_a_list_as_torchs_parser_reads_it(
        lone: str, name: str, method: bool) -> None:
    """Fuzz s39: ``x.vsplit(tensor([3]))`` cut into 3 pieces (torch: at index 3, the
    method's ints one by one); ``torch.hsplit(x, tensor([3]))`` and
    ``torch.squeeze(x, np.array(0))`` ran (torch: no overload takes them)."""
    def program(L: Any) -> Any:
        x = L.ones(1, 2, 6, requires_grad=True) * 1
        arg = LONE[lone](L)
        out = getattr(x, name)(arg) if method else getattr(L, name)(x, arg)
        return list(out) if isinstance(out, tuple) else out

    assert_as_torch(program)


@pytest.mark.parametrize("args", [(2, 1), ("t", 3), (np.int64(2), 3), (True, 2), (2, True),
                                  (2, 1.5)])
def test_a_directional_split_method_takes_its_indices_one_by_one(args: tuple) -> None:
    def program(L: Any) -> Any:
        given = [L.tensor([1]) if a == "t" else a for a in args]
        return list(L.arange(12.0).reshape(2, 6).hsplit(*given))

    assert_as_torch(program)


SHAPES = [((2, 3), (3,)), ((3,), (2, 3)), ((2, 1), (1, 3)), ((3,), (3,)), ((1,), (2, 3))]


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("weights", ["", "weight", "pos_weight", "both"])
def test_torchs_binary_cross_entropy_with_logits_broadcasts_the_input_into_the_target(
        shapes: tuple, reduction: int, weights: str) -> None:
    """Fuzz s39: ``torch.binary_cross_entropy_with_logits`` raised F's ValueError on shapes
    that differ; torch's kernel runs ``(1 - target).mul_(input)``: the input broadcasts
    into the target, or the in-place refusal."""
    rng = np.random.default_rng(len(weights) + reduction)
    x = rng.standard_normal(shapes[0]).astype(np.float32)  # (float32: SLEEF's, bit for bit)
    t = rng.random(shapes[1]).astype(np.float32)

    def program(L: Any) -> Any:
        kw = {}
        if weights in ("weight", "both"):
            kw["weight"] = L.tensor([[0.5], [2.0]])
        if weights in ("pos_weight", "both"):
            kw["pos_weight"] = L.tensor([1.0, 2.0, 3.0])
        a = L.tensor(x, requires_grad=True)
        loss = L.binary_cross_entropy_with_logits(a * 1, L.tensor(t), reduction=reduction, **kw)
        return loss, L.autograd.grad(loss.sum(), a, create_graph=True)

    assert_as_torch(program)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("wrt", ["input", "target"])
def test_a_broadcast_inputs_logits_loss_backward_is_torchs(create_graph: bool, wrt: str) -> None:
    """torch's backward of that broadcast: the input's gradient in place where no graph is
    recorded (refused), the target's of the input's shape (the engine's refusal)."""
    def program(L: Any) -> Any:
        x = L.zeros(3, requires_grad=wrt == "input")
        t = L.full((2, 3), 0.3, requires_grad=wrt == "target")
        loss = L.binary_cross_entropy_with_logits(x, t, reduction=1)
        return L.autograd.grad(loss, x if wrt == "input" else t, create_graph=create_graph)

    assert_as_torch(program)


BAD = [("list", "x"), ("x", "list"), ("x", "x", "a"), ("x", "x", None), ("x", "x", "x", "s")]


@pytest.mark.parametrize("call", list(itertools.product(["margin_ranking_loss"], SHAPES)) +
                         [("margin_ranking_loss", b) for b in BAD])
def test_torchs_margin_ranking_loss_parses_then_broadcasts(call: tuple) -> None:
    """Fuzz s39: ``torch.margin_ranking_loss([1, 0], ...)`` gave AttributeError (F's Python
    reads ``dim()``); torch's parser names the argument; its kernel broadcasts."""
    _, spec = call

    def program(L: Any) -> Any:
        if isinstance(spec[0], tuple):
            a, b = L.ones(spec[0], requires_grad=True), L.zeros(spec[1])
            loss = L.margin_ranking_loss(a, b, L.tensor([-1.0]), 0.5, 1)
            return loss, L.autograd.grad(loss, a)
        given = {"x": L.ones(3), "list": [1.0, 0.0], "a": "a", "s": "sum", None: None}
        return L.margin_ranking_loss(*(given[k] for k in spec[:3]), L.ones(3),
                                     *(given[k] for k in spec[3:]))

    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "x.subtract(2, 3)", "L.subtract(x, 2, 3)", "L.rsub(x, 2, 3)", "x.clone().subtract_(2, 3)",
    "L.subtract(x, x, 3)", "L.subtract(x, 2, 'a')", "L.subtract(x, 2, 3, alpha=2)",
    "L.rsub(x, True, 3)", "x.subtract(2, 1.5)", "x.long().subtract(2, 1.5)",
    "L.subtract(2, x, 3)", "x.subtract(x, 3)"])
def test_a_numbers_alpha_may_come_by_position_as_torchs_overload_has_it(call: str) -> None:
    """Own fuzz s39: ``x.subtract(2, 3)`` was refused; torch's ``Number other, Number alpha``
    overload of subtract, subtract_ and rsub takes alpha by position (a tensor's, only by
    keyword)."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.arange(3.0)}))


@pytest.mark.parametrize("call", [
    "L.argmax(x, L.tensor(1.0), L.ones(2))", "x.argmax(0, L.ones(2))", "x.argmin(0, L.ones(1))",
    "L.argmin(x, False, L.ones(3, 3))", "x.argmax(0, True)", "x.argmin(float('nan'), L.ones(2))",
    "L.max_pool1d(x[None], float('inf'), L.ones(0), ())", "L.max_pool1d(x[None], 2, L.ones(0))",
    "L.max_pool1d(x[None], 2, [])", "L.max_pool1d(x[None], 2, L.tensor(1))",
    "L.max_pool2d(x.reshape(1, 1, 3), 1, (), 0, 1, 1)", "L.max_pool1d(x[None], -2)"])
def test_a_flag_or_size_is_parsed_before_it_is_read(call: str) -> None:
    """Own fuzz s39: a tensor given for argmax's keepdim or max_pool1d's stride was read for
    its truth first ("Boolean value of Tensor ... is ambiguous"); torch's parser names it."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.tensor([1.0, 3.0, 2.0])}))


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("out", [1, 2, 3])
def test_an_adaptive_max_pools_window_of_minus_inf_picks_its_first_element(n: int,
                                                                           out: int) -> None:
    """nn fuzzer s39 (calls 1769, 644): a window holding only -inf picked the plane's first
    element (index 0: -1e30, inf); torch's loop starts at the window's first element."""
    values = np.array([-np.inf, -1e30, np.inf, -np.inf, -np.inf, 1.0, -np.inf, np.nan, 2.0])

    def program(L: Any) -> Any:
        x = L.tensor(np.resize(values, (1, 2, *(3,) * n)), requires_grad=True)
        pool = getattr(L.nn.functional, f"adaptive_max_pool{n}d")
        y, i = pool(x, out, return_indices=True)
        return y, i, L.autograd.grad(y.sum(), x)

    assert_as_torch(program)


@pytest.mark.parametrize("shape", [(0, 4, 2, 2), (1, 4, 0, 2), (0, 1, 4, 4), (2, 4, 2, 2)])
@pytest.mark.parametrize("name", ["pixel_shuffle", "pixel_unshuffle"])
def test_an_empty_pixel_shuffles_backward_is_torchs(shape: tuple, name: str) -> None:
    """nn fuzzer s39: backward through an empty pixel_shuffle failed inside numpy; torch's
    other op keeps an empty gradient's shape and the engine refuses it (or that op's own
    channel check does)."""
    def program(L: Any) -> Any:
        x = L.zeros(shape, requires_grad=True)
        y = getattr(L.nn.functional, name)(x, 2)
        return y, L.autograd.grad(y.sum(), x)

    assert_as_torch(program)


@pytest.mark.parametrize("sizes", [(0, 3, 2), (2, 0, 2), (2, 3, 0), (30, 30, 2), (2, 3, 2)])
@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float16", "float32"),
                                    ("float16", "float16")])
@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary",
                                  "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"])
def test_cdist_returns_empty_or_zero_column_results_before_its_dtype_checks(
        sizes: tuple, dtypes: tuple, mode: str) -> None:
    """nn fuzzer s39 (call 2108): cdist of no rows in float32 and float64 was refused;
    torch returns an empty (or zero-column: zeros) result of x1's dtype before its kernel's
    checks, and its matmul path checks the dtypes in matmul's words (float16 runs)."""
    r1, r2, c = sizes

    def program(L: Any) -> Any:
        a = L.arange(r1 * c, dtype=getattr(L, dtypes[0])).reshape(r1, c) / 4
        b = L.arange(r2 * c, dtype=getattr(L, dtypes[1])).reshape(r2, c) / 8
        return L.cdist(a, b, compute_mode=mode)

    assert_as_torch(program)


@pytest.mark.parametrize("flag", [1, 0, np.bool_(True), "yes", True])
def test_affine_grid_and_grid_sample_parse_align_corners_as_torchs_c_functions(flag: Any
                                                                                ) -> None:
    """nn fuzzer s39 (call 2086): ``affine_grid(..., align_corners=1)`` ran; torch's
    affine_grid_generator and grid_sampler take a bool only."""
    def program(L: Any) -> Any:
        grid = L.nn.functional.affine_grid(L.eye(2, 3)[None] / 2, [1, 1, 2, 3], align_corners=True)
        return (L.nn.functional.grid_sample(L.ones(1, 1, 2, 2), grid, align_corners=flag),
                L.nn.functional.affine_grid(L.eye(2, 3)[None], [1, 1, 2, 2], align_corners=flag))

    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "L.threshold_(L.tensor([[0.05], [2.0]]).expand(2, 2), 0.1, -3.0)",
    "F.threshold(L.tensor([[0.05], [2.0]]).expand(2, 2), 0.1, -3.0, inplace=True)",
    "F.threshold_(L.tensor([1.0, 2.0], requires_grad=True), 1e308, 0.0)",
    "F.leaky_relu_(L.tensor([[2], [5]], dtype=L.int32).expand(2, 2))",
    "F.leaky_relu_(L.tensor([[2], [5]], dtype=L.int32))",
    "F.hardtanh_(L.tensor([[2], [5]], dtype=L.int32), -1.5, 3)",
    "F.threshold_(L.tensor([2, 5], dtype=L.uint8), 300, 1)",
    "F.relu_(L.tensor([[0.5], [-2.0]]).expand(2, 2))",
    "F.elu_(L.tensor([1.0, -2.0], requires_grad=True), 2.0)"])
def test_an_in_place_activation_checks_autograd_then_overlap_then_its_kernel(call: str) -> None:
    """nn fuzzer s39: threshold_ of an expanded tensor was refused (torch's kernel writes
    it); a leaf's threshold_ and an expanded int leaky_relu_ met the kernel's checks (the
    number's overflow, the dtype) before autograd's and TensorIterator's."""
    assert_as_torch(lambda L: eval(call, {"L": L, "F": L.nn.functional}))


@pytest.mark.parametrize("value", ["lambda t: t", "len", "F.relu", "3", "L.nn.ReLU"])
@pytest.mark.parametrize("container", ["Sequential", "ModuleList"])
def test_a_container_names_a_function_as_torch_typename_does(value: str, container: str
                                                             ) -> None:
    """nn fuzzer s39: ``nn.Sequential(lambda t: t)`` said 'function is not a Module
    subclass' (torch: '<lambda> ...', a function by its own name)."""
    def program(L: Any) -> Any:
        given = eval(value, {"L": L, "F": L.nn.functional})
        cls = getattr(L.nn, container)
        return cls(given) if container == "Sequential" else cls([given])

    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "clip([1.0], 0.0, norm_type='fro')", "clip([], 'a', norm_type='fro')", "clip([], 'a')",
    "clip((p for p in []), 1.0)", "clip((p for p in [w]), 1.0)", "clip([w], 1.0, 'inf')"])
def test_clip_grad_norm_reads_the_grads_before_the_norm_as_torch(call: str) -> None:
    """nn fuzzer s39 (call 1399): clip_grad_norm_ read norm_type before the parameters'
    grads; an empty generator gets torch's warning."""
    def program(L: Any) -> Any:
        w = L.tensor([3.0, 4.0], requires_grad=True)
        w.sum().backward()
        return eval(call, {"clip": L.nn.utils.clip_grad_norm_, "w": w})

    assert_as_torch(program)


@pytest.mark.parametrize("save", ["out0", "in0", "in1", "out1"])
@pytest.mark.parametrize("dirty", [False, True])
def test_setup_context_saving_an_input_returned_as_is_is_refused(save: str, dirty: bool
                                                                 ) -> None:
    """nn fuzzer s39 (call 1289): a setup_context that saved the output forward returned
    as-is ran (torch refuses it in the forward, unless the input was written in place)."""
    def program(L: Any) -> Any:
        def forward(x: Any, y: Any) -> tuple:
            if dirty:
                x.mul_(1)
            return x, y * 2

        def setup(ctx: Any, inputs: tuple, out: tuple) -> None:
            if dirty:
                ctx.mark_dirty(inputs[0])
            ctx.save_for_backward({"out0": out[0], "in0": inputs[0], "in1": inputs[1],
                                   "out1": out[1]}[save])

        fn = type("Fn", (L.autograd.Function,), {
            "forward": staticmethod(forward), "setup_context": staticmethod(setup),
            "backward": staticmethod(lambda ctx, a, b: (a, b * 2))})
        x = L.ones(2, requires_grad=True) * 1
        return [type(t.grad_fn).__name__ for t in fn.apply(x, L.ones(2, requires_grad=True))]

    assert_as_torch(program)


@pytest.mark.parametrize("convert", ["double", "half", "to(L.float64)"])
@pytest.mark.parametrize("module", ["LazyBatchNorm1d", "LazyInstanceNorm2d"])
def test_a_lazy_module_converted_before_its_first_call_stays_lazy(convert: str,
                                                                  module: str) -> None:
    """nn fuzzer s39 (calls 2018, 2493): ``nn.LazyInstanceNorm2d().double()`` made its
    running stats plain empty tensors, refused at the first call; torch's conversion of an
    uninitialized buffer is an uninitialized buffer."""
    def program(L: Any) -> Any:
        m = eval(f"m.{convert}", {"m": getattr(L.nn, module)(momentum=1.0), "L": L})
        kinds = [type(b).__name__ for b in m.buffers()]
        if convert == "half":
            return kinds
        x = L.arange(24.0, dtype=L.float64).reshape(2, 3, 2, 2)
        out = m(x if module.endswith("2d") else x.flatten(1)[:, :3])
        return kinds, out.detach().float(), [b.float() for b in m.buffers()]  # (float: a
        # last float64 bit of batch norm's is not what this checks)

    assert_as_torch(program)


@pytest.mark.parametrize("mode", ["nearest", "linear", "nearest-exact", "bilinear", "bicubic",
                                  "trilinear", "area"])
def test_an_empty_batchs_interpolation_has_torchs_empty_gradient(mode: str) -> None:
    """nn fuzzer s39 (calls 2350, 2710): backward through an interpolation of no samples
    failed inside numpy (a reshape of -1 over nothing)."""
    dims = {"bilinear": 2, "bicubic": 2, "trilinear": 3}.get(mode, 1)

    def program(L: Any) -> Any:
        x = L.zeros(0, 2, *(3,) * dims, requires_grad=True)
        y = L.nn.functional.interpolate(x, size=5, mode=mode)
        return y, L.autograd.grad(y.sum(), x)

    assert_as_torch(program)


@pytest.mark.parametrize("dims", [1, 2, 3])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("dtypes", [("float16", "float32"), ("float32", "float64"),
                                    ("int64", "float32"), ("int64", "float64")])
def test_a_convolution_of_an_empty_batch_takes_torchs_empty_path(dims: int, transposed: bool,
                                                                 dtypes: tuple) -> None:
    """nn fuzzer s39 (call 2834): conv3d of no samples in float16 with a float32 weight was
    refused; torch's empty path multiplies by one weight element (that dtype's promotion),
    before any kernel's dtype check."""
    def program(L: Any) -> Any:
        x = L.zeros(0, 2, *(3,) * dims, dtype=getattr(L, dtypes[0]))
        x.requires_grad_(x.is_floating_point())
        w = L.ones(2, 2, *(1,) * dims, dtype=getattr(L, dtypes[1]), requires_grad=True)
        fn = getattr(L.nn.functional, f"conv{'_transpose' if transposed else ''}{dims}d")
        y = fn(x, w)
        return y, L.autograd.grad(y.sum(), [t for t in (x, w) if t.requires_grad])

    assert_as_torch(program)


def test_a_transposed_convolution_module_parses_its_input_as_the_function() -> None:
    """nn fuzzer s39 (call 2688): ``nn.ConvTranspose2d(...)(list)`` gave AttributeError."""
    def program(L: Any) -> Any:
        L.manual_seed(0)
        return L.nn.ConvTranspose2d(1, 1, 1)([[[[1.0]]]])

    assert_as_torch(program)


@pytest.mark.parametrize("options", [{}, {"label_smoothing": 0.1}, {"weight": "ones"}])
def test_an_empty_soft_cross_entropys_mean_is_a_negation_of_nan(options: dict) -> None:
    """nn fuzzer s39 (call 1705): its node was MulBackward0 (torch: NegBackward0)."""
    def program(L: Any) -> Any:
        x = L.zeros(0, 3, 2, requires_grad=True)
        kw = {k: L.ones(3) if v == "ones" else v for k, v in options.items()}
        loss = L.nn.functional.cross_entropy(x, L.zeros(0, 3, 2), **kw)
        return loss, L.autograd.grad(loss, x)

    assert_as_torch(program)


@pytest.mark.parametrize("call", ["F.selu(x)", "F.elu(x, 2.0)", "F.celu(x, 2.0)", "F.elu(x)",
                                  "L.nn.SELU()(x)"])
@pytest.mark.parametrize("create_graph", [False, True])
def test_an_elus_gradient_at_nan_takes_the_positive_branch(call: str, create_graph: bool
                                                           ) -> None:
    """nn fuzzer s39 (call 2962): selu's gradient at NaN took the negative branch (alpha *
    scale); torch's elu_backward takes it where x <= 0 only."""
    def program(L: Any) -> Any:
        x = L.tensor([float("nan"), -1.0, 1.0, 0.0, -0.0], requires_grad=True)
        y = eval(call, {"L": L, "F": L.nn.functional, "x": x})
        return L.autograd.grad(y.sum(), x, create_graph=create_graph)[0].detach()

    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "L.inner(L.tensor(2.0, requires_grad=True), L.ones(3), out=L.zeros(3))",
    "L.inner(L.ones(3, requires_grad=True), L.tensor(2.0), out=L.zeros(3))",
    "L.inner(L.ones(3, requires_grad=True), L.ones(3), out=L.zeros(()))",
    "L.special.ndtr(L.ones(3, requires_grad=True), out=L.zeros(5, 7))",
    "L.special.ndtr(L.ones(3), out=L.zeros(3, dtype=L.long))",
    "L.special.ndtr(L.ones(3).double(), out=L.zeros(3).half())",
    "L.linalg.vecdot(L.ones(2, 3), L.ones(2, 3), dim=(0, 0))",
    "L.linalg.vecdot(L.ones(2, 3), L.ones(2, 3), dim=[0])",
    "L.linalg.vecdot(L.ones(2, 3), L.ones(2, 3), dim=np.int64(0))",
    "L.linalg.vecdot(L.ones(2, 3), L.ones(2, 3), dim=L.tensor([0]))"])
def test_math_fuzzer_s39_out_and_dim_cases_as_torch(call: str) -> None:
    """Math fuzzer s39: inner of a 0-d operand with out= and a grad ran (torch's is mul's
    out=, refused); special.ndtr's out= with a grad was refused (torch copies into out:
    CopyBackwards); linalg.vecdot took a tuple or list dim (torch: an int)."""
    assert_as_torch(lambda L: eval(call, {"L": L, "np": np}))


@pytest.mark.parametrize("call", [
    "L.linalg.cross(L.tensor(1.0), L.tensor(2.0))",
    "L.linalg.cross(L.tensor(1.0), L.tensor(2.0), dim=0)",
    "L.linalg.cross(L.tensor(1.0), L.tensor(2), dim=5)",
    "L.cross(L.tensor(1.0), L.tensor(2.0), dim=-1)",
    "L.linalg.cross(x, L.ones(3), out=x)",
    "L.linalg.cross(L.ones(3), x, out=x[:])",
    "L.cross(x, L.ones(3), dim=0, out=x)",
    "L.linalg.cross(y[:3], L.ones(3), out=y[1:4])",
    "L.linalg.cross(y[:3], L.ones(3), out=y[3:])",
    "L.linalg.cross(m, m, out=m.t())",
    "L.linalg.cross(m[0], L.ones(3), out=m[1])",
    "L.linalg.cross(x, L.ones(3), out=x.view(L.int32))",
    "L.linalg.cross(L.ones(3), L.ones(3), out=x[:0])"])
def test_cross_of_0d_tensors_and_into_an_overlapping_out_as_torch(call: str) -> None:
    """Math fuzzer s39: cross of 0-d tensors failed inside minitorch (torch: its dim range
    error for no dims); an out overlapping an input was written (torch refuses it, after
    out's dtype check)."""
    def program(L: Any) -> Any:
        x, y, m = L.ones(3), L.arange(6.0), L.arange(9.0).reshape(3, 3)
        return eval(call, {"L": L, "x": x, "y": y, "m": m}), x, y, m

    assert_as_torch(program)


@pytest.mark.parametrize("name, shapes", [
    ("addmv_", ((2,), (2, 3), (3,))), ("addmv_", ((1,), (1, 1), (1,))),
    ("addr_", ((2, 3), (2,), (3,))), ("addbmm_", ((2, 2), (3, 2, 4), (3, 4, 2))),
    ("addbmm_", ((1, 1), (2, 1, 1), (2, 1, 1))), ("addbmm_", ((1,), (2, 1, 2), (2, 2, 1))),
    ("baddbmm_", ((2, 2, 3), (2, 2, 4), (2, 4, 3)))])
@pytest.mark.parametrize("grads", ["first", "second", "both"])
@pytest.mark.parametrize("expanded", [False, True])
def test_an_in_place_product_records_its_factors_history(name: str, shapes: tuple,
                                                         grads: str, expanded: bool) -> None:
    """Math fuzzer s39: x.addmv_(A, v), addr_, addbmm_ and baddbmm_ into an x that does not
    require grad ran without recording, though A or v did (no grad_fn: backward refused)."""
    def program(L: Any) -> Any:
        gen = np.random.default_rng(len(name) + sum(map(len, shapes)))
        x, a, b = (L.tensor(gen.integers(-3, 4, s), dtype=L.float64) for s in shapes)  # (exact:
        # the point is the graph, not the rounding of addr's and addbmm's sums)
        if expanded:
            x = x.reshape(-1)[:1].reshape((1,) * x.dim()).expand(*x.shape) if x.numel() == 1 \
                else x
        a.requires_grad_(grads != "second")
        b.requires_grad_(grads != "first")
        r = getattr(x, name)(a, b, beta=3, alpha=2)
        r.sum().backward()
        return r, type(r.grad_fn).__name__, a.grad, b.grad

    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "L.mm(L.tensor([[5, 6]], dtype=L.uint8).expand(3, 2), L.zeros(2, 0, dtype=L.uint8), "
    "out=x)",
    "L.mm(x, L.ones(2, 0), out=x)", "L.matmul(x, L.ones(2, 0), out=x)",
    "L.mm(x[:, :0], L.ones(0, 3), out=x)", "L.mm(x, L.ones(2, 2), out=x)"])
def test_a_product_into_an_aliased_out_of_no_elements_is_torchs(call: str) -> None:
    """Math fuzzer s39: mm(x, ones(2, 0), out=x) was refused as an aliased out; torch
    resizes out to no elements first, so nothing is read after being written."""
    def program(L: Any) -> Any:
        x = L.ones(3, 2)
        return eval(call, {"L": L, "x": x}), x

    if call.endswith("L.ones(2, 2), out=x)"):  # minitorch's refusal (torch writes zeros)
        with pytest.raises(RuntimeError, match="out= shares memory with an input"):
            program(__import__("minitorch"))
        return
    assert_as_torch(program)
