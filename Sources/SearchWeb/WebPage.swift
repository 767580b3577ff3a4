#if Web
  /// The page the server serves: HTML, one script and one style sheet, no build step and no
  /// framework, kept here as text so that the server needs no resource files.
  ///
  /// The script keeps the rows of its window by position, applies an update only if its
  /// generation is the newest it has seen, asks for the rows it scrolls to, and takes the keys
  /// `SearchREPL live` takes: ↑ ↓ move, Enter chooses, Esc cancels, Tab completes or moves to
  /// the next scope (Shift-Tab the previous), Ctrl-T turns a condition (`country=CH`) into a
  /// token, Backspace on an empty field removes the last token.
  ///
  /// While text is typed, the tokens it suggests are listed under the field: a click adds one;
  /// ↓ walks them before the rows (↑ back), Tab walks them when there is no completion to
  /// take, and Enter adds the one highlighted. A token is a chip in the field, removed by its ×.
  /// A sectioned list has its index down the right edge: a title scrolls to its section.
  /// `/?q=TEXT` opens with TEXT typed, `/?sections=letter:name` (or an attribute) sectioned.
  enum WebPage {
    /// A file of the page.
    struct File: Sendable {
      var contentType: String
      var text: String
    }

    /// The page's files by path.
    static let files: [(path: String, file: File)] = [
      ("/", File(contentType: "text/html; charset=utf-8", text: html)),
      ("/search.js", File(contentType: "text/javascript; charset=utf-8", text: script)),
      ("/search.css", File(contentType: "text/css; charset=utf-8", text: style)),
    ]

    static let html = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Search</title>
      <link rel="stylesheet" href="/search.css">
      </head>
      <body>
      <header>
      <div id="field">
      <span id="tokens"></span>
      <input id="query" type="search" autocomplete="off" spellcheck="false" autofocus>
      <select id="sections" title="Sections"><option value="none">No sections</option></select>
      </div>
      <div id="suggestions" role="listbox"></div>
      <div id="completions"></div>
      <nav id="scopes"></nav>
      <div id="status">Connecting…</div>
      </header>
      <div id="pane">
      <main id="list" tabindex="-1"><div id="spacer"></div></main>
      <nav id="index"></nav>
      </div>
      <footer>↑↓ move (suggested tokens first) · Enter choose or add the token · Tab complete,
      token or scope · Ctrl-T token · Esc cancel</footer>
      <script src="/search.js"></script>
      </body>
      </html>

      """

    static let style = """
      * { box-sizing: border-box; }
      html, body { height: 100%; margin: 0; }
      body { display: flex; flex-direction: column; font: 15px system-ui, sans-serif; }
      header { padding: 8px 12px; border-bottom: 1px solid #ddd; }
      #field { display: flex; gap: 4px; align-items: center; }
      #query { flex: 1; font-size: 17px; padding: 6px 8px; }
      .token { background: #e3ecfb; border-radius: 10px; padding: 2px 4px 2px 8px;
        white-space: nowrap; }
      .token button { border: none; background: none; cursor: pointer; padding: 0 2px;
        color: #555; }
      #sections { font-size: 13px; }
      #suggestions { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
      #suggestions:empty { display: none; }
      .suggestion { border: 1px solid #c9d6ee; background: #f4f7fd; border-radius: 10px;
        padding: 1px 8px; font-size: 13px; cursor: pointer; }
      .suggestion.picked { background: #3d6fd1; color: #fff; border-color: #3d6fd1; }
      .suggestion small { color: #778; margin-left: 4px; }
      .suggestion.picked small { color: #dde; }
      #completions span { color: #555; margin-right: 12px; }
      #completions span:first-child { font-weight: 600; }
      #scopes { margin-top: 6px; display: flex; flex-wrap: wrap; gap: 4px; }
      #scopes button { border: 1px solid #bbb; background: #fff; border-radius: 4px; }
      #scopes button.selected { background: #333; color: #fff; }
      #status { color: #666; font-size: 13px; margin-top: 4px; }
      #status.pending::after { content: " …"; }
      #pane { flex: 1; position: relative; display: flex; min-height: 0; }
      main { flex: 1; overflow-y: auto; position: relative; outline: none; }
      #index { position: absolute; right: 2px; top: 4px; bottom: 4px; width: 22px;
        display: flex; flex-direction: column; justify-content: center; align-items: center;
        font-size: 11px; user-select: none; }
      #index:empty { display: none; }
      #index span { cursor: pointer; color: #2d62c8; line-height: 13px; padding: 0 4px; }
      #index span.dot { color: #aaa; cursor: default; }
      #spacer { position: relative; }
      .row { position: absolute; left: 0; right: 0; height: 28px; line-height: 28px;
        padding: 0 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
      .row.selected { background: #dbe6fa; }
      .row.missing { color: #aaa; }
      .row.dimmed { opacity: 0.5; }
      mark { background: #ffe27a; color: inherit; }
      .typos { color: #a05a00; font-size: 12px; margin-left: 8px; }
      .section { color: #777; font-size: 12px; margin-right: 8px; font-weight: 600; }
      footer { padding: 4px 12px; color: #777; font-size: 12px; border-top: 1px solid #ddd; }

      """

    static let script = """
      "use strict";
      // One search session over a WebSocket: the rows of the window by position, the newest
      // generation applied, the keys of SearchREPL live.
      const rowHeight = 28;
      const $ = (id) => document.getElementById(id);
      const query = $("query"), list = $("list"), spacer = $("spacer");
      const state = {
        socket: null, newest: -1, sequence: 0, rows: new Map(), count: 0, start: 0, end: 0,
        scopes: [], scope: 0, counts: null, tokens: [], completions: [],
        selected: 0, began: false, visible: "", table: "original", status: "",
        pending: false, dimmed: false, message: "",
        // The suggested tokens, the one highlighted (-1: none), and whether ↓ has gone past
        // them to the rows; the section index and the sectioning.
        suggestions: [], picked: -1, inRows: false, index: null, sections: "none",
      };

      function send(message) {
        if (state.socket && state.socket.readyState === WebSocket.OPEN) {
          state.socket.send(JSON.stringify(message));
        }
      }

      function connect() {
        const scheme = location.protocol === "https:" ? "wss:" : "ws:";
        const socket = new WebSocket(scheme + "//" + location.host + "/search");
        state.socket = socket;
        socket.onopen = () => {
          sendVisible(true);
          const parameters = new URLSearchParams(location.search);
          // Sections in the address (/?sections=letter:name) are asked for at once.
          const sections = parameters.get("sections");
          if (sections) send({ type: "sections", sections });
          // A search in the address (/?q=zür) is typed once the session opens.
          const initial = parameters.get("q");
          if (initial) {
            query.value = initial;
            begin();
            send({ type: "text", text: initial });
          }
        };
        socket.onmessage = (event) => receive(JSON.parse(event.data));
        socket.onclose = (event) => {
          state.message = "closed (" + event.code + (event.reason ? ": " + event.reason : "")
            + ")";
          drawStatus();
        };
      }

      function receive(message) {
        if (message.type === "hello") {
          query.placeholder = message.placeholder;
          state.scopes = message.scopes;
          drawScopes();
          const select = $("sections");
          for (const field of message.fields || []) {
            select.append(new Option("A–Z by " + field, "letter:" + field));
          }
          for (const attribute of message.attributes) {
            select.append(new Option("By " + attribute, attribute));
          }
        } else if (message.type === "error") {
          state.message = message.message;
          drawStatus();
        } else if (message.type === "update") {
          apply(message);
        }
      }

      // An update older than one applied is dropped: a stale row is never shown. Each update is
      // the change from the one before: after a gap (one came late), the rows held may be stale,
      // so they are dropped and the whole window asked for again.
      function apply(update) {
        if (update.generation < state.newest || update.sequence <= state.sequence) return;
        if (update.sequence !== state.sequence + 1) {
          state.rows.clear();
          send({ type: "resync" });
        }
        state.sequence = update.sequence;
        if (update.generation > state.newest) {
          state.selected = 0;
          if (state.newest >= 0 && list.scrollTop !== 0) list.scrollTop = 0;
        }
        state.newest = update.generation;
        state.count = update.count;
        state.start = update.start;
        state.end = update.end;
        for (const position of [...state.rows.keys()]) {
          if (position < update.start || position >= update.end || position >= update.count) {
            state.rows.delete(position);
          }
        }
        for (const row of update.rows) state.rows.set(row.position, row);
        state.scope = update.scope;
        state.counts = update.scopeCounts;
        state.completions = update.completions;
        state.table = update.table;
        state.pending = update.pending;
        state.dimmed = update.state === "dimmed";
        state.status = describe(update);
        state.message = "";
        state.index = update.sectionIndex || null;
        state.sections = update.sections || "none";
        const titles = (update.suggestions || []).map((s) => JSON.stringify(s.token)).join();
        if (titles !== state.suggestions.map((s) => JSON.stringify(s.token)).join()) {
          state.picked = -1;
        }
        state.suggestions = update.suggestions || [];
        // What the rows answer, for whoever watches the page (its tests among them).
        list.dataset.generation = update.generation;
        list.dataset.text = update.text;
        list.dataset.pending = update.pending;
        list.dataset.scope = update.scope;
        draw();
      }

      function describe(update) {
        switch (update.state) {
        case "rows": return update.count === 1 ? "1 result" : update.count + " results";
        case "noResults": return "No results";
        case "belowThreshold": return "Type more";
        default: return update.count + " items";
        }
      }

      function draw() {
        drawScopes();
        drawCompletions();
        drawSuggestions();
        drawStatus();
        drawRows();
        drawIndex();
        $("sections").value = state.sections;
      }

      // The suggested tokens are shown while text is typed: a click adds one.
      function shownSuggestions() {
        return query.value.trim() === "" ? [] : state.suggestions;
      }

      function drawSuggestions() {
        $("suggestions").replaceChildren(...shownSuggestions().map((suggestion, index) => {
          const button = document.createElement("span");
          button.className = "suggestion" + (index === state.picked ? " picked" : "");
          button.setAttribute("role", "option");
          button.dataset.attribute = suggestion.token.attribute;
          button.append(suggestion.title);
          const small = document.createElement("small");
          small.textContent = suggestion.token.attribute + " · " + suggestion.count;
          button.append(small);
          button.onmousedown = (event) => event.preventDefault();
          button.onclick = () => addSuggestion(suggestion);
          return button;
        }));
      }

      function addSuggestion(suggestion) {
        state.tokens.push({
          token: suggestion.token, label: suggestion.token.attribute + ": " + suggestion.title,
        });
        state.picked = -1;
        state.inRows = false;
        state.suggestions = [];
        query.value = "";
        begin();
        send({ type: "text", text: "" });
        sendTokens();
        drawSuggestions();
        query.focus();
      }

      // The section index down the right edge, as UIKit's: every title when they fit, else
      // every so many with a dot between.
      function drawIndex() {
        const bar = $("index");
        const index = state.index || [];
        const fit = Math.max(1, Math.floor((list.clientHeight - 8) / 13));
        const step = index.length > fit ? Math.ceil(index.length / Math.ceil(fit / 2)) : 1;
        const nodes = [];
        index.forEach((entry, at) => {
          if (at % step !== 0) {
            if (at % step === 1) {
              const dot = document.createElement("span");
              dot.className = "dot";
              dot.textContent = "•";
              nodes.push(dot);
            }
            return;
          }
          const span = document.createElement("span");
          span.textContent = entry.title;
          span.dataset.position = entry.position;
          span.onmousedown = (event) => event.preventDefault();
          span.onclick = () => jump(entry.position);
          nodes.push(span);
        });
        bar.replaceChildren(...nodes);
      }

      // Scrolls the list so that the row at `position` is at the top (the scroll asks the
      // server for its rows).
      function jump(position) {
        state.selected = position;
        list.scrollTop = position * rowHeight;
        drawRows();
      }

      function drawStatus() {
        const status = $("status");
        status.textContent = [state.status, state.message].filter((t) => t).join(" · ");
        status.classList.toggle("pending", state.pending);
      }

      function drawScopes() {
        const bar = $("scopes");
        bar.replaceChildren();
        if (state.scopes.length < 2) return;
        state.scopes.forEach((title, index) => {
          const button = document.createElement("button");
          const count = state.counts ? state.counts[index] : null;
          button.textContent = count == null ? title : title + " " + count;
          button.className = index === state.scope ? "selected" : "";
          button.onclick = () => selectScope(index);
          bar.append(button);
        });
      }

      function drawCompletions() {
        const box = $("completions");
        box.replaceChildren(...state.completions.map((completion) => {
          const span = document.createElement("span");
          span.textContent = completion.text;
          return span;
        }));
      }

      function drawTokens() {
        $("tokens").replaceChildren(...state.tokens.map((token, index) => {
          const span = document.createElement("span");
          span.className = "token";
          span.textContent = token.label;
          const remove = document.createElement("button");
          remove.textContent = "×";
          remove.title = "Remove " + token.label;
          remove.onclick = () => {
            state.tokens.splice(index, 1);
            sendTokens();
            query.focus();
          };
          span.append(remove);
          return span;
        }));
      }

      function drawRows() {
        spacer.style.height = state.count * rowHeight + "px";
        const first = Math.floor(list.scrollTop / rowHeight);
        const last = Math.min(state.count, first + Math.ceil(list.clientHeight / rowHeight) + 1);
        const nodes = [];
        for (let position = first; position < last; position++) {
          nodes.push(rowNode(position, state.rows.get(position)));
        }
        spacer.replaceChildren(...nodes);
      }

      function rowNode(position, row) {
        const node = document.createElement("div");
        node.className = "row";
        node.style.top = position * rowHeight + "px";
        node.dataset.position = position;
        if (row) node.dataset.id = row.id;
        if (position === state.selected) node.classList.add("selected");
        if (state.dimmed) node.classList.add("dimmed");
        if (!row) {
          node.classList.add("missing");
          node.textContent = "…";
          return node;
        }
        const previous = state.rows.get(position - 1);
        if (row.section && (!previous || previous.section !== row.section)) {
          const section = document.createElement("span");
          section.className = "section";
          section.textContent = row.section;
          node.append(section);
        }
        // Marks are UTF-16 offsets, as JavaScript's strings count.
        let at = 0;
        for (const [start, end] of row.marks) {
          node.append(row.text.slice(at, start));
          const mark = document.createElement("mark");
          mark.textContent = row.text.slice(start, end);
          node.append(mark);
          at = end;
        }
        node.append(row.text.slice(at));
        if (row.typos) {
          const typos = document.createElement("span");
          typos.className = "typos";
          typos.textContent = row.typos === 1 ? "1 typo" : row.typos + " typos";
          node.append(typos);
        }
        node.onclick = () => { state.selected = position; choose(); };
        return node;
      }

      // The rows on screen: the server sends them and a page on each side.
      function sendVisible(force) {
        const first = Math.floor(list.scrollTop / rowHeight);
        const count = Math.max(1, Math.ceil(list.clientHeight / rowHeight));
        const key = first + ":" + count;
        if (!force && key === state.visible) return;
        state.visible = key;
        send({ type: "visible", first, count });
      }

      let scrollScheduled = false;
      list.addEventListener("scroll", () => {
        if (scrollScheduled) return;
        scrollScheduled = true;
        requestAnimationFrame(() => {
          scrollScheduled = false;
          sendVisible(false);
          drawRows();
        });
      });
      window.addEventListener("resize", () => { sendVisible(false); drawRows(); });

      function begin() {
        if (!state.began) { state.began = true; send({ type: "begin" }); }
      }

      function selectScope(index) {
        if (state.scopes.length < 2) return;
        begin();
        const count = state.scopes.length;
        state.scope = ((index % count) + count) % count;
        send({ type: "scope", scope: state.scope });
        drawScopes();
      }

      function sendTokens() {
        begin();
        send({ type: "tokens", tokens: state.tokens.map((token) => token.token) });
        drawTokens();
      }

      // A condition as live's Ctrl-T reads it: a=v, a=v|w, a>=n, a<=n, a=n..m, a?
      function parseToken(text) {
        let match;
        if ((match = /^\\s*([^=<>?]+)\\?\\s*$/.exec(text))) {
          return { attribute: match[1].trim() };
        }
        if ((match = /^\\s*([^=<>?]+)(>=|<=)\\s*(-?[\\d.]+)\\s*$/.exec(text))) {
          const bound = Number(match[3]);
          return match[2] === ">="
            ? { attribute: match[1].trim(), min: bound }
            : { attribute: match[1].trim(), max: bound };
        }
        if ((match = /^\\s*([^=<>?]+)=\\s*(-?[\\d.]+)\\.\\.(-?[\\d.]+)\\s*$/.exec(text))) {
          return { attribute: match[1].trim(), min: Number(match[2]), max: Number(match[3]) };
        }
        if ((match = /^\\s*([^=<>?]+)=(.+)$/.exec(text))) {
          return { attribute: match[1].trim(), values: match[2].split("|") };
        }
        return null;
      }

      function moveSelection(step) {
        if (state.count === 0) return;
        state.selected = Math.max(0, Math.min(state.count - 1, state.selected + step));
        const top = state.selected * rowHeight;
        if (top < list.scrollTop) list.scrollTop = top;
        else if (top + rowHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = top + rowHeight - list.clientHeight;
        }
        drawRows();
      }

      function choose() {
        const row = state.rows.get(state.selected);
        if (row) state.message = "chosen: " + row.text;
        drawStatus();
        drawRows();
      }

      $("sections").addEventListener("change", (event) => {
        send({ type: "sections", sections: event.target.value });
        query.focus();
      });
      query.addEventListener("focus", begin);
      query.addEventListener("input", () => {
        begin();
        state.picked = -1;
        state.inRows = false;
        send({ type: "text", text: query.value });
        drawSuggestions();
      });
      // ↓ walks the suggested tokens, then the rows; ↑ walks back.
      function down() {
        const shown = shownSuggestions().length;
        if (!state.inRows && state.picked < shown - 1) {
          state.picked += 1;
          drawSuggestions();
        } else if (!state.inRows && shown > 0) {
          state.picked = -1;
          state.inRows = true;
          drawSuggestions();
          drawRows();
        } else {
          moveSelection(1);
        }
      }

      function up() {
        const shown = shownSuggestions().length;
        if (state.inRows && state.selected === 0 && shown > 0) {
          state.inRows = false;
          state.picked = shown - 1;
          drawSuggestions();
        } else if (!state.inRows && state.picked >= 0) {
          state.picked -= 1;
          drawSuggestions();
        } else {
          moveSelection(-1);
        }
      }

      query.addEventListener("keydown", (event) => {
        const shown = shownSuggestions();
        if (event.key === "ArrowDown") down();
        else if (event.key === "ArrowUp") up();
        else if (event.key === "Enter" && state.picked >= 0 && state.picked < shown.length) {
          addSuggestion(shown[state.picked]);
        }
        else if (event.key === "PageDown") moveSelection(Math.floor(list.clientHeight / rowHeight));
        else if (event.key === "PageUp") moveSelection(-Math.floor(list.clientHeight / rowHeight));
        else if (event.key === "Enter") choose();
        else if (event.key === "Tab") {
          if (!event.shiftKey && state.completions.length > 0) {
            query.value = state.completions[0].text;
            state.picked = -1;
            send({ type: "text", text: query.value });
          } else if (shown.length > 0 && !state.inRows) {
            // Without a completion, Tab walks the suggested tokens (Shift-Tab back).
            const next = state.picked + (event.shiftKey ? -1 : 1);
            state.picked = next < -1 ? shown.length - 1 : next >= shown.length ? -1 : next;
            drawSuggestions();
          } else {
            selectScope(state.scope + (event.shiftKey ? -1 : 1));
          }
        } else if (event.key === "Escape") {
          if (query.value === "" && state.tokens.length === 0) { query.blur(); return; }
          query.value = "";
          state.tokens = [];
          state.picked = -1;
          state.inRows = false;
          drawTokens();
          drawSuggestions();
          state.began = false;
          state.scope = 0;
          send({ type: "cancel" });
        } else if (event.key === "Backspace" && query.value === "" && state.tokens.length) {
          state.tokens.pop();
          sendTokens();
        } else if (event.key === "t" && event.ctrlKey) {
          const token = parseToken(query.value);
          if (!token) {
            state.message = "a token is a condition: country=CH, population>=1000000, a?";
            drawStatus();
          } else {
            state.tokens.push({ token, label: query.value.trim() });
            query.value = "";
            send({ type: "text", text: "" });
            sendTokens();
          }
        } else return;
        event.preventDefault();
      });

      connect();

      """
  }
#endif
