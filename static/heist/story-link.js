// A link to the party's story (story/<CODE>/), for the end of a guest's game and the
// big screen. Kept in its own module so the screens only add one call each.
export const EVERY_TABLE_STORY = gettext("The party's story: every heist, every table");

export function storyLink(code, { screen = false, text = gettext("The party's story: who took what") } = {}) {
  const a = document.createElement("a");
  a.className = "btn primary story-link";
  a.href = `/story/${encodeURIComponent(code)}/${screen ? "?screen=1" : ""}`;
  a.textContent = text;
  return a;
}
