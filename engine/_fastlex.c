/* Optional compiled lexicon builder: the same minimal automata as engine.lexicon's pure-Python
 * _minimal_automaton (Daciuk's incremental method), state for state and edge for edge, so the
 * arrays (and the cached file) are identical whichever path built them.
 *
 *     build(words: bytes, gaddag: bool) -> (root, mask, first, child, longest)
 *
 * ``words`` is the sorted, unique, uppercase A-Z words joined by b"\n". With ``gaddag`` the
 * automaton holds rev(w[:i]) + SEP + w[i:] for every split (see engine/lexicon.py) instead of
 * the words. The four arrays come back as bytes of native uint32, ready for array("I").
 * The build runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SEP 27
#define REC 16 /* 15 letters + SEP; strings are zero-padded records of REC codes */

typedef struct {
    uint32_t *mask, *first, *longest, *child;
    size_t n, cap, ne, ecap;
    uint32_t *table; /* open addressing: state id + 1, 0 = empty */
    size_t tcap;
} Builder;

typedef struct {
    int final, n;
    uint8_t codes[SEP + 1];
    uint32_t targets[SEP + 1];
} Node;

static int grow(void **p, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * item);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static uint64_t sig_hash(uint32_t mask, const uint32_t *targets, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ mask;
    for (int i = 0; i < n; i++) {
        h ^= targets[i];
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 29;
    }
    return h;
}

static int rehash(Builder *b) {
    size_t cap = b->tcap ? b->tcap * 2 : 1 << 16;
    uint32_t *t = calloc(cap, sizeof(uint32_t));
    if (!t) return -1;
    for (size_t sid = 0; sid < b->n; sid++) {
        int n = __builtin_popcount(b->mask[sid] & ~1u);
        size_t i = sig_hash(b->mask[sid], b->child + b->first[sid], n) & (cap - 1);
        while (t[i]) i = (i + 1) & (cap - 1);
        t[i] = (uint32_t)sid + 1;
    }
    free(b->table);
    b->table = t;
    b->tcap = cap;
    return 0;
}

/* The state id of ``node``: an equal state already registered, or a new one. -1: no memory. */
static int64_t freeze(Builder *b, const Node *node) {
    uint32_t mask = node->final ? 1u : 0u;
    for (int i = 0; i < node->n; i++) mask |= 1u << node->codes[i];
    if ((b->n + 1) * 2 > b->tcap && rehash(b) < 0) return -1;
    size_t i = sig_hash(mask, node->targets, node->n) & (b->tcap - 1);
    while (b->table[i]) {
        uint32_t sid = b->table[i] - 1;
        if (b->mask[sid] == mask &&
            memcmp(b->child + b->first[sid], node->targets, node->n * sizeof(uint32_t)) == 0)
            return sid;
        i = (i + 1) & (b->tcap - 1);
    }
    if (b->n + 1 > b->cap) { /* the three per-state arrays share one capacity */
        size_t cap = b->cap ? b->cap * 2 : 1024;
        uint32_t *m = realloc(b->mask, cap * 4);
        if (!m) return -1;
        b->mask = m;
        uint32_t *f = realloc(b->first, cap * 4);
        if (!f) return -1;
        b->first = f;
        uint32_t *l = realloc(b->longest, cap * 4);
        if (!l) return -1;
        b->longest = l;
        b->cap = cap;
    }
    if (grow((void **)&b->child, &b->ecap, b->ne + node->n, 4) < 0) return -1;
    uint32_t sid = (uint32_t)b->n++;
    uint32_t best = 0;
    for (int k = 0; k < node->n; k++) {
        uint32_t t = node->targets[k];
        uint32_t l = b->longest[t] + (node->codes[k] != SEP);
        if (l > best) best = l;
    }
    b->mask[sid] = mask;
    b->first[sid] = (uint32_t)b->ne;
    b->longest[sid] = best;
    memcpy(b->child + b->ne, node->targets, node->n * sizeof(uint32_t));
    b->ne += node->n;
    b->table[i] = sid + 1;
    return sid;
}

/* Daciuk's method over ``count`` sorted unique records. Returns the root, -1: no memory. */
static int64_t minimal(Builder *b, const uint8_t *recs, size_t count) {
    Node path[REC + 1];
    int depth = 0; /* path[0..depth] are open */
    const uint8_t *prev = NULL;
    int64_t sid;
    memset(&path[0], 0, sizeof(Node));
    for (size_t r = 0; r < count; r++) {
        const uint8_t *w = recs + r * REC;
        int len = 0;
        while (len < REC && w[len]) len++;
        int p = 0;
        if (prev)
            while (p < depth && prev[p] == w[p]) p++;
        for (int i = depth; i > p; i--) {
            if ((sid = freeze(b, &path[i])) < 0) return -1;
            path[i - 1].targets[path[i - 1].n - 1] = (uint32_t)sid;
        }
        depth = p;
        for (int k = p; k < len; k++) {
            Node *node = &path[depth];
            node->codes[node->n++] = w[k];
            depth++;
            path[depth].final = 0;
            path[depth].n = 0;
        }
        path[depth].final = 1;
        prev = w;
    }
    for (int i = depth; i > 0; i--) {
        if ((sid = freeze(b, &path[i])) < 0) return -1;
        path[i - 1].targets[path[i - 1].n - 1] = (uint32_t)sid;
    }
    return freeze(b, &path[0]);
}

