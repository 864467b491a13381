"""A corpus of wrong answers, written from each topic's misconceptions (issue #17; the list
of misconceptions per exercise is in solutions/README.md, "Misconceptions").

Each wrong answer is the solution notebook with one answer cell changed, so that it is the
only mistake of its submission. Every submission of a chapter (and the solution, and the
untouched release) is autograded in one nbgrader run and its feedback generated in another;
then, for each wrong answer:

- it loses points on its own exercise and on no other;
- the feedback of its exercise's failing cells says what was expected and what the code gave
  (or names the mistake), and never shows hidden test code; the first wrong answer of each
  exercise is also read in its feedback HTML (nbconvert's HTML costs seconds a notebook, and
  turns every traceback into HTML the same way).

The same run grades each chapter as a whole: the solution earns full marks, while the untouched
release, and the release with its test cells edited to `pass`, earn nothing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from html import unescape

import nbformat
import pytest
from grading import CourseRoot, Grades, edit_cells, passify_tests

from course.integrity import HideHiddenTests
from tools.build_course import SOLUTIONS, find_sources, read_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

# A change is (old, new): replace the one occurrence of old in the solution's answer cell.
Change = tuple[str, str]

GRAD_MODES: dict[str, Change] = {
    "the mode is one global flag, not one per thread": (
        "class GradState(threading.local):", "class GradState:"),
    "the mode is not restored when the block raises": (
        "    def __exit__(self, *exc_info):\n        grad_state.grad_enabled = self.saved",
        "    def __exit__(self, *exc_info):\n"
        "        if exc_info[0] is None:\n            grad_state.grad_enabled = self.saved"),
    "exit turns grad mode on instead of restoring what it found": (
        "    def __exit__(self, *exc_info):\n        grad_state.grad_enabled = self.saved",
        "    def __exit__(self, *exc_info):\n        grad_state.grad_enabled = True"),
    "no_grad flips the mode instead of setting it": (
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        grad_state.grad_enabled = self.mode",
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        grad_state.grad_enabled = self.mode if self.mode else not self.saved"),
    "the decorator reads the mode to restore when it decorates": (
        "        mode = self.mode\n\n        def run_in_mode(*args, **kwargs):\n"
        "            saved = grad_state.grad_enabled\n",
        "        mode = self.mode\n        saved = grad_state.grad_enabled\n\n"
        "        def run_in_mode(*args, **kwargs):\n"),
    "the decorator reuses its one instance, so a recursive call overwrites what to restore": (
        "            saved = grad_state.grad_enabled\n            grad_state.grad_enabled = mode\n"
        "            try:\n                return func(*args, **kwargs)\n            finally:\n"
        "                grad_state.grad_enabled = saved\n",
        "            with self:\n                return func(*args, **kwargs)\n"),
    "set_grad_enabled used as a decorator switches the mode when it decorates": (
        "        grad_state.grad_enabled = self.saved  # decorating must not switch\n", ""),
    "the mode is set on the class, so every thread shares it": (
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        grad_state.grad_enabled = self.mode\n",
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        GradState.grad_enabled = self.mode\n"
        "        grad_state.__dict__.pop('grad_enabled', None)\n"),
}
FREEZE: dict[str, Change] = {
    "freezing zeroes the gradients instead of turning requires_grad off": (
        "            p.requires_grad_(False)", "            p.grad = minitorch.zeros_like(p)"),
    '"1" also freezes "10": a prefix test without the dot': (
        'pname == name or pname.startswith(name + ".")', "pname.startswith(name)"),
    "it returns the frozen names, not those that still train": (
        "if p.requires_grad]", "if not p.requires_grad]"),
    "only the direct parameters of a named submodule are frozen": (
        'pname == name or pname.startswith(name + ".")',
        'pname == name or pname.rpartition(".")[0] == name'),
    "eval() is taken to freeze a module": (
        "            p.requires_grad_(False)", "            model.eval()"),
    "the parameters are detached, which leaves them training": (
        "            p.requires_grad_(False)", "            p.detach()"),
}


def _prediction(key: str, wrong: bool) -> Change:
    return f'"{key}": {not wrong},', f'"{key}": {wrong},'


PREDICTIONS: dict[str, Change] = {
    "eval() turns grad mode off (row k)": _prediction("k", False),
    "a new thread inherits no_grad (row j)": _prediction("j", False),
    "inference_mode(False) leaves the mode alone (row i)": _prediction("i", False),
    "a tensor made under no_grad poisons later operations (row d)": _prediction("d", False),
    "a frozen model's output never requires grad (row m)": _prediction("m", False),
    "no_grad forbids a new leaf from requiring grad (row n)": _prediction("n", False),
    "detach() keeps requires_grad (row e)": _prediction("e", True),
}

PROFILER_STACK: dict[str, Change] = {
    "the parent is the previous event, not the innermost open one": (
        "parent = self._open[-1] if self._open else None",
        "parent = len(self.events) - 1 if self.events else None"),
    "the parent is the depth of the stack, not an index": (
        "parent = self._open[-1] if self._open else None",
        "parent = len(self._open) - 1 if self._open else None"),
    "exit closes the outermost open event": (
        "self.events[self._open.pop()].end", "self.events[self._open.pop(0)].end"),
    "exit closes the last event entered, open or not": (
        "self.events[self._open.pop()].end = self.clock()",
        "self._open.pop()\n        self.events[-1].end = self.clock()"),
    "record() does not exit when the block raises": (
        "        try:\n            yield\n        finally:\n            self.exit()",
        "        yield\n        self.exit()"),
    "record() swallows the exception": (
        "        try:\n            yield\n        finally:\n            self.exit()",
        "        try:\n            yield\n        except Exception:\n            pass\n"
        "        self.exit()"),
}
SELF_TIME: dict[str, Change] = {
    "the children are not subtracted": ("            result[e.parent] -= e.end - e.start\n",
                                        "            pass\n"),
    "every descendant is subtracted, grandchildren twice": (
        "        if e.parent is not None:\n            result[e.parent] -= e.end - e.start\n",
        "        ancestor = e.parent\n        while ancestor is not None:\n"
        "            result[ancestor] -= e.end - e.start\n"
        "            ancestor = events[ancestor].parent\n"),
    "the children's self times are subtracted instead of their totals": (
        "    for e in events:\n        if e.parent is not None:\n"
        "            result[e.parent] -= e.end - e.start\n",
        "    for i in reversed(range(len(events))):\n        if events[i].parent is not None:\n"
        "            result[events[i].parent] -= result[i]\n"),
    "the parent is taken to be the previous event": (
        "            result[e.parent] -= e.end - e.start\n",
        "            result[events.index(e) - 1] -= e.end - e.start\n"),
    "only the first child is subtracted": (
        "    for e in events:\n        if e.parent is not None:\n"
        "            result[e.parent] -= e.end - e.start\n",
        "    done = set()\n    for e in events:\n"
        "        if e.parent is not None and e.parent not in done:\n"
        "            done.add(e.parent)\n            result[e.parent] -= e.end - e.start\n"),
}
KEY_AVERAGES: dict[str, Change] = {
    "one row per name and parent": (
        "groups.get(event.name, (0, 0, 0))\n        groups[event.name] =",
        "groups.get((event.name, event.parent), (0, 0, 0))\n"
        "        groups[(event.name, event.parent)] ="),
    "averages per call instead of sums": (
        "return [Average(name, *sums) for name, sums in groups.items()]",
        "return [Average(name, c, s / c, t / c) for name, (c, s, t) in groups.items()]"),
    "the rows are sorted by name": (
        "for name, sums in groups.items()]", "for name, sums in sorted(groups.items())]"),
    "only the last event of a name is kept": (
        "(count + 1, self_total + self_time,\n                              total + ",
        "(1, self_time,\n                              "),
    "the total is the sum of the self times": (
        "total + event.end - event.start)", "total + self_time)"),
    "the count is a float": ("(count + 1, self_total", "(count + 1.0, self_total"),
}
TABLE: dict[str, Change] = {
    "percentages of the sum of the total times": (
        "everything = sum(a.self_total for a in averages)",
        "everything = sum(a.total for a in averages)"),
    "percentages and the total count only the rows row_limit keeps": (
        "everything = sum(a.self_total for a in averages)",
        "everything = sum(a.self_total for a in rows)"),
    "the rows are not sorted": (
        "rows = sorted(averages, key=keys[sort_by], reverse=True)[:row_limit]",
        "rows = list(averages)[:row_limit]"),
    "a unit is reached only above its threshold, not at it": ("if t >= scale:", "if t > scale:"),
    "the average is the self time per call": ("fmt(a.total / a.count)",
                                              "fmt(a.self_total / a.count)"),
    "ties are reversed by sorting ascending and then reversing": (
        "rows = sorted(averages, key=keys[sort_by], reverse=True)[:row_limit]",
        "rows = sorted(averages, key=keys[sort_by])[::-1][:row_limit]"),
}

TRACE: dict[str, Change] = {
    "shared nodes are visited again": (
        "            if next_node not in seen:\n                seen.add(next_node)\n"
        "                nodes.append(next_node)\n                stack.append(next_node)\n",
        "            nodes.append(next_node)\n            stack.append(next_node)\n"),
    "the edges are a set: a node using x twice gets one edge": (
        "    return nodes, edges", "    return nodes, list(dict.fromkeys(edges))"),
    "an edge is recorded only to a node not seen before": (
        "            edges.append((node, next_node))\n            if next_node not in seen:\n",
        "            if next_node not in seen:\n                edges.append((node, next_node))\n"),
    "the walk recurses, too deep for a long chain": (
        "    seen, stack = {t.grad_fn}, [t.grad_fn]\n    while stack:\n        node = stack.pop()\n"
        "        for next_node, _ in node.next_functions:\n            if next_node is None:\n"
        "                continue\n            edges.append((node, next_node))\n"
        "            if next_node not in seen:\n                seen.add(next_node)\n"
        "                nodes.append(next_node)\n                stack.append(next_node)\n",
        "\n    def visit(node):\n        for next_node, _ in node.next_functions:\n"
        "            if next_node is None:\n                continue\n"
        "            edges.append((node, next_node))\n            if next_node not in nodes:\n"
        "                nodes.append(next_node)\n                visit(next_node)\n\n"
        "    visit(t.grad_fn)\n"),
    "the nodes are listed from the leaves up, the root last": (
        "    return nodes, edges", "    return nodes[::-1], edges"),
    "nodes are told apart by name, so two MulBackward0 are one": (
        "            if next_node not in seen:\n                seen.add(next_node)\n",
        "            if next_node.name() not in seen:\n"
        "                seen.add(next_node.name())\n"),
}
LEAVES_BODY = ('    nodes, _ = trace(t)\n'
               '    return [node.variable for node in nodes if hasattr(node, "variable")]')
LEAVES: dict[str, Change] = {
    "the AccumulateGrad nodes are returned, not their tensors": (
        "return [node.variable for node in nodes", "return [node for node in nodes"),
    "a leaf is listed once per edge that reaches it": (
        LEAVES_BODY,
        '    _, edges = trace(t)\n'
        '    return [m.variable for _, m in edges if hasattr(m, "variable")]'),
    "a leaf that requires grad is taken to have no leaves": (
        "return [t] if t.requires_grad else []", "return []"),
    "a tensor that does not require grad is taken to be its own leaf": (
        "return [t] if t.requires_grad else []", "return [t]"),
    "the walk recurses, too deep for a long chain": (
        LEAVES_BODY,
        "    found, seen = [], set()\n\n    def visit(node):\n"
        "        if node is None or node in seen:\n            return\n        seen.add(node)\n"
        '        if hasattr(node, "variable"):\n            found.append(node.variable)\n'
        "        for next_node, _ in node.next_functions:\n            visit(next_node)\n\n"
        "    visit(t.grad_fn)\n    return found"),
}


def _row(key: str, right: str, wrong: str) -> Change:
    return f'"{key}": {right},', f'"{key}": {wrong},'


TABLE_01: dict[str, Change] = {
    "a result made under no_grad requires grad": _row("with no_grad(): a * b", "(False, True)",
                                                       "(True, False)"),
    "detach() keeps requires_grad": _row("a.detach()", "(False, True)", "(True, True)"),
    "an indexed element is a leaf": _row("a[0]", "(True, False)", "(True, True)"),
    "a result of a tensor without grad is not a leaf": _row("b * 2", "(False, True)",
                                                            "(False, False)"),
    "a module's parameter is not a leaf": _row("lin.weight", "(True, True)", "(True, False)"),
    "no_grad stops an existing leaf from requiring grad": _row("with no_grad(): a",
                                                               "(True, True)", "(False, True)"),
    "a module's output needs its input to require grad": _row("lin(b)", "(True, False)",
                                                              "(False, True)"),
}
TO_DOT: dict[str, Change] = {
    "the arrows point from the consumer to its input": (
        'f"    {ids[id(next_node)]} -> {ids[id(node)]}"',
        'f"    {ids[id(node)]} -> {ids[id(next_node)]}"'),
    "ids are made from names, so two ExpBackward0 are one": (
        'ids = {id(node): f"n{k}" for k, node in enumerate(nodes)}',
        "ids = {id(node): node.name() for node in nodes}"),
    "AccumulateGrad is drawn as a box, the others as ellipses": (
        '"ellipse" if hasattr(node, "variable") else "box"',
        '"box" if hasattr(node, "variable") else "ellipse"'),
    "a pair listed twice is drawn once": (
        "for node, next_node in edges:", "for node, next_node in dict.fromkeys(edges):"),
    "only nodes on an edge are drawn": (
        "    for node in nodes:\n        shape",
        "    for node in dict.fromkeys(n for e in edges for n in e):\n        shape"),
    "an undirected graph": ('lines = ["digraph {"]', 'lines = ["graph {"]'),
}
TOPOLOGICAL_BODY = (
    "    order, seen = [], {root}\n    stack = [(root, iter(root.next_functions))]\n"
        "    while stack:\n        node, children = stack[-1]\n        for child, _ in children:\n"
        "            if child is not None and child not in seen:\n                seen.add(child)\n"
        "                stack.append((child, iter(child.next_functions)))\n"
        "                break\n"
        "        else:  # every child is listed: now this node can be\n"
        "            stack.pop()\n            order.append(node)\n    order.reverse()\n")
TOPOLOGICAL_ORDER: dict[str, Change] = {
    "breadth-first order": (
        TOPOLOGICAL_BODY,
        "    order, seen, queue = [root], {root}, [root]\n    while queue:\n"
        "        node = queue.pop(0)\n        for child, _ in node.next_functions:\n"
        "            if child is not None and child not in seen:\n"
        "                seen.add(child)\n                order.append(child)\n"
        "                queue.append(child)\n"),
    "the walk recurses, too deep for a long chain": (
        TOPOLOGICAL_BODY,
        "    order, seen = [], {root}\n\n    def visit(node):\n"
        "        for child, _ in node.next_functions:\n"
        "            if child is not None and child not in seen:\n"
        "                seen.add(child)\n                visit(child)\n"
        "        order.append(node)\n\n    visit(root)\n    order.reverse()\n"),
    "a node reached by several paths is listed once per path": (
        "if child is not None and child not in seen:", "if child is not None:"),
    "None entries of next_functions are followed": (
        "if child is not None and child not in seen:", "if child not in seen:"),
    "the post-order is not reversed, so the root comes last": ("    order.reverse()\n", ""),
}
RUN_BACKWARD: dict[str, Change] = {
    "a gradient arriving by a second path overwrites the first": (
        "waiting[child] = waiting[child] + child_grad if child in waiting else child_grad",
        "waiting[child] = child_grad"),
    "only the first gradient to arrive is kept": (
        "waiting[child] = waiting[child] + child_grad if child in waiting else child_grad",
        "waiting.setdefault(child, child_grad)"),
    "gradients are summed in place, though one tensor may arrive on two edges": (
        "waiting[child] = waiting[child] + child_grad if child in waiting else child_grad",
        "if child in waiting:\n                    waiting[child] += child_grad\n"
        "                else:\n                    waiting[child] = child_grad"),
    "a node runs when any gradient arrives, not once all have": (
        "            if consumers[child] == 0:\n                ready.append(child)\n",
        "            if child_grad is not None:\n                ready.append(child)\n"),
    "a None gradient is not counted as delivered": (
        "else child_grad\n            consumers[child] -= 1\n",
        "else child_grad\n                consumers[child] -= 1\n"),
    "a leaf's .grad is set, not accumulated": (
        "        outs = node(waiting.pop(node, None))\n",
        '        if hasattr(node, "variable"):\n'
        "            node.variable.grad = waiting.pop(node, None)\n            outs = ()\n"
        "        else:\n            outs = node(waiting.pop(node, None))\n"),
    "the root's gradient is taken to be ones, whatever grad is": (
        "waiting = {root: grad}", "waiting = {root: minitorch.ones_like(grad)}"),
}


def _guess(key: str, right: str, wrong: str) -> Change:
    return f'"{key}": {right},', f'"{key}": {wrong},'


PREDICT_ROWS: dict[str, Change] = {
    "a second backward with retain_graph replaces .grad (row b)": _guess("b", "8.0", "4.0"),
    "a hook's return value is ignored (row f)": _guess("f", "30.0", "3.0"),
    "a removed hook still runs (row h)": _guess("h", "3.0", "30.0"),
    "autograd.grad also fills .grad (row j)": _guess("j", "None", "12.0"),
    "relu's slope at 0 is 1 (row k)": _guess("k", "0.0", "1.0"),
    "the second derivative of x³ is 3x² (row o)": _guess("o", "30.0", "75.0"),
    "grad of a grad works without create_graph (row p)": ('"o": 30.0, "p": "RuntimeError",',
                                                         '"o": 30.0, "p": 30.0,'),
    "a tensor without grad gets a .grad of None instead of an error (row c)": (
        '"c": "RuntimeError",', '"c": None,'),
}

FUNCTIONS: dict[str, Change] = {
    "tanh's derivative taken from the input, 1 - x², not from the output": (
        "ctx.save_for_backward(y)\n        return y", "ctx.save_for_backward(x)\n        return y"),
    "the backward forgets to multiply by grad_output": (
        "return grad_output * (1 - y * y)", "return 1 - y * y"),
    "tanh's derivative with the wrong sign": (
        "return grad_output * (1 - y * y)", "return grad_output * (y * y - 1)"),
    "the mask is taken from the output, though the slope may be negative": (
        "ctx.save_for_backward(x)\n        ctx.slope = slope\n"
        "        return minitorch.where(x > 0, x, x * slope)",
        "y = minitorch.where(x > 0, x, x * slope)\n        ctx.save_for_backward(y)\n"
        "        ctx.slope = slope\n        return y"),
    "the number argument gets no place in backward's result": (
        "grad_output * ctx.slope), None", "grad_output * ctx.slope)"),
    "the slope is applied on the positive side": (
        "where(x > 0, grad_output, grad_output * ctx.slope)",
        "where(x > 0, grad_output * ctx.slope, grad_output)"),
}
APPLY: dict[str, Change] = {
    "the output number of a multi-output node is taken to be 0": (
        "return (t.grad_fn, t._output_nr)", "return (t.grad_fn, 0)"),
    "non-tensor arguments get an edge too": (
        "tuple(edge_to(arg) for arg in args if isinstance(arg, Tensor))",
        "tuple(edge_to(arg) if isinstance(arg, Tensor) else (None, 0) for arg in args)"),
    "backward's gradients are not counted": (
        "        expected = len(self.is_tensor)\n"
        "        if len(grads) < expected or any(g is not None for g in grads[expected:]):\n"
        '            raise RuntimeError(f"function {self.name()} returned an incorrect '
        'number of "\n'
        '                               f"gradients (expected {expected}, got {len(grads)})")\n',
        ""),
    "only the tensor arguments are counted": (
        "expected = len(self.is_tensor)", "expected = sum(self.is_tensor)"),
    "forward runs with grad mode on": (
        "    with minitorch.no_grad():\n        output = fn_cls.forward(node, *args)",
        "    output = fn_cls.forward(node, *args)"),
    "every tensor argument is taken to need a gradient": (
        "is_tensor and arg.requires_grad for", "is_tensor for"),
    "a call is recorded even when no input requires grad": (
        "record = minitorch.is_grad_enabled() and any(node.needs_input_grad)",
        "record = minitorch.is_grad_enabled()"),
    "a leaf that requires grad gets no edge (only results have nodes)": (
        "    if t.requires_grad:\n        return (t._grad_accumulator(), 0)\n", ""),
}
LINEAR: dict[str, Change] = {
    "the bias gradient is not summed over the batch": (
        "grad_bias = grad_output.sum(0)", "grad_bias = grad_output"),
    "the bias gradient is summed over the features": (
        "grad_bias = grad_output.sum(0)", "grad_bias = grad_output.sum(1)"),
    "the bias gradient is the mean over the batch": (
        "grad_bias = grad_output.sum(0)", "grad_bias = grad_output.mean(0)"),
    "the weight gradient is transposed": (
        "grad_weight = grad_output.T @ x", "grad_weight = x.T @ grad_output"),
    "backward leaves out the gradients it does not compute": (
        "return grad_x, grad_weight, grad_bias",
        "return tuple(g for g in (grad_x, grad_weight, grad_bias) if g is not None)"),
    "forward adds the bias even when it is None": (
        "return out if bias is None else out + bias", "return out + bias"),
}

VERSIONED_SAVE: dict[str, Change] = {
    "the version is read when get() is called, so it never differs": (
        "        tensor, now = self.tensor, self.tensor._version\n",
        "        self.version = self.tensor._version\n"
        "        tensor, now = self.tensor, self.tensor._version\n"),
    "the versions are compared the wrong way": (
        "if now == self.version:", "if now >= self.version:"),
    "the two versions are swapped in the message": (
        "version {now}; expected version {self.version}",
        "version {self.version}; expected version {now}"),
    "a copy is kept, whose version never changes": (
        "self.tensor = tensor\n", "self.tensor = tensor.clone()\n"),
    "the message never says which output of which operation": (
        "{which} is at ", " is at "),
    "the output number is always 0": (
        "which is output {tensor._output_nr} of", "which is output 0 of"),
    "the tensor type is always FloatTensor": (
        "{TENSOR_TYPES[tensor.dtype]}", "minitorch.FloatTensor"),
}
CATCH_NOTES_BUG: dict[str, Change] = {
    "the class is plugged in only around backward": (
        "    with graph.use(saved_class):\n        x = minitorch.ones(1, 10, requires_grad=True)\n"
        "        y1 = x**2\n        with minitorch.no_grad():\n            x += 1\n"
        "            y2 = x**2\n        z = y1**2 + y2**2\n        try:\n",
        "    x = minitorch.ones(1, 10, requires_grad=True)\n    y1 = x**2\n"
        "    with minitorch.no_grad():\n        x += 1\n        y2 = x**2\n    z = y1**2 + y2**2\n"
        "    with graph.use(saved_class):\n        try:\n"),
    "the class is never plugged in": (
        "    with graph.use(saved_class):\n", "    if saved_class:\n"),
    "the error escapes instead of being returned": (
        "        try:\n            z.sum().backward()\n        except RuntimeError as error:\n"
        "            return str(error)\n",
        "        z.sum().backward()\n"),
    "the exception is returned, not its message": ("return str(error)", "return error"),
    "the step is taken with grad on": (
        "        with minitorch.no_grad():\n            x += 1\n            y2 = x**2\n",
        "        x += 1\n        with minitorch.no_grad():\n            y2 = x**2\n"),
    "both squares are taken before the step": (
        "        y1 = x**2\n        with minitorch.no_grad():\n            x += 1\n"
        "            y2 = x**2\n",
        "        y1 = x**2\n        y2 = x**2\n        with minitorch.no_grad():\n"
        "            x += 1\n"),
}
FIXED_CELL: dict[str, Change] = {
    "the step goes through .data instead of saving a clone": (
        "    y1 = x.clone() ** 2  # pow saves the clone, which the step does not touch\n"
        "    with minitorch.no_grad():\n        x += 1\n",
        "    y1 = x ** 2\n    with minitorch.no_grad():\n        x.data += 1\n"),
    "y1 is computed after the step": (
        "    y1 = x.clone() ** 2  # pow saves the clone, which the step does not touch\n"
        "    with minitorch.no_grad():\n        x += 1\n",
        "    with minitorch.no_grad():\n        x += 1\n    y1 = x.clone() ** 2\n"),
    "y2 is computed with grad on": (
        "        x += 1\n        y2 = x**2\n", "        x += 1\n    y2 = x**2\n"),
    "the step rebinds x instead of changing it": ("        x += 1\n", "        x = x + 1\n"),
    "detach() instead of clone(): y1 shares x's version and needs no grad": (
        "y1 = x.clone() ** 2", "y1 = x.detach() ** 2"),
    "the notes' cell unchanged: pow saves x itself": ("y1 = x.clone() ** 2", "y1 = x ** 2"),
}
SCALED_BACKWARD: dict[str, Change] = {
    "the hook is never removed": (
        "    try:\n        loss.backward()\n    finally:\n        handle.remove()\n",
        "    loss.backward()\n"),
    "the hook is not removed when backward raises": (
        "    try:\n        loss.backward()\n    finally:\n        handle.remove()\n",
        "    loss.backward()\n    handle.remove()\n"),
    "the scaled gradient is returned, not the one that arrived": (
        "arrived.append(grad)", "arrived.append(grad * factor)"),
    "the hook returns nothing, expecting its assignment to count": (
        "        return grad * factor\n", "        grad = grad * factor\n"),
    "the hook is put on the loss, not on t": (
        "handle = t.register_hook(scale)", "handle = loss.register_hook(scale)"),
    "the hook scales the gradient in place": (
        "        arrived.append(grad)\n        return grad * factor\n",
        "        arrived.append(grad)\n        grad.mul_(factor)\n        return grad\n"),
}
NUMERICAL_JACOBIAN: dict[str, Change] = {
    "a forward difference": (
        "(f_at(flat + step) - f_at(flat - step)).reshape(-1) / (2 * eps)",
        "(f_at(flat + step) - f_at(flat)).reshape(-1) / eps"),
    "the central difference is divided by eps": ("/ (2 * eps))", "/ eps)"),
    "the Jacobian is transposed": (
        "np.array(rows).reshape(flat.size, -1)", "np.array(rows).reshape(flat.size, -1).T"),
    "every element is moved at once": (
        "        step = np.zeros_like(flat)\n        step[r] = eps\n",
        "        step = np.full_like(flat, eps)\n"),
    "the moved copies are float32, whatever x's dtype": (
        "dtype=x.dtype)", "dtype=minitorch.float32)"),
}
MY_GRADCHECK: dict[str, Change] = {
    "the tolerance is relative to the analytical side": (
        "atol + rtol * np.abs(n)", "atol + rtol * np.abs(a)"),
    "no absolute tolerance": ("atol + rtol * np.abs(n)", "rtol * np.abs(n)"),
    "the analytical Jacobian is transposed": ("jacobian_[:, k] =", "jacobian_[k, :] ="),
    "the pair is numbered among all inputs": (
        "with respect to input {number}", "with respect to input {j}"),
    "only the first output is checked": (
        "for i, output in enumerate(outputs):", "for i, output in enumerate(outputs[:1]):"),
    "every tensor input is checked, also those that do not require grad": (
        "if isinstance(x, minitorch.Tensor) and x.requires_grad]",
        "if isinstance(x, minitorch.Tensor)]"),
}
FAST_GRADCHECK: dict[str, Change] = {
    "a forward difference": (
        "(f_at(values + step) - f_at(values - step)) / (2 * eps)",
        "(f_at(values + step) - f_at(values)) / eps"),
    "the central difference is divided by eps": (
        "f_at(values - step)) / (2 * eps)", "f_at(values - step)) / eps"),
    "the absolute tolerance is not scaled by sum(u)·sum(v)": (
        "atol * u.sum() * v.sum()", "atol"),
    "the tolerance is relative to the analytical side": (
        "rtol * abs(numerical)", "rtol * abs(analytical)"),
    "fast mode differentiates one element at a time": (
        "    step = eps * u.reshape(shape)\n"
        "    numerical = float(v @ (f_at(values + step) - f_at(values - step)) / (2 * eps))\n",
        "    numerical = 0.0\n    for r in range(u.size):\n"
        "        step = np.zeros(u.size)\n        step[r] = eps\n"
        "        step = step.reshape(shape)\n"
        "        numerical += u[r] * float(v @ (f_at(values + step) - f_at(values - step))\n"
        "                                  / (2 * eps))\n"),
}
DUMMY_BN_FORWARD: dict[str, Change] = {
    "the unbiased variance": ("unbiased=False", "unbiased=True"),
    "the batch statistics are detached": (
        "mean_val = x.mean([0, 2, 3])", "mean_val = x.detach().mean([0, 2, 3])"),
    "the statistics are taken per sample, not per channel": (
        "mean_val = x.mean([0, 2, 3])", "mean_val = x.mean([1, 2, 3])"),
    "eps is added outside the square root": (
        "minitorch.sqrt(var_val[None, ..., None, None] + eps)",
        "(minitorch.sqrt(var_val[None, ..., None, None]) + eps)"),
    "the given statistics are ignored in eval mode": (
        "    if mean_val is None:\n        mean_val = x.mean([0, 2, 3])\n"
        "    if var_val is None:\n        var_val = x.var([0, 2, 3], unbiased=False)\n",
        "    mean_val = x.mean([0, 2, 3])\n    var_val = x.var([0, 2, 3], unbiased=False)\n"),
    "x is divided by the variance, not the standard deviation": (
        "minitorch.sqrt(var_val[None, ..., None, None] + eps)",
        "(var_val[None, ..., None, None] + eps)"),
}


def _case(dtype: str, eps: str, right: bool) -> Change:
    return f'("{dtype}", {eps}): {right},', f'("{dtype}", {eps}): {not right},'


EPS_PREDICTIONS: dict[str, Change] = {
    "a smaller eps is always more accurate, also in float32": _case("float32", "1e-5", False),
    "float64 never fails, however small eps": _case("float64", "1e-14", False),
    "a large eps is fine for a smooth function": _case("float64", "0.3", False),
    "float32 fails at any eps": _case("float32", "1e-2", True),
    "1e-10 is below float64's precision": _case("float64", "1e-10", True),
}
MY_HESSIAN: dict[str, Change] = {
    "the gradient is taken without create_graph": (
        "minitorch.autograd.grad(f(x), x, create_graph=True)",
        "minitorch.autograd.grad(f(x), x)"),
    "every row is the gradient of the summed gradient": (
        "minitorch.autograd.grad(g[i], x, retain_graph=True)[0]",
        "minitorch.autograd.grad(g.sum(), x, retain_graph=True)[0]"),
    "the graph of the gradient is not retained between rows": (
        "minitorch.autograd.grad(g[i], x, retain_graph=True)[0]",
        "minitorch.autograd.grad(g[i], x)[0]"),
    "x is used as given, without requires_grad": (
        "    x = x.detach().requires_grad_()\n", ""),
    "the gradient of the whole gradient vector at once": (
        "[minitorch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(x.numel())]",
        "[minitorch.autograd.grad(g, x, retain_graph=True)[0] for i in range(x.numel())]"),
}
# 05_inplace, exercise 5 (issue #23): one wrong prediction per submission.
DEBUG_PREDICTIONS: dict[str, Change] = {
    "anomaly mode blames the last line before the error, not the node that saved x (row b)": (
        '"b": "PowBackward0"', '"b": "ExpBackward0"'),
    "anomaly mode taken to change the error, not to name the node (row c)": (
        '"c": "ExpBackward0"', '"c": "RuntimeError"'),
    "the node whose gradient is inf is blamed, not the one that makes it nan (row e)": (
        '"e": "AbsBackward0"', '"e": "SqrtBackward0"'),
    "x * x packs x once, not once per operand (row f)": ('"f": 2,', '"f": 1,'),
    "unpack hooks taken to run only inside their with block (row j)": ('"j": 1,', '"j": 0,'),
    "every second backward taken to need retain_graph (row m)": (
        '"m": -2.0,', '"m": "RuntimeError",'),
    "a second thread's backward through a shared graph taken to work (row o)": (
        '"o": 1,', '"o": 0,'),
    "autograd.grad in threads taken to accumulate into w.grad (row q)": (
        '"q": None,', '"q": 12.0,'),
}
# 06_gradcheck, exercise 7 (issue #23): one wrong prediction per submission.
FUNCTIONAL_PREDICTIONS: dict[str, Change] = {
    "a Jacobian laid out input dims first (row c)": ('"c": (3, 2, 3)', '"c": (2, 3, 3)'),
    "vjp taken to pick a column of J, not a row (row f)": ('"f": 9.0', '"f": 12.0'),
    "jvp taken to pick a row of J, not a column (row g)": ('"g": 12.0', '"g": 9.0'),
    "a detached factor still differentiated (row h)": ('"h": 0.0', '"h": 1.0'),
    "strict=True taken to refuse any detached part (row i)": ('"i": 3.0', '"i": "RuntimeError"'),
    "a backward that detaches what it saved taken to pass gradgradcheck (row k)": (
        '"k": False', '"k": True'),
    "a backward that detaches taken to fail the first-order gradcheck too (row j)": (
        '"j": True', '"j": False'),
}

CORPUS: dict[str, dict[str, dict[str, Change]]] = {
    "01_dag": {"trace": TRACE, "leaves": LEAVES, "table": TABLE_01, "to_dot": TO_DOT},
    "02_manual_backward": {"topological_order": TOPOLOGICAL_ORDER, "run_backward": RUN_BACKWARD,
                           "predict_rows": PREDICT_ROWS},
    "03_custom_function": {"functions": FUNCTIONS, "apply": APPLY, "linear": LINEAR},
    "04_grad_modes": {"grad_modes": GRAD_MODES, "freeze": FREEZE, "predictions": PREDICTIONS},
    "05_inplace": {"versioned_save": VERSIONED_SAVE, "catch_notes_bug": CATCH_NOTES_BUG,
                   "fixed_cell": FIXED_CELL, "scaled_backward": SCALED_BACKWARD,
                   "debug_predictions": DEBUG_PREDICTIONS},
    "06_gradcheck": {"numerical_jacobian": NUMERICAL_JACOBIAN, "my_gradcheck": MY_GRADCHECK,
                     "fast_gradcheck": FAST_GRADCHECK, "dummy_bn_forward": DUMMY_BN_FORWARD,
                     "eps_predictions": EPS_PREDICTIONS, "my_hessian": MY_HESSIAN,
                     "functional_predictions": FUNCTIONAL_PREDICTIONS},
    "07_profiler": {"profiler_stack": PROFILER_STACK, "self_time": SELF_TIME,
                    "key_averages": KEY_AVERAGES, "table": TABLE},
}
# An exercise the instructions build on another: leaves() calls the student's trace(), so a
# wrong trace may cost leaves its points too (a cascade still open, issue #17).
BUILDS_ON: dict[str, set[str]] = {"trace": {"leaves"}}
ENTRIES = [(chapter, exercise, name) for chapter, exercises in CORPUS.items()
           for exercise, answers in exercises.items() for name in answers]
# Expected against got, in a check's message ("expected: ... got: ...", "expected 3, got 21")
# or a known mistake named.
# A check's message, or the grader's verdict on observations: where they differ and what the
# student's code gave there (never the solution's value: hidden tests hold no answers).
EXPECTED_VS_GOT = re.compile(r"expected:? .*\n?.*got:? |this is what you get when|"
                             r"differ at: .*\(got: ")


def exercises_of(nb: nbformat.NotebookNode) -> dict[str, list[str]]:
    """Each answer cell's grade_id, with the grade_ids of the test cells after it."""
    found: dict[str, list[str]] = {}
    current = None
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            current = meta["grade_id"]
            found[current] = []
        elif meta.get("grade") and current:
            found[current].append(meta["grade_id"])
    return found


