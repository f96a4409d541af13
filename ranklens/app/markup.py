"""User strings as text, never markup, wherever the app renders Markdown (or HTML).

File names, run names, segment columns and values, query and document ids and error messages
that quote a file's line come from users; Streamlit renders ``st.markdown``, captions,
subheaders, metric labels and alerts as Markdown (and the Compare page's inputs box as HTML).
``text`` answers "this string, escaped so that it shows as typed": ``<img src=x>`` stays those
characters, ``[x](http://...)`` does not become a link, ``![x](...)`` not an external image,
``**`` not bold, ``$x^2$`` not math. It is ``ranklens.formats.literal``, the one escaping rule
of the pages, the library's sentences and the exports; it does not decide what to show.
"""

from __future__ import annotations

from ranklens.formats import literal


def text(value: object) -> str:
    """``value`` as Markdown (or HTML) that renders exactly its characters, on one line."""
    return literal(value)


def names(values: tuple[str, str]) -> tuple[str, str]:
    """Both run names through `text` (for the sentences built from them)."""
    return (text(values[0]), text(values[1]))
