/* Pymtheg's entry on the scorer's phone and the director's board page.
 *
 * PymthegAuction is the auction's rules, so that the bidding box works with no network: the
 * legal next calls after an auction prefix, as engine/games/pymtheg/auction.py gives them
 * (legal_next_calls). It needs no DOM, and the tests run it under Node against the engine on
 * thousands of random auctions.
 *
 *   nextCalls(["N:G", "E:P"], "N", "clockwise")
 *     -> {seat: "S", calls: ["P", "G+1", "G+1/fire", ...], ended: false, passed_out: false}
 *   An illegal prefix throws an Error whose message names the call, as the engine's does.
 */
"use strict";

(() => {
  const SEATS = ["N", "E", "S", "W"];
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const TRUMPS = ["fire", "earth", "water", "wind", "nt"];
  const TRUMP_ALIASES = { stone: "earth" };
  // The bid ladder, lowest first; a bid's rank is its place in it (1-based).
  const LADDER = ["G", "G+1", "G+2", "G+3", "R", "G+4", "R2", "G+5", "R3", "G+6", "L"];
  const RANK = Object.fromEntries(LADDER.map((code, i) => [code, i + 1]));
  const family = (code) => (code[0] === "G" ? "gam" : code[0] === "R" ? "ry" : "lon");

  // Every accepted spelling of a call without its seat, lower case, no spaces.
  const SPELLINGS = (() => {
    const table = { p: [null, null], pass: [null, null] };
    const suffixes = { "": null };
    for (const trump of TRUMPS) suffixes[`/${trump}`] = trump;
    for (const [alias, real] of Object.entries(TRUMP_ALIASES)) suffixes[`/${alias}`] = real;
    for (const code of LADDER) {
      const kind = family(code);
      let names;
      if (kind === "gam") {
        const plus = code.includes("+") ? code.slice(1) : "";
        names = ["g", "gam", "gâm"].map((stem) => stem + plus);
      } else if (kind === "ry") {
        const digit = code.length > 1 ? code.slice(1) : "";
        names = [`r${digit}`, `ry${digit}`];
      } else {
        names = ["l", "lon"];
      }
      for (const name of names) {
        if (kind === "ry") {
          table[name] = [code, null];
          continue;
        }
        for (const [suffix, trump] of Object.entries(suffixes)) table[name + suffix] = [code, trump];
      }
    }
    return table;
  })();

  function parseSeat(text) {
    const key = text.trim().toUpperCase();
    return SEATS.includes(key) ? key : null;
  }

  function parseCall(text) {
    const colon = text.indexOf(":");
    if (colon < 0) throw new Error(`'${text}' is not a call: write SEAT:CALL, e.g. 'N:G+1'`);
    const seat = parseSeat(text.slice(0, colon));
    if (seat === null) throw new Error(`'${text}': unknown seat (expected N, E, S or W)`);
    const key = text.slice(colon + 1).replace(/\s+/g, "").toLowerCase();
    const found = SPELLINGS[key];
    if (!found) {
      if (key.startsWith("r") && key.includes("/")) throw new Error(`'${text}': a Ry bid never names a trump`);
      throw new Error(`'${text}': unknown call`);
    }
    return { seat, bid: found[0], trump: found[1] };
  }

  // The only Gâm-family bid allowed over a highest bid of this rank (0: no bid yet).
  function lowestGamAbove(rank) {
    return LADDER.find((code) => family(code) === "gam" && RANK[code] > rank) || null;
  }

  function seatOrder(first, direction) {
    const step = direction === "clockwise" ? 1 : 3;
    const start = SEATS.indexOf(first);
    return [0, 1, 2, 3].map((i) => SEATS[(start + step * i) % 4]);
  }

  function illegalReason(state, call) {
    if (state.ended) return `the auction already ended at call ${state.made}`;
    const seat = state.order[state.turn];
    if (call.seat !== seat) return `it is ${SEAT_NAMES[seat]}'s turn`;
    if (call.bid === null) return null;
    const top = state.highest ? RANK[state.highest] : 0;
    if (family(call.bid) === "gam") {
      const allowed = lowestGamAbove(top);
      if (allowed === null) return `no Gâm bid ranks above ${state.highest}`;
      if (call.bid !== allowed) {
        const over = state.highest ? `over ${state.highest}` : "as the first bid";
        return `a Gâm bid ${over} must be ${allowed}`;
      }
    } else if (RANK[call.bid] <= top) {
      return `${call.bid} does not rank above ${state.highest}`;
    }
    return null;
  }

  function advance(state) {
    const passes = Object.values(state.passed).filter(Boolean).length;
    if ((state.highest === null && passes === 4) || (state.highest !== null && passes === 3)) {
      state.ended = true;
      return;
    }
    for (let step = 1; step < 5; step += 1) {
      const candidate = (state.turn + step) % 4;
      if (!state.passed[state.order[candidate]]) {
        state.turn = candidate;
        return;
      }
    }
  }

  function legalCalls(state) {
    if (state.ended) return [];
    const top = state.highest ? RANK[state.highest] : 0;
    const calls = ["P"];
    for (const code of LADDER) {
      if (family(code) === "gam" && code !== lowestGamAbove(top)) continue;
      if (RANK[code] <= top) continue;
      calls.push(code);
      if (family(code) !== "ry") for (const trump of TRUMPS) calls.push(`${code}/${trump}`);
    }
    return calls;
  }

  function nextCalls(prefix, opening, direction) {
    const state = {
      order: seatOrder(opening || "N", direction || "clockwise"),
      passed: { N: false, E: false, S: false, W: false },
      turn: 0, highest: null, made: 0, ended: false,
    };
    prefix.forEach((text, index) => {
      let call;
      try {
        call = parseCall(text);
      } catch (e) {
        throw new Error(`call ${index + 1}: ${e.message}`);
      }
      const reason = illegalReason(state, call);
      if (reason) throw new Error(`${text} at call ${state.made + 1}: ${reason}`);
      state.made += 1;
      if (call.bid === null) state.passed[call.seat] = true;
      else state.highest = call.bid;
      advance(state);
    });
    return {
      seat: state.ended ? null : state.order[state.turn],
      calls: legalCalls(state),
      ended: state.ended,
      passed_out: state.ended && state.highest === null,
    };
  }

  const PymthegAuction = { nextCalls, parseCall };
  if (typeof module !== "undefined" && module.exports) module.exports = PymthegAuction;
  if (typeof window !== "undefined") {
    window.ScorerEntries = window.ScorerEntries || {};
    window.ScorerEntries.auction = (kit) => auctionEntry(kit, PymthegAuction);
  }
})();

