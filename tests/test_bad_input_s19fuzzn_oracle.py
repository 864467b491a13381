"""Fuzz 21, session 19 (fuzz N: torch.nn.functional, nn modules, optim, schedulers, clip_grad,
nn.init; seeds 19101-19103 and the fuzzer's new module, loss, training-loop and clip_grad
calls): refusals and results unlike torch's. Each program runs under torch and minitorch
(``L``): the same result ``R``, or the same exception type and message."""

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt

F = "L.nn.functional"
W = "w = L.zeros(2, requires_grad=True); w.grad = L.ones(2); "


@pytest.mark.parametrize("program", [
    # torch's Python reads, compares and unpacks these settings: its own TypeError/ValueError
    f"{W}R = L.optim.Adafactor([w], eps=1e-8)",
    f"{W}R = L.optim.Adafactor([w], eps=(1e-3,))",
    f"{W}R = L.optim.Adafactor([w], lr='a')",
    f"{W}R = L.optim.Adam([w], betas=(0.9,))",
    f"{W}R = L.optim.Adam([w], betas=(0.9, 'a'))",
    f"{W}L.optim.AdamW([w], betas=(0.9, 0.99, 0.1)).step(); R = w",
    f"{W}R = L.optim.SGD([w], lr=0.1, momentum='x')",
    f"{W}R = L.optim.SGD([w], lr=0.1, weight_decay=None)",
    f"{W}R = L.optim.Adadelta([w], rho='x')",
    # add(alpha=True) on a float gradient
    f"{W}L.optim.Adam([w], weight_decay=True).step(); R = w",
    f"{W}L.optim.SGD([w], lr=0.1, weight_decay=True).step(); R = w",
    f"{W}L.optim.AdamW([w], weight_decay=True).step(); R = w",
])
def test_optimizer_settings_fail_as_torchs_python(program: str) -> None:
    assert_as_torch(program)


_S = f"{W}opt = L.optim.SGD([w], lr=0.1); S = L.optim.lr_scheduler; "


@pytest.mark.parametrize("program", [
    _S + "s = S.CosineAnnealingLR(opt, T_max=(1, 2)); opt.step(); s.step(); s.step(); R = 0",
    _S + "s = S.CosineAnnealingLR(opt, T_max='a'); opt.step(); s.step(); R = 0",
    _S + "s = S.LinearLR(opt, total_iters='a'); opt.step(); s.step(); R = 0",
    _S + "s = S.ReduceLROnPlateau(opt, cooldown=(2,), patience=0)\n"
         "for _ in range(4): s.step(1.0)\nR = 0",
])
def test_scheduler_arithmetic_fails_as_torchs_python(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "sparse_(L.zeros(2, 1), float('nan'))", "sparse_(L.zeros(2, 1), 'a')",
    "sparse_(L.zeros(2, 1), None)", "sparse_(L.zeros(2, 1), -float('inf'))",
    "dirac_(L.zeros(2, 1, 3, 0))", "dirac_(L.zeros(2, 1, 0, 0, 2))", "dirac_(L.zeros(0, 1, 3))",
])
def test_init_fails_as_torch(call: str) -> None:
    assert_as_torch(f"R = L.nn.init.{call}")


