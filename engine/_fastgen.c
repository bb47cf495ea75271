/* Compiled core of the Scrabble-family move generator (optional; see engine/search/compiled.py).
 *
 * A port of engine.movegen: the cross-checks and anchors (movegen.cross_checks, .anchors),
 * the GADDAG walk (view_search's record, right, after_left, left and run) with the same
 * dedupe rules and the same scores, and the anchor upper bounds of the best-first search.
 * The Python generator is the reference; this module only makes it faster, and
 * tests/test_native.py checks the two against each other play for play.
 *
 * generate(n, cells, lm, wm, starts, values, rack, rack_size, bonus, views,
 *          gaddag, keep, prune, rank, scores
 *          [, min_length, no_blanks, square, need]) -> (count, plays, scores)
 *
 * cells, lm and wm are the board (n*n bytes, row by row); the views (bit 1: across, bit 2:
 * down, the transpose) are derived here. `starts` are the start squares (board indices,
 * int32) used when the board is empty. gaddag is the GADDAG as pack(mask, first, child, root
 * [, the DAWG's]) returns it (built once per lexicon); the cross-checks are read from it too.
 *
 * keep: -1 returns every play (views in order, anchors in board order: exactly
 * movegen.generate_view's order), or with `scores` [s] those scoring at least s (every play
 * still counted: a play's rank among all of them); 0 none (count only); N > 0 the plays that
 * rank in the best N (every play scoring at least the N-th best score, ties included), with a
 * min-heap of the best N scores seeded by `scores` (carried over from another call) and
 * returned.
 * prune (with keep > 0): visit the anchors of all the views best-bound-first and stop when
 * no bound left reaches the N-th best score found; the plays returned are the same, the count
 * is then only of the plays visited (not the number of legal plays). A full rack with at most
 * three blanks has its whole-rack plays found first, from the words made of its letters and
 * each extent's, the extents best bound first (whole_rack_plays; pack() given the DAWG keeps
 * the long words by their letters), and the walk then leaves them out.
 * rank (with keep > 0): return only the best N, in solver.Move.sort_key's order, each as
 * (score, down, row, col, word, (board square << 8 | code, ...)) ready for solver.Move (row and
 * col 1-based; the word's blanks lowercase); with leave values, the index of the tiles used
 * (into `leave`) follows.
 *
 * leave, lstride, ldrop, scale (optional, after the deadline): rank by equity instead of score.
 * A play's key is score * scale + leave[i], i = sum over the rack's tiles t of (tiles t used) *
 * lstride[t] (int32 arrays; leave covers every sub-rack); the heap, the `scores` carried over
 * and returned, the plays kept and the ranking (key first, then solver's order) use the key.
 * The anchor bounds stay scores: a play of score s has key at most s * scale + the best leave,
 * and per extent of k new tiles at most ldrop[k] (MAX_N + 1 int32) points less.
 *
 * The optional filters drop a play before it is counted or kept, exactly as
 * engine.plays.matches does afterwards in Python: main word shorter than min_length,
 * a blank among the new tiles (no_blanks), no new tile on view square `square` (-1: any;
 * the square is in the first view's coordinates: give one view at a time), or fewer of some
 * letter in the main word than need[letter] (27 int32; a blank counts as the letter it
 * stands for).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The walk runs without the interpreter lock (other threads, the service's event loop among
 * them, run meanwhile) where a monotonic C clock is at hand for the deadline. Inside it no
 * Python object is touched: plays go to PyMem_Raw* buffers, and a failure (out of memory,
 * past the deadline) is recorded in Gen.why and raised once the lock is held again. */
#if defined(CLOCK_MONOTONIC) && !defined(FASTGEN_KEEP_GIL)
#define FASTGEN_NOGIL 1
static double c_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#else
#define FASTGEN_NOGIL 0
#endif
#define WHY_PYERR 0   /* a Python exception is set */
#define WHY_NOMEM 1   /* raise MemoryError */
#define WHY_LATE 2    /* raise TimeoutError */

#define SEP 27
#define BLANK 64
#define LETTER_MASK 31
#define MAX_N 64
#define ALL_LETTERS (((1u << 27) - 1u) & ~1u)

/* popcount: the compiler's builtin only where it is one instruction for every CPU the build
 * can run on (ARM64; x86-64 built with POPCNT enabled, as setup.py does with GCC and Clang);
 * a baseline x86-64 build would call libgcc's __popcountdi2 for it, so it gets the inline bit
 * trick instead. A build with POPCNT checks the CPU when it is imported (PyInit__fastgen). */
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
#define ALWAYS_INLINE inline __attribute__((always_inline)) /* a part of its callers, not a call */
#else
#define ALWAYS_INLINE inline
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

/* A GADDAG state as the walk holds it: its mask and the index of its first edge. The walk
 * runs on a packed copy of the GADDAG (see pack): edges[e] is the Node of the state edge e
 * leads to, so a step is one load, and a state's edges are adjacent in memory. */
typedef struct {
    uint32_t mask;
    uint32_t first;
} Node;

#define PACKED_NAME "engine._fastgen.Packed"

typedef struct {
    Node root;
    Py_ssize_t nedges;
    Node *edges;
    uint32_t *reach; /* reach[e]: the letters on any edge below the state edge e leads to */
    /* The words' letters (see word_letters), when pack() was given the DAWG: a blocked Bloom
     * filter of every word's letters less one, as multisets hashed additively (the sum of
     * letter_key[c] over the letters c), in blocks of 512 bits; NULL without the DAWG. */
    uint64_t *bloom;
    uint64_t nblocks;
    uint64_t letter_key[27];
    /* The words of at least ANA_MIN letters by their letters (see anagrams), when pack() was
     * given the DAWG (NULL otherwise): open-addressed slots of the multisets' keys (as the
     * filter's; 0 is an empty slot, so a key of 0 is stored as 1) and, for each, the offset in
     * atext of its group: the number of words, their length, then their letters (tile codes). */
    uint64_t *akey;
    uint32_t *aval;
    uint64_t amask;
    uint8_t *atext;
} Packed;

#define ANA_MIN 7

/* A group of words made of the whole rack and an extent's letters, the rack's blanks standing
 * for the letters b[0] <= b[1] <= b[2] (0: no such blank; the blanks' letters come first). */
typedef struct {
    const uint8_t *words;
    uint8_t b[3];
} Group;

#define MAX_BLANKS 3 /* whole-rack plays from the words: racks with at most this many */

/* The most groups find_groups can return by the rack's blanks (the sets of letters for them),
 * and how many a search keeps. */
static const int GROUPS_MAX[MAX_BLANKS + 1] = {1, 26, 351, 3276};
static const int GROUPS_KEPT[MAX_BLANKS + 1] = {64, 1024, 2048, 8192};

/* An extent that can hold whole-rack plays: its bound, view, first square and one past its
 * last, and its board letters' key (whole_rack_plays). */
typedef struct {
    int64_t bound;
    uint64_t key;
    int view, start, end;
} Extent;

/* A 64-bit mix (half of MurmurHash3's finaliser, a bijection): the leave table's slots and the
 * words' letters' filter. */
static inline uint64_t hash64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

/* The block of 512 bits (8 words) ``key`` hashes to, and its six bits in ``h``'s low 54 bits. */
static inline uint64_t *bloom_block(const Packed *p, uint64_t key, uint64_t *h)
{
    uint64_t x = hash64(key);
    *h = hash64(x ^ 0x632be59bd9b4e019ull);
    return p->bloom + (((x >> 32) * p->nblocks) >> 32) * 8;
}

static void bloom_add(Packed *p, uint64_t key)
{
    uint64_t h, *b = bloom_block(p, key, &h);
    for (int i = 0; i < 6; i++, h >>= 9)
        b[(h & 511) >> 6] |= 1ull << (h & 63);
}

static int bloom_has(const Packed *p, uint64_t key)
{
    uint64_t h;
    const uint64_t *b = bloom_block(p, key, &h);
    for (int i = 0; i < 6; i++, h >>= 9)
        if (!(b[(h & 511) >> 6] & (1ull << (h & 63))))
            return 0;
    return 1;
}

/* Whether some word may be made of the letters with key ``key`` (the sum of their letter_key)
 * and ``blanks`` more letters, any: never 0 when one can (a Bloom filter: now and then 1 when
 * none can). One or two blanks are looked up; otherwise the answer is 1. */
static int word_letters(const Packed *p, uint64_t key, int blanks)
{
    if (!p->bloom || blanks < 1 || blanks > 2)
        return 1;
    if (blanks == 1)
        return bloom_has(p, key);
    for (int c = 1; c <= 26; c++)
        if (bloom_has(p, key + p->letter_key[c]))
            return 1;
    return 0;
}

/* The group of the words made of exactly the letters with key ``key`` (see Packed.akey), or
 * NULL. Two multisets can share a key (a 64-bit sum of hashes): whoever uses a group checks
 * each word's letters. */
static const uint8_t *anagrams(const Packed *p, uint64_t key)
{
    key = key ? key : 1;
    for (uint64_t i = key & p->amask; p->akey[i]; i = (i + 1) & p->amask)
        if (p->akey[i] == key)
            return p->atext + p->aval[i];
    return NULL;
}

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
    int64_t key; /* what the heap ranks by: the score, or with leave values the equity */
    int lidx;    /* with leave values: the index of the tiles used (into Gen.leave) */
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
    /* the GADDAG, packed */
    const Node *edges;
    /* filters */
    int min_length;
    int no_blanks;
    int square;
    int need[27];
    int has_need;
    int filtered;     /* some filter is on (min_length, no_blanks, square, need) */
    /* search state */
    int rack[27];
    uint32_t rack_bits;
    uint32_t fits_last;  /* best_fitting's last question (fit & rack_bits) and answer; 0 gives 0 */
    int cap_last;
    int tiles;
    int pruning;      /* the walk tests the extents' bounds (see anchor_bounds) */
    int cover;        /* the anchor being walked: every play puts a new tile on it */
    int reserve;      /* tiles the left part must leave for the right part (0 or 1) */
    int row_start, row_end; /* the anchor's row: its first square, and one past its last */
    int anchor;       /* the square the walk starts on (left of it is the left part) */
    int start;        /* going right: the word's first square */
    const int64_t *hib_row; /* going right, pruning: hib[start - row_start] */
    const int64_t *hibn_row; /* ... and hibn[start - row_start] */
    const uint32_t *reach;   /* the packed GADDAG's (see Packed): by a state's index in edges */
    const Packed *packed;
    uint64_t rack_key;       /* the rack's letters, blanks aside (see word_letters) */
    uint64_t wr_key[64];     /* whole_rack_word's answers (wr_val: 0 none, 1 no, 2 yes) by board_key */
    uint8_t wr_val[64];
    int wholes_found; /* the whole-rack plays are recorded (whole_rack_plays): the walk skips them */
    int defer;        /* blanks on the rack, pruned, by score: the walk puts a blank only on a letter
                       * with no tile of its own left; record adds the plays with the blanks elsewhere */
    int blanks0;      /* with defer: the rack's blanks */
    int sets;         /* the rack's last blank is walked as every letter it can be at once (walk_sets) */
    int bi;           /* in that walk: the blank's index in placed */
    uint64_t wg_key[64];     /* groups_for's answers by board_key (wg_ok: 1 when held), each */
    uint8_t wg_ok[64];       /* wg_n groups from wg_pool[wg_first] */
    int wg_first[64], wg_n[64];
    int wg_used, wg_cap;     /* of wg_pool */
    Group *wg_pool;          /* groups_for's groups (whole_rack_plays allocates them) */
    Group *wg_spare;         /* find_groups' answer before it is kept */
    int64_t floor;    /* the score a play needs to be kept (from the heap's minimum once full) */
    /* ranking by equity (leave != NULL): a play's key is score * scale + leave[i], i the index
     * of the tiles it uses (sum of lstride[t] over the tiles t placed, a blank as t = 0) */
    const int32_t *leave;
    int64_t scale, leave_max;  /* leave_max: the best leave of any play */
    int lstride[27];
    int ldrop[MAX_N + 1];      /* (leave_max - best leave of a play of k tiles) / scale, rounded down */
    Placed placed[MAX_N];
    int nplaced;
    /* output */
    long count;
    long keep;        /* -1 all, 0 none, N > 0 heap of the best N */
    int64_t *heap;    /* min-heap of keys, capacity keep */
    long heap_len;
    Rec *recs;        /* plays found (keep != 0) */
    Py_ssize_t nrecs, caprecs;
    Placed *pl;       /* their placements */
    Py_ssize_t npl, cappl;
    int err;          /* the walk unwinds at once; why: WHY_* (the exception to raise) */
    int why;
    PyObject *clock;  /* time.monotonic, or NULL: with `deadline`, the search stops past it */
    int timed;        /* clock is set (not NULL nor None) */
    double deadline;  /* on clock's scale; without the lock, on c_monotonic's (cdeadline) */
    double cdeadline;
    int nogil;        /* the walk runs without the interpreter lock: use cdeadline */
    unsigned ticks;   /* past_deadline's calls (wrapping is harmless) */
    /* last, not zeroed (anchor_bounds fills what the walk reads): the extents' bounds */
    int64_t lob[MAX_N], lob_left[MAX_N], hib[MAX_N][MAX_N];
    /* the same without the extents that take the whole rack (a play that cannot use it all) */
    int64_t lobn[MAX_N], lobn_left[MAX_N], hibn[MAX_N][MAX_N];
    int ab_first; /* anchor_bounds' first start square (from the row's start) */
} Gen;

/* ------------------------------------------------------------------ heap of ints */

static void heap_push(int64_t *h, long *len, int64_t v)
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

