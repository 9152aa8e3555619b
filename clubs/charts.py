"""A player's percentages over time as inline SVG, drawn like the product's other charts
(``publishing.charts``: a viewBox, a title for screen readers, axes in a ``<g class="axes">``).

Pure Python: no Django here. The caller gives only the events the reader may see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from xml.sax.saxutils import escape

LINE_COLOUR = "#0072B2"


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _same(text: str) -> str:
    return text


def percentages_svg(
    points: Sequence[tuple[date, str, float]], tr: Callable[[str], str] = _same
) -> str:
    """A line through ``(day, event name, percentage)`` in the order given (oldest first),
    the 50 % line drawn across; "" without a point. The vertical scale runs from 0 to 100 %
    when the percentages need it, else from 30 to 70 %. ``tr`` translates the chart's words
    (the page's gettext; English without)."""
    if not points:
        return ""
    values = [percentage for _, _, percentage in points]
    low = 0.0 if min(values) < 30 else 30.0
    high = 100.0 if max(values) > 70 else 70.0
    left, right, top, bottom = 44, 16, 16, 40
    width = max(640, min(1000, 48 * len(points) + left + right))
    height = 240
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg class="percentages-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(tr("Percentage of each event, oldest first"))}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(tr('Percentage of each event'))}</title>",
        '<g class="axes" font-size="11" fill="#333">',
    ]
    for tick in range(int(low), int(high) + 1, 10):
        parts.append(
            f'<line class="grid{" even" if tick == 50 else ""}" x1="{left}" x2="{width - right}" '
            f'y1="{_number(y(tick))}" y2="{_number(y(tick))}" '
            f'stroke="{"#888" if tick == 50 else "#ddd"}"/>'
            f'<text x="{left - 6}" y="{_number(y(tick) + 4)}" text-anchor="end">{tick} %</text>'
        )
    step = max(1, len(points) // 10)
    for i, (day, _, _) in enumerate(points):
        if i % step == 0 or i == len(points) - 1:
            parts.append(
                f'<text x="{_number(x(i))}" y="{height - bottom + 16}" '
                f'text-anchor="middle">{day:%d/%m}</text>'
            )
    parts.append("</g>")
    line = " ".join(f"{_number(x(i))},{_number(y(p))}" for i, (_, _, p) in enumerate(points))
    parts.append(f'<polyline points="{line}" stroke="{LINE_COLOUR}" fill="none"/>')
    for i, (day, name, percentage) in enumerate(points):
        parts.append(
            f'<circle cx="{_number(x(i))}" cy="{_number(y(percentage))}" r="3.5" '
            f'fill="{LINE_COLOUR}"><title>{escape(name)}, {day:%d/%m/%Y}: '
            f"{_number(percentage)} %</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