@pytest.mark.parametrize("program", [
    "R = L.nn.Conv1d(3, 'a', 2)", "R = L.nn.ConvTranspose2d(3, 'a', 2)",
    "R = L.nn.utils.clip_grad_norm_([L.zeros(2)], None)",
    "R = L.nn.utils.clip_grad_norm_([L.zeros(2)], 1.0, norm_type='fro')",
    "R = L.nn.utils.get_total_norm([L.ones(2)], norm_type=None)",
    "R = L.nn.utils.clip_grad_value_([L.zeros(2)], (0.5,))",
    "R = L.nn.utils.clip_grads_with_norm_([L.zeros(2)], 'x', L.tensor(1.0))",
    "R = L.nn.LPPool1d(None, 2)(L.zeros(2, 1))",
    "R = L.nn.RMSNorm(None)", "R = L.nn.RMSNorm(3).normalized_shape",
    f"R = {F}.triplet_margin_with_distance_loss(L.zeros(2), L.zeros(2), L.zeros(2), "
    "distance_function=1)",
    f"R = {F}.gumbel_softmax(L.zeros(2), tau=None)",
    f"R = {F}.gumbel_softmax(L.zeros(1, 0, dtype=L.int32), dim=(0,))",
])
def test_python_errors_are_raised_as_torchs(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "rms_norm(L.zeros(4), ())", "rms_norm(L.zeros(4), [], weight=L.zeros(2))",
    "rms_norm(L.zeros(4, dtype=L.int64), ())", "rms_norm(L.zeros(3, 1), (1, 2, 3))",
    "rms_norm(L.zeros(3, 1, dtype=L.int64), (1, 2, 3))",
    "rms_norm(L.zeros(3, 1), (1, 2, 3), weight=L.zeros(2))",
    "layer_norm(L.zeros(4), (), weight=L.zeros(2))",
    "rrelu(L.zeros(1, 1, dtype=L.float16), training=True)",
    "rrelu(L.zeros(0, dtype=L.float16), training=True)",
    "cross_entropy(L.zeros(2, 1), L.zeros(2, 1), weight=L.zeros(()))",
    "cross_entropy(L.zeros(2, 3), L.zeros(2, 3), weight=L.zeros(2))",
    "cross_entropy(L.zeros(2, 3), L.zeros(2, 3), weight=L.zeros(()), ignore_index=0)",
    "adaptive_max_pool1d(L.zeros(2, 4, 3), True)",
    "embedding(L.tensor(0), L.tensor(1.0, requires_grad=True))",
    "embedding(L.tensor([0, 1]), L.tensor(1.0), padding_idx=0)",
    "embedding(L.tensor(0), L.tensor(1.0), padding_idx=0, max_norm=1.0)",
    "embedding(L.tensor(0), L.tensor(1.0), padding_idx=1)",
])
def test_functional_refusals_as_torch(call: str) -> None:
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("shape", [(3, 2, 1), (3, 1)])
def test_rnn_with_bool_layer_count_matches_no_kernel_overload(kind: str, shape: tuple) -> None:
    assert_as_torch(f"R = L.nn.{kind}(1, 3, num_layers=True)(L.zeros{shape})")
    assert_as_torch(f"m = L.nn.{kind}(1, 3, num_layers=True); p = L.nn.utils.rnn."
                    "pack_padded_sequence(L.zeros(3, 2, 1), [3, 2]); R = m(p)")


@SETTINGS
@given(st.sampled_from([True, (True, True), "a", 2.0, 2.5, (2, 2.0), (2, None), 3, -1]),
       st.sampled_from(["nearest", "bilinear", "area", "nearest-exact", "bicubic"]),
       st.sampled_from(["float32", "int64"]))
def test_interpolate_size_is_read_as_its_kernel(size: object, mode: str, dtype: str) -> None:
    assert_as_torch(f"R = {F}.interpolate(L.ones(1, 1, 2, 2, dtype=L.{dtype}), size={size!r}, "
                    f"mode={mode!r})")


@SETTINGS
@given(st.sampled_from(["'x'", "float('nan')", "float('inf')", "-float('inf')", "('x',)",
                        "(float('nan'),)", "0.5", "2"]),
       st.sampled_from(["area", "linear", "nearest"]), st.sampled_from([None, True]))
def test_interpolate_scale_is_truncated_in_python(scale: str, mode: str, recompute: object
                                                  ) -> None:
    assert_as_torch(f"R = {F}.interpolate(L.ones(1, 1, 2), scale_factor={scale}, mode={mode!r}, "
                    f"recompute_scale_factor={recompute})")


