// Word Heist on a guest's phone (the phone module: static/heist/play.js is its shell and
// says what `mount` returns): the seat's view (games/word/views.py seat_view) and the
// table's details as DOM, on one screen at 390x844.
//
// Each step's panel: the secret Heist word, with what the rules will say of it as it is
// typed (made from the Tableau, not in the Word Gallery, in the dictionary: the seat's
// view lists the dictionary's words the Tableau makes; a word it lacks may still be
// written, and goes to the table's vote); the clue tokens, tapped onto the Tableau's cards with exactly as many tokens as
// the word uses each letter (a tap places them all, so no other count can be sent); the
// Halt guess with every player's clues in view; the challenge vote at the reveal, with
// its "Halt!" moments; the scores; the end. The panel is kept across the table's updates
// while its step is the same, so another guest's answer never clears what is typed.
import { h, render, showError, track } from "../heist/ui.js";
import { EVERY_TABLE_STORY, storyLink } from "../heist/story-link.js";
import { check, cardCounts, fold } from "./spell.js";
import { TEXT as T, clockLine, clueLines, face, gallery, haltBanner, heading, lastRound, seatList, stepLine, tableau, vault, winnersLine } from "./table.js";

export const TEXT = {
  yourScore: (n) => interpolate(ngettext("You: %(n)s point", "You: %(n)s points", n), { n }, true),
  wordLabel: gettext("Your secret Heist word"),
  wordHint: gettext("Any letters of the Tableau, each as often as you like (Qu is one card)."),
  write: gettext("Write it"),
  problems: {
    empty: gettext("Type a word of at least 3 letters."),
    letters: gettext("One word, letters only: no spaces, hyphens or apostrophes."),
    short: gettext("At least 3 letters."),
    long: gettext("That is too long."),
    gallery: gettext("Already in the Word Gallery: no word twice."),
    own: gettext("That is your own Heist word."),
  },
  lacks: (letters) => interpolate(gettext("Not in the Tableau: %(letters)s"), { letters }, true),
  makeable: gettext("✓ Made from the Tableau"),
  fresh: gettext("✓ Not in the Word Gallery"),
  dictionaryLater: gettext("The dictionary is checked when you write it; the table may vote for a word it lacks."),
  wrote: (word) => interpolate(gettext("Your Heist word: %(word)s"), { word }, true),
  known: gettext("✓ In the dictionary"),
  unknown: gettext("Not in the dictionary: the table votes on it at the reveal."),
  noWordThisRound: gettext("You wrote no word this round: you score nothing for it, and nobody can halt you."),
  cluesLabel: gettext("Tap the letters to drop your clue tokens"),
  cluesHint: (min, max) => interpolate(gettext("%(min)s to %(max)s tokens; a letter takes one token for each time your word uses it."), { min, max }, true),
  tokens: (n, max) => interpolate(ngettext("%(n)s of %(max)s token", "%(n)s of %(max)s tokens", max), { n, max }, true),
  drop: gettext("Drop these clues"),
  dropped: gettext("Your clues are down. Everyone's appear at once."),
  haltLabel: gettext("Your Halt word: guess another player's word"),
  haltHint: gettext("Match a word and you score it too. Never your own."),
  halt: gettext("Halt!"),
  noGuess: gettext("No guess this round"),
  halted: (word) => interpolate(gettext("Your Halt word: %(word)s"), { word }, true),
  noHalt: gettext("You made no guess this round."),
  voteLabel: gettext("The challenge: overrule the dictionary?"),
  voteHint: gettext("Tick a word to accept one the dictionary lacks, or to reject one it has. Most votes decide; a tie keeps the player's word."),
  accept: (name, word) => interpolate(gettext("Accept %(name)s's %(word)s"), { name, word }, true),
  reject: (name, word) => interpolate(gettext("Reject %(name)s's %(word)s"), { name, word }, true),
  vote: gettext("Cast my vote"),
  agree: gettext("The dictionary is right"),
  voted: gettext("Your vote is in."),
  waitOthers: gettext("Waiting for the others."),
  gate: gettext("Half-way: the game waits at the gate until the host opens it."),
  youWon: gettext("You won!"),
  youTied: gettext("You share the win!"),
  finalScore: (n) => interpolate(ngettext("You scored %(n)s point in all.", "You scored %(n)s points in all.", n), { n }, true),
  sending: gettext("Sending"),
};

function rulesFacts() {
  const node = document.getElementById("heist-rules");
  try { return node ? JSON.parse(node.textContent) : {}; } catch { return {}; }
}

