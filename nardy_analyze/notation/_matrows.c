/* The compiled twin of the Jellyfish .mat reader's common rows: a whole game's rows read and built into the
 * record's Action objects in one call.
 *
 * The Python code of nardy_analyze/notation/mat.py is the reference: `row_items` (the rows of the common
 * kinds, read by the regular expression _FAST_ITEM) and `_Reader._build_rows` (the Actions of those items,
 * each cell placed left or right by `cell_side`).  `game_actions` gives exactly the Actions those two give
 * for the rows of one game, or None as soon as one row is not of the kinds handled here: then the game is
 * read by the Python code, which decides everything else (a row Lark must read, a cell that cannot be read,
 * a hand-typed spelling, any character that is not ASCII).  tests/test_matrows.py holds the two equal on
 * the rows of random and real records.
 *
 * It also holds the SGF writer's common node (`sgf_rolls`: a run of rolls played with nothing else on them,
 * written as notation/sgf.py's `_game_tree` writes them, which stays the reference), the .ngn reader's
 * common lines (`ngn_actions`) and the JSON text of a document (`json_indent`: what the JSON writer's
 * `_dumps` in notation/jsonfmt.py writes, json.dumps(doc, ensure_ascii=False, indent=1)).
 *
 * Only the CPython C API is used (no third-party code).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#ifndef Py_T_OBJECT_EX            /* the names before Python 3.12 */
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif
#include "../_slots.h"     /* slot_attr: an attribute read from its slot */
#include "../_packed.h"    /* PackedView, PackedApi: a game's actions made when asked for */

enum { NO, ROLL, CANNOT, DOUBLE, TAKE, DROP, WIN, RESIGN };

#define MAX_ITEMS 64            /* items in one row (more: the Python reader) */
#define PLAYS_MAX 50000         /* the play cache is emptied when it holds this many */
#define MAX_STEPS_C 32          /* mat.MAX_STEPS: more steps in one cell is not a play */
#define MAX_REPEAT_C 15         /* mat.MAX_REPEAT: the largest repeat count "(n)" */

typedef struct {
    int kind;
    Py_ssize_t a, end;          /* the item's text: line[a:end] (0-based) */
    long value;                 /* NO: the move number; DOUBLE, WIN, RESIGN: the number */
    int and_match;              /* WIN: "and the match" */
} Item;

/* set once by configure() */
static PyObject *Action = NULL, *Loc = NULL, *DiceOf = NULL, *StepsHook = NULL, *StepOf = NULL;
static PyObject *KindRoll = NULL, *KindDouble = NULL, *KindTake = NULL, *KindDrop = NULL, *KindWin = NULL,
                *KindResign = NULL;
static long LeftCellGap = 4;
static PyObject *Plays = NULL;          /* play text -> tuple of Step objects: the Python reader's answers */
static PyObject *SegmentClass = NULL;   /* record.Segment (configure_ngn): the .ngn chain and handover parts */
static PyObject *S_segments = NULL, *S_kind = NULL, *S_player = NULL, *W_chain = NULL, *W_handover = NULL;
static PyObject *KW_VALUE = NULL, *KW_VALUE_MATCH = NULL, *KW_CANNOT = NULL;

static inline int is_blank(const char *s, Py_ssize_t n, Py_ssize_t i) {   /* (?=[ \t\n]); the row ends with \n */
    return i >= n || s[i] == ' ' || s[i] == '\t';
}

static inline int is_digit(char c) { return c >= '0' && c <= '9'; }

static inline int word_ci(const char *s, Py_ssize_t n, Py_ssize_t i, const char *w) {  /* w: lower-case ASCII */
    Py_ssize_t k = (Py_ssize_t)strlen(w);
    if (i + k > n) return 0;
    for (Py_ssize_t j = 0; j < k; j++) {
        char c = s[i + j];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != w[j]) return 0;
    }
    return 1;
}

static inline Py_ssize_t blanks(const char *s, Py_ssize_t n, Py_ssize_t i) {      /* [ \t]* */
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    return i;
}

/* [0-9]{1,most} at i, greedy: the end, or -1; *value gets the number */
static inline Py_ssize_t digits(const char *s, Py_ssize_t n, Py_ssize_t i, int most, long *value) {
    Py_ssize_t j = i;
    long v = 0;
    while (j < n && j - i < most && is_digit(s[j])) {
        v = v * 10 + (s[j] - '0');
        j++;
    }
    if (j == i) return -1;
    if (value) *value = v;
    return j;
}

/* _STEP_RE at i: (?:bar|[0-9]{1,3})(?:/(?:[0-9]{1,3}|off)\*?)+(?:\([0-9]{1,3}\))?(?=[ \t\n]); the end or -1.
 * Taken greedily: no shorter way of any of its parts can be followed by what must follow it. */
static Py_ssize_t step_end(const char *s, Py_ssize_t n, Py_ssize_t i) {
    Py_ssize_t j;
    if (word_ci(s, n, i, "bar")) j = i + 3;
    else if ((j = digits(s, n, i, 3, NULL)) < 0) return -1;
    int reps = 0;
    while (j < n && s[j] == '/') {
        Py_ssize_t k = digits(s, n, j + 1, 3, NULL);
        if (k < 0) {
            if (!word_ci(s, n, j + 1, "off")) break;
            k = j + 4;
        }
        if (k < n && s[k] == '*') k++;
        j = k;
        reps++;
    }
    if (!reps) return -1;
    if (j < n && s[j] == '(') {
        Py_ssize_t k = digits(s, n, j + 1, 3, NULL);
        if (k >= 0 && k < n && s[k] == ')') j = k + 1;
    }
    return is_blank(s, n, j) ? j : -1;
}

/* one item of _FAST_ITEM at pos (its leading blanks skipped): 1 and *it filled, or 0 (no match) */
static int match_item(const char *s, Py_ssize_t n, Py_ssize_t pos, Item *it) {
    Py_ssize_t i = blanks(s, n, pos), j, k;
    long v = 0;
    it->a = i;
    it->and_match = 0;
    if (i >= n) return 0;
    if (is_digit(s[i])) {
        /* (?P<no>[0-9]{1,6}\)) */
        j = digits(s, n, i, 6, &v);
        if (j < n && s[j] == ')' && is_blank(s, n, j + 1)) {
            it->kind = NO; it->value = v; it->end = j + 1;
            return 1;
        }
        if (!(i + 2 < n && is_digit(s[i + 1]) && s[i + 2] == ':')) return 0;
        /* [0-9][0-9]:[ \t]+cannot[ \t]+move */
        j = i + 3;
        k = blanks(s, n, j);
        if (k > j && word_ci(s, n, k, "cannot")) {
            Py_ssize_t m = k + 6, q = blanks(s, n, m);
            if (q > m && word_ci(s, n, q, "move") && is_blank(s, n, q + 4)) {
                it->kind = CANNOT; it->end = q + 4;
                return 1;
            }
        }
        /* [0-9][0-9]:(?=[ \t\n])(?:[ \t]+STEP)* */
        if (!is_blank(s, n, i + 3)) return 0;
        j = i + 3;
        for (;;) {
            k = blanks(s, n, j);
            if (k == j) break;
            Py_ssize_t e = step_end(s, n, k);
            if (e < 0) break;
            j = e;
        }
        it->kind = ROLL; it->end = j;
        return 1;
    }
    if (word_ci(s, n, i, "double")) {           /* doubles?[ \t]*=>[ \t]*[0-9]{1,6} */
        j = i + 6;
        if (j < n && (s[j] == 's' || s[j] == 'S')) j++;
        j = blanks(s, n, j);
        if (!(j + 1 < n && s[j] == '=' && s[j + 1] == '>')) return 0;
        j = blanks(s, n, j + 2);
        j = digits(s, n, j, 6, &v);
        if (j < 0 || !is_blank(s, n, j)) return 0;
        it->kind = DOUBLE; it->value = v; it->end = j;
        return 1;
    }
    if (word_ci(s, n, i, "take")) {             /* takes? */
        j = i + 4;
        if (j < n && (s[j] == 's' || s[j] == 'S') && is_blank(s, n, j + 1)) j++;
        if (!is_blank(s, n, j)) return 0;
        it->kind = TAKE; it->end = j;
        return 1;
    }
    if (word_ci(s, n, i, "drops")) {
        if (!is_blank(s, n, i + 5)) return 0;
        it->kind = DROP; it->end = i + 5;
        return 1;
    }
    int wins = word_ci(s, n, i, "wins");
    if (wins || word_ci(s, n, i, "losses")) {   /* wins|losses [ \t]+[0-9]{1,6}[ \t]+points? */
        j = i + (wins ? 4 : 6);
        k = blanks(s, n, j);
        if (k == j) return 0;
        j = digits(s, n, k, 6, &v);
        if (j < 0) return 0;
        k = blanks(s, n, j);
        if (k == j || !word_ci(s, n, k, "point")) return 0;
        j = k + 5;
        if (j < n && (s[j] == 's' || s[j] == 'S')) j++;
        it->kind = wins ? WIN : RESIGN; it->value = v;
        if (wins) {   /* (?:[ \t]+and[ \t]+(?:wins[ \t]+)?the[ \t]+match)? */
            Py_ssize_t q = blanks(s, n, j);
            if (q > j && word_ci(s, n, q, "and")) {
                Py_ssize_t r = blanks(s, n, q + 3);
                if (r > q + 3) {
                    if (word_ci(s, n, r, "wins")) {
                        Py_ssize_t t = blanks(s, n, r + 4);
                        if (t > r + 4) r = t;
                    }
                    if (word_ci(s, n, r, "the")) {
                        Py_ssize_t t = blanks(s, n, r + 3);
                        if (t > r + 3 && word_ci(s, n, t, "match") && is_blank(s, n, t + 5)) {
                            it->and_match = 1; it->end = t + 5;
                            return 1;
                        }
                    }
                }
            }
        }
        if (!is_blank(s, n, j)) return 0;
        it->end = j;
        return 1;
    }
    return 0;
}

/* The Step object of each (src, dst, hit) with points 0-25 (StepOf's value, the same object every time it is
 * asked for: mat.STEP makes each once), kept here once asked for: a play's steps found without a lookup */
static PyObject *StepTab[26][26][2];

static void step_forget(void) {
    for (int x = 0; x < 26; x++)
        for (int y = 0; y < 26; y++)
            for (int h = 0; h < 2; h++) Py_CLEAR(StepTab[x][y][h]);
}

/* a new reference to the Step (src, dst, hit), or NULL with an exception */
static PyObject *step_of(int src, int dst, int hit) {
    PyObject **at = &StepTab[src][dst][hit ? 1 : 0];
    if (!*at) {
        PyObject *key = Py_BuildValue("(iiO)", src, dst, hit ? Py_True : Py_False);
        if (!key) return NULL;
        *at = PyObject_GetItem(StepOf, key);
        Py_DECREF(key);
        if (!*at) return NULL;
    }
    return Py_NewRef(*at);
}

/* mat.play_steps of a play text s[a:b] whose every word the row reader matched as _STEP_RE: its steps as (src, dst,
 * hit) in trip, and their number; -1 when a word is one the Python reader must read (a repeat count out of range, a
 * point past 25, a step from "off", too many steps: its messages) */
static int parse_trips(const char *s, Py_ssize_t a, Py_ssize_t b, uint8_t trip[MAX_STEPS_C][3]) {
    int n = 0;
    Py_ssize_t i = a;
    for (;;) {
        while (i < b && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i >= b) break;
        Py_ssize_t e = i;
        while (e < b && s[e] != ' ' && s[e] != '\t') e++;
        /* one word: (bar|d{1,3}) (/(d{1,3}|off)\*?)+ (\(d{1,3}\))? */
        int chain[8][3], nc = 0, count = 1;
        long src;
        Py_ssize_t j = i;
        if (word_ci(s, e, j, "bar")) { src = 25; j += 3; }
        else { j = digits(s, e, j, 3, &src); if (j < 0 || src > 25) return -1; }
        while (j < e && s[j] == '/') {
            long dst;
            Py_ssize_t k = digits(s, e, j + 1, 3, &dst);
            if (k < 0) {
                if (!word_ci(s, e, j + 1, "off")) return -1;
                dst = 0; k = j + 4;
            } else if (dst > 25) return -1;
            if (src == 0 && nc) return -1;         /* "off" only at the end of a move */
            int hit = k < e && s[k] == '*';
            if (nc == 8) return -1;
            chain[nc][0] = (int)src; chain[nc][1] = (int)dst; chain[nc][2] = hit;
            nc++;
            src = dst;
            j = k + hit;
        }
        if (j < e && s[j] == '(') {
            long c;
            Py_ssize_t k = digits(s, e, j + 1, 3, &c);
            if (k < 0 || c < 1 || c > MAX_REPEAT_C) return -1;
            count = (int)c;
            j = k + 1;
        }
        if (j != e || !nc) return -1;
        for (int r = 0; r < count; r++)
            for (int q = 0; q < nc; q++) {
                if (n == MAX_STEPS_C) return -1;
                trip[n][0] = (uint8_t)chain[q][0]; trip[n][1] = (uint8_t)chain[q][1]; trip[n][2] = (uint8_t)chain[q][2];
                n++;
            }
        i = e;
    }
    return n;
}

/* a new list of the Step objects of steps trip[0 .. n) (from mat.STEP), or NULL with an exception */
static PyObject *step_list(const uint8_t (*trip)[3], int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *step = step_of(trip[k][0], trip[k][1], trip[k][2]);
        if (!step) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, k, step);
    }
    return out;
}

/* mat.play_steps of a play text line[a:b] as parse_trips reads it: a new list of its Step objects, or NULL with no
 * exception when it is one the Python reader must read */
static PyObject *parse_play(const char *s, Py_ssize_t a, Py_ssize_t b) {
    uint8_t trip[MAX_STEPS_C][3];
    int n = parse_trips(s, a, b, trip);
    return n < 0 ? NULL : step_list((const uint8_t (*)[3])trip, n);
}

