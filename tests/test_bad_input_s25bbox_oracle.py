"""Bad and edge input found by issue #21's black-box fuzzers (seeds 25550-25599): CUDA asked of
a CPU-only build, ``cuda()``'s device argument, ``random_``'s keywords, ``pin_memory=`` of
``new_empty_strided`` and ``tensor``, and pickling optimizers and modules. Each case is a
small expression run on torch and on minitorch (``L``); its outcome, the value's repr or the
exception's type and message, must be the same.
"""

from __future__ import annotations

import io
import pickle
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import raised_by

import minitorch as mt

no_gpu = pytest.mark.skipif(mt.cuda.is_available(), reason="torch's oracle is a CPU build")


def outcome(expression: str, lib: Any) -> tuple[str, str]:
    """What ``expression`` gives with ``L`` as ``lib``: its repr, or its error's type and
    message."""
    scope = {"L": lib, "x": lib.ones(2), "m": lib.nn.Linear(1, 1), "g": lib.Generator(),
             "io": io}
    error = raised_by(lambda L: scope.__setitem__("R", eval(expression, scope)), lib)
    if error is not None:
        return type(error).__name__, str(error)
    result = scope["R"]
    return "ok", repr(result) if isinstance(result, (lib.Tensor, tuple, int, str)) else ""


def assert_outcome_as_torch(expression: str) -> None:
    assert outcome(expression, mt) == outcome(expression, torch)


@no_gpu
@pytest.mark.parametrize("expression", [
    "L.zeros(2, device='cuda')", "x.cuda()", "x.to('cuda:1')", "L.tensor([1.], device='cuda')",
    "x.type('torch.cuda.FloatTensor')", "x.type('torch.cuda.LongTensor')",
    "m.type('torch.cuda.DoubleTensor')", "L.Generator(device='cuda')", "L.Generator('cuda:1')",
    "x.cuda(0)", "x.cuda(1)", "m.cuda(0)", "x.cuda(device=0)", "x.cuda('cuda')",
    "x.cuda(L.device('cuda', 0))", "x.cuda(non_blocking=True)",
    "x.cuda(0, memory_format=L.contiguous_format)", "L.nn.Linear(2, 2).to('cuda')"])
def test_cuda_on_a_cpu_build_is_refused_as_torch(expression: str) -> None:
    """Without CUDA (no CuPy), torch's CPU build's words: an AssertionError for a CUDA device,
    its ATen_cuda RuntimeError for a CUDA type or generator, and its accelerator RuntimeError
    for a GPU number."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "x.cuda('cpu')", "x.cuda(L.device('cpu'))", "x.cuda('meta')", "m.cuda('cpu')",
    "x.cuda(1.5)", "x.cuda(True)", "m.cuda(True)", "m.cuda(1.5)", "x.cuda(-1)",
    "x.cuda('xyz')", "L.nn.Sequential().cuda(True)", "L.nn.Sequential().cuda('cpu')"])
def test_cuda_refuses_a_device_that_is_not_cuda(expression: str) -> None:
    """``cuda()`` takes a CUDA device only: another type is torch's RuntimeError (minitorch
    moved the tensor there), a float or bool its parser's TypeError."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "x.random_(from_=0, to=None, generator=g)", "x.random_(from_=1, to=5, generator=None)",
    "x.random_(from_=1, to=2, foo=3)", "x.random_(from_=0, to=None)",
    "x.random_(to=None, generator=g)", "x.random_(from_=0, generator=g)",
    "x.random_(1, generator=1)", "x.random_(1, 2, 3)", "x.random_(0, 5, g)",
    "x.random_(0, to=None).shape", "x.random_(to=5).shape", "x.random_(generator=None).shape"])
def test_random_keywords_are_refused_as_torch(expression: str) -> None:
    """Three arguments fit only ``random_(from, to, *, generator)``: torch's parser words that
    one's refusal ("missing 2 required positional argument"), not the overloads' list."""
    assert_outcome_as_torch(expression)


@given(pin=st.sampled_from([True, False, None, 1]),
       call=st.sampled_from(["x.new_empty_strided((2, 3), (3, 1), pin_memory=P).stride()",
                             "x.new_empty_strided((2,), (1,), layout=L.strided, "
                             "pin_memory=P).shape",
                             "L.tensor([1.], pin_memory=P)", "L.zeros(2, pin_memory=P)",
                             "x.new_zeros(2, pin_memory=P)"]))
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
def test_pin_memory_is_read_as_torch(pin: Any, call: str) -> None:
    """``new_empty_strided`` takes torch's ``layout=`` and ``pin_memory=``; ``tensor`` refuses a
    None ``pin_memory`` (its flag is not optional), the other factories take it."""
    assert_outcome_as_torch(call.replace("P", repr(pin)))


