# Higher-order gradients, a Hessian-vector product and the robust losses
import torch
import torch.nn.functional as F

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
(h,) = torch.autograd.grad(g, x, create_graph=True)
print(h)
(t,) = torch.autograd.grad(h, x)
print(t)
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
v = torch.tensor([1.0, 0.0, 1.0])
loss = (w.sin() * w ** 2).sum()
(grad,) = torch.autograd.grad(loss, w, create_graph=True)
(hvp,) = torch.autograd.grad(grad @ v, w)
print(hvp)
pred = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)
target = torch.tensor([0.0, 0.5, -1.2])
for name in ("smooth_l1_loss", "l1_loss", "mse_loss", "huber_loss"):
    loss = getattr(F, name)(pred, target)
    (gp,) = torch.autograd.grad(loss, pred)
    print(name, loss, gp)
