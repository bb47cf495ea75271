/* Compiled core of the Scrabble-family move generator (optional; see engine/native.py).
 *
 * A line-for-line port of engine.movegen.view_search (its inner functions record, right,
 * after_left, left and run): the same GADDAG walk, the same dedupe rules, the same scores,
 * the same plays in the same order. The Python generator is the reference; this module only
 * makes it faster, and tests/test_native.py checks the two against each other.
 *
 * generate(n, cells, lm, wm, xmask, xsum, anchors, is_anchor, values, rack, rack_size,
 *          bonus, down, gmask, gfirst, gchild, groot, keep, scores
 *          [, min_length, no_blanks, square, need]) -> (count, plays, scores)
 *
 * The optional filters drop a play before it is counted or kept, exactly as
 * engine.solver._raw_matches does afterwards in Python: main word shorter than min_length,
 * a blank among the new tiles (no_blanks), no new tile on view square `square` (-1: any),
 * or fewer of some letter in the main word than need[letter] (27 int32; a blank counts as
 * the letter it stands for).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SEP 27
#define BLANK 64
#define LETTER_MASK 31
#define MAX_N 64

typedef struct {
    int pos;
    int code;
} Placed;

typedef struct {
    /* the view */
    int n;
    const uint8_t *cells;
    const uint8_t *lm;
    const uint8_t *wm;
    const uint32_t *xmask;
    const int32_t *xsum;
    const uint8_t *is_anchor;
    int values[27];
    int down;
    int rack_size;
    int bonus;
    /* the GADDAG */
    const uint32_t *gmask;
    const uint32_t *gfirst;
    const uint32_t *gchild;
    Py_ssize_t nstates;
    Py_ssize_t nedges;
    /* filters */
    int min_length;
    int no_blanks;
    int square;
    int need[27];
    int has_need;
    /* search state */
    int rack[27];
    uint32_t rack_bits;
    int tiles;
    Placed placed[MAX_N];
    int nplaced;
    /* output */
    long count;
    long keep;        /* -1 all, 0 none, N > 0 heap of the best N */
    int *heap;        /* min-heap of scores, capacity keep */
    long heap_len;
    PyObject *plays;  /* list, or NULL when keep == 0 */
    PyObject **pairs; /* cache of (pos, code) tuples, n*n*128 entries */
    int err;          /* a Python exception is set */
} Gen;

/* ------------------------------------------------------------------ heap of ints */

