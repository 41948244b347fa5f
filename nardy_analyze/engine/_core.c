/* The compiled core of the rules engine: single steps, apply, legal-play generation, exact play of a
 * recorded turn, forced-play detection, for the three variants (backgammon, long nardy, Gul bara).
 *
 * The Python code of nardy_analyze/engine (core.py, backgammon.py, long.py) is the reference: every
 * function here is the twin of a Python function and gives the same result, in the same order
 * (tests/test_core_twin.py holds them equal on random positions).  A position is two sides of 25
 * small counts (index p - 1: the owner's point p; index 24: the bar), as in Python, kept here as
 * uint8_t[2][25].  A variant is the plain struct `Variant`, filled from the keyword arguments that
 * the rules object gives (`Rules.core_spec`), so that a variant stays one module in engine/.
 *
 * Only the CPython C API is used (no third-party code, nothing at run time but the interpreter).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#define NARDY_MAKER
#include "../_slots.h"     /* slot_attr: an attribute read from its slot */
#include "../_packed.h"    /* a game's actions read by the .mat reader, made when asked for */

/* the packed actions' functions (notation/_matrows.c), given by engine.compiled.use_packed; NULL: none */
static const PackedApi *PACKED = NULL;

#define NPT 25          /* counts per side: 24 points and the bar */
#define BAR 25
#define OFF 0
#define CHECKERS 15
#define MAXN 6          /* the most numbers generate() takes here (more: the Python reference) */

typedef struct {
    int has_bar;          /* hits send checkers to the bar; the sides move in opposite directions */
    int closed_by;        /* opposing checkers that close a point: 2 (backgammon), 1 (long nardy) */
    int head;             /* the head point whose checkers the head rule counts (24), 0: no head rule */
    int six_block;        /* the six-block rule (long nardy) */
    int home_freeze;      /* a checker in home may only be borne off (Gul bara) */
    int exact_bear_off;   /* only the exact number bears off (Gul bara) */
    int first_doubles;    /* bit d: on a player's first turn the double d-d lets two checkers leave the head */
    int first_turns;      /* the batch may take a player's first turn (its head allowance is first_doubles') */
    int opening_doubles;  /* the game's opening roll may be a double (Rules.opening_double_allowed) */
} Variant;

typedef struct {
    PyObject_HEAD
    Variant v;
} CoreRules;

/* the opponent's index for the mover's point p (1..24) */
static inline int opp_idx(const Variant *v, int p) {
    return v->has_bar ? 24 - p : (p + 11) % 24;
}

static inline int all_home(const uint8_t *me) {
    for (int i = 6; i < NPT; i++)
        if (me[i]) return 0;
    return 1;
}

static inline int any_range(const uint8_t *me, int a, int b) {   /* any(me[a:b]) */
    for (int i = a; i < b; i++)
        if (me[i]) return 1;
    return 0;
}

static inline int side_sum(const uint8_t *s) {
    int t = 0;
    for (int i = 0; i < NPT; i++) t += s[i];
    return t;
}

static inline int side_empty(const uint8_t *s) {    /* not sum(s): no checker left (the first one ends the look) */
    for (int i = 0; i < NPT; i++)
        if (s[i]) return 0;
    return 1;
}

/* long.opp_point: the mover's point p in the opponent's numbering, and back */
static inline int lopp(int p) { return (p + 11) % 24 + 1; }

/* LongNardy.block_after: 1 when the step src/dst makes an illegal block (six or more points in a row
 * along the opponent's route with no opposing checker past it); *a, *b its ends */
static int block_after(const uint8_t *me, const uint8_t *opp, int src, int dst, int *a, int *b) {
    if (dst == OFF) return 0;
    int si = src - 1;
    int gone = me[si] == 1;
    int q = lopp(dst);
    int lo = q, hi = q;
    while (lo > 1) {
        int i = lopp(lo - 1) - 1;
        if (!me[i] || (gone && i == si)) break;
        lo--;
    }
    while (hi < 24) {
        int i = lopp(hi + 1) - 1;
        if (!me[i] || (gone && i == si)) break;
        hi++;
    }
    if (hi - lo + 1 < 6) return 0;
    if (CHECKERS - side_sum(opp) != 0 || any_range(opp, 0, lo - 1)) return 0;
    if (a) *a = lopp(hi);
    if (b) *b = lopp(lo);
    return 1;
}

/* Rules.single_steps: the legal single steps (src, dst) of `die`, in the Python order; returns how many */
static int single_steps(const Variant *v, const uint8_t *me, const uint8_t *opp, int die, int left,
                        int allowed, uint8_t out[][2]) {
    int n = 0;
    if (v->has_bar) {
        if (me[24]) {
            int dst = 25 - die;
            if (opp[24 - dst] < v->closed_by) { out[0][0] = BAR; out[0][1] = dst; return 1; }
            return 0;
        }
        int home = all_home(me);
        for (int src = 24; src >= 1; src--) {
            if (!me[src - 1]) continue;
            int dst = src - die;
            if (dst >= 1) {
                if (opp[24 - dst] < v->closed_by) { out[n][0] = src; out[n][1] = dst; n++; }
            } else if (home && (dst == 0 || !any_range(me, src, 6))) {
                out[n][0] = src; out[n][1] = OFF; n++;
            }
        }
        return n;
    }
    int home = all_home(me);
    int held = 0;
    for (int i = 0; i < 24; i++) held += me[i] != 0;
    for (int src = 24; src >= 1; src--) {
        if (!me[src - 1] || (v->head && src == v->head && left >= allowed)) continue;
        int dst = src - die;
        if (dst >= 1) {
            if (v->home_freeze && src <= 6) continue;
            if (opp[opp_idx(v, dst)] >= v->closed_by) continue;
            if (v->six_block && held + (!me[dst - 1]) - (me[src - 1] == 1) >= 6
                    && block_after(me, opp, src, dst, NULL, NULL))
                continue;
            out[n][0] = src; out[n][1] = dst; n++;
        } else if (home && (dst == 0 || (!v->exact_bear_off && !any_range(me, src, 6)))) {
            out[n][0] = src; out[n][1] = OFF; n++;
        }
    }
    return n;
}

/* Rules.apply on a position in place: returns 1 on a hit */
static inline int apply_step(const Variant *v, uint8_t *me, uint8_t *opp, int src, int dst) {
    me[src == BAR ? 24 : src - 1]--;
    if (dst != OFF) {
        me[dst - 1]++;
        if (v->has_bar && opp[24 - dst] == 1) {
            opp[24 - dst] = 0;
            opp[24]++;
            return 1;
        }
    }
    return 0;
}

/* Rules.after_step: the head count of the turn state */
static inline int after_step(const Variant *v, int left, int src) {
    return (v->head && src == v->head) ? left + 1 : left;
}

/* `Rules.step_problem(...) is None`: the single step src/dst with `die` is legal (die matching the
 * distance, or exceeding it for a bear-off, as the Python contract says) */
static int step_ok(const Variant *v, const uint8_t *me, const uint8_t *opp, int src, int dst, int die,
                   int left, int allowed) {
    if (v->has_bar) {
        if (src != BAR && me[24]) return 0;
        if (src < 1 || src > BAR || me[src == BAR ? 24 : src - 1] == 0) return 0;
        if (dst != OFF) {
            if (dst < 1 || dst > 24) return 0;
            return opp[24 - dst] < v->closed_by;
        }
        if (!all_home(me)) return 0;
        if (die > src && any_range(me, src, 6)) return 0;
        return 1;
    }
    if (src < 1 || src > 24) return 0;
    if (me[src - 1] == 0) return 0;
    if (v->head && src == v->head && left >= allowed) return 0;
    if (v->home_freeze && src <= 6 && dst != OFF) return 0;
    if (dst != OFF) {
        if (dst >= 1 && dst <= 24 && opp[opp_idx(v, dst)] >= v->closed_by) return 0;
    } else {
        if (!all_home(me)) return 0;
        if (die > src) {
            if (v->exact_bear_off) return 0;
            if (any_range(me, src, 6)) return 0;
        }
        return 1;
    }
    if (v->six_block && block_after(me, opp, src, dst, NULL, NULL)) return 0;
    return 1;
}

/* -- conversions ------------------------------------------------------------------------------- */

static PyObject *SMALL[256];     /* the ints 0..255 (references held for the module's life) */

/* a side (a sequence of 25 ints 0..255) into out; 0 and no exception when it is not one */
static int read_side(PyObject *obj, uint8_t *out) {
    PyObject *seq = PySequence_Fast(obj, "a side is a sequence of 25 counts");
    if (!seq) { PyErr_Clear(); return 0; }
    if (PySequence_Fast_GET_SIZE(seq) != NPT) { Py_DECREF(seq); return 0; }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < NPT; i++) {
        long x = PyLong_AsLong(items[i]);
        if (x == -1 && PyErr_Occurred()) { PyErr_Clear(); Py_DECREF(seq); return 0; }
        if (x < 0 || x > 255) { Py_DECREF(seq); return 0; }
        out[i] = (uint8_t)x;
    }
    Py_DECREF(seq);
    return 1;
}

static PyObject *side_tuple(const uint8_t *s) {
    PyObject *t = PyTuple_New(NPT);
    if (!t) return NULL;
    for (int i = 0; i < NPT; i++) {
        Py_INCREF(SMALL[s[i]]);
        PyTuple_SET_ITEM(t, i, SMALL[s[i]]);
    }
    return t;
}

/* the tuple of side `s`: the original object `orig` when its counts are the same */
static PyObject *side_or_same(const uint8_t *s, const uint8_t *orig_counts, PyObject *orig) {
    if (memcmp(s, orig_counts, NPT) == 0) { Py_INCREF(orig); return orig; }
    return side_tuple(s);
}

/* the turn state: None is (0, 1); else (left, allowed) */
static int read_turn(PyObject *turn, int *left, int *allowed) {
    *left = 0; *allowed = 1;
    if (turn == NULL || turn == Py_None) return 1;
    if (!PyTuple_Check(turn) || PyTuple_GET_SIZE(turn) != 2) return 0;
    long a = PyLong_AsLong(PyTuple_GET_ITEM(turn, 0));
    long b = PyLong_AsLong(PyTuple_GET_ITEM(turn, 1));
    if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
    if (a < 0 || a > 200 || b < 0 || b > 200) return 0;
    *left = (int)a; *allowed = (int)b;
    return 1;
}

static PyObject *unsupported(void) {
    PyErr_SetString(PyExc_ValueError, "outside what the compiled core takes");
    return NULL;
}

/* -- the methods ------------------------------------------------------------------------------- */

static PyObject *CoreRules_single_steps(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o, *turn = Py_None;
    int die, left, allowed;
    uint8_t me[NPT], opp[NPT], out[NPT][2];
    if (!PyArg_ParseTuple(args, "OOi|O", &me_o, &opp_o, &die, &turn)) return NULL;
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || !read_turn(turn, &left, &allowed) || die < 1 || die > 6)
        return unsupported();
    int n = single_steps(&self->v, me, opp, die, left, allowed, out);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = PyTuple_Pack(2, SMALL[out[i][0]], SMALL[out[i][1]]);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *CoreRules_apply(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o;
    int src, dst;
    uint8_t me[NPT], opp[NPT], m[NPT], o[NPT];
    if (!PyArg_ParseTuple(args, "OOii", &me_o, &opp_o, &src, &dst)) return NULL;
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || src < 1 || src > BAR || dst < 0 || dst > 24)
        return unsupported();
    memcpy(m, me, NPT); memcpy(o, opp, NPT);
    if (m[src == BAR ? 24 : src - 1] == 0) return unsupported();
    int hit = apply_step(&self->v, m, o, src, dst);
    PyObject *a = side_tuple(m);
    PyObject *b = a ? side_or_same(o, opp, opp_o) : NULL;
    if (!b) { Py_XDECREF(a); return NULL; }
    return Py_BuildValue("(NNO)", a, b, hit ? Py_True : Py_False);
}

static PyObject *CoreRules_step_ok(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o, *turn = Py_None;
    int src, dst, die, left, allowed;
    uint8_t me[NPT], opp[NPT];
    if (!PyArg_ParseTuple(args, "OOiii|O", &me_o, &opp_o, &src, &dst, &die, &turn)) return NULL;
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || !read_turn(turn, &left, &allowed) || dst < 0 || dst > 24)
        return unsupported();
    return PyBool_FromLong(step_ok(&self->v, me, opp, src, dst, die, left, allowed));
}