/* the Steps of a play the row reader cannot read plainly (line[a:b], its first column `col`): the tuple of the Python
 * reader's hook, kept by text (a new reference; Py_None when the play cannot be read; NULL on an exception) */
static PyObject *hook_steps(PyObject *line, Py_ssize_t a, Py_ssize_t b, long col) {
    PyObject *text = PyUnicode_Substring(line, a, b);
    if (!text) return NULL;
    PyObject *steps = PyDict_GetItemWithError(Plays, text);
    if (steps) {
        Py_INCREF(steps);
        Py_DECREF(text);
        return steps;
    }
    if (PyErr_Occurred()) { Py_DECREF(text); return NULL; }
    steps = PyObject_CallFunction(StepsHook, "Ol", text, col);   /* not plainly readable: the Python reader */
    if (steps && steps != Py_None) {
        if (PyDict_GET_SIZE(Plays) >= PLAYS_MAX) PyDict_Clear(Plays);
        if (PyDict_SetItem(Plays, text, steps) < 0) Py_CLEAR(steps);
    }
    Py_DECREF(text);
    return steps;
}

/* the Step objects of a play's text (line[a:b], its first column `col`): a new list where it is plain (parse_play:
 * no string made, no lookup), else the tuple of the Python reader's hook (hook_steps) */
static PyObject *play_steps(PyObject *line, Py_ssize_t a, Py_ssize_t b, long col) {
    PyObject *steps = parse_play(PyUnicode_DATA(line), a, b);
    if (steps || PyErr_Occurred()) return steps;
    return hook_steps(line, a, b, col);
}

static int cell_side(long col, long threshold, int after_no, int nested, long no_col, long no_end, int followed) {
    if (after_no && !nested)
        return (col - no_end <= LeftCellGap || followed || col < threshold) ? 0 : 1;
    if (after_no) return no_col < threshold ? 0 : 1;
    return col < threshold ? 0 : 1;
}

/* The dice text of a cell ("61", the cell's first two characters) and its dice (DiceOf's value), kept per pair of
 * digits: no substring and no dict lookup per roll.  A new reference to the text in *text and a borrowed dice,
 * or NULL (an exception set when the text is no key of DiceOf, as the lookup's KeyError). */
static PyObject *DiceTexts[10][10], *DiceVals[10][10];

static PyObject *dice_of(PyObject *line, Py_ssize_t a, PyObject **text) {
    const char *s = (const char *)PyUnicode_DATA(line);
    int x = s[a] - '0', y = s[a + 1] - '0';
    int digits = PyUnicode_IS_ASCII(line) && x >= 0 && x <= 9 && y >= 0 && y <= 9;
    if (digits && DiceTexts[x][y]) {
        *text = Py_NewRef(DiceTexts[x][y]);
        return DiceVals[x][y];
    }
    PyObject *dt = PyUnicode_Substring(line, a, a + 2);
    if (!dt) { *text = NULL; return NULL; }
    PyObject *dice = PyDict_GetItemWithError(DiceOf, dt);
    if (!dice) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "dice text");
        Py_DECREF(dt);
        *text = NULL;
        return NULL;
    }
    if (digits) {
        DiceTexts[x][y] = Py_NewRef(dt);
        DiceVals[x][y] = Py_NewRef(dice);
    }
    *text = dt;
    return dice;
}

static void dice_forget(void) {
    for (int x = 0; x < 10; x++)
        for (int y = 0; y < 10; y++) {
            Py_CLEAR(DiceTexts[x][y]);
            Py_CLEAR(DiceVals[x][y]);
        }
}

/* The Actions and Locs the readers make, made by their Shape (_slots.h) where configure() gave one: what their
 * __init__ would do, at a fraction of its cost */
static Shape ActionShape, LocShape;
static int I_VALUE = -1, I_AND_MATCH = -1, I_CANNOT = -1;

/* Action(*args[:nargs], **{kwnames: args[nargs:nall]}), kwnames one of KW_VALUE, KW_VALUE_MATCH, KW_CANNOT or
 * NULL (nall: the length of args) */
static PyObject *make(PyObject *const *args, size_t nargs, PyObject *kwnames, size_t nall) {
    if (!ActionShape.type) return PyObject_Vectorcall(Action, args, nargs, kwnames);
    PyObject *vals[SHAPE_FIELDS] = {NULL};
    for (size_t i = 0; i < nargs; i++) vals[i] = args[i];
    int at[2] = {-1, -1};
    if (kwnames == KW_VALUE) at[0] = I_VALUE;
    else if (kwnames == KW_VALUE_MATCH) { at[0] = I_VALUE; at[1] = I_AND_MATCH; }
    else if (kwnames == KW_CANNOT) at[0] = I_CANNOT;
    for (size_t i = nargs; i < nall && i - nargs < 2; i++)
        if (at[i - nargs] >= 0) vals[at[i - nargs]] = args[i];
    return shape_new(&ActionShape, vals);
}

/* Locs are values never changed once made (record.Loc): the compiled readers share one per place of the first
 * LOC_LINES lines and LOC_COLS columns, made the first time it is asked for (a few thousand in all) */
#define LOC_LINES 4096
#define LOC_COLS 128
static PyObject **LocCache = NULL;

static PyObject *make_loc(long line, long col) {
    int cached = LocShape.type && line >= 0 && line < LOC_LINES && col >= 0 && col < LOC_COLS;
    if (cached) {
        if (!LocCache && !(LocCache = PyMem_Calloc((size_t)LOC_LINES * LOC_COLS, sizeof(PyObject *))))
            return PyErr_NoMemory();
        PyObject *hit = LocCache[line * LOC_COLS + col];
        if (hit) return Py_NewRef(hit);
    }
    PyObject *largs[2] = {PyLong_FromLong(line), PyLong_FromLong(col)}, *loc = NULL;
    if (largs[0] && largs[1])
        loc = LocShape.type ? shape_new(&LocShape, largs) : PyObject_Vectorcall(Loc, largs, 2, NULL);
    Py_XDECREF(largs[0]);
    Py_XDECREF(largs[1]);
    if (cached && loc) LocCache[line * LOC_COLS + col] = Py_NewRef(loc);
    return loc;
}

static void loc_forget(void) {
    if (!LocCache) return;
    for (Py_ssize_t i = 0; i < (Py_ssize_t)LOC_LINES * LOC_COLS; i++) Py_CLEAR(LocCache[i]);
}

/* -- one cell as read: the record an Action is made of (at once, or when asked for: PackedActions) ---------- */

typedef struct {
    uint8_t kind;               /* ROLL, CANNOT, DOUBLE, TAKE, DROP, WIN, RESIGN */
    uint8_t player;
    uint8_t d1, d2;             /* ROLL, CANNOT: the dice's digits */
    uint8_t and_match;          /* WIN */
    uint8_t nsteps;             /* ROLL: its steps, from step0 in the steps kept with the record */
    int32_t step0;
    long line, col;             /* its Loc */
    long move;                  /* the row's move number; -1: none */
    long value;                 /* DOUBLE, WIN, RESIGN */
    Py_ssize_t ta, tb;          /* its text: src[ta:tb] of the text kept with the record */
    PyObject *dice, *dt;        /* ROLL, CANNOT: its dice and their text (DiceOf's, shared) */
    PyObject *steps_obj;        /* ROLL: the steps the Python reader's hook read (a play not read here), else NULL */
} Cell;

static void cell_clear(Cell *c) {
    Py_CLEAR(c->dice);
    Py_CLEAR(c->dt);
    Py_CLEAR(c->steps_obj);
}

/* the Action of cell c (a new reference), its text in src, its steps in steps (from c->step0), as the Python
 * reader makes it; NULL with an exception */
static PyObject *cell_action(const Cell *c, PyObject *src, const uint8_t (*steps)[3]) {
    PyObject *loc = make_loc(c->line, c->col);
    PyObject *text = loc ? PyUnicode_Substring(src, c->ta, c->tb) : NULL;
    PyObject *player = text ? PyLong_FromLong(c->player) : NULL;
    PyObject *move = !player ? NULL : c->move < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(c->move);
    PyObject *action = NULL;
    if (move) {
        if (c->kind == ROLL) {
            /* (a list of its own: a record's steps are changed in place by some callers) */
            PyObject *list = c->steps_obj ? PySequence_List(c->steps_obj)
                             : c->nsteps ? step_list(steps + c->step0, c->nsteps) : PyList_New(0);
            if (list) {
                PyObject *args[] = {KindRoll, player, loc, move, text, c->dice, c->dt, loc, list};
                action = make(args, 9, NULL, 9);
                Py_DECREF(list);
            }
        } else if (c->kind == CANNOT) {
            PyObject *args[] = {KindRoll, player, loc, move, text, c->dice, c->dt, loc, Py_True};
            action = make(args, 8, KW_CANNOT, 9);
        } else if (c->kind == TAKE || c->kind == DROP) {
            PyObject *args[] = {c->kind == TAKE ? KindTake : KindDrop, player, loc, move, text, Py_None};
            action = make(args, 5, KW_VALUE, 6);
        } else {
            PyObject *value = PyLong_FromLong(c->value);
            if (value) {
                if (c->kind == WIN) {
                    PyObject *args[] = {KindWin, player, loc, move, text, value, c->and_match ? Py_True : Py_False};
                    action = make(args, 5, KW_VALUE_MATCH, 7);
                } else {
                    PyObject *args[] = {c->kind == DOUBLE ? KindDouble : KindResign, player, loc, move, text, value};
                    action = make(args, 5, KW_VALUE, 6);
                }
                Py_DECREF(value);
            }
        }
    }
    Py_XDECREF(loc);
    Py_XDECREF(text);
    Py_XDECREF(player);
    Py_XDECREF(move);
    return action;
}

/* -- PackedActions: a game's cells, each made into its Action the first time it is asked for (_packed.h) ------ */

typedef struct {
    PyObject_HEAD
    Py_ssize_t n, cap;
    Cell *cells;
    uint8_t (*steps)[3];
    Py_ssize_t nsteps, scap;
    PyObject *src;              /* the text the cells' spans are in */
    PyObject **made;            /* made[j]: cell j's Action once made, else NULL */
    PyObject *list;             /* once a change is asked for: every Action, in the list this object is from then on */
} Packed;

static PyTypeObject PackedType;

static Packed *packed_new(PyObject *src) {
    Packed *p = PyObject_GC_New(Packed, &PackedType);
    if (!p) return NULL;
    p->n = p->cap = p->nsteps = p->scap = 0;
    p->cells = NULL;
    p->steps = NULL;
    p->made = NULL;
    p->list = NULL;
    p->src = Py_NewRef(src);
    PyObject_GC_Track(p);
    return p;
}

/* cell c appended (its references taken; its steps trip[0 .. c->nsteps) copied): 0, or -1 with an exception (c
 * cleared) */
static int packed_push(Packed *p, Cell *c, const uint8_t (*trip)[3]) {
    if (p->n == p->cap) {
        Py_ssize_t cap = p->cap ? 2 * p->cap : 64;
        Cell *cells = PyMem_Realloc(p->cells, (size_t)cap * sizeof(Cell));
        if (!cells) { cell_clear(c); PyErr_NoMemory(); return -1; }
        p->cells = cells;
        p->cap = cap;
    }
    if (c->nsteps) {
        if (p->nsteps + c->nsteps > p->scap) {
            Py_ssize_t cap = p->scap ? 2 * p->scap : 128;
            while (cap < p->nsteps + c->nsteps) cap *= 2;
            uint8_t (*steps)[3] = PyMem_Realloc(p->steps, (size_t)cap * 3);
            if (!steps) { cell_clear(c); PyErr_NoMemory(); return -1; }
            p->steps = steps;
            p->scap = cap;
        }
        memcpy(p->steps + p->nsteps, trip, (size_t)c->nsteps * 3);
        c->step0 = (int32_t)p->nsteps;
        p->nsteps += c->nsteps;
    }
    p->cells[p->n++] = *c;
    return 0;
}

/* the made-actions table, allocated once the cells are all in (mat_game) */
static int packed_done(Packed *p) {
    p->made = PyMem_Calloc((size_t)(p->n ? p->n : 1), sizeof(PyObject *));
    if (!p->made) { PyErr_NoMemory(); return -1; }
    return 0;
}

static Py_ssize_t packed_length(PyObject *o) {
    Packed *p = (Packed *)o;
    return p->list ? PyList_GET_SIZE(p->list) : p->n;
}

static PyObject *packed_item(PyObject *o, Py_ssize_t j) {        /* borrowed, or NULL with an exception */
    Packed *p = (Packed *)o;
    if (j < 0 || j >= packed_length(o)) {
        PyErr_SetString(PyExc_IndexError, "list index out of range");
        return NULL;
    }
    if (p->list) return PyList_GET_ITEM(p->list, j);
    if (!p->made[j]) {
        PyObject *a = cell_action(&p->cells[j], p->src, (const uint8_t (*)[3])p->steps);
        if (!a) return NULL;
        /* (a Step met for the first time is looked up in Python, where another thread may make this action too:
         * the first one made is kept) */
        if (p->made[j]) Py_DECREF(a);
        else p->made[j] = a;
    }
    return p->made[j];
}

static int packed_view(PyObject *o, Py_ssize_t j, PackedView *v) {
    Packed *p = (Packed *)o;
    if (p->list || j < 0 || j >= p->n || p->made[j]) return 0;
    const Cell *c = &p->cells[j];
    if (c->steps_obj) return 0;                 /* (a play the Python reader's hook read: its object) */
    v->kind = c->kind == ROLL || c->kind == CANNOT ? KindRoll : c->kind == DOUBLE ? KindDouble
              : c->kind == TAKE ? KindTake : c->kind == DROP ? KindDrop : c->kind == WIN ? KindWin : KindResign;
    v->player = c->player;
    v->d1 = c->d1;
    v->d2 = c->d2;
    v->cannot = c->kind == CANNOT;
    v->has_value = c->kind == DOUBLE || c->kind == WIN || c->kind == RESIGN;
    v->value = c->value;
    v->and_match = c->and_match;
    v->nsteps = c->nsteps;
    v->steps = c->nsteps ? (const uint8_t (*)[3])(p->steps + c->step0) : NULL;
    return 1;
}

