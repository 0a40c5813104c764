// The party's Royal Heist leaderboard (big screen, host dashboard): every player's
// running total (the banks of every game their table played so far, this one's
// included), highest first; tied totals share a rank (1, 1, 3), as the engine's
// `ranked` does.
import { h } from "../heist/ui.js";

export const TEXT = {
  title: gettext("Leaderboard"),
  rank: gettext("Rank"),
  name: gettext("Player"),
  table: gettext("Table"),
  bank: gettext("Banked"),
  empty: gettext("Nobody has banked anything yet."),
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

export const RESULT_TEXT = {
  title: gettext("The party's result"),
  champion: (names) => interpolate(ngettext("Champion: %(names)s", "Champions: %(names)s", names.length), { names: names.join(", ") }, true),
  tableWinners: (table, names) => interpolate(gettext("Table %(table)s: %(names)s"), { table, names: names.join(", ") }, true),
  winners: gettext("Each table's winner"),
  caption: (n) => interpolate(ngettext("Every guest's jewels, all tables (%(n)s guest)", "Every guest's jewels, all tables (%(n)s guests)", n), { n }, true),
  total: gettext("Total"),
  game: (i) => interpolate(gettext("Game %(n)s"), { n: i }, true),
  // "Ada, then Bo": a seat played by the guest who sat down, then a substitute
  playedBy: (r) => interpolate(gettext(" (played by %(names)s)"), { names: r.played_by.join(gettext(", then ")) }, true),
  winnerMark: gettext("table winner"),
  championMark: gettext("champion"),
};

/** The party's result (events/party/selectors.py `_standings_result`): the champions,
 * each table's winners and every guest's running total across all tables, game by game
 * when the result has them. A seat a substitute played goes to the guest who sat down,
 * and both are named, as a gift swap's result does. */
export function renderResult(result, { actions = null } = {}) {
  const rows = result.ranking || [];
  const games = Math.max(0, ...rows.map((r) => (r.games || []).length));
  const gameCols = Array.from({ length: games }, (_, i) => i + 1);
  const champions = result.champions || [];
  return h("div", { class: "royal r-result" },
    champions.length ? h("p", { class: "r-champion", text: RESULT_TEXT.champion(champions) }) : null,
    actions, // the host's downloads: under the champions, above the long ranking
    (result.tables || []).length > 1
      ? h("section", { class: "r-winners", "aria-label": RESULT_TEXT.winners },
        h("h3", { text: RESULT_TEXT.winners }),
        h("ul", null, result.tables.map((t) => h("li", { text: RESULT_TEXT.tableWinners(t.table, t.winners || []) }))))
      : null,
    h("div", { class: "table-scroll" },
      h("table", { class: "result-table r-board r-ranking" },
        h("caption", { text: RESULT_TEXT.caption(rows.length) }),
        h("thead", null, h("tr", null,
          h("th", { scope: "col", class: "num", text: TEXT.rank }), h("th", { scope: "col", text: TEXT.name }),
          h("th", { scope: "col", text: TEXT.table }), h("th", { scope: "col", class: "num", text: RESULT_TEXT.total }),
          gameCols.map((i) => h("th", { scope: "col", class: "num", text: RESULT_TEXT.game(i) })))),
        h("tbody", null, rows.map((r) => h("tr", { class: r.champion ? "top" : "", data: { rank: r.rank } },
          h("td", { class: "num r-rank", text: String(r.rank) }),
          h("th", { scope: "row", class: "r-name" },
            (r.played_by || []).length > 1 ? `${r.guest}${RESULT_TEXT.playedBy(r)}` : r.guest,
            r.champion ? h("span", { class: "r-mark", text: ` · ${RESULT_TEXT.championMark}` })
              : r.table_winner ? h("span", { class: "r-mark", text: ` · ${RESULT_TEXT.winnerMark}` }) : null),
          h("td", { text: TEXT.tableName(r.table) }),
          h("td", { class: "num r-total", text: String(r.total) }),
          gameCols.map((i) => h("td", { class: "num", text: (r.games || [])[i - 1] === undefined ? "" : String(r.games[i - 1]) }))))))));
}
