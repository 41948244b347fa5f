"""``nardy-analyze hint``: the legal plays of a roll ranked by equity, with their result chances, for every
variant: long nardy and Gul bara through the shipped evaluator (nardy_analyze.evaluator), backgammon through
the analysis engine (bgsage, the ``analysis`` extra).  ``--jsonl``: the bot protocol (docs/evaluator.md),
one JSON position per line of standard input, one JSON answer per line, the process staying open."""
from __future__ import annotations

import os

# the evaluator's matrix products are small: threads of the BLAS library only wait for one another (ten times
# slower on a busy machine); this process's numpy, when it is not loaded yet, keeps to one
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import base64  # noqa: E402
import binascii  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from ..shapes import dataclass  # noqa: E402
from typing import Any, Optional  # noqa: E402

from .. import notation  # noqa: E402
from ..engine import DEFAULT_VARIANT, OPTIONS, Dice, RuleSet, UnknownVariant, fmt_steps, generate, get_variant  # noqa: E402
from ..evaluator import posid  # noqa: E402
from ..evaluator.analysis import EvaluatorMissing, hint as long_hint, hint_part, position_value  # noqa: E402
from ..i18n import _, ngettext  # noqa: E402
from ..inputs import InputError, read_bytes  # noqa: E402
from ..judged import choose_variant  # noqa: E402
from ..report import show as shows  # noqa: E402
from .common import Echo, echo, fail  # noqa: E402

REQUEST_VARIANT = "long"      # the variant of a request that names none (--json, --jsonl)
CHANCES = ("win", "win_mars", "win_koks", "lose_mars", "lose_koks")
BG_CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


class HintError(ValueError):
    """A request that cannot be answered (the message says why)."""


@dataclass
class Request:
    variant: Any                   # engine Variant
    mover: tuple
    opponent: tuple
    player: int = 0
    rolls: int = 2
    dice: tuple[int, int] | None = None
    part: str = "roll"             # Gul bara: "chain" or "handover", a later part of the turn (numbers, turn)
    numbers: tuple[int, ...] = ()
    turn: Any = None               # the rules' turn state of the part: (checkers taken from the head, allowed)
    double: int | None = None      # a handover: the double whose numbers were handed over (the chain goes on)
    chain_turn: Any = None         # a handover: the roller's head state for the chain after it


def _dice(value) -> tuple[int, int]:
    if isinstance(value, str):
        parts = value.replace(",", "-").replace(" ", "-").split("-")
        parts = [p for p in parts if p]
        if len(parts) == 1 and len(parts[0]) == 2:
            parts = list(parts[0])
    else:
        parts = list(value) if isinstance(value, (list, tuple)) else []
    try:
        d = tuple(int(x) for x in parts)
    except (TypeError, ValueError):
        d = ()
    if len(d) != 2 or not all(1 <= x <= 6 for x in d):
        raise HintError(_("dice are two numbers 1-6, such as 6-5, not {value}").format(value=json.dumps(value)))
    return max(d), min(d)