static void heap_replace_top(int64_t *h, long len, int64_t v)
{
    long i = 0;
    for (;;) {
        long l = 2 * i + 1, r = l + 1, m = i;
        int64_t mv = v;
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

/* The state after the edge for ``code`` (known to exist: bit ``code`` of the mask is set; pack
 * checked that every state's edges are in range, so no test is needed here). */
static inline const Node *edge_step(const Node *edges, const Node *s, int code)
{
    return &edges[s->first + POPCOUNT(s->mask & ((1u << code) - 2u))];
}

static inline const Node *step(const Gen *g, const Node *s, int code)
{
    return edge_step(g->edges, s, code);
}

/* ------------------------------------------------------------------ recording plays */

/* Drop the plays that can no longer rank (below the heap's minimum once it is full). */
static void compact(Gen *g)
{
    if (g->keep <= 0 || g->heap_len < g->keep)
        return;
    int64_t floor = g->heap[0];
    Py_ssize_t r = 0, p = 0;
    for (Py_ssize_t i = 0; i < g->nrecs; i++) {
        Rec rec = g->recs[i];
        if (rec.key < floor)
            continue;
        memmove(&g->pl[p], &g->pl[rec.off], sizeof(Placed) * (size_t)rec.nplaced);
        rec.off = p;
        p += rec.nplaced;
        g->recs[r++] = rec;
    }
    g->nrecs = r;
    g->npl = p;
}

static void keep_play(Gen *g, int64_t key, int lidx, int total, int start, int end)
{
    if (g->nrecs == g->caprecs || g->npl + g->nplaced > g->cappl) {
        compact(g);
        if (g->nrecs * 2 > g->caprecs || g->npl + g->nplaced > g->cappl / 2) {
            Py_ssize_t cr = g->caprecs ? g->caprecs * 2 : 256;
            Py_ssize_t cp = g->cappl ? g->cappl * 2 : 2048;
            while (cp < g->npl + g->nplaced)
                cp *= 2;
            Rec *recs = PyMem_RawRealloc(g->recs, sizeof(Rec) * (size_t)cr);
            if (!recs) {
                g->why = WHY_NOMEM;
                g->err = 1;
                return;
            }
            g->recs = recs;
            g->caprecs = cr;
            Placed *pl = PyMem_RawRealloc(g->pl, sizeof(Placed) * (size_t)cp);
            if (!pl) {
                g->why = WHY_NOMEM;
                g->err = 1;
                return;
            }
            g->pl = pl;
            g->cappl = cp;
        }
    }
    Rec *rec = &g->recs[g->nrecs++];
    rec->key = key;
    rec->lidx = lidx;
    rec->score = total;
    rec->down = g->down;
    rec->start = start;
    rec->end = end;
    rec->nplaced = g->nplaced;
    rec->off = g->npl;
    memcpy(&g->pl[g->npl], g->placed, sizeof(Placed) * (size_t)g->nplaced);
    g->npl += g->nplaced;
}

/* ``t`` (a new tuple of ints, bools, strings and such tuples, or NULL) left out of the cyclic
 * garbage collector's lists, as the collector itself does with such a tuple at its first pass:
 * it can be in no cycle. A one-blank rack's every play is thousands of them (two tuples a
 * play), and while they were tracked the next young collections walked them all, holding the
 * interpreter lock: up to 13-16 ms of CPU each, 220-345 ms of a service worker's CPU in 3.5 s
 * of the soak's probe scenario. */
static PyObject *untracked(PyObject *t)
{
    if (t)
        PyObject_GC_UnTrack(t); /* allowed on an untracked object */
    return t;
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
            if (!*slot && !(*slot = untracked(Py_BuildValue("(ii)", q->pos, q->code)))) {
                Py_DECREF(placed);
                return NULL;
            }
            p = *slot;
            Py_INCREF(p);
        } else if (!(p = untracked(Py_BuildValue("(ii)", q->pos, q->code)))) {
            Py_DECREF(placed);
            return NULL;
        }
        PyTuple_SET_ITEM(placed, k, p);
    }
    return untracked(Py_BuildValue("(iOiiiN)", rec->score, rec->down ? Py_True : Py_False, rec->start / n,
                                   rec->start % n, rec->end - rec->start, untracked(placed)));
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

/* Whether the caller's deadline (a time.monotonic() value) has passed (the clock asked now);
 * sets TimeoutError and g->err when it has, so the walk unwinds. */
static int clock_past_deadline(Gen *g)
{
#if FASTGEN_NOGIL
    if (g->nogil) {
        if (c_monotonic() <= g->cdeadline)
            return 0;
        g->why = WHY_LATE;
        g->err = 1;
        return 1;
    }
#endif
    PyObject *now = PyObject_CallNoArgs(g->clock);
    if (!now) {
        g->err = 1;
        return 1;
    }
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (t == -1.0 && PyErr_Occurred()) {
        g->err = 1;
        return 1;
    }
    if (t <= g->deadline)
        return 0;
    PyErr_SetString(PyExc_TimeoutError, "the search ran past its deadline");
    g->err = 1;
    return 1;
}

/* Whether the search must stop: past the deadline, or an error. The clock (a Python call,
 * ~50 ns, or C's without the lock) is asked about every ``every``-th call (a power of two;
 * the callers share one count, so it is about, not exactly): every 16th anchor, every 4,096th
 * play recorded, every 1,024th step of the walk with a blank (WALK_TICKS), so a top-20 search
 * of 50 us pays well under 1%; the test before it is inline, as it runs for every play.
 * Without a clock: never past. */
static inline int past_deadline(Gen *g, int every)
{
    if (!g->timed || g->err || (++g->ticks & (every - 1)))
        return g->err;
    return clock_past_deadline(g);
}

/* The walk asks past_deadline at each square it fills going left with a blank still on the
 * rack (left) and where the last blank goes down (walk_sets): the clock about every 1,024th
 * time, some tens of microseconds of walking. Between two of these, in a ranked or counted
 * search (g->sets), the walk goes right from one left part placing the rack's other tiles and
 * at most two blanks before the last, then asks again; in the every-play lists (keep -1, no
 * sets) it records every play it makes, and record_one asks too. An opening with three
 * blanks is one anchor a view, walked for 10 ms: asked only between anchors and every 4,096th
 * play, a 1 ms budget ran 10 ms. */
#define WALK_TICKS 1024

/* ceil(a / b) for b > 0 */
static int64_t ceil_div(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/* The heap is full: the least score a play needs to reach its minimum key. By score, the
 * minimum itself; by equity, a play of score s keeps at best leave_max, so s * scale +
 * leave_max must reach it. The walk's bounds are scores, compared with this. */
static void set_floor(Gen *g)
{
    g->floor = g->leave ? ceil_div(g->heap[0] - g->leave_max, g->scale) : g->heap[0];
}

static void record_one(Gen *g, int start, int end, int total)
{
    int ntiles = g->nplaced;
    if (past_deadline(g, 4096))
        return;
    if (end - start < 2)
        return; /* a lone tile with no word this way: found in the other view */
    if (g->down && ntiles == 1 && g->xsum[g->placed[0].pos] >= 0)
        return; /* a lone tile forming words both ways: already found across */
    if (g->filtered && !passes_filters(g, start, end))
        return;
    if (ntiles == g->rack_size) {
        if (g->wholes_found)
            return; /* recorded already, from the words (whole_rack_plays) */
        total += g->bonus;
    }
    g->count++;
    if (total < g->floor)
        return; /* cannot reach the heap's minimum whatever it keeps (INT64_MIN until full) */
    int64_t key = total;
    int i = 0;
    if (g->leave) { /* the index of the tiles used: a blank is the rack's tile 0 */
        for (int k = 0; k < ntiles; k++) {
            int code = g->placed[k].code;
            i += g->lstride[code & BLANK ? 0 : code];
        }
        key = total * g->scale + g->leave[i];
    }
    if (g->keep < 0) {
        keep_play(g, key, i, total, start, end);
    } else if (g->keep > 0) {
        if (g->heap_len < g->keep) {
            heap_push(g->heap, &g->heap_len, key);
            keep_play(g, key, i, total, start, end);
            if (g->heap_len == g->keep)
                set_floor(g);
        } else if (key >= g->heap[0]) {
            if (key > g->heap[0]) {
                heap_replace_top(g->heap, g->heap_len, key);
                set_floor(g);
            }
            keep_play(g, key, i, total, start, end);
        }
    }
}

/* What a tile placed on square ``pos`` adds to a play whose new tiles' word premiums multiply
 * to ``wmul``: in the main word, and in the cross-word it makes there. The same play with the
 * blank on that square instead scores this much less. */
static inline int64_t tile_worth(const Gen *g, int letter, int pos, int64_t wmul)
{
    return (int64_t)g->values[letter] * g->lm[pos] * (wmul + (g->xsum[pos] >= 0 ? g->wm[pos] : 0));
}

/* Record the play the walk made once for each way to give its squares from i on a tile of their
 * own or a blank, from those in g->rack; ``score``: the play's score with the blanks given so
 * far, each scoring tile_worth less than a tile would on its square. */
static void record_blanks(Gen *g, int start, int end, int i, int64_t score, int wmul)
{
    if (score + (g->nplaced == g->rack_size ? g->bonus : 0) < g->floor)
        return; /* more blanks only score less */
    if (i == g->nplaced) {
        record_one(g, start, end, (int)score);
        return;
    }
    int code = g->placed[i].code, letter = code & LETTER_MASK;
    if (g->rack[letter]) {
        g->rack[letter]--;
        g->placed[i].code = letter;
        record_blanks(g, start, end, i + 1, score, wmul);
        g->rack[letter]++;
    }
    if (g->rack[0] && !g->err) {
        g->rack[0]--;
        g->placed[i].code = letter | BLANK;
        record_blanks(g, start, end, i + 1, score - tile_worth(g, letter, g->placed[i].pos, wmul), wmul);
        g->rack[0]++;
    }
    g->placed[i].code = code;
}

/* The play the walk made (``wmul``: its new tiles' word premiums multiplied). With g->defer,
 * the walk gave each new letter a tile of its own while one was left and a blank only to a
 * letter with none left: one walk of the GADDAG for all the ways to put the blanks, which are
 * recorded here (record_blanks, with the play's tiles back on the rack meanwhile). Those that
 * cannot reach the floor are not looked at, nor counted (g->count is then that of the plays
 * looked at): g->defer is for the pruned search, whose count is not asked for. */
static void record_deferred(Gen *g, int start, int end, int total, int wmul)
{
    int k = g->nplaced, down = g->blanks0 - g->rack[0];
    if (k == g->rack_size && g->wholes_found)
        return; /* recorded already, from the words (whole_rack_plays) */
    int64_t all = total; /* every square with a tile of its own */
    for (int i = 0; down > 0; i++)
        if (g->placed[i].code & BLANK) {
            all += tile_worth(g, g->placed[i].code & LETTER_MASK, g->placed[i].pos, wmul);
            down--;
        }
    if (all + (k == g->rack_size ? g->bonus : 0) < g->floor)
        return;
    for (int i = 0; i < k; i++) {
        int code = g->placed[i].code;
        g->rack[code & BLANK ? 0 : code]++;
    }
    record_blanks(g, start, end, 0, all, wmul);
    for (int i = 0; i < k; i++) {
        int code = g->placed[i].code;
        g->rack[code & BLANK ? 0 : code]--;
    }
}

/* The play the walk made: record_one, or with g->defer record_deferred (inline: the walk pays
 * one test for it). */
static inline void record(Gen *g, int start, int end, int total, int wmul)
{
    if (g->defer)
        record_deferred(g, start, end, total, wmul);
    else
        record_one(g, start, end, total);
}

/* The score a play needs to be kept (once the heap of the best N is full). */
static inline int64_t floor_of(const Gen *g)
{
    return g->floor;
}

/* Whether no play from state ``s`` (one of the packed edges) can use every tile left: a letter
 * still on the rack (a blank aside) is on no edge below it. */
static inline int rack_stays(const Gen *g, const Node *s)
{
    return (g->rack_bits & ~g->reach[s - g->edges]) != 0;
}

/* ------------------------------------------------------------------ the search */

/* The walk is a deep recursion that makes a call per GADDAG edge it follows, so its calls are
 * kept cheap: what stays the same for an anchor's walk (the row, the square the walk starts
 * on, the start of the word once it turns right) is in Gen, not passed along; the number of
 * new tiles is g->nplaced; a state is a pointer to its Node. Each function then takes at most
 * six arguments, which the ABI passes in registers. g->err is tested after every call that
 * can set it (record, the recursive calls), so the walk unwinds at once without a test on entry. */

static void walk_sets(Gen *g, int pos, const Node *s, uint32_t letters, int msum, int wmul, int xtot, int rightwards);

static void right(Gen *g, int pos, const Node *s, int msum, int wmul, int xtot)
{
    uint32_t m = s->mask;
    if (pos == g->row_end) {
        if (m & 1u)
            record(g, g->start, pos, msum * wmul + xtot, wmul);
        return;
    }
    int code = g->cells[pos];
    if (code) {
        int letter = code & LETTER_MASK;
        if ((m >> letter) & 1u)
            right(g, pos + 1, step(g, s, letter), msum + ((code & BLANK) ? 0 : g->values[letter]), wmul,
                  xtot);
        return;
    }
    if ((m & 1u) && pos > g->cover) {
        record(g, g->start, pos, msum * wmul + xtot, wmul);
        if (g->err)
            return;
    }
    if (g->pruning && (g->hib_row[pos - g->row_start] < floor_of(g) ||
                       (g->hibn_row[pos - g->row_start] < floor_of(g) && rack_stays(g, s))))
        return; /* no word ending here or further right can reach the best N */
    uint32_t allowed = m & g->xmask[pos];
    int together = 0; /* the rack's last blank: walk_sets, after the tiles */
    if (!g->rack[0])
        allowed &= g->rack_bits;
    else if (g->sets && g->rack[0] == 1)
        together = 1, allowed &= g->rack_bits;
    int lmul = g->lm[pos], wmm = g->wm[pos], xs = g->xsum[pos];
    while (allowed) {
        uint32_t low = allowed & (0u - allowed);
        int letter = CTZ(allowed);
        allowed ^= low;
        const Node *nxt = step(g, s, letter);
        if (g->rack[letter]) {
            if (!--g->rack[letter])
                g->rack_bits &= ~low;
            int v = g->values[letter] * lmul;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter;
            g->nplaced++;
            right(g, pos + 1, nxt, msum + v, wmul * wmm, xs >= 0 ? xtot + (xs + v) * wmm : xtot);
            g->nplaced--;
            if (!g->rack[letter]++)
                g->rack_bits |= low;
            if (g->err)
                return;
        }
        if (g->rack[0] && !together && !(g->defer && g->rack[letter])) {
            g->rack[0]--;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter | BLANK;
            g->nplaced++;
            right(g, pos + 1, nxt, msum, wmul * wmm, xs >= 0 ? xtot + xs * wmm : xtot);
            g->nplaced--;
            g->rack[0]++;
            if (g->err)
                return;
        }
    }
    if (together)
        walk_sets(g, pos, s, g->xmask[pos] & (g->defer ? ~g->rack_bits : ALL_LETTERS), msum, wmul, xtot, 1);
}

static void left(Gen *g, int pos, const Node *s, int msum, int wmul, int xtot);

/* Square ``pos`` now holds the leftmost letter; end here, go further left, or turn. */
static void after_left(Gen *g, int pos, const Node *s, int msum, int wmul, int xtot)
{
    uint32_t m = s->mask;
    int rs = g->row_start, anchor = g->anchor;
    int left_free = pos == rs || !g->cells[pos - 1];
    /* past the extents' bounds, and those without the whole-rack extents where the rack cannot
     * be used up (rack_stays, asked only when it decides) */
    if (left_free && pos <= g->cover &&
        (!g->pruning || (g->lob[pos - rs] >= floor_of(g) &&
                         (g->lobn[pos - rs] >= floor_of(g) || !rack_stays(g, s))))) {
        if ((m & 1u) && anchor >= g->cover && (anchor + 1 == g->row_end || !g->cells[anchor + 1])) {
            record(g, pos, anchor + 1, msum * wmul + xtot, wmul);
            if (g->err)
                return;
        }
        if (((m >> SEP) & 1u) && anchor + 1 < g->row_end) {
            g->start = pos; /* right's walk keeps it: it calls no after_left */
            g->hib_row = g->hib[pos - rs];
            g->hibn_row = g->hibn[pos - rs];
            right(g, anchor + 1, step(g, s, SEP), msum, wmul, xtot);
            if (g->err)
                return;
        }
    }
    if (pos > rs && (!g->pruning || (g->lob_left[pos - 1 - rs] >= floor_of(g) &&
                                      (g->lobn_left[pos - 1 - rs] >= floor_of(g) || !rack_stays(g, s))))) {
        int p = pos - 1;
        if (g->cells[p] || p == g->cover || (!g->is_anchor[p] && g->nplaced + g->reserve < g->tiles))
            left(g, p, s, msum, wmul, xtot);
    }
}

/* Fill or follow square ``pos`` going left from the anchor. */
static void left(Gen *g, int pos, const Node *s, int msum, int wmul, int xtot)
{
    uint32_t m = s->mask;
    int code = g->cells[pos];
    if (code) {
        int letter = code & LETTER_MASK;
        if ((m >> letter) & 1u)
            after_left(g, pos, step(g, s, letter), msum + ((code & BLANK) ? 0 : g->values[letter]), wmul,
                       xtot);
        return;
    }
    uint32_t allowed = m & g->xmask[pos];
    int together = 0; /* the rack's last blank: walk_sets, after the tiles */
    if (!g->rack[0]) {
        allowed &= g->rack_bits;
    } else {
        if (past_deadline(g, WALK_TICKS))
            return; /* asked with a blank only: a walk of the rack's own tiles is short */
        if (g->sets && g->rack[0] == 1)
            together = 1, allowed &= g->rack_bits;
    }
    int lmul = g->lm[pos], wmm = g->wm[pos], xs = g->xsum[pos];
    while (allowed) {
        uint32_t low = allowed & (0u - allowed);
        int letter = CTZ(allowed);
        allowed ^= low;
        const Node *nxt = step(g, s, letter);
        if (g->rack[letter]) {
            if (!--g->rack[letter])
                g->rack_bits &= ~low;
            int v = g->values[letter] * lmul;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter;
            g->nplaced++;
            after_left(g, pos, nxt, msum + v, wmul * wmm, xs >= 0 ? xtot + (xs + v) * wmm : xtot);
            g->nplaced--;
            if (!g->rack[letter]++)
                g->rack_bits |= low;
            if (g->err)
                return;
        }
        if (g->rack[0] && !together && !(g->defer && g->rack[letter])) {
            g->rack[0]--;
            g->placed[g->nplaced].pos = pos;
            g->placed[g->nplaced].code = letter | BLANK;
            g->nplaced++;
            after_left(g, pos, nxt, msum, wmul * wmm, xs >= 0 ? xtot + xs * wmm : xtot);
            g->nplaced--;
            g->rack[0]++;
            if (g->err)
                return;
        }
    }
    if (together)
        walk_sets(g, pos, s, g->xmask[pos] & (g->defer ? ~g->rack_bits : ALL_LETTERS), msum, wmul, xtot, 0);
}

/* ------------------------------------------------------------------ the last blank, every letter at once */

/* Once the rack's last blank is down, the walk that follows is the same for every letter the
 * blank can be but for the GADDAG states: a few of those letters go on to make words, most
 * soon stop. Walked one letter at a time, each repeats the squares, the rack, the bounds and
 * the calls; walk_sets walks them together, as a set of (state, the blank's letter), each new
 * tile stepping every state that has an edge for it. A play is recorded once for each state
 * at a word's end, with the blank as that state's letter (g->placed[g->bi]); no blank is left
 * on the rack meanwhile. The plays are the same, found in another order: used whenever they
 * are ranked or counted (keep != -1), not when all are handed back in movegen's order.
 * The walk tests hib and lob only: hibn and lobn differ from them only where the whole rack's
 * plays were not found from the words first (whole_rack_plays), and testing fewer bounds
 * prunes less but keeps every play. */

typedef struct {
    const Node *s;
    int letter; /* the blank's */
} Member;

static void right_set(Gen *g, int pos, Member *set, int n, int msum, int wmul, int xtot);
static void after_left_set(Gen *g, int pos, Member *set, int n, int msum, int wmul, int xtot);
static void left_set(Gen *g, int pos, Member *set, int n, int msum, int wmul, int xtot);

/* The plays of the members whose state ends a word, on start..end. With the rack's only
 * blank deferred, record_deferred's first test is made here, for each member at little cost:
 * the play with a tile of its own in the blank's place, which most plays fail. */
static void record_set(Gen *g, int start, int end, const Member *set, int n, int total, int wmul)
{
    int test = g->defer && g->blanks0 == 1;
    int64_t base = 0, per = 0; /* with a tile of its own for the blank: base + its letter's value * per */
    if (test) {
        int p = g->placed[g->bi].pos, full = g->nplaced == g->rack_size;
        if (full && g->wholes_found)
            return; /* recorded already, from the words (whole_rack_plays) */
        base = (int64_t)total + (full ? g->bonus : 0);
        per = (int64_t)g->lm[p] * ((int64_t)wmul + (g->xsum[p] >= 0 ? g->wm[p] : 0));
    }
    for (int i = 0; i < n && !g->err; i++)
        if ((set[i].s->mask & 1u) && (!test || base + g->values[set[i].letter] * per >= g->floor)) {
            g->placed[g->bi].code = set[i].letter | BLANK;
            record(g, start, end, total, wmul);
        }
}

/* The members that have an edge for ``code``, stepped, into out; how many. Without a branch
 * per member (which has the edge is anyone's guess): each is written, and kept by counting it. */
static inline int step_set(const Gen *g, const Member *set, int n, int code, Member *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint32_t m = set[i].s->mask;
        out[k].s = &g->edges[set[i].s->first + POPCOUNT(m & ((1u << code) - 2u))];
        out[k].letter = set[i].letter;
        k += (m >> code) & 1u;
    }
    return k;
}

/* The union of the members' edges (bit 0: some member ends a word). */
static inline uint32_t set_mask(const Member *set, int n)
{
    uint32_t any = 0;
    for (int i = 0; i < n; i++)
        any |= set[i].s->mask;
    return any;
}

/* Each rack tile some member has an edge for, on square ``pos`` (empty; ``any``: the members'
 * edges), then on rightwards (right_set, from the next square) or, ``rightwards`` 0, from this
 * square as the leftmost so far (after_left_set). */
static ALWAYS_INLINE void place_set(Gen *g, int pos, const Member *set, int n, uint32_t any, int msum,
                                    int wmul, int xtot, int rightwards)
{
    Member next[27];
    uint32_t allowed = any & g->xmask[pos] & g->rack_bits;
    int lmul = g->lm[pos], wmm = g->wm[pos], xs = g->xsum[pos];
    while (allowed) {
        uint32_t low = allowed & (0u - allowed);
        int letter = CTZ(allowed);
        allowed ^= low;
        int k = step_set(g, set, n, letter, next);
        if (!--g->rack[letter])
            g->rack_bits &= ~low;
        int v = g->values[letter] * lmul;
        g->placed[g->nplaced].pos = pos;
        g->placed[g->nplaced].code = letter;
        g->nplaced++;
        int xt = xs >= 0 ? xtot + (xs + v) * wmm : xtot;
        if (rightwards)
            right_set(g, pos + 1, next, k, msum + v, wmul * wmm, xt);
        else
            after_left_set(g, pos, next, k, msum + v, wmul * wmm, xt);
        g->nplaced--;
        if (!g->rack[letter]++)
            g->rack_bits |= low;
        if (g->err)
            return;
    }
}

static void right_set(Gen *g, int pos, Member *set, int n, int msum, int wmul, int xtot)
{
    Member next[27];
    uint32_t any = set_mask(set, n);
    if (pos == g->row_end) {
        if (any & 1u)
            record_set(g, g->start, pos, set, n, msum * wmul + xtot, wmul);
        return;
    }
    int code = g->cells[pos];
    if (code) {
        int letter = code & LETTER_MASK;
        if ((any >> letter) & 1u)
            right_set(g, pos + 1, next, step_set(g, set, n, letter, next),
                      msum + ((code & BLANK) ? 0 : g->values[letter]), wmul, xtot);
        return;
    }
    if ((any & 1u) && pos > g->cover) {
        record_set(g, g->start, pos, set, n, msum * wmul + xtot, wmul);
        if (g->err)
            return;
    }
    if (g->pruning && g->hib_row[pos - g->row_start] < floor_of(g))
        return; /* no word ending here or further right can reach the best N */
    place_set(g, pos, set, n, any, msum, wmul, xtot, 1);
}

/* Square ``pos`` now holds the leftmost letter (as after_left). */
static void after_left_set(Gen *g, int pos, Member *set, int n, int msum, int wmul, int xtot)
{
    int rs = g->row_start, anchor = g->anchor;
    int left_free = pos == rs || !g->cells[pos - 1];
    if (left_free && pos <= g->cover && (!g->pruning || g->lob[pos - rs] >= floor_of(g))) {
        uint32_t any = set_mask(set, n);
        if ((any & 1u) && anchor >= g->cover && (anchor + 1 == g->row_end || !g->cells[anchor + 1])) {
            record_set(g, pos, anchor + 1, set, n, msum * wmul + xtot, wmul);
            if (g->err)
                return;
        }
        if (((any >> SEP) & 1u) && anchor + 1 < g->row_end) {
            Member turned[27];
            int k = step_set(g, set, n, SEP, turned); /* at least one: some member has the edge */
            g->start = pos; /* as after_left: right_set reads only start and hib_row */
            g->hib_row = g->hib[pos - rs];
            g->hibn_row = g->hibn[pos - rs];
            right_set(g, anchor + 1, turned, k, msum, wmul, xtot);
            if (g->err)
                return;
        }
    }
    if (pos > rs && (!g->pruning || g->lob_left[pos - 1 - rs] >= floor_of(g))) {
        int p = pos - 1;
        if (g->cells[p] || p == g->cover || (!g->is_anchor[p] && g->nplaced + g->reserve < g->tiles))
            left_set(g, p, set, n, msum, wmul, xtot);
    }
}

static void left_set(Gen *g, int pos, Member *set, int n, int msum, int wmul, int xtot)
{
    Member next[27];
    uint32_t any = set_mask(set, n);
    int code = g->cells[pos];
    if (code) {
        int letter = code & LETTER_MASK;
        if ((any >> letter) & 1u)
            after_left_set(g, pos, next, step_set(g, set, n, letter, next),
                           msum + ((code & BLANK) ? 0 : g->values[letter]), wmul, xtot);
        return;
    }
    place_set(g, pos, set, n, any, msum, wmul, xtot, 0);
}

/* The rack's last blank on square ``pos`` (empty) from state ``s``, as every letter it can be
 * there at once: the letters ``letters`` allows. ``rightwards``: the walk is going right. */
static void walk_sets(Gen *g, int pos, const Node *s, uint32_t letters, int msum, int wmul, int xtot, int rightwards)
{
    Member set[27];
    int n = 0;
    if (past_deadline(g, WALK_TICKS))
        return;
    uint32_t m = s->mask & letters;
    while (m) {
        int letter = CTZ(m);
        m &= m - 1;
        set[n].s = step(g, s, letter);
        set[n++].letter = letter;
    }
    if (!n)
        return;
    int wmm = g->wm[pos], xs = g->xsum[pos];
    g->rack[0]--;
    g->bi = g->nplaced;
    g->placed[g->nplaced].pos = pos;
    g->placed[g->nplaced].code = BLANK;
    g->nplaced++;
    if (rightwards)
        right_set(g, pos + 1, set, n, msum, wmul * wmm, xs >= 0 ? xtot + xs * wmm : xtot);
    else
        after_left_set(g, pos, set, n, msum, wmul * wmm, xs >= 0 ? xtot + xs * wmm : xtot);
    g->nplaced--;
    g->rack[0]++;
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

/* The letters that end a word one step from state ``s``: its edges to a final state. A
 * state's edges are adjacent, the letters' in code order. */
static inline uint32_t final_edges(const Node *edges, const Node *s)
{
    uint32_t m = s->mask & ALL_LETTERS, out = 0;
    const Node *e = &edges[s->first];
    while (m) {
        uint32_t low = m & (0u - m);
        m ^= low;
        out |= (e++->mask & 1u) ? low : 0u;
    }
    return out;
}

/* movegen.cross_checks for every square of view ``v``, from the GADDAG (``edges``, ``root``),
 * whose paths spell a word from any of its letters leftwards to the first, then SEP and the
 * rest: the cross-word of an empty square is P c S (P the tiles above it, S those below).
 * With P, walk P upwards and SEP, then each letter c and S; without P, walk S upwards: the
 * letters c are then the edges to a final state, no letter walked for each. */
static void cross_checks(View *v, int n, const Node *edges, const Node *root, const int *values)
{
    const uint8_t *cells = v->cells;
    int nn = n * n;
    for (int i = 0; i < nn; i++) {
        v->xsum[i] = -1;
        if (cells[i]) {
            v->xmask[i] = 0;
            continue;
        }
        int above = i >= n && cells[i - n];
        int below = i < nn - n && cells[i + n];
        if (!above && !below) {
            v->xmask[i] = ALL_LETTERS;
            continue;
        }
        int top = i, bottom = i;
        while (top >= n && cells[top - n])
            top -= n;
        while (bottom < nn - n && cells[bottom + n])
            bottom += n;
        int sum = values[0]; /* the square itself, empty: as movegen sums values[cells[i]] */
        for (int j = top; j <= bottom; j += n)
            if (j != i)
                sum += (cells[j] & BLANK) ? 0 : values[cells[j] & LETTER_MASK];
        v->xsum[i] = sum;
        v->xmask[i] = 0;
        const Node *s = root;
        int from = above ? i - n : bottom, to = above ? top : i + n; /* P upwards, or S upwards */
        for (int j = from; j >= to; j -= n) {
            int code = cells[j] & LETTER_MASK;
            if (!((s->mask >> code) & 1u))
                goto next;
            s = edge_step(edges, s, code);
        }
        if (!above) {
            v->xmask[i] = final_edges(edges, s);
            continue;
        }
        if (!((s->mask >> SEP) & 1u))
            continue;
        s = edge_step(edges, s, SEP);
        if (!below) {
            v->xmask[i] = final_edges(edges, s);
            continue;
        }
        uint32_t m = s->mask & ALL_LETTERS, allowed = 0;
        const Node *e = &edges[s->first];
        while (m) {
            uint32_t low = m & (0u - m);
            m ^= low;
            const Node *t = e++;
            for (int j = i + n; j <= bottom; j += n) {
                int code = cells[j] & LETTER_MASK;
                if (!((t->mask >> code) & 1u))
                    goto no;
                t = edge_step(edges, t, code);
            }
            if (t->mask & 1u)
                allowed |= low;
        no:;
        }
        v->xmask[i] = allowed;
    next:;
    }
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

/* The plays from anchor ``a``. When tiles follow it on its right, the walk starts on the last
 * of them and goes left through them to the anchor: the GADDAG then constrains the new tiles
 * from the first step (a free walk leftwards from the anchor, turning right into the tiles
 * only at the end, explores every left part the rack allows for nothing). When tiles are only
 * on its left, the walk starts on the one next to it and fills the anchor after the turn, so
 * a blank is tried only with the letters that can follow them. The plays are the same, in
 * another order: only when all plays are returned in movegen's order (keep = -1) does the
 * walk start on the anchor itself, as movegen's does. */
static void run_anchor(Gen *g, int a, const Node *groot)
{
    int row_start = a - a % g->n, row_end = row_start + g->n, r = a;
    g->cover = a;
    g->reserve = 0;
    if (g->keep != -1) {
        while (r + 1 < row_end && g->cells[r + 1])
            r++;
        if (r == a && a > row_start && g->cells[a - 1]) {
            /* tiles on its left only: start on the last of them, go left through them, and
             * fill the anchor first thing rightwards (one tile kept for it) */
            g->reserve = 1;
            r = a - 1;
        }
    }
    g->row_start = row_start;
    g->row_end = row_end;
    g->anchor = r;
    left(g, r, groot, 0, 1, 0);
}

/* ------------------------------------------------------------------ whole-rack plays */

/* The pruned search's plays of the whole rack, found from the words rather than by the walk.
 * With blanks, every extent of rack_size empty squares can hold a bonus play by its bound, so
 * the walk went down most of them, and a word made of the rack (OCELOT? makes OCELOTS) lets
 * no filter stop it; yet an extent's whole-rack plays are the words made of exactly the
 * rack's and the extent's letters, a few lookups. They are recorded first, which also lifts
 * the floor when they rank; the walk then leaves the whole rack out (wholes_found). */

/* The groups of words made of the whole rack (at most three blanks) and the letters with key
 * ``key`` (the rack's and the extent's), into out (GROUPS_MAX long): one lookup without a
 * blank; with blanks, one per set of letters for them that the filter of the words' letters
 * less one lets through (a word with the blanks as c, d, e has these letters and any two of
 * them as a word less one). Returns how many. */
static int find_groups(const Gen *g, uint64_t key, Group *out)
{
    const Packed *p = g->packed;
    const uint64_t *lk = p->letter_key;
    int n = 0, blanks = g->rack[0];
    if (blanks == 0) {
        if ((out[0].words = anagrams(p, key))) {
            memset(out[0].b, 0, sizeof out[0].b);
            n = 1;
        }
    } else if (blanks == 1) {
        if (!bloom_has(p, key)) /* no word has these letters and one more */
            return 0;
        for (int c = 1; c <= 26; c++)
            if ((out[n].words = anagrams(p, key + lk[c]))) {
                out[n].b[0] = (uint8_t)c;
                out[n].b[1] = out[n].b[2] = 0;
                n++;
            }
    } else if (blanks == 2) {
        uint32_t maybe = 0; /* the letters c with these letters and c a word less one */
        for (int c = 1; c <= 26; c++)
            if (bloom_has(p, key + lk[c]))
                maybe |= 1u << c;
        for (uint32_t m = maybe; m; m &= m - 1)
            for (uint32_t m2 = m; m2; m2 &= m2 - 1)
                if ((out[n].words = anagrams(p, key + lk[CTZ(m)] + lk[CTZ(m2)]))) {
                    out[n].b[0] = (uint8_t)CTZ(m);
                    out[n].b[1] = (uint8_t)CTZ(m2);
                    out[n].b[2] = 0;
                    n++;
                }
    } else {
        uint32_t with[27] = {0}; /* with[c]: the letters d with these letters, c and d a word less one */
        for (int c = 1; c <= 26; c++)
            for (int d = c; d <= 26; d++)
                if (bloom_has(p, key + lk[c] + lk[d])) {
                    with[c] |= 1u << d;
                    with[d] |= 1u << c;
                }
        for (int c = 1; c <= 26; c++)
            for (uint32_t m = with[c] & ~((1u << c) - 1u); m; m &= m - 1) {
                int d = CTZ(m);
                for (uint32_t m2 = with[c] & with[d] & ~((1u << d) - 1u); m2; m2 &= m2 - 1)
                    if ((out[n].words = anagrams(p, key + lk[c] + lk[d] + lk[CTZ(m2)]))) {
                        out[n].b[0] = (uint8_t)c;
                        out[n].b[1] = (uint8_t)d;
                        out[n].b[2] = (uint8_t)CTZ(m2);
                        n++;
                    }
            }
    }
    return n;
}

/* find_groups for the letters with key ``board_key`` on an extent, kept by board_key in the
 * search's pool while it has room; *n: how many. */
static const Group *groups_for(Gen *g, uint64_t board_key, int *n)
{
    int i = (int)(board_key >> 58);
    if (g->wg_ok[i] && g->wg_key[i] == board_key) {
        *n = g->wg_n[i];
        return g->wg_pool + g->wg_first[i];
    }
    *n = find_groups(g, g->rack_key + board_key, g->wg_spare);
    if (g->wg_used + *n > g->wg_cap)
        return g->wg_spare; /* not kept: found again for the next extent with these letters */
    memcpy(g->wg_pool + g->wg_used, g->wg_spare, sizeof(Group) * (size_t)*n);
    g->wg_ok[i] = 1;
    g->wg_key[i] = board_key;
    g->wg_first[i] = g->wg_used;
    g->wg_n[i] = *n;
    g->wg_used += *n;
    return g->wg_pool + g->wg_first[i];
}

/* Record the play of ``w`` on start..end (its empty squares all filled, from the rack) with
 * the rack's blanks on the word's squares in ``blanks`` (bit k: the word's k-th letter). */
static void record_word(Gen *g, const uint8_t *w, int start, int end, uint64_t blanks)
{
    int msum = 0, wmul = 1, xtot = 0;
    g->nplaced = 0;
    for (int k = 0; k < end - start; k++) {
        int q = start + k, code = g->cells[q];
        if (code) {
            msum += (code & BLANK) ? 0 : g->values[code & LETTER_MASK];
            continue;
        }
        int blank = (blanks >> k) & 1u;
        int v = blank ? 0 : g->values[w[k]] * g->lm[q];
        msum += v;
        wmul *= g->wm[q];
        if (g->xsum[q] >= 0)
            xtot += (g->xsum[q] + v) * g->wm[q];
        g->placed[g->nplaced].pos = q;
        g->placed[g->nplaced].code = w[k] | (blank ? BLANK : 0);
        g->nplaced++;
    }
    record_one(g, start, end, msum * wmul + xtot);
    g->nplaced = 0;
}

/* Record a play of ``w`` for each way to put the blanks still to place (their letters
 * want[0..left)) on its empty squares from ``from`` on holding those letters. */
static void place_blanks(Gen *g, const uint8_t *w, int start, int end, const uint8_t *want, int left,
                         int from, uint64_t blanks)
{
    if (!left) {
        record_word(g, w, start, end, blanks);
        return;
    }
    for (int k = from; k < end - start && !g->err; k++) {
        if (g->cells[start + k])
            continue;
        for (int j = 0; j < left; j++)
            if (w[k] == want[j]) { /* a blank here for want[j]: the others go further right */
                uint8_t rest[MAX_BLANKS];
                int r = 0;
                for (int t = 0; t < left; t++)
                    if (t != j)
                        rest[r++] = want[t];
                place_blanks(g, w, start, end, rest, r, k + 1, blanks | (1ull << k));
                break; /* the same letter twice among want: one choice covers it */
            }
    }
}

/* Record the plays of the words of ``grp`` that fit the extent start..end: its letters and
 * cross-checks, and exactly the rack's tiles on its empty squares. A blank standing for a
 * letter the rack also holds makes a play on each square of that letter (each set of
 * squares, for more blanks). */
static void place_words(Gen *g, const Group *grp, int start, int end)
{
    int count = grp->words[0], len = grp->words[1], nb = 0;
    uint8_t want[MAX_BLANKS];
    for (int k = 0; k < MAX_BLANKS; k++)
        if (grp->b[k])
            want[nb++] = grp->b[k];
    if (len != end - start)
        return;
    for (const uint8_t *w = grp->words + 2; count-- > 0 && !g->err; w += len) {
        int have[27] = {0};
        int fits = 1;
        for (int k = 0; k < len && fits; k++) {
            int code = g->cells[start + k];
            if (code) {
                fits = (code & LETTER_MASK) == w[k];
            } else {
                fits = (g->xmask[start + k] >> w[k]) & 1u;
                have[w[k]]++;
            }
        }
        for (int k = 0; k < nb; k++)
            have[want[k]]--;
        for (int l = 1; l <= 26 && fits; l++)
            fits = have[l] == g->rack[l];
        if (fits)
            place_blanks(g, w, start, end, want, nb, 0, 0);
    }
}

static int64_t shadow_bound(const Gen *g, const int *vals, int64_t held, int64_t wmul, const int *lmv,
                            const int *wmv, const int *xsv, const int *capv, int k);
static int best_fitting(Gen *g, uint32_t fit);

static int whole_rack_word(Gen *g, uint64_t board_key);

/* Add the current view's extents that can hold a whole-rack play to ``out``: each run of
 * rack_size empty squares (and the letters among and after them) that covers an anchor, from
 * running sums over the row's squares and its empty squares; with anchor_bounds' bound of its
 * plays (shadow_bound, the bonus included). Returns how many were added. */
static int whole_rack_extents(Gen *g, int view, const int *vals, Extent *out)
{
    int n = g->n, need = g->rack_size, added = 0;
    const uint8_t *cells = g->cells;
    const uint64_t *letter_key = g->packed->letter_key;
    int at[MAX_N], unfit[MAX_N + 1], anchors[MAX_N + 1]; /* by empty square: its column, sums */
    uint64_t keys[MAX_N + 1];                          /* by column: the letters left of it */
    int lmv[MAX_N], wmv[MAX_N], xsv[MAX_N], capv[MAX_N];
    uint32_t usable = g->rack[0] ? ALL_LETTERS : g->rack_bits;
    for (int rs = 0; rs < n * n; rs += n) {
        int m = 0;
        keys[0] = unfit[0] = anchors[0] = 0;
        for (int x = 0; x < n; x++) {
            int code = cells[rs + x];
            keys[x + 1] = keys[x] + (code ? letter_key[code & LETTER_MASK] : 0);
            if (!code) {
                at[m] = x;
                unfit[m + 1] = unfit[m] + !g->xmask[rs + x];
                anchors[m + 1] = anchors[m] + g->is_anchor[rs + x];
                m++;
            }
        }
        for (int x = 0, j = 0; x < n; x++) { /* j: the first empty square from x */
            while (j < m && at[j] < x)
                j++;
            if (j + need > m)
                break;
            if (x > 0 && cells[rs + x - 1])
                continue; /* the word would go on leftwards */
            if (unfit[j + need] != unfit[j] || anchors[j + need] == anchors[j])
                continue; /* a square no letter fits, or no anchor covered */
            int end = at[j + need - 1] + 1;
            while (end < n && cells[rs + end])
                end++;
            if (!whole_rack_word(g, keys[end] - keys[x]))
                continue; /* no word is made of the rack and the extent's letters: no play, no bound */
            int64_t held = 0, wmul = 1;
            int k = 0;
            for (int q = rs + x; q < rs + end; q++)
                if (cells[q]) {
                    held += (cells[q] & BLANK) ? 0 : g->values[cells[q] & LETTER_MASK];
                } else {
                    lmv[k] = g->lm[q];
                    wmv[k] = g->wm[q];
                    xsv[k] = g->xsum[q];
                    capv[k++] = best_fitting(g, g->xmask[q] & usable);
                    wmul *= g->wm[q];
                }
            int64_t b = shadow_bound(g, vals, held, wmul, lmv, wmv, xsv, capv, k);
            Extent e = {b, keys[end] - keys[x], view, rs + x, rs + end};
            out[added++] = e;
        }
    }
    return added;
}

static int extent_before(const void *a, const void *b) /* best bound first, then view, square */
{
    const Extent *x = a, *y = b;
    if (x->bound != y->bound)
        return x->bound > y->bound ? -1 : 1;
    if (x->view != y->view)
        return x->view - y->view;
    return x->start - y->start;
}

/* Record every play that uses the whole rack (at most MAX_BLANKS blanks), in the views
 * ``vw``: their extents best bound first, each extent's words (groups_for, place_words),
 * until no bound left reaches the floor. Returns 0, or -1 out of memory (nothing recorded:
 * the walk then finds those plays). */
static int whole_rack_plays(Gen *g, View *vw, int nviews, int square, const int *vals)
{
    int blanks = g->rack[0];
    Extent *ext = PyMem_RawMalloc(sizeof(Extent) * (size_t)(nviews * g->n * g->n));
    g->wg_cap = GROUPS_KEPT[blanks];
    g->wg_pool = PyMem_RawMalloc(sizeof(Group) * (size_t)(g->wg_cap + GROUPS_MAX[blanks]));
    int next = 0, current = -1;
    if (ext && g->wg_pool) {
        g->wg_spare = g->wg_pool + g->wg_cap;
        for (int k = 0; k < nviews; k++) {
            use_view(g, &vw[k], square);
            next += whole_rack_extents(g, k, vals, ext + next);
        }
        qsort(ext, (size_t)next, sizeof(Extent), extent_before);
        for (int e = 0; e < next && !past_deadline(g, 1) && ext[e].bound >= floor_of(g); e++) {
            if (ext[e].view != current) {
                current = ext[e].view;
                use_view(g, &vw[current], square);
            }
            int ngroups;
            const Group *grp = groups_for(g, ext[e].key, &ngroups);
            for (int k = 0; k < ngroups && !g->err; k++)
                place_words(g, &grp[k], ext[e].start, ext[e].end);
        }
    }
    int ok = ext && g->wg_pool;
    PyMem_RawFree(ext);
    PyMem_RawFree(g->wg_pool);
    g->wg_pool = g->wg_spare = NULL;
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ upper bounds */

/* Whether some word may be made of the whole rack and the letters with key ``board_key``: with
 * blanks, the filter of the words' letters (word_letters); without, the words of ANA_MIN
 * letters or more by their letters answer exactly when the rack alone is that long. The
 * extents of many anchors hold the same letters, so the answers are kept. */
static int whole_rack_word(Gen *g, uint64_t board_key)
{
    int i = (int)(board_key >> 58);
    if (!g->wr_val[i] || g->wr_key[i] != board_key) {
        const Packed *p = g->packed;
        uint64_t key = g->rack_key + board_key;
        g->wr_key[i] = board_key;
        g->wr_val[i] = 1 + (uint8_t)(!g->rack[0] && p->akey && g->rack_size >= ANA_MIN
                                         ? anagrams(p, key) != NULL
                                         : word_letters(p, key, g->rack[0]));
    }
    return g->wr_val[i] == 2;
}

static void sort_desc(int64_t *x, int k) /* insertion sort: k is a row's worth */
{
    for (int i = 1; i < k; i++) {
        int64_t c = x[i];
        int j = i;
        while (j > 0 && x[j - 1] < c) {
            x[j] = x[j - 1];
            j--;
        }
        x[j] = c;
    }
}

/* The best pairing of the ``k`` largest values (sorted, descending) with ``k`` coefficients
 * (rearrangement inequality: largest with largest). */
static int64_t pairing(const int *vals, int64_t *coef, int k)
{
    sort_desc(coef, k);
    int64_t s = 0;
    for (int i = 0; i < k; i++)
        s += vals[i] * coef[i];
    return s;
}

/* The bound of a shadow play (see anchor_bounds) on an extent of ``k`` empty squares (their
 * letter and word premiums, cross-word sums or -1, and the best rack value fitting each, in
 * lmv, wmv, xsv, capv), ``held`` the face value of its tiles and ``wmul`` its word premium. */
static int64_t shadow_bound(const Gen *g, const int *vals, int64_t held, int64_t wmul, const int *lmv,
                            const int *wmv, const int *xsv, const int *capv, int k)
{
    int64_t coef[MAX_N], coef2[MAX_N], fixed = held * wmul, restricted = 0;
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
    int64_t b = fixed + (b1 < b2 ? b1 : b2) + (k == g->rack_size ? g->bonus : 0);
    if (g->leave) { /* a play of k tiles keeps at best leave_max - ldrop[k] * scale */
        b -= g->ldrop[k];
        if (b < 0)
            b = 0;
    }
    return b;
}

/* shadow_bound's sums for an extent that grows one empty square at a time (anchor_bounds'
 * ends, left to right): the weights kept sorted as they come, all made again only when a word
 * premium changes them, so each end costs a pass over k values rather than two sorts. */
typedef struct {
    int k, u;                 /* empty squares; those without a cross-word */
    int64_t wmul, crossed;    /* the word premiums; the cross-words' tiles */
    int64_t restricted;       /* the cross-word squares' weights times their best fitting value */
    int64_t every[MAX_N], plain[MAX_N]; /* the weights (largest first): all, without a cross-word */
    int lmv[MAX_N], wmv[MAX_N], xsv[MAX_N], capv[MAX_N];
} Shadow;

static void insert_desc(int64_t *x, int len, int64_t c)
{
    int j = len;
    while (j > 0 && x[j - 1] < c) {
        x[j] = x[j - 1];
        j--;
    }
    x[j] = c;
}

/* Add the empty square with letter premium ``lm``, word premium ``wm``, cross-word sum ``xs``
 * (-1: none) and best fitting rack value ``cap``. */
static void shadow_add(Shadow *sh, int lm, int wm, int xs, int cap)
{
    int k = sh->k++;
    sh->lmv[k] = lm;
    sh->wmv[k] = wm;
    sh->xsv[k] = xs;
    sh->capv[k] = cap;
    if (xs >= 0)
        sh->crossed += (int64_t)xs * wm;
    if (wm != 1) { /* every weight changes: make them again */
        sh->wmul *= wm;
        sh->u = 0;
        sh->restricted = 0;
        for (int j = 0; j <= k; j++) {
            int64_t w = sh->lmv[j] * (sh->wmul + (sh->xsv[j] >= 0 ? sh->wmv[j] : 0));
            insert_desc(sh->every, j, w);
            if (sh->xsv[j] >= 0)
                sh->restricted += sh->capv[j] * w;
            else
                insert_desc(sh->plain, sh->u++, w);
        }
        return;
    }
    int64_t w = lm * (sh->wmul + (xs >= 0 ? wm : 0));
    insert_desc(sh->every, k, w);
    if (xs >= 0)
        sh->restricted += cap * w;
    else
        insert_desc(sh->plain, sh->u++, w);
}

/* shadow_bound of the extent so far, ``held`` the face value of its tiles. */
static int64_t shadow_of(const Gen *g, const Shadow *sh, const int *vals, int64_t held)
{
    int64_t b1 = 0, b2 = sh->restricted;
    for (int i = 0; i < sh->k; i++)
        b1 += vals[i] * sh->every[i];
    for (int i = 0; i < sh->u; i++)
        b2 += vals[i] * sh->plain[i];
    int64_t b = held * sh->wmul + sh->crossed + (b1 < b2 ? b1 : b2) + (sh->k == g->rack_size ? g->bonus : 0);
    if (g->leave) { /* as shadow_bound */
        b -= g->ldrop[sh->k];
        if (b < 0)
            b = 0;
    }
    return b;
}

/* The best rack value that fits the cross set ``fit`` (0 when only a blank does); the last
 * answer is kept, most squares letting every letter through. */
static int best_fitting(Gen *g, uint32_t fit)
{
    uint32_t fits = fit & g->rack_bits;
    if (fits == g->fits_last)
        return g->cap_last;
    int cap = 0;
    for (uint32_t m = fits; m; m &= m - 1) {
        int v = g->values[CTZ(m)];
        cap = v > cap ? v : cap;
    }
    g->fits_last = fits;
    g->cap_last = cap;
    return cap;
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
        g->lob[x] = g->lob_left[x] = g->lobn[x] = g->lobn_left[x] = -1;
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
    g->ab_first = lo_min - row_start;
    int cap[MAX_N]; /* by square of the row: the best rack value fitting it (best_fitting) */
    for (int q = lo_min; q < row_end; q++)
        if (!cells[q])
            cap[q - row_start] = best_fitting(g, g->xmask[q] & usable);
    Shadow sh;
    for (int lo = lo_min; lo <= a; lo++) {
        if (lo > row_start && cells[lo - 1])
            continue; /* the word would go on leftwards */
        int64_t held = 0, best = -1, bestn = -1;
        uint64_t board_key = 0; /* the letters already on lo..q (see word_letters) */
        int64_t *row = g->hib[lo - row_start], *rown = g->hibn[lo - row_start];
        for (int y = 0; y < n; y++)
            row[y] = rown[y] = -1;
        sh.k = sh.u = 0;
        sh.wmul = 1;
        sh.crossed = sh.restricted = 0;
        for (int q = lo; q < row_end; q++) {
            int code = cells[q];
            if (code) {
                held += (code & BLANK) ? 0 : g->values[code & LETTER_MASK];
                board_key += g->packed->letter_key[code & LETTER_MASK];
            } else {
                if (q > a && (sh.k >= tiles || !(g->xmask[q] & usable)))
                    break;
                if (no_bound) {
                    sh.k++;
                } else {
                    shadow_add(&sh, g->lm[q], g->wm[q], g->xsum[q], cap[q - row_start]);
                    if (sh.wmul > (1 << 24))
                        no_bound = 1; /* absurd premiums: never pruned */
                }
            }
            int k = sh.k;
            if (q < a || (q + 1 < row_end && cells[q + 1]))
                continue; /* not an end: the anchor must be covered, the word cannot stop */
            if (k == g->rack_size && g->wholes_found)
                continue; /* its plays are recorded already (whole_rack_plays) */
            int64_t b = no_bound ? INT64_MAX / 4 : shadow_of(g, &sh, vals, held);
#ifdef SHADOW_CHECK
            if (!no_bound && b != shadow_bound(g, vals, held, sh.wmul, sh.lmv, sh.wmv, sh.xsv, sh.capv, k))
                abort();
#endif
            if (k == g->rack_size && k == tiles && b >= floor_of(g) && !whole_rack_word(g, board_key))
                continue; /* no word is made of the whole rack and the letters on lo..q: no play */
            row[q - row_start] = b;
            if (b > best)
                best = b;
            if (k != g->rack_size) {
                rown[q - row_start] = b;
                if (b > bestn)
                    bestn = b;
            }
        }
        for (int h = n - 2; h >= 0; h--) { /* suffix maxima over the end square */
            if (row[h + 1] > row[h])
                row[h] = row[h + 1];
            if (rown[h + 1] > rown[h])
                rown[h] = rown[h + 1];
        }
        g->lob[lo - row_start] = best;
        g->lobn[lo - row_start] = bestn;
        if (best > top)
            top = best;
    }
    for (int x = 0; x < n; x++) {
        g->lob_left[x] = x ? (g->lob[x] > g->lob_left[x - 1] ? g->lob[x] : g->lob_left[x - 1]) : g->lob[0];
        g->lobn_left[x] = x ? (g->lobn[x] > g->lobn_left[x - 1] ? g->lobn[x] : g->lobn_left[x - 1]) : g->lobn[0];
    }
    return top;
}

/* A cheap, looser bound of every play from anchor ``a`` (-1: none): movegen.view_search's, one
 * window for the whole anchor (leftwards up to the next anchor, rightwards as far as the rack
 * reaches): its tiles, plus the best pairing of rack values with its letter premiums, times
 * every word premium in it, plus the best cross-words, plus the bonus if a whole rack fits. */
static int64_t window_bound(Gen *g, int a, const int *vals, int nvals)
{
    int n = g->n, row_start = a - a % n, row_end = row_start + n;
    const uint8_t *cells = g->cells;
    uint32_t usable = g->rack[0] ? ALL_LETTERS : g->rack_bits;
    int tiles = g->tiles;
    if (!(g->xmask[a] & usable) || tiles < 1)
        return -1;
    if (tiles > nvals)
        return INT64_MAX / 4;
    int lo = a, hi = a, empties = 1;
    while (lo > row_start && (cells[lo - 1] || (!g->is_anchor[lo - 1] && (g->xmask[lo - 1] & usable))))
        lo--;
    while (hi + 1 < row_end) {
        int q = hi + 1;
        if (!cells[q]) {
            if (empties >= tiles || !(g->xmask[q] & usable))
                break;
            empties++;
        }
        hi = q;
    }
    int64_t held = 0, wmul = 1, lms[MAX_N], crosses[MAX_N];
    int nl = 0, nc = 0;
    for (int q = lo; q <= hi; q++) {
        int code = cells[q];
        if (code) {
            held += (code & BLANK) ? 0 : g->values[code & LETTER_MASK];
            continue;
        }
        lms[nl++] = g->lm[q];
        wmul *= g->wm[q];
        if (wmul > (1 << 24))
            return INT64_MAX / 4;
        if (g->xsum[q] >= 0)
            crosses[nc++] = ((int64_t)g->xsum[q] + (int64_t)vals[0] * g->lm[q]) * g->wm[q];
    }
    int k = tiles < nl ? tiles : nl;
    if (g->wholes_found && k >= g->rack_size)
        k = g->rack_size - 1; /* the plays of the whole rack are recorded already */
    sort_desc(lms, nl);
    sort_desc(crosses, nc);
    int64_t best = held * wmul;
    for (int j = 0; j < k; j++) /* the k best values on the k best letter premiums */
        best += wmul * vals[j] * lms[j];
    for (int j = 0; j < nc && j < k; j++) /* and the k best cross-words */
        best += crosses[j];
    if (tiles >= g->rack_size && nl >= g->rack_size && !g->wholes_found)
        best += g->bonus;
    return best;
}

typedef struct {
    int64_t bound;
    int view;
    int anchor;
    int fine; /* the bound is anchor_bounds', not window_bound's */
    int kept; /* with fine: the slot of Kept holding its bounds (they may have been overwritten) */
} Task;

/* The bounds of the last anchors (up to KEPT_SLOTS, 256 KB) that anchor_bounds refined and
 * sent back to the heap: a third of them come out on top again later, and their walk needs
 * the same bounds, which a copy restores for a fraction of making them again. A slot holds
 * lob, lobn, lob_left and lobn_left (n each) and the rows of hib and hibn from the anchor's
 * first start square to the anchor (n each): the rows anchor_bounds wrote, the only ones its
 * walk reads. On the bench positions 64 slots keep all that come back (tests/test_pgo.py
 * builds it with 2, to make the bounds again for most). */
#ifndef KEPT_SLOTS
#define KEPT_SLOTS 64
#endif
#if KEPT_SLOTS < 1
#error "KEPT_SLOTS must be at least 1"
#endif
#define KEPT_BYTES (256 * 1024)
typedef struct {
    int64_t *data;               /* slots x stride */
    Py_ssize_t stride;           /* 4n + 2n * n */
    int slots;
    int owner[KEPT_SLOTS];       /* view * n * n + anchor, -1: none */
    int first[KEPT_SLOTS];       /* the anchor's first start square, from its row's start */
    int next;                    /* the slot to use next (the oldest) */
} Kept;

static inline void kept_move(int64_t *bounds, int64_t *slot, size_t size, int back)
{
    if (back)
        memcpy(bounds, slot, size);
    else
        memcpy(slot, bounds, size);
}

/* Copy anchor ``a``'s bounds (rows ``lo`` to the anchor's of hib and hibn) into slot ``d``,
 * or with ``back`` from it. */
static void kept_copy(Gen *g, int64_t *d, int a, int lo, int back)
{
    int n = g->n, rs = a - a % n;
    size_t row = sizeof(int64_t) * (size_t)n;
    kept_move(g->lob, d, row, back);
    kept_move(g->lobn, d + n, row, back);
    kept_move(g->lob_left, d + 2 * n, row, back);
    kept_move(g->lobn_left, d + 3 * n, row, back);
    d += 4 * n;
    for (int r = lo; r <= a - rs; r++, d += 2 * n) {
        kept_move(g->hib[r], d, row, back);
        kept_move(g->hibn[r], d + n, row, back);
    }
}

/* Keep the bounds anchor_bounds just made for anchor ``a`` of view ``view``: the slot, or -1
 * without slots. */
static int kept_put(Kept *kp, Gen *g, int view, int a)
{
    if (!kp->data)
        return -1;
    int k = kp->next;
    kp->next = (k + 1) % kp->slots;
    kp->owner[k] = view * g->n * g->n + a;
    kp->first[k] = g->ab_first;
    kept_copy(g, kp->data + k * kp->stride, a, g->ab_first, 0);
    return k;
}

/* Restore the bounds kept in slot ``k`` for anchor ``a`` of view ``view``: 1, or 0 when the
 * slot went to another anchor since (or there is none). */
static int kept_get(const Kept *kp, Gen *g, int k, int view, int a)
{
    if (k < 0 || kp->owner[k] != view * g->n * g->n + a)
        return 0;
    kept_copy(g, kp->data + k * kp->stride, a, kp->first[k], 1);
    return 1;
}

/* The tasks as a max-heap (best bound first; ties in view then anchor order). */
static int task_before(const Task *x, const Task *y)
{
    if (x->bound != y->bound)
        return x->bound > y->bound;
    if (x->view != y->view)
        return x->view < y->view;
    return x->anchor < y->anchor;
}

static void task_push(Task *h, Py_ssize_t *len, Task t)
{
    Py_ssize_t i = (*len)++;
    while (i > 0) {
        Py_ssize_t p = (i - 1) / 2;
        if (!task_before(&t, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = t;
}

static Task task_pop(Task *h, Py_ssize_t *len)
{
    Task top = h[0], t = h[--*len];
    Py_ssize_t i = 0, n = *len;
    for (;;) {
        Py_ssize_t l = 2 * i + 1, r = l + 1, m = i;
        const Task *mv = &t;
        if (l < n && task_before(&h[l], mv)) {
            m = l;
            mv = &h[l];
        }
        if (r < n && task_before(&h[r], mv))
            m = r;
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    if (n > 0)
        h[i] = t;
    return top;
}


/* ------------------------------------------------------------------ ranking */

static inline char letter_char(int code)
{
    return (char)((code & LETTER_MASK) - 1 + ((code & BLANK) ? 'a' : 'A'));
}

/* The main word's text as solver.Move has it: A-Z, a blank's letter lowercase. The board's
 * letters, then the play's tiles over the empty squares (they are all in the word): one pass
 * each, where looking up each empty square's tile took the word's length times the tiles. */
static int word_of(const Gen *g, const View *v, const Rec *r, char *out)
{
    int len = r->end - r->start;
    for (int k = 0; k < len; k++)
        out[k] = letter_char(v->cells[r->start + k]);
    for (int j = 0; j < r->nplaced; j++) {
        const Placed *p = &g->pl[r->off + j];
        if ((unsigned)(p->pos - r->start) < (unsigned)len)
            out[p->pos - r->start] = letter_char(p->code);
    }
    return len;
}

/* A play being ranked: its record and its main word, made once (rank_cmp compares the words
 * where all else ties, which with blanks is often: a thousand plays of two blanks made 8,000
 * words when each comparison made its own). */
typedef struct {
    const Rec *rec;
    Py_ssize_t idx;
    int len;
    char word[MAX_N];
} Ranked;

/* solver.Move.sort_key order: best key first (the score; or the equity, then the score),
 * across before down, then row, column (of the main word's first square on the board) and the
 * word (uppercase before lowercase). */
static int rank_cmp(const Gen *g, const Ranked *a, const Ranked *b)
{
    const Rec *x = a->rec, *y = b->rec;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    if (x->down != y->down)
        return x->down - y->down;
    int n = g->n, xl = x->start / n, xs = x->start % n, yl = y->start / n, ys = y->start % n;
    int xr = x->down ? xs : xl, xc = x->down ? xl : xs, yr = y->down ? ys : yl, yc = y->down ? yl : ys;
    if (xr != yr)
        return xr - yr;
    if (xc != yc)
        return xc - yc;
    int m = a->len < b->len ? a->len : b->len;
    int c = m > 0 ? memcmp(a->word, b->word, (size_t)m) : 0; /* (m > 0: GCC's profiled inlining cannot tell) */
    return c ? c : a->len - b->len;
}

/* A ranked play, ready for solver.Move: (score, down, row, col, word, tiles), row and col
 * 1-based on the board, tiles (board square << 8 | code, ...) in square order. */
static PyObject *ranked_tuple(const Gen *g, const View *v, const Rec *r)
{
    int n = g->n, sq[MAX_N], code[MAX_N], k = r->nplaced;
    char word[MAX_N];
    int len = word_of(g, v, r, word);
    for (int j = 0; j < k; j++) {
        int p = g->pl[r->off + j].pos, c = g->pl[r->off + j].code, i = j;
        int b = r->down ? (p % n) * n + p / n : p;
        while (i > 0 && sq[i - 1] > b) {
            sq[i] = sq[i - 1];
            code[i] = code[i - 1];
            i--;
        }
        sq[i] = b;
        code[i] = c;
    }
    PyObject *tiles = PyTuple_New(k);
    if (!tiles)
        return NULL;
    for (int j = 0; j < k; j++) { /* square << 8 | code: engine.plays.tiles_at's key */
        PyObject *t = PyLong_FromLong((long)sq[j] << 8 | code[j]);
        if (!t) {
            Py_DECREF(tiles);
            return NULL;
        }
        PyTuple_SET_ITEM(tiles, j, t);
    }
    int line = r->start / n, at = r->start % n;
    untracked(tiles);
    /* built item by item, not by Py_BuildValue, which parses its format for each of the plays;
     * with leave values, the index of the tiles used follows, for the caller's leave table */
    PyObject *score = NULL, *row = NULL, *col = NULL, *text = NULL, *lidx = NULL, *t = NULL;
    if (!(score = PyLong_FromLong(r->score)) || !(row = PyLong_FromLong((r->down ? at : line) + 1)) ||
        !(col = PyLong_FromLong((r->down ? line : at) + 1)) ||
        !(text = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, word, len)) || /* ASCII */
        (g->leave && !(lidx = PyLong_FromLong(r->lidx))) || !(t = PyTuple_New(g->leave ? 7 : 6))) {
        Py_XDECREF(score);
        Py_XDECREF(row);
        Py_XDECREF(col);
        Py_XDECREF(text);
        Py_XDECREF(lidx);
        Py_DECREF(tiles);
        return NULL;
    }
    PyObject *down = r->down ? Py_True : Py_False;
    Py_INCREF(down);
    PyTuple_SET_ITEM(t, 0, score);
    PyTuple_SET_ITEM(t, 1, down);
    PyTuple_SET_ITEM(t, 2, row);
    PyTuple_SET_ITEM(t, 3, col);
    PyTuple_SET_ITEM(t, 4, text);
    PyTuple_SET_ITEM(t, 5, tiles);
    if (lidx)
        PyTuple_SET_ITEM(t, 6, lidx);
    return untracked(t);
}

/* Sort the records idx[0..len) by rank_cmp (a merge sort: qsort has no context argument).
 * Needs no interpreter lock (generate ranks before it takes the lock back). */
static int rank_sort(const Gen *g, View *const *vfor, Py_ssize_t *idx, Py_ssize_t len)
{
    size_t items = (size_t)(len ? len : 1);
    Ranked *plays = PyMem_RawMalloc(sizeof(Ranked) * items);
    const Ranked **at = PyMem_RawMalloc(sizeof(Ranked *) * 2 * items);
    if (!plays || !at) {
        PyMem_RawFree(plays);
        PyMem_RawFree(at);
        return -1;
    }
    const Ranked **tmp = at + items;
    for (Py_ssize_t k = 0; k < len; k++) {
        Ranked *p = &plays[k];
        p->rec = &g->recs[idx[k]];
        p->idx = idx[k];
        p->len = word_of(g, vfor[p->rec->down], p->rec, p->word);
        at[k] = p;
    }
    for (Py_ssize_t w = 1; w < len; w *= 2) {
        for (Py_ssize_t lo = 0; lo < len; lo += 2 * w) {
            Py_ssize_t mid = lo + w < len ? lo + w : len, hi = lo + 2 * w < len ? lo + 2 * w : len;
            Py_ssize_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = rank_cmp(g, at[j], at[i]) < 0 ? at[j++] : at[i++];
            while (i < mid)
                tmp[k++] = at[i++];
            while (j < hi)
                tmp[k++] = at[j++];
        }
        memcpy(at, tmp, sizeof(Ranked *) * (size_t)len);
    }
    for (Py_ssize_t k = 0; k < len; k++)
        idx[k] = at[k]->idx;
    PyMem_RawFree(plays);
    PyMem_RawFree(at);
    return 0;
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
    int n, rack_size, bonus, views, prune, rank;
    Py_ssize_t *order = NULL;
    PyObject *packed_obj;
    const Packed *packed;
    long keep;
    PyObject *scores;
    int min_length = 0, no_blanks = 0, square = -1;
    Py_buffer need = {0};
    PyObject *clock = NULL; /* time.monotonic, with `deadline`: the search stops past it */
    double deadline = 0.0;
    long long scale = 1000;
    Py_buffer cells = {0}, lm = {0}, wm = {0}, starts = {0}, values = {0}, rack = {0}, leave = {0},
              lstride = {0}, ldrop = {0};
    Py_buffer *bufs[] = {&cells, &lm, &wm, &starts, &values, &rack, &need, &leave, &lstride, &ldrop};
    PyObject *result = NULL, *plays = NULL, *out_scores = NULL, **pairs = NULL;
    Gen *g = NULL;
    View vw[2];
    uint8_t *vbuf = NULL;
    Task *tasks = NULL;
    Kept kept = {0};
    int nviews = 0;
    (void)self;
    Py_ssize_t nn = 0, nstarts, nout = 0;
    const int32_t *rk;
    int gc_was_enabled = 0, empty = 1;
    int vals[MAX_N], nvals = 0;

    if (!PyArg_ParseTuple(args, "iy*y*y*y*y*y*iiiOlppO!|ipiy*Ody*y*y*L:generate", &n, &cells, &lm,
                          &wm, &starts, &values, &rack, &rack_size, &bonus, &views, &packed_obj, &keep,
                          &prune, &rank, &PyList_Type, &scores, &min_length, &no_blanks, &square, &need,
                          &clock, &deadline, &leave, &lstride, &ldrop, &scale))
        return NULL;
    packed = PyCapsule_GetPointer(packed_obj, PACKED_NAME);
    if (!packed) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "the GADDAG must be the object pack() returns");
        goto done;
    }

    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "board size %d out of range 1..%d", n, MAX_N);
        goto done;
    }
    nn = (Py_ssize_t)n * n;
    if (!need_len("cells", &cells, nn, 1) || !need_len("lm", &lm, nn, 1) ||
        !need_len("wm", &wm, nn, 1) || !need_len("values", &values, 27, 4) ||
        !need_len("rack", &rack, 27, 4))
        goto done;
    if (starts.len % 4) {
        PyErr_SetString(PyExc_ValueError, "start squares must be 4-byte items");
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
    if (keep < 0 && PyList_GET_SIZE(scores) > 1) {
        PyErr_SetString(PyExc_ValueError, "keep -1 takes at most one score, the floor");
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

    g = PyMem_Malloc(sizeof(Gen));
    if (!g) {
        PyErr_NoMemory();
        goto done;
    }
    memset(g, 0, offsetof(Gen, lob)); /* the 33 KB of bounds after it need no zeroing */
    g->clock = clock;
    g->timed = clock && clock != Py_None;
    g->deadline = deadline;
    g->n = n;
    memcpy(g->values, values.buf, sizeof g->values);
    g->rack_size = rack_size;
    g->bonus = bonus;
    g->edges = packed->edges;
    g->reach = packed->reach;
    g->packed = packed;
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
    g->filtered = min_length > 0 || no_blanks || square >= 0 || g->has_need;
    if (leave.obj && leave.len) {
        /* equity: leave values indexed by the tiles used (see Gen.leave) */
        if (!need_len("lstride", &lstride, 27, 4) || !need_len("ldrop", &ldrop, MAX_N + 1, 4))
            goto done;
        if (leave.len % 4 || scale < 1 || scale > 1000000) {
            PyErr_SetString(PyExc_ValueError, "leave values must hold 4-byte items, scale 1..1000000");
            goto done;
        }
        const int32_t *st = lstride.buf, *lv = leave.buf, *rk0 = rack.buf;
        int64_t top = 0;
        for (int t = 0; t < 27; t++) {
            if (rk0[t] <= 0)
                continue;
            if (st[t] < 0 || rk0[t] > 64) {
                PyErr_SetString(PyExc_ValueError, "leave strides must be >= 0 and racks small");
                goto done;
            }
            top += (int64_t)rk0[t] * st[t];
            g->lstride[t] = st[t];
        }
        if (top >= leave.len / 4) {
            PyErr_SetString(PyExc_ValueError, "the leave values do not cover every sub-rack");
            goto done;
        }
        int64_t best = INT64_MIN;
        for (Py_ssize_t i = 1; i <= top; i++)
            best = lv[i] > best ? lv[i] : best;
        memcpy(g->ldrop, ldrop.buf, sizeof g->ldrop);
        for (int k = 0; k <= MAX_N; k++)
            if (g->ldrop[k] < 0) {
                PyErr_SetString(PyExc_ValueError, "leave drops must be >= 0");
                goto done;
            }
        g->leave = lv;
        g->scale = scale;
        g->leave_max = best == INT64_MIN ? 0 : best;
    }
    const uint8_t *bc = cells.buf, *blm = lm.buf, *bwm = wm.buf;
    for (Py_ssize_t i = 0; i < nn; i++) {
        int code = bc[i];
        int letter = code & ~BLANK;
        if (code && (letter < 1 || letter > 26)) {
            PyErr_Format(PyExc_ValueError, "cells[%zd] = %d is not a tile code", i, code);
            goto done;
        }
        if (blm[i] < 1 || blm[i] > 9 || bwm[i] < 1 || bwm[i] > 9) { /* the bounds take them >= 1 */
            PyErr_SetString(PyExc_ValueError, "multipliers must be 1..9");
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
        if (i)
            g->rack_key += (uint64_t)rk[i] * packed->letter_key[i];
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
        g->heap = PyMem_Malloc(sizeof(int64_t) * (size_t)keep);
        if (!g->heap) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(scores); i++) {
            long long v = PyLong_AsLongLong(PyList_GET_ITEM(scores, i));
            if (v == -1 && PyErr_Occurred())
                goto done;
            heap_push(g->heap, &g->heap_len, (int64_t)v);
        }
    }
    g->floor = INT64_MIN;
    if (keep > 0 && g->heap_len == keep)
        set_floor(g);
    if (keep < 0 && PyList_GET_SIZE(scores) == 1) { /* the plays scoring at least this (a score,
                                                        * with leave values too), all counted */
        long long v = PyLong_AsLongLong(PyList_GET_ITEM(scores, 0));
        if (v == -1 && PyErr_Occurred())
            goto done;
        g->floor = (int64_t)v;
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
        cross_checks(v, n, packed->edges, &packed->root, g->values);
        find_anchors(v, n, starts.buf, nstarts, empty);
    }

    /* Many thousands of new tuples would trigger the cyclic collector again and again; they
     * cannot form cycles, so it is paused while they are built (no Python code runs here). */
    gc_was_enabled = PyGC_Disable();
#if FASTGEN_NOGIL
    /* the deadline moved onto the C clock: one reading of each now */
    if (clock && clock != Py_None) {
        PyObject *now = PyObject_CallNoArgs(clock);
        double t = now ? PyFloat_AsDouble(now) : -1.0;
        Py_XDECREF(now);
        if (t == -1.0 && PyErr_Occurred())
            g->err = 1;
        g->cdeadline = deadline - t + c_monotonic();
    }
    g->nogil = 1;
    PyThreadState *unlocked = PyEval_SaveThread();
#endif
    g->sets = keep != -1; /* the plays are ranked or counted, not handed back in movegen's order */
    if (prune && keep > 0) {
        Py_ssize_t ntasks = 0;
        if (packed->akey && g->rack[0] <= MAX_BLANKS && g->tiles == rack_size && rack_size >= ANA_MIN &&
            nvals >= rack_size)
            g->wholes_found = whole_rack_plays(g, vw, nviews, square, vals) == 0;
        /* by equity, the floor lets most plays through (it allows for the best leave): giving
         * each of them its blanks cost more than the walk saved (+11% instructions) */
        g->defer = g->rack[0] > 0 && !g->leave;
        g->blanks0 = g->rack[0];
        /* the anchors of the views, best bound first: first by the cheap window bound; an
         * anchor coming out on top gets its finer bound per extent (anchor_bounds) and goes
         * back unless it is still on top; its walk then tests the extents' bounds against
         * the N-th best score. Stop when the best bound left cannot reach it. */
        tasks = PyMem_RawMalloc(sizeof(Task) * (size_t)(vw[0].nanchors + (nviews > 1 ? vw[1].nanchors : 0) + 1));
        if (!tasks) {
            g->why = WHY_NOMEM;
            g->err = 1;
        }
        if (g->rack[0] > 0) { /* the fine bounds' (no slots, out of memory: made again instead) */
            kept.stride = 4 * (Py_ssize_t)n + 2 * (Py_ssize_t)n * n;
            Py_ssize_t fit = KEPT_BYTES / (Py_ssize_t)sizeof(int64_t) / kept.stride;
            kept.slots = fit > KEPT_SLOTS ? KEPT_SLOTS : fit < 1 ? 1 : (int)fit;
            kept.data = PyMem_RawMalloc(sizeof(int64_t) * (size_t)kept.slots * (size_t)kept.stride);
            for (int k = 0; k < KEPT_SLOTS; k++)
                kept.owner[k] = -1;
        }
        for (int k = 0; k < nviews && !g->err; k++) {
            use_view(g, &vw[k], square);
            for (int j = 0; j < vw[k].nanchors; j++) {
                Task t = {window_bound(g, vw[k].anchors[j], vals, nvals), k, vw[k].anchors[j], 0, -1};
                if (t.bound >= 0)
                    task_push(tasks, &ntasks, t);
            }
        }
        int current = -1, fresh_view = -1, fresh_anchor = -1;
        while (ntasks > 0 && !g->err) {
            if (past_deadline(g, 16))
                break;
            Task t = task_pop(tasks, &ntasks);
            if (t.bound < floor_of(g))
                break; /* no play left can reach the keep-th best score */
            if (t.view != current) {
                current = t.view;
                use_view(g, &vw[current], square);
            }
            /* per extent, the bounds cost about as much as a blank-less anchor's walk: they
             * are for racks with a blank, whose walks are far longer */
            int fine = g->rack[0] > 0;
            if (fine && (fresh_view != t.view || fresh_anchor != t.anchor)) {
                fresh_view = t.view;
                fresh_anchor = t.anchor;
                if (!t.fine || !kept_get(&kept, g, t.kept, t.view, t.anchor)) {
                    int64_t b = anchor_bounds(g, t.anchor, vals, nvals);
                    if (!t.fine) {
                        t.bound = b < t.bound ? b : t.bound;
                        t.fine = 1;
                        if (t.bound < 0)
                            continue;
                        if (ntasks > 0 && task_before(&tasks[0], &t)) {
                            t.kept = kept_put(&kept, g, t.view, t.anchor);
                            task_push(tasks, &ntasks, t);
                            continue;
                        }
                    }
                }
            }
            g->pruning = fine;
            run_anchor(g, t.anchor, &packed->root);
            g->pruning = 0;
        }
    } else {
        for (int k = 0; k < nviews && !g->err; k++) {
            use_view(g, &vw[k], square);
            for (int j = 0; j < vw[k].nanchors && !g->err; j++) {
                if (past_deadline(g, 16))
                    break;
                run_anchor(g, vw[k].anchors[j], &packed->root);
            }
        }
    }
    /* the plays kept, and with rank the best `keep` in solver's ranking order (the caller
     * needs no sorting): C on the search's own memory, still without the interpreter lock
     * (a thousand plays with blanks took a millisecond and more, the event loop waiting) */
    if (!g->err) {
        int64_t floor = keep > 0 && g->heap_len == keep ? g->heap[0] : INT64_MIN;
        order = PyMem_RawMalloc(sizeof(Py_ssize_t) * (size_t)(g->nrecs ? g->nrecs : 1));
        if (!order) {
            g->why = WHY_NOMEM;
            g->err = 1;
        }
        for (Py_ssize_t i = 0; i < g->nrecs && !g->err; i++)
            if (g->recs[i].key >= floor)
                order[nout++] = i;
        if (!g->err && rank && keep > 0) {
            View *vfor[2] = {&vw[0], nviews > 1 ? &vw[1] : &vw[0]};
            if (rank_sort(g, vfor, order, nout) < 0) {
                g->why = WHY_NOMEM;
                g->err = 1;
            }
            if (nout > keep)
                nout = keep;
        }
    }
#if FASTGEN_NOGIL
    PyEval_RestoreThread(unlocked);
    g->nogil = 0;
#endif
    if (g->err && g->why == WHY_NOMEM)
        PyErr_NoMemory();
    else if (g->err && g->why == WHY_LATE)
        PyErr_SetString(PyExc_TimeoutError, "the search ran past its deadline");
    if (!g->err) {
        plays = PyList_New(nout);
        if (!plays)
            g->err = 1;
        else if (nout > 256 && !(pairs = PyMem_Calloc((size_t)nn * 128, sizeof(PyObject *)))) {
            PyErr_NoMemory();
            g->err = 1;
        }
        View *vfor[2] = {&vw[0], nviews > 1 ? &vw[1] : &vw[0]};
        for (Py_ssize_t o = 0; o < nout && !g->err; o++) {
            const Rec *r = &g->recs[order[o]];
            PyObject *t = rank && keep > 0 ? ranked_tuple(g, vfor[r->down], r) : play_tuple(g, r, pairs);
            if (!t)
                g->err = 1;
            else
                PyList_SET_ITEM(plays, o, t);
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
            PyObject *v = PyLong_FromLongLong(g->heap[i]);
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
        PyMem_RawFree(g->recs);
        PyMem_RawFree(g->pl);
        PyMem_Free(g);
    }
    PyMem_RawFree(tasks);
    PyMem_RawFree(kept.data);
    PyMem_RawFree(order);
    PyMem_Free(vbuf);
    Py_XDECREF(plays);
    Py_XDECREF(out_scores);
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i]->obj)
            PyBuffer_Release(bufs[i]);
    return result;
}

/* ------------------------------------------------------------------ Upwords */

/* engine.upwords.generate in C: the same depth-first walk along the forward DAWG for every
 * line of both views, the same checks, the same plays in the same order. */

#define UP_Q 17
#define UP_U 21
#define UP_S 19

typedef struct {
    int has;    /* the square has a perpendicular word */
    uint32_t mask;
    int length, hsum, flat, qu;
} UpCross;

typedef struct {
    int n, down, base, row, empty, rack_size, bonus, max_h, qu_bonus, plural_rule, rack_tiles;
    const uint8_t *cells;
    const uint8_t *heights;
    const UpCross *cross;
    const Dawg *d;
    int rack[27];
    uint8_t touch[MAX_N];
    int nxt[MAX_N + 1];
    int runs[MAX_N][2];
    int nruns;
    Placed placed[MAX_N];
    int nplaced;
    PyObject *plays;
    int err;
} Up;

/* The state after one tile: the Qu tile walks Q then U. -1: none; -2: malformed. */
static inline int64_t up_step(const Dawg *d, int64_t s, int code)
{
    if (s < 0)
        return s;
    s = dawg_step(d, (uint32_t)s, code);
    if (code == UP_Q && s >= 0)
        s = dawg_step(d, (uint32_t)s, UP_U);
    return s;
}

static inline int up_score(const Up *u, int length, int hsum, int flat, int qu)
{
    return flat ? 2 * length + (qu ? u->qu_bonus : 0) : hsum;
}

/* engine.upwords.only_pluralises: a lone S on the empty square i forms at least one word and
 * every word it forms is just a plural (right after a word of 2+ letters not ending in S,
 * nothing after it). */
static int up_only_pluralises(int n, const uint8_t *cells, int i)
{
    int r = i / n, c = i % n, plural = 0, other = 0;
    for (int k = 0; k < 2; k++) {
        int step = k ? n : 1, before = k ? r : c, after = k ? n - 1 - r : n - 1 - c;
        int has_prev = before >= 1 && cells[i - step];
        int has_next = after >= 1 && cells[i + step];
        if (!has_prev && !has_next)
            continue; /* no word along this line */
        if (has_prev && !has_next && before >= 2 && cells[i - 2 * step] &&
            (cells[i - step] & LETTER_MASK) != UP_S)
            plural = 1;
        else
            other = 1;
    }
    return plural && !other;
}

static void up_finish(Up *u, int start, int end, int total, int ntiles)
{
    int length = end - start, base = u->base;
    for (int k = 0; k < u->nruns; k++) {
        int a = u->runs[k][0], b = u->runs[k][1];
        if (a >= start && b < end) {
            int all = 1;
            for (int c = a; c <= b && all; c++) {
                int hit = 0;
                for (int j = 0; j < u->nplaced; j++)
                    hit |= u->placed[j].pos == base + c && u->cells[base + c];
                all = hit;
            }
            if (all)
                return; /* covers every letter of an existing word */
        }
    }
    if (ntiles == 1) {
        int p = u->placed[0].pos, code = u->placed[0].code;
        const UpCross *cr = &u->cross[p];
        if (length < 2)
            return; /* no word this way: the other view has it */
        if (u->down && cr->has)
            return; /* forms words both ways: found across */
        if (u->plural_rule && code == UP_S && !u->cells[p] && up_only_pluralises(u->n, u->cells, p))
            return; /* only pluralises (engine.upwords.only_pluralises) */
    }
    if (u->empty && ntiles < 2)
        return;
    if (ntiles == u->rack_size)
        total += u->bonus;
    PyObject *placed = PyTuple_New(u->nplaced);
    if (!placed) {
        u->err = 1;
        return;
    }
    for (int j = 0; j < u->nplaced; j++) {
        PyObject *t = Py_BuildValue("(ii)", u->placed[j].pos, u->placed[j].code);
        if (!t) {
            Py_DECREF(placed);
            u->err = 1;
            return;
        }
        PyTuple_SET_ITEM(placed, j, t);
    }
    PyObject *play = Py_BuildValue("(iOiiiN)", total, u->down ? Py_True : Py_False, u->row, start,
                                   length, placed);
    if (!play || PyList_Append(u->plays, play) < 0)
        u->err = 1;
    Py_XDECREF(play);
}

static void up_dfs(Up *u, int c, int start, int64_t s, int ntiles, int hsum, int flat, int qu,
                   int xtot, int touched)
{
    int n = u->n, base = u->base;
    if (c == n || !u->cells[base + c]) {
        if (ntiles && touched && (u->d->mask[s] & 1u) && c - start >= 1) {
            int length = c - start;
            int main = length >= 2 ? up_score(u, length, hsum, flat, qu) : 0;
            up_finish(u, start, c, main + xtot, ntiles);
            if (u->err)
                return;
        }
        if (c == n)
            return;
    }
    int left = u->rack_tiles - ntiles;
    if (!touched) {
        int need = u->nxt[c] - c + ((u->nxt[c] < n && u->cells[base + u->nxt[c]]) ? 0 : 1);
        if (u->nxt[c] == n || need > left)
            return;
    }
    int i = base + c, here = u->cells[i], h = u->heights[i];
    if (here) { /* keep the stack as it is */
        int64_t t = up_step(u->d, s, here);
        if (t == -2) {
            u->err = 2;
            return;
        }
        if (t >= 0)
            up_dfs(u, c + 1, start, t, ntiles, hsum + h, flat && h == 1, qu || here == UP_Q, xtot, 1);
        if (u->err || h >= u->max_h)
            return;
    }
    if (!left)
        return;
    const UpCross *cr = &u->cross[i];
    uint32_t allowed = cr->has ? cr->mask : ALL_LETTERS;
    int nh = h + 1;
    for (int code = 1; code < 27; code++) {
        if (!u->rack[code] || !((allowed >> code) & 1u) || code == here)
            continue;
        int64_t t = up_step(u->d, s, code);
        if (t == -2) {
            u->err = 2;
            return;
        }
        if (t < 0)
            continue;
        int x = xtot;
        if (cr->has)
            x += up_score(u, cr->length, cr->hsum + nh, cr->flat && nh == 1, cr->qu || code == UP_Q);
        u->rack[code]--;
        u->placed[u->nplaced].pos = i;
        u->placed[u->nplaced].code = code;
        u->nplaced++;
        up_dfs(u, c + 1, start, t, ntiles + 1, hsum + nh, flat && nh == 1, qu || code == UP_Q, x,
               touched || u->touch[c]);
        u->nplaced--;
        u->rack[code]++;
        if (u->err)
            return;
    }
}

/* upwords(n, cells, heights, starts, rack, rack_size, bonus, max_height, qu_bonus, plural_rule,
 *         dmask, dfirst, dchild, droot[, clock, deadline]) -> plays, as engine.upwords.generate
 * emits them. With clock (time.monotonic) and deadline, TimeoutError once it has passed,
 * checked before each start square's walk. */
static PyObject *upwords(PyObject *self, PyObject *args)
{
    int n, rack_size, bonus, max_h, qu_bonus, plural_rule;
    unsigned int droot;
    Py_buffer cells = {0}, heights = {0}, starts = {0}, rack = {0}, dmask = {0}, dfirst = {0}, dchild = {0};
    Py_buffer *bufs[] = {&cells, &heights, &starts, &rack, &dmask, &dfirst, &dchild};
    PyObject *plays = NULL, *result = NULL;
    uint8_t *vbuf = NULL;
    UpCross *cross = NULL;
    Up *u = NULL;
    Dawg d;
    PyObject *clock = NULL;
    double deadline = 0.0;
    (void)self;
    if (!PyArg_ParseTuple(args, "iy*y*y*y*iiiipy*y*y*I|Od:upwords", &n, &cells, &heights, &starts, &rack,
                          &rack_size, &bonus, &max_h, &qu_bonus, &plural_rule, &dmask, &dfirst, &dchild,
                          &droot, &clock, &deadline))
        return NULL;
    if (clock == Py_None)
        clock = NULL;
    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "board size %d out of range 1..%d", n, MAX_N);
        goto done;
    }
    Py_ssize_t nn = (Py_ssize_t)n * n;
    if (!need_len("cells", &cells, nn, 1) || !need_len("heights", &heights, nn, 1) ||
        !need_len("rack", &rack, 27, 4))
        goto done;
    if (starts.len % 4 || dmask.len % 4 || dfirst.len != dmask.len || dchild.len % 4 ||
        (Py_ssize_t)droot >= dmask.len / 4) {
        PyErr_SetString(PyExc_ValueError, "start squares and DAWG arrays must hold 4-byte items, root in range");
        goto done;
    }
    const uint8_t *bc = cells.buf, *bh = heights.buf;
    const int32_t *rk = rack.buf, *st = starts.buf;
    int empty = 1;
    for (Py_ssize_t i = 0; i < nn; i++) {
        if (bc[i] > 26 || bh[i] > 100) {
            PyErr_Format(PyExc_ValueError, "cells[%zd] = %d / heights %d: not a stack", i, bc[i], bh[i]);
            goto done;
        }
        empty &= !bc[i];
    }
    for (Py_ssize_t k = 0; k < starts.len / 4; k++)
        if (st[k] < 0 || st[k] >= nn) {
            PyErr_Format(PyExc_ValueError, "start square %d off the board", st[k]);
            goto done;
        }
    d.mask = dmask.buf;
    d.first = dfirst.buf;
    d.child = dchild.buf;
    d.nstates = dmask.len / 4;
    d.nedges = dchild.len / 4;
    u = PyMem_Calloc(1, sizeof(Up));
    vbuf = PyMem_Malloc((size_t)nn * 2);
    cross = PyMem_Malloc(sizeof(UpCross) * (size_t)nn);
    plays = PyList_New(0);
    if (!u || !vbuf || !cross || !plays) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    u->n = n;
    u->empty = empty;
    u->rack_size = rack_size;
    u->bonus = bonus;
    u->max_h = max_h;
    u->qu_bonus = qu_bonus;
    u->plural_rule = plural_rule;
    u->plays = plays;
    u->d = &d;
    for (int i = 0; i < 27; i++) {
        if (rk[i] < 0 || rk[i] > 1000) {
            PyErr_SetString(PyExc_ValueError, "rack counts must be 0..1000");
            goto done;
        }
        u->rack[i] = rk[i];
        u->rack_tiles += rk[i];
    }
    uint8_t *vc = vbuf, *vh = vbuf + nn;
    for (int down = 0; down < 2 && !u->err; down++) {
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                int from = down ? c * n + r : r * n + c;
                vc[r * n + c] = bc[from];
                vh[r * n + c] = bh[from];
            }
        /* the cross-checks of this view */
        for (int i = 0; i < nn; i++) {
            UpCross *x = &cross[i];
            int r = i / n;
            x->has = (r > 0 && vc[i - n]) || (r < n - 1 && vc[i + n]);
            if (!x->has)
                continue;
            int top = i, bottom = i;
            while (top >= n && vc[top - n])
                top -= n;
            while (bottom < n * (n - 1) && vc[bottom + n])
                bottom += n;
            x->length = 1;
            x->hsum = 0;
            x->flat = 1;
            x->qu = 0;
            for (int j = top; j <= bottom; j += n) {
                if (j == i)
                    continue;
                x->length++;
                x->hsum += vh[j];
                x->flat &= vh[j] == 1;
                x->qu |= vc[j] == UP_Q;
            }
            x->mask = 0;
            int64_t s = droot;
            for (int j = top; j < i; j += n)
                s = up_step(&d, s, vc[j]);
            if (s == -2)
                u->err = 2;
            if (s < 0)
                continue;
            for (int code = 1; code < 27; code++) {
                int64_t t = up_step(&d, s, code);
                for (int j = i + n; j <= bottom; j += n)
                    t = up_step(&d, t, vc[j]);
                if (t == -2)
                    u->err = 2;
                if (t >= 0 && (d.mask[t] & 1u))
                    x->mask |= 1u << code;
            }
        }
        u->down = down;
        u->cells = vc;
        u->heights = vh;
        u->cross = cross;
        for (int row = 0; row < n && !u->err; row++) {
            int base = row * n;
            u->base = base;
            u->row = row;
            for (int c = 0; c < n; c++) {
                if (empty) {
                    int hit = 0;
                    for (Py_ssize_t k = 0; k < starts.len / 4; k++) {
                        int sq = st[k], v = down ? (sq % n) * n + sq / n : sq;
                        hit |= v == base + c;
                    }
                    u->touch[c] = (uint8_t)hit;
                } else {
                    u->touch[c] = vc[base + c] || (c > 0 && vc[base + c - 1]) ||
                                  (c < n - 1 && vc[base + c + 1]) || cross[base + c].has;
                }
            }
            u->nxt[n] = n;
            for (int c = n - 1; c >= 0; c--)
                u->nxt[c] = u->touch[c] ? c : u->nxt[c + 1];
            u->nruns = 0;
            for (int c = 0; c < n;) {
                if (vc[base + c]) {
                    int e = c;
                    while (e + 1 < n && vc[base + e + 1])
                        e++;
                    if (e > c) {
                        u->runs[u->nruns][0] = c;
                        u->runs[u->nruns][1] = e;
                        u->nruns++;
                    }
                    c = e + 1;
                } else {
                    c++;
                }
            }
            for (int start = 0; start < n && !u->err; start++) {
                if (start > 0 && vc[base + start - 1])
                    continue; /* a word cannot start right after a tile */
                if (clock) {
                    PyObject *now = PyObject_CallNoArgs(clock);
                    double t = now ? PyFloat_AsDouble(now) : -1.0;
                    Py_XDECREF(now);
                    if (t == -1.0 && PyErr_Occurred()) {
                        u->err = 1;
                        break;
                    }
                    if (t > deadline) {
                        PyErr_SetString(PyExc_TimeoutError, "the search ran past its deadline");
                        u->err = 1;
                        break;
                    }
                }
                up_dfs(u, start, start, droot, 0, 0, 1, 0, 0, 0);
            }
        }
    }
    if (u->err == 2)
        PyErr_SetString(PyExc_ValueError, "malformed DAWG: edge or state out of range");
    if (!u->err)
    {
        Py_INCREF(plays);
        result = plays;
    }
done:
    Py_XDECREF(plays);
    PyMem_Free(u);
    PyMem_Free(vbuf);
    PyMem_Free(cross);
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i]->obj)
            PyBuffer_Release(bufs[i]);
    return result;
}