/* a new list of every Action (the object as a list), or NULL */
static PyObject *packed_as_list(PyObject *o) {
    Packed *p = (Packed *)o;
    if (p->list) return PyList_GetSlice(p->list, 0, PyList_GET_SIZE(p->list));
    PyObject *list = PyList_New(p->n);
    if (!list) return NULL;
    for (Py_ssize_t j = 0; j < p->n; j++) {
        PyObject *a = packed_item(o, j);
        if (!a) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, j, Py_NewRef(a));
    }
    return list;
}

/* every Action made, kept in the list the object is from then on (a change asked for); borrowed, or NULL */
static PyObject *packed_listify(Packed *p) {
    if (!p->list) p->list = packed_as_list((PyObject *)p);
    return p->list;
}

/* a and b each a new list (a PackedActions as its list): 1, 0 when one is neither a list nor packed, -1 on an
 * exception (for comparing and adding, as lists) */
static int both_lists(PyObject *a, PyObject *b, PyObject **x, PyObject **y) {
    if (!(PyList_Check(a) || Py_IS_TYPE(a, &PackedType)) || !(PyList_Check(b) || Py_IS_TYPE(b, &PackedType)))
        return 0;
    *x = Py_IS_TYPE(a, &PackedType) ? packed_as_list(a) : Py_NewRef(a);
    *y = !*x ? NULL : Py_IS_TYPE(b, &PackedType) ? packed_as_list(b) : Py_NewRef(b);
    if (!*y) { Py_XDECREF(*x); return -1; }
    return 1;
}

static PyObject *packed_sq_item(PyObject *o, Py_ssize_t j) {
    PyObject *a = packed_item(o, j);
    return a ? Py_NewRef(a) : NULL;
}

static PyObject *packed_subscript(PyObject *o, PyObject *key) {
    if (PyIndex_Check(key)) {
        Py_ssize_t j = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (j == -1 && PyErr_Occurred()) return NULL;
        if (j < 0) j += packed_length(o);
        return packed_sq_item(o, j);
    }
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0) return NULL;
        Py_ssize_t len = PySlice_AdjustIndices(packed_length(o), &start, &stop, step);
        PyObject *out = PyList_New(len);
        if (!out) return NULL;
        for (Py_ssize_t k = 0, j = start; k < len; k++, j += step) {
            PyObject *a = packed_item(o, j);
            if (!a) { Py_DECREF(out); return NULL; }
            PyList_SET_ITEM(out, k, Py_NewRef(a));
        }
        return out;
    }
    return PyErr_Format(PyExc_TypeError, "list indices must be integers or slices, not %.200s", Py_TYPE(key)->tp_name);
}

static PyObject *packed_richcompare(PyObject *a, PyObject *b, int op) {
    PyObject *x, *y;
    int got = both_lists(a, b, &x, &y);
    if (got <= 0) return got < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    PyObject *r = PyObject_RichCompare(x, y, op);
    Py_DECREF(x);
    Py_DECREF(y);
    return r;
}

static PyObject *packed_add(PyObject *a, PyObject *b) {         /* (as lists: a new list) */
    PyObject *x, *y;
    int got = both_lists(a, b, &x, &y);
    if (got <= 0) return got < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    PyObject *r = PySequence_Concat(x, y);
    Py_DECREF(x);
    Py_DECREF(y);
    return r;
}

static PyObject *packed_repr(PyObject *o) {
    PyObject *list = packed_as_list(o);
    if (!list) return NULL;
    PyObject *r = PyObject_Repr(list);
    Py_DECREF(list);
    return r;
}

static PyObject *packed_iter(PyObject *o) {
    return PySeqIter_New(o);
}

/* any other attribute (append, insert, index, copy...): the list's, the object being a list from then on */
static PyObject *packed_getattro(PyObject *o, PyObject *name) {
    PyObject *r = PyObject_GenericGetAttr(o, name);
    if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
    PyErr_Clear();
    PyObject *list = packed_listify((Packed *)o);
    return list ? PyObject_GetAttr(list, name) : NULL;
}

static int packed_ass_subscript(PyObject *o, PyObject *key, PyObject *value) {
    PyObject *list = packed_listify((Packed *)o);
    if (!list) return -1;
    return value ? PyObject_SetItem(list, key, value) : PyObject_DelItem(list, key);
}

static PyObject *packed_inplace_add(PyObject *a, PyObject *b) {      /* actions += more: extended in place */
    if (!Py_IS_TYPE(a, &PackedType)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *list = packed_listify((Packed *)a);
    if (!list) return NULL;
    PyObject *r = PySequence_InPlaceConcat(list, b);
    if (!r) return NULL;
    Py_DECREF(r);
    return Py_NewRef(a);
}

static PyObject *packed_reduce(PyObject *o, PyObject *unused) {     /* pickled and copied as a list */
    PyObject *list = packed_as_list(o);
    if (!list) return NULL;
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t ? Py_BuildValue("(O(N))", (PyObject *)&PyList_Type, t) : NULL;
}

static int packed_traverse(Packed *p, visitproc visit, void *arg) {
    Py_VISIT(p->src);
    Py_VISIT(p->list);
    if (p->made)
        for (Py_ssize_t j = 0; j < p->n; j++) Py_VISIT(p->made[j]);
    for (Py_ssize_t j = 0; j < p->n; j++) Py_VISIT(p->cells[j].steps_obj);
    return 0;
}

static int packed_clear(Packed *p) {
    Py_CLEAR(p->list);
    if (p->made)
        for (Py_ssize_t j = 0; j < p->n; j++) Py_CLEAR(p->made[j]);
    for (Py_ssize_t j = 0; j < p->n; j++) cell_clear(&p->cells[j]);
    p->n = 0;                   /* (an empty sequence from then on) */
    return 0;
}

static void packed_dealloc(Packed *p) {
    PyObject_GC_UnTrack(p);
    packed_clear(p);
    Py_CLEAR(p->src);
    PyMem_Free(p->cells);
    PyMem_Free(p->steps);
    PyMem_Free(p->made);
    PyObject_GC_Del(p);
}

static PyObject *packed_made_count(PyObject *o, PyObject *unused) {
    Packed *p = (Packed *)o;
    Py_ssize_t k = 0;
    if (p->list) k = PyList_GET_SIZE(p->list);
    else for (Py_ssize_t j = 0; j < p->n; j++) k += p->made[j] != NULL;
    return PyLong_FromSsize_t(k);
}

/* kind_indexes(kind) -> the indexes of the actions whose kind is kind (by identity), the others not made */
static PyObject *packed_kind_indexes(PyObject *o, PyObject *kind) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    Py_ssize_t n = packed_length(o);
    for (Py_ssize_t j = 0; j < n; j++) {
        PackedView v;
        int same;
        if (packed_view(o, j, &v)) {
            same = v.kind == kind;
        } else {
            PyObject *a = packed_item(o, j);
            if (!a) { Py_DECREF(out); return NULL; }
            same = slot_is(a, S_kind, kind);
        }
        if (same) {
            PyObject *at = PyLong_FromSsize_t(j);
            int err = !at || PyList_Append(out, at) < 0;
            Py_XDECREF(at);
            if (err) { Py_DECREF(out); return NULL; }
        }
    }
    return out;
}

static PyMethodDef packed_methods[] = {
    {"kind_indexes", packed_kind_indexes, METH_O,
     "kind_indexes(kind) -> the indexes of the actions of that kind (by identity), without making the others"},
    {"__reduce__", packed_reduce, METH_NOARGS, "pickled and copied as a list"},
    {"made_count", packed_made_count, METH_NOARGS, "made_count() -> how many of the actions are made so far"},
    {NULL, NULL, 0, NULL}};

static PySequenceMethods packed_as_sequence = {
    .sq_length = packed_length,
    .sq_item = packed_sq_item,
};

static PyMappingMethods packed_as_mapping = {
    .mp_length = packed_length,
    .mp_subscript = packed_subscript,
    .mp_ass_subscript = packed_ass_subscript,
};

static PyNumberMethods packed_as_number = {
    .nb_add = packed_add,
    .nb_inplace_add = packed_inplace_add,
};

static PyTypeObject PackedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nardy_analyze.notation._matrows.PackedActions",
    .tp_basicsize = sizeof(Packed),
    .tp_dealloc = (destructor)packed_dealloc,
    .tp_repr = packed_repr,
    .tp_as_number = &packed_as_number,
    .tp_as_sequence = &packed_as_sequence,
    .tp_as_mapping = &packed_as_mapping,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_getattro = packed_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_SEQUENCE,
    .tp_doc = "A game's actions as the compiled .mat reader read them: a sequence of Actions, each made the first "
              "time it is asked for (the same object every time); a change asked for (append, insert, ...) makes "
              "them all, and the object a list from then on. Compared, pickled and copied as a list.",
    .tp_traverse = (traverseproc)packed_traverse,
    .tp_clear = (inquiry)packed_clear,
    .tp_richcompare = packed_richcompare,
    .tp_iter = packed_iter,
    .tp_methods = packed_methods,
};

static PackedApi PACKED_API = {&PackedType, packed_length, packed_item, packed_view};

/* the Actions of one row: appended to `out` (a list), or their cells to `pk` (not NULL: `out` unused; `src`
 * the text the line is at `base` of); 1 done, 0 the row is not one handled here, -1 an exception */
static int build_row(PyObject *line, const char *s, Py_ssize_t n, long lineno, long threshold, PyObject *out,
                     Packed *pk, Py_ssize_t base) {
    Item items[MAX_ITEMS];
    int count = 0;
    Py_ssize_t stop = n, pos = 0;
    while (stop > 0 && (s[stop - 1] == ' ' || s[stop - 1] == '\t')) stop--;
    while (pos < stop) {
        if (count == MAX_ITEMS || !match_item(s, n, pos, &items[count])) return 0;
        pos = items[count++].end;
    }
    if (!count) return 1;
    /* every play read first: a play that cannot be read leaves the row to the Python reader */
    uint8_t trips[MAX_ITEMS][MAX_STEPS_C][3];
    int ntrip[MAX_ITEMS];
    PyObject *hooked[MAX_ITEMS] = {NULL};
    int result = -1;
    for (int k = 0; k < count; k++) {
        ntrip[k] = 0;
        if (items[k].kind == ROLL && items[k].end - items[k].a > 3) {
            ntrip[k] = parse_trips(s, items[k].a + 3, items[k].end, trips[k]);
            if (ntrip[k] < 0) {
                ntrip[k] = 0;
                hooked[k] = hook_steps(line, items[k].a + 3, items[k].end, (long)items[k].a + 4);
                if (!hooked[k]) goto done;
                if (hooked[k] == Py_None) { result = 0; goto done; }
            }
        }
    }
    /* the Actions (or cells) appended as they are made (nothing after this point leaves the row to Python) */
    Py_ssize_t made = 0;
    long move = -1, no_col = 0, no_end = 0;
    int after_no = 0, nested = 0;
    for (int k = 0; k < count; k++) {
        Item *it = &items[k];
        long col = (long)it->a + 1;
        if (it->kind == NO) {
            nested = move >= 0 || made > 0;
            move = it->value;
            no_col = col;
            no_end = col + (long)(it->end - it->a);
            after_no = 1;
            continue;
        }
        int side;
        if (after_no) {
            side = cell_side(col, threshold, 1, nested, no_col, no_end, k + 1 < count && items[k + 1].kind != NO);
            after_no = 0;
        } else {
            side = col < threshold ? 0 : 1;
        }
        Cell c = {.kind = (uint8_t)it->kind, .player = (uint8_t)side, .line = lineno, .col = col, .move = move,
                  .value = it->value, .and_match = (uint8_t)(it->and_match != 0), .ta = it->a, .tb = it->end};
        if (it->kind == ROLL || it->kind == CANNOT) {
            PyObject *dt;
            PyObject *dice = dice_of(line, it->a, &dt);
            if (!dice) goto fail;
            c.dice = Py_NewRef(dice);
            c.dt = dt;
            c.d1 = (uint8_t)(s[it->a] - '0');
            c.d2 = (uint8_t)(s[it->a + 1] - '0');
            if (it->kind == ROLL) {
                c.nsteps = (uint8_t)ntrip[k];
                c.steps_obj = hooked[k];
                hooked[k] = NULL;
            }
        }
        if (pk) {
            c.ta += base;
            c.tb += base;
            if (packed_push(pk, &c, (const uint8_t (*)[3])trips[k]) < 0) goto fail;
        } else {
            PyObject *action = cell_action(&c, line, (const uint8_t (*)[3])trips[k]);
            cell_clear(&c);
            if (!action) goto fail;
            int r = PyList_Append(out, action);
            Py_DECREF(action);
            if (r < 0) goto fail;
        }
        made++;
    }
    result = 1;
    goto done;
fail:
    result = -1;
done:
    for (int k = 0; k < count; k++) Py_XDECREF(hooked[k]);
    return result;
}

static PyObject *game_actions(PyObject *self, PyObject *args) {
    PyObject *lines;
    Py_ssize_t first, end;
    long lineno, threshold;
    if (!PyArg_ParseTuple(args, "O!nnll", &PyList_Type, &lines, &first, &end, &lineno, &threshold)) return NULL;
    if (!Action) {
        PyErr_SetString(PyExc_RuntimeError, "_matrows.configure() was not called");
        return NULL;
    }
    if (end > PyList_GET_SIZE(lines)) end = PyList_GET_SIZE(lines);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (Py_ssize_t i = first; i < end; i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        lineno++;
        if (!PyUnicode_Check(line) || !PyUnicode_IS_ASCII(line)) goto other;
        int r = build_row(line, (const char *)PyUnicode_DATA(line), PyUnicode_GET_LENGTH(line), lineno, threshold,
                          out, NULL, 0);
        if (r < 0) { Py_DECREF(out); return NULL; }
        if (r == 0) goto other;
    }
    return out;
other:
    Py_DECREF(out);
    Py_RETURN_NONE;
}

