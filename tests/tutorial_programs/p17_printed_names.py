# yunjey "PyTorch basics" style: what tensors, results and graph nodes print as
import torch

x = torch.tensor([[1.0, 5.0, 2.0], [3.0, 0.5, 4.0]], requires_grad=True)
print(x.shape, x.size(), x.size(1), x.dtype, x.device, type(x))
print(torch.float32, torch.int64, torch.long, torch.get_default_dtype())
print(x.type(), x.long().type(), torch.FloatTensor)
values, indices = torch.max(x.detach(), 1)
print(values, indices)
print(torch.max(x.detach(), 1))
print(x.detach().min(0))
y = (x * 2).sum()
print(repr(y.grad_fn).split(" at ")[0], type(y.grad_fn).__name__)  # addresses differ per run
print(y.grad_fn.next_functions[0][0].name(), type(y.grad_fn.next_functions[0][0]))
p = torch.nn.Parameter(torch.ones(2))
print(p, type(p))
print(torch.zeros(0, 3, dtype=torch.int64), torch.ones(2, dtype=torch.float64))
