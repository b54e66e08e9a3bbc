"""Two people in two browsers (a laptop and a phone), on two peers, with a bot: a whole match.

At every step the hand and the targets must be on screen without scrolling and big enough to tap,
the last tile played is highlighted and told in a caption, and each hand ends on a summary that
stays until the player goes on. The phone's page is in Russian and must show no English.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, WebSocket, expect

from tests.ui.browser.conftest import Peer, screenshot
from tests.ui.browser.table_checks import accessibility_defects, assert_table_fits, english_words

LAPTOP = (1280, 800)
PHONE = (390, 844)
NAMES = ["Ann", "Bob", "bot-1", "Friday"]  # the players and the table: not English to check
PLAYED = {
    "en": re.compile(r"^You (played \[\d\|\d\] on the \d|led \[\d\|\d\])$"),
    "ru": re.compile(r"^Вы (положили \[\d\|\d\] к \d|начали с \[\d\|\d\])$"),
}


def drag_to_its_place(page: Page) -> None:
    """Drag the first playable tile with the mouse onto the first place it fits."""
    tile = page.locator(".tile-button.playable").first.bounding_box()
    assert tile is not None
    x, y = tile["x"] + tile["width"] / 2, tile["y"] + tile["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 15, y - 25, steps=3)  # a drag: the places it fits light up
    target = page.locator(".marker-button.target").first.bounding_box()
    assert target is not None
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
    page.mouse.up()


def take_turn(page: Page, *, prefer_draw: bool = False, drag: bool = False) -> str | None:
    """If it is this page's turn: draw (when asked and allowed), else pick a playable tile and
    then its target (or drag it there), else draw, else pass. Returns what it did."""
    if page.locator("#summary").is_visible():
        return None
    if prefer_draw and page.locator("#draw").is_enabled():
        page.click("#draw")
        return "draw"
    playable = page.locator(".tile-button.playable")
    if playable.count() and drag:
        drag_to_its_place(page)
        return "play"
    if playable.count():
        # A tile chosen on an earlier turn whose move did not go (its place was redrawn under the
        # click, or the answer to the previous move was still on its way) shows its places
        # already, and a second tap on a tile with one place plays it at once: choose only anew.
        if not page.locator(".tile-button.playable.selected").count():
            playable.first.click()
        target = page.locator(".marker-button.target").first
        expect(target).to_be_focused()  # the place it goes, ready for Enter
        assert_table_fits(page)  # the targets too, now that they are shown
        target.click()
        return "play"
    if page.locator("#draw").is_enabled():
        page.click("#draw")
        return "draw"
    if page.locator("#pass").is_enabled():
        page.click("#pass")
        return "pass"
    return None


WATCH_CAPTIONS = """() => {
  // Every caption the page shows, in order: a move's caption can be replaced by the next
  // seat's moves before a look at the page (a bot answers within milliseconds).
  window.captionsShown = [];
  let last = "";
  new MutationObserver(() => {
    const texts = [...document.querySelectorAll("#caption span")].map((s) => s.textContent);
    const key = JSON.stringify(texts);
    if (key !== last) {
      last = key;
      window.captionsShown.push(texts);
    }
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""

TOLD_OR_ENDED = """([from, source]) => {
  // A caption of this play: one of ours that the captions before it did not show.
  const played = new RegExp(source);
  const before = new Set(from > 0 ? window.captionsShown[from - 1] : []);
  const ours = (t) => played.test(t) && !before.has(t);
  const told = window.captionsShown.slice(from).filter((texts) => texts.some(ours));
  if (told.length) {
    return told.every((texts) => texts.filter(ours).length === 1) ? "told" : "twice";
  }
  const summary = document.getElementById("summary-title");
  return summary && summary.checkVisibility() ? "ended" : false;
}"""


def told_or_ended(page: Page, since: int, played: re.Pattern[str]) -> str:
    """How the page told the play it just made: "told" (a caption said it, once), "twice" (a
    caption said it twice) or "ended" (the hand's summary came instead); waits up to 20 s."""
    handle = page.wait_for_function(TOLD_OR_ENDED, arg=[since, played.pattern], timeout=20_000)
    return str(handle.json_value())


def sent_commands(page: Page) -> list[str]:
    """Every frame this page sends to its peer, collected as they go."""
    frames: list[str] = []

    def watch(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: frames.append(str(payload)))

    page.on("websocket", watch)
    return frames


def test_a_match_on_a_laptop_and_a_phone_with_a_bot(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann, bob = peers("Ann", 47811), peers("Bob", 47812, lang="ru")
    laptop = open_page(ann, LAPTOP)
    phone = open_page(bob, PHONE, locale="ru-RU", phone=True)
    lang = {laptop: "en", phone: "ru"}
    requests: list[str] = []
    for page in (laptop, phone):
        page.on("request", lambda request: requests.append(request.url))
        page.on("websocket", lambda socket: requests.append(socket.url))
    frames = sent_commands(phone)
    expect(laptop.locator("#my-address")).to_contain_text("127.0.0.1:47811")
    expect(phone.locator("#lobby-title")).to_have_text("Лобби")
    screenshot(laptop, "lobby", docs="web-lobby")
    for page in (laptop, phone):
        assert accessibility_defects(page) == []
        # The lobby fits the screen's width (nothing to scroll sideways).
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert not (left := english_words(phone, [])), left

    laptop.fill("#create-name", "Friday")
    laptop.select_option("#create-seats", "3")
    laptop.fill("#create-bots", "1")
    laptop.fill("#create-hands", "2")
    laptop.click("#create-button")
    expect(laptop.locator("#lobby-lines")).to_contain_text("is open on port 47811")
    phone.fill("#join-address", "127.0.0.1:47811")
    # The join code beside Ann's table, typed on Bob's phone: the words complete as he types.
    expect(laptop.locator("#host-code")).to_be_visible()
    words = laptop.locator("#host-code-words").inner_text().split(" (")[0].split()
    phone.locator("#join-code").press_sequentially(f"{words[0]} {words[1]} {words[2][:2]}")
    completions = phone.locator("#join-code-words option")
    expect(completions.first).to_have_attribute("value", re.compile("^" + " ".join(words[:2])))
    assert f"{' '.join(words)}" in [
        completions.nth(i).get_attribute("value") for i in range(completions.count())
    ]
    phone.fill("#join-code", " ".join(words))
    phone.click("#join-button")
    # Ann's page asks her about Bob (the bot she started was seated without asking), one-based.
    expect(laptop.locator("#host-seats li").nth(1)).to_contain_text("seat 2: bot-1 (bot)")
    request = laptop.locator("#requests li")
    expect(request).to_contain_text("Bob asks for a seat")
    request.locator("button.approve").click()
    for page in (laptop, phone):
        page.evaluate(WATCH_CAPTIONS)
    for page in (laptop, phone):
        expect(page.locator("#table")).to_be_visible()
        expect(page.locator("#players li")).to_have_count(2)  # the two others, around the board
        expect(page.locator("#code-digits")).to_have_text(re.compile(r"^\(\d{3}(-\d{3}){3}\)$"))
        expect(page.locator("#hand .tile-button")).not_to_have_count(0)
    # The table code to read aloud: the same words on both screens, as the two peers computed them.
    code_a = laptop.locator("#code-words").text_content()
    assert code_a and len(code_a.split()) == 4, code_a
    assert phone.locator("#code-words").text_content().endswith(code_a)  # type: ignore[union-attr]
    assert laptop.locator("#code-digits").text_content() == (
        phone.locator("#code-digits").text_content()
    )
    expect(laptop.locator("#fingerprint-list li").first).not_to_be_visible()
    laptop.click("#table-code summary")
    expect(laptop.locator("#fingerprint-list li").first).to_have_text(
        re.compile(r"^Ann: [A-Z2-7]{4}(-[A-Z2-7]{4}){7}$")  # the full 160-bit fingerprint
    )
    laptop.click("#table-code summary")

    actions = {"play": 0, "draw": 0, "pass": 0, "told": 0, "ended": 0}
    drew = {laptop: False, phone: False}
    shots: set[str] = set()
    summaries: dict[Page, set[int]] = {laptop: set(), phone: set()}
    dragged = False  # the laptop's first play is dragged onto its place
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        over = [p.locator("#summary-winner").is_visible() for p in (laptop, phone)]
        if all(over):
            break
        for page in (laptop, phone):
            if page.locator("#next-hand").is_visible():
                title = page.locator("#summary-title").text_content() or ""
                number = int(re.findall(r"\d+", title)[0])
                if number not in summaries[page]:
                    check_summary(page, lang[page], shots)
                    summaries[page].add(number)
                if page.locator("#next-hand").is_enabled():  # (not yet gone on by the countdown)
                    page.click("#next-hand")
                continue
            before = len(frames)
            if page is phone and not drew[phone] and page.locator("#draw").is_enabled():
                # Four fast taps on Draw send one draw: the button waits for the peer's answer.
                page.evaluate(
                    "() => { const draw = document.getElementById('draw');"
                    " for (let i = 0; i < 4; i += 1) draw.click(); }"
                )
                expect(page.locator(".tile-button.fresh")).not_to_have_count(0)  # marked new
                assert sum('"draw"' in f for f in frames[before:]) == 1, frames[before:]
                drew[phone] = True
                actions["draw"] += 1
                continue
            shown = page.evaluate("window.captionsShown.length")
            done = take_turn(
                page,
                prefer_draw=page is laptop and not drew[laptop],
                drag=page is laptop and not dragged,
            )
            dragged = dragged or (done == "play" and page is laptop)
            if done is None:
                continue
            actions[done] += 1
            if done == "draw":
                drew[page] = True
            if done == "play":
                # The tile just played is highlighted on the board and told in the caption.
                expect(page.locator(".board .tile.last")).to_have_count(1)
                # Each move is told, even when the next seat's move reaches the page in the
                # same snapshot (the peer lists its recent moves with serial numbers). A play
                # that ends the hand can reach the page with the hand's end (its last board),
                # which the hand's summary tells instead: then no caption says it. (Only a
                # shown summary: the last hand's stays in the page, hidden.)
                how = told_or_ended(page, shown, PLAYED[lang[page]])
                assert how in ("told", "ended"), how
                actions[how] += 1
            # While the hand is played its controls fit the screen. Once it is over (the last
            # move may end it between two looks) the controls go and nothing is played.
            if page.locator("#pass").is_visible():
                try:
                    assert_table_fits(page)
                except AssertionError:
                    if page.locator("#pass").is_visible():
                        raise
            if done == "play" and actions["play"] >= 4 and "mid" not in shots:
                shots.add("mid")
                for each, name in ((laptop, "laptop"), (phone, "phone")):
                    assert accessibility_defects(each) == []
                    each.evaluate("scrollTo(0, 0)")
                    screenshot(each, f"table-{name}", docs=f"web-table-{name}", full_page=False)
        time.sleep(0.1)
    for page in (laptop, phone):
        expect(page.locator("#summary-winner")).to_be_visible()
    assert actions["play"] >= 4 and actions["draw"] >= 2, actions
    # Every play was told in the caption, but for one that ended a hand (at most one a hand).
    assert actions["told"] + actions["ended"] == actions["play"], actions
    assert actions["ended"] <= 2 and actions["told"] >= 3, actions
    # Each hand before the last ended on its summary (a hand can end the match on points).
    played = int(laptop.locator("#summary").get_attribute("data-hand") or 0)
    assert played in (1, 2)
    assert summaries[laptop] == summaries[phone] == set(range(1, played)), summaries

    # The match's end: the winner or the agreed hands named, the chart with a legend.
    for page in (laptop, phone):
        expect(page.locator("#chart-legend li")).to_have_count(3)
        expect(page.locator("#chart .target-line")).to_have_count(1)
        expect(page.locator("#to-lobby")).to_be_visible()
    expect(laptop.locator("#summary-winner")).to_have_text(
        re.compile(r"(wins the match!|You win the match!|The match is drawn\.|has been played\.)$")
    )
    expect(laptop.locator("#rematch")).to_be_visible()  # the host offers a rematch
    assert not (left := english_words(phone, NAMES)), sorted(set(left))
    laptop.evaluate("scrollTo(0, 0)")
    screenshot(laptop, "match-end", docs="web-match-end", full_page=False)

    # The signed record downloads, and nothing was loaded from anywhere but our own peers.
    with laptop.expect_download() as download:
        laptop.click("#download")
    assert download.value.suggested_filename.endswith(".p2pd")
    own = (
        ann.origin,
        bob.origin,
        ann.origin.replace("http", "ws"),
        bob.origin.replace("http", "ws"),
    )
    assert all(url.startswith(own) for url in requests), requests
    assert not laptop.errors and not phone.errors  # type: ignore[attr-defined]


def check_summary(page: Page, lang: str, shots: set[str]) -> None:
    """The summary of a hand: names, tiles left, pips, the points in words, the audit, the
    scores against the target; the board behind it still shows the hand's last tiles."""
    expect(page.locator("#summary-rows tr")).to_have_count(3)
    rows = page.locator("#summary-rows tr").all_text_contents()
    assert any(row.startswith("Ann") for row in rows) and any(row.startswith("Bob") for row in rows)
    points = page.locator("#summary-points").text_content() or ""
    words = {
        "en": r"^(\S+ went out: .+'s \d+ \+ .+'s \d+ = \d+ to \S+|Blocked, .+)$",
        "ru": r"^(\S+ выложил\(а\) все кости: .+ \d+ \+ .+ \d+ = \d+ → \S+|Рыба, .+)$",
    }[lang]
    assert re.match(words, points), points
    expect(page.locator("#summary-audit")).to_contain_text("clean" if lang == "en" else "чисто")
    expect(page.locator("#chart-legend li")).to_have_count(3)
    if page.locator("#next-hand").is_enabled():
        expect(page.locator("#next-hand")).to_be_focused()  # Enter goes on to the next hand
    expect(page.locator(".board .tile")).not_to_have_count(0)  # the final board stays
    assert accessibility_defects(page) == []
    if lang == "ru":
        assert not (left := english_words(page, NAMES)), sorted(set(left))
    elif "summary" not in shots:
        shots.add("summary")
        page.evaluate("scrollTo(0, 0)")
        screenshot(page, "summary", docs="web-summary", full_page=False)


def listen(page: Page) -> None:
    """Keep everything the live region says in window.said (it is replaced as play goes on)."""
    page.evaluate(
        """() => { window.said = [];
          new MutationObserver(() => { const text = document.getElementById("announce").textContent;
            if (text) window.said.push(text); })
          .observe(document.getElementById("announce"),
                   { childList: true, characterData: true, subtree: true }); }"""
    )


def wait_said(page: Page, pattern: str) -> list[str]:
    """What the live region has said, once something matching `pattern` is among it."""
    deadline = time.monotonic() + 10
    while True:
        said: list[str] = page.evaluate("window.said")
        if any(re.search(pattern, text) for text in said) or time.monotonic() > deadline:
            assert any(re.search(pattern, text) for text in said), (pattern, said)
            return said
        page.wait_for_timeout(100)


def test_a_turn_played_from_the_keyboard_is_announced(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    ann = peers("Ann", 47821)
    page = open_page(ann)
    page.fill("#create-name", "Keys")
    page.select_option("#create-seats", "2")
    page.fill("#create-bots", "1")
    page.fill("#create-hands", "1")
    live = page.locator("#announce")
    assert live.get_attribute("aria-live") == "polite"
    listen(page)
    page.click("#create-button")
    expect(page.locator("#table")).to_be_visible()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if page.locator(".tile-button.playable").count():
            break
        if page.locator("#draw").is_enabled():
            # The draw shortcut goes by the key's place, so it works on a Russian layout too
            # (where that key types "в").
            page.evaluate(
                "() => document.body.dispatchEvent(new KeyboardEvent('keydown',"
                " { key: 'в', code: 'KeyD', bubbles: true }))"
            )
            wait_said(page, r"^You drew \[\d\|\d\]")
        page.wait_for_timeout(200)
    wait_said(page, r"Your turn$")
    expect(page).to_have_title("Your turn · p2p-dominoes")  # seen in a background tab too
    # Every own tile can be focused and says whether it fits.
    labels = page.locator("#hand .tile-button").evaluate_all(
        "(all) => all.map((b) => b.getAttribute('aria-label'))"
    )
    assert all(re.match(r"^\[\d\|\d\], (fits|can lead|does not fit)", label) for label in labels), (
        labels
    )
    # Tab to the first playable tile, Enter to pick it, Enter on the focused target to play it.
    first = page.locator(".tile-button.playable").first
    first.focus()
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    target = page.locator(".marker-button.target").first
    expect(target).to_be_focused()
    tiles_before = page.locator(".board .tile").count()
    page.keyboard.press("Enter")
    expect(page.locator(".board .tile")).not_to_have_count(tiles_before)  # (the bot may follow)
    # The live region says briefly what was played, not the whole board; focus stays in the hand.
    said = wait_said(page, r"^You (played \[\d\|\d\] on the \d|led \[\d\|\d\])")
    assert all(len(text) < 80 for text in said), said  # never the whole board after a move
    expect(page.locator("#hand .tile-button:focus")).to_have_count(1)
    # The whole board is read on demand ("B", by key position as well).
    page.keyboard.press("b")
    wait_said(page, r"^On the table, left to right: .*The left end needs ")  # (plain words)
    # The log can be scrolled from the keyboard.
    assert page.locator("#log").get_attribute("tabindex") == "0"
    # The player's own peer dies: the page says so at once and play is off.
    ann.process.kill()
    ann.process.wait(10)
    expect(page.locator("#peer-lost")).to_be_visible()
    expect(page.locator("#peer-lost")).to_contain_text("Your own peer is not answering")
    expect(page.locator("#draw")).to_be_disabled()
    expect(page.locator("#pass")).to_be_disabled()
    assert page.title() != "Your turn · p2p-dominoes"


def test_the_page_speaks_russian_when_asked_or_when_the_browser_does(
    peers: Callable[..., Peer], open_page: Callable[..., Page]
) -> None:
    anna = peers("Анна", 47841, lang="ru")
    page = open_page(anna)
    expect(page.locator("#lobby-title")).to_have_text("Лобби")
    expect(page.locator("#create-button")).to_have_text("Создать и ждать игроков")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert not (left := english_words(page, ["Анна"])), left
    # Every word the page has (the catalogues' page_js entries, /words.json) exists in both
    # languages, of the same kind, and the loaded page says them.
    missing = page.evaluate(
        """async () => {
          const { WORDS, LANGUAGES } = await import("/static/strings.js");
          const out = LANGUAGES.join() === "en,ru" ? [] : [`languages: ${LANGUAGES}`];
          for (const [a, b] of [["en", "ru"], ["ru", "en"]]) {
            for (const kind of ["lines", "plurals"]) {
              for (const key of Object.keys(WORDS[a][kind])) {
                if (!(key in WORDS[b][kind])) out.push(`${b} lacks ${kind} ${key}`);
              }
            }
          }
          return out;
        }"""
    )
    assert missing == []
    # A malformed address is refused where the player looks.
    page.fill("#join-address", "nowhere")
    page.click("#join-button")
    expect(page.locator("#lobby-error")).to_be_visible()
    expect(page.locator("#lobby-error")).not_to_be_empty()
    # A peer started without --lang: the page follows the browser's language.
    ben = peers("Ben", 47842, lang=None)
    browser_ru = open_page(ben, locale="ru-RU")
    expect(browser_ru.locator("#lobby-title")).to_have_text("Лобби")
    # The page's own switch overrides it, and is kept.
    browser_ru.select_option("#lang-select", "en")
    expect(browser_ru.locator("#lobby-title")).to_have_text("Lobby")
    browser_ru.reload()
    expect(browser_ru.locator("#lobby-title")).to_have_text("Lobby")
