// What every Canary Heist screen draws the same way: a table's cards, its winners.
export function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

export function cardsList(view, names = []) {
  const list = el("ol", null, { class: "canary-cards" });
  view.cards.forEach((card, seat) => {
    const who = names[seat] || interpolate(gettext("Seat %s"), [seat + 1]);
    const drawn = card === null ? gettext("not drawn yet") : String(card);
    const item = el("li", `${who}: ${drawn}`, { "data-seat": String(seat) });
    if (view.winners.includes(seat)) item.classList.add("canary-winner");
    list.append(item);
  });
  return list;
}

export function outcome(view, names = []) {
  if (!view.over) {
    const who = names[view.turn] || interpolate(gettext("Seat %s"), [view.turn + 1]);
    return el("p", interpolate(gettext("%s draws now"), [who]), { class: "canary-turn" });
  }
  const won = view.winners.map((seat) => names[seat] || interpolate(gettext("Seat %s"), [seat + 1]));
  return el("p", interpolate(gettext("Highest card: %s"), [won.join(", ")]), { class: "canary-over" });
}

export function namesOf(table) {
  return ((table && table.roster) || []).map((entry) => entry.name);
}
