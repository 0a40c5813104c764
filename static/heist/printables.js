// The host dashboard's printables panel: downloads a party's PDFs with the host secret
// in the Authorization header (never in a URL), and saves them. Self-contained: it
// reads the code from the page and the secret from localStorage, as host.js does, and
// the kinds the party's game prints (the host's and the game's, labelled in the page's
// language) from the panel ({% printables_menu %}, printables/templatetags).
import { serverSays } from "./ui.js";

const app = document.getElementById("app");
const code = app.dataset.code;
const token = localStorage.getItem(`heist.host.${code}`);
const panel = document.getElementById("printables");
const status = document.getElementById("printables-status");

const kindsEl = document.getElementById("printables-kinds");
const KINDS = kindsEl ? JSON.parse(kindsEl.textContent) : [];

async function download(kind, button) {
  button.disabled = true;
  status.textContent = gettext("Preparing the PDF…");
  try {
    const res = await fetch(`/api/parties/${encodeURIComponent(code)}/printables/${kind}.pdf`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!res.ok) {
      let message = interpolate(gettext("The download failed (%(status)s)."), { status: res.status }, true);
      try { message = serverSays(await res.json()) || message; } catch { /* not JSON */ }
      status.textContent = message;
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `${row.dataset.slug}-${code}-${kind}.pdf`;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    status.textContent = gettext("Downloaded. Print at 100 % (actual size) on US Letter.");
  } catch {
    status.textContent = gettext("The download failed: check the connection and try again.");
  } finally {
    button.disabled = false;
  }
}

const row = document.getElementById("printables-buttons");

if (panel && token && row) {
  for (const { kind, label } of KINDS) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = kind === "all" ? "btn primary small" : "btn small";
    b.dataset.kind = kind;
    b.textContent = label;
    b.addEventListener("click", () => download(kind, b));
    row.append(b);
  }
  panel.hidden = false;
}