/* -- the project's own notation (.ngn): its common move lines ------------------------------------------------
 *
 * The reference is nardy_analyze/notation/ngn.py: ``_fast_line`` (a line cut by the grammar's terminals) and
 * ``_Reader._moves_line``/``_moves_line_b``/``_cell``/``_roll`` (its Actions).  Handled here: a blank line, and
 *     [ \t]* N. [ \t]* ROLL ([ \t]* ROLL)? [ \t]*        (moves_line: White's cell, then Black's)
 *     [ \t]* N... [ \t]* ROLL [ \t]*                      (moves_line_b: Black's cell)
 *     [ \t]* (chain|handover) ([ \t]* [WB])? [ \t]* PART [ \t]*   (cont_line of one part: the roll above goes on)
 * with N [0-9]{1,6}, ROLL "[0-9][0-9]:" followed by nothing, or by blanks and a play (STEP words, each
 * ended by a blank or the line's end) or "cannot move", and PART "[1-6]{1,4}:" followed by nothing or by
 * blanks and a play; every other line (a tag, "Game N", a comment, a clock, "??:", a play the row reader
 * cannot read, any character that is not ASCII) is the Python reader's. */

/* ROLL at i: its end, or -1 (not a roll handled here); *cannot set for "cannot move" */
static Py_ssize_t ngn_roll(const char *s, Py_ssize_t n, Py_ssize_t i, int *cannot) {
    *cannot = 0;
    if (!(i + 2 < n && is_digit(s[i]) && is_digit(s[i + 1]) && s[i + 2] == ':')) return -1;
    Py_ssize_t j = i + 3, k = blanks(s, n, j);
    if (k == j || k >= n) return j;             /* the dice alone */
    if (word_ci(s, n, k, "cannot")) {           /* cannot[ \t]+move(?![A-Za-z]) */
        Py_ssize_t m = k + 6, q = blanks(s, n, m);
        if (q > m && word_ci(s, n, q, "move")) {
            char c = q + 4 < n ? s[q + 4] : ' ';
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return -1;
            *cannot = 1;
            return q + 4;
        }
        return -1;
    }
    Py_ssize_t e = step_end(s, n, k);           /* PLAY: STEP ([ \t]+ STEP)* */
    if (e < 0) return j;                        /* (no play: the dice alone; what follows decides) */
    j = e;
    for (;;) {
        k = blanks(s, n, j);
        if (k == j || k >= n) break;
        e = step_end(s, n, k);
        if (e < 0) break;
        j = e;
    }
    return j;
}

/* one ROLL cell's Action (a new reference), or Py_None when its play is not plainly readable, NULL on an
 * exception */
static PyObject *ngn_cell(PyObject *line, const char *s, Py_ssize_t a, Py_ssize_t end, int cannot, long lineno,
                          PyObject *move, int side) {
    PyObject *steps = NULL;
    if (!cannot && end - a > 3) {
        steps = play_steps(line, a + 3, end, (long)a + 4);
        if (!steps || steps == Py_None) return steps;
    }
    PyObject *loc = make_loc(lineno, (long)a + 1);
    PyObject *text = PyUnicode_Substring(line, a, end);
    PyObject *player = PyLong_FromLong(side);
    PyObject *dt = NULL;
    PyObject *action = NULL;
    PyObject *dice = loc && text && player ? dice_of(line, a, &dt) : NULL;
    if (dice && cannot) {
        PyObject *args[] = {KindRoll, player, loc, move, text, dice, dt, loc, Py_True};
        action = make(args, 8, KW_CANNOT, 9);
    } else if (dice) {
        /* (a list of parse_play's is new and used once: taken as it is) */
        PyObject *list = !steps ? PyList_New(0) : PyList_CheckExact(steps) ? Py_NewRef(steps) : PySequence_List(steps);
        if (list) {
            PyObject *args[] = {KindRoll, player, loc, move, text, dice, dt, loc, list};
            action = make(args, 9, NULL, 9);
            Py_DECREF(list);
        }
    }
    Py_XDECREF(steps);
    Py_XDECREF(loc);
    Py_XDECREF(text);
    Py_XDECREF(player);
    Py_XDECREF(dt);
    return action;
}

static inline int word_end(const char *s, Py_ssize_t n, Py_ssize_t i) {      /* (?![A-Za-z0-9_]) */
    if (i >= n) return 1;
    char c = s[i];
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_');
}

/* a chain or handover line (ngn._Reader._cont_line with one part, ``_segment``): the Segment appended to the
 * segments of the roll above (the last of `out`): 1, 0 not one handled here, -1 an exception */
static int ngn_part_line(PyObject *line, const char *s, Py_ssize_t n, Py_ssize_t i, long lineno, PyObject *out) {
    int chain;
    Py_ssize_t j;
    if (word_ci(s, n, i, "chain") && word_end(s, n, i + 5)) { chain = 1; j = i + 5; }
    else if (word_ci(s, n, i, "handover") && word_end(s, n, i + 8)) { chain = 0; j = i + 8; }
    else return 0;
    if (!SegmentClass || PyList_GET_SIZE(out) == 0) return 0;
    PyObject *action = PyList_GET_ITEM(out, PyList_GET_SIZE(out) - 1);
    PyObject *kind = slot_attr(action, S_kind);
    if (!kind) return -1;
    Py_DECREF(kind);
    if (kind != KindRoll) return 0;             /* (no roll above: the Python reader's message) */
    long roller;
    PyObject *pl = slot_attr(action, S_player);
    if (!pl) return -1;
    roller = PyLong_AsLong(pl);
    Py_DECREF(pl);
    if (roller == -1 && PyErr_Occurred()) return -1;
    if (roller != 0 && roller != 1) return 0;
    int player = chain ? (int)roller : 1 - (int)roller;
    Py_ssize_t k = blanks(s, n, j);
    if (k < n && (s[k] == 'W' || s[k] == 'B') && word_end(s, n, k + 1)) {       /* SIDE */
        player = s[k] == 'W' ? 0 : 1;
        k = blanks(s, n, k + 1);
    }
    /* PART: [0-9]{1,4}: ([ \t]+ PLAY)?, its numbers 1-6 */
    Py_ssize_t a = k, e = k;
    while (e < n && e - a < 4 && is_digit(s[e])) e++;
    if (e == a || e >= n || s[e] != ':') return 0;
    int nd = (int)(e - a), dice[4];
    for (int q = 0; q < nd; q++) {
        if (s[a + q] < '1' || s[a + q] > '6') return 0;
        dice[q] = s[a + q] - '0';
    }
    Py_ssize_t end = e + 1, m = blanks(s, n, end);
    if (m > end && m < n) {
        Py_ssize_t x = step_end(s, n, m);
        if (x < 0) return 0;
        end = x;
        for (;;) {
            Py_ssize_t b = blanks(s, n, end);
            if (b == end || b >= n) break;
            x = step_end(s, n, b);
            if (x < 0) return 0;
            end = x;
        }
    }
    if (blanks(s, n, end) != n) return 0;
    if (chain && nd == 2 && dice[0] == dice[1]) { dice[2] = dice[3] = dice[0]; nd = 4; }
    PyObject *steps = end > e + 1 ? play_steps(line, e + 1, end, (long)e + 2) : PyTuple_New(0);
    if (!steps) return -1;
    if (steps == Py_None) { Py_DECREF(steps); return 0; }
    PyObject *segments = slot_attr(action, S_segments);
    PyObject *numbers = PyTuple_New(nd), *list = PySequence_List(steps);
    PyObject *loc = make_loc(lineno, (long)i + 1), *text = PyUnicode_Substring(line, i, end);
    PyObject *who = PyLong_FromLong(player), *seg = NULL;
    int r = -1;
    Py_DECREF(steps);
    if (segments && numbers && list && loc && text && who && PyList_Check(segments)) {
        for (int q = 0; q < nd; q++) PyTuple_SET_ITEM(numbers, q, PyLong_FromLong(dice[q]));
        PyObject *args[] = {chain ? W_chain : W_handover, who, numbers, list, loc, text};
        seg = PyObject_Vectorcall(SegmentClass, args, 6, NULL);
        if (seg) r = PyList_Append(segments, seg) < 0 ? -1 : 1;
    } else if (segments && !PyList_Check(segments)) {
        r = 0;
    }
    Py_XDECREF(seg);
    Py_XDECREF(segments);
    Py_XDECREF(numbers);
    Py_XDECREF(list);
    Py_XDECREF(loc);
    Py_XDECREF(text);
    Py_XDECREF(who);
    return r;
}

/* one line: 1 read (its Actions appended to out, *items set when it had any), 0 not one handled here, -1 an
 * exception */
static int ngn_line(PyObject *line, long lineno, PyObject *out, int *items) {
    *items = 0;
    if (!PyUnicode_Check(line) || !PyUnicode_IS_ASCII(line)) return 0;
    const char *s = (const char *)PyUnicode_DATA(line);
    Py_ssize_t n = PyUnicode_GET_LENGTH(line), i = blanks(s, n, 0);
    if (i == n) return 1;                       /* a blank line */
    if (!is_digit(s[i])) {
        int r = ngn_part_line(line, s, n, i, lineno, out);
        *items = r == 1;
        return r;
    }
    long no;
    Py_ssize_t j = digits(s, n, i, 6, &no);
    if (j < 0 || j >= n || s[j] != '.') return 0;
    int black = 0;
    if (j + 1 < n && s[j + 1] == '.') {         /* N... (MOVE_NO_B), else N. not followed by a dot (MOVE_NO) */
        if (!(j + 2 < n && s[j + 2] == '.')) return 0;
        black = 1;
        j += 3;
    } else {
        j += 1;
    }
    Py_ssize_t r[2][2];
    int cannot[2], cells = 0;
    Py_ssize_t pos = blanks(s, n, j);
    while (pos < n) {
        if (cells == (black ? 1 : 2)) return 0;
        Py_ssize_t e = ngn_roll(s, n, pos, &cannot[cells]);
        if (e < 0) return 0;
        r[cells][0] = pos; r[cells][1] = e;
        cells++;
        Py_ssize_t k = blanks(s, n, e);
        if (k < n && k == e) return 0;          /* (a roll runs into what follows: Lark's to read) */
        pos = k;
    }
    if (!cells) return 0;
    PyObject *move = PyLong_FromLong(no);
    if (!move) return -1;
    PyObject *acts[2] = {NULL, NULL};
    int result = 1;
    for (int c = 0; c < cells; c++) {
        acts[c] = ngn_cell(line, s, r[c][0], r[c][1], cannot[c], lineno, move, black ? 1 : c);
        if (!acts[c]) { result = -1; break; }
        if (acts[c] == Py_None) { result = 0; break; }
    }
    for (int c = 0; result == 1 && c < cells; c++)
        if (PyList_Append(out, acts[c]) < 0) result = -1;
    for (int c = 0; c < cells; c++) Py_XDECREF(acts[c]);
    Py_DECREF(move);
    *items = result == 1;
    return result;
}

/* ngn_actions(lines, first, actions): lines[first], lines[first + 1], ... (line numbers first + 1, ...) read
 * while each is a line handled here, their Actions appended to `actions`; (the index of the first line not
 * read, the number of the last line read that had an item, or 0) */
static PyObject *ngn_actions(PyObject *self, PyObject *args) {
    PyObject *lines, *out;
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "O!nO!", &PyList_Type, &lines, &first, &PyList_Type, &out)) return NULL;
    if (!Action) {
        PyErr_SetString(PyExc_RuntimeError, "_matrows.configure() was not called");
        return NULL;
    }
    Py_ssize_t i = first < 0 ? 0 : first, n = PyList_GET_SIZE(lines);
    long last = 0;
    for (; i < n; i++) {
        int items;
        int r = ngn_line(PyList_GET_ITEM(lines, i), (long)i + 1, out, &items);
        if (r < 0) return NULL;
        if (r == 0) break;
        if (items) last = (long)i + 1;
    }
    return Py_BuildValue("(nl)", i, last);
}

/* configure_ngn(Segment): the class of the chain and handover parts ngn_actions reads */
static PyObject *configure_ngn(PyObject *self, PyObject *args) {
    PyObject *seg;
    if (!PyArg_ParseTuple(args, "O", &seg)) return NULL;
    Py_INCREF(seg);
    Py_XSETREF(SegmentClass, seg);
    Py_RETURN_NONE;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *a, *l, *d, *h, *kr, *kd, *kt, *kp, *kw, *ks, *so;
    long gap, most_steps, most_repeat;
    if (!PyArg_ParseTuple(args, "OOO!OOOOOOOOlll", &a, &l, &PyDict_Type, &d, &h, &so, &kr, &kd, &kt, &kp, &kw, &ks,
                          &gap, &most_steps, &most_repeat))
        return NULL;
    if (most_steps != MAX_STEPS_C || most_repeat != MAX_REPEAT_C) {
        PyErr_SetString(PyExc_ValueError, "MAX_STEPS / MAX_REPEAT differ from the compiled reader's");
        return NULL;
    }
    PyObject **slots[] = {&Action, &Loc, &DiceOf, &StepsHook, &StepOf, &KindRoll, &KindDouble, &KindTake,
                          &KindDrop, &KindWin, &KindResign};
    PyObject *vals[] = {a, l, d, h, so, kr, kd, kt, kp, kw, ks};
    for (int i = 0; i < 11; i++) {
        Py_INCREF(vals[i]);
        Py_XSETREF(*slots[i], vals[i]);
    }
    LeftCellGap = gap;
    PyDict_Clear(Plays);
    step_forget();
    dice_forget();
    loc_forget();
    shape_clear(&ActionShape);
    shape_clear(&LocShape);
    Py_RETURN_NONE;
}

/* shapes(action_fields, loc_fields, index of "value", of "and_match", of "cannot_move"): make Actions and Locs
 * without calling them (see Shape); True when both can be */
