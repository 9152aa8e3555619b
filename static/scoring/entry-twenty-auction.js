/* Twenty's entry on the scorer's phone and the director's board page: a bidding box that
 * needs no network, the contras of each standing item, the declarer's side's points and
 * tricks, the last trick while a Sparrow stands, then the server's preview and the send.
 *
 * TwentyAuction is the auction's rules (docs/games/twenty.md, "The auction"; the engine's
 * engine/games/twenty/auction.py) without the DOM, so that Node can check it against the
 * engine (tests/scoring/test_twenty_script.py). What the box cannot know by itself comes
 * with the board's form (Game.entry_form): the dealer, the pack and the points-and-tricks
 * table; nothing the table must not see before play, since the form is on North's phone
 * while the board is played.
 *
 * With the deal on file (form.secrets), the partner (the holder of the called card) and who
 * held the Kings or the Honours come from the deal too (Game.entry_secrets): the phone
 * fetches them once, when North makes the board's first call (the entry is made after play),
 * from GET {api}matches/M/boards/B/deal-facts/, and keeps them with the board's draft. Until
 * they arrive (no network: it asks again at the next call or drawing) the box offers the
 * Sparrow without a bid to every seat that may make it, and the server's check at preview
 * and on arrival judges. The director's page has them in its form (form.deal_facts).
 */
"use strict";

