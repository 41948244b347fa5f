/* A game's actions as the compiled .mat reader read them, made into Action objects only when asked for
 * (notation/_matrows.c: PackedActions; docs/architecture.md, "Packed actions").
 *
 * A PackedActions object is a read-only sequence of Actions to Python: an item is made the first time it is
 * asked for and kept (the same object every time; a change made to it stays).  The compiled parts that walk a
 * game's actions (the replay's batch in engine/_core.c, the SGF writer's rolls, kinds_in, any_set) read an
 * action not made yet from its packed record (a PackedView) and a made one from the object, so that a game
 * nobody looks at in Python costs no Action.  The engine's core gets the functions below from the reader's
 * module through a capsule (engine.compiled.use_packed): the engine imports nothing of the notations. */
#ifndef NARDY_PACKED_H
#define NARDY_PACKED_H

#include <Python.h>
#include <stdint.h>

typedef struct {
    PyObject *kind;              /* borrowed: the record's Kind (Kind.ROLL for a roll, "cannot move" too) */
    int player;                  /* 0 or 1 */
    int d1, d2;                  /* a roll's dice as written (its two digits) */
    int cannot;                  /* a roll written "cannot move" (no steps) */
    int has_value;               /* a double, a win, a resignation: value set */
    long value;
    int and_match;               /* a win "and the match" */
    int nsteps;                  /* a roll's steps: steps[0 .. nsteps) as (src, dst, hit) */
    const uint8_t (*steps)[3];
} PackedView;

typedef struct {
    PyTypeObject *type;
    Py_ssize_t (*length)(PyObject *seq);
    /* action j, made now where it was not (borrowed), or NULL with an exception */
    PyObject *(*item)(PyObject *seq, Py_ssize_t j);
    /* action j's packed record into *out: 1, or 0 when it is made (read its object: item()) */
    int (*view)(PyObject *seq, Py_ssize_t j, PackedView *out);
} PackedApi;

#define PACKED_CAPSULE "nardy_analyze.notation._matrows.PACKED_API"

#endif
