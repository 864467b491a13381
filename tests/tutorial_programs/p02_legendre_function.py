# The tutorial's custom autograd Function: P3(x) = 1/2 (5x^3 - 3x), fitted with linspace data
import math

import torch


class LegendrePolynomial3(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return 0.5 * (5 * input ** 3 - 3 * input)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * 1.5 * (5 * input ** 2 - 1)


x = torch.linspace(-math.pi, math.pi, 500, dtype=torch.float64)
y = torch.sin(x)
a = torch.full((), 0.1, dtype=torch.float64, requires_grad=True)
b = torch.full((), -1.0, dtype=torch.float64, requires_grad=True)
c = torch.full((), 0.0, dtype=torch.float64, requires_grad=True)
d = torch.full((), 0.3, dtype=torch.float64, requires_grad=True)
P3 = LegendrePolynomial3.apply
for t in range(200):
    y_pred = a + b * P3(c + d * x)
    loss = (y_pred - y).pow(2).sum()
    if t % 50 == 49:
        print(t, round(loss.item(), 4))
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c, d):
            p -= 5e-6 * p.grad
            p.grad = None
print(y_pred.grad_fn.name(), [round(p.item(), 4) for p in (a, b, c, d)])
