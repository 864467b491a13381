# PyTorch docs "Extending torch.autograd", ctx.mark_non_differentiable example
# (https://pytorch.org/docs/stable/generated/torch.autograd.function.FunctionCtx.mark_non_differentiable.html)
import torch


class Func(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        sorted_x, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted_x, idx

    @staticmethod
    def backward(ctx, g1, g2):
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input


x = torch.tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
values, idx = Func.apply(x)
print(values, idx, idx.requires_grad)
(values * torch.arange(4.0)).sum().backward()
print(x.grad)
print(torch.sort(x, descending=True))
print(torch.argsort(x, stable=True), x.topk(2))
v = x.topk(2).values
v.sum().backward()
print(type(v.grad_fn).__name__, x.grad)
