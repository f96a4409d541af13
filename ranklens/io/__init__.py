"""Files in, typed tables out: runs, judgements, per-query metric tables and segment maps.

Every reader takes a path, bytes or an upload, detects the format from the content (override
with ``format=``), and returns the result with a ``ReadSummary``. Anything it cannot read whole
is an ``InputError`` naming the source, the line, the problem and the fix.
"""

from ranklens.io.errors import InputError
from ranklens.io.runs import QrelsRead, RunRead, read_qrels, read_run
from ranklens.io.summary import ReadSummary, SetAside

__all__ = [
    "InputError",
    "QrelsRead",
    "ReadSummary",
    "RunRead",
    "SetAside",
    "read_qrels",
    "read_run",
]
