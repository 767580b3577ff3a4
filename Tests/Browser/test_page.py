"""The search page in headless Chromium over `SearchREPL serve` (the cities): what the issue's
scenarios ask of it, each checked against the engine's own answer (`SearchREPL filter`)."""

import json
import random

from conftest import PATIENCE_MS, engine_rows

# The rows on screen, as the page draws them: position, item, text without the section's and
# the typos' labels, and the highlighted parts.
SHOWN_ROWS = """() => [...document.querySelectorAll("#spacer .row")].map((node) => ({
  position: Number(node.dataset.position),
  id: node.dataset.id === undefined ? null : Number(node.dataset.id),
  missing: node.classList.contains("missing"),
  selected: node.classList.contains("selected"),
  text: [...node.childNodes]
    .filter((child) => !(child.classList
      && (child.classList.contains("typos") || child.classList.contains("section"))))
    .map((child) => child.textContent).join(""),
  marks: [...node.querySelectorAll("mark")].map((mark) => mark.textContent),
}))"""

# Settled: the rows answer `text` (in `scope`), nothing newer is pending, every row on screen has
# come, and the generation is past `after`.
SETTLED = """([text, scope, after]) => {
  const list = document.getElementById("list");
  return list.dataset.text === text && list.dataset.pending === "false"
    && (scope === null || list.dataset.scope === String(scope))
    && Number(list.dataset.generation) > after
    && document.querySelectorAll("#spacer .row.missing").length === 0;
}"""


def open_page(page, server, query=""):
    page.goto(server.url + query)
    page.wait_for_function("() => document.getElementById('list').dataset.generation !== undefined")
    page.click("#query")


def generation(page):
    return int(page.eval_on_selector("#list", "list => list.dataset.generation || -1"))


def settle(page, text, scope=None, after=-1):
    page.wait_for_function(SETTLED, arg=[text, scope, after], timeout=PATIENCE_MS)


def shown(page):
    return page.evaluate(SHOWN_ROWS)


def assert_row(row, want, context=None):
    """A row on screen is the engine's item, highlighted as it matched; when the query matched
    only a value the row does not show, the row adds a piece of that value around its match
    (cut with "…" when long), highlighted there."""
    assert row["id"] == want["id"], (context, row, want)
    if want["hidden"] is None:
        assert (row["text"], row["marks"]) == (want["item"], want["marked"]), (context, row, want)
        return
    value, parts = want["hidden"]
    head, separator, piece = row["text"].partition(" · ")
    assert (head, separator) == (want["item"], " · "), (context, row, want)
    assert piece.strip("…") in value, (context, row, want)
    assert row["marks"] and all(mark in parts for mark in row["marks"]), (context, row, want)


def assert_rows(page, expected, least=10):
    """The rows on screen are the engine's at their positions, highlighted as it matched."""
    rows = shown(page)
    assert len(rows) >= min(least, len(expected)), rows
    for row in rows:
        assert not row["missing"], row
        assert_row(row, expected[row["position"]])
    status = page.text_content("#status")
    assert status.startswith(f"{len(expected)} result"), status


def test_typing_keystroke_by_keystroke_shows_the_engines_rows_highlighted(page, server):
    open_page(page, server)
    for key in "zür":
        page.keyboard.type(key)
        page.wait_for_timeout(80)
    settle(page, "zür")
    expected = engine_rows("zür")
    assert len(expected) > 20
    assert_rows(page, expected)
    assert shown(page)[0]["marks"] == ["Zür"]


def test_a_row_matched_only_in_a_value_it_does_not_show_shows_that_value(page, server):
    open_page(page, server)
    page.keyboard.type("москва")
    settle(page, "москва")
    expected = engine_rows("москва")
    assert expected[0]["hidden"] is not None, expected[0]
    assert_rows(page, expected)
    assert shown(page)[0]["text"] == "Moscow (RU) · Москва", shown(page)[0]


