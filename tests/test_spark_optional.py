"""ranklens works without pyspark: only ``ranklens.spark`` needs it, and says how to get it."""

from __future__ import annotations

import subprocess
import sys

from ranklens import demo

BLOCK_PYSPARK = "import sys; sys.modules['pyspark'] = None\n"


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK_PYSPARK + code], capture_output=True,
                          text=True, timeout=120, check=False)


def test_ranklens_imports_and_evaluates_without_pyspark() -> None:
    paths = demo.paths()
    done = run_python(
        "import ranklens, ranklens.cli, ranklens.compare.analysis, ranklens.metrics, ranklens.io\n"
        f"code = ranklens.cli.main(['evaluate', {str(paths['run_a'])!r}, '--qrels', "
        f"{str(paths['qrels'])!r}])\n"
        "assert 'pyspark' not in {m for m in sys.modules if sys.modules[m] is not None}\n"
        "sys.exit(code)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("nDCG@10")


def test_spark_engine_without_pyspark_says_what_to_install() -> None:
    paths = demo.paths()
    done = run_python(
        "import ranklens.cli\n"
        f"sys.exit(ranklens.cli.main(['evaluate', {str(paths['run_a'])!r}, '--qrels', "
        f"{str(paths['qrels'])!r}, '--engine', 'spark']))")
    assert done.returncode == 2
    assert "pip install 'ranklens[spark]'" in done.stderr
    imported = run_python("import ranklens.spark")
    assert "ranklens.spark needs pyspark" in imported.stderr
