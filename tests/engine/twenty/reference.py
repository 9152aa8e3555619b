"""A small, independent reading of the Twenty rulebook (games/twenty.md), written for the tests
only: cards as strings, no bit masks, no caching. The engine is compared with it on random
records, deals and auctions."""

from __future__ import annotations

SEATS = "NESW"
TRUMPS = ["F", *(f"T{n}" for n in range(21, 3, -1)), "T1"]  # high to low
SUITS = "SHDC"
RANKS = "KQCJT"
PACK = TRUMPS + [s + r for s in SUITS for r in RANKS]
VALUE = {
    **{c: 1 for c in TRUMPS},
    "F": 5,
    "T21": 5,
    "T1": 5,
    **{s + r: v for s in SUITS for r, v in zip(RANKS, (5, 4, 3, 2, 1), strict=True)},
}
LEVELS = {"none": 1, "contra": 2, "re": 4, "sub": 8}
BIDS = ["PART", "NT", "SOLO"]
FIELDS = {
    "game",
    "dealer",
    "deal",
    "auction",
    "called",
    "partner",
    "contras",
    "points",
    "tricks",
    "last",
    "held",
}


class Bad(Exception):
    def __init__(self, field):
        super().__init__(field)
        self.field = field


def left(seat, k=1):
    return SEATS[(SEATS.index(seat) + k) % 4]


def is_trump(card):
    return card == "F" or (card[0] == "T" and card[1:].isdigit())


def suit_of(card):
    return "T" if is_trump(card) else card[0]


def higher(a, b):
    """a is higher than b (same group)."""
    return PACK.index(a) < PACK.index(b)


def winner(trick, game):
    """Index of the winning card (section 3.4)."""
    led = suit_of(trick[0])
    trumps_count = game != "NT" or led == "T"
    if trumps_count and {"F", "T21", "T1"} <= set(trick):
        return trick.index("T1")
    pool = [c for c in trick if is_trump(c)] if trumps_count else []
    if not pool:
        pool = [c for c in trick if suit_of(c) == led]
    best = pool[0]
    for c in pool:
        if higher(c, best):
            best = c
    return trick.index(best)


def legal(hand, led):
    if led is None:
        return list(hand)
    same = [c for c in hand if suit_of(c) == led]
    if same:
        return same
    trumps = [c for c in hand if is_trump(c)]
    return trumps or list(hand)


def bounds(tricks):
    values = sorted(VALUE.values())
    return tricks + sum(values[: 4 * tricks]), tricks + sum(values[40 - 4 * tricks :])


# -- deals ----------------------------------------------------------------------------------


def parse_deal(text):
    """``(dealer, {seat: [cards]})`` or ``Bad("deal")``."""
    if not isinstance(text, str) or len(text.strip()) < 2 or text.strip()[1] != ":":
        raise Bad("deal")
    text = text.strip()
    dealer = text[0].upper()
    if dealer not in SEATS:
        raise Bad("deal")
    hands = text[2:].split()
    if len(hands) != 4:
        raise Bad("deal")
    out = {}
    seen = set()
    for k, hand in enumerate(hands):
        seat = left(dealer, k)
        groups = hand.split(".")
        if len(groups) != 5:
            raise Bad("deal")
        cards = []
        if groups[0]:
            for token in groups[0].split(","):
                if token.upper() == "F":
                    cards.append("F")
                elif (
                    token.isdigit()
                    and str(int(token)) == token
                    and int(token)
                    in (
                        1,
                        *range(4, 22),
                    )
                ):
                    cards.append("T" + token)
                else:
                    raise Bad("deal")
        for suit, group in zip(SUITS, groups[1:], strict=True):
            for char in group:
                if char.upper() not in RANKS:
                    raise Bad("deal")
                cards.append(suit + char.upper())
        for card in cards:
            if card in seen:
                raise Bad("deal")
            seen.add(card)
        out[seat] = cards
    if any(len(cards) != 10 for cards in out.values()):
        raise Bad("deal")
    return dealer, out