static void anagrams_free(Packed *p)
{
    PyMem_RawFree(p->akey);
    PyMem_RawFree(p->aval);
    PyMem_RawFree(p->atext);
    p->akey = NULL;
    p->aval = NULL;
    p->atext = NULL;
}

static void packed_free(PyObject *capsule)
{
    Packed *p = PyCapsule_GetPointer(capsule, PACKED_NAME);
    if (p) {
        PyMem_RawFree(p->edges);
        PyMem_RawFree(p->reach);
        PyMem_RawFree(p->bloom);
        anagrams_free(p);
        PyMem_RawFree(p);
    }
}

/* The slot of ``key`` in p->akey: its own, or the empty one where it would go. */
static uint64_t anagram_slot(const Packed *p, uint64_t key)
{
    key = key ? key : 1;
    uint64_t i = key & p->amask;
    while (p->akey[i] && p->akey[i] != key)
        i = (i + 1) & p->amask;
    return i;
}

/* What pack() does with each word of the DAWG (word_entries), in three passes: COUNT the
 * filter's entries and the words of ANA_MIN letters or more; FILTER: add the entries, and
 * count each long word into its slot of p->akey (aval = words | length << 8 until the groups
 * are laid out); GROUP: copy each long word into its group in p->atext. */
enum { COUNT, FILTER, GROUP };

