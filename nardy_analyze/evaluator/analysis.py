"""What the evaluator tells about a long nardy or Gul bara position: the legal plays of a roll ranked by
equity with their result chances (``hint``), and the value of a position before the roll (the average over
the 21 rolls of the best play, "1-ply").  Equities are in points of the variant's scoring for the player on
roll (oin 1, mars 2, koks 3 where the rules count koks), cubeless."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..shapes import dataclass
from ..engine import fmt_steps, generate
from ..i18n import _
from .net import Net
from .play import Choice, RollState, batch_evaluate, goes_on, roll_end
from .posid import NardyPosition

WEIGHTS = Path(__file__).with_name("weights")
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]          # 21 rolls, high die first
ROLL_WEIGHT = [1 if a == b else 2 for a, b in ROLLS]                     # out of 36

_NETS: dict[str, Net] = {}


class EvaluatorMissing(LookupError):
    """No shipped net for this variant."""


def weights_path(rules) -> Path:
    return WEIGHTS / f"{rules.name}.npz"


def has_net(rules) -> bool:
    return rules.same_direction and weights_path(rules).is_file()


def load_net(rules) -> Net:
    """The shipped net of the variant of ``rules`` (loaded once per process)."""
    path = weights_path(rules)
    if path not in _NETS:
        if not rules.same_direction or not path.is_file():
            raise EvaluatorMissing(_("no evaluator is shipped for {variant}").format(variant=rules.display_title()))
        _NETS[path] = Net.load(path)
    return _NETS[path]


@dataclass
class PlayEval:
    play: str                   # the steps, e.g. "24/18 24/21" ("(no move)" when nothing can be played)
    after: tuple                # (mover, opponent) after the play
    equity: float               # for the player on roll, in points
    chances: tuple              # win, win mars, win koks, lose mars, lose koks


def plays_of(rules, pos: NardyPosition, d1: int, d2: int):
    """The engine's legal plays of the roll ``d1-d2`` (the roller's own part of the turn) in ``pos``."""
    return _roll_part(rules, pos, d1, d2)[1]


def _roll_part(rules, pos: NardyPosition, d1: int, d2: int):
    """(the roll's turn driver with its first part pending, the legal plays of that part), or (None, None)."""
    d1, d2 = max(d1, d2), min(d1, d2)
    drv = rules.turn_segments(d1, d2, pos.mover_first_turn, pos.rolls + 1)
    spec = drv.next(pos.mover, pos.opponent)
    if spec is None:
        return None, None
    return drv, generate(rules, pos.mover, pos.opponent, spec.numbers, spec.turn)


def hint(rules, pos: NardyPosition, d1: int, d2: int, net: Net | None = None) -> list[PlayEval]:
    """Every legal play of ``d1-d2`` with its equity and chances, best first (ties in the engine's order
    of resulting positions).  Each play is judged by the position at the end of the roll, the opponent on
    roll: in Gul bara, where a doubles chain or a handover follows the play, the rest of the roll is played
    out by the net at 0-ply (:func:`nardy_analyze.evaluator.play.roll_end`)."""
    drv, ps = _roll_part(rules, pos, d1, d2)
    turn = None if ps is None or rules.one_part_turns else RollState(drv, 0, 0, (pos.mover, pos.opponent), ps.plays)
    return _ranked(rules, pos, ps, False, net or load_net(rules), turn)


def hint_part(rules, pos: NardyPosition, numbers: tuple[int, ...], turn, handover: bool,
              net: Net | None = None, driver=None) -> list[PlayEval]:
    """Gul bara's later parts of a turn: every legal play of ``numbers`` (a chain double's four, or the
    numbers handed over) for ``pos.mover`` who plays the part, with the rules' turn state ``turn`` (the head
    allowance), best first.  Judged as the roll's plays: the position at the end of the roll with the
    roller's opponent on roll (``handover``: that is ``pos.mover``, the player of the part); ``driver``:
    the roll's turn driver with this part pending, which plays the rest of the roll out (None: the roll
    ends with the part)."""
    ps = generate(rules, pos.mover, pos.opponent, tuple(numbers), turn)
    state = None
    if driver is not None:
        sides = (pos.opponent, pos.mover) if handover else (pos.mover, pos.opponent)
        state = RollState(driver, 0, 1 if handover else 0, sides, ps.plays)
    return _ranked(rules, pos, ps, handover, net or load_net(rules), state)


def _ranked(rules, pos: NardyPosition, ps, next_on_roll: bool, net: Net,
            turn: RollState | None = None) -> list[PlayEval]:
    """The legal plays ``ps`` of ``pos.mover`` (None or no move: the position as it is) with their equities
    and chances, best first (ties in the engine's order of resulting positions); ``next_on_roll``: the
    player who chose is on roll next (a handover), else the opponent; ``turn``: where the roll may go on
    after the play (each play is then judged at the end of the roll)."""
    if ps is None or not ps.plays or not ps.max_dice:
        results, paths, turn = [(pos.mover, pos.opponent)], [()], None
    else:
        results = sorted(ps.plays)
        paths = [ps.plays[r] for r in results]
    c = Choice(rules, results, next_on_roll, pos.opponent_first_turn, turn=turn)
    eq, p = batch_evaluate(net, [c], rules.koks)[0]
    if turn is not None:
        items = [(c, i) for i in range(len(results)) if goes_on(c, i)]
        for (_c, i), (v, pi) in zip(items, roll_end(net, items, rules.koks)):
            eq[i], p[i] = v, pi
    order = sorted(range(len(results)), key=lambda i: -eq[i])
    return [PlayEval(fmt_steps(paths[i]), results[i], float(eq[i]), tuple(float(x) for x in p[i])) for i in order]


def position_value(rules, pos: NardyPosition, net: Net | None = None) -> tuple[float, np.ndarray]:
    """The equity and chances of ``pos`` before the roll: the best play of each of the 21 rolls (by the
    net, finished games exactly), averaged with the rolls' weights."""
    net = net or load_net(rules)
    total_eq = 0.0
    total_p = np.zeros(5)
    for (a, b), w in zip(ROLLS, ROLL_WEIGHT):
        best = hint(rules, pos, a, b, net)[0]
        total_eq += w * best.equity
        total_p += w * np.array(best.chances)
    return total_eq / 36.0, total_p / 36.0
