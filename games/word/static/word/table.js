// What every Word Heist screen draws the same way, from a table's public view
// (games/word/views.py public_view) and its details (meta: roster, letter, step_clock...):
// the Tableau with its Showcase Letters and the clue tokens once they are shown, the two
// Bonus Vault cards, the seats (who has written, clued, halted, voted: never what before
// the reveal), the reveal with its "Halt!" moments, the last round's scores, the Word
// Gallery. A word is in a view only from the reveal on, so nothing here can show one early.
import { offlineMark } from "../heist/presence.js";
import { h, listText, seatName, sentence } from "../heist/ui.js";

export const TEXT = {
  table: (letter) => (letter ? interpolate(gettext("Table %(letter)s"), { letter }, true) : gettext("Table")),
  round: (n, of) => interpolate(gettext("Round %(n)s of %(of)s"), { n, of }, true),
  final: gettext("Final round: every score doubled"),
  tableau: gettext("The Tableau"),
  showcase: (n) => interpolate(gettext("Showcase letter: +%(n)s"), { n }, true),
  vault: gettext("Bonus Vault"),
  points: (n) => interpolate(ngettext("+%(n)s point", "+%(n)s points", n), { n }, true),
  pts: (n) => interpolate(ngettext("%(n)s point", "%(n)s points", n), { n }, true),
  seats: gettext("Players"),
  score: gettext("Score"),
  clues: gettext("Clue tokens"),
  cluesOf: (name) => interpolate(gettext("%(name)s's clues"), { name }, true),
  noClues: gettext("no clues"),
  gallery: gettext("Word Gallery"),
  galleryEmpty: gettext("No word used yet."),
  step: {
    word: gettext("Everyone writes a secret Heist word"),
    clues: gettext("Everyone drops clue tokens"),
    halt: gettext("Everyone guesses another player's word: Halt!"),
    vote: gettext("The reveal: vote on the challenged words"),
    gate: gettext("Half-way: the table waits at the gate for the host."),
    over: gettext("Game over."),
  },
  done: {
    word: gettext("wrote"),
    clues: gettext("clued"),
    halt: gettext("halted"),
    vote: gettext("voted"),
  },
  waiting: gettext("thinking…"),
  noWord: gettext("no word"),
  progress: (n, of) => interpolate(ngettext("%(n)s of %(of)s done", "%(n)s of %(of)s done", of), { n, of }, true),
  halt: gettext("Halt!"),
  haltMoment: (who, whom, word) => interpolate(gettext("Halt! %(who)s caught %(whom)s's %(word)s"), { who, whom, word }, true),
  more: (n) => interpolate(ngettext("and %(n)s more Halt!", "and %(n)s more Halts!", n), { n }, true),
  youCaught: (whom, word) => interpolate(gettext("Halt! You caught %(whom)s's %(word)s"), { whom, word }, true),
  caughtYou: (who, word) => interpolate(gettext("Halt! %(who)s caught your %(word)s"), { who, word }, true),
  guessed: (word) => interpolate(gettext("guessed %(word)s"), { word }, true),
  noGuess: gettext("no guess"),
  notKnown: gettext("not in the dictionary"),
  challenged: gettext("challenged"),
  invalid: gettext("did not stand"),
  matched: gettext("matched another word: scores nothing"),
  lastRound: (n) => interpolate(gettext("Round %(n)s's result"), { n }, true),
  winners: (names) => sentence(interpolate(ngettext("Winner: %(names)s.", "Winners: %(names)s.", names.length), { names: listText(names) }, true)),
  clock: gettext("A quiet guest's step may be played for them in "),
  timeLeft: gettext("Time left for this step: "),
  timeUp: gettext("Time is up: answer now, or the captain may pass you."),
  clockOut: gettext("The clock ran out: a quiet guest's step may be played for them."),
};

/** The Bonus Vault card's text and points from #heist-rules (the page's language). */
export function vaultCard(code) {
  const node = document.getElementById("heist-rules");
  let rules = {};
  try { rules = node ? JSON.parse(node.textContent) : {}; } catch { rules = {}; }
  const card = (rules.vault || {})[code];
  return card || { text: code, points: 0 };
}

/** The letter a card shows: the Q card is Q(u). */
export function face(letter) {
  return letter === "Q" ? "Qu" : letter;
}

