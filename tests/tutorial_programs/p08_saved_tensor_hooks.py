# Saved tensor hooks (the tutorial): what is packed, in which order, and save_on_cpu
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)


def pack_hook(x):
    print("Packing", x)
    return x


def unpack_hook(x):
    print("Unpacking", x)
    return x


with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
    z = (a / b).exp()
y.sum().backward(retain_graph=True)
z.sum().backward()
print(a.grad, b.grad)
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
with torch.autograd.graph.save_on_cpu():
    w = (a * b).pow(2).sum()
w.backward()
print(a.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("hooks are disabled here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
