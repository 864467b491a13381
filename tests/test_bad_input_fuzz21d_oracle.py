"""Bad input found by issue #21's fourth fuzz (seeds 3301-3302) that minitorch accepted where
torch refuses (SILENT) or refused with a raw numpy or Python error from its own code
(INTERNAL), against live torch. Each case is a small program run on torch and on minitorch
(``L``); its outcome, the value of ``R`` or the exception's type and message, must be the
same.
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

DL = "R = L.utils.data.DataLoader(list(range(5)), batch_size=2, "


@pytest.mark.parametrize("options", [
    "num_workers=-1", "num_workers=-1, timeout=-1", "timeout=-1", "timeout=-0.5",
    "timeout=-1, prefetch_factor=2", "prefetch_factor=2", "prefetch_factor=-1",
    "num_workers=0, prefetch_factor=0", "persistent_workers=True",
    "persistent_workers=True, multiprocessing_context='spawn'",
    "multiprocessing_context='spawn'", "multiprocessing_context=3",
    "prefetch_factor=None, persistent_workers=False, multiprocessing_context=None",
    "num_workers=1, prefetch_factor=-1", "num_workers=None"])
def test_dataloader_worker_options_as_torch(options: str) -> None:
    """The worker options are checked as torch checks them, in its order, though minitorch
    loads in one process: options only workers use are refused without workers."""
    assert_as_torch(DL + options + "); R = None")


@pytest.mark.parametrize("batch", [
    "[np.ones(2), np.ones(3)]", "[np.ones((2, 2)), np.ones((2, 3))]", "[np.ones(2), 3]",
    "[np.ones(2, dtype=np.float32), np.zeros(2, dtype=np.float32)]",
    "[np.ones(2, dtype=np.int16), np.zeros(2, dtype=np.int16)]",
    "[np.ones(()), np.zeros(())]", "[np.float32(1.), np.float32(2.)]",
    "[np.int32(1), np.int32(2)]", "[np.float64(1.), np.float64(2.)]",
    "[np.bool_(1), np.bool_(0)]",
    "[np.array(['a']), np.array(['b'])]", "[np.ones(2, dtype=object)] * 2",
    "[L.ones(2), L.ones(3)]", "[[1, 2], [3]]", "[(1, 2), (3,)]", "[(1,), (2, 3)]",
    "[[1, 2], [3, 4]]", "[(1, 'a'), (2, 'b')]", "[object(), object()]", "[None, None]",
    "[{'a': object()}]", "[1 + 2j, 3j]", "['a', 'b']", "[b'a', b'b']", "[True, False]",
    "[1, 2.5]", "[1, 'a']", "[{'a': [1, 2]}, {'a': [3]}]"])
def test_default_collate_as_torch(batch: str) -> None:
    """default_collate stacks numpy arrays and scalars as tensors (equal sizes only), wants
    samples of one length, and refuses what it cannot batch, with torch's errors."""
    assert_as_torch(f"import numpy as np; R = L.utils.data.default_collate({batch})")
    assert_as_torch(f"import numpy as np; R = list(L.utils.data.DataLoader({batch}, "
                    "batch_size=2))")


RNN = "X = L.arange(8.).view(4, 2); rnn = L.nn.utils.rnn\n"


@pytest.mark.parametrize("program", [
    "R = rnn.unpad_sequence(X, L.tensor([3, 2]), batch_first=True)",
    "R = rnn.unpad_sequence(X, L.tensor([3, 2, 1]), batch_first=True)",
    "R = rnn.unpad_sequence(X, L.tensor([2, 2, 1, 1]), batch_first=True)",
    "R = rnn.unpad_sequence(X, L.tensor([3, 2, 1]))", "R = rnn.unpad_sequence(X, L.tensor([3]))",
    "R = rnn.unpad_sequence(X, [3, 1])",
    "R = rnn.unpad_sequence(X.view(4, 2, 1), L.tensor([2] * 4))",
    "R = rnn.pack_sequence([L.tensor(1.)])", "R = rnn.pack_sequence([L.ones(2), L.tensor(1.)])",
    "R = rnn.PackedSequence(L.ones(3), None)", "R = rnn.PackedSequence(L.ones(3))",
    "R = rnn.PackedSequence((L.ones(3),))", "R = rnn.PackedSequence([L.ones(3), L.tensor([3])])",
    "R = rnn.PackedSequence((L.ones(3), L.tensor([3]), None))"])
