"""Match schedules (the draw-up): generator and validator.

``generate_schedule(teams, tables, sides="fixed")`` returns the docs/formats.md section 5 object;
``check_schedule(data)`` lists every broken rule of a (hand-edited) schedule. See
docs/schedule.md for the constructions and rulings.

The rules: every team plays every table exactly once (a team facing the phantom of an odd
field misses that table); a team plays at most one match a round and a table hosts at most one.
Under ``fixed`` sides half the teams always sit NS and half EW; under ``balanced`` each team
sits NS at half its tables, give or take one. Opponents meet as evenly as possible and
``max_meetings`` reports the most times two teams face each other:

- 2K teams at K tables, fixed sides: a pair of orthogonal Latin squares, every NS team meets
  every EW team exactly once (max_meetings 1) for every K but 2 and 6, where 2 is the best.
  K odd uses the cyclic squares (NS team at table t - r, EW team at t + r, mod K); other K use
  finite fields, direct products, two stored quasi-difference matrices (K = 10, 14) and
  Wilson's construction (``engine.schedule.orthogonal``).
- more teams than seats: ⌈T/2⌉ rounds, teams sit out (byes), pairs meet at most once.
- fewer teams than seats: K rounds with idle tables, pairs meet at most ⌈K/n⌉ times for n
  teams a side (n = 2 and 6 excepted; a few team counts need extra rounds, see
  ``engine.schedule.layout``).
- odd team counts: a phantom (team T+1, EW); byes list every round a team does not play.

Games of individual players have movements instead: ``generate_individual_schedule(players,
per_table, rounds=None)`` seats P players at P // n tables of n (2, 3 or 4) for at most one
round per table; nobody plays twice in a round, visits a table twice or sits out twice, and
players meet as evenly as possible (``max_meetings``, ``repeated_pairs``).
``check_individual_schedule(data)`` lists every broken rule of a (hand-edited) movement. See
docs/movement.md.

Tables of several sizes: ``engine.schedule.mixed.generate_mixed_schedule(players, sizes)``.
Before a draw, ``engine.schedule.proposals.propose(game, entrants)`` lists the ways to seat a
field, best first, and ``draw`` draws one (docs/schedule.md, "Proposals before a draw").
"""

from engine.schedule.check import check_schedule
from engine.schedule.generate import ScheduleError, generate_schedule
from engine.schedule.individual import generate_individual_schedule
from engine.schedule.individual_check import check_individual_schedule

__all__ = [
    "ScheduleError",
    "check_individual_schedule",
    "check_schedule",
    "generate_individual_schedule",
    "generate_schedule",
]
