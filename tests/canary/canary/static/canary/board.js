// Canary Heist on the big screen: every table's cards, and who drew highest.
import { cardsList, el, namesOf, outcome } from "./draw.js";

export function mount(root) {
  function draw({ tables }) {
    root.replaceChildren();
    for (const payload of Object.values(tables || {})) {
      const names = namesOf(payload.table);
      const box = el("section", null, { class: "canary-table", "data-table": payload.table.letter });
      box.append(el("h2", interpolate(gettext("Table %s"), [payload.table.letter])), cardsList(payload.view, names), outcome(payload.view, names));
      root.append(box);
    }
  }
  return { draw };
}
