"""One error type for bad input: it names the source, the line, the problem and the fix."""

from __future__ import annotations

from ranklens.errors import RanklensError


class InputError(RanklensError, ValueError):
    """A file (or upload) that cannot be read as asked.

    ``str(error)`` reads ``"<source>, line <n>: <what is wrong>. <what to do>"``. ``line`` is the
    1-based physical line for text formats and ``None`` when there is no line to point at (a
    Parquet file, an empty file, a whole-file problem). ``row`` is set instead for Parquet.
    """

    def __init__(
        self,
        source: str,
        message: str,
        *,
        line: int | None = None,
        row: int | None = None,
        hint: str = "",
    ) -> None:
        self.source = source
        self.message = message
        self.line = line
        self.row = row
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f", line {self.line}"
        elif self.row is not None:
            where += f", row {self.row}"
        text = f"{where}: {self.message}"
        if self.hint:
            first_word = self.hint.split(" ", 1)[0]
            plain = first_word.isalpha() and first_word.islower()
            text += f". {self.hint[:1].upper() + self.hint[1:] if plain else self.hint}"
        return text
