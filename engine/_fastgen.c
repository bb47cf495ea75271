/* Compiled core of the Scrabble-family move generator (optional; see engine/native.py).
 *
 * A port of engine.movegen: the cross-checks and anchors (movegen.cross_checks, .anchors),
 * the GADDAG walk (view_search's record, right, after_left, left and run) with the same
 * dedupe rules and the same scores, and the anchor upper bounds of the best-first search.
 * The Python generator is the reference; this module only makes it faster, and
 * tests/test_native.py checks the two against each other play for play.
 *
 * generate(n, cells, lm, wm, starts, values, rack, rack_size, bonus, views,
 *          dmask, dfirst, dchild, droot, gmask, gfirst, gchild, groot, keep, prune, scores
 *          [, min_length, no_blanks, square, need]) -> (count, plays, scores)
 *
 * cells, lm and wm are the board (n*n bytes, row by row); the views (bit 1: across, bit 2:
 * down, the transpose) are derived here. `starts` are the start squares (board indices,
 * int32) used when the board is empty. d* is the forward DAWG (cross-checks), g* the GADDAG.
 *
 * keep: -1 returns every play (views in order, anchors in board order: exactly
 * movegen.generate_view's order); 0 none (count only); N > 0 the plays that rank in the best
 * N (every play scoring at least the N-th best score, ties included), with a min-heap of the
 * best N scores seeded by `scores` (carried over from another call) and returned.
 * prune (with keep > 0): visit the anchors of all the views best-bound-first and stop when
 * no bound left reaches the N-th best score found; the plays returned are the same, the count
 * is then only of the plays visited (not the number of legal plays).
 *
 * The optional filters drop a play before it is counted or kept, exactly as
 * engine.solver._raw_matches does afterwards in Python: main word shorter than min_length,
 * a blank among the new tiles (no_blanks), no new tile on view square `square` (-1: any;
 * the square is in the first view's coordinates: give one view at a time), or fewer of some
 * letter in the main word than need[letter] (27 int32; a blank counts as the letter it
 * stands for).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEP 27
#define BLANK 64
#define LETTER_MASK 31
#define MAX_N 64
#define ALL_LETTERS (((1u << 27) - 1u) & ~1u)

/* popcount: the compiler's builtin only where it is one instruction for every CPU the build
 * can run on (ARM64; x86-64 built with POPCNT enabled); a baseline x86-64 build would call
 * libgcc's __popcountdi2 for it, so it gets the inline bit trick instead. No CPU-specific
 * flags are ever added: the module runs on any CPU of its architecture. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__aarch64__) || defined(__POPCNT__))
#define POPCOUNT(x) __builtin_popcount(x)
#else
static inline int POPCOUNT(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
#endif
#if defined(__GNUC__) || defined(__clang__)
#define CTZ(x) __builtin_ctz(x) /* a plain instruction on every x86-64 and ARM64 */
#else
static inline int CTZ(uint32_t x)
{
    int k = 0;
    while (!(x & 1u)) {
        x >>= 1;
        k++;
    }
    return k;
}
#endif

typedef struct {
    int pos;
    int code;
} Placed;

/* One view of the board: the plays generated in it run across. */
typedef struct {
    int down;
    uint8_t *cells;
    uint8_t *lm;
    uint8_t *wm;
    uint8_t *is_anchor;
    uint32_t *xmask;
    int32_t *xsum;
    int32_t *anchors;
    int nanchors;
} View;

/* A play found, kept in C until the end: only the ones that rank become Python tuples. */
typedef struct {
    int score;
    int down;
    int start;
    int end;
    int nplaced;
    Py_ssize_t off; /* into Gen.pl */
} Rec;

