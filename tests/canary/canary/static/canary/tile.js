// Canary Heist on the host's dashboard: a card per table, and the party's ranking.
import { cardsList, el, namesOf, outcome } from "./draw.js";

export function mount(root, ctx) {
  function draw(tables) {
    root.replaceChildren();
    for (const payload of tables) {
      const card = el("section", null, {
        class: "canary-table",
        "data-table": payload.table.letter,
        "data-version": String(payload.version),
      });
      const names = namesOf(payload.table);
      card.append(
        el("h3", interpolate(gettext("Table %s"), [payload.table.letter])),
        cardsList(payload.view, names),
        outcome(payload.view, names),
      );
      root.append(card);
    }
  }

  function result(partyResult, { csv, story }) {
    const box = el("div", null, { class: "canary-result" });
    const list = el("ol", null, { class: "canary-ranking" });
    for (const row of partyResult.ranking) {
      list.append(el("li", `${row.guest} (${row.table}): ${row.total}${row.champion ? " ★" : ""}`));
    }
    box.append(list, csv, story(ctx.code));
    return box;
  }

  return {
    draw,
    result,
    words: {
      deal: (n, min) => interpolate(ngettext("Seat %s guest", "Seat %s guests", n), [n]) + (n < min ? "" : ""),
      dealt: gettext("Seated"),
    },
  };
}