typedef struct {
    Py_ssize_t entries, words; /* COUNT's */
    int clash;                 /* FILTER: a slot's words of two lengths, or more than 255 */
} Words;

static void word_found(Packed *p, int pass, Words *w, const int *path, int len, uint64_t key)
{
    if (pass == COUNT || pass == FILTER) {
        uint32_t done = 0;
        for (int i = 0; i < len; i++) {
            if ((done >> path[i]) & 1u)
                continue;
            done |= 1u << path[i];
            if (pass == FILTER)
                bloom_add(p, key - p->letter_key[path[i]]);
            else
                w->entries++;
        }
    }
    if (len < ANA_MIN)
        return;
    if (pass == COUNT) {
        w->words++;
    } else if (pass == FILTER && p->akey) {
        uint64_t j = anagram_slot(p, key);
        if (!p->akey[j]) {
            p->akey[j] = key ? key : 1;
            p->aval[j] = (uint32_t)len << 8;
        }
        if ((int)(p->aval[j] >> 8) != len || (p->aval[j] & 255) == 255)
            w->clash = 1;
        else
            p->aval[j]++;
    } else if (pass == GROUP && p->atext) {
        uint8_t *grp = p->atext + p->aval[anagram_slot(p, key)];
        for (int i = 0; i < len; i++)
            grp[2 + grp[0] * len + i] = (uint8_t)path[i];
        grp[0]++;
    }
}

