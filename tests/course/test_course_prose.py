"""Prose that cannot drift: what a chapter's text quotes (a number, a printed line, an error)
is what the cell next to it prints.

Each chapter's solution runs once, as a student runs it.
Every entry of QUOTES names a phrase of a markdown cell and what the code cell just before or
just after that markdown cell must print; a regular expression where the number itself
changes from run to run (the profiler's times) but the relation the text states must hold.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from course.integrity import SandboxedKernelManager
from tools.build_course import SOLUTIONS, read_source

# (chapter, phrase in the text, printed by a neighbouring cell: a string, or a compiled regex)
QUOTES = [
    ("01_dag", "`3.7183`", "tensor(3.7183, grad_fn=<AddBackward0>)"),
    ("01_dag", "0.5·e = 1.3591", "tensor(1.3591) tensor(5.4366) tensor(1.)"),
    ("01_dag", "both print\n# `1.5024`", "tensor([1.5024,"),
    ("01_dag", "values and **no history**", "detach: False True None"),
    ("01_dag", "a derivative worked out by hand", "autograd agrees with the hand derivative: True"),
    ("01_dag", "does not change `x`", "same object: False | leaf: False <MulBackward0"),
    ("01_dag", "backward fills *its*", "= 18·leaf: tensor(18.)"),
    ("02_manual_backward", "24 and 40, as in the notes", "tensor([24.]"),
    ("02_manual_backward", "`tensor([24.], grad_fn=<MulBackward0>)`",
     "tensor([24.], grad_fn=<MulBackward0>)"),
    ("02_manual_backward", "But `D.grad_fn` ran **twice**", "D.grad_fn ran 2 times"),
    ("02_manual_backward", "$3x^2 = 75$, then $6x = 30$", "(tensor(30.),)"),
    ("02_manual_backward", "its gradient at 0 comes out 0", "tensor(0.)"),
    ("02_manual_backward", "`allow_unused=True` (notes 001) gives `None`",
     "(tensor(1.3591), None)"),
    ("02_manual_backward", "can be walked\n# again", "x + 1, backward twice: tensor(2.)"),
    ("02_manual_backward", "one backward of their sum",
     "one backward of loss1 + loss2: tensor(5.)"),
    ("05_inplace", "`inf · 0` is `nan`", "without anomaly mode: x.grad = tensor(nan)"),
    ("05_inplace", "raises at once, naming the node",
     "RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output."),
    ("05_inplace", "by 0 the body is frozen",
     re.compile(r"factor \+0: .*body\.weight\.grad\[0, :2\] = tensor\(\[0\., 0\.\]\)")),
    ("03_custom_function", "`a.grad` is e¹ = 2.7183", "tensor([2.7183])"),
    ("04_grad_modes", "with grad\n# mode *on*, even inside `no_grad`",
     "grad mode on: True | recorded: True"),
    ("04_grad_modes", "only `4x³ = 4` is left",
     "tensor([[4., 4., 4., 4., 4., 4., 4., 4., 4., 4.]])"),
    ("04_grad_modes", "depends on its own input alone",
     re.compile(r"eval: the sample's output in two batches: (tensor\(\[[^]]+\]\)) \1")),
    ("04_grad_modes", "unless every backward says `retain_graph=True`",
     "branch 2.0: RuntimeError: Trying to backward through the graph a second time"),
    ("06_gradcheck", "**fail** with the\n# smaller `eps=1e-4`", "eps=0.0001  Sigmoid.apply: fail"),
    ("06_gradcheck", "`[2., 1., 0.]`, in `vjp`, and column 1, `[0., 1., 0.]`",
     "vjp: tensor([2., 1., 0.])  jvp: tensor([0., 1., 0.])"),
    ("06_gradcheck", "has a Jacobian of\n# zeros", "tensor([[0., 0., 0.],"),
    ("06_gradcheck", "raise instead, to tell\n# you the function ignores its input",
     "RuntimeError: Output 0 of the user-provided function does not require gradients."),
    ("06_gradcheck", "passes at both steps, and at torch's default `eps=1e-6`",
     "0.001 True True\n0.0001 True True\n1e-06 True True"),
    ("06_gradcheck", "on the notes' Sigmoid and on the wrong\n# `SquareWrongSign`",
     re.compile(r"Sigmoid: +\(True, .*\nSquareWrongSign: \(False,")),
    ("07_profiler", "`AddmmBackward0` calls `aten::t` and `aten::mm`, in torch and",
     re.compile(r"\ninside AddmmBackward0: \['aten::mm', 'aten::t'\]")),
    ("07_profiler", "the wrapper's total includes the node's time",
     re.compile(r"evaluate_function: AddmmBackward0: self [\d.]+ ms of [\d.]+ ms total")),
]


def _text(output: nbformat.NotebookNode) -> str:
    if output.output_type == "stream":
        return output.text
    if output.output_type == "error":
        return f"{output.ename}: {output.evalue}"
    return output.get("data", {}).get("text/plain", "")


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, nbformat.NotebookNode]:
    """Each chapter named in QUOTES, executed once (lazily, on first use)."""
    cache: dict[str, nbformat.NotebookNode] = {}
    folder = tmp_path_factory.mktemp("prose")

    class Lazy(dict):
        def __missing__(self, chapter: str) -> nbformat.NotebookNode:
            nb = read_source(SOLUTIONS / f"{chapter}.py")
            NotebookClient(nb, timeout=300, kernel_name="python3",
                           kernel_manager_class=SandboxedKernelManager,  # (its prompt client:
                           # a stock one missed a reply after 04's interact and waited 300 s)
                           resources={"metadata": {"path": str(folder)}}).execute()
            self[chapter] = nb
            return nb

    return Lazy(cache)


def neighbours(nb: nbformat.NotebookNode, phrase: str) -> str:
    """The outputs of the code cells just before and just after the one markdown cell that
    holds ``phrase``."""
    cells = nb.cells
    found = [i for i, cell in enumerate(cells)
             if cell.cell_type == "markdown" and phrase in "# " + cell.source.replace("\n", "\n# ")]
    assert len(found) == 1, f"{phrase!r} is in {len(found)} markdown cells, expected 1"
    (i,) = found
    near = [j for j in (i - 1, i + 1) if 0 <= j < len(cells) and cells[j].cell_type == "code"]
    return "\n".join(_shown(cells[j].get("outputs", [])) for j in near)


def _shown(outputs: list) -> str:
    """A cell's outputs as JupyterLab shows them: a kernel may send one print in several
    stream messages (it flushes on a timer), which the page joins back together."""
    texts: list[str] = []
    previous = None
    for out in outputs:
        stream = out.get("name") if out.output_type == "stream" else None
        if stream is not None and stream == previous:
            texts[-1] += _text(out)
        else:
            texts.append(_text(out))
        previous = stream
    return "\n".join(texts)


@pytest.mark.slow  # executes five chapters: about 40 seconds
@pytest.mark.parametrize(("chapter", "phrase", "printed"), QUOTES,
                         ids=[f"{c}:{p[:30]}" for c, p, _ in QUOTES])
def test_quoted_text_is_what_the_cell_prints(
    executed: dict, chapter: str, phrase: str, printed: str | re.Pattern
) -> None:
    shown = neighbours(executed[chapter], phrase)
    if isinstance(printed, re.Pattern):
        assert printed.search(shown), f"{printed.pattern!r} not in:\n{shown}"
    else:
        assert printed in shown, f"{printed!r} not in:\n{shown}"


def test_every_quoted_chapter_exists() -> None:
    assert {chapter for chapter, _, _ in QUOTES} <= {p.stem for p in Path(SOLUTIONS).glob("*.py")}
