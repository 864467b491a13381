"""Tutorial-style autograd programs (tests/tutorial_programs/) print the same with minitorch
standing in for torch as with torch itself, printed names included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.oracle import avx512_bits

HERE = Path(__file__).parent / "tutorial_programs"
PROGRAMS = sorted(p.name for p in HERE.glob("p*.py"))


def _output(lib: str, program: str) -> str:
    done = subprocess.run([sys.executable, str(HERE / "_run.py"), lib, str(HERE / program)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{program} failed under {lib}:\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.parametrize("program", PROGRAMS)
def test_program_prints_the_same_as_with_torch(program: str) -> None:
    if "Conv" in (HERE / program).read_text():
        avx512_bits(f"{program}'s convolutions (oneDNN's kernels)")
    assert _output("minitorch", program) == _output("torch", program)