@pytest.mark.parametrize("make", ["L.nn.Linear(2, 2)", "L.nn.Sequential(L.nn.ReLU())",
                                  "L.optim.SGD([L.zeros(1, requires_grad=True)], lr=0.1)",
                                  "L.optim.AdamW([L.zeros(1, requires_grad=True)])",
                                  "L.optim.SparseAdam([L.zeros(1, requires_grad=True)])",
                                  "L.optim.Adagrad([L.zeros(1, requires_grad=True)])"])
def test_weights_only_load_names_the_global_as_torch(make: str) -> None:
    """The weights-only refusal names a module class by torch's path
    (``torch.nn.modules.linear.Linear``), an optimizer by ``torch.optim``'s."""
    def program(lib: Any) -> None:
        buffer = io.BytesIO()
        lib.save(eval(make, {"L": lib}), buffer)
        buffer.seek(0)
        lib.load(buffer)

    got, want = raised_by(program, mt), raised_by(program, torch)
    assert (type(got).__name__, str(got)) == (type(want).__name__, str(want))


@pytest.mark.parametrize("lib", [mt, torch], ids=["minitorch", "torch"])
def test_a_scheduled_optimizer_pickles_as_torch(lib: Any) -> None:
    """An optimizer pickles its settings, state and groups only (torch's ``__getstate__``):
    a scheduler's wrapper of its ``step`` is left out, so a scheduler saves."""
    p = lib.zeros(1, requires_grad=True)
    opt = lib.optim.SGD([p], lr=0.1)
    scheduler = lib.optim.lr_scheduler.StepLR(opt, 1)
    loaded = pickle.loads(pickle.dumps(scheduler))
    assert loaded.optimizer.param_groups[0]["lr"] == 0.1
    assert "step" not in loaded.optimizer.__dict__
    assert loaded.optimizer._optimizer_step_pre_hooks == {}


@pytest.mark.parametrize("generator", ["3", "'cpu'", "None"])
@pytest.mark.parametrize("call", [
    "L.randint(5, (2,), generator=G).shape", "L.randint(1, 5, (2,), generator=G).shape",
    "L.multinomial(L.ones(3), 2, generator=G).shape", "L.bernoulli(x / 2, generator=G).shape",
    "L.bernoulli(x, 0.5, generator=G).shape", "L.normal(x, 1., generator=G).shape",
    "L.normal(0., 1., (2,), generator=G).shape", "L.poisson(x, generator=G).shape",
    "L.rand_like(x, generator=G).shape", "L.randn_like(x, generator=G).shape",
    "x.bernoulli(generator=G).shape",
    "len(L.utils.data.random_split(range(4), [2, 2], generator=G))",
    "len(list(L.utils.data.RandomSampler(range(3), generator=G)))"])
def test_a_generator_that_is_not_one_is_refused_as_torch(call: str, generator: str) -> None:
    """A ``generator=`` that is no Generator is the parser's refusal (an invalid combination
    where the function has overloads), not an AttributeError from inside the sampler."""
    assert_outcome_as_torch(call.replace("G", generator))


@pytest.mark.parametrize("expression", [
    "x.cauchy_(float('inf'), median=g, generator=2**70, sigma=0)",
    "x.log_normal_(0, generator=L.tensor(0.5), std=float('inf'), mean=0)",
    "x.uniform_(None, generator=0, a=L.tensor(0.5))", "x.exponential_(generator=0.5, rate=-1)",
    "x.uniform_(0, 1, generator=3, low=2)", "x.normal_(mean='a', generator=3)",
    "x.random_(-1, 2, L.tensor(0.5), generator=g)", "x.bernoulli_(0.5, prob=1, generator=3)"])
def test_fill_argument_types_come_before_keywords_left_over(expression: str) -> None:
    """torch's parser reads each parameter's type (``generator`` included) before it refuses
    a keyword given twice or unknown."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.Generator(True)", "L.Generator(device=True)", "L.Generator([0])", "L.Generator(1.5)",
    "L.Generator('cpu', 1)", "L.Generator(foo=1)", "str(L.Generator('cpu:0').device)",
    "str(L.Generator(L.device('cpu', 1)).device)", "str(L.Generator(None).device)"])
def test_generator_device_is_read_as_torch(expression: str) -> None:
    """``Generator(device)``: the parser's refusal of what is no device; a CPU generator's
    device has no index."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "x.new_tensor('a', requires_grad=1)", "x.new_tensor([1], requires_grad=None)",
    "x.new_tensor([1], device=3.5)", "x.new_full((2,))", "x.new_full((2,), foo=1)",
    "x.new_full()", "x.new_full(fill_value=1)", "x.new_ones((), pin_memory=True, foo=1)",
    "x.new_ones([2], requires_grad=None, foo=1)", "x.new_ones(-1, foo=1)",
    "x.new_ones(2, requires_grad=None)", "x.new_empty(2, dtype=3, foo=1)"])