def format_deal(dealer, hands):
    parts = []
    for k in range(4):
        cards = hands[left(dealer, k)]
        trumps = ",".join(
            "F" if c == "F" else c[1:]
            for c in sorted((c for c in cards if is_trump(c)), key=PACK.index)
        )
        groups = [trumps] + ["".join(r for r in RANKS if s + r in cards) for s in SUITS]
        parts.append(".".join(groups))
    return f"{dealer}:{' '.join(parts)}"


def called_of(eldest_cards):
    for n in range(20, 3, -1):
        if f"T{n}" not in eldest_cards:
            return f"T{n}"
    raise AssertionError


# -- the auction ----------------------------------------------------------------------------

CALL_WORDS = {"P": "P", "PASS": "P", "PART": "PART", "PARTNERSHIP": "PART", "NT": "NT"}
CALL_WORDS |= {"NOTRUMPS": "NT", "SOLO": "SOLO"}


def read_call(text):
    if not isinstance(text, str):
        raise Bad("auction")
    text = "".join(text.split()).upper()
    if text.count(":") != 1:
        raise Bad("auction")
    seat, call = text.split(":")
    if seat not in SEATS:
        raise Bad("auction")
    parts = call.split("+")
    if parts[0] not in CALL_WORDS:
        raise Bad("auction")
    bonuses = parts[1:]
    if any(b not in ("SPARROW", "SLAM") for b in bonuses) or len(set(bonuses)) != len(bonuses):
        raise Bad("auction")
    return seat, CALL_WORDS[parts[0]], set(bonuses)


def run_auction(calls, dealer):
    """The auction's outcome: a dict; ``Bad("auction")`` for any fault, including an auction
    that has not ended (``finished`` False is returned instead when ``partial``)."""
    eldest = left(dealer)
    out = {"turn": eldest, "passed": [], "high": None, "made": 0, "psparrow": None}
    for i, text in enumerate(calls):
        seat, bid, bonuses = read_call(text)
        if out["turn"] is None:
            raise Bad("auction")
        if seat != out["turn"]:
            raise Bad("auction")
        if i == 0 and bid != "PART":
            raise Bad("auction")
        if bid == "P":
            if "SLAM" in bonuses:
                raise Bad("auction")
            if "SPARROW" in bonuses:
                high = out["high"]
                if high[1] != "PART" or "SPARROW" in high[2] or out["psparrow"]:
                    raise Bad("auction")
                out["psparrow"] = seat
            out["passed"].append(seat)
        else:
            if out["made"] >= 3 or BIDS[out["made"]] != bid:
                raise Bad("auction")
            out["made"] += 1
            out["high"] = (seat, bid, bonuses)
        if len(out["passed"]) == 3:
            out["turn"] = None
        else:
            nxt = left(seat)
            while nxt in out["passed"]:
                nxt = left(nxt)
            out["turn"] = nxt
    return out


# -- records --------------------------------------------------------------------------------


def seat_value(field, value):
    if not isinstance(value, str) or value.upper() not in SEATS or len(value) != 1:
        raise Bad(field)
    return value.upper()


def whole(value):
    return type(value) is int


def amounts(field, value, top):
    if value is None:
        raise Bad(field)
    if whole(value):
        if not 0 <= value <= top:
            raise Bad(field)
        return value, None
    if not isinstance(value, dict) or set(value) != set(SEATS):
        raise Bad(field)
    if any(not whole(v) or v < 0 for v in value.values()) or sum(value.values()) != top:
        raise Bad(field)
    return None, dict(value)


def card_value(field, value):
    if not isinstance(value, str):
        raise Bad(field)
    up = value.upper()
    if up not in PACK:
        raise Bad(field)
    return up