@SETTINGS
@given(st.sampled_from(["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                        "conv_transpose3d"]),
       st.sampled_from([1, 2, 4]), st.sampled_from([1, 2]), st.sampled_from([1, 2]),
       st.sampled_from(["", ", stride=2", ", dilation=2"]),
       st.sampled_from([("float64", None), ("float32", "float64"), ("int64", "int64"),
                        ("float64", "float64")]),
       st.sampled_from([1, 4]))
def test_convolution_dtype_refusal_follows_torchs_backend(
        fn: str, k: int, n: int, groups: int, extra: str, dtypes: tuple, threads: int) -> None:
    """torch's oneDNN path (chosen by the sizes and the thread count) and its own kernels
    word a weight or bias of another dtype differently; its own kernels cast the bias."""
    d = int(fn[-2])
    wd, bd = dtypes
    bias = "None" if bd is None else f"L.ones(2, dtype=L.{bd})"
    before = torch.get_num_threads(), mt.get_num_threads()
    torch.set_num_threads(threads)
    mt.set_num_threads(threads)
    try:
        weight = (2, 2 // groups) + (k,) * d
        assert_as_torch(f"R = {F}.{fn}(L.ones({(n, 2) + (5,) * d}), L.ones({weight}, "
                        f"dtype=L.{wd}), {bias}, groups={groups}{extra})")
    finally:
        torch.set_num_threads(before[0])
        mt.set_num_threads(before[1])


@pytest.mark.parametrize("call", [
    "conv2d(L.zeros(1, 2, 1, 2), L.zeros(3, 1, 2, 2), L.zeros(3), padding='same')",
    "conv3d(L.zeros(2, 1, 2, 5, 5), L.zeros(4, 1, 3, 2, 3), None, padding='same', groups=2)",
    "conv1d(L.zeros(2, 1, 5), L.zeros(4, 1, 2), padding='same', dilation=2, groups=2)",
    "conv1d(L.ones(1, 2, 4), L.ones(2, 2, 3), L.ones(2, dtype=L.float64), padding='same')",
    "conv_transpose1d(L.ones(1, 2, 4, dtype=L.float64), L.ones(2, 2, 3, dtype=L.float64), "
    "L.ones(2))",
])
def test_convolution_checks_see_the_padded_input(call: str) -> None:
    assert_as_torch(f"R = {F}.{call}")


@SETTINGS
@given(st.sampled_from([1, 2]), st.sampled_from(["2", "2.0", "()", "(2, 2, 2)", "None", "-2"]),
       st.sampled_from(["", ", stride=2.0", ", output_size=(4.0, 4.0)", ", output_size=3",
                        ", output_size=(1, 2, 4, 4)", ", output_size=(4, 4.0)"]),
       st.sampled_from(["int64", "int32"]))
def test_max_unpool_sizes_are_python_then_parsed(d: int, kernel: str, extra: str, dt: str
                                                 ) -> None:
    """torch's _pair/_single and output size arithmetic are Python; its kernel's parser then
    reads the sizes as a tuple of ints."""
    extra = extra.replace("(4.0, 4.0)", "(4.0,) * d")
    extra = extra.replace("(1, 2, 4, 4)", "(1, 2, 4) + (4,) * (d - 1)")
    shape = (1, 2) + (2,) * d
    assert_as_torch(f"d = {d}; R = {F}.max_unpool{d}d(L.zeros{shape}, L.zeros({shape}, "
                    f"dtype=L.{dt}), {kernel}{extra})")


@pytest.mark.parametrize("program", [
    # torch's instance_norm calls its C++ batch_norm: no Python eps check, and no variance
    # with no eps normalises to 0 (its InvStd)
    f"R = {F}.instance_norm(L.ones(2, 2, 4), eps=0)",
    f"R = {F}.instance_norm(L.ones(2, 2, 4), L.zeros(2), L.ones(2), eps=0)",
    f"R = {F}.instance_norm(L.ones(2, 2, 4), eps=-float('inf'))",
    f"R = {F}.batch_norm(L.ones(2, 2, 4), None, None, training=True, eps=0)",
    # oneDNN (a batch of float32 images) takes an empty transposed output, words a negative one
    f"R = {F}.conv_transpose1d(L.ones(2, 2, 1), L.ones(2, 4, 2), padding=1)",
    f"R = {F}.conv_transpose3d(L.ones(2, 2, 1, 1, 1), L.ones(2, 4, 2, 2, 2), padding=1)",
    f"R = {F}.conv_transpose2d(L.ones(2, 2, 1, 1), L.ones(2, 4, 2, 2), padding=2)",
    f"R = {F}.conv_transpose1d(L.ones(1, 2, 1), L.ones(2, 4, 2), padding=1)",
    "R = L.nn.Hardtanh(min_val=None)", "R = L.nn.LSTM(4, 3, dropout='x')",
])
def test_norms_and_transposed_sizes_as_torchs_kernels(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    # F's in-place activations are torch's C functions: a keyword argument has no position
    f"R = {F}.hardtanh_(L.zeros(2), min_val='x')", f"R = {F}.hardtanh_(L.zeros(2), 'x')",
    f"R = {F}.elu_(L.zeros(2), alpha=None)",
    f"R = {F}.leaky_relu_(L.zeros(2), negative_slope=None)",
    f"R = {F}.threshold_(L.zeros(2), threshold=None, value=1)",
    f"R = {F}.celu_(L.zeros(2), alpha='a')", f"R = {F}.rrelu_(L.zeros(2), lower='a')",
    # torch's Python: output_padding's length with the others, pow and a dropout compare
    f"R = {F}.conv_transpose1d(L.ones(2, 4, 4), L.ones(4, 1, 1), output_padding=())",
    "w = L.zeros(2, requires_grad=True); o = L.optim.SGD([w], lr=1.0)\n"
    "s = L.optim.lr_scheduler.PolynomialLR(o, total_iters=3, power='x'); o.step(); s.step()\nR = 0",
    "q = L.ones(3, 2, 4); R = L.nn.MultiheadAttention(4, 1, dropout='x')(q, q, q)",
])
def test_more_refusals_worded_as_torch(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.Conv2d(3, 3, (None, 2), padding='same')",
    "L.manual_seed(0); R = L.nn.Conv2d(3, 3, (3, 2), padding='same', "
    "padding_mode='reflect')(L.ones(1, 3, 4, 4))",
    f"R = {F}.local_response_norm(L.ones(1, 3, 2, 1), 2.0)",
    f"R = {F}.local_response_norm(L.ones(1, 3, 2), 2.0)",
    f"R = {F}.local_response_norm(L.arange(48.).view(1, 3, 2, 4, 2), 3)",
])
def test_python_widths_as_torch(program: str) -> None:
    assert_as_torch(program)