def test_packed_sequence_arguments_as_torch(program: str) -> None:
    """unpad_sequence wants one length per sequence; pack_sequence's sequences have a first
    dim; PackedSequence's lone argument is a (data, batch_sizes) pair; torch's errors."""
    assert_as_torch(RNN + program)


@pytest.mark.parametrize("args", ["'cpu', -1", "'cuda', -2", "'meta', -1", "'cpu', -1.0",
                                  "'cpu', 'a'", "'cpu', None", "'cpu', True", "'cpu', 2 ** 63",
                                  "'cpu', np.int64(-1)", "'cpu', np.int64(1)", "'cpu:-1'",
                                  "'cuda:-1'", "-1", "'cpu:0', 1", "'cpu', 1"])
def test_device_index_as_torch(args: str) -> None:
    """A device's index is an int (numpy ints too), not negative, as torch's parser wants."""
    assert_as_torch(f"import numpy as np; R = L.device({args})")


@pytest.mark.parametrize("scale", ["float('nan')", "float('inf')", "-float('inf')", "1e30",
                                   "(2, float('nan'))", "-1.", "0.1", "2.5"])
@pytest.mark.parametrize("more", ["", ", mode='linear'", ", recompute_scale_factor=True"])
def test_interpolate_scale_beyond_int64_as_torch(scale: str, more: str) -> None:
    """A scale whose output size is nan, infinite or beyond int64 gets torch's error (its
    Python int()'s with recompute_scale_factor)."""
    x = "L.arange(16.).view(1, 1, 4, 4)" if "(" in scale else "L.arange(8.).view(1, 2, 4)"
    if "(" in scale and "linear" in more:
        more = ", mode='bilinear'"
    if scale == "1e30" and "recompute" in more:
        pytest.skip("torch's recompute passes the huge int on: a TypeError from its C++ binding")
    assert_as_torch(f"R = L.nn.functional.interpolate({x}, scale_factor={scale}{more})")


@pytest.mark.parametrize("mode", ["no_grad()", "enable_grad()", "inference_mode()",
                                  "inference_mode(False)", "set_grad_enabled(False)"])
def test_grad_mode_exit_without_enter_as_torch(mode: str) -> None:
    """Leaving a grad mode never entered does what torch does (no_grad turns grad mode off;
    enable_grad and inference_mode raise torch's AttributeError), not an internal error."""
    assert_as_torch(f"m = L.{mode}\ntry:\n    R = (m.__exit__(None, None, None), "
                    "L.is_grad_enabled(), L.is_inference_mode_enabled())\n"
                    "finally:\n    L.set_grad_enabled(True)")


OPTIMIZERS = ["SGD(ps, lr=0.1, momentum=0.9)", "Adam(ps, lr=0.1)", "Adam(ps, amsgrad=True)",
              "AdamW(ps)", "Adamax(ps)", "NAdam(ps)", "RAdam(ps)", "RMSprop(ps)",
              "RMSprop(ps, momentum=0.5, centered=True)", "Adagrad(ps)", "Adadelta(ps)"]
TRAINED = ("w = L.tensor([1., -2., 3.], requires_grad=True)\n"
           "v = L.tensor([0.5, 0.25], requires_grad=True)\nps = [w, v]\n"
           "a = L.optim.{a}\n((w * w).sum() + v.exp().sum()).backward()\na.step()\n"
           "sd = a.state_dict()\n")


@pytest.mark.parametrize("a", OPTIMIZERS)
@pytest.mark.parametrize("b", OPTIMIZERS)
def test_optimizer_loads_another_optimizers_state_as_torch(a: str, b: str) -> None:
    """A state dict of another optimizer replaces the groups' settings (as torch's, a
    setting it lacks stays out): the step then fails as torch's, reading the settings in its
    order, not silently with the old ones."""
    assert_as_torch(TRAINED.format(a=a) + f"b = L.optim.{b}\nb.load_state_dict(sd)\n"
                    "w.grad = v.grad = None\nb.step()\nR = (w, v, b.param_groups[0].get('lr'))")


@pytest.mark.parametrize("a", OPTIMIZERS)
@pytest.mark.parametrize("change", ["ps.reverse()", "sd['state'] = {5: {}}",
                                    "sd['state'] = {0: {'step': L.tensor(3.)}}",
                                    "sd['state'][0].pop('step', None)",
                                    "sd['state'][1] = dict(sd['state'][0])",
                                    "sd['param_groups'][0].pop('lr')",
                                    "sd['param_groups'][0].pop('eps', None)",
                                    "sd['param_groups'][0].pop('weight_decay')"])