static PyObject *CoreRules_block_after(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o;
    int src, dst, a, b;
    uint8_t me[NPT], opp[NPT];
    if (!PyArg_ParseTuple(args, "OOii", &me_o, &opp_o, &src, &dst)) return NULL;
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || src < 1 || src > 24 || dst < 0 || dst > 24)
        return unsupported();
    if (!block_after(me, opp, src, dst, &a, &b)) Py_RETURN_NONE;
    return Py_BuildValue("(ii)", a, b);
}

/* closed_flags(side) -> 24 bytes, b"1" where the opponent's point q = 1..24 is closed by `side`
 * (Rules.closed_flags: `closed(side, q)` asked point by point) */
static PyObject *CoreRules_closed_flags(CoreRules *self, PyObject *side_o) {
    uint8_t side[NPT];
    char out[24];
    const Variant *v = &self->v;
    if (!read_side(side_o, side)) return unsupported();
    for (int q = 1; q <= 24; q++)
        out[q - 1] = side[opp_idx(v, q)] >= v->closed_by ? '1' : '0';
    return PyBytes_FromStringAndSize(out, 24);
}

/* core.exact_steps on arrays: the written steps (src, dst) played in the written order from (me, opp), changed
 * in place, each exactly one unused number of numbers[0..nleft) long (bear_off: or bearing off with the first
 * unused number, in their order, that may), every step legal; 1 and used[0..*nused), *hits; 0 as soon as a
 * step is not such a step (me and opp then hold a part of the play) */
static int exact_walk(const Variant *v, uint8_t *me, uint8_t *opp, int *numbers, int nleft, int pairs[][2], int ns,
                      int left, int allowed, int bear_off, int *used, int *nused, int *hits, int *hitv) {
    *nused = 0; *hits = 0;
    for (int k = 0; k < ns; k++) {
        int src = pairs[k][0], dst = pairs[k][1];
        int die = -1, at = -1;
        if (src < 1 || src > BAR) return 0;
        if (dst == OFF) {
            if (!bear_off) return 0;
            for (int i = 0; i < nleft && die < 0; i++) {
                int d = numbers[i], seen = 0;
                for (int j = 0; j < i; j++) if (numbers[j] == d) { seen = 1; break; }
                if (seen) continue;
                if (d >= src && step_ok(v, me, opp, src, OFF, d, left, allowed)) { die = d; at = i; }
            }
            if (die < 0) return 0;
        } else {
            int d = src - dst;
            if (dst < 1) return 0;
            for (int i = 0; i < nleft; i++) if (numbers[i] == d) { at = i; break; }
            if (at < 0) return 0;
            die = d;
            if (!step_ok(v, me, opp, src, dst, die, left, allowed)) return 0;
        }
        for (int i = at; i < nleft - 1; i++) numbers[i] = numbers[i + 1];
        nleft--;
        used[(*nused)++] = die;
        left = after_step(v, left, src);
        int h = apply_step(v, me, opp, src, dst);
        if (hitv) hitv[k] = h;
        *hits += h;
    }
    return 1;
}

/* core.exact_steps: the written steps played in the written order, one unused number each;
 * (me, opp, hits, used) or None */
static PyObject *CoreRules_play_exact(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o, *full_o, *steps_o, *turn = Py_None;
    int bear_off = 0, left, allowed;
    uint8_t me0[NPT], opp0[NPT], me[NPT], opp[NPT];
    int numbers[8], nleft = 0, used[8], nused = 0, hits = 0;
    const Variant *v = &self->v;
    if (!PyArg_ParseTuple(args, "OOOO|Op", &me_o, &opp_o, &full_o, &steps_o, &turn, &bear_off)) return NULL;
    if (!read_side(me_o, me0) || !read_side(opp_o, opp0) || !read_turn(turn, &left, &allowed))
        return unsupported();
    PyObject *full = PySequence_Fast(full_o, "numbers");
    if (!full) { PyErr_Clear(); return unsupported(); }
    nleft = (int)PySequence_Fast_GET_SIZE(full);
    if (nleft > 8) { Py_DECREF(full); return unsupported(); }
    for (int i = 0; i < nleft; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(full, i));
        if (x == -1 && PyErr_Occurred()) { PyErr_Clear(); Py_DECREF(full); return unsupported(); }
        if (x < 1 || x > 6) { Py_DECREF(full); return unsupported(); }
        numbers[i] = (int)x;
    }
    Py_DECREF(full);
    PyObject *steps = PySequence_Fast(steps_o, "steps");
    if (!steps) { PyErr_Clear(); return unsupported(); }
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(steps);
    if (ns > 8) { Py_DECREF(steps); return unsupported(); }
    int pairs[8][2];
    for (Py_ssize_t k = 0; k < ns; k++) {
        PyObject *st = PySequence_Fast_GET_ITEM(steps, k);
        long src, dst;
        if (PyTuple_Check(st) && PyTuple_GET_SIZE(st) == 2) {
            src = PyLong_AsLong(PyTuple_GET_ITEM(st, 0));
            dst = PyLong_AsLong(PyTuple_GET_ITEM(st, 1));
        } else {
            PyObject *pair = PySequence_Fast(st, "a step is (src, dst)");
            if (!pair) { PyErr_Clear(); Py_DECREF(steps); return unsupported(); }
            if (PySequence_Fast_GET_SIZE(pair) != 2) { Py_DECREF(pair); Py_DECREF(steps); return unsupported(); }
            src = PyLong_AsLong(PySequence_Fast_GET_ITEM(pair, 0));
            dst = PyLong_AsLong(PySequence_Fast_GET_ITEM(pair, 1));
            Py_DECREF(pair);
        }
        if (PyErr_Occurred()) { PyErr_Clear(); Py_DECREF(steps); return unsupported(); }
        if (src < -1000 || src > 1000 || dst < -1000 || dst > 1000) { Py_DECREF(steps); Py_RETURN_NONE; }
        pairs[k][0] = (int)src; pairs[k][1] = (int)dst;
    }
    Py_DECREF(steps);
    memcpy(me, me0, NPT); memcpy(opp, opp0, NPT);
    if (!exact_walk(v, me, opp, numbers, nleft, pairs, (int)ns, left, allowed, bear_off, used, &nused, &hits, NULL))
        Py_RETURN_NONE;
    if (nused > 8) return unsupported();
    PyObject *u = PyTuple_New(nused);
    if (!u) return NULL;
    for (int i = 0; i < nused; i++) { Py_INCREF(SMALL[used[i]]); PyTuple_SET_ITEM(u, i, SMALL[used[i]]); }
    PyObject *a = side_or_same(me, me0, me_o);
    PyObject *b = a ? side_or_same(opp, opp0, opp_o) : NULL;
    if (!b) { Py_XDECREF(a); Py_DECREF(u); return NULL; }
    return Py_BuildValue("(NNiN)", a, b, hits, u);
}

/* -- the replay's batch of plainly legal rolls --------------------------------------------------- */

static PyObject *S_kind, *S_player, *S_unplayed, *S_dice, *S_illegal_mark, *S_segments, *S_steps, *S_src, *S_dst,
                *S_hit, *S_value;

/* an attribute of `o` as a C long in [lo, hi]; 0 when it is not one (no exception left).  attr_long_of: the same,
 * with the slot `x` already read where the caller could (borrowed; NULL: read it here) */
