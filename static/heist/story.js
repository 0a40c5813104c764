// The story page is server-rendered. Before the party is over it only waits: check
// again every 15 s and show the story once every table has finished.
//
// Once it is told: on the big screen (?screen=1) it becomes a slideshow, each slide as
// much as fits the screen at a size read across the room, advancing on its own (the
// arrow keys and a click step through it); on a guest's phone their own gift's journey
// comes first and the long lists fold away, with the downloads last.
import { h } from "./ui.js";

const SLIDE_SECONDS = 12;
const RECAP_MINUTES = 4; // the big screen's recap unless its address says (?minutes=N, or all)

const root = document.getElementById("story");
if (root && root.dataset.over === "0") {
  setTimeout(() => window.location.reload(), 15_000);
} else if (root && document.body.classList.contains("story-screen")) {
  slideshow(root);
} else if (root) {
  forAPhone(root);
  contents(root);
}

// --- the big screen --------------------------------------------------------------------------

/** What each section shows, as units that may go to different slides, as the game's
 * template marks them (`data-slide`, story/game.py): a unit is a node and the kind of
 * list it belongs in ("ol", "ul", or "tbody": rows keep their table head); "alone": a
 * slide of its own, as large as the screen allows (a table's picture); "heading": its
 * text as a sub-heading (a table's summary). A section with no marks has no slide. */
function units(section) {
  return [...section.querySelectorAll("[data-slide]")].map((node) => {
    const how = node.dataset.slide;
    if (how === "heading") return { node: h("h3", { class: "slide-sub", text: node.textContent }), wrap: null, from: node };
    return { node, wrap: ["ol", "ul", "tbody"].includes(how) ? how : null, alone: how === "alone", from: node };
  });
}

/** Where a unit goes on a slide: its list (or table body) at the end of the slide, made
 * if the slide does not end in one; `outer` is what was made (to take back). */
function container(slide, wrap, section) {
  const last = slide.lastElementChild;
  if (wrap === "tbody") {
    if (last && last.tagName === "TABLE") return { box: last.tBodies[0], outer: null };
    const table = h("table", { class: "story-table" }, section.querySelector("thead").cloneNode(true), h("tbody"));
    slide.append(table);
    return { box: table.tBodies[0], outer: table };
  }
  if (wrap === "ol" || wrap === "ul") {
    if (last && last.tagName === wrap.toUpperCase()) return { box: last, outer: null };
    const list = h(wrap, { class: "plain slide-list" });
    slide.append(list);
    return { box: list, outer: list };
  }
  return { box: slide, outer: null };
}

/** The recap's length: `?minutes=N` on the big screen's address (4 unless said), or
 * `?minutes=all` for every slide. */
function recapSlides() {
  const said = new URLSearchParams(window.location.search).get("minutes");
  if (said === "all") return Infinity;
  const minutes = Number(said);
  return Math.max(1, Math.floor(((Number.isFinite(minutes) && minutes > 0 ? minutes : RECAP_MINUTES) * 60) / SLIDE_SECONDS));
}

function slideshow(story) {
  const deck = h("div", { class: "story-deck", "aria-live": "polite" });
  const counter = h("p", { class: "slide-no", "aria-hidden": "true", text: "1 / 1" }); // its height counts while measuring
  story.append(deck, counter);
  const sections = [...story.querySelectorAll(":scope > section")];
  for (const section of sections) section.hidden = true; // the deck takes the whole screen
  for (const hide of story.querySelectorAll(".story-downloads, .story-toc")) hide.hidden = true;
  // A recap of a few minutes: every slide when they fit, else what the game marks
  // `data-recap` (1: the heart of it, then 2, then 3), level by level while the whole
  // level fits; of the first that does not, its last slides go (a long list's end).
  const budget = recapSlides();
  const levels = [1, 2, 3, Infinity];
  let slides = build(deck, sections, Infinity);
  let step = slides.length > budget ? 0 : levels.length - 1;
  if (step === 0) slides = build(deck, sections, levels[0]);
  while (step < levels.length - 1 && slides.length <= budget) {
    step += 1;
    slides = build(deck, sections, levels[step]);
  }
  for (let i = slides.length - 1; i >= 0 && slides.length > budget; i -= 1) {
    if (step === 0 || Number(slides[i].dataset.level) === levels[step]) {
      slides[i].remove();
      slides.splice(i, 1);
    }
  }
  story.dataset.recap = budget === Infinity ? "all" : String(budget);
  let at = 0;
  let timer = null;
  const show = (i) => {
    at = (i + slides.length) % slides.length;
    slides.forEach((s, k) => { s.hidden = k !== at; });
    counter.textContent = `${(at + 1).toLocaleString(document.documentElement.lang)} / ${slides.length.toLocaleString(document.documentElement.lang)}`;
    story.dataset.slide = String(at);
    clearTimeout(timer);
    timer = setTimeout(() => show(at + 1), SLIDE_SECONDS * 1000);
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight" || e.key === " " || e.key === "PageDown") show(at + 1);
    else if (e.key === "ArrowLeft" || e.key === "PageUp") show(at - 1);
    else return;
    e.preventDefault();
  });
  deck.addEventListener("click", () => show(at + 1));
  story.dataset.slides = String(slides.length);
  show(0);
}

