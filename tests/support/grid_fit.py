"""Does each column of an ``st.dataframe`` hold its longest text, as Chromium draws it?

Streamlit's data frames are glide-data-grid canvases: a cell has no DOM box to compare
``scrollWidth`` with ``clientWidth``, and the grid's ``role="grid"`` table holds the raw values,
not the texts drawn. So `column_fits` reads the grid's own state from the canvas's React
props (the component that draws it gets ``columns``, each with its drawn ``width`` after
Streamlit's sizing and the grid's growing, ``getCellContent``, whose ``displayData`` is the
text drawn, and ``theme``, the fonts and padding it draws with) and measures every text with
canvas ``measureText`` in the cell's own font (a Styler's bold or italic included).

A text fits when it and the cell padding on both sides fit the drawn width: the grid's own
measure (its text and number cells' ``measure`` is the text's width plus
``2 * cellHorizontalPadding``, the width it gives a column it sizes itself). Glide draws a
left-aligned text from ``x + padding`` and a right-aligned one to ``x + width - padding``,
cut at the cell's border with no ellipsis: a text wider than that loses its end (or, right-
aligned, its start), and one that fills the padding touches its neighbour's text.
"""

from __future__ import annotations

from typing import TypedDict

from playwright.sync_api import Locator
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


class ColumnFit(TypedDict):
    title: str
    width: float  # drawn, px
    needs: float  # longest text (header or cell) plus both paddings, px
    widest: str  # that text


_COLUMN_FITS = """async frame => {
  await document.fonts.ready;
  const canvas = frame.querySelector('canvas');
  if (canvas === null) return null;
  const fiberKey = Object.keys(canvas).find(key => key.startsWith('__reactFiber$'));
  let fiber = fiberKey === undefined ? null : canvas[fiberKey];
  while (fiber && !(fiber.memoizedProps?.columns && fiber.memoizedProps?.getCellContent)) {
    fiber = fiber.return;
  }
  if (!fiber) throw new Error('no grid props above the canvas: Streamlit changed its grid?');
  const {columns, getCellContent, rows, theme} = fiber.memoizedProps;
  if (!document.fonts.check(theme.baseFontFull)) throw new Error(`font ${theme.baseFontFull}`);
  const context = document.createElement('canvas').getContext('2d');
  const measure = (text, font) => { context.font = font; return context.measureText(text).width; };
  const padding = 2 * theme.cellHorizontalPadding;
  return columns.map((column, index) => {
    let widest = String(column.title ?? '');
    let needs = measure(widest, theme.headerFontFull) + (column.icon === undefined ? 0 : 28);
    for (let row = 0; row < rows; row++) {
      const cell = getCellContent([index, row]);
      const text = String(cell.displayData ?? cell.data ?? '');
      const drawn = {...theme, ...(cell.themeOverride ?? {})};
      const width = measure(text, `${drawn.baseFontStyle} ${drawn.fontFamily}`);
      if (width > needs) { needs = width; widest = text; }
    }
    return {title: String(column.title ?? ''), width: column.width, needs: needs + padding,
            widest};
  });
}"""


def column_fits(frame: Locator) -> list[ColumnFit] | None:
    """Each column of the ``stDataFrame`` ``frame``: its drawn width and the width its longest
    text needs; None when the grid is not drawn (a closed expander's, a hidden tab's)."""
    frame.scroll_into_view_if_needed()  # the grid draws when in view
    fits: list[ColumnFit] | None = frame.evaluate(_COLUMN_FITS)
    return fits


def clipped(fits: list[ColumnFit]) -> list[ColumnFit]:
    """The columns whose longest text does not fit their drawn width."""
    return [fit for fit in fits if fit["needs"] > fit["width"]]


def narrow_column(frame: Locator, title: str, width: float) -> None:
    """Drag the right border of column ``title``'s header until it is ``width`` px wide (at
    least the grid's minimum), as a person resizing the column does: the grid's own resize,
    so its drawn width changes. Waits until the grid draws the new width."""
    frame.scroll_into_view_if_needed()
    layout = frame.evaluate(_HEADER_LAYOUT)
    index = layout["titles"].index(title)
    left = layout["left"] + sum(layout["widths"][:index])
    edge = left + layout["widths"][index] - 1
    middle = layout["top"] + layout["headerHeight"] / 2
    mouse = frame.page.mouse
    # On a loaded machine the grid can miss a drag (the hover that arms a resize not yet
    # seen): drag again, up to three times, before saying the width did not change.
    for attempt in range(3):
        mouse.move(edge - 20, middle)
        mouse.move(edge, middle, steps=3)  # the grid takes a drag for a resize once hovered
        frame.page.wait_for_timeout(200 * (attempt + 1))
        mouse.down()
        mouse.move((edge + left + width) / 2, middle, steps=4)
        mouse.move(left + width, middle, steps=4)
        mouse.up()
        try:
            frame.page.wait_for_function(
                _WIDTH_CHANGED, arg=[frame.element_handle(), title, layout["widths"][index]],
                timeout=5_000)
            return
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise


_WIDTH_CHANGED = """([frame, title, before]) => {
  const canvas = frame.querySelector('canvas');
  const key = Object.keys(canvas).find(k => k.startsWith('__reactFiber$'));
  let fiber = canvas[key];
  while (fiber && !fiber.memoizedProps?.getCellContent) fiber = fiber.return;
  const column = fiber.memoizedProps.columns.find(c => String(c.title) === title);
  return column.width !== before;
}"""


_HEADER_LAYOUT = """frame => {
  const canvas = frame.querySelector('canvas');
  const fiberKey = Object.keys(canvas).find(key => key.startsWith('__reactFiber$'));
  let fiber = canvas[fiberKey];
  while (fiber && !(fiber.memoizedProps?.columns && fiber.memoizedProps?.getCellContent)) {
    fiber = fiber.return;
  }
  const {columns, headerHeight} = fiber.memoizedProps;
  const box = canvas.getBoundingClientRect();
  return {left: box.left, top: box.top, headerHeight,
          titles: columns.map(column => String(column.title ?? '')),
          widths: columns.map(column => column.width)};
}"""
