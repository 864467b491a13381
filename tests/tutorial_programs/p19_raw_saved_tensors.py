# PyTorch tutorial "Hooks for autograd saved tensors"
# (https://pytorch.org/tutorials/intermediate/autograd_saved_tensors_hooks_tutorial.html):
# the saved tensors of a node, and hooks registered on one of them
import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self is x, y.grad_fn._saved_exponent)
y.grad_fn._raw_saved_self.register_hooks(lambda t: (print("packing", t), t)[1],
                                         lambda t: (print("unpacking"), t)[1])
print(type(y.grad_fn._raw_saved_self).__name__)
y.sum().backward()
print(x.grad)
e = x.exp()
print(e.equal(e.grad_fn._saved_result))
