"""Writing a simulator's report folder, the same for both games: report.json, a CSV
per table of rows, RESULTS.md, and PNG plots saved so that the same report gives the
same bytes. matplotlib is imported only when a plot is saved."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def ci_columns(name: str, prefix: str, ci: dict[str, float]) -> dict[str, float]:
    """A 95% interval as three CSV columns: `name` (the mean), `prefix`_low, `prefix`_high."""
    return {name: ci["mean"], f"{prefix}_low": ci["low"], f"{prefix}_high": ci["high"]}


def write_csv(path: Path, rows: Iterable[dict[str, Any]]) -> bool:
    """Rows as CSV, the columns the first row's keys, lists joined with ';'. Writes
    nothing (False) for no rows."""
    flat = [{k: (";".join(map(str, v)) if isinstance(v, list) else v) for k, v in r.items()} for r in rows]
    if not flat:
        return False
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(flat[0]))
        w.writeheader()
        w.writerows(flat)
    return True


def write_files(
    folder: Path,
    report: dict[str, Any],
    command: str,
    tables: Iterable[tuple[str, Iterable[dict[str, Any]]]],
    results: str,
) -> list[Path]:
    """report.json (the report and `command`), each (name, rows) of `tables` as a CSV
    (none for no rows) and `results` as RESULTS.md, in that order: the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "report.json"
    path.write_text(json.dumps({**report, "command": command}, indent=1, sort_keys=True) + "\n")
    written = [path]
    for name, rows in tables:
        path = folder / name
        if write_csv(path, rows):
            written.append(path)
    path = folder / "RESULTS.md"
    path.write_text(results)
    written.append(path)
    return written


def save_figure(fig: Figure, path: Path) -> Path:
    """Lay out, save and close `fig`. Fixed metadata: the same report gives
    byte-identical PNGs."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path