static int cmp_rec(const void *a, const void *b) { return memcmp(a, b, REC); }

/* Parse the words into records (GADDAG strings when ``gaddag``). 0 ok, 1 bad input, -1 memory. */
static int records(const char *data, Py_ssize_t size, int gaddag, uint8_t **out, size_t *count,
                   const char **why) {
    size_t words = 0, splits = 0;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            Py_ssize_t len = i - start;
            if (len > 0) {
                if (len > REC - 1) { *why = "a word is longer than 15 letters"; return 1; }
                words++;
                splits += (size_t)len;
            }
            start = i + 1;
        }
    }
    size_t n = gaddag ? splits : words;
    uint8_t *recs = calloc(n ? n : 1, REC);
    if (!recs) return -1;
    size_t r = 0;
    uint8_t prev[REC] = {0};
    int have_prev = 0;
    start = 0;
    for (Py_ssize_t i = 0; i <= size; i++) {
        if (i < size && data[i] != '\n') continue;
        Py_ssize_t len = i - start;
        const char *w = data + start;
        start = i + 1;
        if (len == 0) continue;
        uint8_t codes[REC] = {0};
        for (Py_ssize_t k = 0; k < len; k++) {
            if (w[k] < 'A' || w[k] > 'Z') { free(recs); *why = "a word has a character other than A-Z"; return 1; }
            codes[k] = (uint8_t)(w[k] - 64);
        }
        if (have_prev && memcmp(prev, codes, REC) >= 0) { free(recs); *why = "the words are not sorted and unique"; return 1; }
        memcpy(prev, codes, REC);
        have_prev = 1;
        if (!gaddag) {
            memcpy(recs + REC * r++, codes, REC);
            continue;
        }
        for (Py_ssize_t s = 1; s <= len; s++) { /* rev(w[:s]) + SEP + w[s:] */
            uint8_t *rec = recs + REC * r++;
            for (Py_ssize_t k = 0; k < s; k++) rec[k] = codes[s - 1 - k];
            if (s < len) {
                rec[s] = SEP;
                memcpy(rec + s + 1, codes + s, (size_t)(len - s));
            }
        }
    }
    if (gaddag) qsort(recs, n, REC, cmp_rec);
    *out = recs;
    *count = n;
    return 0;
}

static PyObject *build(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int gaddag;
    if (!PyArg_ParseTuple(args, "y*p", &buf, &gaddag)) return NULL;
    Builder b;
    memset(&b, 0, sizeof b);
    uint8_t *recs = NULL;
    size_t count = 0;
    const char *why = NULL;
    int rc;
    int64_t root = -1;
    Py_BEGIN_ALLOW_THREADS
    rc = records((const char *)buf.buf, buf.len, gaddag, &recs, &count, &why);
    if (rc == 0) {
        root = minimal(&b, recs, count);
        if (root < 0) rc = -1;
    }
    free(recs);
    free(b.table);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    PyObject *result = NULL;
    if (rc == 1) {
        PyErr_SetString(PyExc_ValueError, why);
    } else if (rc < 0) {
        PyErr_NoMemory();
    } else {
        result = Py_BuildValue("(Ly#y#y#y#)", (long long)root,
                               b.mask ? (const char *)b.mask : "", (Py_ssize_t)(b.n * 4),
                               b.first ? (const char *)b.first : "", (Py_ssize_t)(b.n * 4),
                               b.child ? (const char *)b.child : "", (Py_ssize_t)(b.ne * 4),
                               b.longest ? (const char *)b.longest : "", (Py_ssize_t)(b.n * 4));
    }
    free(b.mask);
    free(b.first);
    free(b.child);
    free(b.longest);
    return result;
}

static PyMethodDef methods[] = {
    {"build", build, METH_VARARGS,
     "build(words: bytes, gaddag: bool) -> (root, mask, first, child, longest): the minimal "
     "automaton of sorted unique A-Z words (or of their GADDAG strings), arrays as uint32 bytes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastlex",
                                    "Compiled lexicon builder (see engine/lexicon.py).", -1, methods};

PyMODINIT_FUNC PyInit__fastlex(void) { return PyModule_Create(&module); }
