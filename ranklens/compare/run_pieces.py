"""A big run file scored a piece of whole queries at a time, for `load_inputs` with settings.

Answers what reading the whole file and scoring it answers for a comparison (a
``StreamedRun``: the per-query values of each treatment, the read's summary and record, the
tie facts, the ranking depths; and the run's health facts) with one piece of the file in
memory at a time (``ranklens.io.pieces``), so the peak does not grow with the file. It answers
``None`` whenever the pieces cannot stand for the file, and the caller reads it whole, which
says what is wrong in its own words: a query in two pieces, a piece read with a note or rows set
aside (comment lines, extra fields, a byte-order mark), blank lines, another format than a
TREC run, an input error, a run that shares no query with the judgements.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path

from ranklens import io
from ranklens.compare import coverage as cov
from ranklens.compare.assemble import input_record
from ranklens.compare.coverage import Treatment
from ranklens.compare.report import InputRecord
from ranklens.compare.scoring import ScoringKey, StreamedRun, score, scoring_key
from ranklens.compare.settings import CompareSettings
from ranklens.data import Qrels, Run
from ranklens.health.checks import RunFacts
from ranklens.health.piece_facts import PieceFacts
from ranklens.health.self_retrieval import without_self_retrieval
from ranklens.io import InputFile, build
from ranklens.io.input_file import file_sha256
from ranklens.io.pieces import query_pieces, read_piece
from ranklens.metrics import Evaluation
from ranklens.metrics.checks import TiedScores, tied_queries
from ranklens.metrics.evaluation_pieces import joined_evaluation
from ranklens.metrics.ties import has_ties
from ranklens.metrics.trec_lines import judged_and_answered

Scorings = Callable[[int], tuple[tuple[Treatment, tuple[str, ...]], ...]]
"""What a run of so many rows is scored for: treatments and their metrics
(``inputs.streamed_scorings``)."""


def run_pieces(given: object, max_bytes: int | None) -> list[tuple[int, int]] | None:
    """The pieces to read the run ``given`` by, or ``None`` to read it whole: bytes already in
    memory, a file over ``max_bytes`` (the whole read refuses it), one the reader reads as one
    block (its ids are kept otherwise), or one `query_pieces` does not cut."""
    if not isinstance(given, (str, Path)) or not Path(given).is_file():
        return None
    size = Path(given).stat().st_size
    if (max_bytes is not None and size > max_bytes) or size <= 2 * build.BLOCK_SIZE:
        return None
    return query_pieces(given)


def streamed_by_pieces(path: str | Path, pieces: list[tuple[int, int]], file: tuple[str, str],
                       labels: Callable[[Treatment], Qrels], settings: CompareSettings,
                       scorings: Scorings, columns: Mapping[str, str] | None = None
                       ) -> tuple[StreamedRun, RunFacts, bool] | None:
    """The run at ``path`` (``file``: its role and name) read piece by piece and scored against
    ``labels(treatment)`` for what ``scorings`` names for its rows, with its health facts and
    whether it has ties under the settings' order; ``None`` when the pieces cannot stand for
    the file (see the module)."""
    judged = labels("nonrelevant")
    rows = _data_lines(path)
    sums = _Sums(PieceFacts(rows, judged), set(judged.query_ids()), settings.order)
    planned = scorings(rows)
    try:
        for piece in pieces:
            data = read_piece(path, piece)
            sums.digest.update(data)
            run, summary = io.read_run(data, name=file[1], keep_ranks=True, columns=columns)
            del data
            kept = sums.add(run, summary, settings.drop_self_retrieval)
            if kept is None:
                return None
            for treatment, names in planned:
                sums.scored.setdefault((treatment, names), []).append(
                    _scored(kept, labels(treatment), names, settings, treatment))
    except (io.InputError, ValueError):
        return None
    facts = sums.facts.facts()
    wanted = scorings(sums.kept_rows)
    if facts is None or not sums.shared or not set(wanted) <= set(planned):
        return None
    summary = _summary(sums.summaries)
    record = path_record(file, path, summary, sums.digest.hexdigest())
    scored = dict(_joined(sums.scored[job], labels(job[0]), job[1], settings, job[0])
                  for job in wanted)
    tied = (TiedScores(sums.tied, sums.counted, sums.has_ranks) if settings.order == "score"
            else None)
    return StreamedRun(scored, summary, record, tied, sums.depths), facts, sums.ties


def path_record(file: tuple[str, str], path: str | Path, summary: io.ReadSummary,
                digest: str | None = None) -> InputRecord:
    """How a report lists the file at ``path`` (``file``: its role and name) read without its
    bytes held: what ``assemble.input_record`` says of it, the digest streamed from the file
    unless given."""
    digest = file_sha256(path) if digest is None else digest
    return dataclasses.replace(input_record(InputFile.with_digest(file[0], file[1], b"", digest),
                                            summary), size=Path(path).stat().st_size)


class _Sums:
    """What is kept of the pieces read so far: the facts, the summaries, the tie counts and
    whether a query has ties under ``order``, the depths, the scores of each treatment, the
    file's digest."""

    def __init__(self, facts: PieceFacts, judged: set[str], order: str) -> None:
        self.facts = facts
        self.judged = judged
        self.order = order
        self.ties = False
        self.summaries: list[io.ReadSummary] = []
        self.kept_rows = self.tied = self.counted = 0
        self.depths: dict[str, int] = {}
        self.scored: dict[tuple[Treatment, tuple[str, ...]], list[Evaluation]] = {}
        self.shared = False
        self.has_ranks = True
        self.digest = hashlib.sha256()

    def add(self, run: Run, summary: io.ReadSummary, drop_self: bool) -> Run | None:
        """Take the next piece in: the run to score (without its self-retrieved rows when
        ``drop_self``), or ``None`` when its read differs from what the whole file's read
        would say."""
        if not _plain(summary, self.summaries[0] if self.summaries else summary):
            return None
        self.summaries.append(summary)
        self.has_ranks = self.has_ranks and run.ranks is not None
        self.facts.add(run)
        if drop_self:
            run = without_self_retrieval(run)
        self.kept_rows += len(run)
        tied, counted = tied_queries(run)
        self.tied, self.counted = self.tied + tied, self.counted + counted
        self.ties = self.ties or has_ties(run, self.order)
        depths = cov.ranking_depths(run)
        if depths.keys() & self.depths.keys():
            return None  # a query in two pieces: the file is not grouped by query
        self.depths.update(depths)
        self.shared = self.shared or not self.judged.isdisjoint(depths)
        return run