/* The bidding box and the rest of North's entry: the calls, the contract, the trump named
 * after the auction, the double, the tricks, a revoke and the house rule's illegal trump. */
function auctionEntry(kit, PymthegAuction) {
  const { h, store, config, SEAT_NAMES } = kit;
  // The page's words (scorer.js's kit; English where an older kit has none).
  const tr = kit.tr || ((text) => text);
  const trf = kit.trf || ((text, values) => text.replace(/%\((\w+)\)s/g, (_, name) => values[name]));
  const TRUMP_NAMES = { fire: tr("Fire"), earth: tr("Earth"), water: tr("Water"), wind: tr("Wind"), nt: tr("No trump") };
  const PASS = tr("Pass");
  const NT = tr("NT");
  const TRUMPS = ["fire", "earth", "water", "wind", "nt"];
  const BID_NAMES = {
    G: "Gâm", "G+1": "Gâm +1", "G+2": "Gâm +2", "G+3": "Gâm +3", "G+4": "Gâm +4",
    "G+5": "Gâm +5", "G+6": "Gâm +6", R: "Ry", R2: "Ry 2", R3: "Ry 3", L: "Lon",
  };

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

  /** A call in words, for the scorer's screen reader: "Gâm +1 Water", "Pass". */
  function callWords(text) {
    if (text.toUpperCase() === "P") return PASS;
    const [code, trump] = text.split("/");
    const name = BID_NAMES[code.toUpperCase()] || code;
    return trump ? `${name} ${TRUMP_NAMES[trump.toLowerCase()] || trump}` : name;
  }

  function callLabel(text) {
    if (text.toUpperCase() === "P") return PASS;
    const [code, trump] = text.split("/");
    const name = BID_NAMES[code.toUpperCase()] || code;
    return trump ? h("span", {}, name, " · ", trumpLabel(trump.toLowerCase())) : name;
  }

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

  return class AuctionEntry extends kit.Entry {
    constructor(panel) {
      super(panel);
      this.box = null;
      this.boxError = null;
      this.boxes = new Map();
      this.refreshBox();
    }

    loadDraft() {
      const saved = store.get(this.draftKey);
      if (saved && Array.isArray(saved.auctions)) return Object.assign(emptyDraft(), saved);
      const facts = this.enteredFacts();
      return facts ? draftFromFacts(facts) : emptyDraft();
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
      // The auction rules run on the phone (PymthegAuction, above): no network is needed.
      let box;
      try {
        box = PymthegAuction.nextCalls(this.calls, config.opening, config.direction);
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
      this.announce(`${SEAT_NAMES[seat]}: ${callWords(text)}.`);
      this.changeCalls(() => this.calls.push(`${seat}:${text}`));
    }

    undo() {
      const last = this.calls[this.calls.length - 1];
      if (last) {
        this.announce(trf("%(seat)s's %(call)s taken back.",
          { seat: SEAT_NAMES[last.split(":")[0]], call: callWords(last.split(":")[1]) }));
      }
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
      if (!box) return { missing: tr("Loading the bidding box…") };
      if (!box.ended) return { missing: trf("Auction: %(seat)s to call.", { seat: SEAT_NAMES[box.seat] }) };
      const facts = { auctions: this.draft.auctions.map((a) => a.slice()) };
      if (box.passed_out) return { facts };
      const contract = this.contract;
      if (contract.family !== "ry" && !contract.trumpInBid) {
        if (!this.draft.trump) return { missing: tr("Name the trump.") };
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
        return { missing: this.draft.revoke ? tr("Give every trick count, or none.") : tr("Give the tricks taken.") };
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
          " ", h("button", { type: "button", class: "link", onclick: () => this.restart() }, tr("Start the auction again"))));
      }
      if (this.box && !this.box.ended) parts.push(this.renderBox());
      if (!this.box && !this.boxError) parts.push(h("p", { class: "muted" }, "…"));
      if (this.contract) parts.push(this.renderPlay());
      if (this.box && this.box.ended && this.box.passed_out) {
        parts.push(h("p", { class: "contract" }, this.draft.auctions.length > 1
          ? tr("Both auctions were passed out.") : tr("The auction was passed out.")));
      }
      this.root.replaceChildren(...parts, ...this.sendParts());
      this.schedulePreview();
    }

    renderAuctions() {
      const auctions = this.draft.auctions;
      const blocks = auctions.map((calls, index) => {
        const title = auctions.length > 1
          ? (index === 0 ? tr("First auction: passed out (each team −100)") : tr("Second auction"))
          : tr("Auction");
        const list = calls.length
          ? h("ol", { class: "calls" }, calls.map((c) => {
            const [seat, text] = c.split(":");
            return h("li", {}, h("span", { class: "seat" }, SEAT_NAMES[seat]), " ", callLabel(text));
          }))
          : h("p", { class: "muted" }, tr("No call yet."));
        return h("div", { class: "auction" }, h("h3", {}, title), list);
      });
      const canUndo = auctions.length > 1 || this.calls.length > 0;
      const tools = h("p", { class: "auction-tools" },
        this.box && !this.box.ended ? h("span", { class: "next" }, trf("%(seat)s to call", { seat: SEAT_NAMES[this.box.seat] })) : null,
        h("button", { type: "button", class: "secondary", disabled: !canUndo || (!this.box && !this.boxError),
          onclick: () => this.undo() }, `↶ ${tr("Undo")}`));
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
          // The spoken name holds the visible word ("NT" too).
          "aria-label": trump ? trf("%(bid)s, %(trump)s named in the bid",
            { bid: BID_NAMES[code], trump: trump === "nt" ? tr("NT (no trump)") : TRUMP_NAMES[trump] })
            : BID_NAMES[code],
          "data-key": `call:${code}/${trump}`,
          onclick: () => this.call(trump ? `${code}/${trump}` : code),
        }, trump ? [suitIcon(trump), h("span", { class: "t" }, trump === "nt" ? NT : TRUMP_NAMES[trump])]
          : gam || !code.startsWith("G") ? BID_NAMES[code] : "Gâm"));
        return h("div", { class: `bid-row${legal ? "" : " not-now"}` }, buttons);
      });
      return h("div", { class: "bidbox", role: "group", "aria-label": tr("Bidding box"), "data-bidding-box": true },
        h("button", { type: "button", class: "pass", "data-key": "call:P", onclick: () => this.call("P") }, PASS),
        h("p", { class: "hint muted" }, tr("A suit next to a bid names the trump in the bid.")),
        rows);
    }

    renderPlay() {
      const contract = this.contract;
      const parts = [h("p", { class: "contract" }, `${tr("Contract:")} `, callLabel(contract.trumpInBid
        ? `${contract.code}/${contract.trumpInBid}` : contract.code),
      trf(", by %(seat)s", { seat: SEAT_NAMES[contract.seat] }))];
      if (contract.family !== "ry" && !contract.trumpInBid) {
        parts.push(this.choice(tr("Trump named after the auction"), TRUMPS.map((t) => [t, trumpLabel(t)]),
          this.draft.trump, (v) => this.set("trump", v)));
      }
      parts.push(this.choice(tr("Double"), [["none", tr("None")], ["x", tr("Doubled")], ["xx", tr("Redoubled")]],
        this.draft.double, (v) => this.set("double", v)));
      parts.push(this.renderTricks());
      parts.push(this.seatSelect("revoke", tr("Did a revoke end the round?"), tr("No revoke"), this.draft.revoke,
        (v) => this.set("revoke", v)));
      const trump = this.trump;
      if (config.illegalTrumpRule && trump && trump !== "nt") {
        parts.push(this.seatSelect("illegal-trump", tr("Illegal trump (house rule)"), tr("None"), this.draft.illegalTrump,
          (v) => this.set("illegalTrump", v)));
      }
      return h("div", { class: "play" }, parts);
    }

    seatSelect(key, label, none, current, onPick) {
      const id = `${this.panel.id}-${key}`;
      const select = h("select", { id, onchange: (e) => onPick(e.target.value || null) },
        [["", none], ...["N", "E", "S", "W"].map((seat) => [seat, SEAT_NAMES[seat]])].map(([value, text]) =>
          h("option", { value, selected: (current || "") === value }, text)));
      return h("div", { class: "field inline-field" }, h("label", { for: id }, label), select);
    }

    renderTricks() {
      const kind = this.trickKind();
      const keys = kind === "team" ? ["NS", "EW"] : ["N", "E", "S", "W"];
      const names = { NS: tr("North–South"), EW: tr("East–West"), ...SEAT_NAMES };
      const tricks = kind === "team" ? this.draft.teamTricks : this.draft.seatTricks;
      const legend = this.draft.revoke
        ? tr("Tricks taken before the revoke (optional)")
        : kind === "team" ? tr("Tricks taken by each team") : tr("Tricks taken by each player");
      const fields = keys.map((key) => {
        const id = `${this.panel.id}-tricks-${key}`;
        const options = [h("option", { value: "", selected: tricks[key] === null }, "–")];
        for (let n = 0; n <= 15; n += 1) options.push(h("option", { value: n, selected: tricks[key] === n }, n));
        return h("div", { class: "field" }, h("label", { for: id }, names[key]),
          h("select", { id, onchange: (e) => this.setTricks(kind, key, e.target.value) }, options));
      });
      return h("fieldset", { class: `tricks tricks-${kind}` }, h("legend", {}, legend), fields);
    }
  };
}
