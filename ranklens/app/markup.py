"""User strings as text, never markup, wherever the app renders Markdown (or HTML).

File names, run names, segment columns and values, query and document ids and error messages
that quote a file's line come from users; Streamlit renders ``st.markdown``, captions,
subheaders, metric labels and alerts as Markdown (and the Compare page's inputs box as HTML).
``text`` answers "this string, escaped so that it shows as typed": ``<img src=x>`` stays those
characters, ``[x](http://...)`` does not become a link, ``![x](...)`` not an external image,
``**`` not bold. It does not decide what to show.
"""

from __future__ import annotations

import re

# CommonMark lets a backslash escape any ASCII punctuation; these are the ones that open
# emphasis, links, images, code, tables, strike-through and math ($) inside a line. An
# underscore between letters or digits never emphasises (bm25_tuned stays as written), so only
# the others are escaped. Characters that matter only at the start of a line (#, -, +, 1.)
# need nothing: `text` never starts a line of its own caller's Markdown.
_MARKDOWN_PUNCTUATION = re.compile(
    r"([\\`*\[\]()!|~$])|((?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029]+")


def text(value: object) -> str:
    """``value`` as Markdown (or HTML) that renders exactly its characters, on one line."""
    plain = _LINE_BREAKS.sub(" ", str(value))
    # HTML first: entities use & and ; only, which the Markdown pass leaves alone.
    plain = plain.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_PUNCTUATION.sub(lambda m: "\\" + m.group(0), plain)


def names(values: tuple[str, str]) -> tuple[str, str]:
    """Both run names through `text` (for the sentences built from them)."""
    return (text(values[0]), text(values[1]))