static void heap_push(int *h, long *len, int v)
{
    long i = (*len)++;
    while (i > 0) {
        long p = (i - 1) / 2;
        if (h[p] <= v)
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = v;
}

static void heap_replace_top(int *h, long len, int v)
{
    long i = 0;
    for (;;) {
        long l = 2 * i + 1, r = l + 1, m = i;
        int mv = v;
        if (l < len && h[l] < mv) {
            m = l;
            mv = h[l];
        }
        if (r < len && h[r] < mv) {
            m = r;
            mv = h[r];
        }
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = v;
}

/* ------------------------------------------------------------------ the automaton */

/* The state after the edge for ``code`` (known to exist: bit ``code`` of m is set). */
static inline int step(Gen *g, uint32_t s, uint32_t m, int code, uint32_t *out)
{
    Py_ssize_t e = (Py_ssize_t)g->gfirst[s] + __builtin_popcount(m & ((1u << code) - 2u));
    if (e >= g->nedges) {
        PyErr_SetString(PyExc_ValueError, "malformed GADDAG: edge index out of range");
        g->err = 1;
        return 0;
    }
    uint32_t t = g->gchild[e];
    if ((Py_ssize_t)t >= g->nstates) {
        PyErr_SetString(PyExc_ValueError, "malformed GADDAG: state out of range");
        g->err = 1;
        return 0;
    }
    *out = t;
    return 1;
}

/* ------------------------------------------------------------------ emitting */

static PyObject *pair(Gen *g, int pos, int code)
{
    PyObject **slot = &g->pairs[(Py_ssize_t)pos * 128 + code];
    if (!*slot) {
        *slot = Py_BuildValue("(ii)", pos, code);
        if (!*slot)
            return NULL;
    }
    Py_INCREF(*slot);
    return *slot;
}

static void emit(Gen *g, int total, int start, int end)
{
    int n = g->n;
    PyObject *placed = PyTuple_New(g->nplaced);
    if (!placed) {
        g->err = 1;
        return;
    }
    for (int k = 0; k < g->nplaced; k++) {
        PyObject *p = pair(g, g->placed[k].pos, g->placed[k].code);
        if (!p) {
            Py_DECREF(placed);
            g->err = 1;
            return;
        }
        PyTuple_SET_ITEM(placed, k, p);
    }
    PyObject *play = PyTuple_New(6);
    if (!play) {
        Py_DECREF(placed);
        g->err = 1;
        return;
    }
    PyTuple_SET_ITEM(play, 5, placed);
    PyObject *down = g->down ? Py_True : Py_False;
    Py_INCREF(down);
    PyTuple_SET_ITEM(play, 1, down);
    long ints[5] = {total, 0, start / n, start % n, end - start};
    for (int k = 0; k < 5; k++) {
        if (k == 1)
            continue;
        PyObject *v = PyLong_FromLong(ints[k]);
        if (!v) {
            Py_DECREF(play);
            g->err = 1;
            return;
        }
        PyTuple_SET_ITEM(play, k, v);
    }
    if (PyList_Append(g->plays, play) < 0)
        g->err = 1;
    Py_DECREF(play);
}

static int passes_filters(Gen *g, int start, int end)
{
    if (end - start < g->min_length)
        return 0;
    if (g->no_blanks)
        for (int k = 0; k < g->nplaced; k++)
            if (g->placed[k].code & BLANK)
                return 0;
    if (g->square >= 0) {
        int hit = 0;
        for (int k = 0; k < g->nplaced; k++)
            hit |= g->placed[k].pos == g->square;
        if (!hit)
            return 0;
    }
    if (g->has_need) {
        int have[27] = {0};
        for (int i = start; i < end; i++)
            if (g->cells[i])
                have[g->cells[i] & LETTER_MASK]++;
        for (int k = 0; k < g->nplaced; k++)
            have[g->placed[k].code & LETTER_MASK]++;
        for (int l = 1; l < 27; l++)
            if (have[l] < g->need[l])
                return 0;
    }
    return 1;
}

static void record(Gen *g, int start, int end, int total, int ntiles)
{
    if (end - start < 2)
        return; /* a lone tile with no word this way: found in the other view */
    if (g->down && ntiles == 1 && g->xsum[g->placed[0].pos] >= 0)
        return; /* a lone tile forming words both ways: already found across */
    if (!passes_filters(g, start, end))
        return;
    if (ntiles == g->rack_size)
        total += g->bonus;
    g->count++;
    if (g->keep < 0) {
        emit(g, total, start, end);
    } else if (g->keep > 0) {
        if (g->heap_len < g->keep) {
            heap_push(g->heap, &g->heap_len, total);
            emit(g, total, start, end);
        } else if (total >= g->heap[0]) {
            if (total > g->heap[0])
                heap_replace_top(g->heap, g->heap_len, total);
            emit(g, total, start, end);
        }
    }
}

/* ------------------------------------------------------------------ the search */

static void right(Gen *g, int pos, int row_end, int start, uint32_t s, int msum, int wmul,
                  int xtot, int ntiles)
{
    uint32_t m = g->gmask[s];
    if (pos == row_end) {
        if (m & 1u)
            record(g, start, pos, msum * wmul + xtot, ntiles);
        return;
    }
    int code = g->cells[pos];
    if (code) {
        int letter = code & LETTER_MASK;
        if ((m >> letter) & 1u) {
            uint32_t nxt;
            if (!step(g, s, m, letter, &nxt))
                return;
            right(g, pos + 1, row_end, start, nxt,
                  msum + ((code & BLANK) ? 0 : g->values[letter]), wmul, xtot, ntiles);
        }
        return;
    }
    if (m & 1u) {
        record(g, start, pos, msum * wmul + xtot, ntiles);
        if (g->err)
            return;
    }
    uint32_t allowed = m & g->xmask[pos];
    if (!g->rack[0])
        allowed &= g->rack_bits;
    int lmul = g->lm[pos], wmm = g->wm[pos], xs = g->xsum[pos];
    while (allowed) {
        uint32_t low = allowed & (0u - allowed);
        int letter = __builtin_ctz(allowed);
        allowed ^= low;
        uint32_t nxt;
        if (!step(g, s, m, letter, &nxt))
            return;
        if (g->rack[letter]) {
            if (!--g->rack[letter])
                g->rack_bits &= ~low;
            int v = g->values[letter] * lmul;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter;
            g->nplaced++;
            right(g, pos + 1, row_end, start, nxt, msum + v, wmul * wmm,
                  xs >= 0 ? xtot + (xs + v) * wmm : xtot, ntiles + 1);
            g->nplaced--;
            if (!g->rack[letter]++)
                g->rack_bits |= low;
            if (g->err)
                return;
        }
        if (g->rack[0]) {
            g->rack[0]--;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter | BLANK;
            g->nplaced++;
            right(g, pos + 1, row_end, start, nxt, msum, wmul * wmm,
                  xs >= 0 ? xtot + xs * wmm : xtot, ntiles + 1);
            g->nplaced--;
            g->rack[0]++;
            if (g->err)
                return;
        }
    }
}

static void left(Gen *g, int pos, int anchor, int row_start, int row_end, uint32_t s, int msum,
                 int wmul, int xtot, int ntiles);

/* Square ``pos`` now holds the leftmost letter; end here, go further left, or turn. */
static void after_left(Gen *g, int pos, int anchor, int row_start, int row_end, uint32_t s,
                       int msum, int wmul, int xtot, int ntiles)
{
    uint32_t m = g->gmask[s];
    int left_free = pos == row_start || !g->cells[pos - 1];
    if (left_free) {
        if ((m & 1u) && (anchor + 1 == row_end || !g->cells[anchor + 1])) {
            record(g, pos, anchor + 1, msum * wmul + xtot, ntiles);
            if (g->err)
                return;
        }
        if (((m >> SEP) & 1u) && anchor + 1 < row_end) {
            uint32_t nxt;
            if (!step(g, s, m, SEP, &nxt))
                return;
            right(g, anchor + 1, row_end, pos, nxt, msum, wmul, xtot, ntiles);
            if (g->err)
                return;
        }
    }
    if (pos > row_start) {
        int p = pos - 1;
        if (g->cells[p] || (!g->is_anchor[p] && ntiles < g->tiles))
            left(g, p, anchor, row_start, row_end, s, msum, wmul, xtot, ntiles);
    }
}

/* Fill or follow square ``pos`` going left from the anchor. */
static void left(Gen *g, int pos, int anchor, int row_start, int row_end, uint32_t s, int msum,
                 int wmul, int xtot, int ntiles)
{
    uint32_t m = g->gmask[s];
    int code = g->cells[pos];
    if (code) {
        int letter = code & LETTER_MASK;
        if ((m >> letter) & 1u) {
            uint32_t nxt;
            if (!step(g, s, m, letter, &nxt))
                return;
            after_left(g, pos, anchor, row_start, row_end, nxt,
                       msum + ((code & BLANK) ? 0 : g->values[letter]), wmul, xtot, ntiles);
        }
        return;
    }
    uint32_t allowed = m & g->xmask[pos];
    if (!g->rack[0])
        allowed &= g->rack_bits;
    int lmul = g->lm[pos], wmm = g->wm[pos], xs = g->xsum[pos];
    while (allowed) {
        uint32_t low = allowed & (0u - allowed);
        int letter = __builtin_ctz(allowed);
        allowed ^= low;
        uint32_t nxt;
        if (!step(g, s, m, letter, &nxt))
            return;
        if (g->rack[letter]) {
            if (!--g->rack[letter])
                g->rack_bits &= ~low;
            int v = g->values[letter] * lmul;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter;
            g->nplaced++;
            after_left(g, pos, anchor, row_start, row_end, nxt, msum + v, wmul * wmm,
                       xs >= 0 ? xtot + (xs + v) * wmm : xtot, ntiles + 1);
            g->nplaced--;
            if (!g->rack[letter]++)
                g->rack_bits |= low;
            if (g->err)
                return;
        }
        if (g->rack[0]) {
            g->rack[0]--;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter | BLANK;
            g->nplaced++;
            after_left(g, pos, anchor, row_start, row_end, nxt, msum, wmul * wmm,
                       xs >= 0 ? xtot + xs * wmm : xtot, ntiles + 1);
            g->nplaced--;
            g->rack[0]++;
            if (g->err)
                return;
        }
    }
}

/* ------------------------------------------------------------------ the entry point */

static int need_len(const char *what, Py_buffer *b, Py_ssize_t items, Py_ssize_t itemsize)
{
    if (b->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", what, items * itemsize,
                     b->len);
        return 0;
    }
    return 1;
}

static PyObject *generate(PyObject *self, PyObject *args)
{
    int n, rack_size, bonus, down;
    unsigned int groot;
    long keep;
    PyObject *scores;
    int min_length = 0, no_blanks = 0, square = -1;
    Py_buffer need = {0};
    Py_buffer cells = {0}, lm = {0}, wm = {0}, xmask = {0}, xsum = {0}, anchors = {0},
              is_anchor = {0}, values = {0}, rack = {0}, gmask = {0}, gfirst = {0},
              gchild = {0};
    Py_buffer *bufs[] = {&cells, &lm,   &wm,    &xmask, &xsum,  &anchors,
                         &is_anchor, &values, &rack, &gmask, &gfirst, &gchild, &need};
    PyObject *result = NULL, *plays = NULL, *out_scores = NULL;
    Gen *g = NULL;
    (void)self;
    Py_ssize_t nn = 0, nstates, nanchors;
    const int32_t *rk, *anc;
    int gc_was_enabled = 0;

    if (!PyArg_ParseTuple(args, "iy*y*y*y*y*y*y*y*y*iipy*y*y*IlO!|ipiy*:generate", &n, &cells,
                          &lm, &wm, &xmask, &xsum, &anchors, &is_anchor, &values, &rack,
                          &rack_size, &bonus, &down, &gmask, &gfirst, &gchild, &groot, &keep,
                          &PyList_Type, &scores, &min_length, &no_blanks, &square, &need))
        return NULL;

    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "board size %d out of range 1..%d", n, MAX_N);
        goto done;
    }
    nn = (Py_ssize_t)n * n;
    if (!need_len("cells", &cells, nn, 1) || !need_len("lm", &lm, nn, 1) ||
        !need_len("wm", &wm, nn, 1) || !need_len("xmask", &xmask, nn, 4) ||
        !need_len("xsum", &xsum, nn, 4) || !need_len("is_anchor", &is_anchor, nn, 1) ||
        !need_len("values", &values, 27, 4) || !need_len("rack", &rack, 27, 4))
        goto done;
    if (anchors.len % 4 || gmask.len % 4 || gfirst.len != gmask.len || gchild.len % 4) {
        PyErr_SetString(PyExc_ValueError, "anchors and GADDAG arrays must hold 4-byte items");
        goto done;
    }
    nstates = gmask.len / 4;
    if ((Py_ssize_t)groot >= nstates) {
        PyErr_SetString(PyExc_ValueError, "GADDAG root out of range");
        goto done;
    }
    if (keep < -1)
        keep = -1;
    if (keep > 0 && PyList_GET_SIZE(scores) > keep) {
        PyErr_SetString(PyExc_ValueError, "more carried-over scores than keep");
        goto done;
    }

    g = PyMem_Calloc(1, sizeof(Gen));
    if (!g) {
        PyErr_NoMemory();
        goto done;
    }
    g->n = n;
    g->cells = cells.buf;
    g->lm = lm.buf;
    g->wm = wm.buf;
    g->xmask = xmask.buf;
    g->xsum = xsum.buf;
    g->is_anchor = is_anchor.buf;
    memcpy(g->values, values.buf, sizeof g->values);
    g->down = down;
    g->rack_size = rack_size;
    g->bonus = bonus;
    g->gmask = gmask.buf;
    g->gfirst = gfirst.buf;
    g->gchild = gchild.buf;
    g->nstates = nstates;
    g->nedges = gchild.len / 4;
    g->keep = keep;
    g->min_length = min_length;
    g->no_blanks = no_blanks;
    g->square = square < nn ? square : -1;
    if (need.obj && need.len) {
        if (!need_len("need", &need, 27, 4))
            goto done;
        memcpy(g->need, need.buf, sizeof g->need);
        g->has_need = 1;
    }

    for (Py_ssize_t i = 0; i < nn; i++) {
        int code = g->cells[i];
        int letter = code & ~BLANK;
        if (code && (letter < 1 || letter > 26)) {
            PyErr_Format(PyExc_ValueError, "cells[%zd] = %d is not a tile code", i, code);
            goto done;
        }
        if (g->lm[i] > 9 || g->wm[i] > 9) {
            PyErr_SetString(PyExc_ValueError, "multipliers must be 0..9");
            goto done;
        }
    }
    rk = rack.buf;
    for (int i = 0; i < 27; i++) {
        if (rk[i] < 0 || rk[i] > 1000) {
            PyErr_SetString(PyExc_ValueError, "rack counts must be 0..1000");
            goto done;
        }
        g->rack[i] = rk[i]; /* a copy: the caller's buffer is never modified */
        g->tiles += rk[i];
        if (i && rk[i])
            g->rack_bits |= 1u << i;
    }

    if (keep > 0) {
        g->heap = PyMem_Malloc(sizeof(int) * (size_t)keep);
        if (!g->heap) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(scores); i++) {
            long v = PyLong_AsLong(PyList_GET_ITEM(scores, i));
            if (v == -1 && PyErr_Occurred())
                goto done;
            heap_push(g->heap, &g->heap_len, (int)v);
        }
    }
    plays = PyList_New(0);
    if (!plays)
        goto done;
    g->plays = plays;
    g->pairs = PyMem_Calloc((size_t)nn * 128, sizeof(PyObject *));
    if (!g->pairs) {
        PyErr_NoMemory();
        goto done;
    }

    anc = anchors.buf;
    nanchors = anchors.len / 4;
    /* Many thousands of new tuples would trigger the cyclic collector again and again; they
     * cannot form cycles, so it is paused while they are built (no Python code runs here). */
    gc_was_enabled = PyGC_Disable();
    for (Py_ssize_t k = 0; k < nanchors && !g->err; k++) {
        int a = anc[k];
        if (a < 0 || a >= nn) {
            PyErr_Format(PyExc_ValueError, "anchor %d off the board", a);
            g->err = 1;
            break;
        }
        int row_start = a - a % n;
        left(g, a, a, row_start, row_start + n, groot, 0, 1, 0, 0);
    }
    if (gc_was_enabled)
        PyGC_Enable();
    if (g->err)
        goto done;

    if (keep > 0) {
        out_scores = PyList_New(g->heap_len);
        if (!out_scores)
            goto done;
        for (long i = 0; i < g->heap_len; i++) {
            PyObject *v = PyLong_FromLong(g->heap[i]);
            if (!v)
                goto done;
            PyList_SET_ITEM(out_scores, i, v);
        }
    } else {
        out_scores = PyList_GetSlice(scores, 0, PyList_GET_SIZE(scores));
        if (!out_scores)
            goto done;
    }
    result = Py_BuildValue("(lOO)", g->count, plays, out_scores);

done:
    if (g) {
        if (g->pairs) {
            for (Py_ssize_t i = 0; i < nn * 128; i++)
                Py_XDECREF(g->pairs[i]);
            PyMem_Free(g->pairs);
        }
        PyMem_Free(g->heap);
        PyMem_Free(g);
    }
    Py_XDECREF(plays);
    Py_XDECREF(out_scores);
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i]->obj)
            PyBuffer_Release(bufs[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"generate", generate, METH_VARARGS,
     "generate(n, cells, lm, wm, xmask, xsum, anchors, is_anchor, values, rack, rack_size, "
     "bonus, down, gmask, gfirst, gchild, groot, keep, scores) -> (count, plays, scores)\n\n"
     "The plays of one view, exactly as engine.movegen.view_search generates them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._fastgen",
    "Compiled core of the Scrabble-family move generator (see engine/native.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastgen(void)
{
    return PyModule_Create(&module);
}
