"""Random legal games, for fixtures, property tests and benchmarks (``nardy-analyze generate``).

Each play is chosen uniformly among the legal plays of its segment, counted by the position they
produce (RULES.md: two plays with the same result are the same play), with the variant's whole turn
logic (the turn driver of ``rules.turn_segments``: Gul bara chains and handovers, the head rule, first
turns).  The same arguments give the same match: the only randomness is a ``random.Random(seed)``.

Recording conventions (docs/architecture.md, "Generated games"):

- every step is a single-die step ``src/dst``; ``Step.hit`` is set where a backgammon step hits;
- the roller's own play of the roll is ``Action.steps``; each further segment of a Gul bara turn
  (a chain double, a handover) is a :class:`~nardy_analyze.record.Segment` **when it has steps**:
  a segment in which nothing could be played is left out (the replayer treats a missing segment as
  a play of nothing, which must then be the only legal play);
- the game ends with a ``WIN`` action of the player who bore off all 15 (possibly in a handover), for
  the points of RULES.md (oin 1 / mars 2 / koks 3, backgammon single 1 / gammon 2 / backgammon 3; times
  500 for ``scoring=nardy500``; times the cube);
- the cube (where the variant's ``cube`` option is on: backgammon by default, never ``nardy500``): at the
  start of each turn after the opening roll, a player who may double (cube in the middle or theirs,
  under ``cube_limit``) doubles with chance 1/12; the opponent takes with chance 3/4, else drops and the
  doubler wins the cube value before the double (``DOUBLE``, ``TAKE``/``DROP``, ``WIN`` actions);
- ``Game.score`` is the running score at the start of each game (a money session: ``match_length`` 0);
- ``Loc`` values are synthetic (one line per action and segment): the writer of a notation assigns the
  real ones.
"""
from __future__ import annotations

import random
from typing import Any

from .engine import OPPONENT, Variant, borne_off, generate, get_variant
from .inputs import options_for
from .record import Action, Game, Kind, Loc, Match, Segment, Step

MAX_ROLLS = 4000       # a game with no end in sight (a mutual lock) stops unfinished after this many rolls


def _play_segment(rules, me, opp, numbers, turn, rng: random.Random):
    """Pick a legal play uniformly by resulting position; returns (me, opp, steps, used numbers)."""
    ps = generate(rules, me, opp, numbers, None, turn)
    if not ps.plays or ps.max_dice == 0:
        return me, opp, [], ()
    results = sorted(ps.plays)
    after = results[rng.randrange(len(results))] if len(results) > 1 else results[0]
    path = ps.plays[after]
    steps: list[Step] = []
    m, o = me, opp
    for src, dst, _die in path:
        m, o, hit = rules.apply(m, o, src, dst)
        steps.append(Step(src, dst, bool(hit)))
    assert (m, o) == after
    return m, o, steps, tuple(d for _, _, d in path)


DOUBLE_P = 1 / 12     # cube model: chance that a player who may double does so, at the start of a turn
TAKE_P = 3 / 4        # ... and that the opponent takes


def _stake(v: Variant, level: int, cube: int = 1, turned: bool = False) -> int:
    """Points of a game won at ``level``: the variant's scoring, asked of its rules object."""
    return v.stake(level, cube, turned)


def _cube_on(v: Variant) -> bool:
    return v.cube_in_play


