// Canary Heist on a captain's tablet: the table's cards, large. A draw is the seat's own.
import { cardsList, el, namesOf, outcome } from "./draw.js";

export function mount(root, ctx) {
  function draw() {
    const payload = ctx.state.payload;
    root.replaceChildren();
    if (!payload) return;
    const names = namesOf(payload.table);
    const box = el("section", null, { class: "canary-table", "data-version": String(payload.version) });
    box.append(el("h1", ctx.game.title), cardsList(payload.view, names), outcome(payload.view, names));
    root.append(box);
  }
  return { draw };
}