static int attr_long_of(PyObject *o, PyObject *name, PyObject *x, long lo, long hi, long *out) {
    long v;
    int ok;
    if (x) {                                   /* (borrowed: reading an int's value runs no Python code) */
        ok = slot_long_value(x, &v);
    } else {
        x = slot_attr_slow(o, name);
        if (!x) { PyErr_Clear(); return 0; }
        ok = slot_long_value(x, &v);
        Py_DECREF(x);
    }
    if (!ok || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static inline int attr_long(PyObject *o, PyObject *name, long lo, long hi, long *out) {
    return attr_long_of(o, name, slot_peek(o, name), lo, hi, out);
}

/* the truth of attribute `name` of `o`: 1, 0, or -1 (no such attribute / an error: not taken) */
static inline int attr_true(PyObject *o, PyObject *name) {
    return slot_truth(o, name);
}

/* The slots of the replay's Actions and Steps read at their offsets (slot_map), the maps kept over the calls (a
 * game's actions are of one class, their steps of another; each read checks the class and its version).  Where
 * a slot cannot be read so, the functions above read it: the same answer. */
enum { AK_KIND, AK_PLAYER, AK_UNPLAYED, AK_DICE, AK_ILLEGAL, AK_SEGMENTS, AK_STEPS, AK_N };
static SlotMap ActionMap, StepMap;

static inline PyObject *action_slot(PyObject *a, int k) {      /* borrowed, or NULL */
    if (Py_TYPE(a) != ActionMap.type) {
        PyObject *const names[AK_N] = {S_kind, S_player, S_unplayed, S_dice, S_illegal_mark, S_segments, S_steps};
        slot_map(&ActionMap, Py_TYPE(a), names, AK_N);
    }
    return slot_at(&ActionMap, a, k);
}

static inline int a_is(PyObject *a, int k, PyObject *name, PyObject *value) {
    return slot_is_of(a, name, value, action_slot(a, k));
}

static inline int a_true(PyObject *a, int k, PyObject *name) {
    return slot_truth_of(a, name, action_slot(a, k));
}

static inline int a_long(PyObject *a, int k, PyObject *name, long lo, long hi, long *out) {
    return attr_long_of(a, name, action_slot(a, k), lo, hi, out);
}

/* judge._dice_splits: the sequences of numbers of rem[0..nrem) that carry a checker `dist` points (off: at
 * least `dist`, bearing off), depth first with each number once per level, then shortest first (stable) */
static void split_go(const int *left, int nleft, int *prefix, int plen, int total, int dist, int off,
                     int seqs[][4], int *lens, int *count) {
    int tried[7] = {0};
    for (int i = 0; i < nleft; i++) {
        int d = left[i];
        if (tried[d]) continue;
        tried[d] = 1;
        int t = total + d;
        prefix[plen] = d;
        if ((!off && t == dist) || (off && t >= dist)) {
            if (*count < 64) {
                memcpy(seqs[*count], prefix, sizeof(int) * (plen + 1));
                lens[(*count)++] = plen + 1;
            }
        } else if (t < dist) {
            int rest[4], nr = 0;
            for (int j = 0; j < nleft; j++) if (j != i) rest[nr++] = left[j];
            split_go(rest, nr, prefix, plen + 1, t, dist, off, seqs, lens, count);
        }
    }
}

typedef struct {
    const Variant *v;
    int nfull, has_counted, n, found;
    uint8_t cme[NPT], copp[NPT];     /* the position the written steps describe (judge._by_counts) */
    uint8_t fme[NPT], fopp[NPT];     /* the realisation chosen */
    /* route mode (judge.route's _realise_route): the first realisation, any numbers used, that reaches
     * (tme, topp), among the first 33; its single steps */
    int route_mode, plen, rlen;
    int path[8][2], rpath[8][2];
    uint8_t tme[NPT], topp[NPT];
} Every;

/* judge.route's look at one realisation: 1 to stop (found, or the 33rd looked at) */
static int route_visit(Every *e, const uint8_t *me, const uint8_t *opp) {
    int n = e->n++;
    if (memcmp(me, e->tme, NPT) == 0 && memcmp(opp, e->topp, NPT) == 0) {
        memcpy(e->rpath, e->path, sizeof e->path);
        e->rlen = e->plen;
        e->found = 1;
        return 1;
    }
    return n >= 32;
}

/* judge._every_number's look at one realisation of the written steps: 1 to stop */
static int every_visit(Every *e, const uint8_t *me, const uint8_t *opp, int nused) {
    if (nused != e->nfull) return 1;
    int n = e->n++;
    if (!e->has_counted || (memcmp(me, e->cme, NPT) == 0 && memcmp(opp, e->copp, NPT) == 0)) {
        memcpy(e->fme, me, NPT); memcpy(e->fopp, opp, NPT);
        e->found = 1;
        return 1;
    }
    if (!e->found) {
        memcpy(e->fme, me, NPT); memcpy(e->fopp, opp, NPT);
        e->found = 1;
    }
    return n >= 16;
}

/* judge._realise in the written order (order_free False), each realisation handed to every_visit: 1 when
 * it asked to stop */
static int realise(Every *e, const uint8_t *me, const uint8_t *opp, const int *rem, int nrem, int pairs[][2], int k,
                   int ns, int left, int allowed, int nused) {
    if (k == ns) return e->route_mode ? route_visit(e, me, opp) : every_visit(e, me, opp, nused);
    int src = pairs[k][0], dst = pairs[k][1], dist = src - dst;
    if (dist <= 0) return 0;
    int seqs[64][4], lens[64], count = 0, prefix[4];
    split_go(rem, nrem, prefix, 0, 0, dist, dst == OFF, seqs, lens, &count);
    for (int a = 1; a < count; a++) {        /* a stable sort by length */
        int len = lens[a], seq[4];
        memcpy(seq, seqs[a], sizeof seq);
        int b = a - 1;
        while (b >= 0 && lens[b] > len) { memcpy(seqs[b + 1], seqs[b], sizeof seq); lens[b + 1] = lens[b]; b--; }
        memcpy(seqs[b + 1], seq, sizeof seq);
        lens[b + 1] = len;
    }
    for (int q = 0; q < count; q++) {
        uint8_t m[NPT], o[NPT];
        memcpy(m, me, NPT); memcpy(o, opp, NPT);
        int cur = src, l2 = left, ok = 1, plen = e->plen;
        for (int i = 0; i < lens[q]; i++) {
            int die = seqs[q][i];
            int nxt = (i == lens[q] - 1 && dst == OFF) ? OFF : (cur != BAR ? cur - die : 25 - die);
            if (nxt < 0) nxt = OFF;
            if (!step_ok(e->v, m, o, cur, nxt, die, l2, allowed)) { ok = 0; break; }
            l2 = after_step(e->v, l2, cur);
            apply_step(e->v, m, o, cur, nxt);
            if (plen + i < 8) { e->path[plen + i][0] = cur; e->path[plen + i][1] = nxt; }
            cur = nxt;
        }
        if (!ok) continue;
        e->plen = plen + lens[q];
        int rest[4], nr = 0, taken[4] = {0};
        for (int i = 0; i < lens[q]; i++)          /* _remove: the first unused occurrence of each number */
            for (int j = 0; j < nrem; j++)
                if (!taken[j] && rem[j] == seqs[q][i]) { taken[j] = 1; break; }
        for (int j = 0; j < nrem; j++) if (!taken[j]) rest[nr++] = rem[j];
        int stop = realise(e, m, o, rest, nr, pairs, k + 1, ns, l2, allowed, nused + lens[q]);
        e->plen = plen;
        if (stop) return 1;
    }
    return 0;
}

/* judge.route for a play the batch took that is not one written step per number: from (me, opp) to
 * (tme, topp) with the roll's numbers: the written steps one number each in order where they lead there
 * (as_written), else the first of the first 33 realisations of the written steps in their order that does
 * (_realise_route); the single steps with their hits in route, their count returned; 0 when neither finds
 * it (Python's generate then decides) */
static int find_route(const Variant *v, const uint8_t *me, const uint8_t *opp, const int *numbers, int nn,
                      int pairs[][2], int ns, const uint8_t *tme, const uint8_t *topp, int route[4][3]) {
    uint8_t m[NPT], o[NPT];
    if (ns == nn) {
        int nums[4], used[8], nused, hits, hitv[4] = {0};
        memcpy(nums, numbers, sizeof nums);
        memcpy(m, me, NPT); memcpy(o, opp, NPT);
        if (exact_walk(v, m, o, nums, nn, pairs, ns, 0, 1, 1, used, &nused, &hits, hitv)) {
            if (memcmp(m, tme, NPT) || memcmp(o, topp, NPT)) return 0;   /* (route: then the search, rare) */
            for (int k = 0; k < ns; k++) { route[k][0] = pairs[k][0]; route[k][1] = pairs[k][1]; route[k][2] = hitv[k]; }
            return ns;
        }
    }
    Every e;
    memset(&e, 0, sizeof e);
    e.v = v; e.nfull = nn; e.route_mode = 1;
    memcpy(e.tme, tme, NPT); memcpy(e.topp, topp, NPT);
    realise(&e, me, opp, numbers, nn, pairs, 0, ns, 0, 1, 0);
    if (!e.found || e.rlen > 4) return 0;
    memcpy(m, me, NPT); memcpy(o, opp, NPT);
    for (int k = 0; k < e.rlen; k++) {       /* with_hits: the steps walked again, each hit where it lands */
        route[k][0] = e.rpath[k][0]; route[k][1] = e.rpath[k][1];
        route[k][2] = apply_step(v, m, o, e.rpath[k][0], e.rpath[k][1]);
    }
    return e.rlen;
}

typedef struct Gen Gen;
static Gen *gen_acquire(Gen *local);
static void gen_release(Gen *g);
static int gen_run(const Variant *v, const uint8_t *me, const uint8_t *opp, const int *nums, int n, int left0,
                   int allowed, Gen *g);
static int gen_max(const Gen *g);
static int gen_find(const Gen *g, const uint8_t *me, const uint8_t *opp);
static int gen_path_dice(const Gen *g, int node, int *dice);
#define GEN_LOCAL_SIZE 512

/* judge.judge's other ways, for a turn whose written steps are not one per number (with no "*" beyond the
 * hits the written ends make): judge._every_number (the written steps in the first splits into numbers
 * that use every number), else the position the written steps describe when it is one of the legal plays
 * (core.generate: a play that cannot use every number); 1 and me, opp changed to the play chosen; 0 when
 * Python must decide (a finding, a route that hits on its way) */
static int every_number(const Variant *v, uint8_t *me, uint8_t *opp, const int *numbers, int nn, int pairs[][2],
                        const int *hit, int ns, int partial, int left, int allowed, int *used, int *nused) {
    if (ns > 4) return 0;
    for (int k = 0; k < ns; k++) {
        int src = pairs[k][0], dst = pairs[k][1];
        if (src < 1 || src > BAR || dst < 0 || dst > 24 || (!v->has_bar && src == BAR)) return 0;
    }
    Every e;
    memset(&e, 0, sizeof e);
    e.v = v; e.nfull = nn;
    /* judge._by_counts: the steps applied in any order that has a checker for each */
    memcpy(e.cme, me, NPT); memcpy(e.copp, opp, NPT);
    int done[4] = {0}, todo = ns;
    e.has_counted = 1;
    while (todo) {
        int k = 0;
        for (; k < ns; k++) {
            if (done[k]) continue;
            int src = pairs[k][0];
            if (e.cme[src == BAR ? 24 : src - 1]) break;
        }
        if (k == ns) { e.has_counted = 0; break; }
        apply_step(v, e.cme, e.copp, pairs[k][0], pairs[k][1]);
        done[k] = 1;
        todo--;
    }
    /* a "*" that no written end explains: the route that hits on its way is Python's to find */
    int marked = 0;
    for (int k = 0; k < ns; k++) {
        if (!hit[k]) continue;
        int dup = 0;
        for (int j = 0; j < k; j++)
            if (hit[j] && pairs[j][0] == pairs[k][0] && pairs[j][1] == pairs[k][1]) { dup = 1; break; }
        marked += !dup;
    }
    if (e.has_counted && marked > (int)e.copp[24] - (int)opp[24]) return 0;
    realise(&e, me, opp, numbers, nn, pairs, 0, ns, left, allowed, 0);
    if (e.found) {
        memcpy(me, e.fme, NPT); memcpy(opp, e.fopp, NPT);
        if (used) { memcpy(used, numbers, sizeof(int) * nn); *nused = nn; }
        return 1;
    }
    if (!e.has_counted || !partial) return 0;   /* partial: a play that does not use every number may be taken */
    /* `counted in generate(...)`: the legal plays of the numbers with the turn state (left, allowed); the
     * numbers used: all of them when a legal play uses all, else those of the play's path (judge._ok) */
    _Alignas(16) char local[GEN_LOCAL_SIZE];
    Gen *g = gen_acquire((Gen *)local);
    int node = -2, all = 0, nd = 0, dice[MAXN];
    if (gen_run(v, me, opp, numbers, nn, left, allowed, g) == 0) {
        node = gen_find(g, e.cme, e.copp);
        all = gen_max(g) == nn;
        if (node >= 0 && used && !all) nd = gen_path_dice(g, node, dice);
    }
    gen_release(g);
    if (node == -2) { PyErr_Clear(); return 0; }
    if (node < 0) return 0;
    memcpy(me, e.cme, NPT); memcpy(opp, e.copp, NPT);
    if (used) {
        if (all) { memcpy(used, numbers, sizeof(int) * nn); *nused = nn; }
        else { if (nd > nn) return 0; memcpy(used, dice, sizeof(int) * nd); *nused = nd; }
    }
    return 1;
}

/* a ROLL action's dice, larger first: 1, or 0 when they are not two dice 1-6 (Python's finding) */
static int roll_dice(PyObject *a, int *d1, int *d2) {
    PyObject *dice = action_slot(a, AK_DICE);
    dice = dice ? Py_NewRef(dice) : slot_attr(a, S_dice);
    if (!dice) { PyErr_Clear(); return 0; }
    long x = -1, y = -1;
    if (PyTuple_Check(dice) && PyTuple_GET_SIZE(dice) == 2
            && (!slot_long_value(PyTuple_GET_ITEM(dice, 0), &x) || !slot_long_value(PyTuple_GET_ITEM(dice, 1), &y)))
        x = -1;
    Py_DECREF(dice);
    if (x < 1 || x > 6 || y < 1 || y > 6) return 0;
    *d1 = x >= y ? (int)x : (int)y;
    *d2 = x >= y ? (int)y : (int)x;
    return 1;
}

/* the steps of a play (a list of Step) into pairs and hit marks: 1, or 0 when they are not plain (Python's) */
static int read_steps(PyObject *steps, int pairs[4][2], int *hit, int *ns) {
    if (!steps || !PyList_Check(steps)) return 0;
    Py_ssize_t n = PyList_GET_SIZE(steps);
    if (n > 4) return 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *st = PyList_GET_ITEM(steps, k);
        long src, dst;
        int h = -2;
        if (Py_TYPE(st) != StepMap.type) {
            PyObject *const names[3] = {S_hit, S_src, S_dst};
            slot_map(&StepMap, Py_TYPE(st), names, 3);
        }
        /* (a Step: its three slots read at their offsets) */
        PyObject *hv = slot_at(&StepMap, st, 0), *sv = slot_at(&StepMap, st, 1), *dv = slot_at(&StepMap, st, 2);
        if ((hv == Py_True || hv == Py_False) && sv && dv && slot_long_value(sv, &src) && slot_long_value(dv, &dst)) {
            if (src < -1000 || src > 1000 || dst < -1000 || dst > 1000) return 0;
            h = hv == Py_True;
        }
        if (h == -2) {                          /* (anything else, as attr_true and attr_long read it) */
            h = slot_truth_of(st, S_hit, hv);
            if (h < 0 || !attr_long_of(st, S_src, sv, -1000, 1000, &src)
                    || !attr_long_of(st, S_dst, dv, -1000, 1000, &dst))
                return 0;
        }
        pairs[k][0] = (int)src; pairs[k][1] = (int)dst; hit[k] = h;
    }
    *ns = (int)n;
    return 1;
}

/* the head allowance of a roll's play (Rules.start_turn): two on a player's first turn with a double of
 * first_doubles, else one */
static inline int first_allowance(const Variant *v, int first, int d1, int d2) {
    return first && d1 == d2 && (v->first_doubles >> d1 & 1) ? 2 : 1;
}

/* what quick_roll reads of a ROLL action: its dice (larger first) and its written steps */
typedef struct {
    int d1, d2;
    int pairs[4][2], hit[4], ns;
} RollIn;

/* the RollIn of the ROLL action a: 1, or 0 when it is not a plain roll (a mark, parts, dice or steps the core does not
 * read: Python's) */
static int roll_in_object(PyObject *a, RollIn *in) {
    if (a_true(a, AK_UNPLAYED, S_unplayed) != 0 || a_true(a, AK_ILLEGAL, S_illegal_mark) != 0
            || a_true(a, AK_SEGMENTS, S_segments) != 0)
        return 0;
    if (!roll_dice(a, &in->d1, &in->d2)) return 0;
    PyObject *steps = action_slot(a, AK_STEPS);
    steps = steps ? Py_NewRef(steps) : slot_attr(a, S_steps);
    if (!steps) { PyErr_Clear(); return 0; }
    int read = read_steps(steps, in->pairs, in->hit, &in->ns);
    Py_DECREF(steps);
    return read;
}

/* the RollIn of a packed cell (_packed.h: a roll the .mat reader read, no mark, no parts): 1, or 0 as above */
static int roll_in_view(const PackedView *pv, RollIn *in) {
    if (pv->d1 < 1 || pv->d1 > 6 || pv->d2 < 1 || pv->d2 > 6 || pv->nsteps > 4) return 0;
    in->d1 = pv->d1 >= pv->d2 ? pv->d1 : pv->d2;
    in->d2 = pv->d1 >= pv->d2 ? pv->d2 : pv->d1;
    in->ns = pv->nsteps;
    for (int k = 0; k < pv->nsteps; k++) {
        in->pairs[k][0] = pv->steps[k][0];
        in->pairs[k][1] = pv->steps[k][1];
        in->hit[k] = pv->steps[k][2] != 0;
    }
    return 1;
}

static int quick_roll_in(const Variant *v, const RollIn *in, uint8_t *me, uint8_t *opp, int *exact, int plain,
                         int route[4][3], int *nroute, int ending, int first);

/* one ROLL action of the run: 1 taken (me and opp of the roller changed in place), 0 not taken (Python
 * decides: nothing changed), -1 an exception; ending: a play that bears off the roller's last checker is
 * taken too (one_roll: the game's end is then Python's) */
static int quick_roll(const Variant *v, PyObject *a, uint8_t *me, uint8_t *opp, int *exact, int plain,
                      int route[4][3], int *nroute, int ending, int first) {
    RollIn in;
    if (!roll_in_object(a, &in)) return 0;
    return quick_roll_in(v, &in, me, opp, exact, plain, route, nroute, ending, first);
}

/* quick_roll of what was read of the roll (RollIn: from its object, or from a packed cell) */
static int quick_roll_in(const Variant *v, const RollIn *in, uint8_t *me, uint8_t *opp, int *exact, int plain,
                         int route[4][3], int *nroute, int ending, int first) {
    int d1 = in->d1, d2 = in->d2;
    if (side_empty(me) || side_empty(opp)) return 0;
    if (plain && d1 == d2) return 0;          /* a double: a chain may follow (Python's) */
    int pairs[4][2], hit_at[4], ns = in->ns, bear_off = 1;
    memcpy(pairs, in->pairs, sizeof pairs);
    memcpy(hit_at, in->hit, sizeof hit_at);
    int numbers[4], nn = d1 == d2 ? 4 : 2;
    for (int i = 0; i < nn; i++) numbers[i] = d1 == d2 ? d1 : (i ? d2 : d1);
    int allowed = first_allowance(v, first, d1, d2);
    *exact = 0;
    if (ns == 0) {            /* a dance: no number of the roll moves any checker */
        if (plain) return 0;  /* its numbers are handed over (Python's) */
        uint8_t out[64][2];
        if (single_steps(v, me, opp, d1, 0, allowed, out)) return 0;
        if (d1 != d2 && single_steps(v, me, opp, d2, 0, allowed, out)) return 0;
        *exact = 1;           /* nothing written, nothing playable: the written play (none) is the route */
        return 1;             /* (its route: no step, *nroute 0 as asked) */
    }
    for (int k = 0; k < ns; k++) if (hit_at[k]) bear_off = 0;
    uint8_t m[NPT], o[NPT];
    int used[8], nused, hits, full[4], hitv[4] = {0};
    memcpy(m, me, NPT); memcpy(o, opp, NPT);
    memcpy(full, numbers, sizeof full);
    if (ns != nn || !exact_walk(v, m, o, numbers, nn, pairs, ns, 0, allowed, bear_off, used, &nused, &hits, hitv)) {
        /* judge.judge: the written steps in any split into numbers (a combined move, a checker borne off
         * with a larger number, ...) */
        memcpy(m, me, NPT); memcpy(o, opp, NPT);
        if (!every_number(v, m, o, full, nn, pairs, hit_at, ns, !plain, 0, allowed, NULL, NULL)) return 0;
        if (*nroute == 0) {     /* asked for: judge.route's (which reads no "*": it walks the steps, with the
                                 * allowance of any turn but a first: normal.py asks for it so) */
            int k = find_route(v, me, opp, numbers, nn, pairs, ns, m, o, route);
            *nroute = k ? k : -1;
        }
    } else {
        *exact = ns;     /* one written step per number, in order: the record's own route */
        for (int k = 0; k < ns; k++) { route[k][0] = pairs[k][0]; route[k][1] = pairs[k][1]; route[k][2] = hitv[k]; }
        *nroute = ns;
    }
    if (!ending && side_empty(m)) return 0;   /* the roller bore off the last checker: the game's end is Python's */
    memcpy(me, m, NPT); memcpy(opp, o, NPT);
    return 1;
}

/* -- Gul bara's turns of several parts (replay.turns.walk_turn with engine.gulbara.GulBaraTurn) ------------------ */

enum { P_ROLL, P_CHAIN, P_HANDOVER };
#define MAX_PARTS 24

typedef struct {
    int kind, player, nd, ns;
    int dice[4];
    int pairs[4][2], hit[4];
} WPart;

static PyObject *S_kind_chain, *S_kind_handover;

/* a written chain or handover part (a Segment): 1, or 0 when it is not one read here */
static int read_segment(PyObject *seg, WPart *w) {
    PyObject *kind = slot_attr(seg, S_kind);
    if (!kind) { PyErr_Clear(); return 0; }
    int r = PyUnicode_Check(kind) ? PyUnicode_Compare(kind, S_kind_chain) : -1;
    int h = PyUnicode_Check(kind) ? PyUnicode_Compare(kind, S_kind_handover) : -1;
    Py_DECREF(kind);
    if (PyErr_Occurred()) { PyErr_Clear(); return 0; }
    if (r == 0) w->kind = P_CHAIN;
    else if (h == 0) w->kind = P_HANDOVER;
    else return 0;
    long pl;
    if (!attr_long(seg, S_player, 0, 1, &pl)) return 0;
    w->player = (int)pl;
    PyObject *dice = slot_attr(seg, S_dice);
    if (!dice) { PyErr_Clear(); return 0; }
    w->nd = 0;
    if (dice != Py_None) {
        if (!PyTuple_Check(dice) || PyTuple_GET_SIZE(dice) > 4) { Py_DECREF(dice); return 0; }
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(dice); k++) {
            PyObject *d = PyTuple_GET_ITEM(dice, k);
            long x = PyLong_Check(d) ? PyLong_AsLong(d) : -1;
            if (x < 1 || x > 6) { PyErr_Clear(); Py_DECREF(dice); return 0; }
            w->dice[w->nd++] = (int)x;
        }
    }
    Py_DECREF(dice);
    PyObject *steps = slot_attr(seg, S_steps);
    if (!steps) { PyErr_Clear(); return 0; }
    int ok = read_steps(steps, w->pairs, w->hit, &w->ns);
    Py_DECREF(steps);
    return ok;
}

