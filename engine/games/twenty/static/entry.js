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
 * The phone asks what happened and never learns the deal (GAMES.md, "What the phone may
 * learn"): the box offers the Sparrow without a bid to every seat that may make it, and
 * North enters, after play, what the table then knows: in a Partnership the partner (fixed
 * when he announced the Sparrow without a bid) and the called card, and who showed all four
 * Kings or all three Honours, or nobody. The server checks the entry against the deal on
 * file; a disagreement goes to the director, never back to the phone. The same entry
 * (TwentyAuction.entry, the facts sent, and TwentyAuction.choices, the values offered) is
 * checked under Node against the engine's entry_options and scoring.
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
  // Marks the fixed words of an entry's "missing" for the catalogue: the page shows them in
  // its language (scorer.js's tr); here, and under Node, they stay English.
  const N_ = (text) => text;
  // The words the rules give whole (a score's lines, a points/tricks check): English until
  // the page hands its catalogue's tr/trf (useWords); under Node they stay English.
  let tr = (text) => text;
  let trf = (text, values) =>
    tr(text).replace(/%\((\w+)\)s/g, (place, name) => (name in values ? String(values[name]) : place));
  function useWords(pageTr, pageTrf) {
    if (pageTr) tr = pageTr;
    if (pageTrf) trf = pageTrf;
  }
  const seatWord = (seat) => tr(SEAT_WORDS[seat]);
  const ITEM_WORDS = { bid: N_("Bid"), sparrow: N_("Sparrow"), slam: N_("Slam") };
  const CONTRA_MISSING = {
    bid: N_("Choose the contra on the bid."),
    sparrow: N_("Choose the contra on the sparrow."),
    slam: N_("Choose the contra on the slam."),
  };

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

  /** The calls the player to call may make (without the seat). The partner is unknown:
   * every seat that may announce the Sparrow without a bid is offered it. */
  function legal(state) {
    const seat = state.turn;
    if (seat === null) return [];
    const calls = [];
    if (state.highest !== null) {
      calls.push(PASS);
      if (state.highest.bid === "PART" && !sparrowStandsOnPart(state)) calls.push("P+SPARROW");
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

  /** The bidding box after `calls`: the engine's next_calls (no partner), field for field. */
  function next(calls, dealer) {
    const state = read(calls, dealer);
    return {
      seat: state.turn,
      calls: legal(state),
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

  /** The seats that may be named as the partner, clockwise from Eldest's left: the
   * announcer of the Sparrow without a bid alone, else every seat but Eldest (the
   * engine's partner_seats); none unless the contract is Partnership. */
  function partnerSeats(box) {
    if (!box.complete || box.contract !== "PART") return [];
    if (box.partner_sparrow !== null) return [box.partner_sparrow];
    const seats = [];
    for (let seat = NEXT[box.declarer]; seat !== box.declarer; seat = NEXT[seat]) seats.push(seat);
    return seats;
  }

  /** The seats that may have won the last trick (the engine's last_seats): a side without
   * a trick did not win it; with the partner not named yet, a seat other than the declarer
   * may be on either side; any seat while the tricks are not given. */
  function lastSeats(box, partner, tricks) {
    if (!Number.isInteger(tricks) || tricks < 0 || tricks > 10) return SEATS.slice();
    const part = box.contract === "PART";
    return SEATS.filter((seat) => {
      if (seat === box.declarer || (part && seat === partner)) return tricks > 0;
      if (part && partner === null) return true;
      return tricks < 10;
    });
  }

  /** What the scorer may pick once the auction is over, as the engine's entry_options
   * offers it: the partner and the called card in a Partnership, the seats that may have
   * won the last trick (given the partner and the tricks picked so far), the held bonus. */
  function choices(box, draft, form) {
    const partners = partnerSeats(box);
    const fixed = partners.length === 1 ? partners[0] : null;
    const partner = fixed || (partners.includes(draft.partner) ? draft.partner : null);
    return {
      partners,
      partner,
      called: box.contract === "PART" ? form.called_cards.slice() : [],
      lastSeats: lastSeats(box, partner, draft.tricks),
      held: box.contract === "NT" ? "kings" : "honours",
      heldSeats: SEATS.slice(),
    };
  }

  /** Why `points` cannot go with `tricks` by the table (fewest[t]..most[t]), or null. */
  function pointsProblem(points, tricks, fewest, most) {
    if (points === null || tricks === null || points === undefined || tricks === undefined) return null;
    if (points >= fewest[tricks] && points <= most[tricks]) return null;
    const values = { points, tricks, fewest: fewest[tricks], most: most[tricks] };
    return tricks === 1
      ? trf("%(points)s points cannot go with 1 trick: a side with 1 trick has %(fewest)s to %(most)s points.", values)
      : trf("%(points)s points cannot go with %(tricks)s tricks: a side with %(tricks)s tricks has %(fewest)s to %(most)s points.", values);
  }

  function names(seats) {
    const words = seats.map(seatWord);
    if (words.length < 2) return words[0];
    return trf("%(names)s and %(last)s", { names: words.slice(0, -1).join(", "), last: words[words.length - 1] });
  }

  /** Each item of a board score in words, with what each player pays or receives. */
  function itemLines(score) {
    const side = score.contract === "PART" ? [score.declarer, score.partner] : [score.declarer];
    const defenders = SEATS.filter((seat) => !side.includes(seat));
    return score.items.map((item) => {
      const v = item.value;
      if (item.item === "kings" || item.item === "honours") {
        const others = names(SEATS.filter((seat) => seat !== item.by));
        const values = { seat: seatWord(item.by), others };
        return item.item === "kings"
          ? trf("%(seat)s held all four Kings: %(others)s pay 1 each, %(seat)s receives 3.", values)
          : trf("%(seat)s held all three Honours: %(others)s pay 1 each, %(seat)s receives 3.", values);
      }
      const named = item.item === "bid" ? BID_WORDS[score.contract] : item.item === "sparrow" ? "Sparrow" : "Slam";
      const owner = trf("%(seat)s's %(item)s", { seat: seatWord(item.by), item: tr(named) });
      const level = LEVEL_WORDS[item.contra] ? `, ${tr(LEVEL_WORDS[item.contra])}` : "";
      const [payers, payees] = item.won ? [defenders, side] : [side, defenders];
      const sums = { payers: names(payers), payees: names(payees), value: v, total: 3 * v };
      let payment;
      if (side.length === 2) {
        payment = trf("%(payers)s pay %(value)s each, %(payees)s receive %(value)s each.", sums);
      } else if (item.won) {
        payment = trf("%(payers)s pay %(value)s each, %(payees)s receives %(total)s.", sums);
      } else {
        payment = trf("%(payers)s pays %(total)s, %(payees)s receive %(value)s each.", sums);
      }
      const line = { what: tr(ITEM_WORDS[item.item]), owner, level, value: v, payment };
      return item.won
        ? trf("%(what)s (%(owner)s%(level)s), worth %(value)s: won. %(payment)s", line)
        : trf("%(what)s (%(owner)s%(level)s), worth %(value)s: lost. %(payment)s", line);
    });
  }

  /** Each player's table result in words: "North pays 10", "East receives 12". */
  function seatLines(score) {
    return SEATS.map((seat) => {
      const value = score.seats[seat];
      if (value > 0) return trf("%(seat)s receives %(value)s", { seat: seatWord(seat), value });
      if (value < 0) return trf("%(seat)s pays %(value)s", { seat: seatWord(seat), value: -value });
      return trf("%(seat)s: nothing", { seat: seatWord(seat) });
    });
  }

  /** The facts North sends for `draft` ({calls, contras, points, tricks, last, partner,
   * called, held}) with the board's `form`, or what is still missing: only values the box
   * offers, so that what it sends is never refused for what it let the scorer pick. */
  function entry(draft, form) {
    if (!form || !form.dealer) return { missing: N_("This board's form did not load: reload the page.") };
    let box;
    try {
      box = next(draft.calls, form.dealer);
    } catch (e) {
      if (!(e instanceof CallError)) throw e;
      return { missing: e.message };
    }
    if (!box.complete) return { missing: trf("Auction: %(seat)s to call.", { seat: seatWord(box.seat) }) };
    const offer = choices(box, draft, form);
    const facts = { auction: box.auction.slice() };
    if (box.contract === "PART") {
      if (!offer.partner) return { missing: N_("Choose the partner (who held the called card).") };
      facts.partner = offer.partner;
      if (!offer.called.includes(draft.called)) return { missing: N_("Choose the called card.") };
      facts.called = draft.called;
    }
    const levels = form.levels.map(([level]) => level);
    const contras = {};
    for (const item of standingItems(box)) {
      const level = draft.contras[item] || "none";
      if (!levels.includes(level)) return { missing: tr(CONTRA_MISSING[item]) };
      if (level !== "none") contras[item] = level;
    }
    if (Object.keys(contras).length) facts.contras = contras;
    const { points, tricks } = draft;
    const top = (range) => (value) => Number.isInteger(value) && value >= range[0] && value <= range[1];
    if (!top(form.points)(points)) return { missing: N_("Give the points of the declarer's side.") };
    if (!top(form.tricks)(tricks)) return { missing: N_("Give the tricks of the declarer's side.") };
    const problem = pointsProblem(points, tricks, form.fewest_points, form.most_points);
    if (problem) return { missing: problem };
    facts.points = points;
    facts.tricks = tricks;
    if (box.sparrow !== null) {
      const last = draft.last || {};
      if (!last.seat) return { missing: N_("Who won the last trick?") };
      if (!offer.lastSeats.includes(last.seat)) {
        return { missing: trf("%(seat)s's side took no trick: who won the last trick?", { seat: seatWord(last.seat) }) };
      }
      if (!form.cards.some(([code]) => code === last.card)) return { missing: N_("With which card was the last trick won?") };
      facts.last = { seat: last.seat, card: last.card };
    }
    if (draft.held !== null && draft.held !== undefined) {
      if (!offer.heldSeats.includes(draft.held)) return { missing: N_("Who showed the held bonus?") };
      facts.held = draft.held;
    }
    return { facts };
  }

  return {
    SEATS, NEXT, BIDS, SUFFIXES, BID_WORDS, SEAT_WORDS, CallError,
    parse, text, start, apply, read, legal, next, standingItems, partnerSeats, lastSeats, choices,
    pointsProblem, entry, itemLines, seatLines, useWords,
  };
})();

if (typeof window !== "undefined") {
  window.ScorerEntries = window.ScorerEntries || {};
  window.ScorerEntries["twenty-auction"] = (kit) => {
    const { h, store, SEAT_NAMES } = kit;
    // The page's words (scorer.js's kit; English where an older kit has none).
    const tr = kit.tr || ((text) => text);
    const trf = kit.trf || ((text, values) => text.replace(/%\((\w+)\)s/g, (_, name) => values[name]));
    const A = TwentyAuction;
    A.useWords(tr, trf);
    const BID_NAMES = { PART: tr("Partnership"), NT: tr("No Trumps"), SOLO: tr("Solo"), P: tr("Pass") };
    const BONUS_WORDS = {
      "": "", "+SPARROW": tr("+ Sparrow"), "+SLAM": tr("+ Slam"), "+SPARROW+SLAM": tr("+ Sparrow + Slam"),
    };
    const LEVEL_LEGEND = {
      bid: tr("Contra on the bid"), sparrow: tr("Contra on the Sparrow"), slam: tr("Contra on the Slam"),
    };

    function callWords(call) {
      const [bid, ...bonuses] = call.split("+");
      const extra = bonuses.length ? BONUS_WORDS[`+${bonuses.join("+")}`] : "";
      return `${BID_NAMES[bid] || bid}${extra ? ` ${extra}` : ""}`;
    }

    function emptyDraft() {
      return { twenty: 1, calls: [], contras: {}, points: null, tricks: null,
        last: { seat: null, card: null }, partner: null, called: null, held: null };
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
      loadDraft() {
        const saved = store.get(this.draftKey);
        if (saved && saved.twenty === 1 && Array.isArray(saved.calls)) {
          const draft = Object.assign(emptyDraft(), saved);
          delete draft.secrets; // kept by an older page; the phone holds nothing of the deal
          return draft;
        }
        const node = document.getElementById(`draft-${this.panel.id}`);
        const facts = node ? JSON.parse(node.textContent) : null;
        return facts ? draftFromFacts(facts) : emptyDraft();
      }

      /** The bidding box after the draft's calls, computed here: no request. */
      bidding() {
        try {
          return A.next(this.draft.calls, this.form.dealer);
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
        this.announce(`${SEAT_NAMES[box.seat]}: ${callWords(call)}.`);
        this.change((d) => d.calls.push(`${box.seat}:${call}`));
      }

      undo() {
        const last = this.draft.calls[this.draft.calls.length - 1];
        if (last) {
          const [seat, made] = last.split(":");
          this.announce(trf("%(seat)s's %(call)s taken back.", { seat: SEAT_NAMES[seat], call: callWords(made) }));
        }
        this.change((d) => d.calls.pop());
      }

      /** What is sent: TwentyAuction.entry, which Node checks against the engine. */
      facts() {
        return A.entry(this.draft, this.form);
      }

      // -- drawing --

      /** Draws the entry again. The kit's Entry keeps the focus on the control that had it
       * (each has a stable data-key), or, when it is gone or disabled (a call that is no
       * longer legal, the box closed by the last pass), moves it to the next thing to do:
       * the first legal call, else the first question after the auction. */
      render() {
        const parts = [];
        this.selects = 0;
        if (!this.form.dealer) {
          parts.push(h("p", { class: "message error" }, tr("This board's form did not load: reload the page.")));
          this.root.replaceChildren(...parts);
          return;
        }
        const box = this.bidding();
        parts.push(h("p", { class: "twenty-note" }, this.form.note));
        parts.push(this.renderCalls(box));
        if (box.error) {
          parts.push(h("p", { class: "message error", role: "alert" }, box.error, " ",
            h("button", { type: "button", class: "link", "data-key": "restart",
              onclick: () => this.change((d) => { d.calls = []; }) }, tr("Start the auction again"))));
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
      }

      renderCalls(box) {
        const calls = this.draft.calls;
        const list = calls.length
          ? h("ol", { class: "calls" }, calls.map((c) => {
            const [seat, call] = c.split(":");
            return h("li", {}, h("span", { class: "seat" }, SEAT_NAMES[seat]), " ", callWords(call));
          }))
          : h("p", { class: "muted" }, tr("No call yet."));
        const tools = h("p", { class: "auction-tools" },
          !box.error && !box.complete ? h("span", { class: "next" }, trf("%(seat)s to call", { seat: SEAT_NAMES[box.seat] })) : null,
          h("button", { type: "button", class: "secondary", "data-key": "undo", disabled: !calls.length,
            onclick: () => this.undo() }, `↶ ${tr("Undo")}`));
        return h("div", { class: "auction" }, h("h3", {}, tr("Auction")), list, tools);
      }

      /** Fixed rows: Pass and the partner's Sparrow; then each bid with its bonuses. The
       * calls that are not legal now stay in place, disabled. */
      renderBox(box) {
        const legal = new Set(box.calls);
        const button = (call, label, cls) => h("button", {
          type: "button", class: `twenty-call ${cls}`, disabled: !legal.has(call), "data-key": `call:${call}`,
          "aria-label": callWords(call), onclick: () => this.call(call),
        }, label);
        const rows = [h("div", { class: "twenty-row twenty-pass-row" },
          button("P", BID_NAMES.P, "pass"), button("P+SPARROW", tr("Pass + Sparrow"), "pass-sparrow"))];
        for (const bid of A.BIDS) {
          rows.push(h("div", { class: "twenty-row" }, A.SUFFIXES.map((s) =>
            button(bid + s, s ? BONUS_WORDS[s] : BID_NAMES[bid], s ? "bonus" : "bid"))));
        }
        return h("div", { class: "twenty-box", role: "group", "aria-label": tr("Bidding box"), "data-bidding-box": true },
          rows);
      }

      renderPlay(box) {
        const form = this.form;
        const offer = A.choices(box, this.draft, form);
        const parts = [];
        let side = SEAT_NAMES[box.declarer];
        if (box.contract === "PART") {
          side = offer.partner ? trf("%(declarer)s and %(partner)s", { declarer: side, partner: SEAT_NAMES[offer.partner] })
            : trf("%(declarer)s and the partner", { declarer: side });
        }
        parts.push(h("p", { class: "contract" },
          trf("Contract: %(bid)s by %(seat)s", { bid: BID_NAMES[box.contract], seat: SEAT_NAMES[box.declarer] })));
        if (box.contract === "PART") {
          if (box.partner_sparrow) {
            parts.push(h("p", {}, trf("Partner: %(seat)s, who announced the Sparrow.", { seat: SEAT_NAMES[box.partner_sparrow] })));
          } else {
            parts.push(this.choice(tr("Partner (who held the called card)"), offer.partners.map((seat) => [seat, SEAT_NAMES[seat]]),
              this.draft.partner, (v) => this.change((d) => { d.partner = v; }), "twenty-partner", "partner"));
          }
          const names = new Map(form.cards.map(([code, name]) => [code, name]));
          parts.push(this.select(tr("Called card (the trump Eldest called)"),
            [["", "–"], ...offer.called.map((code) => [code, names.get(code) || code])],
            this.draft.called || "", (v) => this.change((d) => { d.called = v || null; }), null, "called"));
        }
        for (const item of A.standingItems(box)) {
          parts.push(this.choice(LEVEL_LEGEND[item], form.levels, this.draft.contras[item] || "none",
            (v) => this.change((d) => { d.contras[item] = v; }), null, `contra-${item}`));
        }
        parts.push(h("p", { class: "twenty-side" }, trf("The declarer's side: %(side)s.", { side })));
        const points = [["", "–"]];
        for (let n = form.points[0]; n <= form.points[1]; n += 1) points.push([String(n), String(n)]);
        parts.push(this.select(tr("Points of the declarer's side"), points,
          this.draft.points === null ? "" : String(this.draft.points),
          (v) => this.change((d) => { d.points = v === "" ? null : Number(v); }), null, "points"));
        const tricks = [];
        for (let n = form.tricks[0]; n <= form.tricks[1]; n += 1) tricks.push([n, String(n)]);
        parts.push(this.choice(tr("Tricks of the declarer's side"), tricks, this.draft.tricks,
          (v) => this.change((d) => { d.tricks = v; }), "twenty-tricks", "tricks"));
        const problem = A.pointsProblem(this.draft.points, this.draft.tricks, form.fewest_points, form.most_points);
        if (problem) parts.push(h("p", { class: "message error", role: "alert" }, problem));
        if (box.sparrow !== null) {
          parts.push(h("p", { class: "twenty-hint muted" },
            trf("A Sparrow stands (%(seat)s's): say who won the last trick, and with which card.",
              { seat: SEAT_NAMES[box.sparrow] })));
          parts.push(this.choice(tr("Last trick won by"), offer.lastSeats.map((seat) => [seat, SEAT_NAMES[seat]]),
            this.draft.last.seat, (v) => this.change((d) => { d.last.seat = v; }), null, "last-seat"));
          parts.push(this.select(tr("Last trick won with"), [["", "–"], ...form.cards.map(([code, name]) => [code, name])],
            this.draft.last.card || "", (v) => this.change((d) => { d.last.card = v || null; }), form.cards, "last-card"));
        }
        const heldQuestion = offer.held === "kings" ? tr("Who showed all four Kings?") : tr("Who showed all three Honours?");
        parts.push(this.choice(heldQuestion,
          [["", tr("Nobody")], ...offer.heldSeats.map((seat) => [seat, SEAT_NAMES[seat]])],
          this.draft.held || "", (v) => this.change((d) => { d.held = v || null; }), "twenty-held", "held"));
        return h("div", { class: "play twenty-play" }, parts);
      }

      choice(label, options, current, onPick, extra, key) {
        return h("fieldset", { class: `choice${extra ? ` ${extra}` : ""}` }, h("legend", {}, label),
          options.map(([value, text]) => h("button", {
            type: "button", class: value === current ? "chosen" : "secondary", "data-key": `${key}:${value}`,
            "aria-pressed": value === current ? "true" : "false",
            onclick: () => {
              this.announce(`${label}: ${text}.`);
              onPick(value);
            },
          }, text)));
      }

      /** A labelled select; `cards` ([code, name, group]) groups the options by suit. */
      select(label, options, current, onPick, cards, key) {
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
          // The groups' names in the page's words (the form keeps trumps, spades...).
          const groupNames = { trumps: tr("Trumps"), spades: tr("Spades"), hearts: tr("Hearts"),
            diamonds: tr("Diamonds"), clubs: tr("Clubs") };
          children = [option(options[0]), ...[...groups].map(([group, items]) =>
            h("optgroup", { label: groupNames[group] || group }, items.map(option)))];
        } else {
          children = options.map(option);
        }
        return h("div", { class: "field inline-field" }, h("label", { for: id }, label),
          h("select", { id, "data-key": key, onchange: (e) => onPick(e.target.value) }, children));
      }

      showPreview() {
        const box = this.root.querySelector("[data-preview]");
        const send = this.root.querySelector("[data-send]");
        if (!box || !send) return;
        const p = this.preview || {};
        let content = "";
        if (p.missing) content = h("p", { class: "muted" }, tr(p.missing));
        else if (p.loading) content = h("p", { class: "muted" }, tr("Computing the score…"));
        else if (p.error) content = h("p", { class: "message error", role: "alert" }, p.error);
        else if (p.unchecked) {
          content = h("p", { class: "message warning" }, p.unchecked,
            kit.config.director ? "" : ` ${tr("You can still send: it will be checked on arrival.")}`);
        } else if (p.score) {
          const s = p.score;
          content = h("div", { class: "score" },
            h("p", { class: "score-words" }, s.words),
            h("ul", { class: "twenty-items" }, A.itemLines(s).map((line) => h("li", {}, line))),
            h("p", { class: "score-line" }, A.seatLines(s).join(" · ")), kit.directorNotes ? kit.directorNotes(s) : null);
        }
        box.replaceChildren(content);
        send.disabled = !(p.score || p.unchecked);
      }
    };
  };
}

if (typeof module !== "undefined" && module.exports) module.exports = TwentyAuction;
