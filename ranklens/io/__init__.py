"""Files in, typed tables out: runs, judgements, per-query metric tables and segment maps.

Every reader takes a path, bytes or an upload, detects the format from the content (override
with ``format=``), and returns the result with a ``ReadSummary``. Anything it cannot read whole
is an ``InputError`` naming the source, the line, the problem and the fix.
"""

from ranklens.io.detect import FORMATS
from ranklens.io.errors import InputError
from ranklens.io.per_query import PerQueryRead, read_per_query
from ranklens.io.runs import QrelsRead, RunRead, read_qrels, read_run
from ranklens.io.segments import SegmentMap, SegmentsRead, read_segments
from ranklens.io.summary import ReadSummary, SetAside

__all__ = [
    "FORMATS",
    "InputError",
    "PerQueryRead",
    "QrelsRead",
    "ReadSummary",
    "RunRead",
    "SegmentMap",
    "SegmentsRead",
    "SetAside",
    "read_per_query",
    "read_qrels",
    "read_run",
    "read_segments",
]
