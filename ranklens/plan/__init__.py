"""The MDE feature: how many queries a difference needs, and how small a difference a number of
queries can resolve, from a typed spread or one measured on pilot data.

Modules: ``settings`` (what the page and CLI set), ``analysis`` (the plan), ``views``,
``charts``, ``text`` (CLI), ``html`` (the export).
"""

__all__ = ["analysis", "charts", "html", "settings", "text", "views"]
