/* Reading a slot of a slotted class (an Action, a Step, a NormalAction...) from C without the attribute
 * lookup: `slot_attr(o, name)` is `PyObject_GetAttr(o, name)` (a new reference, or NULL with an exception
 * set), and for an instance whose class keeps `name` in a slot (a member descriptor), the slot read at its
 * offset.  The offsets are learnt on first use per (class, name) and kept in a small table; a class changed
 * since (its version tag) is asked again; anything else (a property, a class attribute, an empty slot) goes
 * through PyObject_GetAttr (`slot_is`: whether such an attribute is a given object).  Included by the compiled core's modules (engine/_core.c, notation/_matrows.c);
 * `name` must be an interned string kept alive by the module (its pointer is the key). */
#ifndef NARDY_SLOTS_H
#define NARDY_SLOTS_H

#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#ifndef Py_T_OBJECT_EX
#define Py_T_OBJECT_EX T_OBJECT_EX
#endif
#ifndef Py_READONLY
#define Py_READONLY READONLY
#endif
#ifndef Py_T_OBJECT
#define Py_T_OBJECT T_OBJECT
#endif

#define SLOT_CACHE 48
typedef struct {
    PyObject *name;              /* borrowed: an interned string the module keeps */
    PyTypeObject *type;          /* a strong reference */
    unsigned int version;        /* the class's version tag when learnt */
    Py_ssize_t offset;           /* -1: not a slot of this class (read by PyObject_GetAttr) */
} SlotEntry;

static SlotEntry SlotTable[SLOT_CACHE];
static int SlotCount = 0;

/* the entries by a hash of (type, name), open addressing (the next place when one is taken): at most
 * SLOT_CACHE of SLOT_HINTS places are ever filled, so a read finds its entry at once or nearly (entries are
 * never moved nor removed, so a kept pointer stays valid) */
#define SLOT_HINTS 256
static SlotEntry *SlotHint[SLOT_HINTS];

static inline unsigned slot_hint(PyTypeObject *t, PyObject *name) {
    uint64_t x = (uint64_t)(uintptr_t)t * 0x9E3779B97F4A7C15u ^ (uint64_t)(uintptr_t)name * 0xC2B2AE3D27D4EB4Fu;
    return (unsigned)(x >> 56) & (SLOT_HINTS - 1);
}

/* the entry of (t, name), or NULL when it was never learnt */
static inline SlotEntry *slot_find(PyTypeObject *t, PyObject *name) {
    for (unsigned h = slot_hint(t, name);; h = (h + 1) & (SLOT_HINTS - 1)) {
        SlotEntry *e = SlotHint[h];
        if (!e || (e->name == name && e->type == t)) return e;
    }
}

static Py_ssize_t slot_learn(PyTypeObject *t, PyObject *name) {
    Py_ssize_t offset = -1;
    PyObject *d = PyObject_GetAttr((PyObject *)t, name);
    if (!d) { PyErr_Clear(); return -1; }
    if (Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if ((m->type == Py_T_OBJECT_EX || m->type == Py_T_OBJECT) && ((PyMemberDescrObject *)d)->d_common.d_type
                && PyType_IsSubtype(t, ((PyMemberDescrObject *)d)->d_common.d_type))
            offset = m->offset;
    }
    Py_DECREF(d);
    if (SlotCount < SLOT_CACHE && PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG)) {
        SlotEntry *e = &SlotTable[SlotCount++];
        e->name = name;
        e->type = (PyTypeObject *)Py_NewRef(t);
        e->version = t->tp_version_tag;
        e->offset = offset;
        unsigned h = slot_hint(t, name);
        while (SlotHint[h]) h = (h + 1) & (SLOT_HINTS - 1);
        SlotHint[h] = e;
    }
    return offset;
}

/* slot_attr past slot_peek: the entry's slot read the slow way (a class changed since it was learnt, an empty
 * slot, an attribute that is no slot), else the class asked (and the answer learnt) */