/* Every word of the DAWG, depth first, in alphabetical order, to word_found. 0 on success; -1:
 * an edge or state out of range, -2: a path longer than MAX_N letters (a cycle). Needs no
 * interpreter lock. */
static int word_entries(Packed *p, const Dawg *d, uint32_t root, int pass, Words *w)
{
    uint32_t state[MAX_N + 1];
    int code[MAX_N + 1], path[MAX_N + 1];
    uint64_t key[MAX_N + 1];
    int depth = 0;
    state[0] = root;
    code[0] = 0;
    key[0] = 0;
    for (;;) {
        uint32_t m = d->mask[state[depth]];
        int c = code[depth] + 1;
        while (c <= 26 && !((m >> c) & 1u))
            c++;
        if (c > 26) { /* this state's letters are done */
            if (depth == 0)
                return 0;
            depth--;
            continue;
        }
        code[depth] = c;
        int64_t next = dawg_step(d, state[depth], c);
        if (next < 0)
            return -1;
        if (depth == MAX_N)
            return -2;
        path[depth] = c;
        key[depth + 1] = key[depth] + p->letter_key[c];
        state[++depth] = (uint32_t)next;
        code[depth] = 0;
        if (d->mask[next] & 1u) /* a word: path[0..depth) */
            word_found(p, pass, w, path, depth, key[depth]);
    }
}