/* turns._later: a written part of a double above `dbl` (its numbers all one number, higher), or one that
 * says nothing of its numbers */
static int later_part(const WPart *c, int dbl) {
    if (!c->nd) return 1;
    for (int i = 1; i < c->nd; i++) if (c->dice[i] != c->dice[0]) return 0;
    return c->dice[0] > dbl;
}

static int same_numbers(const int *a, int na, const int *b, int nb) {     /* Counter(a) == Counter(b) */
    if (na != nb) return 0;
    int c[7] = {0};
    for (int i = 0; i < na; i++) c[a[i]]++;
    for (int i = 0; i < nb; i++) if (--c[b[i]] < 0) return 0;
    return 1;
}

/* whether any of the numbers moves a checker (generate's max_dice > 0) */
static int can_play(const Variant *v, const uint8_t *me, const uint8_t *opp, const int *numbers, int nn, int left,
                    int allowed) {
    uint8_t out[64][2];
    for (int i = 0; i < nn; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) if (numbers[j] == numbers[i]) { seen = 1; break; }
        if (!seen && single_steps(v, me, opp, numbers[i], left, allowed, out)) return 1;
    }
    return 0;
}

/* judge.judge of a part written in its place, when its play is legal: 1 with (me, opp) changed and the
 * numbers used (judge's Verdict.used); 0 when Python must judge it (a finding, a hit on the way) */
static int judge_part(const Variant *v, uint8_t *me, uint8_t *opp, const int *numbers, int nn, int left,
                      int allowed, WPart *w, int *used, int *nused) {
    if (w->ns == 0) {                      /* nothing written: legal where nothing can be played */
        if (can_play(v, me, opp, numbers, nn, left, allowed)) return 0;
        *nused = 0;
        return 1;
    }
    int bear_off = 1;
    for (int k = 0; k < w->ns; k++) if (w->hit[k]) bear_off = 0;
    uint8_t m[NPT], o[NPT];
    memcpy(m, me, NPT); memcpy(o, opp, NPT);
    if (w->ns == nn) {                     /* judge.as_written: one written step per number, in order */
        int nums[4], u[8], nu, hits;
        memcpy(nums, numbers, sizeof(int) * nn);
        if (exact_walk(v, m, o, nums, nn, w->pairs, w->ns, left, allowed, bear_off, u, &nu, &hits, NULL)) {
            memcpy(me, m, NPT); memcpy(opp, o, NPT);
            memcpy(used, u, sizeof(int) * nu);
            *nused = nu;
            return 1;
        }
        memcpy(m, me, NPT); memcpy(o, opp, NPT);
    }
    if (!every_number(v, m, o, numbers, nn, w->pairs, w->hit, w->ns, 1, left, allowed, used, nused)) return 0;
    memcpy(me, m, NPT); memcpy(opp, o, NPT);
    return 1;
}

/* One Gul bara roll and its parts, every part in its place and legal and every part left out one that
 * could not be played (turns.walk_turn yields no problem): 1 taken (pos changed), 0 Python's, -1 an
 * exception.  `recs` (or NULL): each written part taken, in order (*nrec of them), for the observer.  The driver is GulBaraTurn's: the roll; the numbers the roller could not use handed over to
 * the opponent (head allowance of one); after a double, from roll `chain_from` of the game, every higher
 * double up to 6-6 played by the roller (the head state of the roll held across the chain), each followed
 * by its handover.  first: the roller's first turn (the roll's head allowance, held across the chain, is
 * first_doubles'; a handover's is one); ending: the turn may end with a side's last checker borne off (the
 * driver then asks for nothing more: one_gul_roll), which otherwise is Python's. */
typedef struct {                             /* a written part taken, for the observer: its numbers, the board after */
    int nn, numbers[4];
    uint8_t after[2][NPT];
} PartRec;

static int gul_roll(const Variant *v, PyObject *a, int p, uint8_t pos[2][NPT], int rolls, int chain_from,
                    PartRec *recs, int *nrec, int first, int ending) {
    if (attr_true(a, S_unplayed) != 0 || attr_true(a, S_illegal_mark) != 0) return 0;
    int d1, d2;
    if (!roll_dice(a, &d1, &d2)) return 0;
    /* the written parts: the roller's play of the roll, then the segments */
    WPart parts[MAX_PARTS];
    int np = 1;
    parts[0].kind = P_ROLL; parts[0].player = p; parts[0].nd = 0;
    PyObject *steps = slot_attr(a, S_steps);
    if (!steps) { PyErr_Clear(); return 0; }
    int ok = read_steps(steps, parts[0].pairs, parts[0].hit, &parts[0].ns);
    Py_DECREF(steps);
    if (!ok) return 0;
    PyObject *segs = slot_attr(a, S_segments);
    if (!segs) { PyErr_Clear(); return 0; }
    if (!PyList_Check(segs) || PyList_GET_SIZE(segs) >= MAX_PARTS) { Py_DECREF(segs); return 0; }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(segs); k++) {
        if (!read_segment(PyList_GET_ITEM(segs, k), &parts[np])) { Py_DECREF(segs); return 0; }
        np++;
    }
    Py_DECREF(segs);
    uint8_t w[2][NPT];
    memcpy(w, pos, sizeof w);
    int roll_number = rolls + 1;
    int dbl = d1 == d2 ? d1 : 0;
    int chain = dbl && chain_from > 0 && roll_number >= chain_from;
    int phase = P_ROLL, q = 0, rest[4], nrest = 0, head0 = 0;
    int allowed = first_allowance(v, first, d1, d2);      /* the roll's, held across the chain; a handover's is one */
    for (;;) {
        if (side_empty(w[0]) || side_empty(w[1])) {              /* a side bore off its last checker */
            if (!ending) return 0;                              /* (Python's) */
            break;                                              /* the driver asks for nothing more */
        }
        int side, numbers[4], nn, left = 0;
        if (phase == P_ROLL) {
            side = p;
            nn = d1 == d2 ? 4 : 2;
            for (int i = 0; i < nn; i++) numbers[i] = d1 == d2 ? d1 : (i ? d2 : d1);
            head0 = v->head ? w[p][v->head - 1] : 0;
        } else if (phase == P_HANDOVER) {
            side = 1 - p;
            nn = nrest;
            memcpy(numbers, rest, sizeof rest);
        } else {
            side = p;
            nn = 4;
            for (int i = 0; i < 4; i++) numbers[i] = dbl;
            left = head0 - (v->head ? w[p][v->head - 1] : 0);
            if (left < 0) return 0;
        }
        WPart *part = NULL;
        if (phase == P_ROLL) {
            part = &parts[q++];
        } else if (q < np) {
            WPart *c = &parts[q];
            /* a handover where a chain double is asked for: one of a later double (then this double is left
             * out), else one nothing asks for (a finding: Python's) */
            if (phase == P_CHAIN && c->kind == P_HANDOVER && !later_part(c, dbl - 1)) return 0;
            /* the part asked for, unless it belongs to a later double (this one is then left out) */
            if (c->kind == phase && !(d1 == d2 && c->nd && later_part(c, dbl))) {
                part = c;
                q++;
            }
        }
        int used[8], nused = 0, allow = side == p ? allowed : 1;
        uint8_t *me = w[side], *opp = w[1 - side];
        if (part == NULL) {                  /* left out: only where nothing could be played */
            if (can_play(v, me, opp, numbers, nn, left, allow)) return 0;
        } else {
            if (part->player != side) return 0;
            if (phase != P_ROLL && part->nd && !same_numbers(part->dice, part->nd, numbers, nn)) return 0;
            if (!judge_part(v, me, opp, numbers, nn, left, allow, part, used, &nused)) return 0;
            if (recs) {                      /* (at most one record per written part: q counts them) */
                PartRec *r = &recs[(*nrec)++];
                r->nn = nn;
                memcpy(r->numbers, numbers, sizeof(int) * nn);
                memcpy(r->after, w, sizeof w);
            }
        }
        if (side == p) {                     /* the roller's part: what it left unused is handed over */
            int c[7] = {0};
            for (int i = 0; i < nn; i++) c[numbers[i]]++;
            for (int i = 0; i < nused; i++) if (used[i] < 1 || used[i] > 6 || --c[used[i]] < 0) return 0;
            nrest = 0;
            for (int d = 6; d >= 1; d--) while (c[d]--) rest[nrest++] = d;     /* larger first */
            if (nrest) { phase = P_HANDOVER; continue; }
        }
        if (chain && dbl < 6) { dbl++; phase = P_CHAIN; }
        else break;
    }
    if (q < np) return 0;                    /* parts written after the turn ended: Python's findings */
    if (!ending && (side_empty(w[0]) || side_empty(w[1]))) return 0;
    memcpy(pos, w, sizeof w);
    return 1;
}

