# In-place ops and version counters, norms, gradient clipping by hand, index_add_
import torch

x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
y = x * 2
print(y._version)
y.sin_()
print(y._version, y)
y.exp_()
y.sum().backward()
print(x.grad)
z = x.exp()
z.mul_(2)
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
w = torch.tensor([[3.0, 4.0], [1.0, -2.0]], requires_grad=True)
n = w.norm()
print(n, w.norm(dim=1), w.norm(p=1, dim=0, keepdim=True), w.norm(p=float("inf")))
n.backward()
print(w.grad)
g = w.grad
max_norm = 0.5
with torch.no_grad():
    if g.norm() > max_norm:
        g.mul_(max_norm / g.norm())
print(g, g.norm())
acc = torch.zeros(3, 2)
acc.index_add_(0, torch.tensor([0, 2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
print(acc)