static PyObject *shapes(PyObject *self, PyObject *args) {
    PyObject *af, *lf;
    int iv, ia, ic;
    if (!PyArg_ParseTuple(args, "OOiii", &af, &lf, &iv, &ia, &ic)) return NULL;
    if (!Action || !Loc) {
        PyErr_SetString(PyExc_RuntimeError, "_matrows.configure() was not called");
        return NULL;
    }
    loc_forget();
    int a = shape_init(&ActionShape, Action, af);
    if (a < 0) return NULL;
    int l = shape_init(&LocShape, Loc, lf);
    if (l < 0) { shape_clear(&ActionShape); return NULL; }
    if (iv < 0 || iv >= ActionShape.n || ia < 0 || ia >= ActionShape.n || ic < 0 || ic >= ActionShape.n)
        shape_clear(&ActionShape);
    I_VALUE = iv; I_AND_MATCH = ia; I_CANNOT = ic;
    return PyBool_FromLong(ActionShape.type != NULL && LocShape.type != NULL);
}


/* -- a growing byte buffer (the SGF roll nodes, the JSON writer) */

typedef struct {
    char *buf;
    Py_ssize_t len, cap;
} JBuf;

static int jb_grow(JBuf *b, Py_ssize_t more) {
    if (b->len + more <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) {
        if (cap > PY_SSIZE_T_MAX / 2) { PyErr_NoMemory(); return -1; }
        cap *= 2;
    }
    char *nb = PyMem_Realloc(b->buf, (size_t)cap);
    if (!nb) { PyErr_NoMemory(); return -1; }
    b->buf = nb;
    b->cap = cap;
    return 0;
}

static int jb_put(JBuf *b, const char *s, Py_ssize_t n) {
    if (jb_grow(b, n) < 0) return -1;
    memcpy(b->buf + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

/* -- the SGF writer's common node ------------------------------------------------------------------------ */

static PyObject *S_dice = NULL, *S_unplayed = NULL, *S_illegal_mark = NULL, *S_clock = NULL, *S_clock_left = NULL,
                *S_comments = NULL, *S_steps = NULL, *S_src = NULL, *S_dst = NULL, *S_route = NULL;

/* sgf.py's _letter of a point 0-25 (OFF, the points, BAR) for side 0 or 1; 0 for any other */
static inline char sgf_letter(long p, int side) {
    if (p == 25) return 'y';
    if (p == 0) return 'z';
    if (p < 1 || p > 24) return 0;
    return side == 0 ? (char)('a' + p - 1) : (char)('x' - (p - 1));
}

/* an int attribute (or item k of a tuple when name is NULL) in 0..25, else -1 */
static long point_of(PyObject *o, PyObject *name, Py_ssize_t k) {
    PyObject *v, *owned = NULL;               /* (v borrowed: reading an exact int's value runs no Python code) */
    if (name) {
        v = slot_peek(o, name);
        if (!v) {
            v = owned = slot_attr_slow(o, name);
            if (!v) { PyErr_Clear(); return -1; }
        }
    } else {
        if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) <= k) return -1;
        v = PyTuple_GET_ITEM(o, k);
    }
    long x = -1;
    if (!PyLong_CheckExact(v) || !slot_long_value(v, &x)) x = -1;
    Py_XDECREF(owned);
    return x < 0 || x > 25 ? -1 : x;
}

/* 1 when the attribute is None, 0 when not (or it cannot be read) */
static inline int attr_none(PyObject *o, PyObject *name) {
    return slot_is(o, name, Py_None);
}

/* 1 when the attribute is false (bool() of it), 0 when true or it cannot be read */
static inline int attr_false(PyObject *o, PyObject *name) {
    return slot_truth(o, name) == 0;
}

/* the letters of steps (a sequence of Step objects, or of (src, dst, hit) tuples when tuples) into buf;
 * the count written, or -1 when a step is not one written here; sm: the Steps' slot map the caller keeps over
 * its calls (NULL: none) */
static Py_ssize_t step_letters(PyObject *steps, int tuples, int side, char *buf, Py_ssize_t room, SlotMap *sm) {
    PyObject *seq = PySequence_Fast(steps, "steps");
    if (!seq) { PyErr_Clear(); return -1; }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), w = 0;
    if (2 * n > room) { Py_DECREF(seq); return -1; }
    PyObject *const names[2] = {S_src, S_dst};
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *st = PySequence_Fast_GET_ITEM(seq, k);
        long a = -1, b = -1;
        if (!tuples && sm) {            /* (a Step's two slots at their offsets, the map kept by the caller) */
            if (Py_TYPE(st) != sm->type) slot_map(sm, Py_TYPE(st), names, 2);
            PyObject *x = slot_at(sm, st, 0), *y = slot_at(sm, st, 1);
            if (x && y && PyLong_CheckExact(x) && PyLong_CheckExact(y) && slot_long_value(x, &a)
                    && slot_long_value(y, &b) && a >= 0 && a <= 25 && b >= 0 && b <= 25) {
                char cx = sgf_letter(a, side), cy = sgf_letter(b, side);
                if (!cx || !cy) { Py_DECREF(seq); return -1; }
                buf[w++] = cx;
                buf[w++] = cy;
                continue;
            }
        }
        a = tuples ? point_of(st, NULL, 0) : point_of(st, S_src, 0);
        b = a < 0 ? -1 : tuples ? point_of(st, NULL, 1) : point_of(st, S_dst, 0);
        char x = a < 0 ? 0 : sgf_letter(a, side), y = b < 0 ? 0 : sgf_letter(b, side);
        if (!x || !y) { Py_DECREF(seq); return -1; }
        buf[w++] = x;
        buf[w++] = y;
    }
    Py_DECREF(seq);
    return w;
}

/* sgf_rolls(actions, i, known, nodes, ROLL, derived, routes=None) -> j: see the method's doc */
static PyObject *sgf_rolls(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *actions, *known, *nodes, *roll, *routes = Py_None;
    Py_ssize_t i;
    int derived;
    if (!fast_args("sgf_rolls", args, nargs, "OnDLOp|O", &actions, &i, &known, &nodes, &roll, &derived, &routes))
        return NULL;
    int packed = Py_IS_TYPE(actions, &PackedType);
    if (!packed && !PyList_Check(actions)) {
        PyErr_SetString(PyExc_TypeError, "sgf_rolls: actions is a list or packed");
        return NULL;
    }
    if (routes != Py_None && !PyDict_Check(routes)) {
        PyErr_SetString(PyExc_TypeError, "routes is a dict or None");
        return NULL;
    }
    Py_ssize_t n = packed ? packed_length(actions) : PyList_GET_SIZE(actions);
    char buf[8 + 2 * MAX_STEPS_C + 8];
    long last = -1;                 /* the player of the last roll written */
    JBuf run = {NULL, 0, 0};        /* the nodes written, one line each: appended to nodes as one string */
    PyObject *result = NULL;
    /* the Actions' slots read here, at their offsets (slot_map): nearly every action is of one class */
    enum { A_KIND, A_PLAYER, A_DICE, A_UNPLAYED, A_ILLEGAL, A_CLOCK, A_CLOCK_LEFT, A_COMMENTS, A_STEPS, A_N };
    PyObject *const names[A_N] = {S_kind, S_player, S_dice, S_unplayed, S_illegal_mark, S_clock, S_clock_left,
                                  S_comments, S_steps};
    SlotMap am = {NULL, 0, {0}}, sm = {NULL, 0, {0}};      /* (the Steps' too) */
    for (; i < n; i++) {
        /* a packed action not made yet: what its cell says (a cell has no clock, no comments, no mark) */
        PackedView v;
        int pv = packed && packed_view(actions, i, &v);
        PyObject *a = pv ? NULL : packed ? packed_item(actions, i) : PyList_GET_ITEM(actions, i);
        if (!pv && !a) goto done;
        if (a && Py_TYPE(a) != am.type) slot_map(&am, Py_TYPE(a), names, A_N);
        if (pv ? v.kind != roll : !slot_is_of(a, S_kind, roll, slot_at(&am, a, A_KIND))) {
            /* a double, a take or a drop with nothing else on it (_action_node's ";W[double]"...), and the win
             * that RE[] already says (derived: no node) */
            if (derived && KindWin && (pv ? v.kind == KindWin : slot_is(a, S_kind, KindWin))) continue;
            PyObject *kind = pv ? Py_NewRef(v.kind) : slot_attr(a, S_kind);
            if (!kind) { PyErr_Clear(); break; }
            const char *word = KindDouble && kind == KindDouble ? "double" : KindTake && kind == KindTake ? "take"
                               : KindDrop && kind == KindDrop ? "drop" : NULL;
            Py_DECREF(kind);
            if (!word) break;
            long p = pv ? v.player : point_of(a, S_player, 0);
            if (!pv && ((p != 0 && p != 1) || !attr_none(a, S_clock) || !attr_none(a, S_clock_left)
                        || !attr_false(a, S_comments)))
                break;
            char cube[16];
            int m = snprintf(cube, sizeof cube, "%s;%c[%s]", run.len ? "\n" : "", p ? 'B' : 'W', word);
            if (jb_put(&run, cube, m) < 0) goto done;
            continue;
        }
        long d[2] = {-1, -1}, p = -1;
        if (pv) {
            d[0] = v.d1;
            d[1] = v.d2;
            p = v.player;
        }
        /* the common roll, its slots read at their offsets: the dice, the player, and nothing else on it */
        PyObject *dv = pv ? NULL : slot_at(&am, a, A_DICE), *plv = pv ? NULL : slot_at(&am, a, A_PLAYER);
        PyObject *uv = pv ? NULL : slot_at(&am, a, A_UNPLAYED), *iv = pv ? NULL : slot_at(&am, a, A_ILLEGAL);
        PyObject *cv = pv ? NULL : slot_at(&am, a, A_CLOCK), *lv = pv ? NULL : slot_at(&am, a, A_CLOCK_LEFT);
        PyObject *mv = pv ? NULL : slot_at(&am, a, A_COMMENTS);
        int plain = pv || (dv && plv && uv == Py_False && iv && PyUnicode_CheckExact(iv) && PyUnicode_GET_LENGTH(iv) == 0
                    && cv == Py_None && lv == Py_None && mv && PyList_CheckExact(mv) && PyList_GET_SIZE(mv) == 0
                    && PyTuple_CheckExact(dv) && PyTuple_GET_SIZE(dv) == 2 && PyLong_CheckExact(plv)
                    && slot_long_value(plv, &p) && (p == 0 || p == 1));
        for (int k = 0; plain && !pv && k < 2; k++) {
            PyObject *x = PyTuple_GET_ITEM(dv, k);
            if (!PyLong_CheckExact(x) || !slot_long_value(x, &d[k]) || d[k] < 0 || d[k] > 9) plain = 0;
        }
        if (!plain) {                   /* (anything else: each slot read and judged the usual way) */
            PyObject *dice = slot_attr(a, S_dice);
            if (!dice) { PyErr_Clear(); break; }
            d[0] = d[1] = -1;
            if (PyTuple_Check(dice) && PyTuple_GET_SIZE(dice) == 2)
                for (int k = 0; k < 2; k++) {
                    PyObject *x = PyTuple_GET_ITEM(dice, k);
                    if (!PyLong_CheckExact(x) || !slot_long_value(x, &d[k])) d[k] = -1;
                }
            Py_DECREF(dice);
            if (d[0] < 0 || d[0] > 9 || d[1] < 0 || d[1] > 9) break;     /* (one digit each: the text as Python's) */
            p = point_of(a, S_player, 0);
            if (p != 0 && p != 1) break;
            if (!attr_false(a, S_unplayed) || !attr_false(a, S_illegal_mark) || !attr_none(a, S_clock)
                    || !attr_none(a, S_clock_left) || !attr_false(a, S_comments))
                break;
        }
        /* (the index as a key only where a dict has entries: a sparse view's are nearly empty) */
        int look_known = PyDict_GET_SIZE(known) > 0;
        int look_routes = routes != Py_None && PyDict_GET_SIZE(routes) > 0;
        PyObject *key = look_known || look_routes ? PyLong_FromSsize_t(i) : NULL;
        if (!key && (look_known || look_routes)) goto done;
        PyObject *na = look_known ? PyDict_GetItemWithError(known, key) : NULL;      /* borrowed */
        PyObject *route;
        if (!na && !PyErr_Occurred() && routes != Py_None) {   /* a sparse view's roll told by its route alone */
            route = look_routes ? PyDict_GetItemWithError(routes, key) : NULL;       /* borrowed */
            Py_XDECREF(key);
            if (!route && PyErr_Occurred()) goto done;
            route = Py_NewRef(route ? route : Py_None);
        } else {
            Py_XDECREF(key);
            if (!na && PyErr_Occurred()) goto done;
            route = na ? slot_attr(na, S_route) : Py_NewRef(Py_None);
            if (!route) { PyErr_Clear(); break; }
        }
        Py_ssize_t w = 0;
        if (run.len) buf[w++] = '\n';
        buf[w++] = ';';
        buf[w++] = p ? 'B' : 'W';
        buf[w++] = '[';
        buf[w++] = (char)('0' + d[0]);
        buf[w++] = (char)('0' + d[1]);
        Py_ssize_t m;
        if (route != Py_None) {
            m = step_letters(route, 1, (int)p, buf + w, 2 * MAX_STEPS_C, NULL);
        } else if (pv) {               /* (the cell's steps: points 0-25) */
            m = 0;
            for (int k = 0; k < v.nsteps && m >= 0; k++) {
                char x = sgf_letter(v.steps[k][0], (int)p), y = sgf_letter(v.steps[k][1], (int)p);
                if (!x || !y) m = -1;
                else { buf[w + m] = x; buf[w + m + 1] = y; m += 2; }
            }
        } else {
            PyObject *steps = slot_at(&am, a, A_STEPS);
            steps = steps ? Py_NewRef(steps) : slot_attr(a, S_steps);
            m = steps ? step_letters(steps, 0, (int)p, buf + w, 2 * MAX_STEPS_C, &sm) : -1;
            if (!steps) PyErr_Clear();
            Py_XDECREF(steps);
        }
        Py_DECREF(route);
        if (m < 0) break;
        w += m;
        buf[w++] = ']';
        if (jb_put(&run, buf, w) < 0) goto done;
        last = p;
    }
    if (run.len) {                  /* (ASCII: the letters, digits and words above) */
        PyObject *text = PyUnicode_FromStringAndSize(run.buf, run.len);
        if (!text) goto done;
        int err = PyList_Append(nodes, text);
        Py_DECREF(text);
        if (err < 0) goto done;
    }
    result = Py_BuildValue("(nl)", i, last);
done:
    PyMem_Free(run.buf);
    return result;
}