/* whether roll action `a` has further parts written (a non-empty list of segments) */
static int has_parts(PyObject *a) {
    PyObject *segs = slot_attr(a, S_segments);
    if (!segs) { PyErr_Clear(); return 0; }
    int r = PyList_Check(segs) && PyList_GET_SIZE(segs) > 0;
    Py_DECREF(segs);
    return r;
}

/* ((numbers, side0, side1), ...) of the written parts taken: each part's numbers (the turn driver's) and the
 * board after it (a side's tuple shared with the part before when that side did not move) */
static PyObject *part_records(const PartRec *recs, int nrec) {
    PyObject *out = PyTuple_New(nrec);
    if (!out) return NULL;
    PyObject *prev[2] = {NULL, NULL};
    for (int k = 0; k < nrec; k++) {
        const PartRec *r = &recs[k];
        PyObject *nums = PyTuple_New(r->nn);
        if (!nums) { Py_DECREF(out); return NULL; }
        for (int i = 0; i < r->nn; i++) { Py_INCREF(SMALL[r->numbers[i]]); PyTuple_SET_ITEM(nums, i, SMALL[r->numbers[i]]); }
        PyObject *sides[2];
        for (int s = 0; s < 2; s++)
            sides[s] = k && prev[s] ? side_or_same(r->after[s], recs[k - 1].after[s], prev[s]) : side_tuple(r->after[s]);
        if (!sides[0] || !sides[1]) { Py_XDECREF(sides[0]); Py_XDECREF(sides[1]); Py_DECREF(nums); Py_DECREF(out); return NULL; }
        PyObject *item = PyTuple_Pack(3, nums, sides[0], sides[1]);
        Py_DECREF(nums); Py_DECREF(sides[0]); Py_DECREF(sides[1]);
        if (!item) { Py_DECREF(out); return NULL; }
        prev[0] = PyTuple_GET_ITEM(item, 1);
        prev[1] = PyTuple_GET_ITEM(item, 2);
        PyTuple_SET_ITEM(out, k, item);
    }
    return out;
}

/* a play's route as judge.route gives it, ((src, dst, hit), ...), from the batch's steps; None for nroute < 0 (none
 * found); NULL with an exception */
static PyObject *route_tuple(int route[][3], int nroute) {
    if (nroute < 0) Py_RETURN_NONE;
    PyObject *rt = PyTuple_New(nroute);
    for (int k = 0; rt && k < nroute; k++) {
        PyObject *stp = Py_BuildValue("(iiO)", route[k][0], route[k][1], route[k][2] ? Py_True : Py_False);
        if (!stp) { Py_CLEAR(rt); break; }
        PyTuple_SET_ITEM(rt, k, stp);
    }
    return rt;
}

/* The replay's run of plainly legal rolls (replay.game.play; turns.quick_turn's cases, on every turn that
 * is not a player's first), see the method's doc. */
static PyObject *CoreRules_quick_rolls(CoreRules *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *actions, *side0, *side1, *roll_kind;
    Py_ssize_t i;
    PyObject *trace = Py_None, *cube_in = Py_None, *routes = Py_None;
    int last_player, rolled[2], rolls, plain = 0, parts = 0, sparse = 0;
    uint8_t pos[2][NPT], pos0[2][NPT], prev[2][NPT], before[2][NPT];
    if (!fast_args("quick_rolls", args, nargs, "OnOOiiiiO|OpipOO", &actions, &i, &side0, &side1, &last_player, &rolls,
                   &rolled[0], &rolled[1], &roll_kind, &trace, &plain, &parts, &sparse, &cube_in, &routes))
        return NULL;
    /* the actions: a list, or packed (those not made yet read from their cells) */
    int packed = PACKED && Py_IS_TYPE(actions, PACKED->type);
    if (!packed && !PyList_Check(actions)) {
        PyErr_SetString(PyExc_TypeError, "quick_rolls: actions is a list or packed");
        return NULL;
    }
    if (trace != Py_None && !PyList_Check(trace)) {
        PyErr_SetString(PyExc_TypeError, "trace is a list or None");
        return NULL;
    }
    /* routes (a dict, with a sparse trace): the route of each roll taken that is not exact and not of parts goes there,
     * index -> route, instead of the trace, where the batch found one (the observer takes routes: Events.ROUTES) */
    if (routes != Py_None && (!PyDict_Check(routes) || !sparse || trace == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "routes is a dict, given only with a sparse trace");
        return NULL;
    }
    /* the cube's plain actions (replay.cube.on_double and on_take where they find nothing), without an observer
     * or with a sparse one (told nothing of a double or a take): cube_in = (DOUBLE, TAKE, cube, owner or -1, the
     * last roller or -1, the cube limit or 0), given only where the cube is in play, the game is known not to be
     * the Crawford game and no double waits for an answer */
    PyObject *k_double = NULL, *k_take = NULL, *pending = NULL, *cubes = NULL;
    long cube = 1, owner = -1, last_roller = -1, limit = 0;
    int turned = 0;
    if (cube_in != Py_None) {
        if ((trace != Py_None && !sparse) || !PyArg_ParseTuple(cube_in, "OOllll", &k_double, &k_take, &cube, &owner,
                                                               &last_roller, &limit)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "cube is given only without a trace or a sparse one");
            return NULL;
        }
    }

    if (!read_side(side0, pos0[0]) || !read_side(side1, pos0[1])) return unsupported();
    memcpy(pos, pos0, sizeof pos);
    memcpy(prev, pos0, sizeof prev);
    PyObject *told[2] = {side0, side1};      /* the sides' tuples last told (borrowed from the caller or trace) */
    Py_ssize_t n = packed ? PACKED->length(actions) : PyList_GET_SIZE(actions), j = i;
    for (; j < n; j++) {
        /* a side bore off its last checker (the run's last roll, taken with the game's end Python's): the run ends */
        if (side_empty(pos[0]) || side_empty(pos[1])) break;
        /* a packed action not made yet is read from its cell (pv), any other from its object (a); Gul bara's turns
         * of parts read their object */
        PackedView pv;
        int isv = packed && parts == 0 && PACKED->view(actions, j, &pv);
        PyObject *a = isv ? NULL : packed ? PACKED->item(actions, j) : PyList_GET_ITEM(actions, j);
        if (!isv && !a) { Py_XDECREF(cubes); return NULL; }
        if (isv ? pv.kind != roll_kind : !a_is(a, AK_KIND, S_kind, roll_kind)) {
            long p;
            if (k_double == NULL) break;
            int dbl = isv ? pv.kind == k_double : a_is(a, AK_KIND, S_kind, k_double);
            if (!dbl && !(isv ? pv.kind == k_take : a_is(a, AK_KIND, S_kind, k_take))) break;
            if (isv) p = pv.player;
            else if (!a_long(a, AK_PLAYER, S_player, 0, 1, &p)) break;
            if (dbl) {
                /* on_double without a finding: the doubler may (owns the cube or nobody does), nothing waits, the
                 * last action is not the doubler's roll and the opponent rolled last, the limit allows it, the
                 * value written is the double's */
                if (pending || (owner >= 0 && owner != p) || last_player == p || last_roller != 1 - p
                        || (limit > 0 && cube * 2 > limit) || cube >= (1L << 29))   /* (doubled, still a long) */
                    break;
                int plain_value;
                if (isv) {
                    plain_value = !pv.has_value || pv.value == cube * 2;
                } else {
                    PyObject *val = slot_attr(a, S_value);
                    if (!val) { PyErr_Clear(); break; }
                    plain_value = val == Py_None || (PyLong_Check(val) && PyLong_AsLong(val) == cube * 2);
                    Py_DECREF(val);
                    if (PyErr_Occurred()) PyErr_Clear();      /* (a value past a C long: not the double's) */
                }
                if (!plain_value) break;
                /* (the double waiting is given back: its object, made here when it was packed) */
                pending = isv ? PACKED->item(actions, j) : a;
                if (!pending) { Py_XDECREF(cubes); return NULL; }
            } else {
                /* on_take without a finding: the opponent's double waits */
                if (!pending) break;
                long q;
                if (!attr_long(pending, S_player, 0, 1, &q) || q == p) break;
                pending = NULL;
                cube *= 2;
                owner = p;
                turned = 1;
            }
            if (!cubes && !(cubes = PyList_New(0))) return NULL;
            PyObject *at = PyLong_FromSsize_t(j);
            int err = !at || PyList_Append(cubes, at) < 0;
            Py_XDECREF(at);
            if (err) { Py_DECREF(cubes); return NULL; }
            last_player = -1;
            continue;
        }
        long p;
        if (pending) break;        /* a roll while a double waits: on_roll's finding */
        /* a player's first turn: Python's where the head rule makes it special (Rules.start_turn) and the core
         * is not given the allowance */
        if (isv) p = pv.player;
        else if (!a_long(a, AK_PLAYER, S_player, 0, 1, &p)) break;
        if (p == last_player) break;
        int first = rolled[p] == 0 && self->v.head;
        if (first && !self->v.first_turns) break;
        /* nroute: 0 on the way in asks for the play's route; its steps on the way out, -1 none found */
        int exact = 0, route[4][3], nroute = trace != Py_None ? 0 : -1;
        /* the game's opening roll only as a plain roll where the rules forbid a double there (a finding) */
        /* Gul bara's turns of several parts: every turn without an observer; with one (the trace), the turns
         * with further parts written and those quick_roll does not take (as walk_turn after quick_turn) */
        int gul = parts > 0 && rolls >= 1 && (trace == Py_None || has_parts(a));
        PartRec recs[MAX_PARTS];
        int nrec = 0;
        if (sparse && trace != Py_None) memcpy(before, pos, sizeof before);
        RollIn in;
        int r = gul ? gul_roll(&self->v, a, (int)p, pos, rolls, parts, trace != Py_None ? recs : NULL, &nrec, first, 0)
                    : !(isv ? roll_in_view(&pv, &in) : roll_in_object(a, &in)) ? 0
                    : quick_roll_in(&self->v, &in, pos[p], pos[1 - p], &exact,
                                    plain || (rolls < 1 && !self->v.opening_doubles), route, &nroute, parts == 0, first);
        if (r == 0 && !gul && parts > 0 && rolls >= 1) {
            gul = 1;
            exact = 0;
            r = gul_roll(&self->v, a, (int)p, pos, rolls, parts, recs, &nrec, first, 0);
        }
        if (gul) nroute = -1;             /* (a turn of parts has no route of its own) */
        if (r < 0) return NULL;
        if (!r) break;
        rolled[p]++;
        rolls++;
        last_player = (int)p;
        last_roller = p;
        if (sparse && trace != Py_None && exact && !gul) continue;   /* (sparse: an exact roll is not told) */
        if (routes != Py_None && !gul && nroute >= 0) {        /* (its route in the observer's dict, not traced) */
            PyObject *rt = route_tuple(route, nroute), *at = rt ? PyLong_FromSsize_t(j) : NULL;
            int err = !at || PyDict_SetItem(routes, at, rt) < 0;
            Py_XDECREF(at);
            Py_XDECREF(rt);
            if (err) { Py_XDECREF(cubes); return NULL; }
            continue;
        }
        if (trace != Py_None) {       /* each action's sides after it, and whether its play was the exact one */
            PyObject *b0 = NULL, *b1 = NULL;      /* sparse: the index and the sides before the roll */
            if (sparse) {
                b0 = side_or_same(before[0], prev[0], told[0]);
                b1 = b0 ? side_or_same(before[1], prev[1], told[1]) : NULL;
                if (!b1) { Py_XDECREF(b0); return NULL; }
                told[0] = b0;             /* (borrowed below from the item that holds them) */
                told[1] = b1;
                memcpy(prev, before, sizeof prev);
            }
            PyObject *t0 = side_or_same(pos[0], prev[0], told[0]);
            PyObject *t1 = t0 ? side_or_same(pos[1], prev[1], told[1]) : NULL;
            PyObject *rt = NULL;          /* the play's route: ((src, dst, hit), ...), as judge.route gives it */
            if (t1) {
                rt = route_tuple(route, nroute);
                if (!rt) { Py_DECREF(t0); Py_DECREF(t1); Py_XDECREF(b0); Py_XDECREF(b1); return NULL; }
            }
            PyObject *item = NULL;
            if (t1 && gul) {              /* (t0, t1, None, False, ((numbers, side0, side1) of each written part, ...),
                                           * first turn) */
                PyObject *pt = part_records(recs, nrec);
                item = pt ? Py_BuildValue("(NNNONO)", t0, t1, rt, Py_False, pt, first ? Py_True : Py_False) : NULL;
                if (!pt) { Py_DECREF(t0); Py_DECREF(t1); Py_DECREF(rt); }
            } else if (t1) {
                item = Py_BuildValue("(NNNO)", t0, t1, rt, exact ? Py_True : Py_False);
            }
            if (!item) { if (!t1) Py_XDECREF(t0); Py_XDECREF(b0); Py_XDECREF(b1); return NULL; }
            /* sparse: (k, before0, before1, item), which holds the item; with the cube, and the cube, its owner
             * (-1: nobody) and the rolls of the game before the roll */
            PyObject *entry = !sparse ? item
                : k_double ? Py_BuildValue("(nNNNlli)", j, b0, b1, item, cube, owner, rolls - 1)
                : Py_BuildValue("(nNNN)", j, b0, b1, item);
            if (!entry) return NULL;
            int err = PyList_Append(trace, entry);
            told[0] = PyTuple_GET_ITEM(item, 0);
            told[1] = PyTuple_GET_ITEM(item, 1);
            Py_DECREF(entry);        /* the trace holds it */
            if (err < 0) return NULL;
            memcpy(prev, pos, sizeof prev);
        }
    }
    PyObject *a = side_or_same(pos[0], prev[0], told[0]);
    PyObject *b = a ? side_or_same(pos[1], prev[1], told[1]) : NULL;
    if (!b) { Py_XDECREF(a); Py_XDECREF(cubes); return NULL; }
    if (cube_in == Py_None) return Py_BuildValue("(nNNii)", j, a, b, rolled[0], rolled[1]);
    /* and the cube: (..., cube, owner or -1, whether it was turned, the double waiting or None, the last roller,
     * the indexes of the cube's actions taken or None) */
    return Py_BuildValue("(nNNiillOOlN)", j, a, b, rolled[0], rolled[1], cube, owner, turned ? Py_True : Py_False,
                         pending ? pending : Py_None, last_roller, cubes ? cubes : Py_NewRef(Py_None));
}

