"""nn given edge input (session 23's nn fuzz): torch's result or torch's refusal.

- a loss kernel or unpooling that has nothing to compute returns at once in torch: an empty
  batch of multi_margin_loss keeps the input's dtype (bool and int too), an unpooling into
  empty planes reads no index;
- ``Module.__setattr__`` with a module checks no name (``ParameterDict`` stores its
  non-tensor values that way), and a parameter named ``_parameters`` meets torch's refusal;
- messages name nn's classes by torch's paths (``torch.nn.modules.activation.ReLU``);
- local_response_norm pools 4-D and wider inputs with avg_pool3d, whose first check is the
  padding against half the (negative) window.
"""

from __future__ import annotations

import pytest
import torch

from tests.oracle import assert_as_torch, assert_same_error, raised_by

DTYPES = ["float32", "float64", "float16", "int64", "int32", "uint8", "bool"]


def _empty_batch(L, dtype):
    return L.ones(0, 3, dtype=getattr(L, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_multi_margin_loss_of_an_empty_batch_keeps_the_dtype(dtype, reduction):
    def program(L):
        out = L.nn.functional.multi_margin_loss(_empty_batch(L, dtype),
                                                L.ones(0, dtype=L.long), reduction=reduction)
        return out.dtype, tuple(out.shape)  # torch leaves a reduced value unset

    assert_as_torch(program)


def test_multi_margin_loss_of_an_empty_bool_batch_with_weight():
    assert_as_torch(lambda L: L.nn.MultiMarginLoss(weight=L.ones(3))(
        _empty_batch(L, "bool"), L.ones(0, dtype=L.long)).dtype)


@pytest.mark.parametrize("kernel, stride", [(0, None), (False, None), ((2, 0), (1, 0)),
                                            ((0, 2), (0, 1)), ((0, 1), (1, 1))])
@pytest.mark.parametrize("index", [-1, 0, 2, 7])
def test_max_unpool2d_into_empty_planes_reads_no_index(kernel, stride, index):
    assert_as_torch(lambda L: L.nn.functional.max_unpool2d(
        L.ones(1, 2, 2, 2), L.zeros(1, 2, 2, 2, dtype=L.long) + index, kernel, stride))


@pytest.mark.parametrize("index", [0, 3])
def test_max_unpool1d_into_empty_planes_reads_no_index(index):
    assert_as_torch(lambda L: L.nn.MaxUnpool1d(0)(
        L.ones(1, 2, 2), L.zeros(1, 2, 2, dtype=L.long) + index))


@pytest.mark.parametrize("key", ["x.y", "", "training", "_buffers"])
def test_parameter_dict_stores_a_module_under_any_name(key):
    assert_as_torch(lambda L: repr(L.nn.ParameterDict({key: L.nn.Linear(1, 1)})))


@pytest.mark.parametrize("name", ["x.y", "", "training"])
def test_setattr_of_a_module_checks_no_name(name):
    def program(L):
        m = L.nn.Linear(1, 1)
        setattr(m, name, L.nn.ReLU())
        return repr(m), [n for n, _ in m.named_modules()], repr(getattr(m, name))

    assert_as_torch(program)


@pytest.mark.parametrize("key", ["_parameters", "_modules"])
def test_parameter_dict_key_that_names_a_registry(key):
    assert_as_torch(lambda L: list(L.nn.ParameterDict({key: L.nn.Parameter(L.ones(1))})))


@pytest.mark.parametrize("register", [
    lambda L, m: m.register_buffer("x", L.nn.ReLU()),
    lambda L, m: m.register_buffer("x", L.nn.MultiheadAttention(2, 1)),
    lambda L, m: m.register_buffer("x", L.nn.Linear),
    lambda L, m: setattr(m, "weight", L.nn.Sequential()),
    lambda L, m: setattr(m, "weight", L.nn.CrossEntropyLoss()),
])
def test_messages_name_nn_classes_by_torch_paths(register):
    def program(L):
        register(L, L.nn.Linear(1, 1))

    import minitorch as mt
    assert_same_error(raised_by(program, mt), raised_by(program, torch))


@pytest.mark.parametrize("value", ["ReLU()", "Linear(1, 1)", "Linear", "Module()"])
def test_typename_of_nn_classes(value):
    assert_as_torch(lambda L: L.typename(eval(value, {}, vars(L.nn))))


@pytest.mark.parametrize("shape", [(3, 3, 2, 1), (3, 3, 2, 1, 2), (3, 3, 2)])
@pytest.mark.parametrize("size", [-5, -3, -2, -1, 0])
def test_local_response_norm_of_a_window_below_one(shape, size):
    assert_as_torch(lambda L: L.nn.functional.local_response_norm(L.ones(*shape), size))


# ---- second batch: optimizers' check order, schedulers' lambdas, containers' methods

ADAMS = ["Adam", "AdamW", "Adamax", "RAdam", "NAdam"]


@pytest.mark.parametrize("name", ADAMS)
@pytest.mark.parametrize("settings", [
    {"weight_decay": -1, "betas": (1.0, 0.5)},
    {"eps": -1, "betas": (1.0, 0.5)},
    {"lr": -1, "betas": (0.5, 2)},
    {"weight_decay": (0.5,), "betas": 2},
    {"weight_decay": None, "betas": (0.9,)},
    {"weight_decay": -1, "betas": (0.5, 0.5)},
])
def test_adams_check_betas_after_eps_and_before_weight_decay(name, settings):
    assert_as_torch(lambda L: getattr(L.optim, name)([L.ones(1, requires_grad=True)],
                                                     **settings).defaults["betas"])


def test_nadam_checks_betas_before_momentum_decay():
    assert_as_torch(lambda L: L.optim.NAdam([L.ones(1, requires_grad=True)],
                                            momentum_decay=(1.2, 0.5), betas=(0.9,)))


def test_adam_checks_the_kinds_of_betas_after_weight_decay():
    assert_as_torch(lambda L: L.optim.Adam([L.ones(1, requires_grad=True)], weight_decay=-1,
                                           betas=(0.5, L.tensor(0.5))))


@pytest.mark.parametrize("kind", ["MultiplicativeLR", "LambdaLR"])
@pytest.mark.parametrize("lambdas", [[3, 1], [3], (1,), 3, (lambda e: 0.5,) * 2])
def test_lambda_schedulers_count_their_lambdas_first(kind, lambdas):
    def program(L):
        opt = L.optim.SGD([L.ones(1, requires_grad=True)], lr=0.1)
        return getattr(L.optim.lr_scheduler, kind)(opt, lambdas).get_last_lr()

    assert_as_torch(program)


@pytest.mark.parametrize("how", ["get_parameter", "get_buffer", "get_submodule"])
@pytest.mark.parametrize("target", [b"w", b"", 3, None])
def test_module_lookups_of_a_target_that_is_no_str(how, target):
    assert_as_torch(lambda L: repr(getattr(L.nn.Linear(1, 1), how)(target)))


@pytest.mark.parametrize("target, strict", [("1.0", False), ("", False), ("5", True),
                                            ("5", False), ("weight", False), ("x.y", False),
                                            (3, False), (b"a", False), ("training", True)])
@pytest.mark.parametrize("value", ["Tanh", "int"])
def test_set_submodule(target, strict, value):
    def program(L):
        m = L.nn.Sequential(L.nn.ReLU(), L.nn.Sequential(L.nn.Linear(1, 1)))
        m.set_submodule(target, L.nn.Tanh() if value == "Tanh" else 3, strict=strict)
        return repr(m)

    assert_as_torch(program)


def _pdict(L, n=2):
    return L.nn.ParameterDict({k: L.nn.Parameter(L.ones(1) * i) for i, k in enumerate("ab"[:n])})


@pytest.mark.parametrize("n", [0, 1, 2])
@pytest.mark.parametrize("op", [
    lambda L, d: (d.popitem()[0], list(d)),
    lambda L, d: repr(d.copy()),
    lambda L, d: (d.clear(), repr(d)),
    lambda L, d: repr(d.fromkeys(["x", "c"], L.ones(2))),
    lambda L, d: repr(d.fromkeys([1], L.ones(2))),
    lambda L, d: repr(d.fromkeys("ab")),
    lambda L, d: list(reversed(d)),
    lambda L, d: repr(d | L.nn.ParameterDict({"z": L.ones(1)})),
    lambda L, d: repr(d | {"z": L.ones(1)}),
    lambda L, d: repr({"z": L.ones(1)} | d),
    lambda L, d: repr(d | 3),
    lambda L, d: (d.__ior__([("c", L.ones(2))]), list(d)),
    lambda L, d: d(L.ones(1)),
])
def test_parameter_dict_methods(n, op):
    assert_as_torch(lambda L: op(L, _pdict(L, n)))


@pytest.mark.parametrize("args", [(), (1,), (1, 2)])
def test_parameter_list_is_not_called(args):
    assert_as_torch(lambda L: L.nn.ParameterList([L.ones(1)])(*args))


@pytest.mark.parametrize("program", [
    lambda L: L.nn.Sequential() * "a",
    lambda L: L.nn.Sequential(L.nn.ReLU()) * 0,
    lambda L: L.nn.Sequential() + L.nn.ReLU(),
    lambda L: L.nn.HuberLoss(delta="x"),
    lambda L: L.nn.Linear(1, 1).load_state_dict([("weight", L.ones(1, 1))]),
])
def test_messages_print_classes_as_torch(program):
    assert_as_torch(program)


@pytest.mark.parametrize("index, value", [("a", "module"), ("a", "int"), (1.5, "module"),
                                          (0, "module"), (-1, "module")])
def test_module_list_insert_reads_its_index_first(index, value):
    def program(L):
        m = L.nn.ModuleList([L.nn.ReLU()])
        m.insert(index, L.nn.Tanh() if value == "module" else 3)
        return repr(m)

    assert_as_torch(program)


@pytest.mark.parametrize("key", [slice(0, 1), [1], {}])
def test_parameter_dict_stores_the_key_before_checking_it_is_a_str(key):
    assert_as_torch(lambda L: L.nn.ParameterDict().fromkeys([key], 3))


@pytest.mark.parametrize("differentiable", ["x", None, 0])
def test_a_non_leaf_parameter_is_refused_unless_differentiable(differentiable):
    def program(L):
        w = L.ones(2, requires_grad=True) * 2
        opt = L.optim.SGD([w], lr=0.1, differentiable=differentiable)
        w.grad = L.ones(2)
        opt.step()
        return w

    assert_as_torch(program)


def test_a_retained_non_leaf_parameter_is_taken():
    def program(L):
        w = L.ones(2, requires_grad=True) * 2
        w.retain_grad()
        opt = L.optim.SGD([w], lr=0.1)
        w.grad = L.ones(2)
        opt.step()
        return w.detach()

    assert_as_torch(program)


@pytest.mark.parametrize("name, flag", [("SGD", "maximize"), ("Adam", "amsgrad"),
                                        ("Adam", "maximize"), ("RMSprop", "centered")])
def test_a_flag_of_several_values_is_ambiguous_in_a_step(name, flag):
    def program(L):
        w = L.ones(3, requires_grad=True)
        opt = getattr(L.optim, name)([w], lr=0.1)
        opt.param_groups[0][flag] = L.tensor([0.1, 0.2])
        w.grad = L.ones(3)
        opt.step()
        return w.detach()

    assert_as_torch(program)
