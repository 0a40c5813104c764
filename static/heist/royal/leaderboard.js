// The party's Royal Heist leaderboard (big screen, host dashboard): every player's
// running total (the banks of every game their table played so far, this one's
// included), highest first; tied totals share a rank (1, 1, 3), as the engine's
// `ranked` does.
import { h } from "../ui.js";

export const TEXT = {
  title: "Leaderboard",
  rank: "Rank",
  name: "Player",
  table: "Table",
  bank: "Banked",
  empty: "Nobody has banked anything yet.",
  tableName: (t) => (t === null || t === undefined || t === "" ? "—" : String(t)),
};

/** A seat of a table's view as a leaderboard row (`bank`: the seat's running total). */
export function leaderRow(seat, name, letter) {
  return { name, table: letter, bank: seat.total ?? seat.bank };
}

/** rows [{name, table, bank}] -> the same rows with `rank`, best first (ties: the same
 * rank, then by name so the order holds still between updates). */
export function ranked(rows) {
  const sorted = [...rows].sort((a, b) => b.bank - a.bank || String(a.name).localeCompare(String(b.name)));
  let rank = 0;
  return sorted.map((row, i) => {
    if (i === 0 || row.bank !== sorted[i - 1].bank) rank = i + 1;
    return { ...row, rank };
  });
}

export function renderLeaderboard(rows, { limit = null } = {}) {
  const list = ranked(rows || []);
  const shown = limit ? list.slice(0, limit) : list;
  return h("section", { class: "royal r-leaderboard", "aria-label": TEXT.title },
    h("h2", { text: TEXT.title }),
    shown.length
      ? h("table", { class: "r-board" },
        h("thead", null, h("tr", null,
          h("th", { scope: "col", class: "num", text: TEXT.rank }), h("th", { scope: "col", text: TEXT.name }),
          h("th", { scope: "col", text: TEXT.table }), h("th", { scope: "col", class: "num", text: TEXT.bank }))),
        h("tbody", null, shown.map((r) => h("tr", { class: r.rank === 1 ? "top" : "", data: { rank: r.rank } },
          h("td", { class: "num r-rank", text: String(r.rank) }),
          h("th", { scope: "row", class: "r-name", text: r.name }),
          h("td", { text: TEXT.tableName(r.table) }),
          h("td", { class: "num r-bank", text: String(r.bank) })))))
      : h("p", { class: "hint", text: TEXT.empty }));
}
