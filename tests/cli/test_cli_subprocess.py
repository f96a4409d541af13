"""The installed console script, run as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ranklens.compare.analysis import CompareSettings, build_report
from ranklens.io import InputFile

SCRIPT = Path(sys.executable).with_name("ranklens")


def _run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True,
                          timeout=300, check=False)


def test_console_script_json_equals_library(demo_paths: dict[str, Path]) -> None:
    done = _run("compare", demo_paths["run_a"], demo_paths["run_b"], "--qrels",
                demo_paths["qrels"], "--segments", f"{demo_paths['segments']}:length",
                "--format", "json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    files = {role: InputFile.from_path(role, demo_paths[role])
             for role in ("run_a", "run_b", "qrels", "segments")}
    expected = build_report(files["run_a"], files["run_b"], qrels=files["qrels"],
                            segments=files["segments"],
                            settings=CompareSettings(segment_column="length"))
    assert done.stdout == expected.to_json() + "\n"


def test_console_script_bad_input_exit_2_without_traceback(tmp_path: Path,
                                                            demo_paths: dict[str, Path]) -> None:
    bad = tmp_path / "qrels.txt"
    bad.write_text("q1 0 d1 1\nq1 0 d2 high\n")
    done = _run("evaluate", demo_paths["run_a"], "--qrels", bad)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("ranklens: error: ")
    assert "qrels.txt, line 2" in done.stderr


def test_console_script_mde() -> None:
    done = _run("mde", "--sd", "0.1", "--queries", "200")
    assert done.returncode == 0
    assert "0.0198" in done.stdout


_BLAS_THREADS = ("import os, sys\n"
                 "from ranklens.cli import main\n"
                 "with open(os.devnull, 'w') as sys.stdout:\n"
                 "    code = main(sys.argv[1:])\n"
                 "sys.stderr.write(f\"{code} {os.environ.get('OPENBLAS_NUM_THREADS')}\")\n")


def test_evaluate_alone_starts_numpy_without_blas_threads(demo_paths: dict[str, Path]) -> None:
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    said = {}
    for command in (["evaluate", demo_paths["run_a"], "--qrels", demo_paths["qrels"]],
                    ["mde", "--sd", "0.1", "--queries", "200"]):
        done = subprocess.run([sys.executable, "-c", _BLAS_THREADS, *map(str, command)],
                              capture_output=True, text=True, timeout=300, env=env, check=True)
        said[command[0]] = done.stderr
    assert said == {"evaluate": "0 1", "mde": "0 None"}


_MODULES_AFTER = ("import os, sys\n"
                  "from ranklens.cli import main\n"
                  "with open(os.devnull, 'w') as sys.stdout:\n"
                  "    code = main(sys.argv[1:])\n"
                  "sys.stderr.write(f\"{code} {'pandas' in sys.modules}\")\n")


def test_the_trec_eval_drop_in_does_not_import_pandas() -> None:
    """pandas takes about 0.3 s to import; ``pa.array`` of a Python list imports it, so the
    drop-in builds its strings from buffers (``ranklens.metrics.arrow.texts``). Under ``-c``
    with judged queries missing from the run (the placeholder rankings) too."""
    inputs = Path(__file__).resolve().parents[1] / "golden" / "trec_eval10" / "inputs"
    done = subprocess.run([sys.executable, "-c", _MODULES_AFTER, "evaluate", "-q", "-c", "-m",
                           "all_trec", str(inputs / "qrels.trec"), str(inputs / "run.trec")],
                          capture_output=True, text=True, timeout=300, check=True)
    assert done.stderr.splitlines()[-1] == "0 False"