static PyObject *slot_attr_slow(PyObject *o, PyObject *name) {
    PyTypeObject *t = Py_TYPE(o);
    SlotEntry *e = slot_find(t, name);
    if (e) {
        if (e->version != t->tp_version_tag || !PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG)) {
            e->version = 0;                  /* changed since: read the slow way from now on */
            e->offset = -1;
        }
        if (e->offset >= 0) {
            PyObject *v = *(PyObject **)((char *)o + e->offset);
            if (v) return Py_NewRef(v);
        }
        return PyObject_GetAttr(o, name);
    }
    Py_ssize_t offset = slot_learn(t, name);
    if (offset >= 0) {
        PyObject *v = *(PyObject **)((char *)o + offset);
        if (v) return Py_NewRef(v);
    }
    return PyObject_GetAttr(o, name);
}

/* the slot `name` of `o` as a borrowed reference, where the table knows it as a slot of o's class unchanged since
 * (a class changed since has another version tag: 0 until it is asked again) and the slot is set; else NULL
 * with no exception set, and the caller reads it with slot_attr.  Inline: the common read costs a few loads. */
static inline PyObject *slot_peek(PyObject *o, PyObject *name) {
    PyTypeObject *t = Py_TYPE(o);
    SlotEntry *e = slot_find(t, name);
    if (e && e->offset >= 0 && e->version == t->tp_version_tag && e->version)
        return *(PyObject **)((char *)o + e->offset);
    return NULL;
}


static inline PyObject *slot_attr(PyObject *o, PyObject *name) {
    PyObject *v = slot_peek(o, name);
    return v ? Py_NewRef(v) : slot_attr_slow(o, name);
}

/* the truth of attribute `name` of `o`: 1, 0, or -1 (no such attribute / an error, cleared).  slot_truth_of: the
 * same, with the slot `v` already read where the caller could (borrowed; NULL: read it here) */
static inline int slot_truth_of(PyObject *o, PyObject *name, PyObject *v) {
    if (v == Py_False || v == Py_None) return 0;
    if (v == Py_True) return 1;
    if (v && PyList_CheckExact(v)) return PyList_GET_SIZE(v) != 0;
    if (v && PyUnicode_CheckExact(v)) return PyUnicode_GET_LENGTH(v) != 0;
    PyObject *x = v ? Py_NewRef(v) : slot_attr_slow(o, name);
    if (!x) { PyErr_Clear(); return -1; }
    int r = PyObject_IsTrue(x);
    Py_DECREF(x);
    if (r < 0) { PyErr_Clear(); return -1; }
    return r;
}

static inline int slot_truth(PyObject *o, PyObject *name) {
    return slot_truth_of(o, name, slot_peek(o, name));
}

/* an int object's value where it fits a long: 1, else 0 (no exception left) */
static inline int slot_long_value(PyObject *v, long *out) {
    if (!PyLong_Check(v)) return 0;
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(v)) {         /* (3.11's layout: a value of one digit, the common case) */
        Py_ssize_t size = Py_SIZE(v);
        if (size == 0) { *out = 0; return 1; }
        if (size == 1) { *out = (long)((PyLongObject *)v)->ob_digit[0]; return 1; }
        if (size == -1) { *out = -(long)((PyLongObject *)v)->ob_digit[0]; return 1; }
    }
#endif
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
    *out = x;
    return 1;
}

/* 1 when the attribute `name` of `o` is `value` itself, 0 otherwise (one it cannot read too: no exception left).
 * slot_is_of: the same, with the slot `p` already read where the caller could (borrowed; NULL: read it here) */
static inline int slot_is_of(PyObject *o, PyObject *name, PyObject *value, PyObject *p) {
    if (p) return p == value;
    PyObject *v = slot_attr_slow(o, name);
    if (!v) { PyErr_Clear(); return 0; }
    int same = v == value;
    Py_DECREF(v);
    return same;
}

static inline int slot_is(PyObject *o, PyObject *name, PyObject *value) {
    return slot_is_of(o, name, value, slot_peek(o, name));
}