/* -- a whole common game --------------------------------------------------------------------------- */

/* mat_game(text, start, end, line_off, left_cell, packed=False) -> the game text[start:end] (its "Game N" line first, the
 * lines numbered from line_off + 1) read as notation/mat.py reads a common game, or None: a plain "Game N" line
 * (N of one to six digits), the score line (the first line after it that is not blank) as _FAST_SCORE reads
 * it, no name of the score line in the rows after it (any case: _pasted_score has nothing to do) and every
 * row one game_actions takes.  Returns (header column, N, first name or None, second name or None, first
 * score, second score, the score line's number, its column, the Actions (with packed: a PackedActions, each made
 * when asked for), the number of the game's last line that is not blank, whether a resignation is among the
 * Actions, the number of lines of the game's text).  The Python code (_Reader._pasted_score and
 * _Reader._game_lines) is the reference and reads every other game. */
#define SCORE_NAME_MAX 100

static inline int sp_tab(Py_UCS4 c) { return c == ' ' || c == '\t'; }

/* The index of the first newline of a str's data d (of kind) in [i, end), or end: memchr on a text of one byte a
 * character (nearly every record), else a character at a time. */
static inline Py_ssize_t next_nl(int kind, const void *d, Py_ssize_t i, Py_ssize_t end) {
    if (kind == PyUnicode_1BYTE_KIND) {
        const char *p = i < end ? memchr((const char *)d + i, '\n', (size_t)(end - i)) : NULL;
        return p ? (Py_ssize_t)(p - (const char *)d) : (i < end ? end : i);
    }
    while (i < end && PyUnicode_READ(kind, d, i) != '\n') i++;
    return i;
}

/* How many newlines there are in [i, end) of a str's data d (of kind). */
static Py_ssize_t count_nl(int kind, const void *d, Py_ssize_t i, Py_ssize_t end) {
    Py_ssize_t c = 0;
    for (i = next_nl(kind, d, i, end); i < end; i = next_nl(kind, d, i + 1, end)) c++;
    return c;
}
static inline int dig(Py_UCS4 c) { return c >= '0' && c <= '9'; }

/* a score line's NAME from i (the first character after blanks) up to the colon: its end (exclusive), the
 * colon's index in *colon; -1 when the line has no such name (none, too long, a newline first) */
static Py_ssize_t score_name(int kind, const void *d, Py_ssize_t i, Py_ssize_t e, Py_ssize_t *colon) {
    Py_ssize_t j = i;
    while (j < e && PyUnicode_READ(kind, d, j) != ':') j++;
    if (j == e) return -1;
    Py_ssize_t last = j;
    while (last > i && sp_tab(PyUnicode_READ(kind, d, last - 1))) last--;
    if (last == i || last - i > SCORE_NAME_MAX) return -1;
    *colon = j;
    return last;
}

/* [0-9]{1,6}(?![0-9]) from i: the end, or -1 */
static Py_ssize_t score_int(int kind, const void *d, Py_ssize_t i, Py_ssize_t e, long *value) {
    Py_ssize_t j = i;
    long v = 0;
    while (j < e && dig(PyUnicode_READ(kind, d, j)) && j - i < 7) {
        v = v * 10 + (long)(PyUnicode_READ(kind, d, j) - '0');
        j++;
    }
    if (j == i || j - i > 6) return -1;
    *value = v;
    return j;
}

/* one player's part of a score line from i: [ \t]*(NAME)?[ \t]*:[ \t]*INT(?![0-9])[ \t]*, the name's span in
 * [*na, *nb) (-1 when there is none), the colon's index and the score; the end, or -1 when it is not one */
static Py_ssize_t score_part(int kind, const void *d, Py_ssize_t i, Py_ssize_t e, Py_ssize_t *na, Py_ssize_t *nb,
                             Py_ssize_t *colon, long *score) {
    *na = *nb = -1;
    while (i < e && sp_tab(PyUnicode_READ(kind, d, i))) i++;
    if (i == e) return -1;
    if (PyUnicode_READ(kind, d, i) != ':') {
        *na = i;
        *nb = score_name(kind, d, i, e, colon);
        if (*nb < 0) return -1;
    } else {
        *colon = i;
    }
    i = *colon + 1;
    while (i < e && sp_tab(PyUnicode_READ(kind, d, i))) i++;
    i = score_int(kind, d, i, e, score);
    if (i < 0) return -1;
    while (i < e && sp_tab(PyUnicode_READ(kind, d, i))) i++;
    return i;
}

/* kinds_in(actions, kinds, stop=-1) -> int: bit k set when kinds[k] is the kind of one of actions[:stop] (stop < 0:
 * all of them), found by identity; the kinds are Kind members (at most 30) */
static PyObject *kinds_in(PyObject *self, PyObject *args) {
    PyObject *actions, *kinds;
    Py_ssize_t stop = -1;
    if (!PyArg_ParseTuple(args, "OO!|n", &actions, &PyTuple_Type, &kinds, &stop)) return NULL;
    int packed = Py_IS_TYPE(actions, &PackedType);
    if (!packed && !PyList_Check(actions)) {
        PyErr_SetString(PyExc_TypeError, "kinds_in: actions is a list or packed");
        return NULL;
    }
    Py_ssize_t nk = PyTuple_GET_SIZE(kinds), n = packed ? packed_length(actions) : PyList_GET_SIZE(actions);
    if (nk > 30) { PyErr_SetString(PyExc_ValueError, "kinds_in: at most 30 kinds"); return NULL; }
    if (stop >= 0 && stop < n) n = stop;
    long mask = 0, all = (1L << nk) - 1;
    for (Py_ssize_t i = 0; i < n && mask != all; i++) {
        PackedView v;
        PyObject *k;
        if (packed && packed_view(actions, i, &v)) {
            k = Py_NewRef(v.kind);
        } else {
            PyObject *a = packed ? packed_item(actions, i) : PyList_GET_ITEM(actions, i);
            if (!a) return NULL;
            k = slot_attr(a, S_kind);
            if (!k) return NULL;
        }
        for (Py_ssize_t j = 0; j < nk; j++)
            if (PyTuple_GET_ITEM(kinds, j) == k) { mask |= 1L << j; break; }
        Py_DECREF(k);
    }
    return PyLong_FromLong(mask);
}

/* what a packed cell says of the attribute `name` of its Action: VT_FALSE false for every cell (no comments, no
 * parts, no clock...), VT_CANNOT, VT_STEPS, VT_AND_MATCH its own; VT_ASK: the Action is made and asked */
enum { VT_ASK, VT_FALSE, VT_CANNOT, VT_STEPS, VT_AND_MATCH };

static int view_attr(PyObject *name) {
    static const char *const never[] = {"segments", "comments", "unplayed", "illegal_mark", "clock", "clock_left",
                                        "setup", "level", "margin", NULL};
    for (int k = 0; never[k]; k++)
        if (PyUnicode_CompareWithASCIIString(name, never[k]) == 0) return VT_FALSE;
    if (PyUnicode_CompareWithASCIIString(name, "cannot_move") == 0) return VT_CANNOT;
    if (PyUnicode_CompareWithASCIIString(name, "steps") == 0) return VT_STEPS;
    if (PyUnicode_CompareWithASCIIString(name, "and_match") == 0) return VT_AND_MATCH;
    return VT_ASK;
}

/* any_set(actions, name) -> bool: whether the attribute ``name`` of one of the actions (a list, or packed) is true,
 * as any(map(attrgetter(name), actions)) says it (notation/__init__.py: _any_set, its reference); stops at the first */