def _plain(summary: io.ReadSummary, first: io.ReadSummary) -> bool:
    """Whether a piece was read as a plain TREC run, as the first piece was, with nothing set
    aside or noted (what the whole file's read would then say too)."""
    return (summary.format == "trec-run" and not summary.notes and not summary.set_aside
            and not summary.id_samples and not summary.compressed
            and dict(summary.columns) == dict(first.columns))


def _scored(run: Run, labels: Qrels, names: tuple[str, ...], settings: CompareSettings,
            treatment: Treatment) -> Evaluation:
    """One piece scored for ``names`` under ``treatment`` against the judgements of its
    queries."""
    return score(run, judged_and_answered(run, labels), names, "drop", settings.order,
                 settings.gain, settings.relevance_level, treatment)


def _joined(parts: list[Evaluation], labels: Qrels, names: tuple[str, ...],
            settings: CompareSettings, treatment: Treatment) -> tuple[ScoringKey, Evaluation]:
    """The pieces' evaluations under ``treatment`` as the whole run's, with its cache key."""
    key = scoring_key(names, settings.missing, settings.order, settings.gain,
                      settings.relevance_level, treatment)
    return key, joined_evaluation(parts, labels, names,
                                  missing="zero" if settings.missing == "zero" else "drop",
                                  gain=settings.gain, relevance_level=settings.relevance_level)


def _summary(parts: list[io.ReadSummary]) -> io.ReadSummary:
    """The whole file's summary from its pieces' (each query in one piece; document ids are
    not counted, as a read of more than one block does not count them)."""
    first = parts[0]
    return io.ReadSummary(first.source, first.format, sum(p.rows for p in parts),
                          sum(p.queries for p in parts), None, columns=first.columns,
                          run_tag=parts[-1].run_tag)


def _data_lines(path: str | Path) -> int:
    """The lines of the file (a last line without its line end counts): its rows when the
    pieces read as plain TREC lines and none is blank (`PieceFacts` checks they add up)."""
    lines, last = 0, b"\n"
    with open(path, "rb") as stream:
        while chunk := stream.read(16 << 20):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")


__all__ = ["path_record", "run_pieces", "streamed_by_pieces"]