def test_a_scope_and_a_suggested_token_change_the_rows(page, server):
    open_page(page, server)
    page.keyboard.type("san")
    settle(page, "san")
    assert_rows(page, engine_rows("san"))

    page.click("#scopes button:text-matches('^Europe')")
    settle(page, "san", scope=4)
    europe = engine_rows("san", scope="Europe")
    assert_rows(page, europe)

    # A token from the suggestions: "es" suggests Spain's code, a click makes it a chip.
    page.fill("#query", "")
    page.keyboard.type("es")
    suggestion = page.locator(".suggestion", has_text="ES").first
    suggestion.wait_for()
    assert "country" in suggestion.text_content()
    before = generation(page)
    suggestion.click()
    assert page.text_content("#tokens .token").startswith("country: ES")
    assert page.input_value("#query") == ""
    page.keyboard.type("san")
    settle(page, "san", scope=4, after=before)
    spain = [row for row in europe if row["item"].endswith("(ES)")]
    assert 0 < len(spain) < len(europe)
    assert_rows(page, spain)

    # The chip's × takes it away: Europe's rows again.
    before = generation(page)
    page.click("#tokens .token button")
    settle(page, "san", scope=4, after=before)
    assert page.locator("#tokens .token").count() == 0
    assert_rows(page, europe)


def test_scrolling_loads_the_rows_scrolled_to(page, server):
    sent = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame)))
    open_page(page, server)
    page.keyboard.type("san")
    settle(page, "san")
    expected = engine_rows("san")
    assert len(expected) > 600
    for target in (300, 600):
        # The wheel over the list, as a reader scrolls, until the target is at the top.
        page.mouse.move(500, 500)
        while page.eval_on_selector("#list", "list => list.scrollTop") < target * 28:
            page.mouse.wheel(0, 2000)
            page.wait_for_timeout(30)
        page.wait_for_function(
            """(target) => {
              const rows = [...document.querySelectorAll("#spacer .row")];
              return rows.length > 0 && Number(rows[0].dataset.position) >= target
                && rows.every((row) => !row.classList.contains("missing"));
            }""",
            arg=target,
        )
        rows = shown(page)
        assert rows[0]["position"] >= target
        assert_rows(page, expected)
    visible = [json.loads(frame)["first"] for frame in sent if '"visible"' in frame]
    assert max(visible) >= 600, visible


def test_delayed_and_reordered_replies_never_show_a_row_of_another_text(page, server):
    """Between the page and the server, a proxy that holds each reply for a random time (up to
    400 ms) and so delivers them out of order; the text typed fast. After every message the
    page takes, its rows are checked against the engine's answer for the text they say they
    answer, and it ends on the last text's rows."""
    held = []  # [due time or None, message]
    sockets = []
    rng = random.Random(50)

    def route(socket):
        upstream = socket.connect_to_server()
        sockets.append(socket)
        socket.on_message(lambda message: upstream.send(message))
        upstream.on_message(lambda message: held.append([None, message]))

    page.route_web_socket("**/search", route)
    # What the page shows after every change of its rows or of the text they answer (each
    # message it takes draws them): recorded in the page, so that nothing between two looks
    # goes unseen.
    page.add_init_script(
        """(() => {
          const shown = """
        + SHOWN_ROWS
        + """;
          window.seen = [];
          document.addEventListener("DOMContentLoaded", () => {
            const list = document.getElementById("list");
            new MutationObserver(() => {
              window.seen.push({ text: list.dataset.text,
                generation: Number(list.dataset.generation), rows: shown() });
            }).observe(list, { attributes: true, childList: true, subtree: true,
              characterData: true });
          });
        })()"""
    )
    final = "zürich"
    texts = [final[:length] for length in range(1, len(final) + 1)]
    expected = {text: engine_rows(text) for text in texts}
    clock = 0
    delivered = []  # the generations of the updates, in the order the page got them

    def tick(milliseconds):
        """Lets time pass, then sends the page every held reply now due, earliest first."""
        nonlocal clock
        page.wait_for_timeout(milliseconds)
        clock += milliseconds
        for entry in held:
            if entry[0] is None:
                entry[0] = clock + rng.uniform(0, 400)
        held.sort(key=lambda entry: entry[0])
        while held and held[0][0] <= clock:
            message = held.pop(0)[1]
            reply = json.loads(message)
            if reply["type"] == "update":
                delivered.append(reply["generation"])
            sockets[-1].send(message)

    page.goto(server.url)
    page.wait_for_function("() => document.readyState === 'complete'")
    # Typed once the session is open (its first update has come through the proxy).
    while page.eval_on_selector("#list", "list => list.dataset.generation") is None:
        tick(20)
    page.click("#query")
    for key in final:
        page.keyboard.type(key)
        tick(60)
    # The rest, still out of order, until the page is settled on the last text.
    while held or not page.evaluate(SETTLED, [final, None, -1]):
        tick(50)
        assert clock < PATIENCE_MS, (
            f"not settled; {len(held)} replies held",
            page.evaluate("() => ({...document.getElementById('list').dataset})"),
            page.text_content("#status"),
            len(shown(page)),
            sum(row["missing"] for row in shown(page)),
        )

    seen = page.evaluate("() => window.seen")
    # The replies did come out of order: an older generation after a newer one.
    assert any(later < earlier for earlier, later in zip(delivered, delivered[1:])), delivered
    generations = [look["generation"] for look in seen if look["text"] is not None]
    assert generations == sorted(generations), generations
    checked = 0
    for look in seen:
        for row in look["rows"]:
            if row["missing"] or look["text"] not in expected:
                continue
            assert_row(row, expected[look["text"]][row["position"]], look["text"])
            checked += 1
    assert checked > 0
    assert_rows(page, expected[final])


