# PyTorch tutorial "Forward-mode Automatic Differentiation"
# (https://pytorch.org/tutorials/intermediate/forward_ad_usage.html): dual parameters of a
# module, a custom Function's jvp, and gradcheck with check_forward_ad
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn

model = nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]]))
    model.bias.copy_(torch.tensor([0.25, -0.5]))
params = {name: p for name, p in model.named_parameters()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, torch.ones_like(p)))
    out = model(torch.tensor([[1.0, 2.0], [3.0, -1.0]]))
    print(fwAD.unpack_dual(out).tangent[0])


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


primal = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.double, requires_grad=True)
with fwAD.dual_level():
    dual_output = Fn.apply(fwAD.make_dual(primal, torch.ones(2, 2, dtype=torch.double)))
    print(fwAD.unpack_dual(dual_output).tangent[0, :1])
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                               check_backward_ad=False, check_undefined_grad=False,
                               check_batched_grad=False))