/** The clue tokens on each Tableau letter, all seats: {letter: [[seat, n], ...]}. */
function tokensByLetter(view) {
  const out = {};
  for (const s of view.seats) {
    for (const [letter, n] of Object.entries(s.clues || {})) (out[letter] = out[letter] || []).push([s.seat, n]);
  }
  return out;
}

/** The Tableau: each letter card, its Showcase bonus, and (when shown) every seat's
 * tokens on it. `pick` makes each card a button (the phone's clue placement). */
export function tableau(view, meta, { pick = null, mine = null, usable = null, small = false } = {}) {
  const tokens = tokensByLetter(view);
  return h("ol", { class: `w-tableau${small ? " small" : ""}`, "aria-label": TEXT.tableau },
    view.tableau.map((card) => {
      const on = mine ? mine[card.letter] || 0 : 0;
      const label = [face(card.letter), card.showcase ? TEXT.showcase(card.showcase) : null].filter(Boolean).join(", ");
      const body = [
        h("span", { class: "w-letter", text: face(card.letter) }),
        card.showcase ? h("span", { class: "w-showcase", text: `+${card.showcase}` }) : null,
        on ? h("span", { class: "w-mine", text: "●".repeat(on) }) : null,
        !small && (tokens[card.letter] || []).length
          ? h("span", { class: "w-tokens" }, tokens[card.letter].map(([seat, n]) => h("span", { class: "w-token", title: seatName(meta, seat), text: `${initial(meta, seat)}${n > 1 ? `×${n}` : ""}` })))
          : null,
      ];
      const cls = `w-card ${card.kind}${card.showcase ? " showcase" : ""}${on ? " on" : ""}`;
      if (pick) {
        const can = usable ? usable(card.letter) : true;
        return h("li", null, h("button", {
          type: "button", class: cls, disabled: !can && !on,
          aria: { pressed: String(Boolean(on)), label: label },
          data: { letter: card.letter },
          on: { click: () => pick(card.letter) },
        }, body));
      }
      // data-card, not data-letter: on a screen of tables, data-letter marks a table's tile.
      return h("li", { class: cls, data: { card: card.letter }, "aria-label": label }, body);
    }));
}

function initial(meta, seat) {
  return seatName(meta, seat).trim().charAt(0).toUpperCase() || String(seat + 1);
}

/** Each seat's clue tokens as a line ("Ann: A, T×2"): the halt's evidence. */
export function clueLines(view, meta, { mySeat = null } = {}) {
  const shown = view.seats.filter((s) => s.clues !== null && s.clues !== undefined);
  if (!shown.length) return null;
  return h("ul", { class: "w-clues", "aria-label": TEXT.clues },
    shown.map((s) => {
      const entries = Object.entries(s.clues).sort();
      return h("li", { class: s.seat === mySeat ? "me" : "", data: { seat: s.seat } },
        h("span", { class: "w-who", text: seatName(meta, s.seat) }), ": ",
        entries.length
          ? entries.map(([letter, n], i) => [i ? " " : "", h("span", { class: "w-clue" }, face(letter), h("span", { class: "w-dots", text: "●".repeat(n) }))])
          : h("span", { class: "hint", text: TEXT.noClues }));
    }));
}

/** The two Bonus Vault cards of the round. */
export function vault(view) {
  return h("ul", { class: "w-vault", "aria-label": TEXT.vault },
    (view.vault || []).map((code) => {
      const card = vaultCard(code);
      return h("li", { class: "w-vault-card", data: { code } }, h("span", { class: "w-vault-pts", text: TEXT.points(card.points) }), " ", card.text);
    }));
}

/** The round's headline: which round, the final's doubling, the step. */
export function heading(view, meta, { letter = false } = {}) {
  return h("header", { class: "w-head" },
    h("h2", null, letter ? [h("span", { class: "w-table-name", text: TEXT.table(meta && meta.letter) }), " · "] : null, TEXT.round(view.round, view.rounds)),
    view.final && view.phase !== "over" ? h("p", { class: "w-final", text: TEXT.final }) : null);
}

/** Who the step waits for: how many are done, and each seat's mark. */
export function stepLine(view) {
  const text = TEXT.step[view.phase] || "";
  const key = view.phase;
  const todo = key === "clues" ? view.seats.filter((s) => s.has_word) : view.seats;
  const flag = { word: "wrote", clues: "clued", halt: "halted", vote: "voted" }[key];
  const done = flag ? todo.filter((s) => s[flag]).length : null;
  return h("p", { class: "w-step", role: "status", data: { phase: view.phase } }, text, flag ? ` · ${TEXT.progress(done, todo.length)}` : null);
}

