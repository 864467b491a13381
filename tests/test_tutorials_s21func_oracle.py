"""Fifteen short programs in the style of the torch.func and forward-mode AD tutorials
(per-sample gradients, jacobians and hessians of small MLPs through functional_call, jvp/vjp
compositions, vmap's in_dims/out_dims/chunk_size, custom Functions with jvp, setup_context
and vmap rules, dual numbers through nn modules): each must print what it prints with torch.
"""

from __future__ import annotations

import pytest

from tests.test_func_s21func_oracle import assert_prints_same, program_cases

PROGRAMS: dict[str, str] = {}


def program(name: str, source: str) -> None:
    PROGRAMS[name] = source


program("per-sample gradients of a small MLP", """
functional_call = torch.func.functional_call; grad = torch.func.grad; vmap = torch.func.vmap
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
params = {k: v.detach() for k, v in model.named_parameters()}
x, t = torch.randn(5, 4), torch.tensor([0, 2, 1, 1, 0])
def loss(p, xi, ti):
    out = functional_call(model, p, (xi.unsqueeze(0),))
    return F.cross_entropy(out, ti.unsqueeze(0))
g = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, t)
for k, v in g.items():
    print(k, tuple(v.shape), round(v.abs().sum().item(), 4), v.grad_fn)
""")
program("jacobian of an MLP layer, reverse and forward agree", """
jacrev = torch.func.jacrev; jacfwd = torch.func.jacfwd
lin = nn.Linear(3, 2)
x = torch.randn(3)
jr = jacrev(lin)(x)
jf = jacfwd(lin)(x)
print(jr, jf, torch.allclose(jr, jf), torch.allclose(jr, lin.weight))
print(jacrev(lambda w, b: F.linear(x, w, b), argnums=(0, 1))(lin.weight, lin.bias)[0].shape)
""")
program("hessian of a scalar MLP via functional_call", """
functional_call = torch.func.functional_call; hessian = torch.func.hessian
net = nn.Sequential(nn.Linear(2, 4), nn.Sigmoid(), nn.Linear(4, 1))
p = dict(net.named_parameters())
x = torch.randn(2)
H = hessian(lambda inp: functional_call(net, p, (inp,)).squeeze())(x)
print(H, torch.allclose(H, H.T))
""")
program("jvp and vjp compositions", """
jvp = torch.func.jvp; vjp = torch.func.vjp
f = lambda x: x.sin() * x.exp()
x, v = torch.randn(4), torch.randn(4)
out, tangent = jvp(f, (x,), (v,))
out2, pullback = vjp(f, x)
(ct,) = pullback(torch.ones(4))
print(out, tangent, ct)
print(torch.allclose(tangent, (x.cos() * x.exp() + x.sin() * x.exp()) * v))
_, hvp = jvp(lambda y: torch.func.grad(lambda z: (z ** 3).sum())(y), (x,), (v,))
print(hvp, 6 * x * v)
""")
program("vmap with in_dims, out_dims and chunk_size", """
vmap = torch.func.vmap
a = torch.randn(3, 5)
b = torch.randn(5)
print(vmap(lambda r, s: r * s + 1, in_dims=(1, None))(a, b[:3]).shape)
print(vmap(torch.dot, in_dims=(0, None))(a, b))
print(vmap(lambda r: (r.sum(), r * 2), out_dims=(0, 1))(a)[1].shape)
print(vmap(lambda r: r.relu().sum(), chunk_size=2)(a))
print(vmap(vmap(lambda u, w: u * w))(a, a).shape)
""")
program("custom Function with jvp and setup_context", """
class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x
    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g
    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 2 * x * t
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
print(Square.apply(x))
print(torch.func.grad(lambda y: Square.apply(y).sum())(x.detach()))
print(torch.func.jvp(Square.apply, (x.detach(),), (torch.ones(3),)))
with fwAD.dual_level():
    print(fwAD.unpack_dual(Square.apply(fwAD.make_dual(x.detach(), torch.ones(3)))).tangent)
""")
program("custom Function with a vmap staticmethod", """
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g
    @staticmethod
    def vmap(info, in_dims, x):
        print("vmap rule", info.batch_size, in_dims)
        return x ** 3, in_dims[0]
x = torch.randn(4, 2)
print(torch.func.vmap(Cube.apply)(x))
print(torch.func.vmap(Cube.apply, in_dims=1)(x))
print(torch.func.vmap(torch.func.grad(lambda y: Cube.apply(y).sum()))(x))
""")
program("custom Function with generate_vmap_rule", """
class Scale(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, k):
        return x * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
x = torch.randn(3, 2, requires_grad=True)
y = torch.func.vmap(Scale.apply, in_dims=(0, None))(x, 2.5)
print(y)
y.sum().backward()
print(x.grad)
print(torch.func.vmap(torch.func.grad(lambda v: Scale.apply(v, 3.0).sum()))(x.detach()))
""")
program("dual numbers through nn modules", """
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Softmax(dim=-1))
x = torch.randn(2, 3)
v = torch.randn(2, 3)
with fwAD.dual_level():
    out = model(fwAD.make_dual(x, v))
    p, t = fwAD.unpack_dual(out)
    print(p, t)
    print(t.sum(-1).abs().max() < 1e-6)
""")
program("forward-mode jacobian-vector products of a module's parameters", """
functional_call = torch.func.functional_call; jvp = torch.func.jvp
model = nn.Linear(3, 2)
params = {k: v.detach() for k, v in model.named_parameters()}
tangents = {k: torch.ones_like(v) for k, v in params.items()}
x = torch.randn(4, 3)
out, jvp_out = jvp(lambda p: functional_call(model, p, (x,)), (params,), (tangents,))
print(out, jvp_out)
print(torch.allclose(jvp_out, x.sum(1, keepdim=True) + 1))
""")
program("dual_level with a tangent per parameter", """
model = nn.Linear(2, 2)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
x = torch.randn(3, 2)
with fwAD.dual_level():
    dual = {name: fwAD.make_dual(p.detach(), tangents[name]) for name, p in params.items()}
    out = torch.func.functional_call(model, dual, (x,))
    print(fwAD.unpack_dual(out).tangent)
    print(fwAD.unpack_dual(out).tangent.dtype, fwAD.unpack_dual(out).primal.requires_grad)
""")
program("model ensembling with stack_module_state", """
stack_module_state = torch.func.stack_module_state
functional_call = torch.func.functional_call; vmap = torch.func.vmap
import copy
models = [nn.Sequential(nn.Linear(3, 5), nn.GELU(), nn.Linear(5, 2)) for _ in range(4)]
params, buffers = stack_module_state(models)
base = copy.deepcopy(models[0]).to("meta")
def f(p, b, x):
    return functional_call(base, (p, b), (x,))
x = torch.randn(6, 3)
out = vmap(f, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, torch.allclose(out[1], models[1](x), atol=1e-6))
""")
program("jacfwd of jacrev: hessian of a log-softmax loss", """
jacfwd = torch.func.jacfwd; jacrev = torch.func.jacrev
w = torch.randn(3, 4, dtype=torch.float64)
x = torch.randn(4, dtype=torch.float64)
loss = lambda x: -(w @ x).log_softmax(0)[1]
H1 = jacfwd(jacrev(loss))(x)
H2 = torch.func.hessian(loss)(x)
print(H1, torch.allclose(H1, H2))
print(jacrev(jacrev(loss))(x).sub(H1).abs().max() < 1e-12)
""")
program("linearize and vjp of a vmap", """
linearize = torch.func.linearize; vjp = torch.func.vjp; vmap = torch.func.vmap
x = torch.randn(3, 2)
out, jvp_fn = linearize(lambda y: y.tanh().sum(0), x)
print(out, jvp_fn(torch.ones(3, 2)))
f = vmap(lambda r: r.sigmoid() * r)
y, back = vjp(f, x)
print(y, back(torch.ones_like(y))[0])
""")
program("per-sample gradient norms for clipping", """
functional_call = torch.func.functional_call; grad = torch.func.grad; vmap = torch.func.vmap
model = nn.Linear(3, 1)
params = {k: v.detach() for k, v in model.named_parameters()}
x, y = torch.randn(6, 3), torch.randn(6, 1)
def loss(p, xi, yi):
    return F.mse_loss(functional_call(model, p, (xi,)), yi)
grads = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
norms = torch.stack([g.reshape(6, -1).norm(dim=1) for g in grads.values()]).norm(dim=0)
print(norms)
clip = (1.0 / (norms + 1e-6)).clamp(max=1.0)
print({k: (g * clip.view(-1, *[1] * (g.dim() - 1))).mean(0) for k, g in grads.items()})
""")

KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("name", program_cases(PROGRAMS, KNOWN))
def test_program_prints_what_torch_prints(name: str) -> None:
    assert_prints_same(PROGRAMS[name])