def test_the_keys_do_what_the_page_says(page, server):
    open_page(page, server)
    page.keyboard.type("zür")
    settle(page, "zür")
    expected = engine_rows("zür")

    def selected():
        return [row["position"] for row in shown(page) if row["selected"]]

    # ↓ and ↑ move the selection (no token is suggested for "zür"), Enter chooses.
    assert page.locator(".suggestion").count() == 0
    assert selected() == [0]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert selected() == [2]
    page.keyboard.press("ArrowUp")
    assert selected() == [1]
    page.keyboard.press("Enter")
    assert f"chosen: {expected[1]['item']}" in page.text_content("#status")

    # Tab takes the first completion.
    completion = page.text_content("#completions span:first-child")
    assert completion
    before = generation(page)
    page.keyboard.press("Tab")
    assert page.input_value("#query") == completion
    settle(page, completion, after=before)
    assert_rows(page, engine_rows(completion))

    # Shift-Tab selects the previous scope: from All, the last (Name).
    before = generation(page)
    page.keyboard.press("Shift+Tab")
    settle(page, completion, scope=6, after=before)
    assert page.text_content("#scopes button.selected").startswith("Name")
    assert_rows(page, engine_rows(completion, scope="Name"))

    # Esc: the whole list again, in scope All.
    page.keyboard.press("Escape")
    page.wait_for_function(
        "() => document.getElementById('list').dataset.text === ''"
        " && document.getElementById('status').textContent.startsWith('34006 items')"
    )
    assert page.input_value("#query") == ""
    assert page.text_content("#scopes button.selected").startswith("All")

    # Typed text suggests tokens: ↓ walks them before the rows, Enter adds the one
    # highlighted as a chip, Backspace in the empty field takes it away.
    page.keyboard.type("eu")
    page.locator(".suggestion", has_text="Europe").first.wait_for()
    titles = page.locator(".suggestion").all_text_contents()
    page.keyboard.press("ArrowDown")
    assert page.locator(".suggestion.picked").count() == 1
    picked = page.text_content(".suggestion.picked")
    assert picked == titles[0]
    before = generation(page)
    page.keyboard.press("Enter")
    assert page.text_content("#tokens .token").startswith("continent: Europe")
    settle(page, "", after=before)
    page.keyboard.press("Backspace")
    assert page.locator("#tokens .token").count() == 0


def test_the_section_index_scrolls_to_its_title(page, server):
    sent = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame)))
    open_page(page, server, "?sections=letter:name")
    page.locator("#index span[data-position]").first.wait_for()
    assert page.input_value("#sections") == "letter:name"
    # Every title of the index fits beside 34,006 cities in 27 letters.
    titles = page.locator("#index span[data-position]").all_text_contents()
    assert titles[:3] == ["A", "B", "C"] and "#" not in titles[:-1]
    title = page.locator("#index span[data-position]", has_text="M").first
    position = int(title.get_attribute("data-position"))
    assert position > 1000
    title.click()
    page.wait_for_function(
        """(position) => {
          const rows = [...document.querySelectorAll("#spacer .row")];
          return rows.length > 0 && Number(rows[0].dataset.position) === position
            && rows.every((row) => !row.classList.contains("missing"));
        }""",
        arg=position,
    )
    first = page.locator(f"#spacer .row[data-position='{position}']")
    assert first.locator(".section").text_content() == "M"
    assert first.text_content().startswith("MM")
    # The row before it is another letter's.
    previous = page.locator(f"#spacer .row[data-position='{position - 1}']")
    if previous.count():
        assert not previous.text_content().startswith("M")
    visible = [json.loads(frame)["first"] for frame in sent if '"visible"' in frame]
    assert position in visible, visible
