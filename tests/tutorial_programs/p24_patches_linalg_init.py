# ViT-style patches, truncated-normal weights, adaptive max pooling and torch.linalg
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
images = torch.randn(2, 3, 8, 8)

# patches: F.unfold (im2col) and Tensor.unfold agree
patches = F.unfold(images, kernel_size=4, stride=4).transpose(1, 2)
print(patches.shape)
same = images.unfold(2, 4, 4).unfold(3, 4, 4).permute(0, 2, 3, 1, 4, 5).reshape(2, 4, 48)
print(torch.equal(patches, same))

embed = nn.Linear(48, 16)
nn.init.trunc_normal_(embed.weight, std=0.02)
nn.init.zeros_(embed.bias)
pos = nn.Parameter(torch.zeros(1, 4, 16))
nn.init.trunc_normal_(pos, std=0.02)
head = nn.Linear(16, 2)
pool = nn.AdaptiveMaxPool2d((2, None), return_indices=True)
params = [*embed.parameters(), pos, *head.parameters()]
opt = torch.optim.SGD(params, lr=0.5)
labels = torch.tensor([0, 1])
for step in range(3):
    tokens = embed(patches) + pos
    pooled, where = pool(tokens.unsqueeze(1))
    logits = head(pooled.reshape(2, 2, 16).mean(1))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", where[0, 0, :, :4].tolist())
print(pooled.grad_fn.name(), tokens.grad_fn.name())
print(pos.grad.abs().sum())

# back to the image: F.fold sums overlapping patches
cols = F.unfold(images[:1], 3, padding=1)
print(F.fold(cols, (8, 8), 3, padding=1)[0, 0, :2], cols.grad_fn)

# least squares by the normal equations, and the matrix helpers
x = torch.randn(6, 3)
y = x @ torch.tensor([1.0, -2.0, 0.5]) + 0.01 * torch.randn(6)
w = torch.zeros(3, requires_grad=True)
gram = x.T @ x
w_star = torch.linalg.solve(gram, x.T @ y)
print(w_star, torch.linalg.det(gram), torch.linalg.inv(gram)[0])
a = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
out = torch.linalg.det(a) + torch.linalg.inv(a).sum() + torch.linalg.solve(a, torch.ones(2)).sum()
out.backward()
print(out, a.grad)
print(torch.linalg.matrix_norm(a), torch.linalg.matrix_norm(a, 1))
print(torch.linalg.norm(a, float("inf")))
print(torch.linalg.vector_norm(a, 3, dim=1), a.inverse().grad_fn.name(), a.det().grad_fn.name())
try:
    torch.linalg.inv(torch.ones(2, 2))
except RuntimeError as e:
    print(type(e).__name__, e)