def test_optimizer_loads_a_changed_state_as_torch(a: str, change: str) -> None:
    """A state dict whose state is another parameter's, lacks entries, names no parameter,
    or whose groups lack a setting: torch's KeyError or shape error at the step, never the
    update of a numpy error or a silent step."""
    assert_as_torch(TRAINED.format(a=a) + f"{change}\nb = L.optim.{a}\nb.load_state_dict(sd)\n"
                    "R = sorted(map(str, b.state_dict()['state']))\n"
                    "((w * w).sum() + v.exp().sum()).backward()\nb.step()\nR = (R, w, v)")


@pytest.mark.parametrize("value", ["3", "{'a': 1}", "[L.ones(1)]"])
@pytest.mark.parametrize("key", ["w", "'x'", "L.ones(1)"])
def test_optimizer_state_dict_of_odd_state_as_torch(key: str, value: str) -> None:
    """state_dict() keeps whatever the state holds: values as they are, keys that are not
    parameters as they are (a tensor that is no parameter: torch's KeyError)."""
    program = ("w = L.tensor([1., -2., 3.], requires_grad=True)\n"
               f"opt = L.optim.SGD([w], lr=0.1)\nopt.state[{key}] = {value}\n"
               "R = opt.state_dict()['state']")
    if key == "L.ones(1)":  # torch's KeyError names the tensor's id
        program += "\nR = None"
        program = f"try:\n    {program.replace(chr(10), chr(10) + '    ')}\n" \
                  "except KeyError:\n    R = 'KeyError'"
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "F.conv2d(L.ones(1, 2, 4, 4), L.ones(4, 2, 3, 3, dtype=L.float64))",
    "F.conv1d(L.ones(1, 2, 4, dtype=L.float16), L.ones(4, 2, 3))",
    "F.conv1d(L.ones(1, 2, 4, dtype=L.float16), L.ones(4, 2, 7), padding=2)",
    "F.conv2d(L.ones(1, 2, 4, 4, dtype=L.float64), L.ones(4, 2, 3, 3))",
    "F.conv3d(L.ones(1, 2, 4, 4, 4), L.ones(4, 2, 3, 3, 3, dtype=L.float16))",
    "F.conv2d(L.ones(1, 2, 4, 4), L.ones(4, 2, 3, 3, dtype=L.int64))",
    "F.conv2d(L.ones(2, 4, 4), L.ones(4, 2, 3, 3, dtype=L.float64))",
    "F.conv1d(L.ones(1, 2, 4), L.ones(4, 2, 3, dtype=L.float64), padding='same')",
    "F.conv2d(L.ones(1, 2, 4, 4), L.ones(4, 2, 3, 3, dtype=L.float64), L.ones(4, "
    "dtype=L.float64))",
    "F.conv2d(L.ones(1, 2, 4, 4), L.ones(4, 2, 3, 3, dtype=L.float64), L.ones(3))",
    "F.conv2d(L.ones(1, 2, 2, 2), L.ones(4, 2, 3, 3, dtype=L.float64))",
    "F.conv2d(L.ones(1, 3, 4, 4), L.ones(4, 2, 3, 3, dtype=L.float64))",
    "F.conv_transpose2d(L.ones(1, 2, 4, 4), L.ones(2, 4, 3, 3, dtype=L.float64))",
    "F.glu(L.tensor([[2, -3, 2, -2]]))", "F.glu(L.tensor([[2, -3, 2, -2]], dtype=L.int16))",
    "F.glu(L.tensor([[True, False]]))", "F.glu(L.ones(3, dtype=L.int64))",
    "F.glu(L.ones(2, dtype=L.int64), dim=3)", "F.glu(L.tensor(1))",
    "F.max_pool1d(L.arange(8).view(1, 2, 4), 2)", "F.max_pool1d(L.arange(8).view(2, 4), 2)",
    "F.max_pool1d(L.arange(8, dtype=L.uint8).view(1, 2, 4), 2)",
    "F.max_pool1d(L.arange(8).view(1, 2, 4), 2, return_indices=True)",
    "F.max_pool1d(L.arange(8.).view(1, 2, 4), 2, return_indices=True)",
    "F.max_pool1d(L.arange(8).view(1, 2, 4), 0)", "L.nn.MaxPool1d(2)(L.arange(8).view(1, 2, 4))",
    "F.max_pool1d(L.ones(1, 2, 4, dtype=L.bool), 2)",
    "F.max_pool2d(L.ones(1, 1, 4, 4, dtype=L.bool), 2)",
    "F.max_pool2d(L.arange(16).view(1, 1, 4, 4), 2)",
    "F.pixel_shuffle(L.arange(16.).view(1, 4, 2, 2), 2.0)",
    "F.pixel_unshuffle(L.arange(16.).view(1, 1, 4, 4), 2.0)",
    "F.pixel_shuffle(L.arange(16.).view(1, 4, 2, 2), '2')",
    "F.pixel_shuffle(L.arange(16.).view(4, 4), 2.5)",
    "F.pixel_shuffle(L.arange(16.).view(1, 4, 2, 2), True)",
    "F.pixel_shuffle(L.arange(16.).view(1, 4, 2, 2), np.int64(2))",
    "L.nn.PixelShuffle(2.0)(L.arange(16.).view(1, 4, 2, 2))",
    "L.nn.LogSigmoid()(L.tensor(1.5))", "F.logsigmoid(L.tensor(-3.))",
    "F.logsigmoid(L.tensor(0.7, requires_grad=True))"])