/* The words' letters (see Packed.bloom and Packed.akey) from the DAWG: 0 on success, 1 out of
 * memory for the filter, or word_entries' error. When the words do not fit the groups' layout
 * (a slot's words of two lengths, more than 255 anagrams, more than 4 GB) or memory for them
 * runs out, the groups are left out: the search then walks for the plays of the whole rack.
 * Needs no interpreter lock. */
static int words_of(Packed *p, const Dawg *d, uint32_t root)
{
    Words w = {0};
    int why = word_entries(p, d, root, COUNT, &w);
    if (why)
        return why;
    p->nblocks = (uint64_t)w.entries * 12 / 512 + 1; /* 12 bits an entry */
    p->bloom = p->nblocks > UINT32_MAX ? NULL : PyMem_RawCalloc((size_t)p->nblocks * 8, sizeof(uint64_t));
    if (!p->bloom)
        return 1;
    uint64_t nslots = 1, total = 0;
    while (nslots < (uint64_t)w.words + (uint64_t)w.words / 8 + 1)
        nslots <<= 1; /* a load of at most 8/9: a lookup always meets an empty slot */
    p->akey = PyMem_RawCalloc((size_t)nslots, sizeof(uint64_t));
    p->aval = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)nslots);
    p->amask = nslots - 1;
    if (!p->akey || !p->aval)
        anagrams_free(p); /* the table is optional: without it the walk finds those plays */
    if ((why = word_entries(p, d, root, FILTER, &w)) || !p->akey)
        return why;
    for (uint64_t j = 0; j <= p->amask; j++)
        if (p->akey[j]) /* aval: words | length << 8 */
            total += 2 + (uint64_t)(p->aval[j] & 255) * (p->aval[j] >> 8);
    if (w.clash || total > UINT32_MAX) {
        anagrams_free(p);
        return 0;
    }
    if (!(p->atext = PyMem_RawCalloc((size_t)(total ? total : 1), 1))) {
        anagrams_free(p);
        return 0;
    }
    total = 0;
    for (uint64_t j = 0; j <= p->amask; j++)
        if (p->akey[j]) { /* each group's offset, and its header: no words yet, their length */
            uint32_t v = p->aval[j];
            p->aval[j] = (uint32_t)total;
            p->atext[total + 1] = (uint8_t)(v >> 8);
            total += 2 + (uint64_t)(v & 255) * (v >> 8);
        }
    return word_entries(p, d, root, GROUP, &w);
}

/* pack(mask, first, child, root) -> an opaque copy of a GADDAG for generate(): every edge
 * holds the mask and first-edge index of the state it leads to (see Node). Every state's
 * edges and every edge's state are checked to be in range here, once. */
static PyObject *pack(PyObject *self, PyObject *args)
{
    Py_buffer mask = {0}, first = {0}, child = {0}, dmask = {0}, dfirst = {0}, dchild = {0};
    unsigned int root, droot = 0;
    PyObject *result = NULL;
    Packed *p = NULL;
    uint32_t *state_reach = NULL, *stack = NULL;
    uint8_t *seen = NULL;
    (void)self;
    if (PyTuple_GET_SIZE(args) != 4 && PyTuple_GET_SIZE(args) != 8) { /* a DAWG in part reads no words */
        PyErr_SetString(PyExc_TypeError, "pack() takes the GADDAG's 4 arrays and root, or those and the DAWG's");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*y*y*I|y*y*y*I:pack", &mask, &first, &child, &root, &dmask, &dfirst,
                          &dchild, &droot))
        return NULL;
    Py_ssize_t nstates = mask.len / 4, nedges = child.len / 4;
    const uint32_t *mk = mask.buf, *fi = first.buf, *ch = child.buf;
    if (mask.len % 4 || first.len != mask.len || child.len % 4 || (Py_ssize_t)root >= nstates ||
        nedges > (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "GADDAG arrays: 4-byte items, as many masks as firsts, root in range");
        goto done;
    }
    for (Py_ssize_t s = 0; s < nstates; s++)
        if ((Py_ssize_t)fi[s] + POPCOUNT(mk[s] & 0x0FFFFFFEu) > nedges) {
            PyErr_Format(PyExc_ValueError, "malformed GADDAG: state %zd has edges out of range", s);
            goto done;
        }
    p = PyMem_RawCalloc(1, sizeof(Packed));
    if (!p || !(p->edges = PyMem_RawMalloc(sizeof(Node) * (size_t)(nedges ? nedges : 1)))) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t e = 0; e < nedges; e++) {
        if ((Py_ssize_t)ch[e] >= nstates) {
            PyErr_Format(PyExc_ValueError, "malformed GADDAG: edge %zd leads out of range", e);
            goto done;
        }
        p->edges[e].mask = mk[ch[e]];
        p->edges[e].first = fi[ch[e]];
    }
    p->nedges = nedges;
    p->root.mask = mk[root];
    p->root.first = fi[root];
    /* each state's letters below it (its edges' letters and their states'), depth first from
     * the root (the GADDAG is acyclic; a state met twice is done once) */
    state_reach = PyMem_RawCalloc((size_t)(nstates ? nstates : 1), sizeof(uint32_t));
    seen = PyMem_RawCalloc((size_t)(nstates ? nstates : 1), 1);
    stack = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)(nstates ? nstates : 1));
    p->reach = PyMem_RawMalloc(sizeof(uint32_t) * (size_t)(nedges ? nedges : 1));
    if (!state_reach || !seen || !stack || !p->reach) {
        PyErr_NoMemory();
        goto done;
    }
    {
        Py_ssize_t sp = 0;
        stack[sp++] = root;
        seen[root] = 1; /* 1: on the stack, 2: done */
        while (sp > 0) {
            uint32_t st = stack[sp - 1], m = mk[st] & 0x0FFFFFFEu, acc = 0;
            int pushed = 0;
            Py_ssize_t e = fi[st];
            for (uint32_t bits = m; bits; bits &= bits - 1, e++) {
                uint32_t c = ch[e];
                if (seen[c] == 0) { /* one child at a time: the stack holds a path from the root */
                    if (sp >= nstates) {
                        PyErr_SetString(PyExc_ValueError, "malformed GADDAG: a cycle");
                        goto done;
                    }
                    seen[c] = 1;
                    stack[sp++] = c;
                    pushed = 1;
                    break;
                } else if (seen[c] == 1) {
                    PyErr_SetString(PyExc_ValueError, "malformed GADDAG: a cycle");
                    goto done;
                } else {
                    acc |= state_reach[c] | (bits & (0u - bits) & ALL_LETTERS & ~(1u << SEP));
                }
            }
            if (pushed)
                continue; /* that child first; this state is looked at again once it is done */
            state_reach[st] = acc;
            seen[st] = 2;
            sp--;
        }
    }
    for (Py_ssize_t e = 0; e < nedges; e++)
        p->reach[e] = state_reach[ch[e]];
    for (int c = 0; c < 27; c++)
        p->letter_key[c] = hash64(0x2545f4914f6cdd1dull * (uint64_t)(c + 1));
    if (dmask.obj) { /* the words' letters, sized at 12 bits an entry */
        Dawg d = {dmask.buf, dfirst.buf, dchild.buf, dmask.len / 4, dchild.len / 4};
        if (dmask.len % 4 || dfirst.len != dmask.len || dchild.len % 4 || (Py_ssize_t)droot >= d.nstates) {
            PyErr_SetString(PyExc_ValueError, "DAWG arrays: 4-byte items, as many masks as firsts, root in range");
            goto done;
        }
        int why;
        Py_BEGIN_ALLOW_THREADS /* tens of milliseconds: a service's other threads go on */
        why = words_of(p, &d, droot);
        Py_END_ALLOW_THREADS
        if (why) {
            if (why == 1)
                PyErr_NoMemory();
            else
                PyErr_SetString(PyExc_ValueError, why == -1 ? "malformed DAWG: edge or state out of range"
                                                            : "malformed DAWG: a path longer than 64 letters (a cycle)");
            goto done;
        }
    }
    result = PyCapsule_New(p, PACKED_NAME, packed_free);
    if (result)
        p = NULL;
done:
    PyMem_RawFree(state_reach);
    PyMem_RawFree(seen);
    PyMem_RawFree(stack);
    if (p) {
        PyMem_RawFree(p->edges);
        PyMem_RawFree(p->reach);
        PyMem_RawFree(p->bloom);
        anagrams_free(p);
        PyMem_RawFree(p);
    }
    PyBuffer_Release(&mask);
    PyBuffer_Release(&first);
    PyBuffer_Release(&child);
    if (dmask.obj) {
        PyBuffer_Release(&dmask);
        PyBuffer_Release(&dfirst);
        PyBuffer_Release(&dchild);
    }
    return result;
}

/* word_letters(packed, letters, blanks) -> whether some word of the packed lexicon may be made
 * of ``letters`` (tile codes 1-26) and ``blanks`` more letters, any (1 or 2; otherwise True):
 * the bounds' question, for tests. */
static PyObject *word_letters_py(PyObject *self, PyObject *args)
{
    PyObject *packed_obj;
    Py_buffer letters = {0};
    int blanks;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy*i:word_letters", &packed_obj, &letters, &blanks))
        return NULL;
    const Packed *p = PyCapsule_GetPointer(packed_obj, PACKED_NAME);
    uint64_t key = 0;
    int ok = p != NULL;
    for (Py_ssize_t i = 0; ok && i < letters.len; i++) {
        int c = ((const uint8_t *)letters.buf)[i];
        if (c < 1 || c > 26) {
            PyErr_Format(PyExc_ValueError, "letters[%zd] = %d is not a letter's code (1-26)", i, c);
            ok = 0;
        } else {
            key += p->letter_key[c];
        }
    }
    PyBuffer_Release(&letters);
    if (!ok)
        return NULL;
    return PyBool_FromLong(word_letters(p, key, blanks));
}

/* ------------------------------------------------------------------ leave values in C */

/* A game's leave values (engine.strategy.leaves.LeaveValues) held in C, so a rack's sub-rack
 * values are computed here instead of by a table built in Python for every new rack (the
 * rollout's cost). A leave is worth its table entry when it has one, else the model's sum
 * of the weights of its features: each tile held once, twice, three times; the
 * vowel/consonant counts; Q with U. The table is an open-addressed hash on the leave's tiles
 * (their ids + 1, five bits each, in tile order: up to 12 tiles in a 64-bit key). */
#define LEAVES_NAME "engine._fastgen.Leaves"
#define VC_MAX 16

typedef struct {
    int32_t tile_w[27][3];
    int32_t vc_w[VC_MAX][VC_MAX];
    int32_t qu;
    uint64_t *keys; /* 0: an empty slot (no leave has the key 0: ids + 1 are never 0) */
    int32_t *vals;
    size_t mask;    /* capacity - 1, a power of two */
} Leaves;

/* The key of the counts of tiles ``held`` (ascending tile ids, ``nheld`` of them); 0 when
 * more than 12 tiles (no table entry is that long). */
static uint64_t leave_key(const int *counts, const int *held, int nheld)
{
    uint64_t k = 0;
    int tiles = 0;
    for (int j = 0; j < nheld; j++) {
        int t = held[j];
        for (int c = 0; c < counts[t]; c++) {
            if (++tiles > 12)
                return 0;
            k = (k << 5) | (uint64_t)(t + 1);
        }
    }
    return k;
}

static const int VOWEL[27] = {[1] = 1, [5] = 1, [9] = 1, [15] = 1, [21] = 1};

/* LeaveValues.milli of ``counts`` (only the tiles ``held`` may be non-zero): the empty leave
 * is 0; a table entry; else the model. */
static int32_t leave_milli(const Leaves *lv, const int *counts, const int *held, int nheld)
{
    uint64_t k = leave_key(counts, held, nheld);
    if (k == 0) {
        int any = 0;
        for (int j = 0; j < nheld; j++)
            any |= counts[held[j]];
        if (!any)
            return 0;
    } else {
        for (size_t s = hash64(k) & lv->mask;; s = (s + 1) & lv->mask) {
            if (lv->keys[s] == k)
                return lv->vals[s];
            if (lv->keys[s] == 0)
                break;
        }
    }
    int32_t sum = 0;
    int vowels = 0, consonants = 0;
    for (int j = 0; j < nheld; j++) {
        int t = held[j], n = counts[t];
        if (!n)
            continue;
        for (int level = 0; level < n && level < 3; level++)
            sum += lv->tile_w[t][level];
        if (VOWEL[t])
            vowels += n;
        else if (t)
            consonants += n;
    }
    if ((vowels || consonants) && vowels < VC_MAX && consonants < VC_MAX)
        sum += lv->vc_w[vowels][consonants];
    if (counts[17] && counts[21])
        sum += lv->qu;
    return sum;
}

static void leaves_free(PyObject *capsule)
{
    Leaves *lv = PyCapsule_GetPointer(capsule, LEAVES_NAME);
    if (lv) {
        PyMem_RawFree(lv->keys);
        PyMem_RawFree(lv->vals);
        PyMem_RawFree(lv);
    }
}

/* leaves(tile_w, vc_w, qu, table_counts, table_values) -> an opaque copy of the values:
 * tile_w 27 x 3 int32 (tile, level), vc_w 16 x 16 int32 (vowels, consonants), table_counts
 * 27 int32 counts per entry, table_values one int32 per entry. */
static PyObject *leaves(PyObject *self, PyObject *args)
{
    Py_buffer tw = {0}, vc = {0}, tc = {0}, tv = {0};
    int qu;
    PyObject *result = NULL;
    Leaves *lv = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*iy*y*:leaves", &tw, &vc, &qu, &tc, &tv))
        return NULL;
    Py_ssize_t entries = tv.len / 4;
    if (!need_len("tile_w", &tw, 27 * 3, 4) || !need_len("vc_w", &vc, VC_MAX * VC_MAX, 4) ||
        !need_len("table_counts", &tc, entries * 27, 4) || tv.len % 4)
        goto done;
    size_t cap = 16;
    while (cap < (size_t)entries * 2 + 16)
        cap *= 2;
    lv = PyMem_RawCalloc(1, sizeof(Leaves));
    if (!lv || !(lv->keys = PyMem_RawCalloc(cap, sizeof(uint64_t))) ||
        !(lv->vals = PyMem_RawCalloc(cap, sizeof(int32_t)))) {
        PyErr_NoMemory();
        goto done;
    }
    lv->mask = cap - 1;
    memcpy(lv->tile_w, tw.buf, sizeof lv->tile_w);
    memcpy(lv->vc_w, vc.buf, sizeof lv->vc_w);
    lv->qu = qu;
    const int32_t *counts = tc.buf, *vals = tv.buf;
    for (Py_ssize_t e = 0; e < entries; e++) {
        int c[27];
        for (int t = 0; t < 27; t++) {
            c[t] = counts[e * 27 + t];
            if (c[t] < 0 || c[t] > 12) {
                PyErr_SetString(PyExc_ValueError, "a table entry's counts must be 0..12");
                goto done;
            }
        }
        static const int every[27] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                      14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
        uint64_t k = leave_key(c, every, 27);
        if (k == 0) {
            PyErr_SetString(PyExc_ValueError, "table entries hold 1 to 12 tiles");
            goto done;
        }
        size_t s = hash64(k) & lv->mask;
        while (lv->keys[s] && lv->keys[s] != k)
            s = (s + 1) & lv->mask;
        lv->keys[s] = k;
        lv->vals[s] = vals[e];
    }
    result = PyCapsule_New(lv, LEAVES_NAME, leaves_free);
    if (result)
        lv = NULL;
done:
    if (lv) {
        PyMem_RawFree(lv->keys);
        PyMem_RawFree(lv->vals);
        PyMem_RawFree(lv);
    }
    PyBuffer_Release(&tw);
    PyBuffer_Release(&vc);
    PyBuffer_Release(&tc);
    PyBuffer_Release(&tv);
    return result;
}