typedef struct {
    /* the view being searched */
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
    int pruning;      /* the walk tests the extents' bounds (see anchor_bounds) */
    int64_t lob[MAX_N], lob_left[MAX_N], hib[MAX_N][MAX_N];
    Placed placed[MAX_N];
    int nplaced;
    /* output */
    long count;
    long keep;        /* -1 all, 0 none, N > 0 heap of the best N */
    int *heap;        /* min-heap of scores, capacity keep */
    long heap_len;
    Rec *recs;        /* plays found (keep != 0) */
    Py_ssize_t nrecs, caprecs;
    Placed *pl;       /* their placements */
    Py_ssize_t npl, cappl;
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
    Py_ssize_t e = (Py_ssize_t)g->gfirst[s] + POPCOUNT(m & ((1u << code) - 2u));
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

/* ------------------------------------------------------------------ recording plays */

/* Drop the plays that can no longer rank (below the heap's minimum once it is full). */
static void compact(Gen *g)
{
    if (g->keep <= 0 || g->heap_len < g->keep)
        return;
    int floor = g->heap[0];
    Py_ssize_t r = 0, p = 0;
    for (Py_ssize_t i = 0; i < g->nrecs; i++) {
        Rec rec = g->recs[i];
        if (rec.score < floor)
            continue;
        memmove(&g->pl[p], &g->pl[rec.off], sizeof(Placed) * (size_t)rec.nplaced);
        rec.off = p;
        p += rec.nplaced;
        g->recs[r++] = rec;
    }
    g->nrecs = r;
    g->npl = p;
}

static void keep_play(Gen *g, int total, int start, int end)
{
    if (g->nrecs == g->caprecs || g->npl + g->nplaced > g->cappl) {
        compact(g);
        if (g->nrecs * 2 > g->caprecs || g->npl + g->nplaced > g->cappl / 2) {
            Py_ssize_t cr = g->caprecs ? g->caprecs * 2 : 256;
            Py_ssize_t cp = g->cappl ? g->cappl * 2 : 2048;
            while (cp < g->npl + g->nplaced)
                cp *= 2;
            Rec *recs = PyMem_Realloc(g->recs, sizeof(Rec) * (size_t)cr);
            if (!recs) {
                PyErr_NoMemory();
                g->err = 1;
                return;
            }
            g->recs = recs;
            g->caprecs = cr;
            Placed *pl = PyMem_Realloc(g->pl, sizeof(Placed) * (size_t)cp);
            if (!pl) {
                PyErr_NoMemory();
                g->err = 1;
                return;
            }
            g->pl = pl;
            g->cappl = cp;
        }
    }
    Rec *rec = &g->recs[g->nrecs++];
    rec->score = total;
    rec->down = g->down;
    rec->start = start;
    rec->end = end;
    rec->nplaced = g->nplaced;
    rec->off = g->npl;
    memcpy(&g->pl[g->npl], g->placed, sizeof(Placed) * (size_t)g->nplaced);
    g->npl += g->nplaced;
}

/* The play as engine.movegen's RawPlay: (score, down, line, start, length, placements). */
static PyObject *play_tuple(Gen *g, const Rec *rec, PyObject **pairs)
{
    int n = g->n;
    PyObject *placed = PyTuple_New(rec->nplaced);
    if (!placed)
        return NULL;
    for (int k = 0; k < rec->nplaced; k++) {
        const Placed *q = &g->pl[rec->off + k];
        PyObject *p;
        if (pairs) {
            PyObject **slot = &pairs[(Py_ssize_t)q->pos * 128 + q->code];
            if (!*slot && !(*slot = Py_BuildValue("(ii)", q->pos, q->code))) {
                Py_DECREF(placed);
                return NULL;
            }
            p = *slot;
            Py_INCREF(p);
        } else if (!(p = Py_BuildValue("(ii)", q->pos, q->code))) {
            Py_DECREF(placed);
            return NULL;
        }
        PyTuple_SET_ITEM(placed, k, p);
    }
    return Py_BuildValue("(iOiiiN)", rec->score, rec->down ? Py_True : Py_False, rec->start / n,
                         rec->start % n, rec->end - rec->start, placed);
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
        keep_play(g, total, start, end);
    } else if (g->keep > 0) {
        if (g->heap_len < g->keep) {
            heap_push(g->heap, &g->heap_len, total);
            keep_play(g, total, start, end);
        } else if (total >= g->heap[0]) {
            if (total > g->heap[0])
                heap_replace_top(g->heap, g->heap_len, total);
            keep_play(g, total, start, end);
        }
    }
}