/** The deck's slides from the units of every section the `level` keeps (a unit's
 * `data-recap`, or its section's; Infinity: all), as much on each as fits; each slide's
 * `data-level`: the most important rank on it. */
function build(deck, sections, level) {
  deck.replaceChildren();
  const slides = [];
  const newSlide = (section, more) => {
    const title = section.querySelector("h2").textContent;
    const slide = h("section", { class: "story-slide", "aria-label": title }, h("h2", { text: more ? interpolate(gettext("%(title)s (continued)"), { title }, true) : title }));
    for (const s of slides) s.hidden = true; // one slide shown (and measured) at a time
    deck.append(slide);
    slides.push(slide);
    return slide;
  };
  const full = (slide) => slide.scrollHeight > slide.clientHeight + 1 || slide.scrollWidth > slide.clientWidth + 1;
  const rank = (node) => {
    const mark = node.closest("[data-recap]");
    return mark === null ? Infinity : Number(mark.dataset.recap);
  };
  for (const section of sections) {
    const parts = units(section).filter((u) => rank(u.from) <= level);
    if (!parts.length) continue;
    let slide = newSlide(section, false);
    let count = 0;
    for (const { node, wrap, alone, from } of parts) {
      if (slide === null || (alone && count > 0)) {
        slide = newSlide(section, slides.length > 0 && slides[slides.length - 1].getAttribute("aria-label") === section.querySelector("h2").textContent);
        count = 0;
      }
      const copy = node.cloneNode(true);
      for (const named of [copy, ...copy.querySelectorAll("[id]")]) named.removeAttribute("id"); // the page's own keep theirs
      const { box, outer } = container(slide, wrap, section);
      box.append(copy);
      if (full(slide) && count > 0) {
        copy.remove();
        if (outer) outer.remove();
        slide = newSlide(section, true);
        container(slide, wrap, section).box.append(copy);
        count = 0;
      }
      slide.dataset.level = String(Math.min(Number(slide.dataset.level || Infinity), rank(from)));
      count += 1;
      if (alone) slide = null;
    }
  }
  return slides;
}

// --- a guest's phone -------------------------------------------------------------------------

function forAPhone(story) {
  const seat = readSeat(story.dataset.code);
  const mine = seat && story.querySelector(`#story-journeys details.journey[data-gift="${CSS.escape(String(seat.gift_number))}"]`);
  if (mine) {
    const copy = mine.cloneNode(true);
    copy.open = true;
    delete copy.dataset.gift; // the list below keeps the one named by its gift
    copy.removeAttribute("id"); // and the contents' link
    copy.dataset.mine = "";
    copy.querySelector("summary").prepend(gettext("Your gift: "));
    const section = h("section", { class: "panel", id: "my-journey", "aria-labelledby": "my-journey-h" },
      h("h2", { id: "my-journey-h", text: gettext("Your gift's journey") }), copy);
    story.querySelector(".party-title").after(section);
  }
  if (!matchMedia("(max-width: 40rem)").matches) return;
  // A phone: the long lists fold away (a tap opens them), the downloads go last.
  for (const d of story.querySelectorAll("details.timeline")) d.open = false;
  const gifts = story.querySelector("#story-gifts .table-scroll");
  if (gifts) {
    const rows = gifts.querySelectorAll("tbody tr").length;
    const fold = h("details", { class: "journey fold" }, h("summary", { text: interpolate(gettext("Every gift (%(count)s)"), { count: rows }, true) }));
    gifts.replaceWith(fold);
    fold.append(gifts);
  }
  const journeys = [...story.querySelectorAll("#story-journeys > details.journey")];
  if (journeys.length > 1) {
    const fold = h("details", { class: "journey fold" }, h("summary", { text: interpolate(gettext("Every gift's journey (%(count)s)"), { count: journeys.length }, true) }));
    journeys[0].before(fold);
    fold.append(...journeys);
  }
  const downloads = story.querySelector(".story-downloads");
  if (downloads) story.append(downloads);
}

// --- the contents ------------------------------------------------------------------------------

/** The contents' links lead into folded parts (a table's rounds, a gift's journey): what
 * a link names opens, with every fold around it, and comes into view; each section leads
 * back to the contents. */
function contents(story) {
  const toc = story.querySelector("#story-toc");
  if (!toc) return;
  const reveal = () => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (!target || !story.contains(target)) return;
    for (let d = target.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
    if (target.tagName === "DETAILS") target.open = true;
    target.scrollIntoView({ block: "start" });
  };
  window.addEventListener("hashchange", reveal);
  toc.addEventListener("click", (e) => {
    const link = e.target.closest("a[href^='#']");
    if (link && link.getAttribute("href") === window.location.hash) reveal(); // the same link again
  });
  for (const section of story.querySelectorAll(":scope > section")) {
    section.append(h("p", { class: "to-toc" }, h("a", { href: "#story-toc", text: gettext("Back to the contents") })));
  }
  reveal();
}

function readSeat(code) {
  try {
    return JSON.parse(localStorage.getItem(`heist.seat.${code}`) || "null");
  } catch {
    return null;
  }
}