const TwentyAuction = (() => {
  const SEATS = ["N", "E", "S", "W"];
  const NEXT = { N: "E", E: "S", S: "W", W: "N" };
  const PASS = "P";
  const BIDS = ["PART", "NT", "SOLO"];
  const CALL_NAMES = new Map([
    ["P", PASS], ["PASS", PASS], ["PART", "PART"], ["PARTNERSHIP", "PART"],
    ["NT", "NT"], ["NOTRUMPS", "NT"], ["SOLO", "SOLO"],
  ]);
  const SUFFIXES = ["", "+SPARROW", "+SLAM", "+SPARROW+SLAM"];
  const BID_WORDS = { PART: "Partnership", NT: "No Trumps", SOLO: "Solo", P: "Pass" };
  const SEAT_WORDS = { N: "North", E: "East", S: "South", W: "West" };
  const LEVEL_WORDS = { contra: "contra'd", re: "re-contra'd", sub: "sub-contra'd" };

  class CallError extends Error {}

  function suffix(sparrow, slam) {
    return (sparrow ? "+SPARROW" : "") + (slam ? "+SLAM" : "");
  }

  /** `SEAT:CALL` in any case, spaces ignored, into {seat, bid, sparrow, slam}. */
  function parse(text) {
    if (typeof text !== "string") throw new CallError("not SEAT:CALL");
    const squeezed = text.split(/\s+/).join("").toUpperCase();
    const colon = squeezed.indexOf(":");
    if (colon < 0) throw new CallError("not SEAT:CALL");
    const seat = squeezed.slice(0, colon);
    if (!SEATS.includes(seat)) throw new CallError(`'${seat}' is not a seat (N, E, S or W)`);
    const [name, ...bonuses] = squeezed.slice(colon + 1).split("+");
    const bid = CALL_NAMES.get(name);
    if (bid === undefined) throw new CallError(`'${name}' is not a call (P, PART, NT or SOLO)`);
    let sparrow = false;
    let slam = false;
    for (const bonus of bonuses) {
      if (bonus === "SPARROW") {
        if (sparrow) throw new CallError("names the Sparrow twice");
        sparrow = true;
      } else if (bonus === "SLAM") {
        if (slam) throw new CallError("names the Slam twice");
        slam = true;
      } else {
        throw new CallError(`'${bonus}' is not a bonus (SPARROW or SLAM)`);
      }
    }
    return { seat, bid, sparrow, slam };
  }

  function text(call) {
    return `${call.seat}:${call.bid}${suffix(call.sparrow, call.slam)}`;
  }

  function start(dealer) {
    if (!SEATS.includes(dealer)) throw new CallError(`'${dealer}' is not a seat`);
    return { dealer, turn: NEXT[dealer], passed: [], highest: null, bidsMade: 0, partnerSparrow: null, calls: [] };
  }

  function sparrowStandsOnPart(state) {
    return state.highest.sparrow || state.partnerSparrow !== null;
  }

  /** The state after `call`; a CallError when the call is not legal there. */
  function apply(state, call) {
    if (state.turn === null) throw new CallError("comes after the auction has ended");
    if (call.seat !== state.turn) throw new CallError(`out of turn: it is ${state.turn}'s call`);
    if (state.highest === null && call.bid !== "PART") {
      throw new CallError(`Eldest ${call.seat} must open with Partnership (PART)`);
    }
    if (call.bid === PASS) {
      if (call.slam) throw new CallError("a pass carries no bonus but the partner's Sparrow (P+SPARROW)");
      if (call.sparrow) {
        if (state.highest.bid !== "PART") {
          throw new CallError("the Sparrow without a bid is only for the partner while Partnership is the highest bid");
        }
        if (sparrowStandsOnPart(state)) throw new CallError("a Sparrow already stands on the Partnership");
        state.partnerSparrow = call.seat;
      }
      state.passed.push(call.seat);
    } else {
      const wanted = state.bidsMade < BIDS.length ? BIDS[state.bidsMade] : null;
      if (call.bid !== wanted) {
        if (wanted === null) throw new CallError("no bid is left after Solo: pass");
        throw new CallError(`${call.bid} is not the lowest bid not yet made (${wanted})`);
      }
      state.highest = call;
      state.bidsMade += 1;
    }
    state.calls.push(call);
    if (state.passed.length === 3) {
      state.turn = null;
      return state;
    }
    let following = NEXT[call.seat];
    while (state.passed.includes(following)) following = NEXT[following];
    state.turn = following;
    return state;
  }

  /** Every call read and checked in turn; the error names the call's position. */
  function read(calls, dealer) {
    const state = start(dealer);
    calls.forEach((written, index) => {
      try {
        apply(state, parse(written));
      } catch (e) {
        if (!(e instanceof CallError)) throw e;
        throw new CallError(`call ${index + 1} ('${written}'): ${e.message}`);
      }
    });
    return state;
  }

  /** The calls the player to call may make (without the seat); with `partner` known, only
   * he is offered the Sparrow without a bid. */
  function legal(state, partner) {
    const seat = state.turn;
    if (seat === null) return [];
    const calls = [];
    if (state.highest !== null) {
      calls.push(PASS);
      if (state.highest.bid === "PART" && !sparrowStandsOnPart(state) &&
          (partner === null || partner === undefined || partner === seat)) {
        calls.push("P+SPARROW");
      }
    }
    if (state.bidsMade < BIDS.length) {
      for (const s of SUFFIXES) calls.push(BIDS[state.bidsMade] + s);
    }
    return calls;
  }

  function sparrowBy(state) {
    if (state.highest === null) return null;
    if (state.highest.sparrow) return state.highest.seat;
    return state.highest.bid === "PART" ? state.partnerSparrow : null;
  }

  /** The bidding box after `calls`: the engine's next_calls, field for field. */
  function next(calls, dealer, partner) {
    const state = read(calls, dealer);
    return {
      seat: state.turn,
      calls: legal(state, partner),
      complete: state.turn === null,
      contract: state.highest ? state.highest.bid : null,
      declarer: state.highest ? state.highest.seat : null,
      sparrow: sparrowBy(state),
      partner_sparrow: state.partnerSparrow,
      slam: state.highest !== null && state.highest.slam,
      auction: state.calls.map(text),
    };
  }

  /** The items that may be contra'd once the auction is over: the bid, then the Sparrow
   * and the Slam that stand. */
  function standingItems(box) {
    if (!box.complete) return [];
    const items = ["bid"];
    if (box.sparrow !== null) items.push("sparrow");
    if (box.slam) items.push("slam");
    return items;
  }

  /** Why `points` cannot go with `tricks` by the table (fewest[t]..most[t]), or null. */
  function pointsProblem(points, tricks, fewest, most) {
    if (points === null || tricks === null || points === undefined || tricks === undefined) return null;
    if (points >= fewest[tricks] && points <= most[tricks]) return null;
    const plural = tricks === 1 ? "" : "s";
    return `${points} points cannot go with ${tricks} trick${plural}: a side with ${tricks} trick${plural} ` +
      `has ${fewest[tricks]} to ${most[tricks]} points.`;
  }

  function names(seats) {
    const words = seats.map((seat) => SEAT_WORDS[seat]);
    return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words[0];
  }

  /** Each item of a board score in words, with what each player pays or receives. */
  function itemLines(score) {
    const side = score.contract === "PART" ? [score.declarer, score.partner] : [score.declarer];
    const defenders = SEATS.filter((seat) => !side.includes(seat));
    return score.items.map((item) => {
      const v = item.value;
      if (item.item === "kings" || item.item === "honours") {
        const what = item.item === "kings" ? "all four Kings" : "all three Honours";
        const others = SEATS.filter((seat) => seat !== item.by);
        return `${SEAT_WORDS[item.by]} held ${what}: ${names(others)} pay 1 each, ` +
          `${SEAT_WORDS[item.by]} receives 3.`;
      }
      const owner = item.item === "bid"
        ? `${SEAT_WORDS[item.by]}'s ${BID_WORDS[score.contract]}`
        : `${SEAT_WORDS[item.by]}'s ${item.item === "sparrow" ? "Sparrow" : "Slam"}`;
      const level = LEVEL_WORDS[item.contra] ? `, ${LEVEL_WORDS[item.contra]}` : "";
      const [payers, payees] = item.won ? [defenders, side] : [side, defenders];
      let payment;
      if (side.length === 2) {
        payment = `${names(payers)} pay ${v} each, ${names(payees)} receive ${v} each.`;
      } else if (item.won) {
        payment = `${names(payers)} pay ${v} each, ${names(payees)} receives ${3 * v}.`;
      } else {
        payment = `${names(payers)} pays ${3 * v}, ${names(payees)} receive ${v} each.`;
      }
      const what = item.item === "bid" ? "Bid" : item.item === "sparrow" ? "Sparrow" : "Slam";
      return `${what} (${owner}${level}), worth ${v}: ${item.won ? "won" : "lost"}. ${payment}`;
    });
  }

  /** Each player's table result in words: "North pays 10", "East receives 12". */
  function seatLines(score) {
    return SEATS.map((seat) => {
      const value = score.seats[seat];
      if (value > 0) return `${SEAT_WORDS[seat]} receives ${value}`;
      if (value < 0) return `${SEAT_WORDS[seat]} pays ${-value}`;
      return `${SEAT_WORDS[seat]}: nothing`;
    });
  }

  return {
    SEATS, NEXT, BIDS, SUFFIXES, BID_WORDS, SEAT_WORDS, CallError,
    parse, text, start, apply, read, legal, next, standingItems, pointsProblem, itemLines, seatLines,
  };
})();