static PyObject *any_set(PyObject *self, PyObject *args) {
    PyObject *actions, *name;
    if (!PyArg_ParseTuple(args, "OU", &actions, &name)) return NULL;
    int packed = Py_IS_TYPE(actions, &PackedType);
    if (!packed && !PyList_Check(actions)) {
        PyErr_SetString(PyExc_TypeError, "any_set: actions is a list or packed");
        return NULL;
    }
    int said = packed ? view_attr(name) : VT_ASK;
    Py_ssize_t n = packed ? packed_length(actions) : PyList_GET_SIZE(actions);
    for (Py_ssize_t i = 0; i < n; i++) {
        PackedView v;
        if (said != VT_ASK && packed_view(actions, i, &v)) {
            int t = said == VT_CANNOT ? v.cannot : said == VT_STEPS ? v.nsteps > 0
                    : said == VT_AND_MATCH ? v.and_match : 0;
            if (t) Py_RETURN_TRUE;
            continue;
        }
        PyObject *a = packed ? packed_item(actions, i) : PyList_GET_ITEM(actions, i);
        if (!a) return NULL;
        PyObject *val = slot_attr(a, name);
        if (!val) return NULL;
        int t = PyObject_IsTrue(val);
        Py_DECREF(val);
        if (t < 0) return NULL;
        if (t) Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

/* -- the .ngn sniff's lines (notation/sniffs.py: looks_like_ngn, whose regular expressions are the reference) */

static inline int ngn_blank(Py_UCS4 c) { return c == ' ' || c == '\t'; }
static inline int ngn_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }

/* whether c is the lowercase ASCII letter w as the expression's case-insensitive match takes it: either case, and
 * the only other characters Python's re takes for these letters: U+0130 and U+0131 for i, U+017F for s */
static inline int ngn_letter(Py_UCS4 c, char w) {
    if (c < 128) return (c >= 'A' && c <= 'Z' ? c + 32 : c) == (Py_UCS4)w;
    return (w == 'i' && (c == 0x130 || c == 0x131)) || (w == 's' && c == 0x17f);
}

/* the word w (lowercase ASCII) at i, in any case: its end, or -1 */
static Py_ssize_t ngn_word(int kind, const void *d, Py_ssize_t i, Py_ssize_t n, const char *w) {
    for (; *w; w++, i++)
        if (i >= n || !ngn_letter(PyUnicode_READ(kind, d, i), *w)) return -1;
    return i;
}

/* whether the line from i (its first character) starts as an .ngn line, in one of the expression's three ways */
static int ngn_starts(int kind, const void *d, Py_ssize_t i, Py_ssize_t n) {
    while (i < n && ngn_blank(PyUnicode_READ(kind, d, i))) i++;
    if (i >= n) return 0;
    Py_UCS4 c = PyUnicode_READ(kind, d, i);
    if (c == '[') {                          /* \[[^\]"\n]+"  */
        Py_ssize_t j = i + 1;
        while (j < n) {
            Py_UCS4 x = PyUnicode_READ(kind, d, j);
            if (x == ']' || x == '"' || x == '\n') break;
            j++;
        }
        return j > i + 1 && j < n && PyUnicode_READ(kind, d, j) == '"';
    }
    if (ngn_digit(c)) {                      /* [0-9]{1,6}\.(?:\.\.)?[ \t]+(?:[0-9]{2}|\?\?):  */
        Py_ssize_t j = i;
        while (j < n && ngn_digit(PyUnicode_READ(kind, d, j))) j++;
        if (j - i > 6 || j >= n || PyUnicode_READ(kind, d, j) != '.') return 0;
        j++;
        if (j + 1 < n && PyUnicode_READ(kind, d, j) == '.' && PyUnicode_READ(kind, d, j + 1) == '.') j += 2;
        Py_ssize_t k = j;
        while (k < n && ngn_blank(PyUnicode_READ(kind, d, k))) k++;
        if (k == j || k + 2 >= n) return 0;
        Py_UCS4 a = PyUnicode_READ(kind, d, k), b = PyUnicode_READ(kind, d, k + 1);
        return ((ngn_digit(a) && ngn_digit(b)) || (a == '?' && b == '?')) && PyUnicode_READ(kind, d, k + 2) == ':';
    }
    /* (?i:game)[ \t]+[0-9]+[ \t]+(?i:players|ratings|score)\b  */
    Py_ssize_t j = ngn_word(kind, d, i, n, "game");
    if (j < 0) return 0;
    Py_ssize_t k = j;
    while (k < n && ngn_blank(PyUnicode_READ(kind, d, k))) k++;
    if (k == j) return 0;
    j = k;
    while (k < n && ngn_digit(PyUnicode_READ(kind, d, k))) k++;
    if (k == j) return 0;
    j = k;
    while (k < n && ngn_blank(PyUnicode_READ(kind, d, k))) k++;
    if (k == j) return 0;
    static const char *words[] = {"players", "ratings", "score"};
    for (int w = 0; w < 3; w++) {
        Py_ssize_t e = ngn_word(kind, d, k, n, words[w]);
        if (e < 0) continue;
        if (e >= n) return 1;                /* \b: the end, or a character that is not a word's (re's \w) */
        Py_UCS4 x = PyUnicode_READ(kind, d, e);
        if (!(x == '_' || Py_UNICODE_ISALNUM(x))) return 1;
    }
    return 0;
}

/* ngn_lines(head) -> bool: whether a line of head (its first, or one after a line end) starts as an .ngn line
 * does, as sniffs.looks_like_ngn's expressions say */
static PyObject *ngn_lines(PyObject *self, PyObject *arg) {
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "ngn_lines(head): a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(arg);
    const void *d = PyUnicode_DATA(arg);
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    for (Py_ssize_t i = 0; i < n;) {
        if (ngn_starts(kind, d, i, n)) Py_RETURN_TRUE;
        i = next_nl(kind, d, i, n);
        i++;                                 /* (the next line's first character) */
    }
    Py_RETURN_FALSE;
}

/* name.strip().lower(), or NULL with an exception */
static PyObject *folded_name(PyObject *name) {
    PyObject *st = PyObject_CallMethod(name, "strip", NULL);
    if (!st) return NULL;
    PyObject *low = PyObject_CallMethod(st, "lower", NULL);
    Py_DECREF(st);
    return low;
}

/* whether the ASCII text s[a:b] holds name[na:nb] (ASCII) in any case, the name stripped of white space as
 * str.strip() strips it (an empty name is in no text): _pasted_score's `name.strip().lower() in rows.lower()` */
static int ascii_name_in(const Py_UCS1 *s, Py_ssize_t a, Py_ssize_t b, const Py_UCS1 *name, Py_ssize_t na,
                         Py_ssize_t nb) {
    while (na < nb && Py_UNICODE_ISSPACE(name[na])) na++;
    while (nb > na && Py_UNICODE_ISSPACE(name[nb - 1])) nb--;
    Py_ssize_t m = nb - na;
    if (m <= 0) return 0;
    Py_UCS1 lo = (Py_UCS1)Py_TOLOWER(name[na]), up = (Py_UCS1)Py_TOUPPER(name[na]);
    const Py_UCS1 *end = s + b - m + 1;     /* (the first letter of a match is before end) */
    const Py_UCS1 *at_lo = s + a, *at_up = up != lo ? s + a : NULL;
    for (;;) {           /* the next place of the first letter in each case (memchr), the nearer one tried */
        if (at_lo && at_lo < end) at_lo = memchr(at_lo, lo, (size_t)(end - at_lo));
        else at_lo = NULL;
        if (at_up && at_up < end) at_up = memchr(at_up, up, (size_t)(end - at_up));
        else at_up = NULL;
        const Py_UCS1 *p = !at_lo ? at_up : !at_up ? at_lo : at_lo < at_up ? at_lo : at_up;
        if (!p) return 0;
        Py_ssize_t k = 1;
        while (k < m && Py_TOLOWER(p[k]) == Py_TOLOWER(name[na + k])) k++;
        if (k == m) return 1;
        if (p == at_lo) at_lo++;
        else at_up++;
    }
}

static PyObject *mat_game(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *text;
    Py_ssize_t start, end;
    long line_off, left_cell;
    int packed = 0;
    if (!fast_args("mat_game", args, nargs, "Unnll|p", &text, &start, &end, &line_off, &left_cell, &packed))
        return NULL;
    if (!Action) {
        PyErr_SetString(PyExc_RuntimeError, "_matrows.configure() was not called");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *d = PyUnicode_DATA(text);
    if (end > PyUnicode_GET_LENGTH(text)) end = PyUnicode_GET_LENGTH(text);
    if (start < 0 || start >= end) Py_RETURN_NONE;
#define CH(i) PyUnicode_READ(kind, d, (i))
    /* the lines: [ls, le), le at the newline (the text ends with one: a line without it is not read here) */
    Py_ssize_t ls = start, le = start;
    le = next_nl(kind, d, le, end);
    if (le == end) Py_RETURN_NONE;
    /* [ \t]*Game[ \t]+[0-9]{1,6}[ \t]*$ */
    Py_ssize_t i = ls;
    while (i < le && sp_tab(CH(i))) i++;
    long header_col = (long)(i - start) + 1, number = 0;
    if (le - i < 4 || CH(i) != 'G' || CH(i + 1) != 'a' || CH(i + 2) != 'm' || CH(i + 3) != 'e') Py_RETURN_NONE;
    i += 4;
    if (i >= le || !sp_tab(CH(i))) Py_RETURN_NONE;
    while (i < le && sp_tab(CH(i))) i++;
    i = score_int(kind, d, i, le, &number);
    if (i < 0) Py_RETURN_NONE;
    while (i < le && sp_tab(CH(i))) i++;
    if (i != le) Py_RETURN_NONE;
    /* the score line: the first line after it that is not blank (str.strip's white space) */
    long k = 0;
    for (;;) {
        ls = le + 1;
        if (ls >= end) Py_RETURN_NONE;
        le = next_nl(kind, d, ls, end);
        if (le == end) Py_RETURN_NONE;
        k++;
        Py_ssize_t j = ls;
        while (j < le && Py_UNICODE_ISSPACE(CH(j))) j++;
        if (j < le) break;
    }
    /* [ \t]*(NAME)?[ \t]*:[ \t]*INT(?![0-9])[ \t]*(NAME)?[ \t]*:[ \t]*INT(?![0-9])[ \t]*  (_FAST_SCORE) */
    Py_ssize_t n1a, n1b, n2a, n2b, c1, c2;
    long s1, s2;
    i = score_part(kind, d, ls, le, &n1a, &n1b, &c1, &s1);
    if (i < 0) Py_RETURN_NONE;
    i = score_part(kind, d, i, le, &n2a, &n2b, &c2, &s2);
    if (i != le) Py_RETURN_NONE;
    Py_ssize_t score_end = le;
    PyObject *n1 = NULL, *n2 = NULL, *out = NULL, *result = NULL;
    if (n1a >= 0 && !(n1 = PyUnicode_Substring(text, n1a, n1b))) return NULL;
    if (n2a >= 0 && !(n2 = PyUnicode_Substring(text, n2a, n2b))) goto fail;
    /* a name of the score line in the rows after it (any case): _pasted_score's, in Python */
    if ((n1 || n2) && PyUnicode_IS_ASCII(text)) {     /* (ASCII: the case of a letter is its ASCII case) */
        const Py_UCS1 *s = PyUnicode_1BYTE_DATA(text);
        if ((n1a >= 0 && ascii_name_in(s, score_end + 1, end, s, n1a, n1b))
                || (n2a >= 0 && ascii_name_in(s, score_end + 1, end, s, n2a, n2b)))
            goto none;
    } else if (n1 || n2) {
        PyObject *rows = PyUnicode_Substring(text, score_end + 1, end), *low = NULL;
        int pasted = 0;
        if (!rows) goto fail;
        low = PyObject_CallMethod(rows, "lower", NULL);
        Py_DECREF(rows);
        if (!low) goto fail;
        PyObject *names[2] = {n1, n2};
        for (int t = 0; t < 2 && !pasted; t++) {
            if (!names[t]) continue;
            PyObject *f = folded_name(names[t]);
            if (!f) { Py_DECREF(low); goto fail; }
            int c = PyUnicode_GET_LENGTH(f) > 0 ? PyUnicode_Contains(low, f) : 0;
            Py_DECREF(f);
            if (c < 0) { Py_DECREF(low); goto fail; }
            pasted = c;
        }
        Py_DECREF(low);
        if (pasted) goto none;
    }
    /* the left/right split (_threshold): after the first score, the second name, else the second colon */
    long col = n2a >= 0 ? (long)(n2a - ls) + 1 : (long)(c2 - ls) > 1 ? (long)(c2 - ls) : 1;
    long threshold = (col + left_cell) / 2 > left_cell + 1 ? (col + left_cell) / 2 : left_cell + 1;
    long score_line = line_off + k + 1, score_col = (long)((n1a >= 0 ? n1a : c1) - ls) + 1;
    /* the rows, each as game_actions reads it */
    /* the actions: a list of them, or packed (made when asked for) */
    out = packed ? (PyObject *)packed_new(text) : PyList_New(0);
    if (!out) goto fail;
    Packed *pk = packed ? (Packed *)out : NULL;
    long lineno = score_line;
    for (ls = score_end + 1; ls < end; ls = le + 1) {
        le = next_nl(kind, d, ls, end);
        if (le == end) goto none;
        lineno++;
        PyObject *line = PyUnicode_Substring(text, ls, le);
        if (!line) goto fail;
        int r = PyUnicode_IS_ASCII(line) ? build_row(line, (const char *)PyUnicode_DATA(line),
                                                      PyUnicode_GET_LENGTH(line), lineno, threshold, out, pk, ls) : 0;
        Py_DECREF(line);
        if (r < 0) goto fail;
        if (r == 0) goto none;
    }
    /* the game's last line that is not blank */
    Py_ssize_t last = end - 1;
    while (last > start && Py_UNICODE_ISSPACE(CH(last))) last--;
    long end_line = line_off + 1;
    end_line += (long)count_nl(kind, d, start, last);
    int resigns = 0;
    if (pk) {
        if (packed_done(pk) < 0) goto fail;
        for (Py_ssize_t k = 0; k < pk->n && !resigns; k++) resigns = pk->cells[k].kind == RESIGN;
    } else {
        for (Py_ssize_t k = 0; k < PyList_GET_SIZE(out) && !resigns; k++)
            resigns = slot_is(PyList_GET_ITEM(out, k), S_kind, KindResign);
    }
    result = Py_BuildValue("(llOOllllOlOl)", header_col, number, n1 ? n1 : Py_None, n2 ? n2 : Py_None, s1, s2,
                           score_line, score_col, out, end_line, resigns ? Py_True : Py_False, lineno - line_off);
    goto done;
none:
    result = Py_NewRef(Py_None);
    goto done;
fail:
    result = NULL;
done:
    Py_XDECREF(n1);
    Py_XDECREF(n2);
    Py_XDECREF(out);
    return result;
#undef CH
}

/* -- JSON text ------------------------------------------------------------------------------------- */

/* json_indent(doc) -> str: json.dumps(doc, ensure_ascii=False, indent=1), for documents of dicts with str keys,
 * lists, tuples, str, int, float, bool and None (exactly these types; nesting up to JSON_DEPTH), and of the record's
 * Step objects (the class given to json_configure), each written as its list [src, dst] or [src, dst, true].  TypeError for
 * anything else: the caller writes that document with Python (notation/jsonfmt.py's _dumps, the reference).
 * The text is built as UTF-8 in one buffer and decoded once at the end. */
#define JSON_DEPTH 60

static int jb_indent(JBuf *b, int level) {
    if (jb_grow(b, level + 1) < 0) return -1;
    b->buf[b->len++] = '\n';
    memset(b->buf + b->len, ' ', (size_t)level);
    b->len += level;
    return 0;
}

/* a str as json's encode_basestring writes it (ensure_ascii=False): quotes, backslash and the controls below
 * 0x20 escaped, everything else as it is */
static int jb_str(JBuf *b, PyObject *o) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(o, &n);
    if (!s) return -1;
    if (jb_grow(b, n + 2) < 0) return -1;
    b->buf[b->len++] = '"';
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        if (jb_put(b, s + start, i - start) < 0) return -1;
        char esc[8];
        int m;
        switch (c) {
            case '"': m = 2; memcpy(esc, "\\\"", 2); break;
            case '\\': m = 2; memcpy(esc, "\\\\", 2); break;
            case '\n': m = 2; memcpy(esc, "\\n", 2); break;
            case '\r': m = 2; memcpy(esc, "\\r", 2); break;
            case '\t': m = 2; memcpy(esc, "\\t", 2); break;
            case '\b': m = 2; memcpy(esc, "\\b", 2); break;
            case '\f': m = 2; memcpy(esc, "\\f", 2); break;
            default: m = snprintf(esc, sizeof esc, "\\u%04x", c); break;
        }
        if (jb_put(b, esc, m) < 0) return -1;
        start = i + 1;
    }
    if (jb_put(b, s + start, n - start) < 0) return -1;
    return jb_put(b, "\"", 1);
}

static int jb_repr(JBuf *b, PyObject *o) {
    PyObject *r = PyObject_Repr(o);      /* (int.__repr__ / float.__repr__: exact types only come here) */
    if (!r) return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(r, &n);
    int err = s ? jb_put(b, s, n) : -1;
    Py_DECREF(r);
    return err;
}

static PyTypeObject *JsonStep = NULL;      /* record.Step: written as [src, dst] or [src, dst, true] */
static PyObject *J_hit = NULL;

static int jb_value(JBuf *b, PyObject *o, int level);

/* a Step as its list: [src, dst], or [src, dst, true] when it hits (notation/jsonfmt.py's _step_row) */
static int jb_step(JBuf *b, PyObject *o, int level) {
    PyObject *v[3] = {slot_attr(o, S_src), slot_attr(o, S_dst), NULL};
    int hit = -1, err = -1;
    if (v[0] && v[1]) {
        PyObject *h = slot_attr(o, J_hit);
        hit = h ? PyObject_IsTrue(h) : -1;
        Py_XDECREF(h);
    }
    if (hit >= 0 && jb_put(b, "[", 1) == 0) {
        v[2] = hit ? Py_NewRef(Py_True) : NULL;
        err = 0;
        for (int k = 0; k < 2 + hit && err == 0; k++)
            err = (k && jb_put(b, ",", 1) < 0) || jb_indent(b, level + 1) < 0 || jb_value(b, v[k], level + 1) < 0
                  ? -1 : 0;
        if (err == 0) err = jb_indent(b, level) < 0 || jb_put(b, "]", 1) < 0 ? -1 : 0;
    }
    for (int k = 0; k < 3; k++) Py_XDECREF(v[k]);
    return err;
}

