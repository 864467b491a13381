# PyTorch "Tensors" tutorial (old 60-minute blitz: new_ones/randn_like) and MorvanZhou's
# activation functions (https://github.com/MorvanZhou/PyTorch-Tutorial, 203_activation.py)
import torch
import torch.nn.functional as F

x = torch.tensor([[1.5, -2.0], [0.25, 4.0]], dtype=torch.double)
print(x.new_ones(2, 3), x.new_zeros((1, 2)), x.new_full((2,), 7), x.new_tensor([1, 2]))
a = torch.tensor([-3.0, -0.5, 0.0, 0.5, 3.0, 30.0], requires_grad=True)
for y in (F.softplus(a), torch.log1p(a.abs()), a.expm1(), (a.abs() + 1).rsqrt(),
          torch.lerp(a, a * 2, 0.25), torch.addcmul(a, a, a, value=0.5)):
    print(y.detach(), y.grad_fn.name())
    y.sum().backward()
    print(a.grad)
    a.grad = None
print(torch.nn.Softplus(beta=2.0))
