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
    memcpy(me, me0, NPT); memcpy(opp, opp0, NPT);
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
        int die = -1, at = -1;
        if (src < 1 || src > BAR) { Py_DECREF(steps); Py_RETURN_NONE; }
        if (dst == OFF) {
            if (!bear_off) { Py_DECREF(steps); Py_RETURN_NONE; }
            for (int i = 0; i < nleft && die < 0; i++) {
                int d = numbers[i], seen = 0;
                for (int j = 0; j < i; j++) if (numbers[j] == d) { seen = 1; break; }
                if (seen) continue;
                if (d >= src && step_ok(v, me, opp, (int)src, OFF, d, left, allowed)) { die = d; at = i; }
            }
            if (die < 0) { Py_DECREF(steps); Py_RETURN_NONE; }
        } else {
            long d = src - dst;
            if (dst < 1) { Py_DECREF(steps); Py_RETURN_NONE; }
            for (int i = 0; i < nleft; i++) if (numbers[i] == d) { at = i; break; }
            if (at < 0) { Py_DECREF(steps); Py_RETURN_NONE; }
            die = (int)d;
            if (!step_ok(v, me, opp, (int)src, (int)dst, die, left, allowed)) { Py_DECREF(steps); Py_RETURN_NONE; }
        }
        for (int i = at; i < nleft - 1; i++) numbers[i] = numbers[i + 1];
        nleft--;
        if (nused < 8) used[nused] = die;
        nused++;
        left = after_step(v, left, (int)src);
        hits += apply_step(v, me, opp, (int)src, (int)dst);
    }
    Py_DECREF(steps);
    if (nused > 8) return unsupported();
    PyObject *u = PyTuple_New(nused);
    if (!u) return NULL;
    for (int i = 0; i < nused; i++) { Py_INCREF(SMALL[used[i]]); PyTuple_SET_ITEM(u, i, SMALL[used[i]]); }
    PyObject *a = side_or_same(me, me0, me_o);
    PyObject *b = a ? side_or_same(opp, opp0, opp_o) : NULL;
    if (!b) { Py_XDECREF(a); Py_DECREF(u); return NULL; }
    return Py_BuildValue("(NNiN)", a, b, hits, u);
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

typedef struct {
    Arena arena;
    IntList depth[MAXN + 1];     /* by_depth: the distinct positions of each depth, first path kept */
    int max_dice;
    int larger_only;
    IntList kept;                /* the plays after the larger-die rule (when it applies) */
    int use_kept;
} Gen;

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

/* -- the type ---------------------------------------------------------------------------------- */

static int CoreRules_init(CoreRules *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"has_bar", "closed_by", "head", "six_block", "home_freeze", "exact_bear_off", NULL};
    Variant v = {0, 1, 0, 0, 0, 0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$piippp", names, &v.has_bar, &v.closed_by, &v.head,
                                     &v.six_block, &v.home_freeze, &v.exact_bear_off))
        return -1;
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
                                "exact_bear_off=%d)", v->has_bar, v->closed_by, v->head, v->six_block,
                                v->home_freeze, v->exact_bear_off);
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
    {"generate", (PyCFunction)CoreRules_generate, METH_VARARGS,
     "generate(me, opp, numbers, turn=None) -> (max_dice, plays, larger_only): core.generate"},
    {"count_plays", (PyCFunction)CoreRules_count_plays, METH_VARARGS,
     "count_plays(me, opp, numbers, turn=None) -> int: len(core.generate(...).plays)"},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject CoreRulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nardy_analyze.engine._core.CoreRules",
    .tp_basicsize = sizeof(CoreRules),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A variant's rules as the compiled core plays them (keywords: has_bar, closed_by, head, "
              "six_block, home_freeze, exact_bear_off).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)CoreRules_init,
    .tp_repr = (reprfunc)CoreRules_repr,
    .tp_methods = CoreRules_methods,
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled core of nardy_analyze's rules engine (the Python engine is its reference).", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    for (int i = 0; i < 256; i++) {
        SMALL[i] = PyLong_FromLong(i);
        if (!SMALL[i]) return NULL;
    }
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
