"""The story's picture, drawn on the server as SVG: each table a ring of seats, an
arrow for every gift from where it started at that table to where it ended there, and
the relay's arrows from table to table around the ring.

Every name is escaped (guests typed them); the SVG holds no script and no link.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape as _escape

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


def story_svg(story: dict[str, Any]) -> str:
    flows = story["flows"]
    n = len(flows)
    cols = min(PER_ROW, max(n, 1))
    rows = -(-n // cols) if n else 1
    width, height = cols * CELL_W, rows * CELL_H + 40
    centers = {}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-labelledby="flow-title" font-family="DejaVu Sans, Verdana, sans-serif">',
        f'<title id="flow-title">How the gifts moved at {escape(story["party"]["name"])}</title>',
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
        cx, cy = col * CELL_W + CELL_W / 2, row * CELL_H + CELL_H / 2 + 10
        centers[flow["table"]] = (cx, cy, len(flow["seats"]))
        seats = len(flow["seats"])
        out.append(f'<g class="table" data-table="{escape(flow["table"])}">')
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{RADIUS}" fill="#f3f6f4" stroke="#0b6e4f" stroke-width="2"/>'
        )
        out.append(
            f'<text x="{cx:.1f}" y="{cy - RADIUS - 52:.1f}" text-anchor="middle" font-size="20" font-weight="bold" '
            f'fill="#0b6e4f">Table {escape(flow["table"])}</text>'
        )
        if flow["vault"]:
            out.append(
                f'<rect x="{cx - 22:.1f}" y="{cy - 12:.1f}" width="44" height="24" rx="4" fill="#fff" stroke="#555"/>'
            )
            out.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" text-anchor="middle" font-size="11">vault</text>')
        for k, g in enumerate(flow["gifts"]):
            if g["first"] == g["last"]:
                continue
            x1, y1 = _pos(cx, cy, g["first"], seats)
            x2, y2 = _pos(cx, cy, g["last"], seats)
            # Bend each chord towards the table's centre so arrows between neighbours stay apart.
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            qx, qy = mx + (cx - mx) * 0.55, my + (cy - my) * 0.55
            color = _hue(k)
            width_ = 1.5 + min(g["moves"], 6) * 0.5
            out.append(
                f'<path class="gift-flow" data-gift="{escape(g["gift"])}" d="M{x1:.1f},{y1:.1f} Q{qx:.1f},{qy:.1f} {x2:.1f},{y2:.1f}" '
                f'fill="none" stroke="{color}" stroke-width="{width_:.1f}" stroke-opacity="0.8" marker-end="url(#arrow)">'
                f"<title>gift {escape(g['gift'])}: moved {g['moves']} time{'s' if g['moves'] != 1 else ''}</title></path>"
            )
        for seat, name in enumerate(flow["seats"]):
            sx, sy = _seat_xy(cx, cy, seat, seats)
            lx, ly = _seat_xy(cx, cy, seat, seats, RADIUS + 18)
            anchor = "middle" if abs(lx - cx) < 20 else ("start" if lx > cx else "end")
            out.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="6" fill="#0b6e4f"/>')
            out.append(
                f'<text class="seat" x="{lx:.1f}" y="{ly + 4:.1f}" text-anchor="{anchor}" font-size="13">{escape(name)}</text>'
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
        out.append(
            f'<path class="relay-flow" data-gift="{escape(r["gift"])}" d="M{x1:.1f},{y1:.1f} Q{qx:.1f},{qy:.1f} {x2:.1f},{y2:.1f}" '
            f'fill="none" stroke="{RELAY_COLOR}" stroke-width="3" stroke-dasharray="8 5" marker-end="url(#relay-arrow)"/>'
        )
        out.append(
            f'<text x="{qx:.1f}" y="{qy:.1f}" text-anchor="middle" font-size="13" font-weight="bold" fill="{RELAY_COLOR}" '
            f'stroke="#fff" stroke-width="3" paint-order="stroke">relay: gift {escape(r["gift"])}</text>'
        )
    out.append(
        f'<text x="12" y="{height - 12}" font-size="12" fill="#444">Arrows: where each gift started at a table and where it '
        f"ended there (thicker: moved more). Dashed: the relay between tables.</text>"
    )
    out.append("</svg>")
    return "\n".join(out)
