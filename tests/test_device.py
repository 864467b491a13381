"""The device API (``device=``, ``.to``, ``.cuda()``, ``.cpu()``, ``Module.to``) as in torch.

Without a GPU, the CUDA device is played by array-api-strict (``backend.device_namespace``):
tensors on "cuda" hold strict arrays, so every op they reach must stay inside the array API
standard and inside one device, exactly what CuPy needs. Where torch can answer without a GPU
(device objects, error texts through the "meta" device), live torch is the oracle.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import array_api_strict
import numpy as np
import pytest
import torch

import minitorch
from minitorch import backend, nn

MIXED = ("Expected all tensors to be on the same device, but found at least two devices, "
         "cuda:0 and cpu!")


GPU_REASON = "needs a CUDA GPU with CuPy: minitorch.cuda.is_available() is False here"


@pytest.fixture(params=[
    "stand-in",
    pytest.param("cuda", marks=[pytest.mark.cuda,
                                pytest.mark.skipif(not minitorch.cuda.is_available(),
                                                   reason=GPU_REASON)]),
])
def gpu(request: pytest.FixtureRequest):
    """The CUDA device: array-api-strict standing in for it, and the real one (CuPy)."""
    if request.param == "cuda":
        yield
        return
    with backend.device_namespace("cuda", array_api_strict):
        yield


def on_gpu(t: minitorch.Tensor) -> bool:
    """The tensor is on CUDA and holds an array of the CUDA namespace (not numpy)."""
    cuda_namespace = backend.factory_namespace(minitorch.device("cuda"))
    return t.is_cuda and backend.namespace(t._data) is cuda_namespace


# ---------------------------------------------------------------------------- device objects


@pytest.mark.parametrize("spec", ["cpu", "cuda", "cuda:0", "cuda:1"])
def test_device_prints_like_torch(spec: str) -> None:
    assert repr(minitorch.device(spec)) == repr(torch.device(spec))
    assert str(minitorch.device(spec)) == str(torch.device(spec))


def test_device_equality_like_torch() -> None:
    for a in ("cpu", "cuda", "cuda:0"):
        for b in ("cpu", "cuda", "cuda:0"):
            assert (minitorch.device(a) == minitorch.device(b)) == (
                torch.device(a) == torch.device(b)), (a, b)
    assert minitorch.device("cuda", 1) == minitorch.device("cuda:1")
    for a, b in (("cpu", "cpu"), ("cuda:1", "cuda:1"), ("cpu", 0)):  # never equal to a string
        assert (minitorch.device(a) == b) == (torch.device(a) == b)
        assert (minitorch.device(a) != b) == (torch.device(a) != b)


def test_bad_device_string() -> None:
    with pytest.raises(RuntimeError, match="device type at start of device string: gpu"):
        minitorch.device("gpu")


def test_cpu_tensor_device() -> None:
    x = minitorch.ones(2)
    assert repr(x.device) == repr(torch.ones(2).device)
    assert not x.is_cuda
    assert x.cpu() is x and x.to("cpu") is x and x.to(minitorch.device("cpu")) is x


# ---------------------------------------------------------------------------- no GPU here


def test_import_does_not_import_cupy(tmp_path) -> None:
    # a fake cupy that leaves a mark when imported: plain CPU work must not import it,
    # asking about CUDA does (the control that shows the mark works)
    (tmp_path / "cupy").mkdir()
    (tmp_path / "cupy" / "__init__.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_name('imported').touch()\n"
        "raise ImportError('fake cupy')\n")
    mark = tmp_path / "cupy" / "imported"
    env = {"PYTHONPATH": str(tmp_path)}
    cpu_work = ("import minitorch; x = minitorch.ones(2, requires_grad=True).to('cpu'); "
                "(x * 2).sum().backward(); repr(x.grad); x.device")
    subprocess.run([sys.executable, "-c", cpu_work], check=True, env=env)
    assert not mark.exists(), "import minitorch (and CPU work) imported cupy"
    subprocess.run([sys.executable, "-c", "import minitorch; minitorch.cuda.is_available()"],
                   check=True, env=env)
    assert mark.exists()


@pytest.mark.skipif(minitorch.cuda.is_available(), reason="this machine has a CUDA GPU")
def test_without_gpu_cuda_is_refused_as_torch_does() -> None:
    assert minitorch.cuda.is_available() is False
    assert minitorch.cuda.device_count() == 0
    minitorch.cuda.synchronize()  # nothing to wait for
    errors = []
    for lib in (minitorch, torch):
        try:
            lib.ones(1).cuda()
        except BaseException as error:  # torch's CPU build raises AssertionError
            errors.append(error)
    if torch.cuda.is_available():
        pytest.skip("this torch has CUDA")
    assert [type(e) for e in errors] == [AssertionError, AssertionError]
    assert str(errors[0]) == str(errors[1])  # torch's CPU build's words
    with pytest.raises(type(errors[0])):
        minitorch.zeros(2, device="cuda")


# ---------------------------------------------------------------------------- on the stand-in GPU


def test_factories_on_cuda(gpu: None) -> None:
    assert minitorch.cuda.is_available() and minitorch.cuda.device_count() >= 1
    made = [minitorch.tensor([1.0, 2.0], device="cuda"), minitorch.zeros(2, device="cuda"),
            minitorch.ones(2, 3, device="cuda:0"), minitorch.full((2,), 7, device="cuda"),
            minitorch.rand(3, device="cuda"), minitorch.randn(3, device="cuda"),
            minitorch.arange(4, device="cuda"), minitorch.eye(2, device="cuda"),
            minitorch.empty(2, device=minitorch.device("cuda"))]
    for t in made:
        assert on_gpu(t)
        assert repr(t.device) == "device(type='cuda', index=0)"
    assert minitorch.zeros_like(made[0]).device == made[0].device
    assert minitorch.ones_like(made[0], device="cpu").device == minitorch.device("cpu")
    minitorch.cuda.synchronize()


def test_a_narrow_integer_arange_on_cuda_repeats_its_round(gpu: None) -> None:
    """An int8 range longer than 256 values is one round repeated (minitorch's arange),
    written with the array API alone."""
    made = minitorch.arange(-5, 1000, 3, dtype=minitorch.int8, device="cuda")
    assert on_gpu(made)
    assert made.cpu().tolist() == minitorch.arange(-5, 1000, 3, dtype=minitorch.int8).tolist()


def test_cuda_tensor_prints_its_device(gpu: None) -> None:
    # torch: device comes first, then dtype, then the autograd suffix
    assert repr(minitorch.tensor([1.0, 2.0], device="cuda")) == \
        "tensor([1., 2.], device='cuda:0')"
    assert repr(minitorch.tensor([1.0], dtype=minitorch.float64, device="cuda",
                                 requires_grad=True)) == \
        "tensor([1.], device='cuda:0', dtype=torch.float64, requires_grad=True)"
    assert repr(minitorch.zeros(0, 2, device="cuda")) == \
        "tensor([], device='cuda:0', size=(0, 2))"


def test_to_and_back_carries_values_and_gradients(gpu: None) -> None:
    x = minitorch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = x.to("cuda")
    assert on_gpu(y) and y.grad_fn.name() == "ToCopyBackward0"
    z = (y * y).sum()
    assert z.is_cuda
    z.backward()
    assert x.grad.device == minitorch.device("cpu")
    np.testing.assert_allclose(x.grad.numpy(), [2.0, -4.0, 6.0])
    back = y.cpu()
    assert not back.is_cuda and back.tolist() == [1.0, -2.0, 3.0]
    assert y.cuda() is y and y.to("cuda:0") is y
    w = x.detach().cuda().to(minitorch.float64)
    assert w.is_cuda and w.dtype is minitorch.float64
    assert x.to(w).is_cuda and x.to(w).dtype is minitorch.float64  # to(other tensor)
    assert x.to(device="cuda", dtype=minitorch.float64).dtype is minitorch.float64


@pytest.mark.parametrize("op", [
    lambda a, b: a + b, lambda a, b: b * a, lambda a, b: a @ b, lambda a, b: b.dot(a),
    lambda a, b: minitorch.cat([a, b]), lambda a, b: minitorch.stack([b, a]),
    lambda a, b: minitorch.where(a > 0, a, b), lambda a, b: minitorch.maximum(b, a),
    lambda a, b: nn.functional.mse_loss(a, b), lambda a, b: a < b,
], ids=["add", "mul", "matmul", "dot", "cat", "stack", "where", "maximum", "mse", "lt"])
def test_mixing_devices_raises_torchs_error(gpu: None, op) -> None:
    on_gpu, on_cpu = minitorch.ones(3, device="cuda"), minitorch.ones(3)
    for a, b in ((on_gpu, on_cpu), (on_cpu, on_gpu)):
        with pytest.raises(RuntimeError) as caught:
            op(a, b)
        assert str(caught.value) == MIXED


def test_mixing_in_linear_and_loss(gpu: None) -> None:
    layer = nn.Linear(3, 2)
    with pytest.raises(RuntimeError, match=r"cuda:0 and cpu!$"):
        layer(minitorch.ones(4, 3, device="cuda"))
    with pytest.raises(RuntimeError, match=r"cuda:0 and cpu!$"):
        nn.functional.cross_entropy(minitorch.zeros(2, 3, device="cuda"),
                                    minitorch.tensor([0, 1]))


def test_zero_dim_cpu_tensor_may_join_a_cuda_op(gpu: None) -> None:
    # torch allows a 0-d CPU tensor in a CUDA op (a "CPU scalar")
    x = minitorch.ones(2, device="cuda", requires_grad=True)
    y = x * minitorch.tensor(3.0) + minitorch.tensor(1.0)
    assert y.is_cuda and y.tolist() == [4.0, 4.0]
    y.sum().backward()
    assert x.grad.is_cuda and x.grad.tolist() == [3.0, 3.0]


def test_numpy_of_cuda_tensor_raises_torchs_message(gpu: None) -> None:
    with pytest.raises(TypeError) as torch_error:
        torch.ones(2, device="meta", requires_grad=True).numpy()
    for t in (minitorch.ones(2, device="cuda"), minitorch.ones(2, device="cuda",
                                                               requires_grad=True)):
        with pytest.raises(TypeError) as caught:
            t.numpy()
        assert str(caught.value) == str(torch_error.value).replace("meta", "cuda:0")
        with pytest.raises(TypeError):
            np.asarray(t)


def test_grad_on_another_device_is_refused_like_torch(gpu: None) -> None:
    with pytest.raises(RuntimeError) as torch_error:
        torch.ones(2, requires_grad=True).grad = torch.ones(2, device="meta")
    x = minitorch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError) as caught:
        x.grad = minitorch.ones(2, device="cuda")
    assert str(caught.value) == str(torch_error.value).replace("meta", "cuda")


def test_copy_between_devices(gpu: None) -> None:
    src = minitorch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    dst = minitorch.zeros(2) * 1  # a non-leaf, so it can be written in place under autograd
    dst.copy_(src)
    assert not dst.is_cuda and dst.tolist() == [1.0, 2.0]
    dst.sum().backward()
    assert src.grad.is_cuda and src.grad.tolist() == [1.0, 1.0]
    target = minitorch.zeros(3, device="cuda")
    target[1:] = minitorch.tensor([5.0, 6.0])
    target[[0]] = 4.0
    assert target.is_cuda and target.tolist() == [4.0, 5.0, 6.0]


def test_module_to_cuda_trains_like_on_cpu(gpu: None) -> None:
    minitorch.manual_seed(0)
    cpu_model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    gpu_model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    gpu_model.load_state_dict(cpu_model.state_dict())
    weight = gpu_model[0].weight
    assert gpu_model.to("cuda") is gpu_model
    assert gpu_model[0].weight is weight, "Module.to keeps the Parameter objects"
    assert all(p.is_cuda for p in gpu_model.parameters())
    assert all(b.is_cuda for b in gpu_model.buffers())
    x = minitorch.randn(5, 3)
    for model, data in ((cpu_model, x), (gpu_model, x.cuda())):
        opt = minitorch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        for _ in range(2):
            opt.zero_grad()
            model(data).square().mean().backward()
            opt.step()
    for p, q in zip(cpu_model.parameters(), gpu_model.parameters()):
        np.testing.assert_allclose(q.cpu().detach().numpy(), p.detach().numpy(), rtol=1e-5)
    assert gpu_model[1].num_batches_tracked.item() == 2
    assert not any(p.is_cuda for p in gpu_model.cpu().parameters())
    assert all(p.is_cuda for p in gpu_model.cuda().parameters())


def test_dropout_and_init_stay_on_device(gpu: None) -> None:
    x = minitorch.ones(100, device="cuda")
    assert nn.functional.dropout(x, 0.5).is_cuda
    w = nn.init.kaiming_uniform_(minitorch.empty(3, 3, device="cuda"))
    assert on_gpu(w)


def test_pickle_keeps_device(gpu: None) -> None:
    t = minitorch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    back = pickle.loads(pickle.dumps(t))
    assert back.is_cuda and back.requires_grad and back.tolist() == [1.0, 2.0]


def test_stand_in_is_restored() -> None:
    with backend.device_namespace("cuda", array_api_strict):
        assert minitorch.cuda.is_available()
    assert backend.factory_namespace(None) is np
    assert "cuda" not in backend._FACTORY or backend.is_cupy(backend._FACTORY["cuda"])