def gnubg_position(text: str) -> tuple[tuple, tuple]:
    """The (mover, opponent) of a GNU Backgammon Position ID (14 characters; ``ID:MatchID`` accepted)."""
    key = text.strip().split(":")[0]
    try:
        raw = base64.b64decode(key + "==", validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(key) != 14 or len(raw) != 10:
        raise HintError(_("not a GNU Backgammon Position ID: {text}").format(text=text[:40]))
    bits = [raw[i // 8] >> (i % 8) & 1 for i in range(80)]
    sides, i = [], 0
    for _s in (0, 1):
        side = []
        for _p in range(25):
            n = 0
            while i < 80 and bits[i]:
                n, i = n + 1, i + 1
            i += 1
            side.append(n)
        if sum(side) > 15:
            raise HintError(_("not a GNU Backgammon Position ID: {text}").format(text=text[:40]))
        sides.append(tuple(side))
    opponent, mover = sides
    return mover, opponent


def _side(value, long_game: bool) -> tuple:
    if (not isinstance(value, list) or len(value) not in (24, 25)
            or not all(isinstance(n, int) and n >= 0 for n in value)):
        raise HintError(_("a side is a list of 24 point counts (25 with the bar in backgammon)"))
    side = tuple(value) + ((0,) if len(value) == 24 else ())
    if sum(side) > 15:
        raise HintError(_("a side has more than 15 checkers"))
    return side


def request_from_json(obj: dict, variant_default: str = "long", rules_default: dict | None = None) -> Request:
    """A request of the bot protocol: ``{"id": ..., "dice": [6, 5]}`` or ``{"variant": ..., "mover": [...],
    "opponent": [...], "rolls": n, "dice": "65"}`` (docs/evaluator.md)."""
    if not isinstance(obj, dict):
        raise HintError(_("a request is a JSON object"))
    pid = obj.get("id")
    name = obj.get("variant")
    if isinstance(pid, str) and pid[:3].upper() in ("LN-", "GB-"):
        name = name or posid.PREFIXES[pid[:2].upper()]
    name = name or variant_default
    opts = dict(rules_default or {})
    extra = obj.get("rules") or {}
    if not isinstance(extra, dict):
        raise HintError(_("rules is an object of rule options, such as {example}").format(example='{"koks": true}'))
    try:
        base = get_variant(str(name))
        known = OPTIONS[base.name]
        for key, value in extra.items():
            allowed = known[key][1] if key in known else None
            if allowed is None or (allowed and value not in allowed) or (not allowed and value is not None
                                                                           and not isinstance(value, int)):
                raise HintError(_("rules: {key}={value} is not a rule option of {variant}").format(
                    key=key, value=json.dumps(value), variant=base.name))
        opts.update(extra)
        v = get_variant(base.name, opts)
    except UnknownVariant as e:
        raise HintError(str(e)) from None
    long_game = v.rules.same_direction
    dice = _dice(obj["dice"]) if obj.get("dice") is not None else None
    req = _request_position(obj, v, pid, long_game, dice)
    if obj.get("part") is not None:
        _part_of(obj, req)
    return req


def _part_of(obj: dict, req: Request) -> None:
    """A later part of a Gul bara turn (docs/evaluator.md): ``"part": "chain"`` or ``"handover"``, its
    ``numbers`` and, for a chain, ``head``: [checkers taken from the head this turn, checkers allowed]."""
    rules = req.variant.rules
    kind = obj.get("part")
    if not rules.has_chains or kind not in ("chain", "handover"):
        raise HintError(_("part is chain or handover, a later part of a Gul bara turn"))
    numbers = obj.get("numbers")
    if (not isinstance(numbers, list) or not 1 <= len(numbers) <= 4
            or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 6 for n in numbers)
            or (kind == "chain" and (len(numbers) != 4 or len(set(numbers)) != 1))):
        raise HintError(_("numbers are the part's numbers 1-6: four equal ones for a chain, one to four for a "
                          "handover"))
    head = obj.get("head", [0, 1])
    if (not isinstance(head, list) or len(head) != 2 or not all(isinstance(n, int) and not isinstance(n, bool)
                                                                 for n in head)
            or not 0 <= head[0] <= head[1] <= 2):
        raise HintError(_("head is [checkers taken from the head this turn, checkers allowed], such as [1, 1]"))
    double = obj.get("double")
    if double is not None and (kind != "handover" or not isinstance(double, int) or isinstance(double, bool)
                               or not 1 <= double <= 6 or any(n != double for n in numbers)):
        raise HintError(_("double is given only for a handover of a double's numbers: the double (1-6), "
                          "which every number handed over must be"))
    req.turn = rules.handover_turn() if kind == "handover" else tuple(head)
    req.chain_turn, req.double = tuple(head), double
    req.part, req.numbers, req.dice = kind, tuple(sorted(numbers, reverse=True)), None


def _request_position(obj: dict, v, pid, long_game: bool, dice) -> Request:
    if pid is not None:
        if not isinstance(pid, str):
            raise HintError(_("id is a position id (text)"))
        if long_game:
            try:
                pos = posid.decode(pid)
            except posid.PositionIdError as e:
                raise HintError(str(e)) from None
            if pos.variant != v.name:
                raise HintError(_("the position id is of {id_variant}, not {variant}").format(
                    id_variant=pos.variant, variant=v.name))
            return Request(v, pos.mover, pos.opponent, pos.player, pos.rolls, dice)
        mover, opp = gnubg_position(pid)
        return Request(v, mover, opp, 0, 2, dice)
    if "mover" not in obj or "opponent" not in obj:
        raise HintError(_("a request gives a position: id, or mover and opponent"))
    mover, opp = _side(obj["mover"], long_game), _side(obj["opponent"], long_game)
    rolls = obj.get("rolls", 2)
    if not isinstance(rolls, int) or rolls < 0:
        raise HintError(_("rolls is the number of rolls the game has had, 0 or more"))
    if long_game:
        try:
            posid.check_sides(mover, opp)
        except posid.PositionIdError as e:
            raise HintError(str(e)) from None
    player = obj.get("player", 0)
    if player not in (0, 1):
        raise HintError(_("player is 0 (the first player) or 1 (the second)"))
    return Request(v, mover, opp, int(player), rolls, dice)


def answer(req: Request) -> dict:
    """The answer of one request: the plays ranked (with dice), or the position's value before the roll
    (long games without dice)."""
    rules = req.variant.rules
    out: dict[str, Any] = {"ok": True, "variant": req.variant.name}
    if rules.same_direction:
        pos = posid.NardyPosition(req.variant.name, req.mover, req.opponent, req.player, min(req.rolls, 255))
        try:
            out["id"] = posid.encode(pos)
        except posid.PositionIdError as e:
            raise HintError(str(e)) from None
        try:
            if req.part != "roll":
                handover = req.part == "handover"
                roller, other = (pos.opponent, pos.mover) if handover else (pos.mover, pos.opponent)
                drv = rules.part_driver(req.part, req.numbers, roller, req.chain_turn, req.double, req.rolls + 1)
                if drv is not None:
                    drv.next(roller, other)          # the part pending: the rest of the roll follows it
                plays = hint_part(rules, pos, req.numbers, req.turn, handover, driver=drv)
                out.update(part=req.part, numbers=list(req.numbers))
                out["plays"] = [dict(play=p.play, equity=round(p.equity, 4),
                                     **{k: round(x, 4) for k, x in zip(CHANCES, p.chances)}) for p in plays]
                return out
            if req.dice is None:
                eq, p = position_value(rules, pos)
                out.update(equity=round(eq, 4), **{k: round(float(x), 4) for k, x in zip(CHANCES, p)})
                return out
            plays = long_hint(rules, pos, *req.dice)
        except EvaluatorMissing as e:
            raise HintError(str(e)) from None
        out["dice"] = list(req.dice)
        out["plays"] = [dict(play=p.play, equity=round(p.equity, 4),
                             **{k: round(x, 4) for k, x in zip(CHANCES, p.chances)}) for p in plays]
        return out
    if req.dice is None:
        raise HintError(_("a backgammon hint needs the dice"))
    out["dice"] = list(req.dice)
    out["plays"] = _backgammon(rules, req.mover, req.opponent, req.dice)
    return out


def _backgammon(rules, mover, opp, dice) -> list[dict]:
    from ..stats import skill     # (pandas and the analysis engine: only backgammon hints need them)

    try:
        skill.require_engine()
    except skill.EngineMissing:
        raise HintError(_(skill.INSTALL_HINT)) from None
    import bgsage                 # (the 'analysis' extra)

    steps = {tuple(skill.board(m, o)): st for (m, o), st in generate(rules, mover, opp, Dice.roll(*dice).numbers).plays.items()}
    res = bgsage.batch_checker_play([dict(board=skill.board(mover, opp), die1=dice[0], die2=dice[1], cube_value=1,
                                          cube_owner="centered")], "1ply", n_threads=1)[0]
    plays = []
    for m in res.moves:
        st = steps.get(tuple(m.board))
        p = m.probs
        chances = (p.win, p.gammon_win, p.backgammon_win, p.gammon_loss, p.backgammon_loss)
        plays.append(dict(play=fmt_steps(st) if st is not None else "(no move)",
                          equity=round(float(m.cubeless_equity), 4),
                          **{k: round(float(x), 4) for k, x in zip(BG_CHANCES, chances)}))
    if not plays:
        plays.append(dict(play="(no move)", equity=None))
    return plays


def _text(ans: dict) -> str:
    lines = []
    if "plays" not in ans:
        lines.append(_("{id}: equity {equity:+.3f} before the roll (win {win:.1%}, mars {mars:.1%}, lose mars "
                       "{lmars:.1%})").format(id=ans["id"], equity=ans["equity"], win=ans["win"],
                                              mars=ans["win_mars"], lmars=ans["lose_mars"]))
        return "\n".join(lines)
    head = ans.get("id") or ans["variant"]
    n = len(ans["plays"])
    if "part" in ans:
        numbers = "-".join(map(str, ans["numbers"]))
        if ans["part"] == "chain":
            # TRANSLATORS: a Gul bara doubles chain's part; {numbers}: "5-5-5-5"
            lines.append(ngettext("{position}, chain {numbers}: {n} legal play",
                                  "{position}, chain {numbers}: {n} legal plays", n).format(
                position=head, numbers=numbers, n=n))
        else:
            # TRANSLATORS: a Gul bara handover: the numbers the roller could not use, played by the opponent
            lines.append(ngettext("{position}, handover {numbers}: {n} legal play",
                                  "{position}, handover {numbers}: {n} legal plays", n).format(
                position=head, numbers=numbers, n=n))
    else:
        lines.append(ngettext("{position}, dice {d1}-{d2}: {n} legal play",
                              "{position}, dice {d1}-{d2}: {n} legal plays",
                              n).format(position=head, d1=ans["dice"][0], d2=ans["dice"][1], n=n))
    best = ans["plays"][0].get("equity")
    width = max(len(p["play"]) for p in ans["plays"])
    for i, p in enumerate(ans["plays"], 1):
        if p.get("equity") is None:
            lines.append(f"{i:3}. {p['play']}")
            continue
        keys = list(p)[2:]
        chances = "  ".join(f"{p[k]:6.1%}" for k in keys)
        diff = "" if i == 1 else f" ({p['equity'] - best:+.3f})"
        lines.append(f"{i:3}. {p['play']:<{width}}  {p['equity']:+.3f}{diff:>10}  {chances}")
    keys = list(ans["plays"][0])[2:]
    if keys:
        # TRANSLATORS: the heading of the chance columns of hint's table
        lines.append("     " + _("columns: equity, its difference from the best, chances of {names}").format(
            names=", ".join(keys)))
    return "\n".join(lines)


def hint(path: Optional[str], *, game: Optional[int], move: Optional[int], id: Optional[str],
         dice: Optional[str], json_text: Optional[str], variant: Optional[str], rule: list[str], as_json: bool,
         jsonl: bool, echo: Echo = echo) -> None:
    """``nardy-analyze hint`` (see the command's --help).  ``variant``: of a record that names none (default
    backgammon, as every command), of a request that names none (default long)."""
    try:
        base = get_variant(variant or REQUEST_VARIANT).name
        opts = RuleSet.from_command_line(rule, None, base).flat()
    except (UnknownVariant, ValueError) as e:
        fail(str(e), echo=echo)
    if jsonl:
        serve(sys.stdin, sys.stdout, base, opts)
        return
    try:
        if path is not None:
            req = _from_record(path, game, move, variant or DEFAULT_VARIANT, opts)
        elif id is not None:
            req = request_from_json({"id": id, "variant": None if id[:3].upper() in ("LN-", "GB-") else base},
                                    base, opts)
        elif json_text is not None:
            try:
                obj = json.loads(json_text)
            except json.JSONDecodeError as e:
                raise HintError(_("--json is not JSON: {error}").format(error=e)) from None
            req = request_from_json(obj, base, opts)
        else:
            raise HintError(_("give a record (FILE with --game/--move), a position id (--id) or --json"))
        if dice is not None:
            req.dice = _dice(dice)
        ans = answer(req)
    except HintError as e:
        fail(str(e), echo=echo)
    echo(json.dumps(ans, ensure_ascii=False) if as_json else _text(ans))


def _from_record(path: str, game: Optional[int], move: Optional[str], default: str, opts: dict) -> Request:
    try:
        data = read_bytes(path)
    except InputError as e:
        raise HintError(str(e)) from None
    match = notation.read_bytes(data, "<stdin>" if path == "-" else path)
    try:
        m, k = shows.parse_move(move) if move is not None else (1, None)
        snap = shows.pick(match, game, f"{m}.{k}" if k else m)
        roll = shows.pick(match, snap.game, m) if k else snap
    except (LookupError, ValueError) as e:
        raise HintError(f"{match.path}: {e}") from None
    choice = choose_variant(match, default, opts)
    if choice.variant is None:
        loc, msg = choice.error
        raise HintError(f"{match.path}:{loc.line}:{loc.column}: {msg}")
    v = choice.variant
    me, opp = snap.sides[snap.player], snap.sides[1 - snap.player]
    rolls = (snap.move or 1) - 1
    if snap.part is None:
        return Request(v, me, opp, snap.player, rolls, snap.dice and (max(snap.dice), min(snap.dice)))
    # a later part of a Gul bara turn: its numbers, and for a chain the head allowance of the roll so far
    rules = v.rules
    r_me, r_opp = roll.sides[roll.player], roll.sides[1 - roll.player]
    allowed = rules.start_turn(r_me, r_opp, rolls < 2, (max(roll.dice), min(roll.dice)))[1]
    head = rules.core_spec()["head"] - 1         # the head's index: checkers taken from it so far
    roller_now = snap.sides[roll.player]
    chain_turn = (r_me[head] - roller_now[head], allowed)      # the roller's, for the chain
    turn = rules.handover_turn() if snap.step == "handover" else chain_turn
    numbers = tuple(sorted(snap.dice, reverse=True))
    double = numbers[0] if snap.step == "handover" and roll.dice[0] == roll.dice[1] else None
    return Request(v, me, opp, snap.player, rolls, None, snap.step, numbers, turn, double, chain_turn)


def serve(inp, out, variant: str = "long", opts: dict | None = None) -> None:
    """The bot protocol: read requests one per line from ``inp`` until its end, write one answer line each
    to ``out`` (flushed), so that another program can play through this process."""
    for n, line in enumerate(inp, 1):
        line = line.strip()
        if not line:
            continue
        try:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise HintError(_("line {n} is not JSON: {error}").format(n=n, error=e)) from None
            ans = answer(request_from_json(obj, variant, opts))
            if isinstance(obj, dict) and "tag" in obj:
                ans["tag"] = obj["tag"]
        except HintError as e:
            ans = {"ok": False, "error": str(e), "line": n}
        # ASCII only: no character of a message or tag can break the line (U+0085, U+2028 are line ends too)
        out.write(json.dumps(ans) + "\n")
        out.flush()
