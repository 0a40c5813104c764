"""What a screen must be where it is shown, measured in the browser: the projector's
text large enough to read across a room and never cut short, a phone's decision and its
confirm button on one screen. Shared by tests/browser/test_screens_browser.py and the
100-guest party (tests/browser/test_big_party_browser.py calls `projector_checked`)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.browser.helpers import fits

# Read from across a room: no text on the big screen under this at 1280x720.
PROJECTOR_MIN_PX = 24

# The texts that matter on the big screen: none may be cut short (an ellipsis, a clip).
PROJECTOR_TEXTS = (
    ".screen-head .party-title, .screen-note, .tile-head .round-no, .tile-head .round-name, .tile-status, "
    ".tile-badge, .tile-relay, .screen-bar h2, .screen-bar .hint, .big-ring, .end-list li, .screen-end h2, "
    ".tile-seats li, .tile-log li, .join-url, .bigcode, .story-slide h2, .story-slide h3, .story-slide li, .story-slide p, .story-slide td, "
    ".story-slide th"
)


def small_texts(page: Page, min_px: float) -> list[str]:
    """Visible elements holding text of their own in a font under `min_px`, computed
    (the screen reader's .sr-only text excepted)."""
    return page.evaluate(
        """(min) => {
            const out = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const seen = new Set();
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                const el = n.parentElement;
                if (!el || seen.has(el) || !n.textContent.trim()) continue;
                seen.add(el);
                if (el.closest('.sr-only, script, style, title, [hidden], svg')) continue;  // svg: svg_small_texts
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight) continue;
                const px = parseFloat(getComputedStyle(el).fontSize);
                if (px < min - 0.01) out.push(`${px.toFixed(1)}px <${el.tagName.toLowerCase()} class="${el.className}">: ${n.textContent.trim().slice(0, 40)}`);
            }
            return out;
        }""",
        min_px,
    )


def svg_small_texts(page: Page, min_px: float) -> list[str]:
    """An SVG's <text> drawn under `min_px` on the screen (its font size times the
    picture's scale)."""
    return page.evaluate(
        """(min) => [...document.querySelectorAll('svg text')].filter((t) => {
                const r = t.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) return false;
                const m = t.getScreenCTM();
                const px = parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
                return px < min - 0.01;
            }).map((t) => t.textContent.trim().slice(0, 40))""",
        min_px,
    )


def truncated(page: Page, selector: str) -> list[str]:
    """Visible elements matching `selector` whose text is cut (wider or taller than their
    box: an ellipsis, a line clamp, a clip)."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.height === 0 || el.closest('[hidden]')) return false;
                if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) return true;
                // cut off by a box around it that hides its overflow
                for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
                    const s = getComputedStyle(p);
                    if (s.overflow === 'visible' && s.overflowY === 'visible') continue;
                    const q = p.getBoundingClientRect();
                    if (r.bottom > q.bottom + 1 || r.right > q.right + 1) return true;
                }
                return false;
            }).map((el) => el.textContent.trim().slice(0, 50))""",
        selector,
    )


def in_view(page: Page, selector: str) -> bool:
    """The element is wholly inside the viewport as the page is scrolled now."""
    return page.evaluate(
        """(sel) => { const el = document.querySelector(sel); if (!el) return false;
                      const r = el.getBoundingClientRect();
                      return r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1
                          && r.left >= -1 && r.right <= innerWidth + 1; }""",
        selector,
    )


def page_height(page: Page) -> int:
    return page.evaluate("() => document.documentElement.scrollHeight")


def projector_checked(page: Page, shots: Path, name: str, sizes=((1280, 720), (1920, 1080))) -> None:
    """The big screen as it is now, at each projector size: one screen (no scroll), no
    text under 24 px (scaled up with the screen), nothing that matters cut short; a
    screenshot of each in `shots`."""
    before = page.viewport_size
    try:
        for w, hgt in sizes:
            page.set_viewport_size({"width": w, "height": hgt})
            page.wait_for_timeout(50)  # one frame for the layout (and the end list's paging) to settle
            page.screenshot(path=str(shots / f"{name}-{w}x{hgt}.png"))
            floor = PROJECTOR_MIN_PX * w / 1280
            assert fits(page), f"{name} at {w}x{hgt}: the big screen scrolls"
            small = small_texts(page, floor)
            assert not small, f"{name} at {w}x{hgt}: text under {floor:.0f} px: {small[:6]}"
            cut = truncated(page, PROJECTOR_TEXTS)
            assert not cut, f"{name} at {w}x{hgt}: cut short: {cut[:6]}"
    finally:
        if before:
            page.set_viewport_size(before)


def words_broken(page: Page, selector: str) -> list[str]:
    """Words of the matching visible elements' text that wrap inside themselves ("Gif t"):
    a word whose range spans two line boxes."""
    return page.evaluate(
        """(sel) => {
            const out = [];
            for (const el of document.querySelectorAll(sel)) {
                if (!el.getClientRects().length) continue;
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    const re = /[^\\s-]+/g;  // a break after a hyphen is a break between words
                    for (let m = re.exec(n.textContent); m; m = re.exec(n.textContent)) {
                        const r = document.createRange();
                        r.setStart(n, m.index);
                        r.setEnd(n, m.index + m[0].length);
                        const tops = new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
                        if (tops.size > 1) out.push(m[0]);
                    }
                }
            }
            return out;
        }""",
        selector,
    )


def slides_checked(page: Page, shots: Path, name: str) -> int:
    """Every slide of the story's big-screen slideshow at the page's size: it fits its
    screen, no text (nor chart label) under 24 px scaled, nothing cut short. Steps through
    them with the arrow key; a screenshot of each. Returns how many there are."""
    w = page.viewport_size["width"]
    floor = PROJECTOR_MIN_PX * w / 1280
    count = int(page.locator("#story").get_attribute("data-slides"))
    for i in range(count):
        page.wait_for_function("(i) => document.getElementById('story').dataset.slide === String(i)", arg=i)
        page.screenshot(path=str(shots / f"{name}-{i + 1:02d}.png"))
        label = f"{name} slide {i + 1} of {count}"
        assert fits(page), f"{label}: the page scrolls"
        over = page.evaluate(
            "() => [...document.querySelectorAll('.story-slide')].filter((s) => !s.hidden)"
            ".map((s) => s.scrollHeight > s.clientHeight + 1 || s.scrollWidth > s.clientWidth + 1)"
        )
        assert over == [False], f"{label}: the slide overflows ({over})"
        small = small_texts(page, floor) + svg_small_texts(page, floor)
        assert not small, f"{label}: text under {floor:.0f} px: {small[:6]}"
        cut = truncated(page, PROJECTOR_TEXTS)
        assert not cut, f"{label}: cut short: {cut[:6]}"
        page.keyboard.press("ArrowRight")
    return count
