// What the phone checks of a typed word as the guest types, the way the rules do
// (games/word/spelling.py fold, games/word/letters.py card_counts and makeable): the
// rules' answer stays the authority (the server checks again, and the roots of the Word
// Gallery only there), this only says at once what it will say. The dictionary's answer
// comes from the seat's view: `playable`, every dictionary word the Tableau makes (a few
// hundred bytes, games/word/views.py), so no keystroke asks the server.

const UMLAUTS = { "Ä": "AE", "Ö": "OE", "Ü": "UE" };
const LETTERS = /^[A-ZÑ]+$/;

/** The word as the rules spell it (upper case A-Z; Spanish keeps Ñ), or null. */
export function fold(text, language) {
  let word = String(text).trim().toUpperCase(); // "ß" -> "SS", as Python's upper()
  if (language === "de") for (const [u, w] of Object.entries(UMLAUTS)) word = word.split(u).join(w);
  const out = [];
  for (const ch of word.normalize("NFD")) {
    if (/\p{M}/u.test(ch)) {
      if (ch === "\u0303" && language === "es" && out.length && out[out.length - 1] === "N") out[out.length - 1] = "Ñ";
      continue;
    }
    out.push(ch);
  }
  const folded = out.join("");
  return folded && LETTERS.test(folded) ? folded : null;
}

/** How many times the word uses each letter card: a U straight after a Q rides on the
 * Q(u) card. */
export function cardCounts(word) {
  const counts = {};
  for (let i = 0; i < word.length; i += 1) {
    if (word[i] === "U" && i > 0 && word[i - 1] === "Q") continue;
    counts[word[i]] = (counts[word[i]] || 0) + 1;
  }
  return counts;
}

/** The word's letters the Tableau lacks (each once, in the word's order). */
export function missing(word, tableau) {
  const have = new Set(tableau);
  return Object.keys(cardCounts(word)).filter((c) => !have.has(c));
}

/** What the rules will say of `text` as a Heist word (or a Halt word, with `own`):
 * {word, ok, problem, known}. `dictionary` (a Set of the dictionary's words the Tableau
 * makes, or null) gives `known` (null without it); a word it lacks is still ok: the
 * table votes on it at the reveal. */
export function check(text, { language, tableau, gallery = [], min = 3, max = 24, own = null, dictionary = null }) {
  if (!String(text).trim()) return { word: null, ok: false, problem: "empty" };
  const word = fold(text, language);
  if (word === null) return { word: null, ok: false, problem: "letters" };
  if (word.length < min) return { word, ok: false, problem: "short" };
  if (word.length > max) return { word, ok: false, problem: "long" };
  const lack = missing(word, tableau);
  if (lack.length) return { word, ok: false, problem: "tableau", lack };
  if (gallery.includes(word)) return { word, ok: false, problem: "gallery" };
  if (own && word === own) return { word, ok: false, problem: "own" };
  return { word, ok: true, problem: null, known: dictionary ? dictionary.has(word) : null };
}