def generate_game(v: Variant, rng: random.Random, number: int, players: tuple[str, str],
                  score: tuple[int, int], line: int) -> tuple[Game, int, int | None, int]:
    """One random legal game; returns (game, next free line, winner or None, points)."""
    rules = v.rules
    game = Game(number, Loc(line, 1), number, tuple(players), score, Loc(line + 1, 1))
    line += 2
    pos = list(rules.initial())
    rolled = [0, 0]
    # Who starts: backgammon's opening roll (one die each, the higher moves with both); the long games:
    # a coin, then the first mover's roll (a double allowed, RULES.md 2.7).
    if rules.opening_double_allowed:
        p = rng.randrange(2)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    else:
        while True:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            if a != b:
                break
        p, dice = (0, (a, b)) if a > b else (1, (b, a))
    winner, points = None, 0
    cube, owner, turned = 1, None, False
    limit = v.opt("cube_limit") if _cube_on(v) else None
    for roll_number in range(1, MAX_ROLLS + 1):
        if roll_number > 1 and _cube_on(v) and owner in (None, p) and not (limit and cube * 2 > limit) \
                and rng.random() < DOUBLE_P:
            game.actions.append(Action(Kind.DOUBLE, p, Loc(line, 1), move=(roll_number + 1) // 2,
                                       value=cube * 2, text=f"Doubles => {cube * 2}"))
            line += 1
            if rng.random() < TAKE_P:
                game.actions.append(Action(Kind.TAKE, 1 - p, Loc(line, 1), text="Takes"))
                cube, owner, turned = cube * 2, 1 - p, True
                line += 1
            else:
                game.actions.append(Action(Kind.DROP, 1 - p, Loc(line, 1), text="Drops"))
                winner, points = p, _stake(v, 1, cube, turned)
                game.actions.append(Action(Kind.WIN, p, Loc(line + 1, 1), value=points,
                                           text=f"Wins {points} point{'s' if points != 1 else ''}"))
                line += 2
                break
        d1, d2 = dice
        action = Action(Kind.ROLL, p, Loc(line, 1), move=(roll_number + 1) // 2, dice=(d1, d2),
                        dice_text=f"{d1}{d2}", dice_loc=Loc(line, 1))
        line += 1
        driver = rules.turn_segments(max(d1, d2), min(d1, d2), rolled[p] == 0, roll_number)
        rolled[p] += 1
        first = True
        while (spec := driver.next(pos[p], pos[1 - p])) is not None:
            q = p if spec.player != OPPONENT else 1 - p
            me, opp, steps, used = _play_segment(rules, pos[q], pos[1 - q], spec.numbers, spec.turn, rng)
            pos[q], pos[1 - q] = me, opp
            driver.played(used)
            if first:
                action.steps = steps
                action.cannot_move = not steps
                first = False
            elif steps:
                text = " ".join(f"{s.src}/{s.dst}" for s in steps)
                action.segments.append(Segment(spec.kind, q, tuple(spec.numbers), steps, Loc(line, 1), text))
                line += 1
        game.actions.append(action)
        for side in (0, 1):
            if borne_off(pos[side]) == 15:
                winner = side
        if winner is not None:
            points = _stake(v, rules.win_level(pos[winner], pos[1 - winner]), cube, turned)
            game.actions.append(Action(Kind.WIN, winner, Loc(line, 1), value=points,
                                       text=f"Wins {points} point{'s' if points != 1 else ''}"))
            line += 1
            break
        p = 1 - p
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    game.end_loc = Loc(line - 1, 1)
    return game, line + 1, winner, points


def _own_options(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as options of ``variant`` (scopes resolved); ValueError for one it does not have."""
    for key in options:
        scope, sep, name = key.rpartition(":")
        if sep and get_variant(scope).name != variant:
            raise ValueError(f"--rule {key}: an option of {get_variant(scope).name}, and the games generated are "
                             f"{variant} games")
    own, problems = options_for(variant, {(k.rpartition(":")[2] if ":" in k else k): val
                                          for k, val in options.items()})
    if problems:
        raise ValueError(problems[0].replace("; the record is validated without it", ""))
    return own


def generate_match(variant: str, games: int, seed: int, players: tuple[str, str] = ("White", "Black"),
                   options: dict[str, Any] | None = None) -> Match:
    """``games`` random legal games of ``variant`` (a name ``get_variant`` knows) from ``seed``.

    ``options``: rule options of ``variant`` (``{"koks": True}``; a key scoped to this variant,
    ``"long:koks"``, is the same); an option the variant does not have, or one scoped to another variant,
    is a ValueError, as ``validate --rule`` refuses an option the record's variant does not have."""
    v = get_variant(variant, _own_options(get_variant(variant).name, options or {}))
    options = _own_options(v.name, options or {})
    rng = random.Random(f"{v.name}:{seed}")
    players = (str(players[0]), str(players[1]))
    tags = {"Event": "Generated games", "Site": "nardy-analyze generate", "Variant": v.name,
            "Seed": str(seed)}
    for key, value in sorted((options or {}).items()):
        tags[key] = "on" if value is True else "off" if value is False else str(value)
    match = Match(path="<generated>", notation="generated", tags=tags, match_length=0)
    score = [0, 0]
    line = len(tags) + 2
    for n in range(1, games + 1):
        game, line, winner, points = generate_game(v, rng, n, players, (score[0], score[1]), line)
        match.games.append(game)
        if winner is not None:
            score[winner] += points
    return match
