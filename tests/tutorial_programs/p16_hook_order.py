# PyTorch docs "Autograd mechanics: backward hooks execution": hooks on leaves and on
# intermediate tensors, printed as the engine reaches them
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, -1.0], requires_grad=True)
c = torch.tensor([0.5, 0.25], requires_grad=True)
for name, t in (("a", a), ("b", b), ("c", c)):
    t.register_hook(lambda grad, name=name: print("grad of", name, grad))
d = a * b
e = d.sin() + c
f = (e * a).sum() + (b * c).exp().sum()
d.register_hook(lambda grad: print("grad of d", grad))
e.register_hook(lambda grad: print("grad of e", grad))
f.backward()
print(a.grad, b.grad, c.grad)

w = torch.ones(3, requires_grad=True)
w.register_hook(lambda g: print("first hook", g))
w.register_hook(lambda g: g * 2)
w.register_hook(lambda g: print("third hook sees the doubled gradient", g))
(w.cos().sum() + w.sin().sum()).backward()
print(w.grad)