/* One roll as the batch takes it, the game's last roll too (replay.game.on_roll, see the method's doc). */
static PyObject *CoreRules_one_roll(CoreRules *self, PyObject *args) {
    PyObject *a, *me_o, *opp_o;
    int plain, first;
    if (!PyArg_ParseTuple(args, "OOOpp", &a, &me_o, &opp_o, &plain, &first)) return NULL;
    first = first && self->v.head;
    if (first && !self->v.first_turns) Py_RETURN_NONE;     /* a first turn whose allowance the core lacks */
    uint8_t me[NPT], opp[NPT], me0[NPT], opp0[NPT];
    if (!read_side(me_o, me) || !read_side(opp_o, opp)) Py_RETURN_NONE;
    memcpy(me0, me, NPT);
    memcpy(opp0, opp, NPT);
    int exact = 0, route[4][3], nroute = -1;
    int r = quick_roll(&self->v, a, me, opp, &exact, plain, route, &nroute, 1, first);
    if (r < 0) return NULL;
    if (!r) Py_RETURN_NONE;
    PyObject *m = side_or_same(me, me0, me_o);
    PyObject *o = m ? side_or_same(opp, opp0, opp_o) : NULL;
    if (!o) { Py_XDECREF(m); return NULL; }
    return Py_BuildValue("(NNO)", m, o, exact ? Py_True : Py_False);
}

/* The route of a roll played from (me, opp) to (after_me, after_opp) in the roller's numbering, as judge.route
 * gives it where the core finds it (replay.game.route_of); None where Python is to look for it. */
static PyObject *CoreRules_route(CoreRules *self, PyObject *args) {
    PyObject *a, *me_o, *opp_o, *am_o, *ao_o;
    if (!PyArg_ParseTuple(args, "OOOOO", &a, &me_o, &opp_o, &am_o, &ao_o)) return NULL;
    uint8_t me[NPT], opp[NPT], am[NPT], ao[NPT];
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || !read_side(am_o, am) || !read_side(ao_o, ao))
        Py_RETURN_NONE;
    int exact = 0, route[4][3], nroute = 0;
    /* (judge.route reads no turn state: the allowance of any turn but a first, a double's four numbers) */
    int r = quick_roll(&self->v, a, me, opp, &exact, 0, route, &nroute, 1, 0);
    if (r < 0) return NULL;
    if (!r || nroute < 0 || memcmp(me, am, NPT) != 0 || memcmp(opp, ao, NPT) != 0) Py_RETURN_NONE;
    return route_tuple(route, nroute);
}

/* One Gul bara roll with its parts as the batch takes it, the game's last roll too (replay.game.on_roll). */
static PyObject *CoreRules_one_gul_roll(CoreRules *self, PyObject *args) {
    PyObject *a, *s0, *s1;
    int p, rolls, chain_from, first;
    if (!PyArg_ParseTuple(args, "OiOOiip", &a, &p, &s0, &s1, &rolls, &chain_from, &first)) return NULL;
    if ((p != 0 && p != 1) || rolls < 1 || chain_from < 1) Py_RETURN_NONE;
    first = first && self->v.head;
    if (first && !self->v.first_turns) Py_RETURN_NONE;
    uint8_t pos[2][NPT], pos0[2][NPT];
    if (!read_side(s0, pos[0]) || !read_side(s1, pos[1])) Py_RETURN_NONE;
    memcpy(pos0, pos, sizeof pos);
    PartRec recs[MAX_PARTS];
    int nrec = 0;
    int r = gul_roll(&self->v, a, p, pos, rolls, chain_from, recs, &nrec, first, 1);
    if (r < 0) return NULL;
    if (!r) Py_RETURN_NONE;
    PyObject *t0 = side_or_same(pos[0], pos0[0], s0);
    PyObject *t1 = t0 ? side_or_same(pos[1], pos0[1], s1) : NULL;
    PyObject *pt = t1 ? part_records(recs, nrec) : NULL;
    if (!pt) { Py_XDECREF(t0); Py_XDECREF(t1); return NULL; }
    return Py_BuildValue("(NNN)", t0, t1, pt);
}

/* -- generation --------------------------------------------------------------------------------- */

typedef struct {
    uint8_t p[2 * NPT];      /* me, opp */
    uint8_t left;            /* the head count of the turn state: with p, the frontier's key */
    uint8_t src, dst, die;   /* the step that reached it */
    int32_t parent;          /* the node it was reached from (-1: the start) */
} Node;

#define KEY_FULL (2 * NPT + 1)     /* position and turn state */
#define KEY_POS (2 * NPT)          /* position only */

typedef struct {
    int32_t *slots;          /* node index + 1; 0 empty */
    size_t cap, used;
} Table;

typedef struct {
    Node *nodes;
    size_t n, cap;
} Arena;

static int arena_push(Arena *a, const Node *x) {
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 256;
        Node *p = PyMem_Realloc(a->nodes, cap * sizeof(Node));
        if (!p) { PyErr_NoMemory(); return -1; }
        a->nodes = p; a->cap = cap;
    }
    a->nodes[a->n] = *x;
    return (int)a->n++;
}

static inline uint64_t hash_key(const uint8_t *k, int len) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i++) { h ^= k[i]; h *= 1099511628211ULL; }
    return h ^ (h >> 29);
}

static int table_init(Table *t, size_t cap) {
    t->slots = PyMem_Calloc(cap, sizeof(int32_t));
    if (!t->slots) { PyErr_NoMemory(); return -1; }
    t->cap = cap; t->used = 0;
    return 0;
}

static void table_free(Table *t) { PyMem_Free(t->slots); t->slots = NULL; t->cap = t->used = 0; }

static int table_grow(Table *t, const Arena *a, int len) {
    Table nt;
    if (table_init(&nt, t->cap * 2) < 0) return -1;
    for (size_t i = 0; i < t->cap; i++) {
        int32_t s = t->slots[i];
        if (!s) continue;
        uint64_t h = hash_key(a->nodes[s - 1].p, len);
        size_t j = h & (nt.cap - 1);
        while (nt.slots[j]) j = (j + 1) & (nt.cap - 1);
        nt.slots[j] = s;
    }
    nt.used = t->used;
    table_free(t);
    *t = nt;
    return 0;
}

/* the node of the arena with the key of `key` (len bytes from Node.p), or -1 */
static int32_t table_find(const Table *t, const Arena *a, const uint8_t *key, int len, size_t *slot) {
    size_t j = hash_key(key, len) & (t->cap - 1);
    while (t->slots[j]) {
        int32_t s = t->slots[j] - 1;
        if (memcmp(a->nodes[s].p, key, len) == 0) { *slot = j; return s; }
        j = (j + 1) & (t->cap - 1);
    }
    *slot = j;
    return -1;
}

static int table_add(Table *t, const Arena *a, size_t slot, int32_t node, int len) {
    t->slots[slot] = node + 1;
    t->used++;
    if (t->used * 2 > t->cap) return table_grow(t, a, len);
    return 0;
}

static void table_clear(Table *t) { memset(t->slots, 0, t->cap * sizeof(int32_t)); t->used = 0; }

typedef struct {
    int32_t *items;
    size_t n, cap;
} IntList;

static int list_push(IntList *l, int32_t x) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        int32_t *p = PyMem_Realloc(l->items, cap * sizeof(int32_t));
        if (!p) { PyErr_NoMemory(); return -1; }
        l->items = p; l->cap = cap;
    }
    l->items[l->n++] = x;
    return 0;
}

/* The distinct orders of the numbers, as core._orders gives them: one for a multiset of one number, else
 * the permutations (of positions, in lexicographic order) with repeats left out. */
static int orders_of(const int *nums, int n, int out[][MAXN]) {
    int distinct = 1;
    for (int i = 1; i < n; i++) if (nums[i] != nums[0]) { distinct = 0; break; }
    if (distinct) { memcpy(out[0], nums, n * sizeof(int)); return 1; }
    int idx[MAXN], count = 0;
    for (int i = 0; i < n; i++) idx[i] = i;
    for (;;) {
        int cand[MAXN], dup = 0;
        for (int i = 0; i < n; i++) cand[i] = nums[idx[i]];
        for (int k = 0; k < count && !dup; k++) if (memcmp(out[k], cand, n * sizeof(int)) == 0) dup = 1;
        if (!dup) { memcpy(out[count], cand, n * sizeof(int)); count++; }
        /* next permutation of idx */
        int i = n - 2;
        while (i >= 0 && idx[i] > idx[i + 1]) i--;
        if (i < 0) break;
        int j = n - 1;
        while (idx[j] < idx[i]) j--;
        int tmp = idx[i]; idx[i] = idx[j]; idx[j] = tmp;
        for (int a = i + 1, b = n - 1; a < b; a++, b--) { tmp = idx[a]; idx[a] = idx[b]; idx[b] = tmp; }
    }
    return count;
}