def test_kernel_dtypes_and_factors_as_torch(program: str) -> None:
    """A convolution's weight has the input's dtype; glu and max_pool1d (without indices)
    have floating kernels only, max_pool2d none for bool; pixel_shuffle's factor is an int;
    0-d inputs go through the float32 fma's mend: torch's results and errors."""
    assert_as_torch(f"import numpy as np; F = L.nn.functional; R = {program}")


@pytest.mark.parametrize("program", [
    "L.linalg.qr(L.zeros(0, 0))", "L.linalg.qr(L.zeros(2, 0, 0))", "L.linalg.qr(L.zeros(0, 3))",
    "L.linalg.qr(L.zeros(3, 0))", "L.linalg.qr(L.zeros(0, 3), mode='complete')",
    "L.linalg.qr(L.zeros(3, 0), mode='r')", "L.linalg.qr(L.zeros(0, 2, 2))",
    "L.geqrf(L.zeros(0, 0))", "L.linalg.householder_product(L.zeros(0, 0), L.zeros(0))",
    "L.tensor([[1., 2.], [3., 4.]], dtype=L.float16).det()",
    "L.linalg.inv(L.eye(2, dtype=L.float16))", "L.det(L.ones(2, 3, dtype=L.float16))",
    "L.linalg.solve(L.eye(2, dtype=L.float16), L.ones(2, dtype=L.float16))",
    "L.linalg.solve(L.eye(2, dtype=L.float16), L.ones(2))", "L.det(L.eye(2, dtype=L.int64))",
    "L.linalg.qr(L.eye(2, dtype=L.float16))",
    "L.linalg.matrix_norm(L.eye(2, dtype=L.float16), ord=2)",
    "L.linalg.matrix_norm(L.eye(2, dtype=L.float16), ord='nuc')",
    "L.linalg.matrix_norm(L.eye(2, dtype=L.float16))",
    "L.linalg.matrix_norm(L.eye(2, dtype=L.float16), ord=1)",
    "L.linalg.matrix_norm(L.tensor([[float('nan'), 1.], [1., 2.]]), ord=2)",
    "L.linalg.matrix_norm(L.tensor([[float('inf'), 1.], [1., 2.]]), ord=-2)",
    "L.linalg.matrix_norm(L.tensor([[float('nan'), 1.], [1., 2.]]), ord='nuc')",
    "L.linalg.matrix_norm(L.tensor([[[1., 1.], [1., 2.]], [[float('nan'), 1.], [1., 2.]]]), "
    "ord=2)",
    "L.linalg.norm(L.tensor([[float('nan'), 1.], [1., 2.]]), ord=2)"])
def test_linalg_empty_half_and_nan_as_torch(program: str) -> None:
    """QR of empty matrices is empty; float16 gets torch's refusal per function (its LAPACK
    kernel's name or its low-precision check); an SVD of a NaN matrix torch's LinAlgError."""
    assert_as_torch(f"R = {program}")


@pytest.mark.parametrize("program", [
    "rf = L.autograd.profiler.record_function('x'); R = rf.__exit__(None, None, None)",
    "rf = L.autograd.profiler.record_function('x'); rf.__enter__(); "
    "R = (rf.__exit__(None, None, None), rf.__exit__(None, None, None))",
    "with L.autograd.profiler.record_function(None): R = 1",
    "with L.autograd.profiler.record_function(3): R = 1",
    "with L.autograd.profiler.record_function('x', 3): R = 1",
    "with L.autograd.profiler.record_function('x', 'a'): R = 1",
    "with L.autograd.profiler.record_function(b'x'): R = 1",
    "R = type(L.autograd.profiler.record_function(3)).__name__",
    "R = L.autograd.profiler.record_function(None)(lambda: 2)()"])
