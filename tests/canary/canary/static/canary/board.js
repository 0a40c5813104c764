// Canary Heist on the big screen: every table's cards, and who drew highest.
import { cardsList, el, namesOf, outcome } from "./draw.js";

export function mount(root) {
  // `root` is the whole page (#app): the tables go into its #tables region
  const box = root.querySelector("#tables");
  function draw({ tables }) {
    const list = [...(tables || [])];
    box.replaceChildren();
    box.dataset.count = String(list.length);
    for (const payload of list) {
      const names = namesOf(payload.table);
      const tile = el("section", null, {
        class: "canary-table",
        "data-table": payload.table.letter,
        "data-version": String(payload.version),
      });
      tile.append(
        el("h2", interpolate(gettext("Table %s"), [payload.table.letter])),
        cardsList(payload.view, names),
        outcome(payload.view, names),
      );
      box.append(tile);
    }
  }
  return { draw };
}
