"""Without numpy (the `analysis` extra), many rounds are refused with what to install, not a
traceback nor an hour of the standard library's loop; fewer rounds and `advise` (which
never needed it) still answer, and a large file of hands is answered line by line."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A machine without numpy: its import fails as a missing package's does, whatever is
# installed in the test's own environment.
WITHOUT_NUMPY = """
import sys

class NoNumpy:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoNumpy())
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _paigow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT_NUMPY, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_the_block_stands_in_for_a_machine_without_numpy() -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_NUMPY.replace(
        "from app.cli import main\nsys.exit(main(sys.argv[1:]))", "import numpy")],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "No module named 'numpy'" in done.stderr


def test_simulate_over_many_rounds_without_numpy_says_what_to_install() -> None:
    done = _paigow("simulate", "--hands", "1000000")
    assert done.returncode == 2 and done.stdout == ""
    assert "paigow simulate: 1,000,000 rounds" in done.stderr
    assert "numpy (the analysis extra) is not installed" in done.stderr
    assert "pip install 'paigow-station[analysis]'" in done.stderr
    assert "--hands 100000" in done.stderr
    assert "Traceback" not in done.stderr


def test_edge_without_numpy_says_what_to_install() -> None:
    done = _paigow("edge", "--precision", "1%")
    assert done.returncode == 2 and done.stdout == ""
    assert "paigow edge: 1,000,000 rounds a card" in done.stderr
    assert "pip install 'paigow-station[analysis]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_fewer_rounds_and_advise_answer_without_numpy() -> None:
    few = _paigow("simulate", "--hands", "2000", "--workers", "1", "--json")
    assert few.returncode == 0, few.stderr
    assert '"rounds": 2000' in few.stdout
    advice = _paigow("advise", "--samples", "500", "AS", "KD", "9H", "7C", "5D", "3S", "JK")
    assert advice.returncode == 0, advice.stderr
    assert "House Way" in advice.stdout


def test_a_large_file_of_hands_is_answered_without_numpy_as_with_it(tmp_path: Path) -> None:
    from app.commands.answer import VECTORS_FROM
    from app.core.cards import DECK

    rng = random.Random("no numpy")
    hands = tmp_path / "hands.txt"
    hands.write_text("".join(" ".join(str(c) for c in rng.sample(DECK, 7)) + "\n"
                             for _ in range(VECTORS_FROM + 10)))
    done = []
    for command in ([sys.executable, "-c", WITHOUT_NUMPY], [sys.executable, "-m", "app.cli"]):
        with open(hands, "rb") as source:
            done.append(subprocess.run([*command, "house-way", "--json"], stdin=source,
                                       cwd=ROOT, capture_output=True, text=True, timeout=600))
    without, with_numpy = done
    assert without.returncode == 0 and without.stderr == "", without.stderr
    assert without.stdout.count("\n") == VECTORS_FROM + 10
    assert without.stdout == with_numpy.stdout
