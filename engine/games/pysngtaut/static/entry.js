/* Pys'ngtaut's entry at the end of a hand (docs/games/pysngtaut.md, "On the phone"): the
 * turned-up card first (North sees it: it lies face up through the whole hand), then who went
 * out (or a dead hand), the penalties, the god card's place, the winner's sets picked card by
 * card, each other player's remaining cards, and losers' sets when option 8 or an out-of-turn
 * penalty makes them count. Each set is classified as it is built (the engine's
 * engine/games/pysngtaut/sets.py, ported below as a pure function), and a card the board's
 * pack cannot hold any more is refused as it is picked. Then the server's preview, and send.
 *
 * The board's form ("form-<panel id>", Game.entry_form) holds nothing of the board's deal
 * (GAMES.md, "What the phone may learn"): the seats, the whole pack, the rule that takes the
 * turned-up card out of play, the wild rank of each card that may be turned up, the hand
 * values by rank, the multipliers, the god card's places, the options that restrict sets and
 * each category's row and value. From the card North picks, `derive` works out what the
 * engine's entry_options gives with that card: the wild rank, the copies left, each card's
 * hand value, the multiplier and the god card's places. No network is needed for any of it.
 *
 * The pure part (derive, classify, counts, words) needs no page: under Node it is the
 * module's export, which the tests compare with the engine.
 */
"use strict";

