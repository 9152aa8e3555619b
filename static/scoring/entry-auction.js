/* Pymtheg's auction rules on the phone, so the bidding box works with no network: the legal
 * next calls after an auction prefix, as engine/games/pymtheg/auction.py gives them
 * (legal_next_calls). No DOM here: scorer.js reads window.PymthegAuction, and the tests run
 * this file under Node against the engine on thousands of random auctions.
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
  else window.PymthegAuction = PymthegAuction;
})();
