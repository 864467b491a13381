# d2l-style softmax regression: TensorDataset/DataLoader, y_hat[range(n), y], axis=,
# f-string formats, round(decimals=), out=, a full backward hook and the profiler
import torch
from torch import nn
from torch.utils import data

X = torch.tensor([[0.5, 1.0, -0.2], [1.5, -0.5, 0.3], [-1.0, 0.3, 0.8], [2.0, 1.0, -1.0],
                  [-0.7, -1.2, 0.5], [0.1, 0.2, 0.9], [1.1, -0.3, -0.4], [-0.2, 0.6, 0.1]])
y = torch.tensor([0, 1, 2, 0, 2, 1, 0, 2])
loader = data.DataLoader(data.TensorDataset(X, y), batch_size=3, shuffle=False)

W = torch.zeros(3, 3, requires_grad=True)
b = torch.zeros(3, requires_grad=True)


def softmax(logits):
    e = torch.exp(logits - logits.max(axis=1, keepdim=True).values)
    return e / e.sum(axis=1, keepdim=True)


def cross_entropy(y_hat, labels):
    return -torch.log(y_hat[range(len(y_hat)), labels])


for epoch in range(3):
    total = 0.0
    for features, labels in loader:
        loss = cross_entropy(softmax(features @ W + b), labels).mean()
        loss.backward()
        with torch.no_grad():
            W -= 0.5 * W.grad
            b -= 0.5 * b.grad
            W.grad.zero_()
            b.grad.zero_()
        total += loss.item()
    accuracy = (softmax(X @ W + b).argmax(axis=1) == y).float().mean()
    print(f"epoch {epoch}: loss {total / len(loader):.4f}, accuracy {accuracy:.3f}")
print(torch.round(W.detach(), decimals=2))
out = torch.empty(8, 3)
torch.matmul(X, W.detach(), out=out)
print(torch.add(out, b.detach(), out=out).argmin(axis=1))

net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[0.5, -0.5, 0.25], [1.0, 0.0, -1.0]]))
    net[0].bias.fill_(0.1)
net.register_full_backward_hook(
    lambda m, gi, go: print("grad_input", gi[0].shape, "grad_output", go[0].sum()))
net(X.requires_grad_()).sum().backward()
print(X.grad.sum(axis=0))
activities = [torch.profiler.ProfilerActivity.CPU]
with torch.profiler.profile(activities=activities) as prof, \
        torch.profiler.record_function("forward"):
    net(X)
print("forward" in {e.key for e in prof.key_averages()})