/* What tiles kept are worth once the bag is empty (engine.plays.end_milli): END_NONE nothing;
 * END_GOING_OUT going out 2000 x the unseen tiles' face value, else -2000 x the tiles kept's;
 * END_PER_TILE -1000 x penalty per tile kept. */
#define END_NONE 0
#define END_GOING_OUT 1
#define END_PER_TILE 2

/* subracks(leaves, rack, values, bag_size, end_rule, unseen_face, penalty, exchange_max)
 *   -> (leave, strides, drops, exchange)
 * The values of every sub-rack of ``rack`` (27 int32 counts) as generate() takes them, by
 * the index of the tiles used (engine.plays.subrack_strides): while the bag holds tiles the
 * learned values (``leaves``), once it is empty the end rule's. ``exchange``: the best
 * exchange of 1 to ``exchange_max`` tiles as (leave value, tiles thrown as canonical text),
 * ties to the text first in order (engine.strategy.equity's order), or None. */
static PyObject *subracks(PyObject *self, PyObject *args)
{
    PyObject *cap;
    Py_buffer rack = {0}, values = {0};
    int bag_size, end_rule, penalty, exchange_max;
    long long unseen_face;
    PyObject *result = NULL, *leave = NULL, *strides = NULL, *drops = NULL, *exchange = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy*y*iiLii:subracks", &cap, &rack, &values, &bag_size, &end_rule, &unseen_face,
                          &penalty, &exchange_max))
        return NULL;
    const Leaves *lv = PyCapsule_GetPointer(cap, LEAVES_NAME);
    if (!lv)
        goto done;
    if (!need_len("rack", &rack, 27, 4) || !need_len("values", &values, 27, 4))
        goto done;
    const int32_t *rk = rack.buf, *face = values.buf;
    int32_t st[27] = {0};
    int32_t dr[MAX_N + 1] = {0};
    int held[27], nheld = 0, size = 1, total = 0;
    for (int t = 0; t < 27; t++) {
        if (rk[t] < 0 || rk[t] > MAX_N || (total += rk[t]) > MAX_N) {
            /* text[] and the per-size arrays below hold at most MAX_N tiles */
            PyErr_SetString(PyExc_ValueError, "a rack holds 0..64 tiles");
            goto done;
        }
        if (rk[t]) {
            st[t] = size;
            held[nheld++] = t;
            if ((int64_t)size * (rk[t] + 1) > (1 << 20)) {
                PyErr_SetString(PyExc_ValueError, "too many sub-racks");
                goto done;
            }
            size *= rk[t] + 1;
        }
    }
    leave = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size * 4);
    if (!leave)
        goto done;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(leave);
    int used[27] = {0}, kept[27] = {0};
    int64_t best_by_k[MAX_N + 1];
    int has_k[MAX_N + 1] = {0};
    int ex_i = -1, ntiles = 0;
    int32_t ex_v = 0;
    char ex_text[MAX_N + 1] = "", text[MAX_N + 1];
    for (int i = 0; i < size; i++) {
        if (i) { /* the next index: mixed-radix increment of the tiles used */
            for (int j = 0; j < nheld; j++) {
                int t = held[j];
                if (used[t] < rk[t]) {
                    used[t]++;
                    ntiles++;
                    break;
                }
                ntiles -= used[t];
                used[t] = 0;
            }
        }
        int nkept = 0;
        for (int j = 0; j < nheld; j++) {
            int t = held[j];
            kept[t] = rk[t] - used[t];
            nkept += kept[t];
        }
        int32_t v;
        if (bag_size > 0) {
            v = leave_milli(lv, kept, held, nheld);
        } else if (end_rule == END_GOING_OUT) {
            int64_t f = 0;
            for (int j = 0; j < nheld; j++)
                f += (int64_t)face[held[j]] * kept[held[j]];
            v = (int32_t)(nkept ? -2000 * f : 2000 * unseen_face);
        } else if (end_rule == END_PER_TILE) {
            v = -1000 * penalty * nkept;
        } else {
            v = 0;
        }
        out[i] = v;
        if (i && ntiles <= MAX_N) {
            if (!has_k[ntiles] || v > best_by_k[ntiles])
                best_by_k[ntiles] = v;
            has_k[ntiles] = 1;
        }
        if (ntiles >= 1 && ntiles <= exchange_max && (ex_i < 0 || v >= ex_v)) {
            int k = 0; /* canonical text: letters in order, blanks last */
            for (int t = 1; t < 27; t++)
                for (int c = 0; c < used[t]; c++)
                    text[k++] = (char)('A' + t - 1);
            for (int c = 0; c < used[0]; c++)
                text[k++] = '?';
            text[k] = 0;
            if (ex_i < 0 || v > ex_v || strcmp(text, ex_text) < 0) {
                ex_i = i;
                ex_v = v;
                memcpy(ex_text, text, (size_t)k + 1);
            }
        }
    }
    int64_t top = INT64_MIN;
    for (int k = 0; k <= MAX_N; k++)
        if (has_k[k] && best_by_k[k] > top)
            top = best_by_k[k];
    for (int k = 0; k <= MAX_N; k++)
        if (has_k[k]) { /* whole points below the best leave a play can keep, rounded down */
            int64_t d = top - best_by_k[k];
            dr[k] = (int32_t)(d / 1000);
        }
    strides = PyBytes_FromStringAndSize((const char *)st, sizeof st);
    drops = PyBytes_FromStringAndSize((const char *)dr, sizeof dr);
    if (!strides || !drops)
        goto done;
    if (ex_i >= 0)
        exchange = Py_BuildValue("(is)", ex_v, ex_text);
    else
        exchange = Py_NewRef(Py_None);
    if (!exchange)
        goto done;
    result = PyTuple_Pack(4, leave, strides, drops, exchange);
done:
    Py_XDECREF(leave);
    Py_XDECREF(strides);
    Py_XDECREF(drops);
    Py_XDECREF(exchange);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&values);
    return result;
}

/* ------------------------------------------------------------------ breakdowns */

/* engine.breakdowns.Breakdowns.__call__ for the games without stacks or a Qu tile, the same
 * dicts (keys in the same order, so the JSON is byte for byte the same; tests/test_breakdowns.py
 * compares both writers with the authoritative scorer). The letter dicts and the cross-words are
 * the Python writer's own caches, passed in: a letter it has not written yet is asked of it
 * (``letter(key, square, code, new)``), so what a letter is stays decided in one place. */

static PyObject *K_WORDS, *K_BONUS, *K_TOTAL, *K_WORD, *K_LETTERS, *K_LETTER_TOTAL, *K_MULT, *K_SCORE,
    *K_LETTER, *K_ROW, *K_COL, *K_BLANK, *K_EMPTY;

#define BD_MAX_SQ 4096 /* boards up to 64 x 64 */

typedef struct {
    int n;
    const unsigned char *cells;
    unsigned char *newc; /* the play's tiles by square (0: none) */
    PyObject *letters;   /* dict: letter key -> (dict, points, word multiplier) */
    PyObject *letter_fn;
} BdCtx;

static inline int bd_taken(const BdCtx *c, int i)
{
    return c->cells[i] || c->newc[i];
}

/* The first and last square of the run of tiles through first..last along step. */
static void bd_ends(const BdCtx *c, int first, int last, int step, int *a_out, int *b_out)
{
    int n = c->n, a = first, b = last;
    if (step == 1) {
        int row = first - first % n;
        while (a > row && bd_taken(c, a - 1))
            a--;
        while (b < row + n - 1 && bd_taken(c, b + 1))
            b++;
    } else {
        while (a >= n && bd_taken(c, a - n))
            a -= n;
        while (b + n < n * n && bd_taken(c, b + n))
            b += n;
    }
    *a_out = a;
    *b_out = b;
}

/* The word on squares a..b (step apart); only square ``only`` counts as new when it is >= 0. */
static PyObject *bd_word(const BdCtx *c, int a, int b, int step, int only, long *score)
{
    Py_ssize_t len = (b - a) / step + 1, k = 0;
    PyObject *letters = PyList_New(len), *texts = PyList_New(len), *word = NULL, *text = NULL;
    long total = 0, mult = 1;
    if (!letters || !texts)
        goto fail;
    for (int i = a; i <= b; i += step, k++) {
        int code = (only < 0 || i == only) ? c->newc[i] : 0;
        long key = code ? ((long)i << 8) | (code << 1) | 1 : ((long)i << 8) | (c->cells[i] << 1);
        PyObject *pk = PyLong_FromLong(key), *entry;
        if (!pk)
            goto fail;
        entry = PyDict_GetItemWithError(c->letters, pk);
        if (entry)
            Py_INCREF(entry);
        else if (!PyErr_Occurred())
            entry = PyObject_CallFunction(c->letter_fn, "OiiO", pk, i, code ? code : c->cells[i],
                                          code ? Py_True : Py_False);
        Py_DECREF(pk);
        if (!entry)
            goto fail;
        if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3) {
            Py_DECREF(entry);
            PyErr_SetString(PyExc_TypeError, "a letter entry is (dict, points, multiplier)");
            goto fail;
        }
        PyObject *d = PyTuple_GET_ITEM(entry, 0), *t;
        long p = PyLong_AsLong(PyTuple_GET_ITEM(entry, 1)), m = PyLong_AsLong(PyTuple_GET_ITEM(entry, 2));
        t = PyDict_Check(d) ? PyDict_GetItemWithError(d, K_LETTER) : NULL;
        if (!t || PyErr_Occurred()) {
            Py_DECREF(entry);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a letter dict without its letter");
            goto fail;
        }
        PyList_SET_ITEM(letters, k, Py_NewRef(d));
        PyList_SET_ITEM(texts, k, Py_NewRef(t));
        Py_DECREF(entry);
        total += p;
        mult *= m;
    }
    text = PyUnicode_Join(K_EMPTY, texts);
    if (!text)
        goto fail;
    *score = total * mult;
    word = PyDict_New();
    if (!word || PyDict_SetItem(word, K_WORD, text) < 0 || PyDict_SetItem(word, K_LETTERS, letters) < 0)
        goto fail;
    PyObject *v;
    if (!(v = PyLong_FromLong(total)) || PyDict_SetItem(word, K_LETTER_TOTAL, v) < 0)
        goto fail_v;
    Py_DECREF(v);
    if (!(v = PyLong_FromLong(mult)) || PyDict_SetItem(word, K_MULT, v) < 0)
        goto fail_v;
    Py_DECREF(v);
    if (!(v = PyLong_FromLong(total * mult)) || PyDict_SetItem(word, K_SCORE, v) < 0)
        goto fail_v;
    Py_DECREF(v);
    Py_DECREF(text);
    Py_DECREF(letters);
    Py_DECREF(texts);
    return word;
fail_v:
    Py_XDECREF(v);
fail:
    Py_XDECREF(word);
    Py_XDECREF(text);
    Py_XDECREF(letters);
    Py_XDECREF(texts);
    return NULL;
}

static long bd_attr_long(PyObject *o, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(o, name);
    long x = v ? PyLong_AsLong(v) : -1;
    Py_XDECREF(v);
    return x;
}

/* A Tile's square (row * n + col, from 0) and code (its letter, | BLANK for a blank) on an n x n
 * board, and its ``letter`` text (a new reference) when asked; 0 with an exception set when it
 * is off the board or not a letter. */
static int tile_fields(PyObject *t, long n, int *sq, int *code, PyObject **letter_out)
{
    long row = bd_attr_long(t, K_ROW), col = PyErr_Occurred() ? -1 : bd_attr_long(t, K_COL);
    PyObject *letter = PyErr_Occurred() ? NULL : PyObject_GetAttr(t, K_LETTER);
    PyObject *blank = letter ? PyObject_GetAttr(t, K_BLANK) : NULL;
    int is_blank = blank ? PyObject_IsTrue(blank) : -1;
    Py_UCS4 ch = (letter && PyUnicode_Check(letter) && PyUnicode_GET_LENGTH(letter) > 0)
                     ? PyUnicode_READ_CHAR(letter, 0) : 0;
    Py_XDECREF(blank);
    if (PyErr_Occurred() || is_blank < 0 || row < 1 || row > n || col < 1 || col > n || ch < 'A' || ch > 'Z') {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a tile off the board or not a letter");
        Py_XDECREF(letter);
        return 0;
    }
    *sq = (int)((row - 1) * n + col - 1);
    *code = (int)(ch - 64) | (is_blank ? BLANK : 0);
    if (letter_out)
        *letter_out = letter;
    else
        Py_DECREF(letter);
    return 1;
}

/* Whether breakdown()'s arguments after the tiles are what it needs. */
static int bd_args_ok(long n, PyObject *cells, PyObject *letters, PyObject *crosses, PyObject *bonus)
{
    if (PyBytes_Check(cells) && PyDict_Check(letters) && PyDict_Check(crosses) && PyTuple_Check(bonus) &&
        PyTuple_GET_SIZE(bonus) == 3 && n >= 1 && n <= 64 && n * n <= BD_MAX_SQ && PyBytes_GET_SIZE(cells) == n * n)
        return 1;
    PyErr_SetString(PyExc_TypeError, "breakdown: bad arguments");
    return 0;
}

/* The breakdown of the play of ``nt`` tiles (1-64) on squares sqs[] with codes[] (letter, BLANK
 * for a blank), the other arguments as breakdown()'s, checked by bd_args_ok. */
static PyObject *breakdown_of(long n, PyObject *cells, PyObject *letters, PyObject *crosses, PyObject *letter_fn,
                              PyObject *bonus, long rack_size, const int *sqs, const int *codes, int nt)
{
    if (nt < 1 || nt > 64) {
        PyErr_SetString(PyExc_ValueError, "breakdown: a play of no tile or more than 64");
        return NULL;
    }
    unsigned char newc[BD_MAX_SQ];
    int squares[64], count = 0;
    BdCtx c = {(int)n, (const unsigned char *)PyBytes_AS_STRING(cells), newc, letters, letter_fn};
    PyObject *words = NULL, *out = NULL, *v = NULL;
    memset(newc, 0, (size_t)(n * n));
    for (int k = 0; k < nt; k++) {
        int sq = sqs[k], j = count, seen = 0;
        for (int q = 0; q < count; q++)
            seen |= squares[q] == sq;
        if (!seen) {
            while (j > 0 && squares[j - 1] > sq) { /* insertion: squares stay sorted */
                squares[j] = squares[j - 1];
                j--;
            }
            squares[j] = sq;
            count++;
        }
        newc[sq] = (unsigned char)codes[k];
    }
    int first = squares[0], last = squares[count - 1], down;
    if (count > 1)
        down = first / n != last / n;
    else {
        int col0 = first % n;
        down = !((col0 > 0 && c.cells[first - 1]) || (col0 < n - 1 && c.cells[first + 1]));
    }
    int step = down ? (int)n : 1, cross = down ? 1 : (int)n, a, b;
    long total = 0, score;
    words = PyList_New(0);
    if (!words)
        goto fail;
    bd_ends(&c, first, last, step, &a, &b);
    if (b > a) {
        PyObject *w = bd_word(&c, a, b, step, -1, &score);
        if (!w || PyList_Append(words, w) < 0) {
            Py_XDECREF(w);
            goto fail;
        }
        Py_DECREF(w);
        total += score;
    }
    for (int q = 0; q < count; q++) {
        int i = squares[q];
        PyObject *key = PyLong_FromLong((((long)i << 8 | newc[i]) << 1) | down), *w;
        if (!key)
            goto fail;
        w = PyDict_GetItemWithError(crosses, key);
        if (w)
            Py_INCREF(w);
        else if (!PyErr_Occurred()) {
            bd_ends(&c, i, i, cross, &a, &b);
            w = b > a ? bd_word(&c, a, b, cross, i, &score) : Py_NewRef(Py_None);
            if (w && PyDict_SetItem(crosses, key, w) < 0)
                Py_CLEAR(w);
        }
        Py_DECREF(key);
        if (!w)
            goto fail;
        if (w != Py_None) {
            PyObject *s = PyDict_Check(w) ? PyDict_GetItemWithError(w, K_SCORE) : NULL;
            long sv = s ? PyLong_AsLong(s) : -1;
            if (!s || PyErr_Occurred() || PyList_Append(words, w) < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "a cross-word without its score");
                Py_DECREF(w);
                goto fail;
            }
            total += sv;
        }
        Py_DECREF(w);
    }
    int all = count == rack_size;
    PyObject *bd = PyTuple_GET_ITEM(bonus, all ? 1 : 0);
    long bonus_points = all ? PyLong_AsLong(PyTuple_GET_ITEM(bonus, 2)) : 0;
    if (PyErr_Occurred())
        goto fail;
    out = PyDict_New();
    if (!out || PyDict_SetItem(out, K_WORDS, words) < 0 || PyDict_SetItem(out, K_BONUS, bd) < 0)
        goto fail;
    if (!(v = PyLong_FromLong(total + bonus_points)) || PyDict_SetItem(out, K_TOTAL, v) < 0)
        goto fail;
    Py_DECREF(v);
    Py_DECREF(words);
    return out;
fail:
    Py_XDECREF(v);
    Py_XDECREF(out);
    Py_XDECREF(words);
    return NULL;
}

/* breakdown(tiles, n, cells, letters, crosses, letter, bonus, rack_size) -> the play's breakdown
 * dict. ``cells``: bytes of the board's codes; ``bonus``: (dict for no bonus, dict for the bonus,
 * its points); the rest as engine.breakdowns.Breakdowns holds them. */
static PyObject *breakdown(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "breakdown takes 8 arguments");
        return NULL;
    }
    PyObject *tiles = args[0];
    long n = PyLong_AsLong(args[1]), rack_size = PyLong_AsLong(args[7]);
    if (PyErr_Occurred() || !bd_args_ok(n, args[2], args[3], args[4], args[6]))
        return NULL;
    if (!PyTuple_Check(tiles) || PyTuple_GET_SIZE(tiles) < 1 || PyTuple_GET_SIZE(tiles) > 64) {
        PyErr_SetString(PyExc_TypeError, "breakdown: bad arguments");
        return NULL;
    }
    int sqs[64], codes[64];
    Py_ssize_t nt = PyTuple_GET_SIZE(tiles);
    for (Py_ssize_t k = 0; k < nt; k++)
        if (!tile_fields(PyTuple_GET_ITEM(tiles, k), n, &sqs[k], &codes[k], NULL))
            return NULL;
    return breakdown_of(n, args[2], args[3], args[4], args[5], args[6], rack_size, sqs, codes, (int)nt);
}

/* A list of the squares i, i + step, ..., ``len`` of them. */
static PyObject *squares_list(int i, int step, int len)
{
    PyObject *out = PyList_New(len);
    for (int k = 0; out && k < len; k++) {
        PyObject *v = PyLong_FromLong(i + k * step);
        if (!v) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, k, v);
    }
    return out;
}

/* The run of ``len`` squares from ``i`` by ``step`` spells a word of the DAWG: 1, 0, or -1 (malformed). */
static int run_is_word(const Dawg *d, uint32_t root, const uint8_t *cells, int i, int step, int len)
{
    int64_t s = root;
    for (int k = 0; k < len; k++) {
        int code = cells[i + k * step] & 31;
        if (!code) /* not a letter: no word holds it */
            return 0;
        s = dawg_step(d, (uint32_t)s, code);
        if (s < 0)
            return s == -1 ? 0 : -1;
    }
    return (int)(d->mask[s] & 1u);
}

/* findings(n, cells, dmask, dfirst, dchild, droot) -> (groups, unknown): engine.verify's two scans
 * of a board. ``groups``: the tiles joined across or down, each a sorted list of squares, in order
 * of their first square. ``unknown``: the runs of two or more tiles, across then down (each line
 * from its start), that the DAWG does not hold, each a list of its squares. */
