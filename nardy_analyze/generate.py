"""Random legal games, for fixtures, property tests and benchmarks (``nardy-analyze generate``).

Each play is chosen uniformly among the legal plays of its segment, counted by the position they
produce (docs/rules.md: two plays with the same result are the same play), with the variant's whole turn
logic (the turn driver of ``rules.turn_segments``: Gul bara chains and handovers, the head rule, first
turns).  The same arguments give the same match: the only randomness is a ``random.Random(seed)``.

Recording conventions (docs/architecture.md, "Generated games"):

- every step is a single-die step ``src/dst``; ``Step.hit`` is set where a backgammon step hits;
- the roller's own play of the roll is ``Action.steps``; each further segment of a Gul bara turn
  (a chain double, a handover) is a :class:`~nardy_analyze.record.Segment` **when it has steps**:
  a segment in which nothing could be played is left out (the replayer treats a missing segment as
  a play of nothing, which must then be the only legal play);
- the game ends with a ``WIN`` action of the player who bore off all 15 (possibly in a handover), for
  the points of docs/rules.md (oin 1 / mars 2 / koks 3, backgammon single 1 / gammon 2 / backgammon 3; times
  500 for ``scoring=nardy500``; times the cube);
- the cube (where the variant's ``cube`` option is on: backgammon by default, never ``nardy500``): at the
  start of each turn after the opening roll, a player who may double (cube in the middle or theirs,
  under ``cube_limit``) doubles with chance 1/12; the opponent takes with chance 3/4, else drops and the
  doubler wins the cube value before the double (``DOUBLE``, ``TAKE``/``DROP``, ``WIN`` actions);
- ``Game.score`` is the running score at the start of each game (a money session: ``match_length`` 0);
- the last-roll draw (option ``last_roll``): when the first roller of the game bears off the last checker
  and the other could still finish with one roll, the other rolls once more and plays a play that bears
  off every checker when there is one: a ``DRAW`` action (no points), else the first roller's ``WIN``;
- a running clock (option ``clock``, ``increment``): every roll and handover carries the seconds it took
  (``Action.clock``, at most the player's time left, at most 30) and the clock after it
  (``Action.clock_left``, the increment added), from a second ``random.Random`` so that the games are the
  same with or without a clock; over the match with ``clock_per=match``, else per game;
- ``Loc`` values are synthetic (one line per action and segment): the writer of a notation assigns the
  real ones.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from .engine import OPPONENT, OPTIONS, Dice, Variant, borne_off, generate, get_variant, variant_display
from .engine.presets import preset_named
from .engine.ruleset import PRESET_KEY, RuleSet, no_option
from .i18n import _
from .record import Action, Game, Kind, Loc, Match, Segment, Step

MAX_ROLLS = 4000       # a game with no end in sight stops unfinished after this many rolls


def locked(rules, pos, roll_number: int) -> bool:
    """Whether no roll can move a checker of either side any more (a mutual lock: possible in the long games,
    where nothing is ever hit): for each side on roll and each of the 21 rolls, every part the variant's turn
    driver asks for (the roller's play, a chain, a handover) has no legal play.  ``roll_number``: the number of
    the next roll of the game (the driver's chains depend on it); the players' first turns are past."""
    for p in (0, 1):
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                driver = rules.turn_segments(d1, d2, False, roll_number)
                while (spec := driver.next(pos[p], pos[1 - p])) is not None:
                    q = p if spec.player != OPPONENT else 1 - p
                    ps = generate(rules, pos[q], pos[1 - q], spec.numbers, spec.turn)
                    if ps.plays and ps.max_dice > 0:
                        return False
                    driver.played(())
    return True


def _play_segment(rules, me, opp, numbers, turn, rng: random.Random):
    """Pick a legal play uniformly by resulting position; returns (me, opp, steps, used numbers)."""
    ps = generate(rules, me, opp, numbers, turn)
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


class _Clocks:
    """The generated clock times of a running clock: both players' time left, from their own random source."""

    def __init__(self, v: Variant, seed: str) -> None:
        self.inc = v.get("increment") or 0
        self.left = [float(v.get("clock")), float(v.get("clock"))]
        self.rng = random.Random(f"clock:{seed}")

    def spend(self, timed, p: int, move: bool) -> None:
        took = self.rng.randint(0, max(0, min(30, int(self.left[p]))))
        self.left[p] += -took + (self.inc if move else 0)
        timed.clock, timed.clock_left = float(took), self.left[p]


def _best_finish(rules, me, opp, d1: int, d2: int, turn, rng: random.Random):
    """The last roll of the last-roll draw: a play that bears off every checker when one does, else a random
    legal play (the player plays to draw)."""
    numbers = Dice.roll(d1, d2).numbers
    ps = generate(rules, me, opp, numbers, turn)
    done = sorted(after for after in ps.plays if not sum(after[0]))
    if not done:
        return _play_segment(rules, me, opp, numbers, turn, rng)
    path = ps.plays[done[0]]
    steps, m, o = [], me, opp
    for src, dst, _die in path:
        m, o, hit = rules.apply(m, o, src, dst)
        steps.append(Step(src, dst, bool(hit)))
    return m, o, steps, tuple(d for *_, d in path)


def _opening(rules, rng: random.Random) -> tuple[int, tuple[int, int]]:
    """Who starts and the first roll: backgammon's opening roll (one die each, the higher moves with both);
    the long games: a coin, then the first mover's roll (a double allowed, docs/rules.md, long nardy rule 7)."""
    if rules.opening_double_allowed:
        p = rng.randrange(2)
        return p, (rng.randint(1, 6), rng.randint(1, 6))
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    return (0, (a, b)) if a > b else (1, (b, a))


def _play_turn(rules, pos: list, p: int, action: Action, rolled: list[int], roll_number: int,
               rng: random.Random, clocks: "_Clocks | None", line: int) -> int:
    """Play the roll of ``action`` (its parts as the variant's turn driver asks for them: the roller's
    play, then any chain or handover) on ``pos``; returns the next free line."""
    d1, d2 = action.dice
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
            seg = Segment(spec.kind, q, tuple(spec.numbers), steps, Loc(line, 1), text)
            action.segments.append(seg)
            if clocks is not None and spec.kind == "handover":
                clocks.spend(seg, q, False)
            line += 1
    return line


def _last_roll(rules, game: Game, pos: list, o: int, roll_number: int, rng: random.Random,
               clocks: "_Clocks | None", line: int) -> tuple[int, bool]:
    """The second player's last roll (option last_roll), played to finish if it can; returns the next
    free line and whether it bore off every checker (a draw)."""
    winner = 1 - o
    d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
    last = Action(Kind.ROLL, o, Loc(line, 1), move=(roll_number + 2) // 2, dice=(d1, d2),
                  dice_text=f"{d1}{d2}", dice_loc=Loc(line, 1))
    line += 1
    turn = rules.start_turn(pos[o], pos[winner], False, (max(d1, d2), min(d1, d2)))
    me, _opp, last.steps, _used = _best_finish(rules, pos[o], pos[winner], max(d1, d2), min(d1, d2), turn, rng)
    last.cannot_move = not last.steps
    if clocks is not None:
        clocks.spend(last, o, True)
    game.actions.append(last)
    return line, not sum(me)


def generate_game(v: Variant, rng: random.Random, number: int, players: tuple[str, str],
                  score: tuple[int, int], line: int, clocks: _Clocks | None = None
                  ) -> tuple[Game, int, int | None, int]:
    """One random legal game; returns (game, next free line, winner or None (also for a draw), points)."""
    rules = v.rules
    game = Game(number, Loc(line, 1), number, tuple(players), score, Loc(line + 1, 1))
    line += 2
    pos = list(rules.initial())
    rolled = [0, 0]
    p, dice = _opening(rules, rng)
    first_roller = p
    winner, points = None, 0
    cube, owner, turned = 1, None, False
    limit = v.opt("cube_limit") if _cube_on(v) else None
    idle = 0                          # the rolls in a row that moved no checker
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
        line = _play_turn(rules, pos, p, action, rolled, roll_number, rng, clocks, line + 1)
        if clocks is not None:
            clocks.spend(action, p, True)
        game.actions.append(action)
        for side in (0, 1):
            if borne_off(pos[side]) == 15:
                winner = side
        idle = idle + 1 if not action.steps and not action.segments else 0
        # a mutual lock (no roll moves anything again: looked for after two rolls in a row moved nothing, then after
        # 8, 32, ... of them) ends the game unfinished there
        if winner is None and idle >= 2 and idle & (idle - 1) == 0 and idle.bit_length() % 2 == 0 \
                and rolled[0] > 1 and rolled[1] > 1 and locked(rules, pos, roll_number + 1):
            break
        if winner is not None:
            points = _stake(v, rules.win_level(pos[winner], pos[1 - winner]), cube, turned)
            o = 1 - winner
            if v.get("last_roll", False) and winner == first_roller and rolled[o] < rolled[winner] \
                    and rules.can_finish(pos[o], pos[winner]):
                line, drawn = _last_roll(rules, game, pos, o, roll_number, rng, clocks, line)
                if drawn:
                    game.actions.append(Action(Kind.DRAW, o, Loc(line, 1), text="Draw"))
                    game.end_loc = Loc(line, 1)
                    return game, line + 2, None, 0

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
            # TRANSLATORS: {other}, {variant}: variants' names in the genitive ("an option of long nardy")
            raise ValueError(_("--rule {key}: an option of {other}, and the games generated are games of "
                               "{variant}").format(key=key, other=variant_display(scope, "gen"),
                                                   variant=variant_display(variant, "gen")))
    plain = {(k.rpartition(":")[2] if ":" in k else k): val for k, val in options.items()}
    own, problems = RuleSet.of(plain).for_variant(variant)
    if problems:              # the first option the variant does not have (options_for's first problem)
        spec = OPTIONS.get(variant, {})
        key = next(k for k in plain if k != PRESET_KEY and k not in spec)
        raise ValueError(no_option(variant, key, spec, validated=False))
    return own


def generate_match(variant: str, games: int, seed: int, players: tuple[str, str] = ("White", "Black"),
                   options: RuleSet | dict[str, Any] | None = None) -> Match:
    """``games`` random legal games of ``variant`` (a name ``get_variant`` knows) from ``seed``.

    ``options``: rule options of ``variant`` (``{"koks": True}``; a key scoped to this variant,
    ``"long:koks"``, is the same); an option the variant does not have, or one scoped to another variant,
    is a ValueError, as ``validate --rule`` refuses an option the record's variant does not have."""
    match, made = generate_stream(variant, games, seed, players, options)
    match.games.extend(made)
    return match


def generate_stream(variant: str, games: int, seed: int, players: tuple[str, str] = ("White", "Black"),
                    options: RuleSet | dict[str, Any] | None = None) -> tuple[Match, Iterator[Game]]:
    """:func:`generate_match` as the match with no games and a generator of its games, each made when it is
    asked for (the same games): a long series written as it is made keeps no game in memory.  The options
    are checked before this returns."""
    options = RuleSet.of(options).flat()
    v = get_variant(variant, _own_options(get_variant(variant).name, options))
    preset = (options or {}).get(PRESET_KEY)
    found = preset_named(preset) if preset else None
    if found is not None and not found.covers(v.name):
        # a Rules tag for a preset that says nothing about the variant would claim rules nobody set
        # TRANSLATORS: {name}: the preset as given; {variant}, {covered}: variants' names in the genitive
        raise ValueError(_("--rules {name}: the preset sets nothing for {variant} (it sets the rules of "
                           "{covered})").format(name=preset, variant=variant_display(v.name, "gen"),
                                                covered=", ".join(variant_display(k, "gen") for k in found.options)))
    given = {k: val for k, val in (options or {}).items() if k != PRESET_KEY}
    options = _own_options(v.name, given)
    rng = random.Random(f"{v.name}:{seed}")
    players = (str(players[0]), str(players[1]))
    tags = {"Event": "Generated games", "Site": "nardy-analyze generate", "Variant": v.name,
            "Seed": str(seed)}
    if preset:
        tags["Rules"] = preset
    for key, value in sorted((options or {}).items()):
        if key in ("clock", "increment"):
            continue
        tags[key] = "on" if value is True else "off" if value is False else str(value)
    if "clock" in options or "increment" in options:
        start = v.get("clock")
        tags["TimeControl"] = "-" if start is None else f"{start}+{v.get('increment') or 0}"
    match = Match(path="<generated>", notation="generated", tags=tags, match_length=0)
    return match, _games(v, games, seed, rng, players, len(tags) + 2)


def _games(v: Variant, games: int, seed: int, rng: random.Random, players: tuple[str, str],
           line: int) -> Iterator[Game]:
    """The games of :func:`generate_stream`, each made when it is asked for."""
    score = [0, 0]
    per_match = v.get("clock_per") == "match"      # a money session: per game unless the rules say match
    clocks = _Clocks(v, f"{v.name}:{seed}") if v.get("clock") is not None else None
    for n in range(1, games + 1):
        if clocks is not None and not per_match and n > 1:
            clocks = _Clocks(v, f"{v.name}:{seed}:{n}")
        game, line, winner, points = generate_game(v, rng, n, players, (score[0], score[1]), line, clocks)
        if winner is not None:
            score[winner] += points
        yield game
