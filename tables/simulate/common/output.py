"""Writing a simulator's files, the same for both games: the report folder (report.json,
a CSV per table of rows, RESULTS.md, PNG plots saved so that the same report gives the
same bytes) and the lobby's generated estimate table. matplotlib is imported only when
plots are made."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
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


class Figures:
    """A report's plots, saved into `folder`; `written` lists their paths. Made before
    pyplot is imported: it selects the file-only backend (no display needed)."""

    def __init__(self, folder: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        self.folder = folder
        self.written: list[Path] = []

    def save(self, fig: Figure, name: str) -> None:
        """Lay out, save and close `fig`. Fixed metadata: the same report gives
        byte-identical PNGs."""
        import matplotlib.pyplot as plt

        fig.tight_layout()
        path = self.folder / name
        fig.savefig(path, dpi=110, metadata={"Software": None})
        plt.close(fig)
        self.written.append(path)


def estimates_source(
    about: Sequence[str], command: str, model: Mapping[str, float], table: Mapping[int, Mapping[str, Any]], *more: str
) -> str:
    """The source of a generated lobby_estimates.py: its docstring (`about`, opening
    quotes included, then the command and the pacing model), the lines `more` (each
    followed by a blank line), then MINUTES, each guest count's (p10, p90 rounded up)."""
    lines = [
        *about,
        "",
        f"    {command}",
        "",
        f"Pacing model: {', '.join(f'{k}={v:g}' for k, v in model.items())}.",
        '"""',
        "",
    ]
    for line in more:
        lines += [line, ""]
    lines.append("MINUTES: dict[int, tuple[int, int]] = {")
    for n, d in table.items():
        lines.append(f"    {n}: ({int(d['p10'])}, {int(-(-d['p90'] // 1))}),")
    lines.append("}")
    return "\n".join(lines) + "\n"
