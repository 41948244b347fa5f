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

#ifndef Py_T_OBJECT_EX
#define Py_T_OBJECT_EX T_OBJECT_EX
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
    }
    return offset;
}

/* the entry of (type, name) last found, by a hash of the two pointers: most reads find it at once, without a
 * walk of the table (entries are never moved nor removed, so a kept pointer stays valid) */
#define SLOT_HINTS 256
static SlotEntry *SlotHint[SLOT_HINTS];

static inline unsigned slot_hint(PyTypeObject *t, PyObject *name) {
    return (unsigned)((((uintptr_t)t >> 4) * 31u ^ ((uintptr_t)name >> 4)) & (SLOT_HINTS - 1));
}

static PyObject *slot_attr(PyObject *o, PyObject *name) {
    PyTypeObject *t = Py_TYPE(o);
    unsigned h = slot_hint(t, name);
    SlotEntry *hint = SlotHint[h];
    for (int k = -1; k < SlotCount; k++) {
        SlotEntry *e = k < 0 ? hint : &SlotTable[k];
        if (e && e->name == name && e->type == t) {
            SlotHint[h] = e;
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
    }
    Py_ssize_t offset = slot_learn(t, name);
    if (offset >= 0) {
        PyObject *v = *(PyObject **)((char *)o + offset);
        if (v) return Py_NewRef(v);
    }
    return PyObject_GetAttr(o, name);
}

/* 1 when the attribute `name` of `o` is `value` itself, 0 otherwise (one it cannot read too: no exception left) */
static int slot_is(PyObject *o, PyObject *name, PyObject *value) {
    PyObject *v = slot_attr(o, name);
    if (!v) { PyErr_Clear(); return 0; }
    int same = v == value;
    Py_DECREF(v);
    return same;
}

#endif