if (typeof window !== "undefined") {
  window.ScorerEntries = window.ScorerEntries || {};
  window.ScorerEntries["twenty-auction"] = (kit) => {
    const { h, store, SEAT_NAMES } = kit;
    const A = TwentyAuction;
    const BONUS_WORDS = { "": "", "+SPARROW": "+ Sparrow", "+SLAM": "+ Slam", "+SPARROW+SLAM": "+ Sparrow + Slam" };
    const LEVEL_LEGEND = { bid: "Contra on the bid", sparrow: "Contra on the Sparrow", slam: "Contra on the Slam" };

    function callWords(call) {
      const [bid, ...bonuses] = call.split("+");
      const extra = bonuses.length ? BONUS_WORDS[`+${bonuses.join("+")}`] : "";
      return `${A.BID_WORDS[bid] || bid}${extra ? ` ${extra}` : ""}`;
    }

    function emptyDraft() {
      return { twenty: 1, calls: [], contras: {}, points: null, tricks: null,
        last: { seat: null, card: null }, partner: null, called: null, held: null, secrets: null };
    }

    function whole(value, top) {
      return Number.isInteger(value) && value >= 0 && value <= top ? value : null;
    }

    /** What North entered last (the board's facts), as a draft of this entry. */
    function draftFromFacts(facts) {
      const draft = emptyDraft();
      if (Array.isArray(facts.auction)) {
        try {
          draft.calls = facts.auction.map((call) => A.text(A.parse(call)));
        } catch (e) {
          draft.calls = [];
        }
      }
      if (facts.contras && typeof facts.contras === "object") Object.assign(draft.contras, facts.contras);
      draft.points = whole(facts.points, 102);
      draft.tricks = whole(facts.tricks, 10);
      if (facts.last && typeof facts.last === "object") {
        draft.last = { seat: (facts.last.seat || "").toUpperCase() || null, card: (facts.last.card || "").toUpperCase() || null };
      }
      draft.partner = facts.partner ? String(facts.partner).toUpperCase() : null;
      draft.called = facts.called ? String(facts.called).toUpperCase() : null;
      draft.held = facts.held ? String(facts.held).toUpperCase() : null;
      return draft;
    }

    return class TwentyEntry extends kit.FieldsEntry {
      constructor(panel) {
        super(panel);
        window.addEventListener("online", () => this.fetchSecrets());
      }

      loadDraft() {
        const saved = store.get(this.draftKey);
        if (saved && saved.twenty === 1 && Array.isArray(saved.calls)) return Object.assign(emptyDraft(), saved);
        const node = document.getElementById(`draft-${this.panel.id}`);
        const facts = node ? JSON.parse(node.textContent) : null;
        return facts ? draftFromFacts(facts) : emptyDraft();
      }

      /** What the entry takes from the deal (partner, called card, held bonuses), once the
       * phone has it; null before (or without a deal on file). */
      secrets() {
        if (!this.form.secrets) return null;
        return this.form.deal_facts || this.draft.secrets || null;
      }

      /** Asks the server for the deal's facts once North has started entering the board;
       * a failure for lack of network is retried at the next call or drawing. */
      async fetchSecrets() {
        if (!this.form.secrets || this.secrets() || kit.config.director) return;
        if (!this.draft.calls.length || this.fetching || this.secretsRefused) return;
        this.fetching = true;
        let answer = null;
        try {
          answer = await kit.api(`${this.base}deal-facts/`);
        } catch (e) {
          answer = null; // offline: asked again later
        } finally {
          this.fetching = false;
        }
        if (!answer) return;
        if (answer.ok && answer.data && typeof answer.data === "object") {
          this.draft.secrets = answer.data;
          this.save();
          this.render();
        } else if (!answer.ok && answer.status !== 429 && answer.status !== 408 && answer.status < 500) {
          this.secretsRefused = true; // the server's check at preview stays the judge
        }
      }

      /** The bidding box after the draft's calls, computed here: no request. */
      bidding() {
        const secrets = this.secrets();
        try {
          return A.next(this.draft.calls, this.form.dealer, secrets ? secrets.partner : null);
        } catch (e) {
          return { error: e.message };
        }
      }

      change(update) {
        update(this.draft);
        this.save();
        this.render();
      }

      call(call) {
        const box = this.bidding();
        if (box.error || box.complete || !box.calls.includes(call)) return;
        this.change((d) => d.calls.push(`${box.seat}:${call}`));
      }

      undo() {
        this.change((d) => d.calls.pop());
      }

      // -- what is sent --

      partnerNeeded(box) {
        return box.contract === "PART" && !this.form.deal_known && box.partner_sparrow === null;
      }

      facts() {
        if (!this.form.dealer) return { missing: "This board's form did not load: reload the page." };
        const box = this.bidding();
        if (box.error) return { missing: box.error };
        if (!box.complete) return { missing: `Auction: ${SEAT_NAMES[box.seat]} to call.` };
        const facts = { auction: box.auction.slice() };
        const contras = {};
        for (const item of A.standingItems(box)) {
          const level = this.draft.contras[item];
          if (level && level !== "none") contras[item] = level;
        }
        if (Object.keys(contras).length) facts.contras = contras;
        if (this.partnerNeeded(box)) {
          if (!this.draft.partner || this.draft.partner === box.declarer) return { missing: "Choose the partner." };
          facts.partner = this.draft.partner;
          if (this.draft.called) facts.called = this.draft.called;
        }
        const { points, tricks } = this.draft;
        if (points === null) return { missing: "Give the points of the declarer's side." };
        if (tricks === null) return { missing: "Give the tricks of the declarer's side." };
        const problem = A.pointsProblem(points, tricks, this.form.fewest_points, this.form.most_points);
        if (problem) return { missing: problem };
        facts.points = points;
        facts.tricks = tricks;
        if (box.sparrow !== null) {
          if (!this.draft.last.seat) return { missing: "Who won the last trick?" };
          if (!this.draft.last.card) return { missing: "With which card was the last trick won?" };
          facts.last = { seat: this.draft.last.seat, card: this.draft.last.card };
        }
        if (!this.form.deal_known && this.draft.held) facts.held = this.draft.held;
        return { facts };
      }

      // -- drawing --

      render() {
        const parts = [];
        this.selects = 0;
        if (!this.form.dealer) {
          parts.push(h("p", { class: "message error" }, "This board's form did not load: reload the page."));
          this.root.replaceChildren(...parts);
          return;
        }
        const box = this.bidding();
        parts.push(h("p", { class: "twenty-note" }, this.form.note));
        parts.push(this.renderCalls(box));
        if (box.error) {
          parts.push(h("p", { class: "message error", role: "alert" }, box.error, " ",
            h("button", { type: "button", class: "link", onclick: () => this.change((d) => { d.calls = []; }) },
              "Start the auction again")));
        } else if (!box.complete) {
          parts.push(this.renderBox(box));
        } else {
          parts.push(this.renderPlay(box));
        }
        parts.push(h("div", { class: "preview", "data-preview": true, "aria-live": "polite" }));
        parts.push(h("button", { type: "button", class: "big", "data-send": true, disabled: true,
          onclick: () => this.send() }, kit.SEND_LABEL));
        this.root.replaceChildren(...parts);
        this.schedulePreview();
        this.fetchSecrets();
      }

      renderCalls(box) {
        const calls = this.draft.calls;
        const list = calls.length
          ? h("ol", { class: "calls" }, calls.map((c) => {
            const [seat, call] = c.split(":");
            return h("li", {}, h("span", { class: "seat" }, SEAT_NAMES[seat]), " ", callWords(call));
          }))
          : h("p", { class: "muted" }, "No call yet.");
        const tools = h("p", { class: "auction-tools" },
          !box.error && !box.complete ? h("span", { class: "next" }, `${SEAT_NAMES[box.seat]} to call`) : null,
          h("button", { type: "button", class: "secondary", disabled: !calls.length, onclick: () => this.undo() },
            "↶ Undo"));
        return h("div", { class: "auction" }, h("h3", {}, "Auction"), list, tools);
      }

      /** Fixed rows: Pass and the partner's Sparrow; then each bid with its bonuses. The
       * calls that are not legal now stay in place, disabled. */
      renderBox(box) {
        const legal = new Set(box.calls);
        const button = (call, label, cls) => h("button", {
          type: "button", class: `twenty-call ${cls}`, disabled: !legal.has(call),
          "aria-label": callWords(call), onclick: () => this.call(call),
        }, label);
        const rows = [h("div", { class: "twenty-row twenty-pass-row" },
          button("P", "Pass", "pass"), button("P+SPARROW", "Pass + Sparrow", "pass-sparrow"))];
        for (const bid of A.BIDS) {
          rows.push(h("div", { class: "twenty-row" }, A.SUFFIXES.map((s) =>
            button(bid + s, s ? BONUS_WORDS[s] : A.BID_WORDS[bid], s ? "bonus" : "bid"))));
        }
        return h("div", { class: "twenty-box", role: "group", "aria-label": "Bidding box" }, rows);
      }

      renderPlay(box) {
        const form = this.form;
        const secrets = this.secrets();
        const parts = [];
        let side = SEAT_NAMES[box.declarer];
        const dealt = secrets ? secrets.partner : null;
        const known = box.contract === "PART" ? (box.partner_sparrow || dealt || this.draft.partner) : null;
        if (box.contract === "PART") side += known ? ` and ${SEAT_NAMES[known]}` : " and the partner";
        parts.push(h("p", { class: "contract" }, `Contract: ${A.BID_WORDS[box.contract]} by ${SEAT_NAMES[box.declarer]}`));
        if (box.contract === "PART") {
          if (box.partner_sparrow) {
            parts.push(h("p", {}, `Partner: ${SEAT_NAMES[box.partner_sparrow]}, who announced the Sparrow.`));
          } else if (form.deal_known) {
            if (secrets) {
              parts.push(h("p", {}, `Partner (from the deal): ${SEAT_NAMES[secrets.partner]}, who held ${secrets.called}.`));
            }
          } else {
            const seats = A.SEATS.filter((seat) => seat !== box.declarer);
            parts.push(this.choice("Partner (who held the called card)", seats.map((seat) => [seat, SEAT_NAMES[seat]]),
              this.draft.partner, (v) => this.change((d) => { d.partner = v; })));
            parts.push(this.select("Called card (optional)", [["", "Not given"], ...form.called_cards.map((c) => [c, c])],
              this.draft.called || "", (v) => this.change((d) => { d.called = v || null; })));
          }
        }
        for (const item of A.standingItems(box)) {
          parts.push(this.choice(LEVEL_LEGEND[item], form.levels, this.draft.contras[item] || "none",
            (v) => this.change((d) => { d.contras[item] = v; })));
        }
        parts.push(h("p", { class: "twenty-side" }, `The declarer's side: ${side}.`));
        const points = [["", "–"]];
        for (let n = form.points[0]; n <= form.points[1]; n += 1) points.push([String(n), String(n)]);
        parts.push(this.select("Points of the declarer's side", points,
          this.draft.points === null ? "" : String(this.draft.points),
          (v) => this.change((d) => { d.points = v === "" ? null : Number(v); })));
        const tricks = [];
        for (let n = form.tricks[0]; n <= form.tricks[1]; n += 1) tricks.push([n, String(n)]);
        parts.push(this.choice("Tricks of the declarer's side", tricks, this.draft.tricks,
          (v) => this.change((d) => { d.tricks = v; }), "twenty-tricks"));
        const problem = A.pointsProblem(this.draft.points, this.draft.tricks, form.fewest_points, form.most_points);
        if (problem) parts.push(h("p", { class: "message error", role: "alert" }, problem));
        if (box.sparrow !== null) {
          parts.push(h("p", { class: "twenty-hint muted" },
            `A Sparrow stands (${SEAT_NAMES[box.sparrow]}'s): say who won the last trick, and with which card.`));
          parts.push(this.choice("Last trick won by", A.SEATS.map((seat) => [seat, SEAT_NAMES[seat]]),
            this.draft.last.seat, (v) => this.change((d) => { d.last.seat = v; })));
          parts.push(this.select("Last trick won with", [["", "–"], ...form.cards.map(([code, name]) => [code, name])],
            this.draft.last.card || "", (v) => this.change((d) => { d.last.card = v || null; }), form.cards));
        }
        const held = box.contract === "NT" ? "kings" : "honours";
        const heldWords = held === "kings" ? "all four Kings" : "all three Honours";
        if (form.deal_known) {
          const holder = secrets && secrets.held && secrets.held[held];
          if (holder) parts.push(h("p", {}, `From the deal: ${SEAT_NAMES[holder]} held ${heldWords}.`));
        } else {
          parts.push(this.select(`Who held ${heldWords}?`, [["", "Nobody"], ...A.SEATS.map((s) => [s, SEAT_NAMES[s]])],
            this.draft.held || "", (v) => this.change((d) => { d.held = v || null; })));
        }
        return h("div", { class: "play twenty-play" }, parts);
      }

      choice(label, options, current, onPick, extra) {
        return h("fieldset", { class: `choice${extra ? ` ${extra}` : ""}` }, h("legend", {}, label),
          options.map(([value, text]) => h("button", {
            type: "button", class: value === current ? "chosen" : "secondary",
            "aria-pressed": value === current ? "true" : "false", onclick: () => onPick(value),
          }, text)));
      }

      /** A labelled select; `cards` ([code, name, group]) groups the options by suit. */
      select(label, options, current, onPick, cards) {
        this.selects = (this.selects || 0) + 1;
        const id = `${this.panel.id}-twenty-${this.selects}`;
        const option = ([value, text]) => h("option", { value, selected: value === current }, text);
        let children;
        if (cards) {
          const groups = new Map();
          for (const [code, name, group] of cards) {
            if (!groups.has(group)) groups.set(group, []);
            groups.get(group).push([code, name]);
          }
          children = [option(options[0]), ...[...groups].map(([group, items]) =>
            h("optgroup", { label: group[0].toUpperCase() + group.slice(1) }, items.map(option)))];
        } else {
          children = options.map(option);
        }
        return h("div", { class: "field inline-field" }, h("label", { for: id }, label),
          h("select", { id, onchange: (e) => onPick(e.target.value) }, children));
      }

      showPreview() {
        const box = this.root.querySelector("[data-preview]");
        const send = this.root.querySelector("[data-send]");
        if (!box || !send) return;
        const p = this.preview || {};
        let content = "";
        if (p.missing) content = h("p", { class: "muted" }, p.missing);
        else if (p.loading) content = h("p", { class: "muted" }, "Computing the score…");
        else if (p.error) content = h("p", { class: "message error", role: "alert" }, p.error);
        else if (p.unchecked) {
          content = h("p", { class: "message warning" }, p.unchecked,
            kit.config.director ? "" : " You can still send: it will be checked on arrival.");
        } else if (p.score) {
          const s = p.score;
          content = h("div", { class: "score" },
            h("p", { class: "score-words" }, s.words),
            h("ul", { class: "twenty-items" }, A.itemLines(s).map((line) => h("li", {}, line))),
            h("p", { class: "score-line" }, A.seatLines(s).join(" · ")));
        }
        box.replaceChildren(content);
        send.disabled = !(p.score || p.unchecked);
      }
    };
  };
}

if (typeof module !== "undefined" && module.exports) module.exports = TwentyAuction;