/* The score a play needs to be kept (once the heap of the best N is full). */
static inline int64_t floor_of(const Gen *g)
{
    return g->keep > 0 && g->heap_len == g->keep ? g->heap[0] : INT64_MIN;
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
    if (g->pruning) {
        int rs = pos - pos % g->n;
        if (g->hib[start - rs][pos - rs] < floor_of(g))
            return; /* no word ending here or further right can reach the best N */
    }
    uint32_t allowed = m & g->xmask[pos];
    if (!g->rack[0])
        allowed &= g->rack_bits;
    int lmul = g->lm[pos], wmm = g->wm[pos], xs = g->xsum[pos];
    while (allowed) {
        uint32_t low = allowed & (0u - allowed);
        int letter = CTZ(allowed);
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
    int rs = row_start;
    if (left_free && (!g->pruning || g->lob[pos - rs] >= floor_of(g))) {
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
    if (pos > row_start && (!g->pruning || g->lob_left[pos - 1 - rs] >= floor_of(g))) {
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
        int letter = CTZ(allowed);
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

/* ------------------------------------------------------------------ views, cross-checks, anchors */

/* A forward automaton (the DAWG) for the cross-checks. */
typedef struct {
    const uint32_t *mask;
    const uint32_t *first;
    const uint32_t *child;
    Py_ssize_t nstates;
    Py_ssize_t nedges;
} Dawg;

/* The state after ``code`` from ``s``: -1 when there is no such edge, -2 when malformed. */
static inline int64_t dawg_step(const Dawg *d, uint32_t s, int code)
{
    uint32_t m = d->mask[s];
    if (!((m >> code) & 1u))
        return -1;
    Py_ssize_t e = (Py_ssize_t)d->first[s] + POPCOUNT(m & ((1u << code) - 2u));
    if (e >= d->nedges || (Py_ssize_t)d->child[e] >= d->nstates)
        return -2;
    return d->child[e];
}

/* movegen.cross_checks for every square of view ``v``: 0 on success, -1 with an exception. */
static int cross_checks(View *v, int n, const Dawg *d, uint32_t root, const int *values)
{
    const uint8_t *cells = v->cells;
    int nn = n * n;
    for (int i = 0; i < nn; i++) {
        v->xsum[i] = -1;
        if (cells[i]) {
            v->xmask[i] = 0;
            continue;
        }
        int r = i / n;
        int above = r > 0 && cells[i - n];
        int below = r < n - 1 && cells[i + n];
        if (!above && !below) {
            v->xmask[i] = ALL_LETTERS;
            continue;
        }
        int top = i, bottom = i;
        while (top >= n && cells[top - n])
            top -= n;
        while (bottom < n * (n - 1) && cells[bottom + n])
            bottom += n;
        int sum = values[0]; /* the square itself, empty: as movegen sums values[cells[i]] */
        for (int j = top; j <= bottom; j += n)
            if (j != i)
                sum += (cells[j] & BLANK) ? 0 : values[cells[j] & LETTER_MASK];
        v->xsum[i] = sum;
        v->xmask[i] = 0;
        int64_t s = root;
        for (int j = top; j < i && s >= 0; j += n)
            s = dawg_step(d, (uint32_t)s, cells[j] & LETTER_MASK);
        if (s == -2)
            goto malformed;
        if (s < 0)
            continue;
        uint32_t m = d->mask[s] & ALL_LETTERS, allowed = 0;
        while (m) {
            int code = CTZ(m);
            m &= m - 1;
            int64_t t = dawg_step(d, (uint32_t)s, code);
            for (int j = i + n; j <= bottom && t >= 0; j += n)
                t = dawg_step(d, (uint32_t)t, cells[j] & LETTER_MASK);
            if (t == -2)
                goto malformed;
            if (t >= 0 && (d->mask[t] & 1u))
                allowed |= 1u << code;
        }
        v->xmask[i] = allowed;
    }
    return 0;
malformed:
    PyErr_SetString(PyExc_ValueError, "malformed DAWG: edge or state out of range");
    return -1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* movegen.anchors: the start squares on an empty board, else every empty square next to a
 * tile, in square order. */
static void find_anchors(View *v, int n, const int32_t *starts, Py_ssize_t nstarts, int empty)
{
    int nn = n * n;
    memset(v->is_anchor, 0, (size_t)nn);
    v->nanchors = 0;
    if (empty) {
        for (Py_ssize_t k = 0; k < nstarts; k++) {
            int s = starts[k];
            v->anchors[v->nanchors++] = v->down ? (s % n) * n + s / n : s;
        }
        qsort(v->anchors, (size_t)v->nanchors, sizeof(int32_t), cmp_int);
    } else {
        const uint8_t *cells = v->cells;
        for (int i = 0; i < nn; i++) {
            if (cells[i])
                continue;
            int r = i / n, c = i % n;
            if ((c > 0 && cells[i - 1]) || (c < n - 1 && cells[i + 1]) || (r > 0 && cells[i - n]) ||
                (r < n - 1 && cells[i + n]))
                v->anchors[v->nanchors++] = i;
        }
    }
    for (int k = 0; k < v->nanchors; k++)
        v->is_anchor[v->anchors[k]] = 1;
}

static void use_view(Gen *g, const View *v, int square)
{
    int n = g->n;
    g->cells = v->cells;
    g->lm = v->lm;
    g->wm = v->wm;
    g->xmask = v->xmask;
    g->xsum = v->xsum;
    g->is_anchor = v->is_anchor;
    g->down = v->down;
    g->square = square < 0 ? -1 : v->down ? (square % n) * n + square / n : square;
}

/* The plays from anchor ``a``. */
static void run_anchor(Gen *g, int a, uint32_t groot)
{
    int row_start = a - a % g->n;
    left(g, a, a, row_start, row_start + g->n, groot, 0, 1, 0, 0);
}

/* ------------------------------------------------------------------ upper bounds */

/* The best pairing of the ``k`` largest values (sorted, descending) with ``k`` coefficients
 * (rearrangement inequality: largest with largest). */
static int64_t pairing(const int *vals, int64_t *coef, int k)
{
    for (int i = 1; i < k; i++) { /* insertion sort, descending; k is a rack's worth */
        int64_t c = coef[i];
        int j = i;
        while (j > 0 && coef[j - 1] < c) {
            coef[j] = coef[j - 1];
            j--;
        }
        coef[j] = c;
    }
    int64_t s = 0;
    for (int i = 0; i < k; i++)
        s += vals[i] * coef[i];
    return s;
}

/* Upper bounds of the score of the plays generated from anchor ``a`` of the current view, per
 * extent: g->lob[lo] bounds the plays whose main word starts on square row_start + lo,
 * g->hib[lo][hi] those that also end on row_start + hi, made monotone for the walk's tests:
 * g->lob_left[x] = max of lob[0..x], g->hib[lo][h] = max over hi >= h. -1: no play. Returns
 * the anchor's bound (the maximum). A "shadow" play for each extent lo..hi the walk could
 * produce (leftwards no new tile on another anchor; every empty square in it fillable from
 * the rack, a blank fitting any cross-set): the tiles already there, plus the rack's values
 * paired best-first with each empty square's weight (letter premium x (word premiums of the
 * extent + its own word premium if it makes a cross-word)), plus the cross-words' existing
 * tiles, plus the all-tiles bonus. A square whose cross-set is restricted takes at most the
 * best rack value that fits it: the smaller of the two pairings is kept. */
static int64_t anchor_bounds(Gen *g, int a, const int *vals, int nvals)
{
    int n = g->n, row_start = a - a % n, row_end = row_start + n;
    const uint8_t *cells = g->cells;
    uint32_t usable = g->rack[0] ? ALL_LETTERS : g->rack_bits;
    int tiles = g->tiles;
    int64_t top = -1;
    for (int x = 0; x < n; x++)
        g->lob[x] = g->lob_left[x] = -1;
    if (!(g->xmask[a] & usable) || tiles < 1)
        return -1;
    int no_bound = tiles > nvals; /* more tiles than the values kept: never pruned */
    int lo_min = a, emp = 1;
    while (lo_min > row_start) {
        int q = lo_min - 1;
        if (!cells[q]) {
            if (g->is_anchor[q] || emp >= tiles || !(g->xmask[q] & usable))
                break;
            emp++;
        }
        lo_min = q;
    }
    int lmv[MAX_N], wmv[MAX_N], xsv[MAX_N], capv[MAX_N];
    int64_t coef[MAX_N], coef2[MAX_N];
    for (int lo = lo_min; lo <= a; lo++) {
        if (lo > row_start && cells[lo - 1])
            continue; /* the word would go on leftwards */
        int64_t held = 0, wmul = 1, best = -1;
        int64_t *row = g->hib[lo - row_start];
        for (int y = 0; y < n; y++)
            row[y] = -1;
        int k = 0;
        for (int q = lo; q < row_end; q++) {
            int code = cells[q];
            if (code) {
                held += (code & BLANK) ? 0 : g->values[code & LETTER_MASK];
            } else {
                uint32_t fit = g->xmask[q] & usable;
                if (q > a && (k >= tiles || !fit))
                    break;
                lmv[k] = g->lm[q];
                wmv[k] = g->wm[q];
                xsv[k] = g->xsum[q];
                int cap = 0;
                for (uint32_t m = fit & g->rack_bits; m; m &= m - 1) {
                    int v = g->values[CTZ(m)];
                    cap = v > cap ? v : cap;
                }
                capv[k] = cap;
                wmul *= wmv[k];
                if (wmul > (1 << 24))
                    no_bound = 1; /* absurd premiums: never pruned */
                k++;
            }
            if (q < a || (q + 1 < row_end && cells[q + 1]))
                continue; /* not an end: the anchor must be covered, the word cannot stop */
            int64_t b;
            if (no_bound) {
                b = INT64_MAX / 4;
            } else {
                int64_t fixed = held * wmul, restricted = 0;
                int u = 0;
                for (int j = 0; j < k; j++) {
                    int64_t w = lmv[j] * (wmul + (xsv[j] >= 0 ? wmv[j] : 0));
                    coef[j] = w;
                    if (xsv[j] >= 0) {
                        fixed += (int64_t)xsv[j] * wmv[j];
                        restricted += capv[j] * w;
                    } else {
                        coef2[u++] = w;
                    }
                }
                int64_t b1 = pairing(vals, coef, k);
                int64_t b2 = restricted + pairing(vals, coef2, u);
                b = fixed + (b1 < b2 ? b1 : b2) + (k == g->rack_size ? g->bonus : 0);
            }
            row[q - row_start] = b;
            if (b > best)
                best = b;
        }
        for (int h = n - 2; h >= 0; h--) /* suffix maxima over the end square */
            if (row[h + 1] > row[h])
                row[h] = row[h + 1];
        g->lob[lo - row_start] = best;
        if (best > top)
            top = best;
    }
    for (int x = 0; x < n; x++)
        g->lob_left[x] = x ? (g->lob[x] > g->lob_left[x - 1] ? g->lob[x] : g->lob_left[x - 1]) : g->lob[0];
    return top;
}

typedef struct {
    int64_t bound;
    int view;
    int anchor;
} Task;

static int cmp_task(const void *a, const void *b)
{
    const Task *x = a, *y = b;
    if (x->bound != y->bound)
        return x->bound < y->bound ? 1 : -1;
    if (x->view != y->view)
        return x->view - y->view;
    return x->anchor - y->anchor;
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
    int n, rack_size, bonus, views, prune;
    unsigned int droot, groot;
    long keep;
    PyObject *scores;
    int min_length = 0, no_blanks = 0, square = -1;
    Py_buffer need = {0};
    Py_buffer cells = {0}, lm = {0}, wm = {0}, starts = {0}, values = {0}, rack = {0},
              dmask = {0}, dfirst = {0}, dchild = {0}, gmask = {0}, gfirst = {0}, gchild = {0};
    Py_buffer *bufs[] = {&cells, &lm,    &wm,     &starts, &values, &rack, &dmask,
                         &dfirst, &dchild, &gmask, &gfirst, &gchild, &need};
    PyObject *result = NULL, *plays = NULL, *out_scores = NULL, **pairs = NULL;
    Gen *g = NULL;
    View vw[2];
    uint8_t *vbuf = NULL;
    Task *tasks = NULL;
    int nviews = 0;
    (void)self;
    Py_ssize_t nn = 0, nstates, nstarts, nout = 0;
    const int32_t *rk;
    int gc_was_enabled = 0, empty = 1;
    Dawg d;
    int vals[MAX_N], nvals = 0;

    if (!PyArg_ParseTuple(args, "iy*y*y*y*y*y*iiiy*y*y*Iy*y*y*IlpO!|ipiy*:generate", &n, &cells,
                          &lm, &wm, &starts, &values, &rack, &rack_size, &bonus, &views, &dmask,
                          &dfirst, &dchild, &droot, &gmask, &gfirst, &gchild, &groot, &keep, &prune,
                          &PyList_Type, &scores, &min_length, &no_blanks, &square, &need))
        return NULL;

    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "board size %d out of range 1..%d", n, MAX_N);
        goto done;
    }
    nn = (Py_ssize_t)n * n;
    if (!need_len("cells", &cells, nn, 1) || !need_len("lm", &lm, nn, 1) ||
        !need_len("wm", &wm, nn, 1) || !need_len("values", &values, 27, 4) ||
        !need_len("rack", &rack, 27, 4))
        goto done;
    if (starts.len % 4 || gmask.len % 4 || gfirst.len != gmask.len || gchild.len % 4 ||
        dmask.len % 4 || dfirst.len != dmask.len || dchild.len % 4) {
        PyErr_SetString(PyExc_ValueError, "start squares and automaton arrays must hold 4-byte items");
        goto done;
    }
    nstates = gmask.len / 4;
    if ((Py_ssize_t)groot >= nstates || (Py_ssize_t)droot >= dmask.len / 4) {
        PyErr_SetString(PyExc_ValueError, "automaton root out of range");
        goto done;
    }
    if (views < 1 || views > 3) {
        PyErr_SetString(PyExc_ValueError, "views must be 1 (across), 2 (down) or 3 (both)");
        goto done;
    }
    if (keep < -1)
        keep = -1;
    if (keep > 0 && PyList_GET_SIZE(scores) > keep) {
        PyErr_SetString(PyExc_ValueError, "more carried-over scores than keep");
        goto done;
    }
    nstarts = starts.len / 4;
    if (nstarts > nn) {
        PyErr_SetString(PyExc_ValueError, "more start squares than squares");
        goto done;
    }
    for (Py_ssize_t k = 0; k < nstarts; k++) {
        int s = ((const int32_t *)starts.buf)[k];
        if (s < 0 || s >= nn) {
            PyErr_Format(PyExc_ValueError, "start square %d off the board", s);
            goto done;
        }
    }

    g = PyMem_Calloc(1, sizeof(Gen));
    if (!g) {
        PyErr_NoMemory();
        goto done;
    }
    g->n = n;
    memcpy(g->values, values.buf, sizeof g->values);
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
    if (square >= nn)
        square = -1;
    if (need.obj && need.len) {
        if (!need_len("need", &need, 27, 4))
            goto done;
        memcpy(g->need, need.buf, sizeof g->need);
        g->has_need = 1;
    }
    d.mask = dmask.buf;
    d.first = dfirst.buf;
    d.child = dchild.buf;
    d.nstates = dmask.len / 4;
    d.nedges = dchild.len / 4;

    const uint8_t *bc = cells.buf, *blm = lm.buf, *bwm = wm.buf;
    for (Py_ssize_t i = 0; i < nn; i++) {
        int code = bc[i];
        int letter = code & ~BLANK;
        if (code && (letter < 1 || letter > 26)) {
            PyErr_Format(PyExc_ValueError, "cells[%zd] = %d is not a tile code", i, code);
            goto done;
        }
        if (blm[i] > 9 || bwm[i] > 9) {
            PyErr_SetString(PyExc_ValueError, "multipliers must be 0..9");
            goto done;
        }
        if (code)
            empty = 0;
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
    /* the rack's values, largest first, blanks as 0 (for the bounds; a play has at most n tiles) */
    for (int i = 0; i < 27; i++)
        for (int c = 0; c < g->rack[i] && nvals < MAX_N; c++)
            vals[nvals++] = i ? g->values[i] : 0;
    qsort(vals, (size_t)nvals, sizeof(int), cmp_int);
    for (int i = 0; i < nvals / 2; i++) {
        int t = vals[i];
        vals[i] = vals[nvals - 1 - i];
        vals[nvals - 1 - i] = t;
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

    /* the views: 1 + 1 + 1 + 1 + 4 + 4 + 4 bytes a square */
    vbuf = PyMem_Malloc((size_t)nn * 16 * 2);
    if (!vbuf) {
        PyErr_NoMemory();
        goto done;
    }
    for (int down = 0; down < 2; down++) {
        if (!(views & (1 << down)))
            continue;
        View *v = &vw[nviews++];
        uint8_t *p = vbuf + (size_t)nn * 16 * down;
        v->down = down;
        v->xmask = (uint32_t *)p;
        v->xsum = (int32_t *)(p + nn * 4);
        v->anchors = (int32_t *)(p + nn * 8);
        v->cells = p + nn * 12;
        v->lm = p + nn * 13;
        v->wm = p + nn * 14;
        v->is_anchor = p + nn * 15;
        if (!down) {
            memcpy(v->cells, bc, (size_t)nn);
            memcpy(v->lm, blm, (size_t)nn);
            memcpy(v->wm, bwm, (size_t)nn);
        } else {
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    v->cells[c * n + r] = bc[r * n + c];
                    v->lm[c * n + r] = blm[r * n + c];
                    v->wm[c * n + r] = bwm[r * n + c];
                }
        }
        if (cross_checks(v, n, &d, droot, g->values) < 0)
            goto done;
        find_anchors(v, n, starts.buf, nstarts, empty);
    }

    /* Many thousands of new tuples would trigger the cyclic collector again and again; they
     * cannot form cycles, so it is paused while they are built (no Python code runs here). */
    gc_was_enabled = PyGC_Disable();
    if (prune && keep > 0) {
        Py_ssize_t ntasks = 0;
        /* the anchors of the views, best bound first; each anchor's walk then tests the
         * bounds of its extents (recomputed when it runs) against the N-th best score */
        tasks = PyMem_Malloc(sizeof(Task) * (size_t)(vw[0].nanchors + (nviews > 1 ? vw[1].nanchors : 0) + 1));
        if (!tasks) {
            PyErr_NoMemory();
            g->err = 1;
        }
        for (int k = 0; k < nviews && !g->err; k++) {
            use_view(g, &vw[k], square);
            for (int j = 0; j < vw[k].nanchors; j++) {
                int64_t b = anchor_bounds(g, vw[k].anchors[j], vals, nvals);
                if (b >= 0) {
                    tasks[ntasks].bound = b;
                    tasks[ntasks].view = k;
                    tasks[ntasks].anchor = vw[k].anchors[j];
                    ntasks++;
                }
            }
        }
        if (!g->err)
            qsort(tasks, (size_t)ntasks, sizeof(Task), cmp_task);
        int current = -1;
        for (Py_ssize_t t = 0; t < ntasks && !g->err; t++) {
            if (tasks[t].bound < floor_of(g))
                break; /* no play left can reach the keep-th best score */
            if (tasks[t].view != current) {
                current = tasks[t].view;
                use_view(g, &vw[current], square);
            }
            anchor_bounds(g, tasks[t].anchor, vals, nvals);
            g->pruning = 1;
            run_anchor(g, tasks[t].anchor, groot);
            g->pruning = 0;
        }
    } else {
        for (int k = 0; k < nviews && !g->err; k++) {
            use_view(g, &vw[k], square);
            for (int j = 0; j < vw[k].nanchors && !g->err; j++)
                run_anchor(g, vw[k].anchors[j], groot);
        }
    }
    if (!g->err) {
        int floor = keep > 0 && g->heap_len == keep ? g->heap[0] : INT_MIN;
        for (Py_ssize_t i = 0; i < g->nrecs; i++)
            nout += g->recs[i].score >= floor;
        plays = PyList_New(nout);
        if (!plays)
            g->err = 1;
        else if (nout > 256 && !(pairs = PyMem_Calloc((size_t)nn * 128, sizeof(PyObject *)))) {
            PyErr_NoMemory();
            g->err = 1;
        }
        for (Py_ssize_t i = 0, o = 0; i < g->nrecs && !g->err; i++) {
            if (g->recs[i].score < floor)
                continue;
            PyObject *t = play_tuple(g, &g->recs[i], pairs);
            if (!t)
                g->err = 1;
            else
                PyList_SET_ITEM(plays, o++, t);
        }
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
    if (pairs) {
        for (Py_ssize_t i = 0; i < nn * 128; i++)
            Py_XDECREF(pairs[i]);
        PyMem_Free(pairs);
    }
    if (g) {
        PyMem_Free(g->heap);
        PyMem_Free(g->recs);
        PyMem_Free(g->pl);
        PyMem_Free(g);
    }
    PyMem_Free(tasks);
    PyMem_Free(vbuf);
    Py_XDECREF(plays);
    Py_XDECREF(out_scores);
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i]->obj)
            PyBuffer_Release(bufs[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"generate", generate, METH_VARARGS,
     "generate(n, cells, lm, wm, starts, values, rack, rack_size, bonus, views, dmask, dfirst, "
     "dchild, droot, gmask, gfirst, gchild, groot, keep, prune, scores[, min_length, no_blanks, "
     "square, need]) -> (count, plays, scores)\n\n"
     "The plays of a board's views, as engine.movegen.view_search generates them (see "
     "engine/native.py)."},
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