static int jb_value(JBuf *b, PyObject *o, int level) {
    if (level > JSON_DEPTH) {
        PyErr_SetString(PyExc_TypeError, "nested too deeply for the compiled JSON writer");
        return -1;
    }
    if (PyUnicode_CheckExact(o)) return jb_str(b, o);
    if (PyLong_CheckExact(o)) {
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return jb_repr(b, o);
        }
        char num[32];
        int m = snprintf(num, sizeof num, "%ld", v);
        return jb_put(b, num, m);
    }
    if (o == Py_None) return jb_put(b, "null", 4);
    if (o == Py_True) return jb_put(b, "true", 4);
    if (o == Py_False) return jb_put(b, "false", 5);
    if (PyFloat_CheckExact(o)) {
        double d = PyFloat_AS_DOUBLE(o);
        if (d != d) return jb_put(b, "NaN", 3);
        if (d == Py_HUGE_VAL) return jb_put(b, "Infinity", 8);
        if (d == -Py_HUGE_VAL) return jb_put(b, "-Infinity", 9);
        return jb_repr(b, o);
    }
    if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        if (n == 0) return jb_put(b, "[]", 2);
        if (jb_put(b, "[", 1) < 0) return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (i && jb_put(b, ",", 1) < 0) return -1;
            if (jb_indent(b, level + 1) < 0) return -1;
            /* (a list changed by a str's encoding cannot happen: nothing here runs Python code) */
            if (jb_value(b, PySequence_Fast_GET_ITEM(o, i), level + 1) < 0) return -1;
            if (PyList_CheckExact(o) && PyList_GET_SIZE(o) != n) {
                PyErr_SetString(PyExc_TypeError, "list changed while written");
                return -1;
            }
        }
        if (jb_indent(b, level) < 0) return -1;
        return jb_put(b, "]", 1);
    }
    if (PyDict_CheckExact(o)) {
        if (PyDict_GET_SIZE(o) == 0) return jb_put(b, "{}", 2);
        if (jb_put(b, "{", 1) < 0) return -1;
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        int first = 1;
        while (PyDict_Next(o, &pos, &k, &v)) {
            if (!PyUnicode_CheckExact(k)) {
                PyErr_SetString(PyExc_TypeError, "a key that is not a str");
                return -1;
            }
            if (!first && jb_put(b, ",", 1) < 0) return -1;
            first = 0;
            if (jb_indent(b, level + 1) < 0 || jb_str(b, k) < 0 || jb_put(b, ": ", 2) < 0) return -1;
            Py_INCREF(v);
            int err = jb_value(b, v, level + 1);
            Py_DECREF(v);
            if (err < 0) return -1;
        }
        if (jb_indent(b, level) < 0) return -1;
        return jb_put(b, "}", 1);
    }
    if (JsonStep && Py_IS_TYPE(o, JsonStep)) return jb_step(b, o, level);
    PyErr_Format(PyExc_TypeError, "%.100s is not written by the compiled JSON writer", Py_TYPE(o)->tp_name);
    return -1;
}

static PyObject *json_configure(PyObject *self, PyObject *step) {
    if (!PyType_Check(step)) {
        PyErr_SetString(PyExc_TypeError, "json_configure(Step): a class");
        return NULL;
    }
    if (!J_hit && !(J_hit = PyUnicode_InternFromString("hit"))) return NULL;
    Py_XSETREF(JsonStep, (PyTypeObject *)Py_NewRef(step));
    Py_RETURN_NONE;
}

static PyObject *json_indent(PyObject *self, PyObject *doc) {
    JBuf b = {NULL, 0, 0};
    PyObject *out = NULL;
    if (jb_value(&b, doc, 0) == 0)
        out = PyUnicode_DecodeUTF8(b.buf ? b.buf : "", b.len, "strict");
    PyMem_Free(b.buf);
    return out;
}

/* ------------------------------------------------------------------------------------------------------------
 * The text before a file's first game (mat._Reader._plain_preamble, the reference) when every line is blank, a
 * header tag "; [Key "Value"]" (mat._TAG on the line from its ";") or an "N point match" line with ASCII words
 * (mat._FAST_MATCH): ([(key, value)], [Loc of each tag], [(line, column, N as written)] of the match lines); None for any
 * other text, which the Python reader reads. */
static inline int ascii_ci(Py_UCS4 c, char lower) { return c == (Py_UCS4)lower || c == (Py_UCS4)(lower - 32); }

/* "[ \t]*[0-9]{1,6}[ \t]+points?[ \t]+match[ \t]*" over the whole line [ls, le): 1 with the number's span in
 * [*ns, *ne), else 0 */
static int match_line(int kind, const void *d, Py_ssize_t ls, Py_ssize_t le, Py_ssize_t *ns, Py_ssize_t *ne) {
    Py_ssize_t i = ls;
    long n;
    while (i < le && sp_tab(PyUnicode_READ(kind, d, i))) i++;
    *ns = i;
    i = score_int(kind, d, i, le, &n);
    *ne = i;
    if (i < 0) return 0;
    Py_ssize_t j = i;
    while (j < le && sp_tab(PyUnicode_READ(kind, d, j))) j++;
    if (j == i) return 0;
    const char *w = "point";
    for (int k = 0; w[k]; k++, j++)
        if (j >= le || !ascii_ci(PyUnicode_READ(kind, d, j), w[k])) return 0;
    if (j < le && ascii_ci(PyUnicode_READ(kind, d, j), 's')) j++;
    i = j;
    while (j < le && sp_tab(PyUnicode_READ(kind, d, j))) j++;
    if (j == i) return 0;
    w = "match";
    for (int k = 0; w[k]; k++, j++)
        if (j >= le || !ascii_ci(PyUnicode_READ(kind, d, j), w[k])) return 0;
    while (j < le && sp_tab(PyUnicode_READ(kind, d, j))) j++;
    return j == le;
}

#define CH(i) PyUnicode_READ(kind, d, (i))
static PyObject *mat_tags(PyObject *self, PyObject *text) {
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "mat_tags() takes a str");
        return NULL;
    }
    if (!Loc) {
        PyErr_SetString(PyExc_RuntimeError, "_matrows.configure() was not called");
        return NULL;
    }
    int kind = PyUnicode_KIND(text);
    const void *d = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    PyObject *pairs = PyList_New(0), *locs = PyList_New(0), *lengths = PyList_New(0);
    if (!pairs || !locs || !lengths) goto fail;
    long lineno = 0;
    Py_ssize_t ls = 0;
    while (ls < n) {
        Py_ssize_t le = next_nl(kind, d, ls, n);
        if (le == n) break;                  /* (the text ends with a newline: nothing after it is a line) */
        lineno++;
        Py_ssize_t c = ls;
        while (c < le && sp_tab(CH(c))) c++;
        if (c == le) {                       /* blank */
            ls = le + 1;
            continue;
        }
        if (CH(c) != ';') {
            Py_ssize_t ns, ne;
            if (!match_line(kind, d, ls, le, &ns, &ne)) goto other;
            PyObject *digits = PyUnicode_Substring(text, ns, ne);
            PyObject *item = digits ? Py_BuildValue("(llN)", lineno, (long)(ns - ls) + 1, digits) : NULL;
            if (!item || PyList_Append(lengths, item) < 0) {
                Py_XDECREF(item);
                goto fail;
            }
            Py_DECREF(item);
            ls = le + 1;
            continue;
        }
        /* ;[ \t]*\[[ \t]*([^"\]]*?)[ \t]*"(.*)"[ \t]*\][ \t]*$ */
        Py_ssize_t i = c + 1;
        while (i < le && sp_tab(CH(i))) i++;
        if (i == le || CH(i) != '[') goto other;
        i++;
        while (i < le && sp_tab(CH(i))) i++;
        Py_ssize_t ks = i;
        while (i < le && CH(i) != '"' && CH(i) != ']') i++;
        if (i == le || CH(i) != '"') goto other;
        Py_ssize_t ke = i;
        while (ke > ks && sp_tab(CH(ke - 1))) ke--;
        Py_ssize_t vs = i + 1, e = le;
        while (e > vs && sp_tab(CH(e - 1))) e--;
        if (e == vs || CH(e - 1) != ']') goto other;
        e--;
        while (e > vs && sp_tab(CH(e - 1))) e--;
        if (e == vs || CH(e - 1) != '"') goto other;
        Py_ssize_t ve = e - 1;
        PyObject *key = PyUnicode_Substring(text, ks, ke), *val = key ? PyUnicode_Substring(text, vs, ve) : NULL;
        PyObject *pair = val ? PyTuple_Pack(2, key, val) : NULL;
        Py_XDECREF(key);
        Py_XDECREF(val);
        if (!pair) goto fail;
        int bad = PyList_Append(pairs, pair) < 0;
        Py_DECREF(pair);
        if (bad) goto fail;
        PyObject *loc = make_loc(lineno, (long)(c - ls) + 1);
        if (!loc) goto fail;
        bad = PyList_Append(locs, loc) < 0;
        Py_DECREF(loc);
        if (bad) goto fail;
        ls = le + 1;
    }
    PyObject *out = PyTuple_Pack(3, pairs, locs, lengths);
    Py_DECREF(pairs);
    Py_DECREF(locs);
    Py_DECREF(lengths);
    return out;
other:
    Py_DECREF(pairs);
    Py_DECREF(locs);
    Py_DECREF(lengths);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(pairs);
    Py_XDECREF(locs);
    Py_XDECREF(lengths);
    return NULL;
}
#undef CH

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(Action, Loc, dice_of, steps_hook, STEP, ROLL, DOUBLE, TAKE, DROP, WIN, RESIGN, left_cell_gap, "
     "MAX_STEPS, MAX_REPEAT)"},
    {"shapes", shapes, METH_VARARGS,
     "shapes(action_fields, loc_fields, i_value, i_and_match, i_cannot_move) -> bool: make Actions and Locs "
     "by filling their slots (fields: [(name, kind, default)], kind 0 required, 1 default, 2 list factory)"},
    {"configure_ngn", configure_ngn, METH_VARARGS,
     "configure_ngn(Segment): the class of the chain and handover parts of .ngn lines (ngn_actions)"},
    {"ngn_actions", ngn_actions, METH_VARARGS,
     "ngn_actions(lines, first, actions) -> (next, last): the .ngn move lines lines[first:next] read into Actions "
     "appended to actions (last: the number of the last line with a move, or 0)"},
    {"game_actions", game_actions, METH_VARARGS,
     "game_actions(lines, first, end, line, threshold) -> the Actions of lines[first:end] (the first on line "
     "line + 1), or None when a row is not of the common kinds"},
    {"mat_game", (PyCFunction)(void (*)(void))mat_game, METH_FASTCALL,
     "mat_game(text, start, end, line_off, left_cell, packed=False) -> (header column, N, name 1, name 2, score 1, score "
     "2, score line, its column, Actions, last line, resigns) of the common game text[start:end], or None: then the "
     "Python reader reads it; the Actions a list, or with packed a PackedActions (each made when asked for)"},
    {"mat_tags", mat_tags, METH_O,
     "mat_tags(text) -> ([(key, value)], [Loc], [(line, column, N as written)]): the header tags and 'N point match' lines of the "
     "text before a file's first game (ending with a newline) when it has no other lines than these and blank "
     "ones; else None: then the Python reader reads it"},
    {"sgf_rolls", (PyCFunction)(void (*)(void))sgf_rolls, METH_FASTCALL,
     "sgf_rolls(actions, i, known, nodes, ROLL, derived, routes=None) -> (j, player): the SGF nodes of actions[i:j] appended to "
     "nodes as one string (one line each), each as notation.sgf writes a roll played with nothing else on it (';W[61' and two letters per step: "
     "the route of known[i] (a NormalAction), else of routes[i] (a route: a sparse view's), when it has one, else the "
     "written steps), a double, a take or a drop "
     "with nothing else on it (';W[double]'), and no node for a win when derived (RE[] says it); j is the first "
     "action that is none of these (or whose steps are not written here): the Python writer's; player: the player "
     "of the last roll written, or -1"},
    {"ngn_lines", ngn_lines, METH_O,
     "ngn_lines(head) -> bool: whether a line of head (its first, or one after a line end) starts as an .ngn line "
     "does: a tag, a numbered move or a 'Game N players' line, as sniffs.looks_like_ngn's expressions (the "
     "reference) say"},
    {"any_set", any_set, METH_VARARGS,
     "any_set(actions, name) -> bool: whether the attribute name of one of the actions (a list, or packed) is true"},
    {"kinds_in", kinds_in, METH_VARARGS,
     "kinds_in(actions, kinds, stop=-1) -> int: bit k set when kinds[k] (a tuple of at most 30) is the kind of one of "
     "actions[:stop] (a list, or packed; stop < 0: all of them), found by identity: the twin of notation.sgf._kinds_in"},
    {"json_configure", json_configure, METH_O, "json_configure(Step): the class json_indent writes as its list"},
    {"json_indent", json_indent, METH_O,
     "json_indent(doc) -> str: json.dumps(doc, ensure_ascii=False, indent=1) for documents of dicts with str keys, "
     "lists, tuples, str, int, float, bool and None (exactly these types), and of Steps, each written as [src, dst] "
     "or [src, dst, true] when it hits; TypeError for anything else"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_matrows",
                                    "The compiled twin of the .mat reader's common rows.", -1, methods};

PyMODINIT_FUNC PyInit__matrows(void) {
    Plays = PyDict_New();
    KW_VALUE = Py_BuildValue("(s)", "value");
    KW_VALUE_MATCH = Py_BuildValue("(ss)", "value", "and_match");
    KW_CANNOT = Py_BuildValue("(s)", "cannot_move");
    if (!Plays || !KW_VALUE || !KW_VALUE_MATCH || !KW_CANNOT) return NULL;
    S_segments = PyUnicode_InternFromString("segments");
    S_kind = PyUnicode_InternFromString("kind");
    S_player = PyUnicode_InternFromString("player");
    W_chain = PyUnicode_InternFromString("chain");
    W_handover = PyUnicode_InternFromString("handover");
    if (!S_segments || !S_kind || !S_player || !W_chain || !W_handover) return NULL;
    PyObject **names[] = {&S_dice, &S_unplayed, &S_illegal_mark, &S_clock, &S_clock_left, &S_comments, &S_steps,
                          &S_src, &S_dst, &S_route};
    const char *texts[] = {"dice", "unplayed", "illegal_mark", "clock", "clock_left", "comments", "steps", "src",
                           "dst", "route"};
    for (int k = 0; k < 10; k++)
        if (!(*names[k] = PyUnicode_InternFromString(texts[k]))) return NULL;
    if (PyType_Ready(&PackedType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *api = PyCapsule_New(&PACKED_API, PACKED_CAPSULE, NULL);
    if (!api || PyModule_AddObject(m, "PACKED_API", api) < 0) { Py_XDECREF(api); Py_DECREF(m); return NULL; }
    if (PyModule_AddObject(m, "PackedActions", Py_NewRef((PyObject *)&PackedType)) < 0) {
        Py_DECREF(&PackedType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