def score(record):
    """``{seat: result}`` plus the main facts, or ``Bad(field)``."""
    if not isinstance(record, dict):
        raise Bad("object")
    r = {k: v for k, v in record.items() if v is not None}
    if "game" in r and r["game"] != "twenty":
        raise Bad("game")
    for key in r:
        if key not in FIELDS:
            raise Bad(key)
    if "dealer" in r:
        dealer = seat_value("dealer", r["dealer"])
    elif "deal" not in r:
        raise Bad("dealer")
    hands = None
    if "deal" in r:
        deal_dealer, hands = parse_deal(r["deal"])
        if "dealer" in r and dealer != deal_dealer:
            raise Bad("dealer")
        dealer = deal_dealer
    eldest = left(dealer)
    calls = r.get("auction")
    if not isinstance(calls, list) or not calls or not all(isinstance(c, str) for c in calls):
        raise Bad("auction")
    a = run_auction(calls, dealer)
    if a["turn"] is not None:
        raise Bad("auction")
    declarer, game, bonuses = a["high"]
    sparrow_by = declarer if "SPARROW" in bonuses else None
    if game == "PART" and sparrow_by is None:
        sparrow_by = a["psparrow"]
    slam = "SLAM" in bonuses
    called = called_of(hands[eldest]) if hands else None
    holder = next(s for s in SEATS if called in hands[s]) if hands else None
    if "called" in r:
        card = card_value("called", r["called"])
        if not (card.startswith("T") and 4 <= int(card[1:]) <= 20):
            raise Bad("called")
        if hands and card != called:
            raise Bad("called")
        called = card
    partner = holder or a["psparrow"]
    if "partner" in r:
        p = seat_value("partner", r["partner"])
        if p == eldest or (hands and p != holder) or (a["psparrow"] and p != a["psparrow"]):
            raise Bad("partner")
        partner = p
    if hands and a["psparrow"] and a["psparrow"] != holder:
        raise Bad("partner")
    if game == "PART" and partner is None:
        raise Bad("partner")
    side = [declarer, partner] if game == "PART" else [declarer]
    standing = {"bid"} | ({"sparrow"} if sparrow_by else set()) | ({"slam"} if slam else set())
    contras = r.get("contras", {})
    if not isinstance(contras, dict):
        raise Bad("contras")
    for key, level in contras.items():
        if key not in standing or not isinstance(level, str) or level.lower() not in LEVELS:
            raise Bad("contras")
    mult = {k: LEVELS[contras.get(k, "none").lower()] for k in standing}
    pts, pts_seat = amounts("points", r.get("points"), 102)
    trk, trk_seat = amounts("tricks", r.get("tricks"), 10)
    if pts is None:
        pts = sum(pts_seat[s] for s in side)
    if trk is None:
        trk = sum(trk_seat[s] for s in side)
    if pts_seat and trk_seat:
        for s in SEATS:
            lo, hi = bounds(trk_seat[s])
            if not lo <= pts_seat[s] <= hi:
                raise Bad("points")
    lo, hi = bounds(trk)
    if not lo <= pts <= hi:
        raise Bad("points")
    last = r.get("last")
    if last is None and sparrow_by:
        raise Bad("last")
    if last is not None:
        if not isinstance(last, dict) or set(last) != {"seat", "card"}:
            raise Bad("last")
        ls = seat_value("last", last["seat"])
        lc = card_value("last", last["card"])
        if trk_seat is not None:
            if trk_seat[ls] == 0:
                raise Bad("last")
        elif (ls in side and trk == 0) or (ls not in side and trk == 10):
            raise Bad("last")
        if hands and lc not in hands[ls]:
            raise Bad("last")
        last = (ls, lc)
    wanted = ["SK", "HK", "DK", "CK"] if game == "NT" else ["F", "T21", "T1"]
    held = None
    if hands:
        held = next((s for s in SEATS if all(c in hands[s] for c in wanted)), None)
    if "held" in r:
        h = seat_value("held", r["held"])
        if hands and h != held:
            raise Bad("held")
        held = h
    results = dict.fromkeys(SEATS, 0)

    def settle(value, won):
        for s in SEATS:
            if s in side:
                results[s] += (value if won else -value) * (3 if len(side) == 1 else 1)
            else:
                results[s] -= value if won else -value

    base = {"PART": 1, "NT": 2, "SOLO": 4}[game]
    settle(base * mult["bid"], pts >= 52)
    if sparrow_by:
        settle(4 * mult["sparrow"], last == (sparrow_by, "T1"))
    if slam:
        settle(12 * mult["slam"], trk == 10)
    if held:
        for s in SEATS:
            results[s] += 3 if s == held else -1
    return {
        "seats": results,
        "declarer": declarer,
        "contract": game,
        "partner": partner if game == "PART" else None,
        "called": called if game == "PART" else None,
        "points": pts,
        "tricks": trk,
        "made": pts >= 52,
        "held": held,
    }
