"""A second, deliberately plain reading of the rulebook's scoring, used only to check the engine.

It takes a board record already known to be legal and computes its table results straight from
the rulebook's tables and sentences, sharing no code with ``engine``.
"""

LADDER = ["G", "G+1", "G+2", "G+3", "R", "G+4", "R2", "G+5", "R3", "G+6", "L"]
TEAM = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
RY_VALUE = {"R": 150, "R2": 200, "R3": 1000}

# (trump after, trump during, no-trump after, no-trump during) per Gâm level
GAM_TABLE = {
    "manual-2016": [
        (20, 30, 40, 60),
        (30, 50, 60, 100),
        (40, 70, 80, 140),
        (50, 90, 100, 180),
        (60, 110, 120, 220),
        (70, 130, 140, 260),
        (80, 150, 160, 300),
    ],
    "rules-1709": [
        (20, 30, 40, 60),
        (30, 50, 60, 100),
        (40, 70, 80, 140),
        (50, 90, 100, 180),
        (60, 110, 120, 220),
        (70, 130, 140, 260),
        (80, 140, 160, 280),
    ],
}


def _bids(auction):
    for call in auction:
        seat, text = call.split(":")
        if text != "P":
            yield seat, text


def _contract(auction):
    """(declarer, bid, trump in bid or None, liability amount)."""
    liability = None
    highest = None
    for seat, text in _bids(auction):
        bid, _, trump = text.partition("/")
        if liability and TEAM[seat] == liability[1]:
            liability = None
        if (
            highest
            and highest[1].startswith("R")
            and TEAM[highest[0]] != TEAM[seat]
            and (bid.startswith("G"))
        ):
            liability = (TEAM[seat], TEAM[highest[0]], RY_VALUE[highest[1]])
        highest = (seat, bid, trump or None)
    if highest is None:
        return None
    seat, bid, trump = highest
    amount = liability[2] if liability and bid.startswith("G") and liability[0] == TEAM[seat] else 0
    return seat, bid, trump, amount


def _team_tricks(tricks, team):
    if tricks is None:
        return 0
    if "NS" in tricks:
        return tricks[team]
    return sum(n for seat, n in tricks.items() if TEAM[seat] == team)


def _gam(ruleset, level, nt, during, team_tricks, liability, options):
    base = GAM_TABLE[ruleset][level][(2 if nt else 0) + (1 if during else 0)]
    unit = 2 if nt else 1
    need = 9 + level
    if team_tricks >= need:
        bonus = options.get("all_tricks_bonus", 0) if team_tricks == 15 and level < 6 else 0
        return base + unit * (team_tricks - need) + bonus
    heavy = options.get("heavy_failure_penalty", 0) if 15 - team_tricks >= need else 0
    return -(base + unit * (need - team_tricks) + liability) - heavy


def _lon(ruleset, nt, during, won, opponent_tricks):
    value = 5000 if nt else 2500
    if during and ruleset == "manual-2016":
        value += 1000 if nt else 500
    return value if won else -(value + (100 if nt else 50) * opponent_tricks)


def _ry(bid, won, partner_tricks):
    cost = 20 * partner_tricks if bid == "R2" else 0
    return RY_VALUE[bid] - cost if won else -RY_VALUE[bid] - cost


def reference_table_results(record, default_ruleset="manual-2016"):
    """(ns, ew) table results of a legal record."""
    ruleset = record.get("ruleset", default_ruleset)
    options = record.get("options", {})
    auctions = record["auctions"]
    found = _contract(auctions[-1])
    if found is None:
        if ruleset == "rules-1709":
            return None, None
        return -5000, -5000
    declarer, bid, bid_trump, liability = found
    team = TEAM[declarer]
    opponents = "EW" if team == "NS" else "NS"
    trump = bid_trump or record.get("trump")
    trump = {"stone": "earth"}.get(trump.lower(), trump.lower()) if trump else None
    nt = trump == "nt"
    during = bid_trump is not None
    tricks = record.get("tricks")
    per_seat = tricks if tricks and "N" in tricks else None
    multiplier = {"none": 1, "x": 2, "xx": 4}[record.get("double", "none").lower()]
    revoke = record.get("revoke")
    extra = 0

    if revoke is None:
        if bid.startswith("G"):
            level = int(bid[2:]) if "+" in bid else 0
            s = _gam(ruleset, level, nt, during, _team_tricks(tricks, team), liability, options)
        elif bid == "L":
            won = per_seat[declarer] == 15
            s = _lon(ruleset, nt, during, won, _team_tricks(tricks, opponents))
        else:
            if bid == "R3":
                won = _team_tricks(tricks, team) == 0
            else:
                won = per_seat[declarer] == 0
            partner = per_seat[PARTNER[declarer]] if per_seat else 0
            s = _ry(bid, won, partner)
    else:
        guilty = TEAM[revoke] == team
        if bid.startswith("G"):
            level = int(bid[2:]) if "+" in bid else 0
            s = _gam(ruleset, level, nt, during, 0 if guilty else 15, liability, options)
        elif bid == "L":
            s = _lon(ruleset, nt, during, not guilty, 15 if guilty else 0)
        else:
            partner = per_seat[PARTNER[declarer]] if per_seat else 0
            s = _ry(bid, not guilty, partner)
            if guilty and ruleset == "manual-2016":
                s = s * 3 / 2
        if ruleset == "rules-1709":
            extra = -100 if guilty else 100
    s = int(s * multiplier) + extra
    offender = record.get("illegal_trump")
    penalty = options.get("illegal_trump_penalty", 0)
    if offender and penalty:
        s += -penalty if TEAM[offender] == team else penalty
    charge = -100 if len(auctions) == 2 else 0
    return (s if team == "NS" else -s) + charge, (s if team == "EW" else -s) + charge
