"""The compare report's sections, one module each: a section turns part of a `Report` into
``ranklens.document`` blocks and knows no face (``docs/architecture.md`` lists the sections
already on this path; the rest are still written face by face in ``compare.text``,
``compare.html`` and the page)."""
