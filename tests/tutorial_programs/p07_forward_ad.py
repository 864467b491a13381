# Forward-mode AD (the PyTorch tutorial): dual tensors, jvp through ops and a custom Function
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]])
tangent = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.5]])


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    print(fwAD.unpack_dual(dual_input).tangent is tangent)
    plain_tensor = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    print(fwAD.unpack_dual(dual_output).primal)
print(fwAD.unpack_dual(dual_output).tangent)


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def backward(ctx, gO):
        return gO * ctx.result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


x = torch.tensor([0.0, 1.0, -1.0], dtype=torch.double)
with fwAD.dual_level():
    y = Fn.apply(fwAD.make_dual(x, torch.ones_like(x)))
    print(fwAD.unpack_dual(y).tangent)
    z = fwAD.make_dual(x, torch.tensor([1.0, 2.0, 3.0], dtype=torch.double))
    print((z.sin() * z).sum())