/** Draw Word Heist's phone into `root`; `ctx.live` is the shell's socket. */
export function mount(root, ctx) {
  const R = rulesFacts();
  const MIN_TOKENS = (R.tokens && R.tokens.min) || 1;
  const MAX_TOKENS = (R.tokens && R.tokens.max) || 5;
  const WORD = R.word || { min: 3, max: 24 };
  const S = {
    me: null,
    party: null,
    seat: null, // the latest `table` payload with this seat's view
    sent: null, // the step key of an answer on its way
    fatal: null,
    draft: { word: "", halt: "" },
    clues: {}, // letter -> tokens, being placed
    votes: new Set(), // seats ticked
    step: null, // the step whose drafts S holds
    shown: null, // the step the phone was last brought back up to
    panelKey: null,
    panel: null,
  };

  function send(action, what) {
    const view = S.seat.view;
    S.sent = stepKey(view);
    draw();
    return track(ctx.live.act({ ...action, seat: view.you }, { version: view.version }), what || TEXT.sending)
      .catch((err) => {
        S.sent = null;
        showError(err);
        S.panelKey = null;
        draw();
      });
  }

  const stepKey = (view) => `${view.round}:${view.phase}`;

  function galleryWords(view) {
    return (view.gallery || []).map((e) => e.word);
  }

  /** The live verdict lines under a word field. */
  function verdict(result, { halt = false } = {}) {
    if (result.problem === "empty") return [h("li", { class: "hint", text: TEXT.problems.empty })];
    if (result.problem === "tableau") return [h("li", { class: "w-bad", text: `✗ ${TEXT.lacks(result.lack.map(face).join(", "))}` })];
    if (result.problem) return [h("li", { class: "w-bad", text: `✗ ${TEXT.problems[result.problem]}` })];
    const dictionary = halt ? null
      : result.known === true ? h("li", { class: "w-good", data: { known: "yes" }, text: TEXT.known })
        : result.known === false ? h("li", { class: "w-warn", data: { known: "no" }, text: `✗ ${TEXT.unknown}` })
          : h("li", { class: "hint", text: TEXT.dictionaryLater });
    return [
      h("li", { class: "w-good", text: TEXT.makeable }),
      h("li", { class: "w-good", text: TEXT.fresh }),
      dictionary,
    ];
  }

  /** A word field with its live verdict and its send button. */
  function wordField({ id, label, hint, key, own = null, button, onSend, extra = null, halt = false }) {
    const view = S.seat.view;
    const dictionary = !halt && Array.isArray(view.playable) ? new Set(view.playable) : null;
    const facts = { language: view.language, tableau: view.tableau.map((c) => c.letter), gallery: galleryWords(view), min: WORD.min, max: WORD.max, own, dictionary };
    const verdictBox = h("ul", { class: "w-verdict", id: `${id}-verdict`, "aria-live": "polite" });
    const submit = h("button", { type: "submit", class: "btn primary big", data: { key: id }, text: button });
    const input = h("input", {
      id, type: "text", class: "w-input", value: S.draft[key], autocomplete: "off", autocapitalize: "characters",
      spellcheck: "false", enterkeyhint: "send", maxlength: "40", "aria-describedby": `${id}-hint ${id}-verdict`,
    });
    const refresh = () => {
      S.draft[key] = input.value;
      const result = check(input.value, facts);
      render(verdictBox, verdict(result, { halt }));
      submit.disabled = !result.ok;
      input.setAttribute("aria-invalid", String(!result.ok && Boolean(input.value.trim())));
    };
    input.addEventListener("input", refresh);
    refresh();
    return h("form", {
      class: "w-form", novalidate: true,
      on: { submit: (ev) => { ev.preventDefault(); const r = check(input.value, facts); if (r.ok) onSend(input.value.trim()); } },
    },
    h("label", { for: id, class: "w-label", text: label }),
    h("p", { class: "hint", id: `${id}-hint`, text: hint }),
    input, verdictBox, submit, extra);
  }

  function wordPanel(view) {
    if (view.my_word !== undefined && view.my_word !== null) {
      return h("div", { class: "w-done" },
        h("p", { class: "w-mine-word", text: TEXT.wrote(view.my_word) }),
        h("p", { class: view.my_known ? "w-good" : "w-warn", text: view.my_known ? TEXT.known : TEXT.unknown }),
        h("p", { class: "hint", text: TEXT.waitOthers }));
    }
    if (!view.can_act) return h("p", { class: "w-done", text: TEXT.noWordThisRound });
    return wordField({
      id: "w-word", label: TEXT.wordLabel, hint: TEXT.wordHint, key: "word", button: TEXT.write,
      onSend: (word) => send({ type: "write", word }),
    });
  }

  function cluePanel(view) {
    if (!view.my_word) return h("p", { class: "w-done", text: TEXT.noWordThisRound });
    const mine = view.can_act ? S.clues : view.my_clues || {};
    const counts = cardCounts(view.my_word);
    const total = Object.values(mine).reduce((a, b) => a + b, 0);
    if (!view.can_act) {
      return h("div", { class: "w-done" },
        h("p", { class: "w-mine-word", text: TEXT.wrote(view.my_word) }),
        tableau(view, S.seat.table, { mine }),
        h("p", { text: TEXT.dropped }));
    }
    const pick = (letter) => {
      if (S.clues[letter]) delete S.clues[letter];
      else if (counts[letter] && total + counts[letter] <= MAX_TOKENS) S.clues[letter] = counts[letter];
      S.panelKey = null;
      draw();
      const again = root.querySelector(`.w-clue-pick [data-letter="${letter}"]`);
      if (again) again.focus();
    };
    const usable = (letter) => Boolean(counts[letter]) && total + counts[letter] <= MAX_TOKENS;
    return h("div", { class: "w-clue-pick" },
      h("p", { class: "w-mine-word", text: TEXT.wrote(view.my_word) }),
      h("p", { class: "w-label", id: "w-clues-label", text: TEXT.cluesLabel }),
      h("p", { class: "hint", text: TEXT.cluesHint(MIN_TOKENS, MAX_TOKENS) }),
      tableau(view, S.seat.table, { pick, mine, usable }),
      h("p", { class: "w-count", role: "status", data: { tokens: total }, text: TEXT.tokens(total, MAX_TOKENS) }),
      h("button", {
        type: "button", class: "btn primary big", data: { key: "w-drop" }, disabled: total < MIN_TOKENS || total > MAX_TOKENS,
        on: { click: () => send({ type: "clue", tokens: { ...S.clues } }) },
      }, TEXT.drop));
  }

  function haltPanel(view) {
    if (!view.can_act) {
      return h("div", { class: "w-done" },
        h("p", { class: "w-mine-word", text: view.my_halt ? TEXT.halted(view.my_halt) : TEXT.noHalt }),
        h("p", { class: "hint", text: TEXT.waitOthers }));
    }
    return wordField({
      id: "w-halt", label: TEXT.haltLabel, hint: TEXT.haltHint, key: "halt", own: view.my_word, button: TEXT.halt, halt: true,
      onSend: (word) => send({ type: "halt", word }),
      extra: h("button", { type: "button", class: "btn small w-skip", data: { key: "w-no-guess" }, on: { click: () => send({ type: "halt", word: null }) } }, TEXT.noGuess),
    });
  }

  function votePanel(view, meta) {
    if (!view.can_act) return h("p", { class: "w-done", text: `${TEXT.voted} ${TEXT.waitOthers}` });
    const name = (seat) => (seat === view.you ? pgettext("the person reading, in place of their name", "you") : (meta.roster && meta.roster[seat] ? meta.roster[seat].name : String(seat + 1)));
    const targets = (view.clued || []).filter((s) => s !== view.you || !view.seats[s].known);
    const boxes = targets.map((seat) => {
      const s = view.seats[seat];
      const id = `w-vote-${seat}`;
      const box = h("input", { type: "checkbox", id, checked: S.votes.has(seat), on: { change: (ev) => { if (ev.target.checked) S.votes.add(seat); else S.votes.delete(seat); } } });
      return h("li", { class: s.known ? "known" : "unknown" }, box, " ",
        h("label", { for: id, text: s.known ? TEXT.reject(name(seat), s.word) : TEXT.accept(name(seat), s.word) }));
    });
    return h("div", { class: "w-vote" },
      h("p", { class: "w-label", text: TEXT.voteLabel }),
      h("p", { class: "hint", text: TEXT.voteHint }),
      boxes.length ? h("ul", { class: "w-vote-list" }, boxes) : null,
      h("button", {
        type: "button", class: "btn primary big", data: { key: "w-vote" },
        on: { click: () => send({ type: "vote", overrule: [...S.votes].filter((s) => targets.includes(s)).sort((a, b) => a - b) }) },
      }, S.votes.size ? TEXT.vote : TEXT.agree));
  }

  function overPanel(view) {
    const winners = view.winners || [];
    const head = winners.includes(view.you) ? (winners.length > 1 ? TEXT.youTied : TEXT.youWon) : T.step.over;
    return h("div", { class: "w-done over" },
      h("p", { class: "w-big", text: head }),
      h("p", { text: TEXT.finalScore(view.seats[view.you].score) }));
  }

  function panel(view, meta) {
    const key = `${stepKey(view)}:${view.can_act}:${view.my_word}:${view.my_halt}:${JSON.stringify(view.my_clues)}:${S.sent}`;
    if (S.panel && key === S.panelKey) return S.panel;
    if (S.step !== stepKey(view)) {
      // a new step: what was typed or ticked for the last one is gone
      S.step = stepKey(view);
      S.clues = {};
      S.votes = new Set();
      if (view.phase === "word") S.draft = { word: "", halt: "" };
    }
    S.panelKey = key;
    let body;
    if (S.sent === stepKey(view) && view.can_act) body = h("p", { class: "w-done", text: `${TEXT.sending}…` });
    else if (view.phase === "word") body = wordPanel(view);
    else if (view.phase === "clues") body = cluePanel(view);
    else if (view.phase === "halt") body = haltPanel(view);
    else if (view.phase === "vote") body = votePanel(view, meta);
    else if (view.phase === "gate") body = h("p", { class: "w-done", text: TEXT.gate });
    else body = overPanel(view);
    S.panel = h("section", { class: "w-panel", data: { step: view.phase } }, body);
    return S.panel;
  }

  /** A new step this seat acts on, while the phone is scrolled down past it (reading the
   * last round's result or the gallery): back up to the Tableau and the step's panel, or a
   * guest on a small phone sees no field and waits for nothing. */
  function bringStepIntoView(view) {
    if (!view.can_act || S.shown === stepKey(view)) return;
    S.shown = stepKey(view);
    const panelBox = root.querySelector(".w-panel");
    if (panelBox && panelBox.getBoundingClientRect().top < 0) root.querySelector(".w-phone").scrollIntoView({ block: "start", behavior: "auto" });
  }

  function draw() {
    if (S.fatal) {
      render(root, h("section", { class: "panel", role: "alert" },
        h("h1", { text: gettext("You're not at this table any more") }),
        h("p", { text: S.fatal })));
      return;
    }
    if (!S.me) return;
    if (!S.seat) {
      const p = S.party || {};
      // The shell's head above names the party and the guest (play.js).
      render(root, h("section", { class: "panel lobby", "aria-labelledby": "seat-h" },
        h("p", { class: "waiting" }, h("span", { class: "spinner", "aria-hidden": "true" }),
          p.guest_count
            ? interpolate(ngettext("Waiting for the host to seat everyone · %(n)s guest in.", "Waiting for the host to seat everyone · %(n)s guests in.", p.guest_count), { n: p.guest_count }, true)
            : gettext("Waiting for the host to seat everyone."))));
      return;
    }
    const { view, table: meta } = S.seat;
    if (S.sent !== null && (S.sent !== stepKey(view) || !view.can_act)) S.sent = null;
    const focused = document.activeElement;
    const keep = focused && root.contains(focused) && focused.tagName === "INPUT" ? { id: focused.id, start: focused.selectionStart, end: focused.selectionEnd } : null;
    const over = S.party && S.party.status === "over";
    const clueTableau = view.phase === "clues" && view.my_word; // the panel holds the Tableau
    render(root, h("div", { class: "word w-phone", data: { version: view.version, phase: view.phase } },
      h("div", { class: "w-top" }, heading(view, meta), h("p", { class: "w-you", text: TEXT.yourScore(view.seats[view.you].score) })),
      view.phase === "over" ? winnersLine(view, meta) : stepLine(view),
      clueTableau ? null : tableau(view, meta),
      view.phase === "halt" ? clueLines(view, meta, { mySeat: view.you }) : null,
      haltBanner(view, meta, { mySeat: view.you }),
      panel(view, meta),
      view.can_act ? clockLine(view, meta, { guest: true }) : null,
      vault(view),
      seatList(view, meta, { mySeat: view.you }),
      lastRound(view, meta, { open: view.phase === "word" && view.round > 1 && !view.my_word }),
      gallery(view),
      over ? h("p", { class: "w-story" }, storyLink(ctx.code, { text: EVERY_TABLE_STORY })) : null));
    bringStepIntoView(view);
    if (keep) {
      const input = document.getElementById(keep.id);
      if (input && document.activeElement !== input) {
        input.focus({ preventScroll: true });
        try { input.setSelectionRange(keep.start, keep.end); } catch { /* not a text field */ }
      }
    }
  }

  return {
    snapshot(snap) {
      S.me = snap.me;
      S.party = snap.party;
      S.seat = snap.table || null;
      S.panelKey = null; // a resync: draw the step afresh from the server's view
      draw();
    },
    table(msg) {
      S.seat = msg;
      draw();
    },
    party(party) {
      S.party = { ...(S.party || {}), ...party };
      draw();
    },
    fatal(closeCode, message) {
      S.fatal = message;
      draw();
    },
    draw,
  };
}

export { fold };