/** The seats: name, score, what they did this step (never what they wrote), and from the
 * reveal on their words and guesses. `offline`: the seats whose guest is not connected
 * (the captain's tablet marks them: the one to go and ask). */
export function seatList(view, meta, { mySeat = null, offline = null } = {}) {
  const flag = { word: "wrote", clues: "clued", halt: "halted", vote: "voted" }[view.phase];
  const caughtBy = haltMoments(view);
  return h("ul", { class: "w-seats", "aria-label": TEXT.seats },
    view.seats.map((s) => {
      let state = null;
      if (flag) {
        const skip = view.phase === "clues" && !s.has_word;
        state = h("span", { class: `w-mark${s[flag] ? " done" : ""}`, text: skip ? TEXT.noWord : s[flag] ? `✓ ${TEXT.done[view.phase]}` : TEXT.waiting });
      }
      const reveal = view.phase === "vote"
        ? h("span", { class: "w-reveal" },
          s.word ? h("strong", { class: `w-word${s.known === false ? " unknown" : ""}`, text: s.word }) : h("span", { class: "hint", text: TEXT.noWord }),
          s.word && s.known === false ? h("span", { class: "w-flag", text: ` (${TEXT.notKnown})` }) : null,
          " · ", h("span", { class: "w-guess", text: s.halt ? TEXT.guessed(s.halt) : TEXT.noGuess }),
          caughtBy.some((m) => m.who === s.seat) ? h("span", { class: "w-halt-mark", text: ` ${TEXT.halt}` }) : null)
        : null;
      return h("li", { class: s.seat === mySeat ? "me" : "", data: { seat: s.seat } },
        h("span", { class: "w-name", text: seatName(meta, s.seat) }),
        offline && offline.has(s.seat) ? offlineMark() : null,
        h("span", { class: "w-score", text: String(s.score) }),
        state, reveal);
    }));
}

/** The "Halt!" moments of the reveal: each guess that names another seat's word. */
export function haltMoments(view) {
  if (view.phase !== "vote") return [];
  const out = [];
  for (const s of view.seats) {
    if (!s.halt) continue;
    for (const t of view.seats) if (t.seat !== s.seat && t.word && t.word === s.halt) out.push({ who: s.seat, whom: t.seat, word: t.word });
  }
  return out;
}

export function haltBanner(view, meta, { mySeat = null } = {}) {
  const moments = haltMoments(view);
  if (!moments.length) return null;
  const say = (m) => (m.who === mySeat ? TEXT.youCaught(seatName(meta, m.whom), m.word)
    : m.whom === mySeat ? TEXT.caughtYou(seatName(meta, m.who), m.word)
      : TEXT.haltMoment(seatName(meta, m.who), seatName(meta, m.whom), m.word));
  return h("div", { role: "status" }, h("ul", { class: "w-halts now" },
    moments.map((m) => h("li", { class: "w-halt", text: say(m) }))));
}

// What a guest opened or closed stays so: every update draws the screen afresh, and the
// gallery a guest was reading shut whenever anyone at the table acted.
const folds = new Map(); // a fold's key -> open, as the guest last left it

function foldable(key, fallback, props, ...children) {
  const summary = children[0];
  const box = h("details", { ...props, open: (folds.has(key) ? folds.get(key) : fallback) || null }, ...children);
  summary.addEventListener("click", () => folds.set(key, !box.open)); // before the toggle: the state it goes to
  return box;
}