static PyObject *findings(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "findings takes 6 arguments");
        return NULL;
    }
    long n = PyLong_AsLong(args[0]);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    unsigned long root = PyLong_AsUnsignedLong(args[5]);
    if (root == (unsigned long)-1 && PyErr_Occurred())
        return NULL;
    if (!PyBytes_Check(args[1]) || n < 1 || n > MAX_N || PyBytes_GET_SIZE(args[1]) != n * n) {
        PyErr_SetString(PyExc_ValueError, "findings: cells must be n * n bytes, n in 1..64");
        return NULL;
    }
    Py_buffer bufs[3];
    int got = 0;
    PyObject *groups = NULL, *unknown = NULL, *out = NULL;
    int *comp = NULL, *stack = NULL, *size = NULL;
    for (; got < 3; got++)
        if (PyObject_GetBuffer(args[2 + got], &bufs[got], PyBUF_SIMPLE) < 0)
            goto done;
    if (bufs[0].len != bufs[1].len || bufs[0].len % 4 || bufs[2].len % 4 || root >= (unsigned long)(bufs[0].len / 4)) {
        PyErr_SetString(PyExc_ValueError, "findings: DAWG arrays of 4-byte items, as many masks as firsts, root in range");
        goto done;
    }
    Dawg d = {bufs[0].buf, bufs[1].buf, bufs[2].buf, bufs[0].len / 4, bufs[2].len / 4};
    const uint8_t *cells = (const uint8_t *)PyBytes_AS_STRING(args[1]);
    int nn = (int)(n * n), ngroups = 0;
    comp = PyMem_Malloc(sizeof(int) * (size_t)nn * 3);
    if (!comp) {
        PyErr_NoMemory();
        goto done;
    }
    stack = comp + nn;
    size = stack + nn;
    for (int i = 0; i < nn; i++)
        comp[i] = -1;
    for (int i = 0; i < nn; i++) { /* flood fill: a group's number is its first square's turn */
        if (!cells[i] || comp[i] >= 0)
            continue;
        int top = 0, g = ngroups++;
        size[g] = 0;
        comp[i] = g;
        stack[top++] = i;
        while (top) {
            int j = stack[--top], r = j / (int)n, c = j % (int)n;
            int near[4] = {r > 0 ? j - (int)n : -1, r < n - 1 ? j + (int)n : -1, c > 0 ? j - 1 : -1, c < n - 1 ? j + 1 : -1};
            size[g]++;
            for (int k = 0; k < 4; k++)
                if (near[k] >= 0 && cells[near[k]] && comp[near[k]] < 0) {
                    comp[near[k]] = g;
                    stack[top++] = near[k];
                }
        }
    }
    if (!(groups = PyList_New(ngroups)) || !(unknown = PyList_New(0)))
        goto done;
    for (int g = 0; g < ngroups; g++) {
        PyObject *group = PyList_New(size[g]);
        if (!group)
            goto done;
        PyList_SET_ITEM(groups, g, group);
        size[g] = 0; /* now the next place to fill: squares come in order, so each group is sorted */
    }
    for (int i = 0; i < nn; i++) {
        if (comp[i] < 0)
            continue;
        PyObject *v = PyLong_FromLong(i);
        if (!v)
            goto done;
        PyList_SET_ITEM(PyList_GET_ITEM(groups, comp[i]), size[comp[i]]++, v);
    }
    for (int view = 0; view < 2; view++) { /* across (lines are rows), then down (lines are columns) */
        int step = view ? (int)n : 1, next_line = view ? 1 : (int)n;
        for (int line = 0; line < n; line++) {
            int i0 = line * next_line;
            for (int k = 0; k < n;) {
                if (!cells[i0 + k * step]) {
                    k++;
                    continue;
                }
                int from = k;
                while (k < n && cells[i0 + k * step])
                    k++;
                if (k - from < 2)
                    continue;
                int word = run_is_word(&d, (uint32_t)root, cells, i0 + from * step, step, k - from);
                if (word < 0) {
                    PyErr_SetString(PyExc_ValueError, "malformed DAWG: edge or state out of range");
                    goto done;
                }
                if (!word) {
                    PyObject *run = squares_list(i0 + from * step, step, k - from);
                    int failed = !run || PyList_Append(unknown, run) < 0;
                    Py_XDECREF(run);
                    if (failed)
                        goto done;
                }
            }
        }
    }
    out = PyTuple_Pack(2, groups, unknown);
done:
    Py_XDECREF(groups);
    Py_XDECREF(unknown);
    PyMem_Free(comp);
    while (got > 0)
        PyBuffer_Release(&bufs[--got]);
    return out;
}

/* ------------------------------------------------------------------ Moves from ranked plays */

/* moves(cls, ranked, known, tiles_at, names, across, down) -> [cls, ...]: the Moves
 * (engine.plays.Move) of the plays ranked by generate (score, down, row, col, word, keys, ...),
 * made as the dataclass's own __init__ makes them (object.__new__, then object.__setattr__ of
 * each field in ``names``' order: row, col, direction, word, tiles, score) but without a
 * Python call per field: a fifth of the cost. A play's tiles are looked up by key in ``known``
 * (the Tiles of this board size); when one is missing, ``tiles_at(keys)`` makes them. */
static PyObject *moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 7 || !PyType_Check(args[0]) || !PyList_Check(args[1]) || !PyDict_Check(args[2]) ||
        !PyTuple_Check(args[4]) || PyTuple_GET_SIZE(args[4]) != 6) {
        PyErr_SetString(PyExc_TypeError, "moves(cls, ranked list, known dict, tiles_at, 6 names, across, down)");
        return NULL;
    }
    PyTypeObject *cls = (PyTypeObject *)args[0];
    PyObject *ranked = args[1], *known = args[2], *tiles_at = args[3], *names = args[4];
    if (!cls->tp_new) {
        PyErr_SetString(PyExc_TypeError, "moves: cls cannot be instantiated");
        return NULL;
    }
    /* the size once, and each play held: tiles_at is Python code, which could change the list */
    Py_ssize_t count = PyList_GET_SIZE(ranked);
    PyObject *empty = PyTuple_New(0), *out = PyList_New(count), *r = NULL;
    if (!empty || !out)
        goto fail;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (PyList_GET_SIZE(ranked) != count) {
            PyErr_SetString(PyExc_RuntimeError, "moves: the ranked list changed size");
            goto fail;
        }
        r = PyList_GET_ITEM(ranked, i);
        Py_INCREF(r);
        if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) < 6 || !PyTuple_Check(PyTuple_GET_ITEM(r, 5))) {
            PyErr_SetString(PyExc_TypeError, "moves: a ranked play is (score, down, row, col, word, keys, ...)");
            goto fail;
        }
        PyObject *keys = PyTuple_GET_ITEM(r, 5);
        Py_ssize_t k = PyTuple_GET_SIZE(keys);
        PyObject *tiles = PyTuple_New(k);
        if (!tiles)
            goto fail;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *t = PyDict_GetItemWithError(known, PyTuple_GET_ITEM(keys, j));
            if (!t) {
                Py_DECREF(tiles);
                if (PyErr_Occurred())
                    goto fail;
                tiles = NULL;
                break;
            }
            Py_INCREF(t);
            PyTuple_SET_ITEM(tiles, j, t);
        }
        if (!tiles && !(tiles = PyObject_CallOneArg(tiles_at, keys)))
            goto fail;
        int down = PyObject_IsTrue(PyTuple_GET_ITEM(r, 1));
        PyObject *m = down < 0 ? NULL : cls->tp_new(cls, empty, NULL);
        PyObject *values[6] = {PyTuple_GET_ITEM(r, 2), PyTuple_GET_ITEM(r, 3), args[down ? 6 : 5],
                               PyTuple_GET_ITEM(r, 4), tiles, PyTuple_GET_ITEM(r, 0)};
        int bad = !m;
        for (int f = 0; f < 6 && !bad; f++)
            bad = PyObject_GenericSetAttr(m, PyTuple_GET_ITEM(names, f), values[f]) < 0;
        Py_DECREF(tiles);
        if (bad) {
            Py_XDECREF(m);
            goto fail;
        }
        PyList_SET_ITEM(out, i, m);
        Py_CLEAR(r);
    }
    Py_DECREF(empty);
    return out;
fail:
    Py_XDECREF(r);
    Py_XDECREF(empty);
    Py_XDECREF(out);
    return NULL;
}

/* ------------------------------------------------------------------ the answer's plays */

/* Each Move of an answer as the service writes it (app.service.move_payload, the reference:
 * tests/test_payloads.py holds the two equal, key order included): row, col, direction, word,
 * notation, score, tiles_used, tiles, leave, then the breakdown if asked. In Python this took
 * 2-3 us a play, as much as the search of a 20-play answer with no blank. A tile's dict is
 * made once and shared (``tile_dicts``, by the Tile's id: see tile_dict; held by the caller per
 * board size and Qu rule: read-only, as the breakdowns' letters are); the square's text comes
 * from ``across``/``down``, the caller's lists of engine.notation.square_text by square. */

static PyObject *K_DIRECTION, *K_NOTATION, *K_TILES_USED, *K_TILES, *K_LEAVE, *K_BREAKDOWN;

/* The dict of tile ``t`` (a new reference; NULL with an exception set), and in *code its square
 * and tile as ``square << 8 | letter`` (| BLANK for a blank). ``cache`` holds (t, dict, code) by id(t): holding t
 * keeps its id its own, and the search's Tiles are shared (engine.plays.tiles_at), so a tile is
 * looked up by one int, not by its four fields. */
static PyObject *tile_dict(PyObject *t, long n, PyObject *cache, int *code)
{
    PyObject *key = PyLong_FromVoidPtr(t), *out = NULL, *letter = NULL, *text = NULL, *r = NULL, *c = NULL,
             *held = NULL;
    if (!key)
        return NULL;
    PyObject *hit = PyDict_GetItemWithError(cache, key);
    if (hit && PyTuple_Check(hit) && PyTuple_GET_SIZE(hit) == 3 && PyTuple_GET_ITEM(hit, 0) == t &&
        PyLong_CheckExact(PyTuple_GET_ITEM(hit, 2))) {
        long k = PyLong_AsLong(PyTuple_GET_ITEM(hit, 2)), letter_code = k & LETTER_MASK;
        if (k >= 0 && (k >> 8) < n * n && letter_code >= 1 && letter_code <= 26 && !(k & ~(long)(BLANK | LETTER_MASK) & 255)) {
            out = PyTuple_GET_ITEM(hit, 1);
            *code = (int)k;
            Py_INCREF(out);
            goto done;
        }
        PyErr_Clear(); /* not ours: written again below */
    }
    int sq, tc;
    if (PyErr_Occurred() || !tile_fields(t, n, &sq, &tc, &letter))
        goto done;
    *code = sq << 8 | tc;
    text = (tc & BLANK) ? PyObject_CallMethod(letter, "lower", NULL) : Py_NewRef(letter);
    r = PyLong_FromLong(sq / n + 1);
    c = PyLong_FromLong(sq % n + 1);
    out = PyDict_New();
    if (!text || !r || !c || !out || PyDict_SetItem(out, K_ROW, r) < 0 || PyDict_SetItem(out, K_COL, c) < 0 ||
        PyDict_SetItem(out, K_LETTER, text) < 0 ||
        PyDict_SetItem(out, K_BLANK, (tc & BLANK) ? Py_True : Py_False) < 0 ||
        !(held = Py_BuildValue("(OOi)", t, out, *code)) || PyDict_SetItem(cache, key, held) < 0)
        Py_CLEAR(out);
done:
    Py_XDECREF(held);
    Py_XDECREF(r);
    Py_XDECREF(c);
    Py_XDECREF(key);
    Py_XDECREF(text);
    Py_XDECREF(letter);
    return out;
}

/* payloads(moves, rack, n, across, down, tile_dicts, writer, bd_args) -> a list of the moves'
 * dicts. ``rack``: the rack's letters, '?' a blank (the leave is what the tiles leave of it,
 * letters in order then blanks); ``writer``: None (no breakdowns) or the Breakdowns to call, or
 * with ``bd_args`` (a tuple: its compiled writer's arguments after the tiles) breakdown() is
 * called here directly. */
static PyObject *payloads(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 8 || !PyList_Check(args[0]) || !PyUnicode_Check(args[1]) || !PyList_Check(args[3]) ||
        !PyList_Check(args[4]) || !PyDict_Check(args[5]) || (args[7] != Py_None && !PyTuple_Check(args[7]))) {
        PyErr_SetString(PyExc_TypeError, "payloads(moves, rack, n, across, down, tile_dicts, writer, bd_args)");
        return NULL;
    }
    PyObject *moves = args[0], *rack = args[1], *across = args[3], *down = args[4], *cache = args[5],
             *writer = args[6], *bd_args = args[7];
    long n = PyLong_AsLong(args[2]);
    if (PyErr_Occurred())
        return NULL;
    if (n < 1 || n > 64 || n * n > BD_MAX_SQ || PyList_GET_SIZE(across) != n * n || PyList_GET_SIZE(down) != n * n ||
        (bd_args != Py_None && PyTuple_GET_SIZE(bd_args) != 7)) {
        PyErr_SetString(PyExc_ValueError, "payloads: bad board size or breakdown arguments");
        return NULL;
    }
    long bd_rack = 0;
    if (bd_args != Py_None) { /* as breakdown()'s arguments after the tiles: n, cells, ..., rack_size */
        PyObject *const *b = &PyTuple_GET_ITEM(bd_args, 0);
        bd_rack = PyLong_AsLong(b[6]);
        if (PyErr_Occurred() || PyLong_AsLong(b[0]) != n || !bd_args_ok(n, b[1], b[2], b[3], b[5])) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "payloads: the breakdowns are for another board size");
            return NULL;
        }
    }
    int have[27] = {0};
    if (PyUnicode_GET_LENGTH(rack) > 64) {
        PyErr_SetString(PyExc_ValueError, "payloads: a rack of more than 64 tiles");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(rack); i++) {
        Py_UCS4 ch = PyUnicode_READ_CHAR(rack, i);
        if (ch == '?')
            have[0]++;
        else if (ch >= 'A' && ch <= 'Z')
            have[ch - 'A' + 1]++;
        else if (ch >= 'a' && ch <= 'z')
            have[ch - 'a' + 1]++;
        else {
            PyErr_SetString(PyExc_ValueError, "payloads: the rack holds a tile that is not a letter or '?'");
            return NULL;
        }
    }
    Py_ssize_t count = PyList_GET_SIZE(moves);
    PyObject *out = PyList_New(count), *m = NULL, *d = NULL, *tiles = NULL, *list = NULL;
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (PyList_GET_SIZE(moves) != count) {
            PyErr_SetString(PyExc_RuntimeError, "payloads: the list of moves changed size");
            goto fail;
        }
        m = PyList_GET_ITEM(moves, i);
        Py_INCREF(m);
        /* each read only if the one before succeeded: none runs with an exception set */
        PyObject *row = PyObject_GetAttr(m, K_ROW), *col = row ? PyObject_GetAttr(m, K_COL) : NULL,
                 *dir = col ? PyObject_GetAttr(m, K_DIRECTION) : NULL, *word = dir ? PyObject_GetAttr(m, K_WORD) : NULL,
                 *score = word ? PyObject_GetAttr(m, K_SCORE) : NULL, *notation = NULL, *used = NULL, *leave = NULL,
                 *bd = NULL;
        tiles = score ? PyObject_GetAttr(m, K_TILES) : NULL;
        d = PyDict_New();
        int ok = row && col && dir && word && score && tiles && d;
        if (ok && !(PyTuple_Check(tiles) && PyUnicode_Check(dir) && PyUnicode_Check(word))) {
            PyErr_SetString(PyExc_TypeError, "payloads: a move's tiles, direction or word is not a tuple or str");
            ok = 0;
        }
        long r = ok ? PyLong_AsLong(row) : 0, c = ok ? PyLong_AsLong(col) : 0;
        Py_ssize_t nt = ok ? PyTuple_GET_SIZE(tiles) : 0;
        if (ok && (PyErr_Occurred() || r < 1 || r > n || c < 1 || c > n)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "payloads: a move off the board");
            ok = 0;
        }
        if (ok) {
            int is_down = PyUnicode_CompareWithASCIIString(dir, "across") != 0; /* as square_text */
            PyObject *sq = PyList_GET_ITEM(is_down ? down : across, (r - 1) * n + c - 1);
            notation = PyUnicode_Check(sq) ? PyUnicode_FromFormat("%U %U", sq, word) : NULL;
            if (!notation && !PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "payloads: a square's text is not a str");
            used = PyLong_FromSsize_t(nt);
            list = PyList_New(nt);
            ok = notation && used && list;
        }
        int left[27];
        memcpy(left, have, sizeof left);
        int sqs[64], codes[64];
        if (ok && (nt < 1 || nt > 64)) {
            PyErr_SetString(PyExc_ValueError, "payloads: a move of no tile or more than 64");
            ok = 0;
        }
        for (Py_ssize_t k = 0; ok && k < nt; k++) {
            int code = 0;
            PyObject *td = tile_dict(PyTuple_GET_ITEM(tiles, k), n, cache, &code);
            if (!td) {
                ok = 0;
                break;
            }
            PyList_SET_ITEM(list, k, td);
            sqs[k] = code >> 8;
            codes[k] = code & 255;
            if (--left[code & BLANK ? 0 : code & LETTER_MASK] < 0) {
                PyErr_SetString(PyExc_ValueError, "payloads: a move uses a tile its rack does not hold");
                ok = 0;
            }
        }
        if (ok) {
            char text[64 + 1];
            int len = 0;
            for (int l = 1; l <= 26; l++)
                for (int x = 0; x < left[l] && len < 64; x++)
                    text[len++] = (char)('A' + l - 1);
            for (int x = 0; x < left[0] && len < 64; x++)
                text[len++] = '?';
            leave = PyUnicode_FromStringAndSize(text, len);
            ok = leave != NULL;
        }
        if (ok && writer != Py_None) {
            if (bd_args != Py_None) {
                PyObject *const *b = &PyTuple_GET_ITEM(bd_args, 0);
                bd = breakdown_of(n, b[1], b[2], b[3], b[4], b[5], bd_rack, sqs, codes, (int)nt);
            } else {
                bd = PyObject_CallOneArg(writer, m);
            }
            ok = bd != NULL;
        }
        ok = ok && PyDict_SetItem(d, K_ROW, row) == 0 && PyDict_SetItem(d, K_COL, col) == 0 &&
             PyDict_SetItem(d, K_DIRECTION, dir) == 0 && PyDict_SetItem(d, K_WORD, word) == 0 &&
             PyDict_SetItem(d, K_NOTATION, notation) == 0 && PyDict_SetItem(d, K_SCORE, score) == 0 &&
             PyDict_SetItem(d, K_TILES_USED, used) == 0 && PyDict_SetItem(d, K_TILES, list) == 0 &&
             PyDict_SetItem(d, K_LEAVE, leave) == 0 && (!bd || PyDict_SetItem(d, K_BREAKDOWN, bd) == 0);
        Py_XDECREF(row);
        Py_XDECREF(col);
        Py_XDECREF(dir);
        Py_XDECREF(word);
        Py_XDECREF(score);
        Py_XDECREF(notation);
        Py_XDECREF(used);
        Py_XDECREF(leave);
        Py_XDECREF(bd);
        Py_CLEAR(list);
        Py_CLEAR(tiles);
        Py_CLEAR(m);
        if (!ok)
            goto fail;
        PyList_SET_ITEM(out, i, d);
        d = NULL;
    }
    return out;
fail:
    Py_XDECREF(d);
    Py_XDECREF(m);
    Py_XDECREF(tiles);
    Py_XDECREF(list);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"upwords", upwords, METH_VARARGS,
     "upwords(n, cells, heights, starts, rack, rack_size, bonus, max_height, qu_bonus, plural_rule, "
     "dmask, dfirst, dchild, droot) -> plays, as engine.upwords.generate emits them."},
    {"pack", pack, METH_VARARGS,
     "pack(mask, first, child, root[, dmask, dfirst, dchild, droot]) -> the GADDAG packed for generate() "
     "(checked once), with the DAWG's words' letters for the bounds and its long words by their letters."},
    {"word_letters", word_letters_py, METH_VARARGS,
     "word_letters(packed, letters, blanks) -> whether some word may be made of the letters (codes "
     "1-26) and 1 or 2 blanks (a Bloom filter: never False when one can)."},
    {"leaves", leaves, METH_VARARGS,
     "leaves(tile_w, vc_w, qu, table_counts, table_values) -> a game's leave values held in C."},
    {"subracks", subracks, METH_VARARGS,
     "subracks(leaves, rack, values, bag_size, end_rule, unseen_face, penalty, exchange_max) -> "
     "(leave, strides, drops, exchange): a rack's sub-rack values for generate() and its best exchange."},
    {"generate", generate, METH_VARARGS,
     "generate(n, cells, lm, wm, starts, values, rack, rack_size, bonus, views, dmask, dfirst, "
     "dchild, droot, gaddag, keep, prune, rank, scores[, min_length, no_blanks, "
     "square, need]) -> (count, plays, scores)\n\n"
     "The plays of a board's views, as engine.movegen.view_search generates them (see "
     "engine/search/compiled.py)."},
    {"findings", (PyCFunction)(void (*)(void))findings, METH_FASTCALL,
     "findings(n, cells, dmask, dfirst, dchild, droot) -> (groups, unknown): engine.verify's scans of a "
     "board (groups of joined tiles; runs the DAWG does not hold)."},
    {"breakdown", (PyCFunction)(void (*)(void))breakdown, METH_FASTCALL,
     "breakdown(tiles, n, cells, letters, crosses, letter, bonus, rack_size) -> a play's breakdown, as "
     "engine.breakdowns.Breakdowns writes it (games without stacks or a Qu tile)."},
    {"payloads", (PyCFunction)(void (*)(void))payloads, METH_FASTCALL,
     "payloads(moves, rack, n, across, down, tile_dicts, writer, bd_args) -> the moves as the service "
     "writes them (app.service.move_payload)."},
    {"moves", (PyCFunction)(void (*)(void))moves, METH_FASTCALL,
     "moves(cls, ranked, known, tiles_at, names, across, down) -> the Moves of plays ranked by generate "
     "(engine.search.compiled.ranked_moves)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._fastgen",
    "Compiled core of the Scrabble-family move generator (see engine/search/compiled.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastgen(void)
{
#if defined(__POPCNT__) && (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) { /* engine.search then offers the pure-Python reference */
        PyErr_SetString(PyExc_ImportError, "engine._fastgen was built for CPUs with POPCNT (every x86-64 CPU "
                                           "since 2008) and this one has none: the pure-Python search answers");
        return NULL;
    }
#endif
    static const char *names[] = {"words", "all_tiles_bonus", "total", "word", "letters", "letter_total",
                                  "word_multiplier", "score", "letter", "row", "col", "blank", "",
                                  "direction", "notation", "tiles_used", "tiles", "leave", "breakdown"};
    PyObject **keys[] = {&K_WORDS, &K_BONUS, &K_TOTAL, &K_WORD, &K_LETTERS, &K_LETTER_TOTAL, &K_MULT,
                         &K_SCORE, &K_LETTER, &K_ROW, &K_COL, &K_BLANK, &K_EMPTY,
                         &K_DIRECTION, &K_NOTATION, &K_TILES_USED, &K_TILES, &K_LEAVE, &K_BREAKDOWN};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (!(*keys[k] = PyUnicode_InternFromString(names[k])))
            return NULL;
    return PyModule_Create(&module);
}