def test_new_factories_read_their_arguments_as_torch(expression: str) -> None:
    """``new_*``: the options' types (``requires_grad`` may be None but for ``new_tensor``),
    then an unknown keyword, then the sizes; ``new_full`` names what is missing first."""
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "L.utils.data.ConcatDataset([])", "list(L.utils.data.ChainDataset([[1]]))",
    "len(L.utils.data.ChainDataset([[1]]))"])
def test_dataset_asserts_are_torch_s(expression: str) -> None:
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "x.to(memory_format=L.channels_last)", "x.to('cpu', memory_format=L.channels_last)",
    "x.to(None, memory_format=L.channels_last_3d)", "x.to(memory_format=3)",
    "x.to(L.float64, memory_format=L.contiguous_format)", "x.half(memory_format=L.channels_last)",
    "x.clone(memory_format=L.channels_last)", "x.contiguous(memory_format=L.channels_last_3d)",
    "L.empty_like(x, memory_format=L.channels_last)",
    "L.rand_like(x, memory_format=L.channels_last)",
    "x.to('meta', memory_format=L.channels_last)"])
def test_memory_format_of_another_rank_is_refused_as_torch(expression: str) -> None:
    """A channels-last format asked of a tensor of another rank is torch's RuntimeError (``to``
    ignored ``memory_format`` and returned the tensor), before minitorch's own refusal of
    channels-last layouts."""
    assert_outcome_as_torch(expression)


def _counter_program(lib: Any) -> tuple:
    class Counter(lib.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin, self.n = lib.nn.Linear(1, 1), 0

        def get_extra_state(self) -> dict:
            return {"n": self.n}

        def set_extra_state(self, state: dict) -> None:
            self.n = state["n"]

    saved = lib.nn.Sequential(Counter())
    saved[0].n = 5
    state = saved.state_dict()
    loaded = lib.nn.Sequential(Counter())
    keys = loaded.load_state_dict(state)
    partial = loaded.load_state_dict({k: v for k, v in state.items() if "extra" not in k},
                                     strict=False)
    return list(state), repr(keys), loaded[0].n, repr(partial)


def test_extra_state_is_saved_and_loaded_as_torch() -> None:
    """A module that defines ``get_extra_state`` saves it under ``_extra_state`` (before its
    children's entries) and ``load_state_dict`` gives it to ``set_extra_state``; minitorch
    dropped it."""
    assert _counter_program(mt) == _counter_program(torch)


@pytest.mark.parametrize("expression", ["m.get_extra_state()", "m.set_extra_state(1)",
                                        "L.nn.Sequential().set_extra_state()"])
def test_extra_state_of_the_base_is_refused_as_torch(expression: str) -> None:
    assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "x.pin_memory('cpu')", "x.pin_memory('meta')", "x.pin_memory()", "x.pin_memory(3)",
    "g.manual_seed(5).clone_state().initial_seed()", "L.rand(2, generator=g.clone_state())",
    "g.graphsafe_get_state()", "g.graphsafe_set_state(g)", "g.clone_state(1)"])
def test_pinning_and_generator_states_as_torch(expression: str) -> None:
    """``pin_memory(device)`` names a device that is no accelerator; ``clone_state`` copies a
    generator (minitorch had none), the graph-safe states are a CPU generator's refusal."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_outcome_as_torch(expression)


@pytest.mark.parametrize("expression", [
    "x.xpu()", "x.ipu()", "x.mtia()", "x.xpu(0)", "x.ipu(1.5)", "x.xpu('cpu')", "x.mtia(-1)",
    "x.xpu(True)", "x.xpu(device='xpu')", "m.xpu()", "m.ipu()", "m.mtia()",
    "L.nn.Sequential().ipu()", "L.nn.Sequential().xpu(1.5)"])
def test_accelerators_minitorch_has_not_are_refused_as_torch(expression: str) -> None:
    """``xpu``/``ipu``/``mtia`` of a tensor check the device, then raise torch's CPU build's
    refusal; a module with no tensors comes back unchanged."""
    assert_outcome_as_torch(expression)