def test_record_function_misuse_as_torch(program: str) -> None:
    """record_function's label is a string (checked on enter, as torch's operator schema)
    and its exit needs an enter first: torch's errors."""
    assert_as_torch(program)


INFERENCE = "with L.inference_mode():\n    i = L.ones(3)\n"


@pytest.mark.parametrize("program", [
    "R = F.conv_transpose2d(L.ones(1, 2, 4, 4), L.ones(2, 4, 3, 3), stride=1.0)",
    "R = F.conv_transpose2d(L.ones(1, 2, 4, 4), L.ones(2, 4, 3, 3), stride=2.5)",
    "R = F.conv_transpose2d(L.ones(1, 2, 4, 4), L.ones(2, 4, 3, 3), padding=1.0)",
    "R = F.conv_transpose2d(L.ones(1, 2, 4, 4), L.ones(2, 4, 3, 3), dilation=1.0)",
    "R = F.conv_transpose2d(L.ones(1, 2, 4, 4), L.ones(2, 4, 3, 3), output_padding=1.0)",
    "R = L.nn.ConvTranspose2d(2, 4, 3, stride=2.5)(L.ones(1, 2, 4, 4))",
    "R = L.ones(2).new_tensor([1, 2], dtype='float32')",
    "R = L.ones(2).new_tensor([1, 2], dtype=float)",
    "R = L.ones(2).new_tensor([1, 2], dtype=3)",
    INFERENCE + "R = L.nn.Parameter(i)", INFERENCE + "R = L.nn.Parameter(i, requires_grad=False)",
    INFERENCE + "R = L.nn.Parameter(i, requires_grad=False).requires_grad_()",
    INFERENCE + "R = i.requires_grad_()",
    "with L.inference_mode():\n    R = L.nn.Parameter(L.ones(3))",
    "m = L.nn.Linear(2, 2); L.nn.utils.weight_norm(m, dim=2); R = m.weight_g.shape",
    "m = L.nn.Linear(2, 2); L.nn.utils.weight_norm(m, dim=-3); R = m.weight_g.shape",
    "m = L.nn.Linear(2, 2); L.nn.utils.weight_norm(m, dim=-2); R = m.weight_g.shape",
    "m = L.nn.Linear(2, 2); L.nn.utils.weight_norm(m, dim=None); R = m.weight_g.shape",
    "m = L.nn.Linear(2, 2); L.nn.utils.parametrizations.weight_norm(m, dim=2); R = m.weight",
    "m = L.nn.Conv1d(2, 2, 3); L.nn.utils.weight_norm(m, dim=3); R = m.weight_g.shape"])
def test_arguments_at_the_boundary_as_torch(program: str) -> None:
    """Float strides and paddings of a transposed convolution, a dtype that is no dtype, a
    Parameter of an inference tensor, weight_norm's dim out of range: torch's errors."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert_as_torch("F = L.nn.functional\n" + program)


BOTH = ("class Fn(L.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n"
        "        return a * 2\n{vjp}    @staticmethod\n    def backward(ctx, g):\n"
        "        return g * 5\na = L.tensor([1., 2., 3.], requires_grad=True)\n")
VJP = "    @staticmethod\n    def vjp(ctx, g):\n        return g\n"


@pytest.mark.parametrize("vjp", [VJP, ""])
@pytest.mark.parametrize("use", ["Fn.apply(a).sum().backward(); R = a.grad",
                                 "R = L.autograd.grad(Fn.apply(a).sum(), a)",
                                 "R = Fn.apply(a)"])
def test_function_with_backward_and_vjp_as_torch(vjp: str, use: str) -> None:
    """A Function defining both backward and vjp is refused at its backward, in torch's
    words; one defining backward alone runs it."""
    assert_as_torch(BOTH.format(vjp=vjp) + use)


@pytest.mark.parametrize("reduction", ["'mean'", "'sum'", "'none'"])
@pytest.mark.parametrize("p", [1, 2])
def test_multi_margin_loss_empty_batch_gradient_as_torch(reduction: str, p: int) -> None:
    """An empty batch's multi-margin gradient is empty (torch's forward value of an empty
    mean is uninitialised memory, so only the gradient is compared)."""
    assert_as_torch("x = L.zeros(0, 3, requires_grad=True)\n"
                    "y = L.nn.functional.multi_margin_loss(x, L.zeros(0, dtype=L.int64), "
                    f"p={p}, reduction={reduction})\ny.sum().backward()\nR = x.grad")