/** The last scored round: each seat's word, whether it stood, who halted it, its points. */
export function lastRound(view, meta, { open = false } = {}) {
  const last = view.last_round;
  if (!last) return null;
  const moments = [];
  for (const s of last.seats) for (const who of s.halted_by || []) moments.push(TEXT.haltMoment(seatName(meta, who), seatName(meta, s.seat), s.word));
  return foldable(`last-${last.round}`, open, { class: "w-last", data: { round: last.round } },
    h("summary", { text: TEXT.lastRound(last.round) }),
    moments.length ? h("ul", { class: "w-halts" }, moments.map((m) => h("li", { class: "w-halt", text: m }))) : null,
    h("ul", { class: "w-last-seats" }, last.seats.map((s) => h("li", { data: { seat: s.seat } },
      h("span", { class: "w-name", text: seatName(meta, s.seat) }), " ",
      s.word ? h("strong", { class: s.valid ? "" : "w-void", text: s.word }) : h("span", { class: "hint", text: TEXT.noWord }),
      s.word && !s.valid ? h("span", { class: "hint", text: ` (${TEXT.invalid})` }) : null,
      s.matched ? h("span", { class: "hint", text: ` (${TEXT.matched})` }) : null,
      s.halt ? h("span", { class: "hint", text: ` · ${TEXT.guessed(s.halt)}` }) : null,
      h("span", { class: "w-points", text: ` ${s.points >= 0 ? "+" : ""}${s.points}` })))));
}

export function gallery(view) {
  const words = (view.gallery || []).map((e) => e.word);
  return foldable("gallery", false, { class: "w-gallery" },
    h("summary", { text: `${TEXT.gallery} (${words.length})` }),
    words.length ? h("p", { class: "w-gallery-words", text: [...new Set(words)].join(" · ") }) : h("p", { class: "hint", text: TEXT.galleryEmpty }));
}

export function winnersLine(view, meta) {
  if (view.phase !== "over") return null;
  return h("p", { class: "w-over", role: "status", text: `${TEXT.step.over} ${TEXT.winners((view.winners || []).map((s) => seatName(meta, s)))}` });
}

/** The step's clock, when the party runs one (meta.step_clock): the shell's tickClocks
 * counts it down. */
export function clockLine(view, meta, { guest = false } = {}) {
  if (!meta || !meta.step_clock || !meta.step_due_at || !(view.waiting_for || []).length) return null;
  return h("p", { class: "w-clock", role: "timer" },
    h("span", { class: "countdown", data: { openedAt: meta.step_due_at - meta.step_clock, countdown: meta.step_clock, before: guest ? TEXT.timeLeft : TEXT.clock, after: guest ? TEXT.timeUp : TEXT.clockOut }, text: "" }));
}

/** A table's seats in one flowing line (a tile's): name, score and this step's mark. */
function seatStrip(view, meta) {
  const flag = { word: "wrote", clues: "clued", halt: "halted", vote: "voted" }[view.phase];
  return h("ul", { class: "w-strip", "aria-label": TEXT.seats },
    view.seats.map((s) => h("li", { class: flag && s[flag] ? "done" : "", data: { seat: s.seat } },
      flag && s[flag] ? "✓ " : "", seatName(meta, s.seat), " ", h("b", { text: String(s.score) }))));
}

/** At most `n` Halt! moments, then how many more. */
function haltsBrief(view, meta, n = 2) {
  const moments = haltMoments(view);
  if (!moments.length) return null;
  const shown = moments.slice(0, n).map((m) => TEXT.haltMoment(seatName(meta, m.who), seatName(meta, m.whom), m.word));
  if (moments.length > n) shown.push(TEXT.more(moments.length - n));
  return h("div", { role: "status" }, h("ul", { class: "w-halts now" }, shown.map((t) => h("li", { class: "w-halt", text: t }))));
}

/** A whole table as the tablet (in full) or the dashboard and the big screen (`tile`:
 * compact, many at once) show it, from the public view. */
export function renderTable(view, meta, { tile = false, mark = true, offline = null } = {}) {
  // `mark`: the section is the table's tile on its screen (data-letter: heist/screen.js
  // lays those out); the dashboard marks the box around it, with its tablets, instead.
  const attrs = {
    class: `word w-table${tile ? " tile" : ""}`,
    "aria-label": TEXT.table(meta && meta.letter),
    data: { version: view.version, phase: view.phase, letter: mark && meta ? meta.letter : null },
  };
  const status = view.phase === "over" ? winnersLine(view, meta) : stepLine(view);
  if (tile) {
    return h("section", attrs, heading(view, meta, { letter: true }), status,
      tableau(view, meta, { small: true }), clueLines(view, meta), haltsBrief(view, meta), seatStrip(view, meta));
  }
  return h("section", attrs, heading(view, meta, { letter: true }), status,
    tableau(view, meta), clueLines(view, meta), vault(view), haltBanner(view, meta), seatList(view, meta, { offline }), lastRound(view, meta));
}