(function (root) {
  // --- the pure part -----------------------------------------------------------------------

  const RANKS = "A23456789TJQK";
  const FACES = "JQK";
  const RED_SUITS = "HD";
  const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  // Marks a fixed word for the catalogue: shown through tr below.
  const N_ = (text) => text;
  // The page's words: English until the page hands its catalogue's tr/trf (useWords); under
  // Node they stay English, as the engine's tests read them.
  let tr = (text) => text;
  let trf = (text, values) =>
    tr(text).replace(/%\((\w+)\)s/g, (place, key) => (key in values ? String(values[key]) : place));
  // The page's language for numbers (12 000 in French); English until the page says.
  let numberLocale = "en-US";
  function useWords(pageTr, pageTrf, pageLocale) {
    if (pageTr) tr = pageTr;
    if (pageTrf) trf = pageTrf;
    if (pageLocale) numberLocale = pageLocale;
  }
  const SUIT_NAMES = { S: N_("spades"), H: N_("hearts"), D: N_("diamonds"), C: N_("clubs") };
  const RANK_WORDS = { T: "10" };
  // A face's letter as the reader's pack prints it (V, D, R in French).
  const FACE_LETTERS = { J: N_("J"), Q: N_("Q"), K: N_("K") };
  const RANK_NAMES = {
    A: N_("ace"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"),
    7: N_("seven"), 8: N_("eight"), 9: N_("nine"), T: N_("ten"), J: N_("jack"), Q: N_("queen"),
    K: N_("king"),
  };
  const RANK_PLURALS = {
    A: N_("aces"), 2: N_("twos"), 3: N_("threes"), 4: N_("fours"), 5: N_("fives"), 6: N_("sixes"),
    7: N_("sevens"), 8: N_("eights"), 9: N_("nines"), T: N_("tens"), J: N_("jacks"),
    Q: N_("queens"), K: N_("kings"),
  };
  /* A rank's character as a set's fault names it: the face letters in the reader's pack. */
  function rankShown(rank) {
    return FACE_LETTERS[rank] ? tr(FACE_LETTERS[rank]) : rank;
  }
  function times(count) {
    return count === 1 ? tr("once") : count === 2 ? tr("twice") : trf("%(count)s times", { count });
  }
  const CATEGORY_IDS = [
    "3-natural-face", "3-face-wild", "3-natural-number", "3-number-wild", "4-natural-face",
    "4-natural-red", "4-natural-black", "4-face-wild", "4-natural", "4-number-wild",
  ];

  function cardWords(card) {
    if (card === "JK") return tr("joker");
    return (RANK_WORDS[card[0]] || rankShown(card[0])) + SUIT_SYMBOLS[card[1]];
  }

  function rankWords(rank) {
    return RANK_WORDS[rank] || rankShown(rank);
  }

  /* A card's name as it is spoken: "seven of diamonds", "joker". */
  function cardName(card) {
    if (card === "JK") return tr("joker");
    return trf("%(rank)s of %(suit)s", { rank: tr(RANK_NAMES[card[0]]), suit: tr(SUIT_NAMES[card[1]]) });
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /* What the engine's entry_options gives once the turned-up card `up` is known, worked out
   * from the board's form alone: {up, wild, cards, hand_values, multiplier, god}. The copies
   * are the whole pack's, less the turned-up card when it is out of play (2 or 4 players),
   * and no joker when the joker is turned up; a card of the wild rank and the joker are worth
   * nothing in a hand; the joker turned up doubles every payment, a face wild rank triples
   * them with option 4; with the joker turned up the god card lies in front of nobody. */
  function derive(form, up) {
    if (!up || !Object.prototype.hasOwnProperty.call(form.wild_of || {}, up)) return null;
    const wild = form.wild_of[up];
    const cards = Object.assign({}, form.pack);
    if (form.up_out_of_play) cards[up] -= 1;
    if (up === "JK") delete cards.JK;
    const values = form.rank_values || {};
    const handValues = {};
    for (const card of Object.keys(cards)) {
      handValues[card] = card === "JK" || card[0] === wild ? 0 : values[card[0]];
    }
    const multipliers = form.multipliers || {};
    let multiplier = up === "JK" ? multipliers.joker_up : 1;
    if (wild !== null && (form.faces || FACES).includes(wild)) multiplier *= multipliers.face_wild;
    const god = up === "JK" ? [null] : (form.god || [null]).slice();
    return { up, wild, cards, hand_values: handValues, multiplier, god };
  }

  /* The turned-up card and what it makes of the board, in words. */
  function upNote(board) {
    const up = board.up;
    if (up === "JK") return tr("The joker turned up: nothing is wild, and every payment is doubled.");
    const values = { card: capital(cardName(up)), symbol: cardWords(up), ranks: tr(RANK_PLURALS[board.wild]) };
    if (board.multiplier === 3) {
      return trf("%(card)s (%(symbol)s) turned up: %(ranks)s are wild, and every payment is tripled (option 4).", values);
    }
    return trf("%(card)s (%(symbol)s) turned up: %(ranks)s are wild.", values);
  }

  /* A set's classification (rulebook 3.4, 3.10 options 1-3, 4.3), as read_set gives it:
   * {rank, category, wilds} or {fault}, the same reason in the same words. `wild` is the wild
   * rank's character, or null when the joker was turned up. */
  function classify(cards, wild, restrictions) {
    const options = restrictions || {};
    const count = cards.length;
    if (count < 3) {
      return { fault: count === 1 ? tr("1 card; a set has at least 3") : trf("%(count)s cards; a set has at least 3", { count }) };
    }
    let rank = null;
    let wilds = 0;
    let red = false;
    let black = false;
    for (const card of cards) {
      if (card === "JK") return { fault: tr("holds the joker, which is never part of a set") };
      const cardRank = card[0];
      if (cardRank === wild) {
        wilds += 1;
        continue;
      }
      if (rank === null) rank = cardRank;
      else if (cardRank !== rank) {
        const ranks = { first: rankShown(rank), second: rankShown(cardRank), wild: rankShown(wild) };
        return {
          fault: wild === null
            ? trf("cards of two ranks, %(first)s and %(second)s; nothing is wild (the joker is turned up)", ranks)
            : trf("cards of two ranks, %(first)s and %(second)s; only %(wild)s is wild", ranks),
        };
      }
      if (RED_SUITS.includes(card[1])) red = true;
      else black = true;
    }
    if (rank === null) return { fault: tr("has no natural card (a set of the wild rank is all wild)") };
    const face = FACES.includes(rank);
    if (options.same_colour_sets && !face && red && black) {
      return { fault: tr("natural cards of both colours (option same_colour_sets)") };
    }
    if (wilds) {
      if (options.same_colour_wilds) {
        let wildRed = false;
        let wildBlack = false;
        for (const card of cards) {
          if (card[0] !== wild) continue;
          if (RED_SUITS.includes(card[1])) wildRed = true;
          else wildBlack = true;
        }
        if ((red || wildRed) && (black || wildBlack)) {
          return { fault: tr("a wild card and cards of both colours (option same_colour_wilds)") };
        }
      }
      if (options.number_wilds_not_in_face_sets && face && !FACES.includes(wild)) {
        return { fault: tr("a face-rank set with a wild card (option number_wilds_not_in_face_sets)") };
      }
    }
    let category;
    if (count === 3) {
      if (face) category = wilds ? "3-face-wild" : "3-natural-face";
      else category = wilds ? "3-number-wild" : "3-natural-number";
    } else if (wilds) category = face ? "4-face-wild" : "4-number-wild";
    else if (face) category = "4-natural-face";
    else if (!black) category = "4-natural-red";
    else if (!red) category = "4-natural-black";
    else category = "4-natural";
    return { rank, category, wilds: wilds > 0 };
  }

  /* classify, with the row of the value table and the value (option 7 included) that the
   * board's form gives each category: {rank, category, wilds, row, value} or {fault}. */
  function describeSet(cards, wild, restrictions, categories) {
    const found = classify(cards, wild, restrictions);
    if (found.fault) return found;
    const entry = (categories || []).find((c) => c.id === found.category);
    return Object.assign(found, { row: entry ? entry.row : found.category, value: entry ? entry.value : null });
  }

  /* How often each card is entered: every list given, and the god card (the joker) when it
   * lies in front of somebody. */
  function countCards(lists, god) {
    const counts = {};
    for (const list of lists) for (const card of list) counts[card] = (counts[card] || 0) + 1;
    if (god) counts.JK = (counts.JK || 0) + 1;
    return counts;
  }

  /* Why one more `card` is refused, or null: the pack holds `copies[card]` of it. */
  function refusal(card, copies, counts, up, players) {
    const held = copies[card] || 0;
    const used = counts[card] || 0;
    if (used < held) return null;
    const words = `${capital(cardName(card))} (${cardWords(card)})`;
    if (held === 0) {
      if (card === "JK" && up === "JK") return tr("The joker was turned up: it is out of play.");
      return trf("%(card)s is the turned-up card, out of play: the pack holds no other.", { card: words });
    }
    const values = { card: words, held: times(held), used: used === 1 ? tr("once") : trf("%(count)s times", { count: used }) };
    return up === card && players !== 3
      ? trf("%(card)s refused: the pack holds it %(held)s (the turned-up one is out of play), and it is entered %(used)s already.", values)
      : trf("%(card)s refused: the pack holds it %(held)s, and it is entered %(used)s already.", values);
  }

  /* The first card entered more often than `copies` allows (in the order of `order`), with
   * how often the pack holds it and how often it is entered; null when none is. */
  function overCount(copies, counts, order) {
    for (const card of order) {
      const used = counts[card] || 0;
      const held = copies[card] || 0;
      if (used > held) return { card, held, used };
    }
    return null;
  }

  function overWords(over, up) {
    const values = {
      card: `${capital(cardName(over.card))} (${cardWords(over.card)})`,
      used: times(over.used),
      held: times(over.held),
    };
    if (over.held === 0) {
      return over.card === up
        ? trf("%(card)s is entered %(used)s, but it is the turned-up card, out of play: remove it.", values)
        : trf("%(card)s is entered %(used)s, but the pack holds none: remove it.", values);
    }
    return over.card === up
      ? trf("%(card)s is entered %(used)s, but the pack holds it %(held)s besides the turned-up one: remove one.", values)
      : trf("%(card)s is entered %(used)s, but the pack holds it %(held)s: remove one.", values);
  }

  function points(value) {
    return Number(value).toLocaleString(numberLocale);
  }

  const logic = {
    RANKS, CATEGORY_IDS, classify, describeSet, countCards, refusal, cardWords, cardName, rankWords,
    points, derive, upNote, overCount, overWords, useWords,
  };

  if (typeof module !== "undefined" && module.exports) {
    module.exports = logic;
    return;
  }

  // --- the entry on the page ----------------------------------------------------------------

  root.ScorerEntries = root.ScorerEntries || {};
  root.ScorerEntries["pysngtaut-entry"] = (kit) => {
    const { h, store, SEAT_NAMES } = kit;
    // The page's words (scorer.js's kit; English where an older kit has none).
    const tr = kit.tr || ((text) => text);
    const trf = kit.trf || ((text, values) => text.replace(/%\((\w+)\)s/g, (_, name) => values[name]));
    const name = (seat) => SEAT_NAMES[seat] || seat;
    // A seat's letter as the reader writes it (West is "O" in French); the keys keep N, E, S, W.
    const letter = (seat) => ({ N: tr("N"), E: tr("E"), S: tr("S"), W: tr("W") })[seat] || seat;
    logic.useWords(tr, trf, root.document && root.document.documentElement.lang);
    const handWords = (seat) => trf("%(seat)s's hand", { seat: name(seat) });
    const setWords = (seat, index) => trf("%(seat)s's set %(number)s", { seat: name(seat), number: index + 1 });
    /* A card's spoken name holds what its button shows ("10♥, ten of hearts"): a control's
     * name must contain its visible label (WCAG 2.5.3, "label in name"). */
    const spokenCard = (card, shown) => {
      const spoken = logic.cardName(card);
      return spoken.toLowerCase().includes(shown.toLowerCase()) ? spoken : `${shown}, ${spoken}`;
    };

    function emptyDraft() {
      return { pys: 1, up: null, outcome: null, melds: {}, hands: {}, god: null, penalties: [], target: null };
    }

    function upper(list) {
      return Array.isArray(list) ? list.filter((c) => typeof c === "string").map((c) => c.toUpperCase()) : [];
    }

    /* The draft of facts the server keeps (North's last entry, or the director's start). */
    function draftFromFacts(facts) {
      const draft = emptyDraft();
      if (!facts || typeof facts !== "object") return draft;
      if (typeof facts.up === "string") draft.up = facts.up.toUpperCase();
      if (facts.dead === true) draft.outcome = "dead";
      else if (typeof facts.winner === "string") draft.outcome = facts.winner.toUpperCase();
      for (const [seat, sets] of Object.entries(facts.melds || {})) {
        if (Array.isArray(sets)) draft.melds[seat.toUpperCase()] = sets.map(upper);
      }
      for (const [seat, held] of Object.entries(facts.hands || {})) draft.hands[seat.toUpperCase()] = upper(held);
      draft.god = typeof facts.god === "string" ? facts.god.toUpperCase() : null;
      for (const p of Array.isArray(facts.penalties) ? facts.penalties : []) {
        if (p && typeof p.seat === "string" && typeof p.kind === "string") {
          draft.penalties.push({ seat: p.seat.toUpperCase(), kind: p.kind.toLowerCase() });
        }
      }
      return draft;
    }

    return class PysngtautEntry extends kit.FieldsEntry {
      loadDraft() {
        const saved = store.get(this.draftKey);
        if (saved && saved.pys === 1) return Object.assign(emptyDraft(), saved);
        const node = document.getElementById(`draft-${this.panel.id}`);
        return draftFromFacts(node ? JSON.parse(node.textContent) : null);
      }

      // -- what the turned-up card makes of the board --

      /* entry_options for the turned-up card North picked (logic.derive); null before. */
      get upRules() {
        const up = this.draft.up;
        if (!this.derived || this.derived.up !== up) this.derived = logic.derive(this.form, up);
        return this.derived;
      }

      // -- what is asked, given the outcome and the penalties --

      get seats() {
        return this.form.seats || [];
      }

      get winner() {
        const outcome = this.draft.outcome;
        return outcome && outcome !== "dead" && this.seats.includes(outcome) ? outcome : null;
      }

      penalised(seat, kind) {
        return this.draft.penalties.some((p) => p.seat === seat && p.kind === kind);
      }

      losersSetsAsked() {
        return this.form.losers_sets === "always" || this.draft.penalties.some((p) => p.kind === "out_of_turn");
      }

      /* Per seat: whether its sets and its hand are entered. */
      asked(seat) {
        if (!this.draft.outcome) return { sets: false, hand: false };
        const winner = this.winner;
        if (seat === winner) return { sets: true, hand: false };
        return { sets: this.losersSetsAsked(), hand: !this.penalised(seat, "improper_draw") };
      }

      setsOf(seat) {
        if (!this.draft.melds[seat]) this.draft.melds[seat] = [];
        return this.draft.melds[seat];
      }

      handOf(seat) {
        if (!this.draft.hands[seat]) this.draft.hands[seat] = [];
        return this.draft.hands[seat];
      }

      /* Every list of cards that will be sent: the sets and hands asked for. */
      enteredLists() {
        const lists = [];
        for (const seat of this.seats) {
          const asked = this.asked(seat);
          if (asked.sets) lists.push(...(this.draft.melds[seat] || []));
          if (asked.hand) lists.push(this.draft.hands[seat] || []);
        }
        return lists;
      }

      counts() {
        return logic.countCards(this.enteredLists(), this.draft.god);
      }

      targetList() {
        const t = this.draft.target;
        if (!t || !this.seats.includes(t.seat)) return null;
        const asked = this.asked(t.seat);
        if (t.set === null) return asked.hand ? this.handOf(t.seat) : null;
        const sets = this.draft.melds[t.seat] || [];
        return asked.sets && t.set < sets.length ? sets[t.set] : null;
      }

      /* Where picked cards go when nothing is chosen: the winner's last set, else the first
       * hand still empty. */
      defaultTarget() {
        const winner = this.winner;
        if (winner) {
          const sets = this.setsOf(winner);
          if (!sets.length) sets.push([]);
          return { seat: winner, set: sets.length - 1 };
        }
        for (const seat of this.seats) {
          if (this.asked(seat).hand) return { seat, set: null };
        }
        return null;
      }

      // -- changes --

      change(fn) {
        fn();
        if (!this.targetList()) this.draft.target = this.defaultTarget();
        this.save();
        this.render();
      }

      tell(text, kind, where) {
        this.message = text ? { text, kind: kind || "error", where: where || "picker" } : null;
      }

      /* North picks (or changes) the turned-up card: the wild rank, the copies, the hand
       * values, the multiplier and the god card's places follow, and what is entered already
       * is checked again: each set is classified anew, a card now entered more often than the
       * pack holds it is named, and the god card leaves a seat when the joker is turned up. */
      setUp(card) {
        this.tell(null);
        this.choosingUp = false;
        const setsOk = () => this.seats.filter((seat) => this.asked(seat).sets).map((seat) =>
          (this.draft.melds[seat] || []).map((cards) => cards.length > 0 && !this.classified(cards).fault)).flat();
        const before = this.upRules ? setsOk() : [];
        this.change(() => {
          this.draft.up = card;
          const board = this.upRules;
          const notes = [];
          if (this.draft.god && !board.god.includes(this.draft.god)) {
            this.draft.god = null;
            notes.push(tr("The joker was turned up: the god card lies in front of nobody."));
          }
          const over = logic.overCount(board.cards, this.counts(), this.form.up_cards || []);
          if (over) notes.push(logic.overWords(over, board.up));
          const after = setsOk();
          if (before.some((ok, index) => ok && !after[index])) {
            notes.push(tr("With this card turned up, a set entered is no longer a set: see below."));
          }
          if (notes.length) this.tell(notes.join(" "), "warning", "up");
        });
        const heading = this.root.querySelector("[data-up-summary]");
        if (heading) heading.focus();
      }

      changeUp() {
        this.tell(null);
        this.choosingUp = true;
        this.render();
      }

      setOutcome(value) {
        this.tell(null);
        this.change(() => {
          this.draft.outcome = value;
          this.draft.target = null;
          if (value !== "dead") {
            // The winner's cards are gone: improper meld or draw cannot be his.
            this.draft.penalties = this.draft.penalties.filter((p) => p.seat !== value || p.kind === "out_of_turn");
          }
        });
      }

      togglePenalty(seat, kind) {
        this.tell(null);
        if (!this.penalised(seat, kind) && kind !== "out_of_turn" && seat === this.winner) {
          this.tell(trf("%(seat)s went out: he cannot have an %(penalty)s penalty.", { seat: name(seat), penalty: this.penaltyWords(kind) }));
          this.render();
          return;
        }
        this.change(() => {
          if (this.penalised(seat, kind)) {
            this.draft.penalties = this.draft.penalties.filter((p) => !(p.seat === seat && p.kind === kind));
          } else this.draft.penalties.push({ seat, kind });
        });
      }

      setGod(seat) {
        this.tell(null);
        if (seat && this.draft.god === null) {
          const used = this.counts().JK || 0;
          if (used >= (this.upRules.cards.JK || 0)) {
            this.tell(used ? tr("The joker is entered in a hand: it cannot also lie in front of a player.")
              : tr("The joker was turned up: it is out of play."));
            this.render();
            return;
          }
        }
        this.change(() => { this.draft.god = seat; });
      }

      choose(target) {
        this.tell(null);
        this.change(() => { this.draft.target = target; });
      }

      newSet(seat) {
        this.tell(null);
        this.change(() => {
          const sets = this.setsOf(seat);
          sets.push([]);
          this.draft.target = { seat, set: sets.length - 1 };
        });
      }

      removeSet(seat, index) {
        this.tell(null);
        this.change(() => {
          this.setsOf(seat).splice(index, 1);
          this.draft.target = null;
        });
      }

      pickCard(card) {
        const list = this.targetList();
        if (!list) return;
        const t = this.draft.target;
        if (t.set !== null && card === "JK") {
          this.tell(tr("The joker is never part of a set."));
          this.render();
          return;
        }
        const board = this.upRules;
        const why = logic.refusal(card, board.cards, this.counts(), board.up, this.form.players);
        if (why) {
          this.tell(why);
          this.render();
          return;
        }
        this.tell(null);
        this.announce(trf("%(card)s added to %(where)s.", { card: capital(logic.cardName(card)), where: this.whereWords(t) }));
        this.change(() => list.push(card));
      }

      unpick(list, index) {
        this.tell(null);
        this.announce(trf("%(card)s removed.", { card: capital(logic.cardName(list[index])) }));
        this.change(() => list.splice(index, 1));
      }

      /** "North's set 2", "East's hand": where picked cards go. */
      whereWords(target) {
        return target.set === null ? handWords(target.seat) : setWords(target.seat, target.set);
      }

      // -- the facts sent, and what is still missing --

      classified(cards) {
        const board = this.upRules;
        return logic.describeSet(cards, board ? board.wild : null, this.form.restrictions, this.form.categories);
      }

      seatSetsProblem(seat, mustWin) {
        const sets = (this.draft.melds[seat] || []).filter((s) => s.length);
        const ranks = new Set();
        let fours = 0;
        let threes = 0;
        for (const [index, cards] of sets.entries()) {
          const found = this.classified(cards);
          if (found.fault) return trf("%(set)s: %(fault)s.", { set: setWords(seat, index), fault: found.fault });
          if (ranks.has(found.rank)) {
            return trf("%(seat)s has two sets of %(rank)s: cards of a rank he has melded join that set.",
              { seat: name(seat), rank: logic.rankWords(found.rank) });
          }
          ranks.add(found.rank);
          if (cards.length >= 4) fours += 1;
          else threes += 1;
        }
        if (mustWin && fours < 2) {
          return trf("%(seat)s went out: enter at least two sets of four or more cards.", { seat: name(seat) });
        }
        if (threes && fours < 2) {
          return trf("%(seat)s's three-card set needs two sets of four or more cards beside it.", { seat: name(seat) });
        }
        return null;
      }

      facts() {
        const board = this.upRules;
        if (!board) return { missing: tr("Pick the turned-up card first.") };
        const outcome = this.draft.outcome;
        if (!outcome) return { missing: tr("Choose who went out, or a dead hand.") };
        const winner = this.winner;
        const facts = winner ? { up: board.up, winner } : { up: board.up, dead: true };
        const melds = {};
        const hands = {};
        for (const seat of this.seats) {
          const asked = this.asked(seat);
          if (asked.sets) {
            const problem = this.seatSetsProblem(seat, seat === winner);
            if (problem) return { missing: problem };
            const sets = (this.draft.melds[seat] || []).filter((s) => s.length);
            if (sets.length) melds[seat] = sets.map((s) => s.slice());
          }
          if (asked.hand) {
            const held = this.draft.hands[seat] || [];
            if (!held.length) return { missing: trf("Enter the cards left in %(seat)s's hand.", { seat: name(seat) }) };
            hands[seat] = held.slice();
          }
        }
        const over = logic.overCount(board.cards, this.counts(), this.form.up_cards || []);
        if (over) return { missing: logic.overWords(over, board.up) };
        if (this.draft.god && !board.god.includes(this.draft.god)) {
          return { missing: tr("The joker was turned up: the god card lies in front of nobody.") };
        }
        if (Object.keys(melds).length) facts.melds = melds;
        if (Object.keys(hands).length) facts.hands = hands;
        if (this.draft.god) facts.god = this.draft.god;
        const order = this.seats;
        const penalties = this.draft.penalties.filter((p) => order.includes(p.seat));
        if (penalties.length) {
          facts.penalties = penalties.slice().sort((a, b) => order.indexOf(a.seat) - order.indexOf(b.seat) ||
            a.kind.localeCompare(b.kind)).map((p) => ({ seat: p.seat, kind: p.kind }));
        }
        return { facts };
      }

      // -- drawing --

      penaltyWords(kind) {
        return (this.form.penalty_words || {})[kind] || kind.replace(/_/g, " ");
      }

      buttons(legend, cls, options, current, onPick) {
        return h("fieldset", { class: `choices pys-${cls}` }, h("legend", {}, legend),
          h("div", { class: "choice-buttons" }, options.map(([value, text]) => h("button", {
            type: "button", class: value === current ? "chosen" : "secondary",
            "aria-pressed": value === current ? "true" : "false", "data-key": `${cls}:${value}`,
            onclick: () => {
              this.announce(`${legend}: ${text}.`);
              onPick(value);
            },
          }, text))));
      }

      render() {
        const board = this.upRules;
        if (!this.draft.target || !this.targetList()) {
          this.draft.target = this.draft.outcome && board ? this.defaultTarget() : null;
        }
        const parts = [this.renderUp()];
        if (board && !this.choosingUp) {
          parts.push(this.buttons(tr("Who went out?"), "outcome",
            this.seats.map((s) => [s, name(s)]).concat([["dead", tr("Dead hand")]]), this.draft.outcome,
            (v) => this.setOutcome(v)));
          if (this.draft.outcome) {
            parts.push(this.renderPenalties());
            if (board.god.length > 1) {
              parts.push(this.buttons(tr("The god card (joker) lies in front of"), "god",
                board.god.map((s) => [s, s ? name(s) : tr("Nobody")]), this.draft.god, (v) => this.setGod(v)));
            }
            for (const seat of this.seats) parts.push(this.renderSeat(seat));
          }
        }
        parts.push(h("div", { class: "preview", "data-preview": true, "aria-live": "polite" }));
        parts.push(h("button", { type: "button", class: "big", "data-send": true, disabled: true,
          onclick: () => this.send() }, kit.SEND_LABEL));
        this.root.replaceChildren(...parts);
        this.schedulePreview();
      }

      /* The turned-up card: a grid of every card and the joker until North picks one, then
       * what it makes of the board, with a button to change it. */
      renderUp() {
        const board = this.upRules;
        const message = this.message && this.message.where === "up"
          ? h("p", { class: `message ${this.message.kind}`, role: "alert" }, this.message.text) : null;
        if (board && !this.choosingUp) {
          return h("section", { class: "pys-up", "aria-label": tr("Turned-up card") },
            h("p", { class: "contract", tabindex: "-1", "data-up-summary": true }, logic.upNote(board)),
            h("button", { type: "button", class: "secondary", "data-change-up": true,
              "aria-label": trf("Change the turned-up card (now the %(card)s)", { card: logic.cardName(board.up) }),
              onclick: () => this.changeUp() }, tr("Change the turned-up card")),
            message);
        }
        const current = this.draft.up;
        const cells = [];
        for (const rank of this.form.ranks || RANKS) {
          for (const suit of this.form.suits || "SHDC") {
            const card = rank + suit;
            cells.push(this.upButton(card, logic.cardWords(card), current === card));
          }
        }
        cells.push(this.upButton("JK", tr("Joker"), current === "JK"));
        return h("fieldset", { class: "choices pys-up" },
          h("legend", {}, tr("Which card was turned up?")),
          h("p", { class: "muted" }, tr("It lies face up beside the draw piles all through the hand; its rank is wild (nothing is, if it is the joker).")),
          message,
          h("div", { class: "pys-grid pys-up-grid", role: "group", "aria-label": tr("Turned-up card") }, cells),
          current ? h("button", { type: "button", class: "secondary", onclick: () => {
            this.choosingUp = false;
            this.render();
          } }, trf("Keep the %(card)s", { card: logic.cardName(current) })) : null);
      }

      upButton(card, text, chosen) {
        return h("button", {
          type: "button", class: `pys-card ${this.suitClass(card)}${card === "JK" ? " pys-wide" : ""}`,
          "aria-pressed": chosen ? "true" : "false", "aria-label": spokenCard(card, text),
          "data-key": `up:${card}`, onclick: () => this.setUp(card),
        }, text, chosen ? h("small", { "aria-hidden": "true" }, tr("✓ turned up")) : null);
      }

      renderPenalties() {
        const rows = (this.form.penalties || []).map((kind) => {
          const words = this.penaltyWords(kind);
          return h("div", { class: "pys-penalty" }, h("span", { class: "pys-penalty-kind" }, words),
            h("div", { class: "choice-buttons" }, this.seats.map((seat) => {
              const on = this.penalised(seat, kind);
              return h("button", { type: "button", class: on ? "chosen" : "secondary",
                "aria-pressed": on ? "true" : "false", "aria-label": `${name(seat)} (${letter(seat)}): ${words}`,
                "data-key": `penalty:${kind}:${seat}`,
                onclick: () => this.togglePenalty(seat, kind) }, letter(seat));
            })));
        });
        return h("fieldset", { class: "pys-penalties" }, h("legend", {}, tr("Penalties (if any)")), rows);
      }

      renderSeat(seat) {
        const asked = this.asked(seat);
        const winner = this.winner;
        const blocks = [];
        const title = seat === winner ? trf("%(seat)s went out", { seat: name(seat) }) : name(seat);
        if (asked.sets) {
          const sets = this.setsOf(seat);
          const label = seat === winner ? tr("Sets") : tr("Sets on the table (they count with option 8 or a penalty)");
          blocks.push(h("h4", {}, label));
          sets.forEach((cards, index) => blocks.push(this.renderSet(seat, index, cards)));
          blocks.push(h("button", { type: "button", class: "secondary pys-new-set",
            onclick: () => this.newSet(seat) }, trf("New set for %(seat)s", { seat: name(seat) })));
        }
        if (asked.hand) blocks.push(this.renderHand(seat));
        else if (seat !== winner) {
          blocks.push(h("p", { class: "muted" }, tr("Hand thrown out (improper draw): no cards to enter.")));
        }
        return h("section", { class: "pys-seat", "aria-label": title }, h("h3", {}, title), blocks);
      }

      isTarget(seat, set) {
        const t = this.draft.target;
        return !!t && t.seat === seat && t.set === set;
      }

      chips(list, where) {
        if (!list.length) return h("p", { class: "muted pys-empty" }, tr("No card yet."));
        return h("div", { class: "pys-chips" }, list.map((card, index) => h("button", {
          type: "button", class: `pys-chip ${this.suitClass(card)}`,
          "aria-label": `${logic.cardWords(card)}: ${trf("Remove the %(card)s from %(where)s", { card: logic.cardName(card), where })}`,
          onclick: () => this.unpick(list, index),
        }, logic.cardWords(card), h("span", { class: "pys-x", "aria-hidden": "true" }, " ✕"))));
      }

      renderSet(seat, index, cards) {
        const where = setWords(seat, index);
        const active = this.isTarget(seat, index);
        let verdict;
        if (!cards.length) verdict = h("p", { class: "muted pys-class" }, tr("Pick its cards below."));
        else {
          const found = this.classified(cards);
          verdict = found.fault
            ? h("p", { class: "pys-class pys-fault" }, trf("Not a set yet: %(fault)s.", { fault: found.fault }))
            : h("p", { class: "pys-class pys-ok" }, h("strong", {}, found.row), ` · ${logic.points(found.value)}`,
              found.wilds ? ` ${tr("(with wilds)")}` : "");
        }
        return h("div", { class: `pys-list${active ? " pys-active" : ""}`, "data-set": `${seat}${index + 1}` },
          h("div", { class: "pys-list-head" }, h("span", { class: "pys-list-name" }, trf("Set %(number)s", { number: index + 1 })),
            active ? h("span", { class: "pys-adding" }, tr("adding here"))
              : h("button", { type: "button", class: "secondary", "aria-label": trf("Add cards to %(where)s", { where }),
                onclick: () => this.choose({ seat, set: index }) }, tr("Add cards")),
            h("button", { type: "button", class: "link danger", "aria-label": trf("Remove %(where)s", { where }),
              onclick: () => this.removeSet(seat, index) }, tr("Remove"))),
          this.chips(cards, where), verdict, active ? this.renderPicker() : null);
      }

      renderHand(seat) {
        const held = this.handOf(seat);
        const where = handWords(seat);
        const active = this.isTarget(seat, null);
        const values = this.upRules.hand_values;
        const total = held.reduce((sum, card) => sum + (values[card] || 0), 0);
        return h("div", { class: `pys-list${active ? " pys-active" : ""}`, "data-hand": seat },
          h("div", { class: "pys-list-head" }, h("span", { class: "pys-list-name" }, tr("Cards left in the hand")),
            active ? h("span", { class: "pys-adding" }, tr("adding here"))
              : h("button", { type: "button", class: "secondary", "aria-label": trf("Add cards to %(where)s", { where }),
                onclick: () => this.choose({ seat, set: null }) }, tr("Add cards"))),
          this.chips(held, where),
          held.length ? h("p", { class: "pys-class" }, trf("Hand value %(points)s", { points: logic.points(total) })) : null,
          active ? this.renderPicker() : null);
      }

      suitClass(card) {
        if (card === "JK") return "pys-joker";
        return RED_SUITS.includes(card[1]) ? "pys-red" : "pys-black";
      }

      renderPicker() {
        const copies = this.upRules.cards;
        const counts = this.counts();
        const cells = [];
        for (const rank of this.form.ranks || RANKS) {
          for (const suit of this.form.suits || "SHDC") {
            const card = rank + suit;
            const left = Math.max(0, (copies[card] || 0) - (counts[card] || 0));
            cells.push(h("button", {
              type: "button", class: `pys-card ${this.suitClass(card)}${left ? "" : " pys-spent"}`,
              "aria-label": trf("%(card)s, %(left)s left", { card: spokenCard(card, logic.cardWords(card)), left }), title: logic.cardName(card),
              "data-key": `card:${card}`, onclick: () => this.pickCard(card),
            }, logic.cardWords(card), h("small", { "aria-hidden": "true" }, left)));
          }
        }
        const jokerLeft = Math.max(0, (copies.JK || 0) - (counts.JK || 0));
        cells.push(h("button", {
          type: "button", class: `pys-card pys-joker pys-wide${jokerLeft ? "" : " pys-spent"}`,
          "aria-label": trf("%(card)s, %(left)s left", { card: tr("joker"), left: jokerLeft }), "data-key": "card:JK", onclick: () => this.pickCard("JK"),
        }, tr("Joker"), h("small", { "aria-hidden": "true" }, jokerLeft)));
        const message = this.message && this.message.where === "picker"
          ? h("p", { class: `message ${this.message.kind}`, role: "alert" }, this.message.text) : null;
        return h("div", { class: "pys-picker" }, message,
          h("div", { class: "pys-grid", role: "group", "aria-label": tr("Cards") }, cells));
      }

      // -- the preview in words (the winner's sets by row, in the server's words): every payment --

      showPreview() {
        super.showPreview();
        const p = this.preview || {};
        const box = this.root.querySelector("[data-preview]");
        if (!box || !p.score) return;
        const s = p.score;
        const board = this.upRules;
        if (board) box.prepend(h("p", { class: "pys-preview-up" }, logic.upNote(board)));
        const lines = (s.payments || []).map((pay) => {
          const why = pay.for === "settlement" || pay.for === "pot" ? "" : ` (${this.penaltyWords(pay.for)})`;
          return h("li", {}, pay.to === "pot"
            ? trf("%(payer)s pays %(points)s into the pot, which is lost%(why)s",
              { payer: name(pay.from), points: logic.points(pay.amount), why })
            : trf("%(payer)s pays %(payee)s %(points)s%(why)s",
              { payer: name(pay.from), payee: name(pay.to), points: logic.points(pay.amount), why }));
        });
        box.append(lines.length ? h("ul", { class: "pys-payments" }, lines) : h("p", {}, tr("Nobody pays anything.")));
      }

      scoreLine(s) {
        return h("span", {}, Object.entries(s.seats || {}).map(([seat, value], index) => h("span", {},
          index ? " · " : "", `${name(seat)} `, h("strong", {}, value > 0 ? `+${logic.points(value)}` : logic.points(value)))));
      }
    };
  };
})(typeof window !== "undefined" ? window : globalThis);
