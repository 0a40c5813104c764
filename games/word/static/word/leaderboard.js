// Word Heist's party ranking (the host's dashboard, the big screen): every player's points
// across the tables, highest first, tied totals sharing a rank; and the party's result.
import { h, seatName } from "../heist/ui.js";

export const TEXT = {
  title: gettext("Leaderboard"),
  rank: gettext("Rank"),
  name: gettext("Player"),
  table: gettext("Table"),
  points: gettext("Points"),
  empty: gettext("Nobody has scored yet."),
  result: gettext("The party's result"),
  champion: (names) => interpolate(ngettext("Champion: %(names)s", "Champions: %(names)s", names.length), { names: names.join(", ") }, true),
  tableWinners: (table, names) => interpolate(gettext("Table %(table)s: %(names)s"), { table, names: names.join(", ") }, true),
  winners: gettext("Each table's winner"),
  caption: (n) => interpolate(ngettext("Every guest's points, all tables (%(n)s guest)", "Every guest's points, all tables (%(n)s guests)", n), { n }, true),
};

/** Every seat of every table as a row {name, table, points, rank}, best first. */
export function rows(tables) {
  const list = tables.flatMap(({ view, table: meta }) => view.seats.map((s) => ({ name: seatName(meta, s.seat), table: meta.letter, points: s.score })));
  list.sort((a, b) => b.points - a.points || String(a.name).localeCompare(String(b.name)));
  let rank = 0;
  return list.map((row, i) => {
    if (i === 0 || row.points !== list[i - 1].points) rank = i + 1;
    return { ...row, rank };
  });
}

function board(list, caption = null) {
  return h("table", { class: "w-board" },
    caption ? h("caption", { text: caption }) : null,
    h("thead", null, h("tr", null,
      h("th", { scope: "col", class: "num", text: TEXT.rank }), h("th", { scope: "col", text: TEXT.name }),
      h("th", { scope: "col", text: TEXT.table }), h("th", { scope: "col", class: "num", text: TEXT.points }))),
    h("tbody", null, list.map((r) => h("tr", { class: r.rank === 1 ? "top" : "", data: { rank: r.rank } },
      h("td", { class: "num", text: String(r.rank) }),
      h("th", { scope: "row", class: "w-name", text: r.name }),
      h("td", { text: r.table || "—" }),
      h("td", { class: "num", text: String(r.points) })))));
}

export function renderLeaderboard(tables, { limit = null } = {}) {
  const list = rows(tables);
  const shown = limit ? list.slice(0, limit) : list;
  return h("section", { class: "word w-leaderboard", "aria-label": TEXT.title },
    h("h2", { text: TEXT.title }),
    shown.some((r) => r.points) ? board(shown) : h("p", { class: "hint", text: TEXT.empty }));
}

/** The party's result (events/party/selectors.py `_standings_result`). */
export function renderResult(result, { actions = null } = {}) {
  const ranking = result.ranking || [];
  const champions = result.champions || [];
  return h("div", { class: "word w-result" },
    h("h2", { text: TEXT.result }),
    champions.length ? h("p", { class: "w-champion", text: TEXT.champion(champions) }) : null,
    actions,
    (result.tables || []).length > 1
      ? h("section", { "aria-label": TEXT.winners }, h("h3", { text: TEXT.winners }),
        h("ul", null, result.tables.map((t) => h("li", { text: TEXT.tableWinners(t.table, t.winners || []) }))))
      : null,
    h("div", { class: "table-scroll" },
      board(ranking.map((r) => ({ name: r.guest, table: r.table, points: r.total, rank: r.rank })), TEXT.caption(ranking.length))));
}
