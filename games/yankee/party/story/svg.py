"""The story's picture, drawn on the server as SVG: each table a ring of seats, an
arrow for every gift from where it started at that table to where it ended there, and
the relay's arrows from table to table around the ring.

Every name is escaped (guests typed them); the SVG holds no script and no link.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape as _escape

from django.utils.translation import gettext, ngettext

RADIUS = 118


def escape(value: object) -> str:
    """Text and double-quoted attribute values alike."""
    return _escape(str(value), {'"': "&quot;", "'": "&#39;"})


CELL_W, CELL_H = 440, 420
PER_ROW = 3
RELAY_COLOR = "#c2410c"


def _hue(i: int) -> str:
    return f"hsl({(i * 137) % 360},62%,38%)"


def _seat_xy(cx: float, cy: float, seat: int, seats: int, r: float = RADIUS) -> tuple[float, float]:
    # Seat 0 at the top, then clockwise, as players sit around the table.
    a = -math.pi / 2 + 2 * math.pi * seat / seats
    return cx + r * math.cos(a), cy + r * math.sin(a)


def _pos(cx: float, cy: float, where: int | str, seats: int) -> tuple[float, float]:
    if isinstance(where, str):  # "vault"
        return cx, cy
    return _seat_xy(cx, cy, where, seats, RADIUS - 14)


# One table on the big screen (the story's slides): a wide cell, so long names fit beside
# the ring, and labels that read at least 24 px once the picture is fitted to 1280x720.
SCREEN_CELL_W = 1100
SCREEN_FONT = 1.8


def story_svg(story: dict[str, Any], *, table: str | None = None) -> str:
    """The whole party's picture, or (`table`) one table's, large for the big screen."""
    flows = [f for f in story["flows"] if table is None or f["table"] == table]
    big = table is not None
    k = SCREEN_FONT if big else 1.0
    cell_w = SCREEN_CELL_W if big else CELL_W
    n = len(flows)
    cols = min(PER_ROW, max(n, 1))
    rows = -(-n // cols) if n else 1
    width, height = cols * cell_w, rows * CELL_H + (0 if big else 40)
    centers = {}
    # (xgettext reads no call inside an f-string: every text is taken out of them)
    title = gettext("How the gifts moved at %(name)s") % {"name": story["party"]["name"]}
    vault = gettext("vault")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-labelledby="flow-title" font-family="DejaVu Sans, Verdana, sans-serif">',
        f'<title id="flow-title">{escape(title)}</title>',
        "<defs>",
        '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="11" markerHeight="11" markerUnits="userSpaceOnUse" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker>',
        f'<marker id="relay-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{RELAY_COLOR}"/></marker>',
        "</defs>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for i, flow in enumerate(flows):
        row, col = divmod(i, cols)
        cx, cy = col * cell_w + cell_w / 2, row * CELL_H + CELL_H / 2 + (30 if big else 10)
        centers[flow["table"]] = (cx, cy, len(flow["seats"]))
        seats = len(flow["seats"])
        table = gettext("Table %(letter)s") % {"letter": flow["table"]}
        out.append(f'<g class="table" data-table="{escape(flow["table"])}">')
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{RADIUS}" fill="#f3f6f4" stroke="#0b6e4f" stroke-width="2"/>'
        )
        out.append(
            f'<text x="{cx:.1f}" y="{cy - RADIUS - (70 if big else 52):.1f}" text-anchor="middle" font-size="{20 * k:g}" font-weight="bold" '
            f'fill="#0b6e4f">{escape(table)}</text>'
        )
        if flow["vault"]:
            vw, vh = (78, 36) if big else (44, 24)
            out.append(
                f'<rect x="{cx - vw / 2:.1f}" y="{cy - vh / 2:.1f}" width="{vw}" height="{vh}" rx="4" fill="#fff" stroke="#555"/>'
            )
            out.append(
                f'<text x="{cx:.1f}" y="{cy + (8 if big else 5):.1f}" text-anchor="middle" font-size="{13 * k if big else 11:g}">{escape(vault)}</text>'
            )
        for i_gift, g in enumerate(flow["gifts"]):
            if g["first"] == g["last"]:
                continue
            x1, y1 = _pos(cx, cy, g["first"], seats)
            x2, y2 = _pos(cx, cy, g["last"], seats)
            # Bend each chord towards the table's centre so arrows between neighbours stay apart.
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            qx, qy = mx + (cx - mx) * 0.55, my + (cy - my) * 0.55
            color = _hue(i_gift)
            width_ = 1.5 + min(g["moves"], 6) * 0.5
            moved = ngettext("gift %(gift)s: moved %(n)s time", "gift %(gift)s: moved %(n)s times", g["moves"])
            out.append(
                f'<path class="gift-flow" data-gift="{escape(g["gift"])}" d="M{x1:.1f},{y1:.1f} Q{qx:.1f},{qy:.1f} {x2:.1f},{y2:.1f}" '
                f'fill="none" stroke="{color}" stroke-width="{width_:.1f}" stroke-opacity="0.8" marker-end="url(#arrow)">'
                f"<title>{escape(moved % {'gift': g['gift'], 'n': g['moves']})}</title></path>"
            )
        for seat, name in enumerate(flow["seats"]):
            sx, sy = _seat_xy(cx, cy, seat, seats)
            lx, ly = _seat_xy(cx, cy, seat, seats, RADIUS + 18 * k)
            anchor = "middle" if abs(lx - cx) < 20 else ("start" if lx > cx else "end")
            out.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="6" fill="#0b6e4f"/>')
            out.append(
                f'<text class="seat" x="{lx:.1f}" y="{ly + 4 * k:.1f}" text-anchor="{anchor}" font-size="{13 * k:g}">{escape(name)}</text>'
            )
        out.append("</g>")
    for r in story["relay"]:
        if r["from_table"] not in centers or r["to_table"] not in centers:
            continue
        ax, ay, an = centers[r["from_table"]]
        bx, by, bn = centers[r["to_table"]]
        x1, y1 = _seat_xy(ax, ay, r["from_seat"], an)
        x2, y2 = _seat_xy(bx, by, r["to_seat"], bn)
        # Curve away from the straight line: the return arrow of a two-table ring bends the other way.
        nx, ny = -(y2 - y1), x2 - x1
        norm = math.hypot(nx, ny) or 1
        qx, qy = (x1 + x2) / 2 + nx / norm * 60, (y1 + y2) / 2 + ny / norm * 60
        relay = gettext("relay: gift %(gift)s") % {"gift": r["gift"]}
        out.append(
            f'<path class="relay-flow" data-gift="{escape(r["gift"])}" d="M{x1:.1f},{y1:.1f} Q{qx:.1f},{qy:.1f} {x2:.1f},{y2:.1f}" '
            f'fill="none" stroke="{RELAY_COLOR}" stroke-width="3" stroke-dasharray="8 5" marker-end="url(#relay-arrow)"/>'
        )
        out.append(
            f'<text x="{qx:.1f}" y="{qy:.1f}" text-anchor="middle" font-size="13" font-weight="bold" fill="{RELAY_COLOR}" '
            f'stroke="#fff" stroke-width="3" paint-order="stroke">{escape(relay)}</text>'
        )
    if not big:  # the big screen says it in the page, in its own large text
        legend = gettext(
            "Arrows: where each gift started at a table and where it ended there (thicker: moved more). "
            "Dashed: the relay between tables."
        )
        out.append(f'<text x="12" y="{height - 12}" font-size="12" fill="#444">{escape(legend)}</text>')
    out.append("</svg>")
    return "\n".join(out)
