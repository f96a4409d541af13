"""Benchmark: CPU seconds one Compare-page rerun costs the server, on the demo.

Answers "how much of a core does one interaction take", the figure that turns the load test's
wall times (``bench_load.py``, dominated by whatever else runs on the machine) into a
capacity estimate. Runs the app in Streamlit's AppTest (the script in this process, no
browser) and measures ``time.process_time`` (every thread of the process) of the first run
and of each rerun after a change: the segment column (two other values), metric AP added,
back to the default metrics, the candidate looked into (the last, then the first);
``--rounds`` times. AppTest reruns the whole script even for a widget inside a fragment (the
candidate), so that step is the whole page's cost; ``bench_page.py`` measures the fragment's
in a browser.

    .venv/bin/python bench/bench_rerun_cpu.py [--rounds 3]

Prints; asserts nothing but that no run raised. Reruns read the app's caches as a server's
would (the demo's inputs are parsed once, each metric scored once).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parent.parent / "app.py"


def timed_run(at: AppTest) -> float:
    """CPU seconds of one script run of ``at``; fails if the page raised."""
    start = time.process_time()
    at.run()
    cpu = time.process_time() - start
    assert not at.exception, [e.value for e in at.exception]
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} (CPU seconds do not count other work)")
    at = AppTest.from_file(str(APP), default_timeout=600)
    print(f"first run: {timed_run(at):.2f} CPU-s")

    def segment_by(value: str) -> Callable[[], object]:
        return lambda: next(s for s in at.selectbox if s.label == "Segment by").set_value(value)

    def metrics(values: list[str]) -> Callable[[], object]:
        return lambda: at.multiselect(key="metrics:runs").set_value(values)

    segment = next(s for s in at.selectbox if s.label == "Segment by")
    others = [c for c in segment.options if c != segment.value][:2]
    default = list(at.multiselect(key="metrics:runs").value)
    def look_into(index: int) -> Callable[[], object]:
        return lambda: next(r for r in at.radio if r.label == "Look into").set_value(index)

    candidates = list(next(r for r in at.radio if r.label == "Look into").options)
    steps: list[tuple[str, Callable[[], object]]] = []
    for _ in range(args.rounds):
        steps += [(f"segment by {value}", segment_by(value)) for value in others]
        steps += [("add AP", metrics([*default, "AP"])), ("default metrics", metrics(default))]
        # the radio's values are the runs' positions: 1 is the first candidate
        steps += [(f"look into candidate {i}", look_into(i)) for i in (len(candidates), 1)]
    costs = []
    for name, change in steps:
        change()
        costs.append(timed_run(at))
        print(f"{name}: {costs[-1]:.2f} CPU-s")
    print(f"reruns: n={len(costs)}, median {statistics.median(costs):.2f}, "
          f"min {min(costs):.2f}, max {max(costs):.2f} CPU-s")
    by_kind: dict[str, list[float]] = {}
    for (name, _), cost in zip(steps, costs, strict=True):
        by_kind.setdefault(name.split(" by ")[0].split(" candidate")[0], []).append(cost)
    for kind, values in by_kind.items():
        print(f"  {kind}: median {statistics.median(values):.3f} CPU-s (n={len(values)})")


if __name__ == "__main__":
    main()