/* The slots of one class read in a loop over many of its objects (a game's Actions): their offsets found once
 * (slot_map), then each read is a load (slot_at) where the object is of that class and the class unchanged since,
 * else NULL, and the caller reads it the usual way (slot_is, slot_truth, slot_attr: the same answer, slower). */
#define SLOT_MAP_MAX 12
typedef struct {
    PyTypeObject *type;
    unsigned int version;
    Py_ssize_t offset[SLOT_MAP_MAX];
} SlotMap;

/* the offset of the slot `name` in objects of class t (learnt here where the table does not know it yet), or -1
 * where it is no slot of t or the class changed since it was learnt (an unset slot is NULL at its offset) */
static Py_ssize_t slot_offset(PyTypeObject *t, PyObject *name) {
    SlotEntry *e = slot_find(t, name);
    if (!e) return slot_learn(t, name);
    return e->offset >= 0 && e->version == t->tp_version_tag && e->version ? e->offset : -1;
}

static inline void slot_map(SlotMap *m, PyTypeObject *t, PyObject *const *names, int n) {
    m->type = t;
    for (int k = 0; k < n && k < SLOT_MAP_MAX; k++) m->offset[k] = slot_offset(t, names[k]);
    m->version = t->tp_version_tag;      /* (after the lookups, which give a class its version tag) */
}

static inline PyObject *slot_at(const SlotMap *m, PyObject *o, int k) {
    Py_ssize_t off = m->offset[k];
    if (off < 0 || Py_TYPE(o) != m->type || m->type->tp_version_tag != m->version || !m->version) return NULL;
    return *(PyObject **)((char *)o + off);
}

/* The positional arguments of a METH_FASTCALL function read as PyArg_ParseTuple would read them, without the
 * tuple a METH_VARARGS call makes (the batch functions are called once per game or run).  fmt: one letter per
 * argument, '|' before the optional ones: O any object (PyObject **), L a list, D a dict, U a str (each a
 * PyObject ** checked for its exact type or a subclass, as "O!" and "U" check), n a Py_ssize_t (__index__),
 * i an int, l a long, p a truth (int *).  1 on success, 0 with a TypeError/OverflowError set. */
#include <stdarg.h>
static int fast_args(const char *name, PyObject *const *args, Py_ssize_t nargs, const char *fmt, ...) {
    va_list va;
    va_start(va, fmt);
    Py_ssize_t k = 0, least = -1;
    int ok = 1;
    for (const char *f = fmt; *f && ok; f++) {
        if (*f == '|') { least = k; continue; }
        if (k >= nargs) {
            if (least < 0) {
                PyErr_Format(PyExc_TypeError, "%s() takes at least %zd arguments (%zd given)", name, k + 1, nargs);
                ok = 0;
            }
            break;
        }
        PyObject *a = args[k++];
        switch (*f) {
        case 'O': *va_arg(va, PyObject **) = a; break;
        case 'L': case 'D': case 'U': {
            int fits = *f == 'L' ? PyList_Check(a) : *f == 'D' ? PyDict_Check(a) : PyUnicode_Check(a);
            if (!fits) {
                PyErr_Format(PyExc_TypeError, "%s() argument %zd must be %s, not %.50s", name, k,
                             *f == 'L' ? "list" : *f == 'D' ? "dict" : "str", Py_TYPE(a)->tp_name);
                ok = 0;
            } else {
                *va_arg(va, PyObject **) = a;
            }
            break;
        }
        case 'n': {
            Py_ssize_t v = PyNumber_AsSsize_t(a, PyExc_OverflowError);
            if (v == -1 && PyErr_Occurred()) ok = 0;
            else *va_arg(va, Py_ssize_t *) = v;
            break;
        }
        case 'i': case 'l': {
            long v = PyFloat_Check(a) ? (PyErr_SetString(PyExc_TypeError, "integer argument expected, got float"), -1)
                                      : PyLong_AsLong(a);
            if (v == -1 && PyErr_Occurred()) { ok = 0; break; }
            if (*f == 'i') {
                if (v > INT_MAX || v < INT_MIN) {
                    PyErr_SetString(PyExc_OverflowError, "signed integer is greater than maximum");
                    ok = 0;
                    break;
                }
                *va_arg(va, int *) = (int)v;
            } else {
                *va_arg(va, long *) = v;
            }
            break;
        }
        case 'p': {
            int v = PyObject_IsTrue(a);
            if (v < 0) ok = 0;
            else *va_arg(va, int *) = v;
            break;
        }
        default:
            PyErr_Format(PyExc_SystemError, "fast_args: bad format letter %c", *f);
            ok = 0;
        }
    }
    if (ok && k < nargs) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %zd arguments (%zd given)", name, k, nargs);
        ok = 0;
    }
    va_end(va);
    return ok;
}