def student_id(exercise: str, name: str) -> str:
    return f"{exercise}-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60]


class Graded:
    """A chapter's corpus, graded: grades and feedback per student id."""

    def __init__(self, root: CourseRoot, chapter: str) -> None:
        solution = root.solution()
        sources = {cell.metadata.nbgrader.grade_id: cell.source for cell in solution.cells
                   if cell.metadata.get("nbgrader", {}).get("solution")}
        release = root.release()
        submissions = {"solution": solution, "release": release,
                       "passified": passify_tests(release)}
        shown = []  # the students whose feedback HTML is made and read
        for exercise, answers in CORPUS[chapter].items():
            for name, (old, new) in answers.items():
                assert sources[exercise].count(old) == 1, (exercise, name)
                wrong = sources[exercise].replace(old, new)
                submissions[student_id(exercise, name)] = edit_cells(solution, {exercise: wrong})
            shown.append(student_id(exercise, next(iter(answers))))
        self.exercises = exercises_of(solution)
        self.grades = root.grade_many(submissions)
        self.html = root.feedback_many(shown)
        self.invalid_release = root.validate("release", invert=True)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Graded]:
    """Grade a chapter's corpus on first use; later tests of the chapter read the result."""
    done: dict[str, Graded | BaseException] = {}

    def grade(chapter: str) -> Graded:
        if chapter not in done:  # graded once, also when grading fails
            try:
                root = CourseRoot(tmp_path_factory.mktemp(chapter), SOLUTIONS / f"{chapter}.py")
                done[chapter] = Graded(root, chapter)
            except Exception as error:  # re-raised by every test that needs it
                done[chapter] = error
        if isinstance(done[chapter], BaseException):
            raise done[chapter]
        return done[chapter]

    return grade


