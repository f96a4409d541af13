"""The document every report becomes, and one writer per face.

A feature's outline (``ranklens.compare``, ``ranklens.plan``, ``ranklens.ppi``) turns its
result into blocks (``blocks``: section, heading, paragraph, callout, items, table with its
``Column``s); a writer turns blocks into one face: ``text`` (what the CLI prints),
``markdown``, ``html`` (the self-contained export and the notebook). A writer knows formats,
never a feature; a block knows what it says, never how a face draws it.

See ``docs/architecture.md`` for what is on this path today and what is still written face by
face.
"""