/* -- a slotted dataclass made without its __init__ -------------------------------------------------------
 * A Shape is what a class's generated __init__ does, as data: the instance allocated and each slot filled at its
 * offset with the value given, else the field's default, else a call of its default factory (a `list` factory:
 * a new empty list, made directly).  The readers make their Actions and Locs this way (_matrows.c), and the
 * engine's core gives Python a callable of any such class (Maker, engine.compiled.maker). */
#define SHAPE_FIELDS 64
typedef struct {
    PyTypeObject *type;          /* a strong reference; NULL: no shape (the class is called) */
    int n;
    Py_ssize_t offset[SHAPE_FIELDS];
    PyObject *dflt[SHAPE_FIELDS];    /* kind 1: the default; kind 2: the factory, NULL for a new list */
    char kind[SHAPE_FIELDS];         /* 0 required, 1 a default, 2 a default factory */
    PyObject *names[SHAPE_FIELDS];   /* interned */
} Shape;

static void shape_clear(Shape *sh) {
    for (int i = 0; i < sh->n; i++) { Py_CLEAR(sh->dflt[i]); Py_CLEAR(sh->names[i]); }
    Py_CLEAR(sh->type);
    sh->n = 0;
}

/* fields: [(name, kind, default)] in the order of the class's fields, kind 0 required, 1 a default, 2 a default
 * factory (default: the factory; None or `list`: a new list), every slot of the class one of them.  0 on
 * success, 1 when the class cannot be made this way (the shape left empty), -1 an exception */
static int shape_init(Shape *sh, PyObject *type, PyObject *fields) {
    shape_clear(sh);
    if (!PyType_Check(type) || !PyList_Check(fields) || PyList_GET_SIZE(fields) > SHAPE_FIELDS) return 1;
    PyTypeObject *t = (PyTypeObject *)type;
    if (t->tp_dictoffset || t->tp_alloc == NULL) return 1;
    int n = (int)PyList_GET_SIZE(fields);
    for (int i = 0; i < n; i++) {
        PyObject *name, *dflt;
        int kind;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(fields, i), "UiO", &name, &kind, &dflt)) { shape_clear(sh); return -1; }
        PyObject *d = PyObject_GetAttr(type, name);
        if (!d) { shape_clear(sh); return -1; }
        int ok = Py_IS_TYPE(d, &PyMemberDescr_Type) && ((PyMemberDescrObject *)d)->d_member->type == Py_T_OBJECT_EX
                 && !(((PyMemberDescrObject *)d)->d_member->flags & Py_READONLY) && kind >= 0 && kind <= 2;
        Py_ssize_t off = ok ? ((PyMemberDescrObject *)d)->d_member->offset : 0;
        Py_DECREF(d);
        if (!ok) { shape_clear(sh); return 1; }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        sh->names[i] = name;
        sh->dflt[i] = kind == 1 || (kind == 2 && dflt != Py_None && dflt != (PyObject *)&PyList_Type)
                      ? Py_NewRef(dflt) : NULL;
        sh->kind[i] = (char)kind;
        sh->offset[i] = off;
        sh->n = i + 1;
    }
    /* every slot of the class is a field (nothing left unset) */
    PyObject *slots = PyObject_GetAttrString(type, "__slots__");
    if (!slots) { PyErr_Clear(); shape_clear(sh); return 1; }
    Py_ssize_t ns = PyObject_Length(slots);
    Py_DECREF(slots);
    if (ns != n) { PyErr_Clear(); shape_clear(sh); return 1; }
    sh->type = (PyTypeObject *)Py_NewRef(type);
    return 0;
}