def _feedback_errors(grades: Grades, grade_ids: list[str]) -> str:
    """The error text the feedback shows in the named cells (the scrubbed tracebacks)."""
    nb, _ = HideHiddenTests().preprocess(copy.deepcopy(grades.notebook), {})
    plain = re.compile(r"\x1b\[[0-9;]*m")
    return "\n".join(plain.sub("", line) for cell in nb.cells
                     if cell.metadata.get("nbgrader", {}).get("grade_id") in grade_ids
                     for output in cell.get("outputs", []) if output.output_type == "error"
                     for line in output.traceback)


def _html_text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("chapter", CORPUS)
def test_the_corpus_has_five_wrong_answers_per_exercise(chapter: str) -> None:
    source = read_source(SOLUTIONS / f"{chapter}.py")
    answers = [cell.metadata["nbgrader"]["grade_id"] for cell in source.cells
               if cell.metadata.get("nbgrader", {}).get("solution")]
    assert sorted(CORPUS[chapter]) == sorted(answers)
    assert all(len(wrong) >= 5 for wrong in CORPUS[chapter].values())


def test_every_chapter_has_a_corpus() -> None:
    assert sorted(CORPUS) == sorted(find_sources(SOLUTIONS))


@pytest.mark.parametrize("chapter", CORPUS)
def test_the_solution_keeps_full_marks_and_the_release_scores_zero(
        graded: Callable[[str], Graded], chapter: str) -> None:
    corpus = graded(chapter)
    solution, release = corpus.grades["solution"], corpus.grades["release"]
    assert solution.total == solution.max_total > 0, solution.errors()
    assert release.total == 0, release.by_grade_id
    # What a student sees: the release fails every test cell, even before hidden tests return.
    assert corpus.invalid_release == {}
    # Test cells edited to `pass` are restored from the gradebook, hidden tests included.
    assert corpus.grades["passified"].total == 0, corpus.grades["passified"].by_grade_id


@pytest.mark.parametrize(("chapter", "exercise", "name"), ENTRIES)
def test_a_wrong_answer_loses_points_on_its_exercise_only(
        graded: Callable[[str], Graded], chapter: str, exercise: str, name: str) -> None:
    corpus = graded(chapter)
    grades = corpus.grades[student_id(exercise, name)]
    full = corpus.grades["solution"].by_grade_id
    own = corpus.exercises[exercise] + [cell for later in BUILDS_ON.get(exercise, ())
                                        for cell in corpus.exercises[later]]
    lost = {grade_id for grade_id, score in grades.by_grade_id.items() if score < full[grade_id]}
    assert lost and lost <= set(own), (lost, grades.errors())

    text = _feedback_errors(grades, sorted(lost))
    assert EXPECTED_VS_GOT.search(text), text
    assert "HIDDEN TESTS" not in text
    if student_id(exercise, name) in corpus.html:
        shown = next(line for line in text.splitlines()
                     if re.search(r"first difference|this is what you get|got:? ", line))
        assert shown.strip() in _html_text(corpus.html[student_id(exercise, name)])