struct Gen {
    Arena arena;
    IntList depth[MAXN + 1];     /* by_depth: the distinct positions of each depth, first path kept */
    int max_dice;
    int larger_only;
    IntList kept;                /* the plays after the larger-die rule (when it applies) */
    int use_kept;
};

static void gen_free(Gen *g) {
    PyMem_Free(g->arena.nodes);
    for (int i = 0; i <= MAXN; i++) PyMem_Free(g->depth[i].items);
    PyMem_Free(g->kept.items);
}

/* The buffers of generation are kept between calls (the interpreter's lock is held throughout): the tables
 * and frontiers, used only inside gen_run, and one Gen, whose nodes the caller reads while it builds Python
 * objects; a call made meanwhile (a finaliser run by the garbage collector) gets a Gen of its own. */
static Table NXT, SEEN[MAXN + 1], BIGS;
static IntList FRONT, NEXTL;
static Gen SCRATCH;
static int SCRATCH_BUSY;

static int table_ready(Table *t) {
    if (t->slots == NULL || t->cap > 1024) {      /* keep the clearing cheap */
        table_free(t);
        return table_init(t, 64);
    }
    table_clear(t);
    return 0;
}

_Static_assert(sizeof(Gen) <= GEN_LOCAL_SIZE, "GEN_LOCAL_SIZE too small");

static Gen *gen_acquire(Gen *local) {
    if (!SCRATCH_BUSY) {
        SCRATCH_BUSY = 1;
        return &SCRATCH;
    }
    memset(local, 0, sizeof(*local));
    return local;
}

static void gen_release(Gen *g) {
    if (g != &SCRATCH) { gen_free(g); return; }
    SCRATCH_BUSY = 0;
    if (g->arena.cap > 65536) { gen_free(g); memset(g, 0, sizeof(*g)); }   /* give back a rare large one */
}

/* core.generate on the C position: fills g (0), or -1 with an exception set */
static int gen_run(const Variant *v, const uint8_t *me, const uint8_t *opp, const int *nums, int n, int left0,
                   int allowed, Gen *g) {
    Table nxt = NXT, seen[MAXN + 1];
    IntList frontier = FRONT, next = NEXTL;
    int orders[720][MAXN];
    uint8_t steps[NPT][2];
    int rc = -1;
    g->arena.n = 0;
    for (int i = 0; i <= MAXN; i++) g->depth[i].n = 0;
    g->kept.n = 0;
    g->max_dice = g->larger_only = g->use_kept = 0;
    for (int i = 0; i <= MAXN; i++) seen[i] = SEEN[i];
    Node root;
    memcpy(root.p, me, NPT); memcpy(root.p + NPT, opp, NPT);
    root.left = (uint8_t)left0; root.src = root.dst = root.die = 0; root.parent = -1;
    if (arena_push(&g->arena, &root) < 0) goto done;
    if (list_push(&g->depth[0], 0) < 0) goto done;
    for (int d = 1; d <= n; d++) if (table_ready(&seen[d]) < 0) goto done;
    if (table_ready(&nxt) < 0) goto done;
    int norders = orders_of(nums, n, orders);
    for (int oi = 0; oi < norders; oi++) {
        frontier.n = 0;
        if (list_push(&frontier, 0) < 0) goto done;
        for (int depth = 1; depth <= n; depth++) {
            int die = orders[oi][depth - 1];
            table_clear(&nxt);
            next.n = 0;
            for (size_t fi = 0; fi < frontier.n; fi++) {
                int32_t at = frontier.items[fi];
                Node cur = g->arena.nodes[at];
                int ns = single_steps(v, cur.p, cur.p + NPT, die, cur.left, allowed, steps);
                for (int s = 0; s < ns; s++) {
                    Node child = cur;
                    apply_step(v, child.p, child.p + NPT, steps[s][0], steps[s][1]);
                    child.left = (uint8_t)after_step(v, cur.left, steps[s][0]);
                    child.src = steps[s][0]; child.dst = steps[s][1]; child.die = (uint8_t)die;
                    child.parent = at;
                    size_t slot;
                    if (table_find(&nxt, &g->arena, child.p, KEY_FULL, &slot) >= 0) continue;
                    int32_t id = arena_push(&g->arena, &child);
                    if (id < 0) goto done;
                    if (table_add(&nxt, &g->arena, slot, id, KEY_FULL) < 0) goto done;
                    if (list_push(&next, id) < 0) goto done;
                }
            }
            if (!next.n) break;
            for (size_t k = 0; k < next.n; k++) {
                int32_t id = next.items[k];
                size_t slot;
                if (table_find(&seen[depth], &g->arena, g->arena.nodes[id].p, KEY_POS, &slot) >= 0) continue;
                if (table_add(&seen[depth], &g->arena, slot, id, KEY_POS) < 0) goto done;
                if (list_push(&g->depth[depth], id) < 0) goto done;
            }
            IntList tmp = frontier; frontier = next; next = tmp;
        }
    }
    g->max_dice = 0;
    for (int d = n; d >= 0; d--) if (g->depth[d].n) { g->max_dice = d; break; }
    int distinct = 0;
    for (int i = 1; i < n; i++) if (nums[i] != nums[0]) { distinct = 1; break; }
    if (g->max_dice == 1 && distinct) {
        int big = nums[0];
        for (int i = 1; i < n; i++) if (nums[i] > big) big = nums[i];
        /* the positions after one step of the larger number from the start */
        Table bigs = BIGS;
        if (table_ready(&bigs) < 0) { BIGS = bigs; goto done; }
        size_t base = g->arena.n;
        int ns = single_steps(v, me, opp, big, left0, allowed, steps);
        for (int s = 0; s < ns; s++) {
            Node child = root;
            apply_step(v, child.p, child.p + NPT, steps[s][0], steps[s][1]);
            size_t slot;
            if (table_find(&bigs, &g->arena, child.p, KEY_POS, &slot) >= 0) continue;
            int32_t id = arena_push(&g->arena, &child);
            if (id < 0 || table_add(&bigs, &g->arena, slot, id, KEY_POS) < 0) { BIGS = bigs; goto done; }
        }
        if (g->arena.n > base) {
            for (size_t k = 0; k < g->depth[1].n; k++) {
                int32_t id = g->depth[1].items[k];
                size_t slot;
                if (table_find(&bigs, &g->arena, g->arena.nodes[id].p, KEY_POS, &slot) >= 0)
                    if (list_push(&g->kept, id) < 0) { BIGS = bigs; goto done; }
            }
            g->use_kept = 1;
            g->larger_only = g->kept.n < g->depth[1].n;
        }
        BIGS = bigs;
    }
    rc = 0;
done:
    NXT = nxt;
    for (int i = 0; i <= MAXN; i++) SEEN[i] = seen[i];
    FRONT = frontier;
    NEXTL = next;
    return rc;
}

/* whether (me, opp) is one of the plays gen_run found (PlaySet.__contains__) */
static int gen_find(const Gen *g, const uint8_t *me, const uint8_t *opp) {
    const IntList *plays = g->use_kept ? &g->kept : &g->depth[g->max_dice];
    for (size_t k = 0; k < plays->n; k++) {
        const Node *node = &g->arena.nodes[plays->items[k]];
        if (memcmp(node->p, me, NPT) == 0 && memcmp(node->p + NPT, opp, NPT) == 0) return (int)plays->items[k];
    }
    return -1;
}

static int gen_max(const Gen *g) {
    return g->max_dice;
}

/* the numbers of the steps of the path kept for a play (the node), in the order played; how many */
static int gen_path_dice(const Gen *g, int node, int *dice) {
    int n = 0, rev[MAXN];
    while (node >= 0 && n < MAXN) {
        const Node *x = &g->arena.nodes[node];
        if (x->parent < 0) break;                       /* (the start) */
        rev[n++] = x->die;
        node = x->parent;
    }
    for (int i = 0; i < n; i++) dice[i] = rev[n - 1 - i];
    return n;
}

/* (src, dst, die), one tuple per distinct step for the module's life (a new reference) */
static PyObject *STEPS[BAR + 1][BAR + 1][7];

static PyObject *step_tuple(int src, int dst, int die) {
    PyObject **at = &STEPS[src][dst][die];
    if (*at == NULL) {
        *at = PyTuple_Pack(3, SMALL[src], SMALL[dst], SMALL[die]);
        if (*at == NULL) return NULL;
    }
    Py_INCREF(*at);
    return *at;
}

static int read_numbers(PyObject *obj, int *nums, int *n) {
    PyObject *seq = PySequence_Fast(obj, "numbers");
    if (!seq) { PyErr_Clear(); return 0; }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > MAXN) { Py_DECREF(seq); return 0; }
    for (Py_ssize_t i = 0; i < k; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) { PyErr_Clear(); Py_DECREF(seq); return 0; }
        if (x < 1 || x > 6) { Py_DECREF(seq); return 0; }
        nums[i] = (int)x;
    }
    *n = (int)k;
    Py_DECREF(seq);
    return 1;
}

/* generate(me, opp, numbers, turn=None) -> (max_dice, plays, larger_only): core.generate's PlaySet fields,
 * the plays a dict {(me, opp): ((src, dst, die), ...)} in the Python order */
static PyObject *CoreRules_generate(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o, *num_o, *turn = Py_None;
    uint8_t me[NPT], opp[NPT];
    int nums[MAXN], n, left, allowed;
    Gen local, *g;
    if (!PyArg_ParseTuple(args, "OOO|O", &me_o, &opp_o, &num_o, &turn)) return NULL;
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || !read_turn(turn, &left, &allowed)
            || !read_numbers(num_o, nums, &n))
        return unsupported();
    g = gen_acquire(&local);
    if (gen_run(&self->v, me, opp, nums, n, left, allowed, g) < 0) { gen_release(g); return NULL; }
    IntList *plays = g->use_kept ? &g->kept : &g->depth[g->max_dice];
    PyObject *dict = PyDict_New();
    if (!dict) { gen_release(g); return NULL; }
    for (size_t k = 0; k < plays->n; k++) {
        const Node *node = &g->arena.nodes[plays->items[k]];
        PyObject *m = side_or_same(node->p, me, me_o);
        PyObject *o = m ? side_or_same(node->p + NPT, opp, opp_o) : NULL;
        PyObject *key = o ? PyTuple_Pack(2, m, o) : NULL;
        Py_XDECREF(m); Py_XDECREF(o);
        if (!key) { Py_DECREF(dict); gen_release(g); return NULL; }
        int len = 0;
        for (const Node *x = node; x->parent >= 0; x = &g->arena.nodes[x->parent]) len++;
        PyObject *path = PyTuple_New(len);
        if (!path) { Py_DECREF(key); Py_DECREF(dict); gen_release(g); return NULL; }
        int i = len;
        for (const Node *x = node; x->parent >= 0; x = &g->arena.nodes[x->parent]) {
            PyObject *st = step_tuple(x->src, x->dst, x->die);
            if (!st) { Py_DECREF(path); Py_DECREF(key); Py_DECREF(dict); gen_release(g); return NULL; }
            PyTuple_SET_ITEM(path, --i, st);
        }
        int err = PyDict_SetItem(dict, key, path);
        Py_DECREF(key); Py_DECREF(path);
        if (err < 0) { Py_DECREF(dict); gen_release(g); return NULL; }
    }
    PyObject *res = Py_BuildValue("(iNO)", g->max_dice, dict, g->larger_only ? Py_True : Py_False);
    gen_release(g);
    return res;
}

/* count_plays(me, opp, numbers, turn=None) -> len(generate(...).plays) */
static PyObject *CoreRules_count_plays(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o, *num_o, *turn = Py_None;
    uint8_t me[NPT], opp[NPT];
    int nums[MAXN], n, left, allowed;
    Gen local, *g;
    if (!PyArg_ParseTuple(args, "OOO|O", &me_o, &opp_o, &num_o, &turn)) return NULL;
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || !read_turn(turn, &left, &allowed)
            || !read_numbers(num_o, nums, &n))
        return unsupported();
    g = gen_acquire(&local);
    if (gen_run(&self->v, me, opp, nums, n, left, allowed, g) < 0) { gen_release(g); return NULL; }
    size_t count = g->use_kept ? g->kept.n : g->depth[g->max_dice].n;
    gen_release(g);
    return PyLong_FromSize_t(count);
}