/* a new instance: vals[i] for field i where not NULL, else its default or factory's value (every required field
 * given: the caller checks) */
static PyObject *shape_new(const Shape *sh, PyObject *const *vals) {
    PyObject *obj = sh->type->tp_alloc(sh->type, 0);
    if (!obj) return NULL;
    for (int i = 0; i < sh->n; i++) {
        PyObject *v = vals[i] ? Py_NewRef(vals[i]) : sh->kind[i] == 1 ? Py_NewRef(sh->dflt[i])
                      : sh->dflt[i] ? PyObject_CallNoArgs(sh->dflt[i]) : PyList_New(0);
        if (!v) { Py_DECREF(obj); return NULL; }
        *(PyObject **)((char *)obj + sh->offset[i]) = v;
    }
    return obj;
}

#ifdef NARDY_MAKER       /* (the engine's core defines it: engine.compiled.maker) */
/* maker(cls, fields) -> a callable that makes cls(*args, **kwargs) by its Shape (fields as shape_init takes them):
 * what the generated __init__ does, without its Python frame (the replay and the readers make a few such objects
 * per game); any call it does not take plainly (an unknown or repeated keyword, too many arguments, a required one
 * missing) is made by calling the class, which raises what it raises.  cls itself is returned for a class it
 * cannot make this way (the caller then calls the class). */
typedef struct {
    PyObject_HEAD
    Shape shape;
    vectorcallfunc vectorcall;
} Maker;

static void maker_dealloc(Maker *m) {
    shape_clear(&m->shape);
    Py_TYPE(m)->tp_free((PyObject *)m);
}

static PyObject *maker_call(Maker *m, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    const Shape *sh = &m->shape;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *vals[SHAPE_FIELDS] = {NULL};
    if (nargs > sh->n) goto plain;
    for (Py_ssize_t i = 0; i < nargs; i++) vals[i] = args[i];
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int at = -1;
        for (int i = 0; i < sh->n && at < 0; i++)
            if (sh->names[i] == key) at = i;
        for (int i = 0; i < sh->n && at < 0; i++) {
            int eq = PyUnicode_Compare(sh->names[i], key);
            if (eq == -1 && PyErr_Occurred()) { PyErr_Clear(); goto plain; }
            if (eq == 0) at = i;
        }
        if (at < 0 || vals[at]) goto plain;
        vals[at] = args[nargs + k];
    }
    for (int i = 0; i < sh->n; i++)
        if (!vals[i] && sh->kind[i] == 0) goto plain;
    return shape_new(sh, vals);
plain:
    return PyObject_Vectorcall((PyObject *)sh->type, args, nargsf, kwnames);
}

static PyTypeObject MakerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "nardy_analyze.Maker",
    .tp_basicsize = sizeof(Maker),
    .tp_dealloc = (destructor)maker_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Maker, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_doc = "a slotted dataclass made without its __init__ (maker())",
};

static PyObject *maker_new(PyObject *self, PyObject *args) {
    PyObject *cls, *fields;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &cls, &PyList_Type, &fields)) return NULL;
    if (PyType_Ready(&MakerType) < 0) return NULL;
    Maker *m = PyObject_New(Maker, &MakerType);
    if (!m) return NULL;
    memset(&m->shape, 0, sizeof m->shape);
    m->vectorcall = (vectorcallfunc)maker_call;
    int r = shape_init(&m->shape, cls, fields);
    if (r == 0) return (PyObject *)m;
    Py_DECREF(m);
    return r < 0 ? NULL : Py_NewRef(cls);
}

#endif  /* NARDY_MAKER */

#endif
