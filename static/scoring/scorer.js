/* The scorer pages: North's bidding box and entry, East's verification, calling the
 * director, and an outbox that keeps every action on the phone until the server has it.
 *
 * Plain JavaScript (ES2017), no framework, no network beyond this site's own API (the
 * bidding box's legal calls are worked out on the phone, by entry-auction.js):
 *   POST {api}matches/M/boards/B/preview/           the score in words, never stored
 *   POST {api}matches/M/boards/B/entries/           North's entry (client-made id)
 *   POST .../entries/S/accept/ | reject/ , .../call-director/
 *   GET  {api}me/                                   polled: reload when a state changes
 * Every POST carries a client id made here; the outbox re-sends with the same id until the
 * server answers, and the server turns a re-send into the row the first send made.
 *
 * A game with an entry of its own ships a script, loaded before this one, that registers a
 * factory under its entry kind: window.ScorerEntries[kind] = (kit) => class extends
 * kit.FieldsEntry { ... }. The same classes run on the director's board page (a
 * "scorer-config" with director: true), where sending fills the page's form instead.
 */
"use strict";

(() => {
  const configNode = document.getElementById("scorer-config");
  if (!configNode) return;
  const config = JSON.parse(configNode.textContent);
  const messagesBox = document.getElementById("scorer-messages");

  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const TRUMP_NAMES = { fire: "Fire", earth: "Earth", water: "Water", wind: "Wind", nt: "No trump" };
  const TRUMPS = ["fire", "earth", "water", "wind", "nt"];
  const BID_NAMES = {
    G: "Gâm", "G+1": "Gâm +1", "G+2": "Gâm +2", "G+3": "Gâm +3", "G+4": "Gâm +4",
    "G+5": "Gâm +5", "G+6": "Gâm +6", R: "Ry", R2: "Ry 2", R3: "Ry 3", L: "Lon",
  };
  const SEND_LABEL = config.director ? "Save this result" : "Send to East for checking";
  const RETRY_MS = 5000;
  const POLL_MS = 6000;
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

  const SVG = "http://www.w3.org/2000/svg";
  function suitIcon(suit) {
    if (!suit || suit === "nt") return null;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 20 20");
    svg.setAttribute("width", "14");
    svg.setAttribute("height", "14");
    svg.setAttribute("class", `suit suit-${suit}`);
    svg.setAttribute("aria-hidden", "true");
    const up = suit === "fire" || suit === "wind";
    const shape = document.createElementNS(SVG, "polygon");
    shape.setAttribute("points", up ? "10,2 19,18 1,18" : "1,2 19,2 10,18");
    svg.append(shape);
    if (suit === "wind" || suit === "earth") {
      const bar = document.createElementNS(SVG, "line");
      const y = suit === "wind" ? "12" : "8";
      for (const [k, v] of [["x1", "3"], ["y1", y], ["x2", "17"], ["y2", y]]) bar.setAttribute(k, v);
      svg.append(bar);
    }
    return svg;
  }

  function trumpLabel(trump) {
    return h("span", { class: "trump" }, suitIcon(trump), " ", TRUMP_NAMES[trump]);
  }

  function callLabel(text) {
    if (text.toUpperCase() === "P") return "Pass";
    const [code, trump] = text.split("/");
    const name = BID_NAMES[code.toUpperCase()] || code;
    return trump ? h("span", {}, name, " · ", trumpLabel(trump.toLowerCase())) : name;
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
    if (answer.status === 429) return "Too many requests from this address: wait a little.";
    if (answer.status >= 500) return "The server had a problem; it is logged. Try again.";
    const detail = data.detail || `The server answered ${answer.status}.`;
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
            flash(`${item.label}: sent. The director has been called: please wait at the table.`,
              "warning");
          } else if (item.done) flash(item.done, "success");
          settled += 1;
        } else if (answer.status === 429 || answer.status === 408 || answer.status >= 500) {
          waitReason.set(item.id, "busy");
        } else {
          outbox.remove(item.id);
          flash(`${item.label}: not accepted. ${problemText(answer)}`, "error");
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
      label: `Board ${board}`, done: texts.done, draftKey: texts.draftKey || null,
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
        ? "Saved on this phone, will be sent: no connection right now."
        : reason === "busy"
          ? "Saved on this phone, will be sent: the server is busy, trying again shortly."
          : "Sending…");
    }
    const banner = document.getElementById("outbox-banner");
    const offline = waiting.filter((i) => waitReason.get(i.id) === "offline").length;
    if (!offline) {
      if (banner) banner.remove();
      return;
    }
    const text = `${offline} action${offline > 1 ? "s" : ""} saved on this phone, will be sent ` +
      "as soon as the connection is back. Keep this page open if you can.";
    if (banner) banner.textContent = text;
    else messagesBox.prepend(h("p", { id: "outbox-banner", class: "message warning" }, text));
  }

  // --- North: the bidding box and the rest of the entry ----------------------------------

  function emptyDraft() {
    return {
      auctions: [[]], trump: null, double: "none", revoke: null, illegalTrump: null,
      teamTricks: { NS: null, EW: null }, seatTricks: { N: null, E: null, S: null, W: null },
    };
  }

  function draftFromFacts(facts) {
    const draft = emptyDraft();
    if (Array.isArray(facts.auctions) && facts.auctions.length) {
      draft.auctions = facts.auctions.map((a) => a.slice());
    }
    draft.trump = facts.trump || null;
    draft.double = facts.double || "none";
    draft.revoke = facts.revoke || null;
    draft.illegalTrump = facts.illegal_trump || null;
    const tricks = facts.tricks || {};
    if ("NS" in tricks) Object.assign(draft.teamTricks, tricks);
    else Object.assign(draft.seatTricks, tricks);
    return draft;
  }

  function lastBid(calls) {
    for (let i = calls.length - 1; i >= 0; i -= 1) {
      const [seat, text] = calls[i].split(":");
      if (text.toUpperCase() === "P") continue;
      const [code, trump] = text.split("/");
      const family = code.startsWith("G") ? "gam" : code.startsWith("R") ? "ry" : "lon";
      return { seat, code, trumpInBid: trump || null, family };
    }
    return null;
  }

  class BoardEntry {
    constructor(panel, options) {
      this.panel = panel;
      this.root = panel.querySelector("[data-entry]");
      this.match = Number(panel.dataset.match);
      this.board = Number(panel.dataset.board);
      this.table = Number(panel.dataset.table);
      this.base = `${config.api}matches/${this.match}/boards/${this.board}/`;
      // The director's page keeps its drafts apart from North's, should both share a browser.
      const kind = config.director ? "director-draft" : "draft";
      this.draftKey = `pym:${kind}:${config.slug}:${this.match}:${this.board}`;
      this.draft = this.loadDraft();
      this.box = null;
      this.boxError = null;
      this.boxes = new Map();
      this.preview = null;
      this.previewTimer = null;
      if (!(options && options.deferred)) this.refreshBox();
    }

    loadDraft() {
      const saved = store.get(this.draftKey);
      if (saved && Array.isArray(saved.auctions)) return Object.assign(emptyDraft(), saved);
      const node = document.getElementById(`draft-${this.panel.id}`);
      const facts = node ? JSON.parse(node.textContent) : null;
      return facts ? draftFromFacts(facts) : emptyDraft();
    }

    save() {
      store.set(this.draftKey, this.draft);
    }

    get calls() {
      return this.draft.auctions[this.draft.auctions.length - 1];
    }

    get contract() {
      if (!this.box || !this.box.ended || this.box.passed_out) return null;
      return lastBid(this.calls);
    }

    get trump() {
      const contract = this.contract;
      if (!contract || contract.family === "ry") return null;
      return contract.trumpInBid || this.draft.trump;
    }

    async refreshBox() {
      const key = this.calls.join(",");
      if (this.boxes.has(key)) {
        this.box = this.boxes.get(key);
        this.afterBox();
        return;
      }
      // The auction rules run on the phone (entry-auction.js): no network is needed.
      let box;
      try {
        box = window.PymthegAuction.nextCalls(this.calls, config.opening, config.direction);
      } catch (e) {
        this.box = null;
        this.boxError = e.message;
        this.render();
        return;
      }
      this.boxError = null;
      this.boxes.set(key, box);
      this.box = box;
      this.afterBox();
    }

    afterBox() {
      const box = this.box;
      if (box.ended && box.passed_out && config.secondAuction && this.draft.auctions.length === 1) {
        this.draft.auctions.push([]); // manual-2016: a second auction, same opening seat
        this.save();
        this.refreshBox();
        return;
      }
      this.render();
    }

    changeCalls(change) {
      const before = JSON.stringify(lastBid(this.calls));
      change();
      if (JSON.stringify(lastBid(this.calls)) !== before) {
        this.draft.trump = null;
        this.draft.illegalTrump = null;
      }
      this.save();
      this.refreshBox();
    }

    call(text) {
      if (!this.box || this.box.ended) return;
      const seat = this.box.seat;
      this.changeCalls(() => this.calls.push(`${seat}:${text}`));
    }

    undo() {
      this.changeCalls(() => {
        if (this.calls.length === 0 && this.draft.auctions.length > 1) this.draft.auctions.pop();
        this.calls.pop();
      });
    }

    restart() {
      this.changeCalls(() => {
        this.draft.auctions = [[]];
      });
    }

    set(name, value) {
      this.draft[name] = value;
      this.save();
      this.render();
    }

    setTricks(kind, key, value) {
      const tricks = kind === "team" ? this.draft.teamTricks : this.draft.seatTricks;
      tricks[key] = value === "" ? null : Number(value);
      const contract = this.contract;
      // Gâm-family play runs to the end: the other team took the rest of the 15 tricks.
      if (kind === "team" && contract && contract.family === "gam" && !this.draft.revoke &&
          tricks[key] !== null) {
        tricks[key === "NS" ? "EW" : "NS"] = 15 - tricks[key];
      }
      this.save();
      this.render();
    }

    trickKind() {
      const contract = this.contract;
      return contract && (contract.family === "gam" || contract.code === "R3") ? "team" : "seat";
    }

    facts() {
      const box = this.box;
      if (!box) return { missing: "Loading the bidding box…" };
      if (!box.ended) return { missing: `Auction: ${SEAT_NAMES[box.seat]} to call.` };
      const facts = { auctions: this.draft.auctions.map((a) => a.slice()) };
      if (box.passed_out) return { facts };
      const contract = this.contract;
      if (contract.family !== "ry" && !contract.trumpInBid) {
        if (!this.draft.trump) return { missing: "Name the trump." };
        facts.trump = this.draft.trump;
      }
      facts.double = this.draft.double;
      if (this.draft.revoke) facts.revoke = this.draft.revoke;
      const kind = this.trickKind();
      const tricks = kind === "team" ? this.draft.teamTricks : this.draft.seatTricks;
      const keys = kind === "team" ? ["NS", "EW"] : ["N", "E", "S", "W"];
      const given = keys.filter((k) => tricks[k] !== null && tricks[k] !== undefined);
      if (given.length === keys.length) {
        facts.tricks = {};
        for (const k of keys) facts.tricks[k] = tricks[k];
      } else if (given.length || !this.draft.revoke) {
        return { missing: this.draft.revoke ? "Give every trick count, or none." : "Give the tricks taken." };
      }
      const trump = this.trump;
      if (config.illegalTrumpRule && trump && trump !== "nt" && this.draft.illegalTrump) {
        facts.illegal_trump = this.draft.illegalTrump;
      }
      return { facts };
    }

    // -- drawing --

    render() {
      const parts = [this.renderAuctions()];
      if (this.boxError) {
        parts.push(h("p", { class: "message error" }, this.boxError,
          " ", h("button", { type: "button", class: "link", onclick: () => this.restart() }, "Start the auction again")));
      }
      if (this.box && !this.box.ended) parts.push(this.renderBox());
      if (!this.box && !this.boxError) parts.push(h("p", { class: "muted" }, "…"));
      if (this.contract) parts.push(this.renderPlay());
      if (this.box && this.box.ended && this.box.passed_out) {
        parts.push(h("p", { class: "contract" }, this.draft.auctions.length > 1
          ? "Both auctions were passed out." : "The auction was passed out."));
      }
      parts.push(h("div", { class: "preview", "data-preview": true, "aria-live": "polite" }));
      parts.push(h("button", { type: "button", class: "big", "data-send": true, disabled: true,
        onclick: () => this.send() }, SEND_LABEL));
      this.root.replaceChildren(...parts);
      this.schedulePreview();
    }

    renderAuctions() {
      const auctions = this.draft.auctions;
      const blocks = auctions.map((calls, index) => {
        const title = auctions.length > 1
          ? (index === 0 ? "First auction: passed out (each team −100)" : "Second auction")
          : "Auction";
        const list = calls.length
          ? h("ol", { class: "calls" }, calls.map((c) => {
            const [seat, text] = c.split(":");
            return h("li", {}, h("span", { class: "seat" }, SEAT_NAMES[seat]), " ", callLabel(text));
          }))
          : h("p", { class: "muted" }, "No call yet.");
        return h("div", { class: "auction" }, h("h3", {}, title), list);
      });
      const canUndo = auctions.length > 1 || this.calls.length > 0;
      const tools = h("p", { class: "auction-tools" },
        this.box && !this.box.ended ? h("span", { class: "next" }, `${SEAT_NAMES[this.box.seat]} to call`) : null,
        h("button", { type: "button", class: "secondary", disabled: !canUndo || (!this.box && !this.boxError),
          onclick: () => this.undo() }, "↶ Undo"));
      return h("div", {}, blocks, tools);
    }

    renderBox() {
      const groups = new Map();
      for (const text of this.box.calls) {
        if (text === "P") continue;
        const [code, trump] = text.split("/");
        if (!groups.has(code)) groups.set(code, []);
        groups.get(code).push(trump || "");
      }
      // Fixed rows, so a finger finds a bid where it was: the next Gâm bid (the only one
      // allowed), then Ry, Ry 2, Ry 3 and Lon; a bid not allowed now stays, disabled.
      const gam = [...groups.keys()].find((code) => code.startsWith("G"));
      const rows = [gam || "G", "R", "R2", "R3", "L"].map((code) => {
        const legal = groups.has(code);
        const variants = code.startsWith("R") ? [""] : ["", ...TRUMPS];
        const buttons = variants.map((trump) => h("button", {
          type: "button", class: trump ? "trump-bid" : "bid", disabled: !legal,
          "aria-label": trump ? `${BID_NAMES[code]}, ${TRUMP_NAMES[trump]} named in the bid` : BID_NAMES[code],
          onclick: () => this.call(trump ? `${code}/${trump}` : code),
        }, trump ? [suitIcon(trump), h("span", { class: "t" }, trump === "nt" ? "NT" : TRUMP_NAMES[trump])]
          : gam || !code.startsWith("G") ? BID_NAMES[code] : "Gâm"));
        return h("div", { class: `bid-row${legal ? "" : " not-now"}` }, buttons);
      });
      return h("div", { class: "bidbox", role: "group", "aria-label": "Bidding box" },
        h("button", { type: "button", class: "pass", onclick: () => this.call("P") }, "Pass"),
        h("p", { class: "hint muted" }, "A suit next to a bid names the trump in the bid."),
        rows);
    }

    renderPlay() {
      const contract = this.contract;
      const parts = [h("p", { class: "contract" }, "Contract: ", callLabel(contract.trumpInBid
        ? `${contract.code}/${contract.trumpInBid}` : contract.code), `, by ${SEAT_NAMES[contract.seat]}`)];
      if (contract.family !== "ry" && !contract.trumpInBid) {
        parts.push(this.choice("Trump named after the auction", TRUMPS.map((t) => [t, trumpLabel(t)]),
          this.draft.trump, (v) => this.set("trump", v)));
      }
      parts.push(this.choice("Double", [["none", "None"], ["x", "Doubled"], ["xx", "Redoubled"]],
        this.draft.double, (v) => this.set("double", v)));
      parts.push(this.renderTricks());
      parts.push(this.seatSelect("Did a revoke end the round?", "No revoke", this.draft.revoke,
        (v) => this.set("revoke", v)));
      const trump = this.trump;
      if (config.illegalTrumpRule && trump && trump !== "nt") {
        parts.push(this.seatSelect("Illegal trump (house rule)", "None", this.draft.illegalTrump,
          (v) => this.set("illegalTrump", v)));
      }
      return h("div", { class: "play" }, parts);
    }

    choice(label, options, current, onPick) {
      return h("fieldset", { class: "choice" }, h("legend", {}, label),
        options.map(([value, text]) => h("button", {
          type: "button", class: value === current ? "chosen" : "secondary",
          "aria-pressed": value === current ? "true" : "false", onclick: () => onPick(value),
        }, text)));
    }

    seatSelect(label, none, current, onPick) {
      const id = `${this.panel.id}-${label.length}`;
      const select = h("select", { id, onchange: (e) => onPick(e.target.value || null) },
        [["", none], ["N", "North"], ["E", "East"], ["S", "South"], ["W", "West"]].map(([value, text]) =>
          h("option", { value, selected: (current || "") === value }, text)));
      return h("div", { class: "field inline-field" }, h("label", { for: id }, label), select);
    }

    renderTricks() {
      const kind = this.trickKind();
      const keys = kind === "team" ? ["NS", "EW"] : ["N", "E", "S", "W"];
      const names = { NS: "North–South", EW: "East–West", ...SEAT_NAMES };
      const tricks = kind === "team" ? this.draft.teamTricks : this.draft.seatTricks;
      const legend = this.draft.revoke
        ? "Tricks taken before the revoke (optional)"
        : kind === "team" ? "Tricks taken by each team" : "Tricks taken by each player";
      const fields = keys.map((key) => {
        const id = `${this.panel.id}-tricks-${key}`;
        const options = [h("option", { value: "", selected: tricks[key] === null }, "–")];
        for (let n = 0; n <= 15; n += 1) options.push(h("option", { value: n, selected: tricks[key] === n }, n));
        return h("div", { class: "field" }, h("label", { for: id }, names[key]),
          h("select", { id, onchange: (e) => this.setTricks(kind, key, e.target.value) }, options));
      });
      return h("fieldset", { class: `tricks tricks-${kind}` }, h("legend", {}, legend), fields);
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
      if (config.director) {
        this.preview = { key, unchecked: "The score is computed when you save." };
        this.showPreview();
        return;
      }
      try {
        const answer = await api(`${this.base}preview/`, { method: "POST", body: { record: facts } });
        if (answer.ok) preview = { key, score: answer.data };
        else if (answer.status === 429 || answer.status >= 500) preview = { key, unchecked: problemText(answer) };
        else preview = { key, error: problemText(answer) };
      } catch (e) {
        preview = { key, unchecked: "No connection: the score is not checked yet." };
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
      if (p.missing) content = h("p", { class: "muted" }, p.missing);
      else if (p.loading) content = h("p", { class: "muted" }, "Computing the score…");
      else if (p.error) content = h("p", { class: "message error", role: "alert" }, p.error);
      else if (p.unchecked) {
        content = h("p", { class: "message warning" }, p.unchecked,
          config.director ? "" : " You can still send: it will be checked on arrival.");
      }
      else if (p.score) {
        const s = p.score;
        content = h("div", { class: "score" }, h("p", { class: "score-words" }, s.words),
          h("p", { class: "score-line" }, this.scoreLine(s)));
      }
      box.replaceChildren(content || "");
      send.disabled = !(p.score || p.unchecked);
    }

    scoreLine(s) {
      if (s.ns === null) return "Ranked worst at this table";
      return h("span", {}, "NS ", h("strong", {}, s.ns), " · EW ", h("strong", {}, s.ew));
    }

    send() {
      const result = this.facts();
      if (!result.facts) return;
      if (config.director) return void directorSave(this.panel, result.facts);
      queue(this.panel, "submit", `${this.base}entries/`, { record: result.facts },
        { done: `Board ${this.board}: sent. East can check it now.`, draftKey: this.draftKey });
    }
  }

  // --- the entry of games whose scorer picks each fact from a short list ------------------
  //
  // The server writes, for each board, the fields North enters and the values each may take
  // (a Pyramid declaration: only the numbers left on the declarer's sheet): a script element
  // "form-<panel id>" holding {fields: [{name, label, choices: [[value, text], ...]}], note}.

  class FieldsEntry extends BoardEntry {
    constructor(panel) {
      super(panel, { deferred: true });
      const node = document.getElementById(`form-${panel.id}`);
      this.form = node ? JSON.parse(node.textContent) : { fields: [] };
      this.render();
    }

    loadDraft() {
      const saved = store.get(this.draftKey);
      if (saved && saved.fields) return saved;
      const node = document.getElementById(`draft-${this.panel.id}`);
      const facts = node ? JSON.parse(node.textContent) : null;
      return { fields: facts || {} };
    }

    pick(name, value) {
      this.draft.fields[name] = value;
      this.save();
      this.render();
    }

    facts() {
      const facts = {};
      for (const field of this.form.fields) {
        const value = this.draft.fields[field.name];
        const allowed = field.choices.some(([choice]) => choice === value);
        if (value === undefined || value === null || !allowed) return { missing: `Choose: ${field.label.toLowerCase()}.` };
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
            "aria-pressed": value === current ? "true" : "false",
            onclick: () => this.pick(field.name, value),
          }, text)))));
        if (!field.choices.length) parts.push(h("p", { class: "message error" }, field.empty || "Nothing may be entered here."));
      }
      parts.push(h("div", { class: "preview", "data-preview": true, "aria-live": "polite" }));
      parts.push(h("button", { type: "button", class: "big", "data-send": true, disabled: true,
        onclick: () => this.send() }, SEND_LABEL));
      this.root.replaceChildren(...parts);
      this.schedulePreview();
    }

    scoreLine(s) {
      return h("span", {}, Object.entries(s.seats || {}).map(([seat, value], index) => h("span", {},
        index ? " · " : "", `${SEAT_NAMES[seat]} `, h("strong", {}, value > 0 ? `+${value}` : value))));
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
        { done: `Board ${panel.dataset.board}: accepted. The result is confirmed.` }));
    }
    const reject = panel.querySelector("[data-reject]");
    if (reject) {
      reject.addEventListener("submit", (event) => {
        event.preventDefault();
        const reason = reject.elements.reason.value.trim();
        if (!reason) return void reject.elements.reason.focus();
        queue(panel, "reject", `${base}entries/${pending}/reject/`, { reason },
          { done: `Board ${panel.dataset.board}: rejected. It goes back to North.` });
      });
    }
    const callDirector = panel.querySelector("[data-call-director]");
    if (callDirector) {
      callDirector.addEventListener("submit", (event) => {
        event.preventDefault();
        queue(panel, "call-director", `${base}call-director/`,
          { reason: callDirector.elements.reason.value.trim() },
          { done: `Board ${panel.dataset.board}: the director is called. Please wait at the table.` });
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

  const kit = { h, api, store, config, problemText, say, SEAT_NAMES, SEND_LABEL, BoardEntry, FieldsEntry };
  let madeEntry = null;
  function entryClass() {
    if (madeEntry) return madeEntry;
    const factory = (window.ScorerEntries || {})[config.entry];
    madeEntry = factory ? factory(kit) : config.entry === "fields" ? FieldsEntry : BoardEntry;
    return madeEntry;
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
    say("This browser does not keep data for this site: keep the page open until your entries are sent.", "warning");
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