/* forced(me, opp, numbers, turn=None) -> count_plays(...) <= 1, without generating every play where it need not:
 * the plays that use every number are walked depth first, and two of them ending in different positions settle
 * it (not forced); one such position alone settles it too (forced: the plays that use every number are the
 * legal ones).  Where no play uses every number, or the walk grows past FORCED_BUDGET steps, the plays are
 * counted as count_plays counts them (the larger number's rule, positions at the greatest depth). */
#define FORCED_BUDGET 4096

/* 1: two different positions after every number; 0: the walk is done (found: how many positions, 0 or 1);
 * -1: the budget is spent */
static int full_plays_two(const Variant *v, const uint8_t *p, int left, int allowed, const int *order, int depth,
                          int n, uint8_t *first, int *found, long *budget) {
    if (depth == n) {
        if (!*found) {
            memcpy(first, p, 2 * NPT);
            *found = 1;
            return 0;
        }
        return memcmp(first, p, 2 * NPT) != 0;
    }
    if (--*budget < 0) return -1;
    uint8_t steps[NPT][2], child[2 * NPT];
    int ns = single_steps(v, p, p + NPT, order[depth], left, allowed, steps);
    for (int s = 0; s < ns; s++) {
        memcpy(child, p, 2 * NPT);
        apply_step(v, child, child + NPT, steps[s][0], steps[s][1]);
        int r = full_plays_two(v, child, after_step(v, left, steps[s][0]), allowed, order, depth + 1, n, first,
                               found, budget);
        if (r) return r;
    }
    return 0;
}

static PyObject *CoreRules_forced(CoreRules *self, PyObject *args) {
    PyObject *me_o, *opp_o, *num_o, *turn = Py_None;
    uint8_t me[NPT], opp[NPT], p[2 * NPT], first[2 * NPT];
    int nums[MAXN], n, left, allowed;
    int orders[720][MAXN];
    if (!PyArg_ParseTuple(args, "OOO|O", &me_o, &opp_o, &num_o, &turn)) return NULL;
    if (!read_side(me_o, me) || !read_side(opp_o, opp) || !read_turn(turn, &left, &allowed)
            || !read_numbers(num_o, nums, &n))
        return unsupported();
    memcpy(p, me, NPT);
    memcpy(p + NPT, opp, NPT);
    int norders = orders_of(nums, n, orders), found = 0, r = 0;
    long budget = FORCED_BUDGET;
    for (int oi = 0; oi < norders && r == 0; oi++)
        r = full_plays_two(&self->v, p, left, allowed, orders[oi], 0, n, first, &found, &budget);
    if (r == 1) Py_RETURN_FALSE;
    if (r == 0 && found) Py_RETURN_TRUE;
    Gen local, *g = gen_acquire(&local);
    if (gen_run(&self->v, me, opp, nums, n, left, allowed, g) < 0) { gen_release(g); return NULL; }
    size_t count = g->use_kept ? g->kept.n : g->depth[g->max_dice].n;
    gen_release(g);
    return PyBool_FromLong(count <= 1);
}

/* counts(side) -> (pips, checkers): sum((p + 1) * side[p]) and sum(side), for the statistics' tally */
static PyObject *CoreRules_counts(CoreRules *self, PyObject *side) {
    uint8_t s[NPT];
    if (!read_side(side, s)) return unsupported();
    long pips = 0, n = 0;
    for (int i = 0; i < NPT; i++) {
        pips += (long)(i + 1) * s[i];
        n += s[i];
    }
    return Py_BuildValue("(ll)", pips, n);
}

/* -- the type ---------------------------------------------------------------------------------- */

static int CoreRules_init(CoreRules *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"has_bar", "closed_by", "head", "six_block", "home_freeze", "exact_bear_off",
                            "first_doubles", "first_turns", "opening_doubles", NULL};
    Variant v = {0, 1, 0, 0, 0, 0, 0, 0, 0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$piipppipp", names, &v.has_bar, &v.closed_by, &v.head,
                                     &v.six_block, &v.home_freeze, &v.exact_bear_off, &v.first_doubles,
                                     &v.first_turns, &v.opening_doubles))
        return -1;
    if (v.first_doubles < 0 || v.first_doubles > 0x7e) {
        PyErr_SetString(PyExc_ValueError, "first_doubles takes bits 1..6");
        return -1;
    }
    if (v.closed_by < 1 || v.closed_by > 15 || v.head < 0 || v.head > 24) {
        PyErr_SetString(PyExc_ValueError, "closed_by takes 1..15 and head 0..24");
        return -1;
    }
    if (v.six_block && v.has_bar) {
        PyErr_SetString(PyExc_ValueError, "the six-block rule is long nardy's geometry (no bar)");
        return -1;
    }
    self->v = v;
    return 0;
}

static PyObject *CoreRules_repr(CoreRules *self) {
    const Variant *v = &self->v;
    return PyUnicode_FromFormat("CoreRules(has_bar=%d, closed_by=%d, head=%d, six_block=%d, home_freeze=%d, "
                                "exact_bear_off=%d, first_doubles=%d, first_turns=%d, opening_doubles=%d)",
                                v->has_bar, v->closed_by, v->head, v->six_block, v->home_freeze, v->exact_bear_off,
                                v->first_doubles, v->first_turns, v->opening_doubles);
}

static PyMethodDef CoreRules_methods[] = {
    {"single_steps", (PyCFunction)CoreRules_single_steps, METH_VARARGS,
     "single_steps(me, opp, die, turn=None) -> [(src, dst), ...]: Rules.single_steps as a list"},
    {"apply", (PyCFunction)CoreRules_apply, METH_VARARGS,
     "apply(me, opp, src, dst) -> (me, opp, hit): Rules.apply"},
    {"step_ok", (PyCFunction)CoreRules_step_ok, METH_VARARGS,
     "step_ok(me, opp, src, dst, die, turn=None) -> bool: Rules.step_problem(...) is None"},
    {"block_after", (PyCFunction)CoreRules_block_after, METH_VARARGS,
     "block_after(me, opp, src, dst) -> (a, b) or None: LongNardy.block_after"},
    {"closed_flags", (PyCFunction)CoreRules_closed_flags, METH_O,
     "closed_flags(side) -> bytes: Rules.closed_flags()(side)"},
    {"play_exact", (PyCFunction)CoreRules_play_exact, METH_VARARGS,
     "play_exact(me, opp, full, steps, turn=None, bear_off=False): core.exact_steps"},
    {"quick_rolls", (PyCFunction)(void (*)(void))CoreRules_quick_rolls, METH_FASTCALL,
     "quick_rolls(actions, i, side0, side1, last_player, rolls, rolled0, rolled1, ROLL, trace=None, plain=False, "
     "parts=0, sparse=False, cube=None, routes=None) "
     "-> (j, side0, side1, rolled0, rolled1): the plainly legal rolls of actions[i:j] replayed (replay.game.play); "
     "trace (a list) gets (side0, side1, route, exact) after each (route: the play's single steps with their hits, "
     "((src, dst, hit), ...), as judge.route gives them, where the batch found them, else None; exact: the written "
     "steps were one per number in order, the route being those); plain: only rolls that are not "
     "doubles, played with both numbers; parts: Gul bara's turns of several parts, every part legal, chains from "
     "roll `parts` of the game (with a trace, only the turns with further parts written, whose trace item has a "
     "fifth element: ((numbers, side0, side1) after each written part, ...), and a sixth: the roller's first turn); "
     "sparse: an exact roll (not of parts) is not "
     "traced, and each item traced is (k, side0, side1, item): the roll's index and the sides before it; cube: "
     "(DOUBLE, TAKE, cube, owner or -1, last roller or -1, limit or 0): the cube's plain doubles and takes taken "
     "too (without a trace, or a sparse one, whose items then end with the cube, its owner or -1 and the rolls "
     "before the roll), the result then ending with (cube, owner or -1, turned, the double waiting or None, last "
     "roller, the indexes of the cube's actions or None); routes (a dict, with a sparse trace): the route of each roll "
     "taken that is neither exact nor of parts, where the batch found one, is put there (index -> route) instead of "
     "the trace.  Without parts, a roll that bears off the roller's last checker is taken too and ends the run "
     "(the game's end is then the caller's)"},
    {"route", (PyCFunction)CoreRules_route, METH_VARARGS,
     "route(action, me, opp, after_me, after_opp) -> route | None: the route of the ROLL action played from (me, "
     "opp) to (after_me, after_opp), the roller's side first, as judge.route gives it: its single steps with their "
     "hits; None where the core finds none (a play it does not take, or one that does not reach those sides: "
     "then judge.route decides)"},
    {"one_roll", (PyCFunction)CoreRules_one_roll, METH_VARARGS,
     "one_roll(action, me, opp, plain, first_turn) -> (me, opp, exact) | None: the roller's play of one ROLL "
     "action as quick_rolls takes it (the sides after it, and whether its written steps were the route), the "
     "play that bears off the roller's last checker too; None where quick_rolls would stop (then Python walks "
     "the turn): plain as quick_rolls', first_turn: the roller's first turn (under the head rule taken only with "
     "first_turns, its allowance from first_doubles)"},
    {"one_gul_roll", (PyCFunction)CoreRules_one_gul_roll, METH_VARARGS,
     "one_gul_roll(action, player, side0, side1, rolls, chain_from, first_turn) -> (side0, side1, parts) | None: "
     "a Gul bara roll with its parts as quick_rolls takes them (rolls: the rolls of the game before it; parts as "
     "its trace gives them), the turn that bears off a side's last checker too (the driver asks for nothing "
     "after it); None where quick_rolls would stop (then Python walks the turn)"},
    {"generate", (PyCFunction)CoreRules_generate, METH_VARARGS,
     "generate(me, opp, numbers, turn=None) -> (max_dice, plays, larger_only): core.generate"},
    {"count_plays", (PyCFunction)CoreRules_count_plays, METH_VARARGS,
     "count_plays(me, opp, numbers, turn=None) -> int: len(core.generate(...).plays)"},
    {"counts", (PyCFunction)CoreRules_counts, METH_O,
     "counts(side) -> (pips, checkers): the pips of a side (a checker on point p is p pips from off, on the bar 25) "
     "and its checkers on the board"},
    {"forced", (PyCFunction)CoreRules_forced, METH_VARARGS,
     "forced(me, opp, numbers, turn=None) -> bool: count_plays(...) <= 1, most often without generating every play"},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject CoreRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nardy_analyze.engine._core.CoreRules",
    .tp_basicsize = sizeof(CoreRules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A variant's rules as the compiled core plays them (keywords: has_bar, closed_by, head, "
              "six_block, home_freeze, exact_bear_off, first_doubles: bit d set where the double d-d lets two "
              "checkers leave the head on a player's first turn, first_turns: the batch takes players' first turns, "
              "opening_doubles: the opening roll may be a double).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)CoreRules_init,
    .tp_repr = (reprfunc)CoreRules_repr,
    .tp_methods = CoreRules_methods,
};

/* use_packed(capsule): the packed actions' functions (notation/_matrows.c's PACKED_API), for quick_rolls */
static PyObject *use_packed(PyObject *self, PyObject *capsule) {
    const PackedApi *api = PyCapsule_GetPointer(capsule, PACKED_CAPSULE);
    if (!api) return NULL;
    PACKED = api;
    Py_RETURN_NONE;
}

static PyMethodDef core_functions[] = {
    {"use_packed", use_packed, METH_O,
     "use_packed(capsule): read the compiled .mat reader's packed actions (its PACKED_API) in quick_rolls"},
    {"maker", maker_new, METH_VARARGS,
     "maker(cls, fields) -> a callable making cls(...) without its __init__ (engine.compiled.maker), or cls"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled core of nardy_analyze's rules engine (the Python engine is its reference).", -1, core_functions,
};

PyMODINIT_FUNC PyInit__core(void) {
    for (int i = 0; i < 256; i++) {
        SMALL[i] = PyLong_FromLong(i);
        if (!SMALL[i]) return NULL;
    }
    PyObject **names[] = {&S_kind, &S_player, &S_unplayed, &S_dice, &S_illegal_mark, &S_segments, &S_steps, &S_src,
                          &S_dst, &S_hit, &S_value};
    const char *texts[] = {"kind", "player", "unplayed", "dice", "illegal_mark", "segments", "steps", "src", "dst",
                           "hit", "value"};
    for (int i = 0; i < 11; i++)
        if (!(*names[i] = PyUnicode_InternFromString(texts[i]))) return NULL;
    if (!(S_kind_chain = PyUnicode_InternFromString("chain")) || !(S_kind_handover = PyUnicode_InternFromString("handover")))
        return NULL;
    if (PyType_Ready(&CoreRulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&CoreRulesType);
    if (PyModule_AddObject(m, "CoreRules", (PyObject *)&CoreRulesType) < 0) {
        Py_DECREF(&CoreRulesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
