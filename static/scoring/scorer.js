/* The scorer pages: North's entry, East's verification, calling the director, and an outbox
 * that keeps every action on the phone until the server has it.
 *
 * Plain JavaScript (ES2017), no framework, no network beyond this site's own API:
 *   POST {api}matches/M/boards/B/preview/           the score in words, never stored
 *   POST {api}matches/M/boards/B/entries/           North's entry (client-made id)
 *   POST .../entries/S/accept/ | reject/ , .../call-director/
 *   GET  {api}me/                                   polled: reload when a state changes
 * Every POST carries a client id made here; the outbox re-sends with the same id until the
 * server answers, and the server turns a re-send into the row the first send made.
 *
 * The entry itself belongs to the game. A game whose entry is a list of choices per board
 * uses FieldsEntry as it is; a game with an entry of its own ships a script beside its
 * package (Game.entry_script), loaded before this one, that registers a factory under its
 * entry kind: window.ScorerEntries[kind] = (kit) => class extends kit.Entry { ... } (or
 * kit.FieldsEntry). The same classes run on the director's board page (a "scorer-config"
 * with director: true), where sending fills the page's form instead.
 */
"use strict";

(() => {
  const configNode = document.getElementById("scorer-config");
  if (!configNode) return;
  const config = JSON.parse(configNode.textContent);
  const messagesBox = document.getElementById("scorer-messages");

  // The page's words in its language, from the catalogue loaded before this script
  // (/jsi18n/<language>/); without it (under Node, or a load that failed) they stay English.
  const tr = (text) => (typeof gettext === "function" ? gettext(text) : text);
  const trf = (text, values) => tr(text).replace(/%\((\w+)\)s/g, (_, name) => values[name]);

  const SEAT_NAMES = { N: tr("North"), E: tr("East"), S: tr("South"), W: tr("West") };
  const SEND_LABEL = config.director ? tr("Save this result") : tr("Send to East for checking");
  const RETRY_MS = 5000;
  const POLL_MS = config.poll_ms || 6000; // settings.SCORER_POLL_SECONDS
  const OUTBOX_KEY = "pym:outbox";
  const FLASH_KEY = "pym:flash";

  // --- storage: localStorage when the browser allows it, memory otherwise ---------------

  const persistent = (() => {
    try {
      localStorage.setItem("pym:probe", "1");
      localStorage.removeItem("pym:probe");
      return true;
    } catch (e) {
      return false;
    }
  })();
  const memory = new Map();
  const store = {
    get(key) {
      if (!persistent) return memory.has(key) ? memory.get(key) : null;
      try {
        const text = localStorage.getItem(key);
        return text === null ? null : JSON.parse(text);
      } catch (e) {
        return null;
      }
    },
    set(key, value) {
      if (!persistent) return void memory.set(key, value);
      try {
        localStorage.setItem(key, JSON.stringify(value));
      } catch (e) {
        memory.set(key, value);
      }
    },
    remove(key) {
      memory.delete(key);
      if (persistent) localStorage.removeItem(key);
    },
  };

  // --- small helpers ----------------------------------------------------------------------

  function h(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "class") node.className = value;
      else if (value === true) node.setAttribute(name, "");
      else node.setAttribute(name, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function newClientId() {
    const c = window.crypto;
    if (c && typeof c.randomUUID === "function") return c.randomUUID();
    if (c && typeof c.getRandomValues === "function") {
      const bytes = new Uint8Array(16);
      c.getRandomValues(bytes);
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    }
    return Date.now().toString(16) + Math.random().toString(16).slice(2) +
      Math.random().toString(16).slice(2);
  }

  async function api(path, options) {
    const { method = "GET", body = null, code = config.code } = options || {};
    const headers = { Accept: "application/json", "X-Team-Code": code };
    if (body !== null) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method, headers, cache: "no-store", credentials: "same-origin",
      body: body === null ? undefined : JSON.stringify(body),
    });
    return answerOf(response);
  }

  /** A fetch's answer: whether it succeeded, its status and its JSON body (null when it has
   * none or it is not JSON). */
  async function answerOf(response) {
    let data = null;
    try {
      data = await response.json();
    } catch (e) {
      data = null;
    }
    return { ok: response.ok, status: response.status, data };
  }

  function problemText(answer) {
    const data = answer.data || {};
    // The server's 429 says which limit and how long to wait, in words.
    if (answer.status === 429) return data.detail || tr("Too many requests: wait a little.");
    if (answer.status >= 500) return tr("The server had a problem; it is logged. Try again.");
    const detail = data.detail || trf("The server answered %(status)s.", { status: answer.status });
    return data.field && !detail.includes(data.field) ? `${detail} (${data.field})` : detail;
  }

  function say(text, kind) {
    if (!messagesBox) return null;
    const node = h("p", { class: `message ${kind || "info"}`, role: kind === "error" ? "alert" : null }, text);
    messagesBox.prepend(node);
    return node;
  }

  function flash(text, kind) {
    let items = [];
    try {
      items = JSON.parse(sessionStorage.getItem(FLASH_KEY) || "[]");
      items.push({ text, kind });
      sessionStorage.setItem(FLASH_KEY, JSON.stringify(items));
    } catch (e) {
      say(text, kind);
    }
  }

  function showFlashes() {
    try {
      const items = JSON.parse(sessionStorage.getItem(FLASH_KEY) || "[]");
      sessionStorage.removeItem(FLASH_KEY);
      for (const item of items) say(item.text, item.kind);
    } catch (e) {
      /* nothing kept */
    }
  }

  // --- the outbox: pending actions survive a dropped connection and a closed tab ---------

  const outbox = {
    items() {
      return store.get(OUTBOX_KEY) || [];
    },
    add(item) {
      store.set(OUTBOX_KEY, this.items().filter((i) => i.id !== item.id).concat([item]));
    },
    remove(id) {
      store.set(OUTBOX_KEY, this.items().filter((i) => i.id !== id));
    },
    forBoard(match, board) {
      return this.items().find((i) => i.slug === config.slug && i.match === match && i.board === board);
    },
  };
  const waitReason = new Map(); // client id -> "offline" | "busy"
  let flushing = false;

  async function flush() {
    if (flushing) return;
    flushing = true;
    let settled = 0;
    try {
      for (const item of outbox.items()) {
        let answer;
        try {
          answer = await api(item.url, { method: "POST", body: item.body, code: item.code });
        } catch (e) {
          waitReason.set(item.id, "offline");
          continue;
        }
        if (answer.ok) {
          outbox.remove(item.id);
          if (item.draftKey) store.remove(item.draftKey);
          if (item.kind === "submit" && answer.data && answer.data.director_called) {
            // The entry is stored and the board is with the director; nothing more is said.
            flash(trf("%(board)s: sent. The director has been called: please wait at the table.",
              { board: item.label }), "warning");
          } else if (item.done) flash(item.done, "success");
          settled += 1;
        } else if (answer.status === 429 || answer.status === 408 || answer.status >= 500) {
          waitReason.set(item.id, "busy");
        } else {
          outbox.remove(item.id);
          flash(trf("%(board)s: not accepted. %(problem)s", { board: item.label, problem: problemText(answer) }),
            "error");
          settled += 1;
        }
      }
    } finally {
      flushing = false;
    }
    if (settled) {
      window.location.reload();
      return;
    }
    showOutbox();
  }

  function queue(panel, kind, url, extra, texts) {
    const id = newClientId();
    const match = Number(panel.dataset.match);
    const board = Number(panel.dataset.board);
    outbox.add({
      id, kind, url, match, board, slug: config.slug, code: config.code,
      body: Object.assign({ client_id: id }, extra),
      label: trf("Board %(number)s", { number: board }), done: texts.done, draftKey: texts.draftKey || null,
      created: Date.now(),
    });
    showOutbox();
    flush();
  }

  function lockPanel(panel, text) {
    for (const control of panel.querySelectorAll("button, input, select, textarea")) control.disabled = true;
    const note = panel.querySelector("[data-note]");
    note.textContent = text;
    note.hidden = false;
  }

  function showOutbox() {
    const waiting = outbox.items();
    for (const panel of document.querySelectorAll("[data-board-panel]")) {
      const item = outbox.forBoard(Number(panel.dataset.match), Number(panel.dataset.board));
      if (!item) continue;
      const reason = waitReason.get(item.id);
      lockPanel(panel, reason === "offline"
        ? tr("Saved on this phone, will be sent: no connection right now.")
        : reason === "busy"
          ? tr("Saved on this phone, will be sent: the server is busy, trying again shortly.")
          : tr("Sending…"));
    }
    const banner = document.getElementById("outbox-banner");
    const offline = waiting.filter((i) => waitReason.get(i.id) === "offline").length;
    if (!offline) {
      if (banner) banner.remove();
      return;
    }
    const text = (offline > 1
      ? tr("%(count)s actions saved on this phone, will be sent as soon as the connection is back. Keep this page open if you can.")
      : tr("%(count)s action saved on this phone, will be sent as soon as the connection is back. Keep this page open if you can."))
      .replace("%(count)s", offline);
    if (banner) banner.textContent = text;
    else messagesBox.prepend(h("p", { id: "outbox-banner", class: "message warning" }, text));
  }

  // --- North's entry: what every game's entry shares -------------------------------------
  //
  // A game's entry class extends Entry (or FieldsEntry): it keeps a draft on the phone, draws
  // the entry into the panel's [data-entry] node and says, through facts(), either what is
  // still missing ({missing}) or the facts to send ({facts}). Entry asks the server for the
  // score in words as the facts change and sends them through the outbox.

  class Entry {
    constructor(panel) {
      this.panel = panel;
      this.root = panel.querySelector("[data-entry]");
      this.match = Number(panel.dataset.match);
      this.board = Number(panel.dataset.board);
      this.table = Number(panel.dataset.table);
      this.base = `${config.api}matches/${this.match}/boards/${this.board}/`;
      // The director's page keeps its drafts apart from North's, should both share a browser,
      // and each apart from the next entry: a draft started from one entry never hides the
      // calls of a later one (the page names the entry it starts from in data-draft-of).
      this.draftKey = config.director
        ? `pym:director-draft:${config.slug}:${this.match}:${this.board}:${panel.dataset.draftOf || "new"}`
        : `pym:draft:${config.slug}:${this.match}:${this.board}`;
      this.preview = null;
      this.previewTimer = null;
      this.draft = this.loadDraft();
      this.said = null;
      // What changed, said by screen readers after each drawing; it lives beside the entry,
      // which is drawn anew, so that it is there before its text changes.
      this.live = h("p", { class: "visually-hidden", role: "status", "aria-live": "polite",
        "data-announce": true });
      this.root.after(this.live);
      // Every game's render() keeps the focus where the scorer was, or on the next thing to do.
      const draw = this.render;
      this.render = (...args) => this.keepingFocus(() => draw.apply(this, args));
    }

    /** The facts the server holds for this board (a rejected or earlier entry), or null. */
    enteredFacts() {
      const node = document.getElementById(`draft-${this.panel.id}`);
      return node ? JSON.parse(node.textContent) : null;
    }

    loadDraft() {
      return store.get(this.draftKey) || {};
    }

    save() {
      store.set(this.draftKey, this.draft);
    }

    facts() {
      return { missing: tr("Nothing to enter.") };
    }

    // -- focus and what is said --
    //
    // The entry is drawn anew after each call or choice. The control that had the focus keeps
    // it (found again by its data-key, or its group's and its own name); when it is gone or
    // disabled (a call no longer legal, the box closed by the last pass), the focus goes to
    // the next thing to do: the first call the box offers, else the first question after the
    // auction, else the next control where the old one stood.

    /** Says `text` (what changed) after the next drawing, with what is still to do. */
    announce(text) {
      this.said = text;
    }

    focusKey(node) {
      if (node.dataset.key) return node.dataset.key;
      const group = node.closest("fieldset, [role=group], .field, section");
      const legend = group && group.querySelector("legend");
      const groupName = group ? group.getAttribute("aria-label") || (legend && legend.textContent) || "" : "";
      return `${groupName.trim()}|${node.id || node.getAttribute("aria-label") || node.textContent.trim()}`;
    }

    focusables() {
      return [...this.root.querySelectorAll("button, select, input, textarea, a[href], [tabindex]")]
        .filter((node) => !node.hidden && node.tabIndex >= 0);
    }

    keepingFocus(draw) {
      const active = document.activeElement;
      const inside = active && active !== this.root && this.root.contains(active);
      const place = inside ? {
        key: this.focusKey(active), index: this.focusables().indexOf(active),
        inBox: !!active.closest("[data-bidding-box]"),
      } : null;
      draw();
      if (place) this.restoreFocus(place);
      if (this.said !== null) {
        const result = this.facts();
        const next = result.missing ? tr(result.missing) : tr("Everything is entered: check the score, then send it.");
        this.speak(`${this.said} ${next}`);
        this.said = null;
      }
    }

    restoreFocus(place) {
      const usable = (node) => node && !node.disabled;
      const all = this.focusables();
      const same = all.find((node) => this.focusKey(node) === place.key);
      let target = usable(same) ? same : null;
      if (!target && place.inBox) {
        const box = this.root.querySelector("[data-bidding-box]");
        target = box ? [...box.querySelectorAll("button")].find(usable)
          : all.find((node) => usable(node) && node.closest(".play"));
      }
      if (!target && place.index >= 0) target = all.slice(place.index).find(usable) || all.find(usable);
      if (target) target.focus();
    }

    speak(text) {
      // Emptied first, so that the same words said twice are heard twice.
      this.live.textContent = "";
      setTimeout(() => { this.live.textContent = text; }, 60);
    }

    render() {
      this.root.replaceChildren(...this.sendParts());
      this.schedulePreview();
    }

    /** The score preview and the send button, drawn last by every entry. */
    sendParts() {
      return [
        h("div", { class: "preview", "data-preview": true, "aria-live": "polite" }),
        h("button", { type: "button", class: "big", "data-send": true, disabled: true,
          onclick: () => this.send() }, SEND_LABEL),
      ];
    }

    choice(label, options, current, onPick) {
      return h("fieldset", { class: "choice" }, h("legend", {}, label),
        options.map(([value, text]) => h("button", {
          type: "button", class: value === current ? "chosen" : "secondary",
          "aria-pressed": value === current ? "true" : "false",
          onclick: (event) => {
            this.announce(`${label}: ${event.currentTarget.textContent.trim()}.`);
            onPick(value);
          },
        }, text)));
    }

    // -- preview and send --

    schedulePreview() {
      clearTimeout(this.previewTimer);
      const result = this.facts();
      if (!result.facts) {
        this.preview = { missing: result.missing };
        this.showPreview();
        return;
      }
      const key = JSON.stringify(result.facts);
      if (this.preview && this.preview.key === key && !this.preview.loading) {
        this.showPreview();
        return;
      }
      this.preview = { key, loading: true };
      this.showPreview();
      this.previewTimer = setTimeout(() => this.runPreview(key, result.facts), 250);
    }

    async runPreview(key, facts) {
      let preview;
      try {
        const answer = config.director
          ? await directorPreview(this.panel, facts)
          : await api(`${this.base}preview/`, { method: "POST", body: { record: facts } });
        if (answer.ok) preview = { key, score: answer.data };
        else if (answer.status === 429 || answer.status >= 500) preview = { key, unchecked: problemText(answer) };
        else preview = { key, error: problemText(answer) };
      } catch (e) {
        preview = { key, unchecked: tr("No connection: the score is not checked yet.") };
      }
      if (!this.preview || this.preview.key !== key) return;
      this.preview = preview;
      this.showPreview();
    }

    showPreview() {
      const box = this.root.querySelector("[data-preview]");
      const send = this.root.querySelector("[data-send]");
      if (!box || !send) return;
      const p = this.preview || {};
      let content;
      if (p.missing) content = h("p", { class: "muted" }, tr(p.missing));
      else if (p.loading) content = h("p", { class: "muted" }, tr("Computing the score…"));
      else if (p.error) content = h("p", { class: "message error", role: "alert" }, p.error);
      else if (p.unchecked) {
        // Said with the button's own words: what pressing it does while the score waits.
        content = h("p", { class: "message warning" }, p.unchecked, config.director ? "" :
          " " + trf("You can still press “%(button)s”: the entry is kept on this phone until the server takes it, and its score is checked then.",
            { button: SEND_LABEL }));
      }
      else if (p.score) {
        const s = p.score;
        content = h("div", { class: "score" }, h("p", { class: "score-words" }, s.words),
          h("p", { class: "score-line" }, this.scoreLine(s)), directorNotes(s));
      }
      box.replaceChildren(content || "");
      send.disabled = !(p.score || p.unchecked);
    }

    /** A board score in one line: each side's points where the partners of a side share one
     * (``ns``/``ew``), else each seat's. */
    scoreLine(s) {
      if ("ns" in s) {
        if (s.ns === null) return tr("Ranked worst at this table");
        return h("span", {}, `${tr("NS")} `, h("strong", {}, s.ns), ` · ${tr("EW")} `, h("strong", {}, s.ew));
      }
      return h("span", {}, Object.entries(s.seats || {}).map(([seat, value], index) => h("span", {},
        index ? " · " : "", `${SEAT_NAMES[seat] || seat} `, h("strong", {}, value > 0 ? `+${value}` : value))));
    }

    send() {
      const result = this.facts();
      if (!result.facts) return;
      if (config.director) return void directorSave(this.panel, result.facts);
      queue(this.panel, "submit", `${this.base}entries/`, { record: result.facts },
        { done: trf("Board %(number)s: sent. East can check it now.", { number: this.board }), draftKey: this.draftKey });
    }
  }

  // --- the entry of games whose scorer picks each fact from a short list ------------------
  //
  // The server writes, for each board, the fields North enters and the values each may take
  // (a declaration: only the numbers left on the declarer's score sheet): a script element
  // "form-<panel id>" holding {fields: [{name, label, choices: [[value, text], ...]}], note}.

  class FieldsEntry extends Entry {
    constructor(panel) {
      super(panel);
      const node = document.getElementById(`form-${panel.id}`);
      this.form = node ? JSON.parse(node.textContent) : { fields: [] };
      this.render();
    }

    loadDraft() {
      const saved = store.get(this.draftKey);
      if (saved && saved.fields) return saved;
      return { fields: this.enteredFacts() || {} };
    }

    pick(name, value) {
      const field = this.form.fields.find((f) => f.name === name);
      const chosen = field && field.choices.find(([choice]) => choice === value);
      if (field && chosen) this.announce(`${field.label}: ${chosen[1]}.`);
      this.draft.fields[name] = value;
      this.save();
      this.render();
    }

    facts() {
      const facts = {};
      for (const field of this.form.fields) {
        const value = this.draft.fields[field.name];
        const allowed = field.choices.some(([choice]) => choice === value);
        if (value === undefined || value === null || !allowed) {
          return { missing: trf("Choose: %(what)s.", { what: field.label.toLowerCase() }) };
        }
        facts[field.name] = value;
      }
      return { facts };
    }

    render() {
      const parts = [];
      if (this.form.note) parts.push(h("p", { class: "contract" }, this.form.note));
      for (const field of this.form.fields) {
        const current = this.draft.fields[field.name];
        parts.push(h("fieldset", { class: `choices choices-${field.name}` }, h("legend", {}, field.label),
          h("div", { class: "choice-buttons" }, field.choices.map(([value, text]) => h("button", {
            type: "button", class: value === current ? "chosen" : "secondary",
            "aria-pressed": value === current ? "true" : "false", "data-key": `${field.name}:${value}`,
            onclick: () => this.pick(field.name, value),
          }, text)))));
        if (!field.choices.length) parts.push(h("p", { class: "message error" }, field.empty || tr("Nothing may be entered here.")));
      }
      this.root.replaceChildren(...parts, ...this.sendParts());
      this.schedulePreview();
    }
  }

  // --- East, the director call, the page's own buttons -----------------------------------

  function wirePanel(panel) {
    const base = `${config.api}matches/${panel.dataset.match}/boards/${panel.dataset.board}/`;
    const pending = panel.dataset.pending;
    const state = panel.dataset.state;
    if (panel.dataset.role === "north" && (state === "confirmed" || state === "adjusted")) {
      store.remove(`pym:draft:${config.slug}:${panel.dataset.match}:${panel.dataset.board}`);
    }
    const accept = panel.querySelector("[data-accept]");
    if (accept) {
      accept.addEventListener("click", () => queue(panel, "accept", `${base}entries/${pending}/accept/`, {},
        { done: trf("Board %(number)s: accepted. The result is confirmed.", { number: panel.dataset.board }) }));
    }
    const reject = panel.querySelector("[data-reject]");
    if (reject) {
      reject.addEventListener("submit", (event) => {
        event.preventDefault();
        const reason = reject.elements.reason.value.trim();
        if (!reason) return void reject.elements.reason.focus();
        queue(panel, "reject", `${base}entries/${pending}/reject/`, { reason },
          { done: trf("Board %(number)s: rejected. It goes back to North.", { number: panel.dataset.board }) });
      });
    }
    const callDirector = panel.querySelector("[data-call-director]");
    if (callDirector) {
      callDirector.addEventListener("submit", (event) => {
        event.preventDefault();
        queue(panel, "call-director", `${base}call-director/`,
          { reason: callDirector.elements.reason.value.trim() },
          { done: trf("Board %(number)s: the director is called. Please wait at the table.",
            { number: panel.dataset.board }) });
      });
    }
    const entry = panel.querySelector("[data-entry]");
    if (entry) {
      const change = panel.querySelector("[data-change-entry]");
      if (change) {
        change.addEventListener("click", () => {
          entry.hidden = false;
          change.hidden = true;
        });
      }
      panel.entry = new (entryClass())(panel);
    }
  }

  // --- entries of other games, and the director's page -----------------------------------

  // A game's entry script that did not arrive (a dropped connection while the page loaded).
  class MissingEntry extends Entry {
    constructor(panel) {
      super(panel);
      this.render();
    }

    render() {
      this.root.replaceChildren(h("p", { class: "message error", role: "alert" },
        tr("This game's entry did not load. Reload the page to enter the board.")));
    }
  }

  const kit = { h, api, store, config, problemText, say, tr, trf, SEAT_NAMES, SEND_LABEL, Entry, FieldsEntry,
    directorNotes };
  let madeEntry = null;
  function entryClass() {
    if (madeEntry) return madeEntry;
    const factory = (window.ScorerEntries || {})[config.entry];
    madeEntry = factory ? factory(kit) : config.entry === "fields" ? FieldsEntry : MissingEntry;
    return madeEntry;
  }

  // The director's board page: the score of the entry as it stands, from the page's own
  // preview address (the director's session, not a team's code), with every fact in words.
  async function directorPreview(panel, facts) {
    const form = panel.closest("form");
    const token = form && form.elements.csrfmiddlewaretoken ? form.elements.csrfmiddlewaretoken.value : "";
    const response = await fetch(panel.dataset.preview, {
      method: "POST", cache: "no-store", credentials: "same-origin",
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify({ record: facts }),
    });
    return answerOf(response);
  }

  /** What the director's preview adds to the score: each fact entered, in words (a revoke, an
   * illegal trump...), and whether the entry agrees with the deal on file. */
  function directorNotes(s) {
    if (!config.director) return null;
    const facts = (s.facts || []).flatMap(([label, text]) => [h("dt", {}, label), h("dd", {}, text)]);
    return [
      facts.length ? h("dl", { class: "facts preview-facts" }, facts) : null,
      s.disagreement ? h("p", { class: "message warning" },
        trf("This entry disagrees with the deal on file: %(why)s.", { why: s.disagreement })) : null,
    ];
  }

  // The director's board page: the entry fills the form's hidden JSON field and sends it.
  function directorSave(panel, facts) {
    const form = panel.closest("form");
    form.elements.record_json.value = JSON.stringify(facts);
    form.submit();
  }

  if (config.director) {
    for (const panel of document.querySelectorAll("[data-board-panel]")) {
      panel.entry = new (entryClass())(panel);
    }
    return;
  }

  function signatureOf(me) {
    return me.matches.map((m) => m.boards.map((b) =>
      `${m.id}.${b.board}.${b.state}.${b.pending ? b.pending.id : ""}`)).flat().join("|");
  }

  let polling = true;
  async function poll() {
    if (!polling || document.visibilityState !== "visible" || outbox.items().length) return;
    try {
      const answer = await api(`${config.api}me/`);
      if (answer.status === 401 || answer.status === 403) {
        polling = false; // the code was changed: the page asks for the new one
        window.location.reload();
      } else if (answer.ok && signatureOf(answer.data) !== config.signature) {
        polling = false;
        window.location.reload();
      }
    } catch (e) {
      /* offline: the next poll tries again */
    }
  }

  store.set(`pym:code:${config.slug}`, config.code);
  const leave = document.querySelector("[data-leave]");
  if (leave) leave.addEventListener("submit", () => store.remove(`pym:code:${config.slug}`));
  if (!persistent) {
    say(tr("This browser does not keep data for this site: keep the page open until your entries are sent."), "warning");
  }
  showFlashes();
  for (const panel of document.querySelectorAll("[data-board-panel]")) wirePanel(panel);
  showOutbox();
  flush();
  window.addEventListener("online", flush);
  window.addEventListener("offline", showOutbox);
  setInterval(() => {
    if (outbox.items().length) flush();
  }, RETRY_MS);
  setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", poll);
})();
