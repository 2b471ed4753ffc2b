/* The flat table's sums in C: one shoe's exact outcome counts from a bet set's compiled coefficients.
 *
 * The same arithmetic as FlatTable.evaluate in exactodds/puntobanco/compiled/flat.py (read its
 * docstring first): the shoe's factor rows (12 rows of 7 entries, the rows of
 * exactodds.puntobanco.compiled.factors.factor_rows, made here from the 13 counts: factor_exact,
 * factor_residues; tests/test_native.py holds them to the Python rows' counts), their three outer
 * products, each row's weight as a product of one entry of each, and each column as runs of rows
 * sharing one coefficient c: Σ_c c · Σ_rows weight.
 *
 * A table is handed over once (prepare), checked then (every offset and row number in range, every row
 * a multiset of at most 6 cards, every run well formed), and priced for many shoes with no check per element.
 *
 * Exactness (checked by the caller, flat.native.fits, before it calls flat_sums):
 * - every factor entry, and every entry of an outer product that a row gathers, is a product
 *   of falling factorials with multiplicities adding up to at most 6 (prepare refuses a row of
 *   more cards), so at most N^6 for an N-card shoe, and an entry of m cards at most N^m; the
 *   caller requires N^6 < 2^128, so each fits an unsigned __int128. Entries of more than 6 cards
 *   belong to no multiset, are never gathered, and are not made (OUTER_PRODUCTS);
 * - in 128-bit words a row's weight is the product of its two factors of fewer cards, each of at
 *   most 3 cards (the third has at least as many, and they add up to at most 6), so each at most
 *   N^3 < 2^64, multiplied in 64 bits into an exact 128-bit product, times its factor of the most
 *   cards: modulo 2^128 that is the weight, at most (N)_6 < 2^128 (WIDE_WEIGHT);
 * - a row's weight is at most (N)_6, and the weights of all rows of one block add up to at
 *   most (N)_6 (each multiset has at least one ordering), so a run's sum of weights is at most
 *   3·(N)_6, which the caller requires below 2^128;
 * - a run's sum S = S_hi·2^64 + S_lo is multiplied by its coefficient c (|c| < 2^31) in two
 *   signed __int128 accumulators, hi += c·S_hi and lo += c·S_lo: each product is below 2^95
 *   and a column has fewer than 2^31 runs, so neither accumulator can overflow. The column's
 *   count is hi·2^64 + lo, made a Python integer here.
 * Past that bound, flat_residues takes each count modulo primes below 2^62 (and modulo 2^128, where
 * the same unsigned arithmetic is exact in the ring of integers modulo 2^128) and rebuilds it by the
 * Chinese remainder theorem (Garner's mixed radix, counts_of) from as many moduli as the caller's
 * bound on a count needs (their product above twice it); just past it, 2^128 and one prime below 2^32
 * (its `small` layout: small_weights, walk_small, their comments).
 *
 * flat_sums_many prices several shoes of at most 1,356 cards in one walk, each in its own lane and its own
 * accumulators: the same bounds, each shoe's own (its comment).
 *
 * So the kernel is exact wherever the caller lets it run; beyond, the caller takes Python
 * integers. No float anywhere.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

#define ROWS 12
#define SEVEN 7
/* The sizes of the three outer products: (block, m0, m1, m2), (m3, m4, m5), (m6, m7, m8, m9). */
#define FIRST (3 * SEVEN * SEVEN * SEVEN)
#define SECOND (SEVEN * SEVEN * SEVEN)
#define THIRD (SEVEN * SEVEN * SEVEN * SEVEN)

/* The factor rows of one shoe exactly, in unsigned 128-bit integers, from its 13 counts by rank and the value of
 * each rank: the same rows as factor_residues (and as exactodds.puntobanco.compiled.factors.factor_rows), every
 * entry at most N^6 < 2^128 for a shoe the caller lets in (flat.native.fits). P22 is summed as
 * Σ_{r≠s} (c_r)_2 (c_s)_2 + Σ_r (c_r)_2 (c_r - 2)(c_r - 3), with no subtraction. */
static void factor_exact(const uint64_t *counts, const uint8_t *value_of, u128 out[ROWS][SEVEN]) {
    u128 totals[10] = {0};
    for (int r = 0; r < 13; r++) totals[value_of[r]] += counts[r];
    for (int v = 0; v < 10; v++) {
        u128 term = 1;
        for (int j = 0; j < SEVEN; j++) {
            out[v][j] = term;
            term = totals[v] > (u128)j ? term * (totals[v] - j) : 0;
        }
    }
    u128 pairs[13], p2 = 0, p22 = 0;
    int zero[13], n = 0;
    for (int r = 0; r < 13; r++)
        if (value_of[r] == 0) {
            u128 c = counts[r];
            pairs[n] = c >= 2 ? c * (c - 1) : 0;
            p2 += pairs[n];
            p22 += c >= 4 ? pairs[n] * (c - 2) * (c - 3) : 0;
            zero[n++] = r;
        }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) p22 += pairs[a] * pairs[b];
    (void)zero;
    for (int block = 0; block < 2; block++) {
        u128 factor = block == 0 ? p2 : p22;
        int start = block == 0 ? 2 : 4;
        u128 base = totals[0] > (u128)start ? totals[0] - start : 0;
        for (int j = 0; j < start; j++) out[10 + block][j] = 0;
        u128 term = factor;
        for (int j = start; j < SEVEN; j++) {
            out[10 + block][j] = term;
            int d = j - start;
            term = base > (u128)d ? term * (base - d) : 0;
        }
    }
}

/* Montgomery's reduction: t·2^-64 mod p for t < p·2^64, with minus_inverse = -p^-1 mod 2^64. */
static inline uint64_t redc(u128 t, uint64_t p, uint64_t minus_inverse) {
    uint64_t m = (uint64_t)t * minus_inverse;
    uint64_t r = (uint64_t)((t + (u128)m * p) >> 64);
    return r >= p ? r - p : r;
}

/* The factor rows of one shoe modulo p, held in Montgomery form (out: 12 × 7), from its 13 counts by rank, each
 * given as itself or, when at least p, as its residue plus p (so at least p > 6: the clips below act exactly where
 * they act on the true counts), and the value of each rank (value_of[r], exactodds.cards.RANK_VALUES). The same
 * rows as exactodds.puntobanco.compiled.factors.factor_rows: rows 0-9 the falling factorials (c_v)_0..6 of the
 * cards of each value; row 10: P2·(c_0 - 2)_0..4 from column 2; row 11: P22·(c_0 - 4)_0..2 from column 4, with
 * P2 = Σ_r (c_r)_2 and P22 = P2² - Σ_r (c_r)_2² + Σ_r (c_r)_2 (c_r - 2)(c_r - 3) over the ranks worth 0
 * (exactodds.cards.pair_sums). Every step is a product or a sum, so each entry is the true one modulo p. */
static void factor_residues(const uint64_t *counts, const uint8_t *value_of, uint64_t p, uint64_t minus_inverse,
                            uint64_t r2, uint64_t out[ROWS * SEVEN]) {
#define TO(x) redc((u128)((x) % p) * r2, p, minus_inverse)
#define TIMES(a, b) redc((u128)(a) * (b), p, minus_inverse)
    u128 totals[10] = {0};
    for (int r = 0; r < 13; r++) totals[value_of[r]] += counts[r];
    const uint64_t one = TO(1);
    for (int v = 0; v < 10; v++) {  /* (c)_j = (c)_{j-1} (c - j + 1): 0 from j = c + 1 on, as the true count's */
        uint64_t term = one;
        for (int j = 0; j < SEVEN; j++) {
            out[v * SEVEN + j] = term;
            term = totals[v] > (u128)j ? TIMES(term, TO((uint64_t)((totals[v] - j) % p))) : 0;
        }
    }
    uint64_t p2 = 0, squares = 0, fours = 0;
    for (int r = 0; r < 13; r++) {
        if (value_of[r] != 0) continue;
        uint64_t c = counts[r];
        uint64_t pair = c >= 2 ? TIMES(TO(c), TO(c - 1)) : 0;
        p2 = (p2 + pair) % p;
        squares = (squares + TIMES(pair, pair)) % p;
        uint64_t c2 = c >= 2 ? TO(c - 2) : (c == 1 ? p - TO(1) : p - TO(2));  /* c - 2, negative below 2 */
        uint64_t c3 = c >= 3 ? TO(c - 3) : p - TO(3 - c);
        fours = (fours + TIMES(TIMES(pair, c2 % p), c3 % p)) % p;
    }
    uint64_t p22 = (TIMES(p2, p2) + p - squares + fours) % p;
    for (int block = 0; block < 2; block++) {  /* rows 10 and 11: P2·(c_0 - 2)_j, P22·(c_0 - 4)_j, clipped at 0 */
        uint64_t factor = block == 0 ? p2 : p22;
        int start = block == 0 ? 2 : 4;
        u128 base = totals[0] > (u128)start ? totals[0] - start : 0;
        uint64_t *row = out + (10 + block) * SEVEN;
        for (int j = 0; j < start; j++) row[j] = 0;
        uint64_t term = factor;
        for (int j = start; j < SEVEN; j++) {
            row[j] = term;
            int d = j - start;
            term = base > (u128)d ? TIMES(term, TO((uint64_t)((base - d) % p))) : 0;
        }
    }
#undef TO
#undef TIMES
}

/* A compiled table as the kernel reads it, checked once when it is made (prepare): every offset within its outer
 * product, every row a multiset of at most 6 cards (the multiplicities its three offsets stand for add up to at most
 * 6), every run well formed, every row number below the number of rows. The loops below then read it with no check
 * per element: a table is made once and priced for thousands of shoes. */
typedef struct {
    PyObject_HEAD
    Py_ssize_t rows, columns;
    uint8_t value_of[13];   /* the value of each rank (exactodds.cards.RANK_VALUES) */
    uint16_t *i0, *i1, *i2; /* each row's offsets into the three outer products */
    /* each row's three factors again, as offsets into the three outer products laid end to end (first, second,
     * third): `most` the factor of the most cards (the first of them on a tie), `other` the other two */
    uint16_t *most, *other[2];
    int32_t *runs;          /* per column: its number of runs, then per run its coefficient, its length, its rows */
} Table;

static void table_dealloc(Table *t) {
    PyMem_Free(t->i0);
    PyMem_Free(t->i1);
    PyMem_Free(t->i2);
    PyMem_Free(t->most);
    PyMem_Free(t->other[0]);
    PyMem_Free(t->other[1]);
    PyMem_Free(t->runs);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_exactodds_kernel.Table",
    .tp_basicsize = sizeof(Table),
    .tp_dealloc = (destructor)table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled table, checked, as the kernel reads it (made by prepare).",
};

/* The cards an offset into an outer product stands for: the sum of its last `digits` base-7 digits (each the
 * multiplicity of one value, or for the first product's block rows 10 and 11 the cards of value 0 they count). */
static int cards_of(int offset, int digits) {
    int cards = 0;
    for (int d = 0; d < digits; d++, offset /= SEVEN) cards += offset % SEVEN;
    return cards;
}

static void *copy_of(const Py_buffer *b) {
    void *out = PyMem_Malloc(b->len ? b->len : 1);
    if (out) memcpy(out, b->buf, b->len);
    return out;
}

/* prepare(value_of, index0, index1, index2, runs, columns) -> Table
 *
 * value_of: the value of each rank (13 bytes, each below 10);
 * index0, index1, index2: the rows' offsets into the three outer products (uint16 each, one per row);
 * runs: int32 words, for each of the `columns` columns: its number of runs, then for each run
 *       its coefficient, its number of rows and the row numbers. */
static PyObject *prepare(PyObject *self, PyObject *args) {
    Py_buffer vb, b0, b1, b2, rb;
    Py_ssize_t columns;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*n", &vb, &b0, &b1, &b2, &rb, &columns)) return NULL;
    Table *t = NULL;
    const char *wrong = NULL;
    Py_ssize_t rows = b0.len / 2, words = rb.len / 4;
    if (vb.len != 13 || b0.len != b1.len || b0.len != b2.len || b0.len % 2 || rb.len % 4 || columns < 0)
        wrong = "malformed arguments";
    for (int r = 0; !wrong && r < 13; r++)
        if (((const uint8_t *)vb.buf)[r] >= 10) wrong = "malformed arguments";
    const uint16_t *i0 = b0.buf, *i1 = b1.buf, *i2 = b2.buf;
    for (Py_ssize_t r = 0; !wrong && r < rows; r++)
        if (i0[r] >= FIRST || i1[r] >= SECOND || i2[r] >= THIRD) wrong = "an offset is out of range";
    for (Py_ssize_t r = 0; !wrong && r < rows; r++)
        if (cards_of(i0[r], 3) + cards_of(i1[r], 3) + cards_of(i2[r], 4) > 6) wrong = "a row has more than 6 cards";
    const int32_t *w = rb.buf, *end = w + words;
    for (Py_ssize_t j = 0; !wrong && j < columns; j++) {
        int32_t nruns = w < end ? *w++ : -1;
        if (nruns < 0) wrong = "the runs are malformed";
        for (int32_t n = 0; !wrong && n < nruns; n++) {
            int32_t nrows = end - w >= 2 ? w[1] : -1;
            w += 2;
            if (nrows < 0 || end - w < nrows) {
                wrong = "the runs are malformed";
                break;
            }
            for (int32_t i = 0; i < nrows; i++)
                if (w[i] < 0 || w[i] >= rows) wrong = "a row number is out of range";
            w += nrows;
        }
    }
    if (!wrong && w != end) wrong = "the runs are malformed";
    if (wrong) {
        PyErr_Format(strcmp(wrong, "a row number is out of range") && strcmp(wrong, "an offset is out of range")
                         ? PyExc_ValueError : PyExc_IndexError, "prepare: %s", wrong);
        goto done;
    }
    t = PyObject_New(Table, &TableType);
    if (!t) goto done;
    t->i0 = t->i1 = t->i2 = t->most = t->other[0] = t->other[1] = NULL;
    t->runs = NULL;
    t->rows = rows;
    t->columns = columns;
    memcpy(t->value_of, vb.buf, 13);
    t->i0 = copy_of(&b0);
    t->i1 = copy_of(&b1);
    t->i2 = copy_of(&b2);
    t->runs = copy_of(&rb);
    t->most = PyMem_Malloc(rows ? 2 * rows : 1);
    t->other[0] = PyMem_Malloc(rows ? 2 * rows : 1);
    t->other[1] = PyMem_Malloc(rows ? 2 * rows : 1);
    if (!t->i0 || !t->i1 || !t->i2 || !t->runs || !t->most || !t->other[0] || !t->other[1]) {
        Py_CLEAR(t);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r < rows; r++) {
        const int m[3] = {cards_of(i0[r], 3), cards_of(i1[r], 3), cards_of(i2[r], 4)};
        const uint16_t at[3] = {i0[r], (uint16_t)(FIRST + i1[r]), (uint16_t)(FIRST + SECOND + i2[r])};
        const int most = m[0] >= m[1] && m[0] >= m[2] ? 0 : m[1] >= m[2] ? 1 : 2;
        t->most[r] = at[most];
        t->other[0][r] = at[(most + 1) % 3];
        t->other[1][r] = at[(most + 2) % 3];
    }
done:
    PyBuffer_Release(&vb);
    PyBuffer_Release(&b0);
    PyBuffer_Release(&b1);
    PyBuffer_Release(&b2);
    PyBuffer_Release(&rb);
    return (PyObject *)t;
}

/* high·2^64 + low as a Python integer, from two new references (either NULL after an error), both released. */
static PyObject *joined(PyObject *high, PyObject *low) {
    PyObject *shift = PyLong_FromLong(64), *shifted = NULL, *out = NULL;
    if (high && low && shift && (shifted = PyNumber_Lshift(high, shift))) out = PyNumber_Add(shifted, low);
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(shift);
    Py_XDECREF(shifted);
    return out;
}

/* A signed 128-bit integer as a Python integer. */
static PyObject *long_of(s128 x) {
    if (x >= INT64_MIN && x <= INT64_MAX) return PyLong_FromLongLong((long long)x);
    return joined(PyLong_FromLongLong((long long)(x >> 64)), PyLong_FromUnsignedLongLong((uint64_t)x));
}

/* hi·2^64 + lo as a Python integer (the two accumulators of the 128-bit words). */
static PyObject *long_of_pair(s128 hi, s128 lo) {
    return hi == 0 ? long_of(lo) : joined(long_of(hi), long_of(lo));
}

/* The three outer products of the factor rows f (type WORD, any ring: 64- or 128-bit words, or residues with MUL),
 * in RowWeights' order: (block, m0, m1, m2), (m3, m4, m5), (m6, m7, m8, m9), laid end to end in `products`. Only
 * the entries of at most 6 cards (digits adding up to at most 6) are made: 252, 84 and 210 of the 1,029, 343 and
 * 2,401; a row gathers no other (prepare refuses a row of more than 6 cards), and the others are left unset. */
#define OUTER_PRODUCTS(WORD, F, MUL)                                                                                \
    WORD products[FIRST + SECOND + THIRD];                                                                        \
    WORD *const first = products, *const second = products + FIRST, *const third = products + FIRST + SECOND;   \
    {                                                                                                              \
        static const int block_rows[3] = {0, 10, 11};                                                              \
        for (int z = 0; z < 3; z++)                                                                                \
            for (int a = 0; a < SEVEN; a++)                                                                        \
                for (int b = 0; a + b < SEVEN; b++) {                                                              \
                    WORD ab = MUL(F(block_rows[z], a), F(1, b));                                                   \
                    for (int c = 0; a + b + c < SEVEN; c++)                                                        \
                        first[((z * SEVEN + a) * SEVEN + b) * SEVEN + c] = MUL(ab, F(2, c));                       \
                }                                                                                                  \
        for (int a = 0; a < SEVEN; a++)                                                                            \
            for (int b = 0; a + b < SEVEN; b++) {                                                                  \
                WORD ab = MUL(F(3, a), F(4, b));                                                                   \
                for (int c = 0; a + b + c < SEVEN; c++) second[(a * SEVEN + b) * SEVEN + c] = MUL(ab, F(5, c));   \
            }                                                                                                      \
        for (int a = 0; a < SEVEN; a++)                                                                            \
            for (int b = 0; a + b < SEVEN; b++) {                                                                  \
                WORD ab = MUL(F(6, a), F(7, b));                                                                   \
                for (int c = 0; a + b + c < SEVEN; c++) {                                                          \
                    WORD abc = MUL(ab, F(8, c));                                                                   \
                    for (int d = 0; a + b + c + d < SEVEN; d++)                                                    \
                        third[((a * SEVEN + b) * SEVEN + c) * SEVEN + d] = MUL(abc, F(9, d));                      \
                }                                                                                                  \
            }                                                                                                      \
    }

#define PLAIN_TIMES(a, b) ((a) * (b))

/* The sums for one shoe in words of type WORD: each row's weight, and each column's runs into the two signed
 * 128-bit accumulators (HIGH(sum): the sum's bits from 2^64 up). Made twice below: in 64-bit words for a shoe small
 * enough (the caller's flat.native.narrow: N^6 < 2^64 and 3·(N)_6 < 2^64, up to 1,356 cards), half the memory
 * traffic and cheaper products; and in 128-bit words up to the proof's bound. The factor rows come as 128-bit
 * integers (each below 2^64 for the narrow words). A run's rows are summed in two interleaved sums (the loads of
 * one do not wait for the adds of the other); in unsigned words, so their total is the run's sum, proved to fit. */
#define DEFINE_SUMS(NAME, WORD, HIGH, WEIGHT)                                                                      \
    static PyObject *NAME(const Table *t, u128 f128[ROWS][SEVEN]) {                                                \
        WORD f[ROWS][SEVEN];                                                                                       \
        for (int r = 0; r < ROWS; r++)                                                                             \
            for (int m = 0; m < SEVEN; m++) f[r][m] = (WORD)f128[r][m];                                            \
        _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wshadow\"")                               \
        OUTER_PRODUCTS(WORD, FW, PLAIN_TIMES)                                                                      \
        _Pragma("GCC diagnostic pop")                                                                              \
        WORD *weights = PyMem_Malloc((t->rows ? t->rows : 1) * sizeof(WORD));                                      \
        if (!weights) return PyErr_NoMemory();                                                                     \
        for (Py_ssize_t r = 0; r < t->rows; r++) weights[r] = WEIGHT(r);                                          \
        PyObject *result = PyList_New(t->columns);                                                                 \
        const int32_t *w = t->runs;                                                                                \
        for (Py_ssize_t j = 0; result && j < t->columns; j++) {                                                    \
            s128 hi = 0, lo = 0;                                                                                   \
            int32_t nruns = *w++;                                                                                  \
            for (int32_t n = 0; n < nruns; n++) {                                                                  \
                int32_t coefficient = w[0], nrows = w[1];                                                          \
                const int32_t *row = w + 2;                                                                        \
                WORD s0 = 0, s1 = 0;                                                                               \
                int32_t i = 0;                                                                                     \
                for (; i + 1 < nrows; i += 2) {                                                                    \
                    s0 += weights[row[i]];                                                                         \
                    s1 += weights[row[i + 1]];                                                                     \
                }                                                                                                  \
                if (i < nrows) s0 += weights[row[i]];                                                              \
                WORD sum = s0 + s1;                                                                                \
                w = row + nrows;                                                                                   \
                hi += (s128)coefficient * (s128)HIGH(sum);                                                         \
                lo += (s128)coefficient * (s128)(uint64_t)sum;                                                     \
            }                                                                                                      \
            PyObject *value = long_of_pair(hi, lo);                                                                \
            if (!value) {                                                                                          \
                Py_CLEAR(result);                                                                                  \
                break;                                                                                             \
            }                                                                                                      \
            PyList_SET_ITEM(result, j, value);                                                                     \
        }                                                                                                          \
        PyMem_Free(weights);                                                                                       \
        return result;                                                                                             \
    }

#define FW(r, m) f[r][m]
static inline uint64_t no_high(uint64_t x) { (void)x; return 0; }
static inline uint64_t high_of(u128 x) { return (uint64_t)(x >> 64); }
/* A row's weight in 64-bit words: the product of its three factors, each below 2^64 (at most N^6 < 2^64). */
#define NARROW_WEIGHT(r) (first[t->i0[r]] * second[t->i1[r]] * third[t->i2[r]])
/* A row's weight in 128-bit words, in four 64-bit multiplications rather than six: its two factors of fewer cards
 * (t->other) are each of at most 3 cards (the row has at most 6, prepare checked, and the third factor has at least
 * as many as either), so each is at most N^3 < 2^64 (N^6 < 2^128): its low word is itself, and their product (one
 * 64 x 64 -> 128-bit multiplication) is exact; times the factor of the most cards, the product modulo 2^128 is the
 * weight, which is at most (N)_6 < 2^128. */
#define WIDE_WEIGHT(r)                                                                                        \
    ((u128)(uint64_t)products[t->other[0][r]] * (uint64_t)products[t->other[1][r]] * products[t->most[r]])
DEFINE_SUMS(narrow_sums, uint64_t, no_high, NARROW_WEIGHT)
DEFINE_SUMS(wide_sums, u128, high_of, WIDE_WEIGHT)
#undef NARROW_WEIGHT
#undef WIDE_WEIGHT
#undef FW

static int read_shoe(PyObject *const *args, Py_ssize_t nargs, const char *name, Table **t, Py_buffer *counts,
                     Py_ssize_t length) {
    if (nargs < 2 || !PyObject_TypeCheck(args[0], &TableType)) {
        PyErr_Format(PyExc_TypeError, "%s: the first argument must be a prepared Table", name);
        return -1;
    }
    *t = (Table *)args[0];
    if (PyObject_GetBuffer(args[1], counts, PyBUF_SIMPLE) < 0) return -1;
    if (length >= 0 && counts->len != length) {
        PyBuffer_Release(counts);
        PyErr_Format(PyExc_ValueError, "%s: malformed counts", name);
        return -1;
    }
    return 0;
}

/* flat_sums(table, counts, narrow) -> list[int]
 *
 * table: a Table from prepare; counts: the shoe's 13 counts by rank (uint64); narrow: the shoe is small enough for
 * 64-bit words (narrow_sums, else wide_sums). Returns every column's exact count (the caller checked the shoe
 * against the proof: flat.native.fits). */
static PyObject *flat_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Table *t;
    Py_buffer fb;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "flat_sums(table, counts, narrow) takes 3 arguments");
        return NULL;
    }
    if (read_shoe(args, nargs, "flat_sums", &t, &fb, 13 * 8) < 0) return NULL;
    int narrow = PyObject_IsTrue(args[2]);
    PyObject *result = NULL;
    if (narrow >= 0) {
        u128 f[ROWS][SEVEN];
        factor_exact(fb.buf, t->value_of, f);
        result = (narrow ? narrow_sums : wide_sums)(t, f);
    }
    PyBuffer_Release(&fb);
    return result;
}

/* How many shoes flat_sums_many walks the table for at once: each row's BATCH weights lie side by side. */
#define BATCH 2
/* A row's BATCH weights, read as one vector (from any 8-byte boundary). */
typedef uint64_t batch_words __attribute__((vector_size(BATCH * 8), aligned(8)));

/* flat_sums_many(table, counts) -> list[list[int]]
 *
 * flat_sums for many shoes at once, each in 64-bit words (the caller checked every shoe against the narrow bound:
 * flat.native.narrow, up to 1,356 cards): counts holds n blocks of 13 uint64, a shoe's counts by rank each. Returns
 * n lists, each what flat_sums(table, that shoe's counts, True) returns.
 *
 * The shoes go BATCH at a time: each row's weights for the BATCH shoes lie side by side (weights[row·BATCH + k]),
 * so a run reads each row number once and adds BATCH contiguous words (a loop the compiler vectorises), where one
 * shoe at a time reads the run's rows once per shoe: the walk, not the weights, is most of a narrow shoe's cost. A
 * last group of fewer than BATCH shoes has its missing shoes' weights all 0, and their sums are not returned.
 *
 * Exactness: nothing is shared between the shoes but the walk's order. Lane k holds shoe k's weights, made by the
 * same unsigned 64-bit products as narrow_sums (each factor entry and gathered product at most N^6 < 2^64, each
 * weight at most (N)_6); lane k of a run's sums adds only shoe k's weights of the run's rows, in unsigned words that
 * may wrap on the way but whose total is the run's true sum, at most 3·(N)_6 < 2^64 for that shoe; and that sum
 * times its coefficient (|c| < 2^31, so below 2^95) goes into shoe k's own signed 128-bit accumulator, with fewer
 * than 2^31 runs in a column: no overflow. The bounds are each shoe's own, the same as flat_sums' (a padding lane
 * sums zeros). So each count is exact, the same integer as flat_sums gives. */
static PyObject *flat_sums_many(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Table *t;
    Py_buffer fb;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "flat_sums_many(table, counts) takes 2 arguments");
        return NULL;
    }
    if (read_shoe(args, nargs, "flat_sums_many", &t, &fb, -1) < 0) return NULL;
    PyObject *result = NULL;
    uint64_t *weights = NULL;
    const Py_ssize_t n = fb.len / (13 * 8), rows = t->rows, columns = t->columns;
    const uint64_t *all = fb.buf;
    if (fb.len % (13 * 8)) {
        PyErr_SetString(PyExc_ValueError, "flat_sums_many: malformed counts");
        goto done;
    }
    weights = PyMem_Malloc((rows ? rows : 1) * BATCH * sizeof(uint64_t));
    if (!weights) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyList_New(n);
    for (Py_ssize_t start = 0; result && start < n; start += BATCH) {
        const Py_ssize_t here = n - start < BATCH ? n - start : BATCH;
        for (Py_ssize_t lane = 0; lane < BATCH; lane++) {
            if (lane >= here) {  /* padding: a lane of zero weights, whose sums are dropped */
                for (Py_ssize_t r = 0; r < rows; r++) weights[r * BATCH + lane] = 0;
                continue;
            }
            u128 f128[ROWS][SEVEN];
            factor_exact(all + (start + lane) * 13, t->value_of, f128);
            uint64_t f[ROWS][SEVEN];
            for (int r = 0; r < ROWS; r++)
                for (int m = 0; m < SEVEN; m++) f[r][m] = (uint64_t)f128[r][m];
#define FW(r, m) f[r][m]
            OUTER_PRODUCTS(uint64_t, FW, PLAIN_TIMES)
#undef FW
            for (Py_ssize_t r = 0; r < rows; r++)
                weights[r * BATCH + lane] = first[t->i0[r]] * second[t->i1[r]] * third[t->i2[r]];
        }
        PyObject *lists[BATCH] = {NULL};
        for (Py_ssize_t k = 0; k < here && result; k++)
            if (!(lists[k] = PyList_New(columns))) Py_CLEAR(result);
        const int32_t *w = t->runs;
        for (Py_ssize_t j = 0; result && j < columns; j++) {
            s128 lo[BATCH] = {0};
            int32_t nruns = *w++;
            for (int32_t r = 0; r < nruns; r++) {
                int32_t coefficient = w[0], nrows = w[1];
                const int32_t *row = w + 2;
                /* A row's BATCH weights as one vector (GCC's and Clang's vector extension: one SSE2 add for two
                 * 64-bit lanes), in two interleaved sums as narrow_sums has (the loads of one wait for no add of
                 * the other); each lane adds with wrapping, as a uint64_t does. */
                batch_words v0 = {0}, v1 = {0};
                int32_t i = 0;
                for (; i + 1 < nrows; i += 2) {
                    v0 += *(const batch_words *)(weights + (Py_ssize_t)row[i] * BATCH);
                    v1 += *(const batch_words *)(weights + (Py_ssize_t)row[i + 1] * BATCH);
                }
                if (i < nrows) v0 += *(const batch_words *)(weights + (Py_ssize_t)row[i] * BATCH);
                for (int k = 0; k < BATCH; k++) lo[k] += (s128)coefficient * (s128)(uint64_t)(v0[k] + v1[k]);
                w = row + nrows;
            }
            for (Py_ssize_t k = 0; k < here; k++) {
                PyObject *value = long_of(lo[k]);
                if (!value) {
                    Py_CLEAR(result);
                    break;
                }
                PyList_SET_ITEM(lists[k], j, value);
            }
        }
        for (Py_ssize_t k = 0; k < here; k++) {
            if (result)
                PyList_SET_ITEM(result, start + k, lists[k]);
            else
                Py_XDECREF(lists[k]);
        }
    }
done:
    PyMem_Free(weights);
    PyBuffer_Release(&fb);
    return result;
}

/* A residue added to a sum modulo p, both below p (so below 2^63 together): the sum stays a residue. */
#define ADD_MOD(a, x, p)                                                                                          \
    do {                                                                                                          \
        (a) += (x);                                                                                               \
        (a) = (a) >= (p) ? (a) - (p) : (a);                                                                       \
    } while (0)

/* One walk over a run's rows for M primes from q0 (each row's residues side by side, the primes' from `from`),
 * into held[q0..q0+M): the sums of the held weights modulo each prime, in registers (scalars, not an array). */
#define WALK(M)                                                                                                   \
    do {                                                                                                          \
        const uint64_t *base = weights + from + q0;                                                               \
        const uint64_t p0 = primes[q0], p1 = (M) > 1 ? primes[q0 + 1] : 0, p2 = (M) > 2 ? primes[q0 + 2] : 0,     \
                       p3 = (M) > 3 ? primes[q0 + 3] : 0;                                                         \
        uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                                                  \
        for (int32_t i = 0; i < nrows; i++) {                                                                     \
            const uint64_t *each = base + (Py_ssize_t)row[i] * lanes;                                             \
            ADD_MOD(a0, each[0], p0);                                                                             \
            if ((M) > 1) ADD_MOD(a1, each[1], p1);                                                                \
            if ((M) > 2) ADD_MOD(a2, each[2], p2);                                                                \
            if ((M) > 3) ADD_MOD(a3, each[3], p3);                                                                \
        }                                                                                                         \
        held[q0] = a0;                                                                                            \
        if ((M) > 1) held[q0 + 1] = a1;                                                                           \
        if ((M) > 2) held[q0 + 2] = a2;                                                                           \
        if ((M) > 3) held[q0 + 3] = a3;                                                                           \
    } while (0)

/* The same walk with the weights modulo 2^128 (the row's first two words, summed with wrapping) and the first one,
 * two or three primes (primes_here), their sums in 128 bits and reduced once (fewer than 2^31 residues below 2^62):
 * no reduction on the walk. Made for each constant stride of 3, 4 and 5 words (2^128 with one, two or three primes,
 * all walked here: a row's offset is a shift and an add, not a multiplication; with a 128-bit remainder a run the
 * third was quicker walked apart by WALK, with REDC it is 1.1x quicker here, and the step from two primes to three
 * 1.45x, not 1.6x) and for any stride (two primes here, the rest by WALK), each its own function, so that its sums
 * stay in registers (inlined into flat_residues they spilled to the stack, a third slower). */
static inline __attribute__((always_inline)) void walk_wrap(const uint64_t *weights, Py_ssize_t lanes, int primes_here,
                                                            const int32_t *row, int32_t nrows, const uint64_t *primes,
                                                            const uint64_t *minus_inverses, u128 *wrapped_sum,
                                                            uint64_t *held) {
    u128 all = 0, a0 = 0, a1 = 0, a2 = 0;
    for (int32_t i = 0; i < nrows; i++) {
        const uint64_t *each = weights + (Py_ssize_t)row[i] * lanes;
        all += ((u128)each[1] << 64) | each[0];
        a0 += each[2];
        if (primes_here > 1) a1 += each[3];
        if (primes_here > 2) a2 += each[4];
    }
    *wrapped_sum = all;
    /* The sums reduced by REDC, not by a division (a 128-bit remainder is a library call): a0 < nrows·p < 2^31·2^62
     * is below p·2^64, as REDC asks, and gives a0·R^-1 mod p, the rows' sum out of Montgomery's form (held, times
     * R^-1: the caller's column of these primes is multiplied by R once at its end). */
    held[0] = redc(a0, primes[0], minus_inverses[0]);
    if (primes_here > 1) held[1] = redc(a1, primes[1], minus_inverses[1]);
    if (primes_here > 2) held[2] = redc(a2, primes[2], minus_inverses[2]);
}

/* The walk of a run with 2^128 and one prime below 2^32 (flat_residues' `small` layout): each row's weight modulo
 * 2^128 in one array (16 bytes, one load as in the 128-bit walk) and its held residue in another (32 bits): 20 bytes
 * a row. The residues' sum is left unreduced: below nrows·2^32 < 2^63. Inlined: a call a run cost a tenth of the
 * walk. */
static inline __attribute__((always_inline)) void walk_small(const u128 *wide, const uint32_t *narrow,
                                                             const int32_t *row, int32_t nrows, u128 *wrapped_sum,
                                                             uint64_t *sum) {
    u128 a = 0;
    uint64_t s = 0;
    const int32_t *const end = row + nrows;
    for (; row < end; row++) {
        const int32_t x = *row;
        a += wide[x];
        s += narrow[x];
    }
    *wrapped_sum = a;
    *sum = s;
}

#define WALK_WRAP_ARGUMENTS                                                                                        \
    const uint64_t *weights, Py_ssize_t lanes, const int32_t *row, int32_t nrows, const uint64_t *primes,          \
        const uint64_t *minus_inverses, u128 *wrapped_sum, uint64_t *held
static __attribute__((noinline)) void walk_wrap_1(WALK_WRAP_ARGUMENTS) {
    (void)lanes;
    walk_wrap(weights, 3, 1, row, nrows, primes, minus_inverses, wrapped_sum, held);
}
static __attribute__((noinline)) void walk_wrap_2(WALK_WRAP_ARGUMENTS) {
    (void)lanes;
    walk_wrap(weights, 4, 2, row, nrows, primes, minus_inverses, wrapped_sum, held);
}
static __attribute__((noinline)) void walk_wrap_3(WALK_WRAP_ARGUMENTS) {
    (void)lanes;
    walk_wrap(weights, 5, 3, row, nrows, primes, minus_inverses, wrapped_sum, held);
}
static __attribute__((noinline)) void walk_wrap_any(WALK_WRAP_ARGUMENTS) {
    walk_wrap(weights, lanes, 2, row, nrows, primes, minus_inverses, wrapped_sum, held);
}
#undef WALK_WRAP_ARGUMENTS

/* An unsigned integer of n little-endian 64-bit words, negated when `negative`, as a Python integer. */
static PyObject *long_of_words(const uint64_t *words, Py_ssize_t n, int negative) {
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *value = PyLong_FromUnsignedNativeBytes(words, (size_t)n * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *value = _PyLong_FromByteArray((const unsigned char *)words, (size_t)n * 8, 1, 0);
#endif
    if (!value || !negative) return value;
    PyObject *negated = PyNumber_Negative(value);
    Py_DECREF(value);
    return negated;
}

/* words[0..n) = words·m + add, and the word carried out of the top (unsigned, little-endian words). */
static uint64_t times_plus(uint64_t *words, Py_ssize_t n, uint64_t m, uint64_t add) {
    uint64_t carry = add;
    for (Py_ssize_t i = 0; i < n; i++) {
        const u128 x = (u128)words[i] * m + carry;  /* at most (2^64 - 1)^2 + 2^64 - 1 < 2^128 */
        words[i] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
    return carry;
}

/* Each column's count from its residues (Garner's mixed radix, all in C): out holds k blocks of `columns` residues
 * (of the count, or with 2^128 among the moduli of y, where x = a + 2^128·y and a = wrapped[j], x's residue modulo
 * 2^128); inverses[i(i-1)/2 + j] = p_j^-1 modulo p_i in Montgomery's form (p_j^-1·2^64 mod p_i), checked here.
 * With M the product of all the moduli, the residues give x in [0, M) exactly (Chinese remainder theorem: the primes
 * are distinct, odd, so coprime to each other and to 2^128), and the count is x or x - M, whichever is nearer 0 (the
 * caller's M is above twice the bound on a count, flat.native.residue_sums). Garner: y = c_0 + p_0(c_1 + p_1(c_2 +
 * ...)) with c_i = (((y_i - c_0)p_0^-1 - c_1)p_1^-1 - ...)p_{i-1}^-1 mod p_i, each c_i < p_i, so y < p_0···p_{k-1};
 * built from the top word by word (times_plus), x = a + 2^128·y is its words after a's two. */
static PyObject *counts_of(const uint64_t *out, const u128 *wrapped, Py_ssize_t k, Py_ssize_t columns,
                           const uint64_t *primes, const uint64_t *minus_inverses, const uint64_t *inverses) {
    const Py_ssize_t low = wrapped ? 2 : 0, size = low + k + 1;  /* the words of M and of x */
    uint64_t *buffer = PyMem_Malloc((3 * size + k) * sizeof(uint64_t));
    if (!buffer) return PyErr_NoMemory();
    uint64_t *modulus = buffer, *x = buffer + size, *other = buffer + 2 * size, *c = buffer + 3 * size;
    PyObject *result = NULL;
    for (Py_ssize_t i = 1; i < k; i++)  /* each inverse: p_j · (p_j^-1·R) · R^-1 = 1 modulo p_i */
        for (Py_ssize_t j = 0; j < i; j++)
            if (redc((u128)(primes[j] % primes[i]) * inverses[i * (i - 1) / 2 + j], primes[i], minus_inverses[i]) != 1
                || inverses[i * (i - 1) / 2 + j] >= primes[i]) {
                PyErr_SetString(PyExc_ValueError, "flat_residues: the moduli's inverses are wrong");
                goto done;
            }
    memset(modulus, 0, size * sizeof(uint64_t));
    modulus[low] = 1;  /* M = 2^128·p_0···p_{k-1} (or the primes' product alone) */
    for (Py_ssize_t i = 0; i < k; i++) times_plus(modulus + low, k + 1, primes[i], 0);
    result = PyList_New(columns);
    for (Py_ssize_t j = 0; result && j < columns; j++) {
        for (Py_ssize_t i = 0; i < k; i++) {
            const uint64_t p = primes[i];
            uint64_t v = out[i * columns + j];
            for (Py_ssize_t h = 0; h < i; h++) {  /* v = (v - c_h)·p_h^-1 modulo p_i: REDC of v times p_h^-1·R */
                const uint64_t ch = c[h] % p;
                v = v >= ch ? v - ch : v + p - ch;
                v = redc((u128)v * inverses[i * (i - 1) / 2 + h], p, minus_inverses[i]);
            }
            c[i] = v;
        }
        memset(x, 0, size * sizeof(uint64_t));
        for (Py_ssize_t i = k - 1; i >= 0; i--) times_plus(x + low, k + 1, i == k - 1 ? 0 : primes[i], c[i]);
        if (wrapped) {
            x[0] = (uint64_t)wrapped[j];
            x[1] = (uint64_t)(wrapped[j] >> 64);
        }
        uint64_t borrow = 0;  /* other = M - x, which is positive (x < M) */
        for (Py_ssize_t i = 0; i < size; i++) {
            const uint64_t d = modulus[i] - x[i] - borrow;
            borrow = modulus[i] < x[i] || (modulus[i] == x[i] && borrow);
            other[i] = d;
        }
        int negative = 0;  /* x > M - x: the count is x - M = -(M - x) */
        for (Py_ssize_t i = size - 1; i >= 0; i--)
            if (x[i] != other[i]) {
                negative = x[i] > other[i];
                break;
            }
        PyObject *value = long_of_words(negative ? other : x, size, negative);
        if (!value) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, j, value);
    }
done:
    PyMem_Free(buffer);
    return result;
}

/* The rows' weights of flat_residues' `small` layout (2^128 and one prime p below 2^32), in one pass over the rows:
 * each weight modulo 2^128 (from `wide`, the outer products of the exact factor rows, whose unsigned products
 * wrap: exact modulo 2^128), and modulo p in 32 bits, held as w·R^2 (R = 2^64): the three
 * factors are held xR, yR, zR below p, xR·yR < 2^64, times zR below p^3 < p·2^64, and one REDC leaves xyz·R^2.
 * `counts` are the shoe's counts for p as factor_residues takes them. With `narrow_factors` (a shoe of at most
 * 2,642,245 cards, so N^3 < 2^64) a row's two factors of fewer cards, each of at most 3 (WIDE_WEIGHT's argument),
 * are each below 2^64 and their product exact in one 64 x 64 -> 128-bit multiplication: four multiplications for
 * the weight modulo 2^128, not six. */
static void small_weights(const Table *t, const u128 *wide, const uint64_t *counts, uint64_t p, int narrow_factors,
                          u128 *weights, uint32_t *narrow) {
    uint64_t inverse = p;  /* p^-1 mod 2^64 by Newton's iteration, as flat_residues */
    for (int i = 0; i < 6; i++) inverse *= 2 - p * inverse;
    const uint64_t minus_inverse = 0 - inverse;
    const uint64_t r_mod = (uint64_t)(((u128)1 << 64) % p), r2 = (uint64_t)(((u128)r_mod * r_mod) % p);
    uint64_t f[ROWS * SEVEN];
    factor_residues(counts, t->value_of, p, minus_inverse, r2, f);
#define MUL(a, b) redc((u128)(a) * (b), p, minus_inverse)
#define FR(r, m) f[(r) * SEVEN + (m)]
    OUTER_PRODUCTS(uint64_t, FR, MUL)
#undef FR
#undef MUL
    (void)first, (void)second, (void)third;
    /* A row's three factors by `most` and `other` (offsets into the outer products laid end to end), in both rings:
     * three offsets a row read, not six. */
    const Py_ssize_t rows = t->rows;
    const uint16_t *const most = t->most, *const other0 = t->other[0], *const other1 = t->other[1];
    if (narrow_factors)
        for (Py_ssize_t r = 0; r < rows; r++) {
            const uint16_t a = other0[r], b = other1[r], c = most[r];
            const u128 weight = (u128)(uint64_t)wide[a] * (uint64_t)wide[b] * wide[c];
            weights[r] = weight;
            narrow[r] = (uint32_t)redc((u128)(products[a] * products[b]) * products[c], p, minus_inverse);
        }
    else
        for (Py_ssize_t r = 0; r < rows; r++) {
            const uint16_t a = other0[r], b = other1[r], c = most[r];
            const u128 weight = wide[a] * wide[b] * wide[c];
            weights[r] = weight;
            narrow[r] = (uint32_t)redc((u128)(products[a] * products[b]) * products[c], p, minus_inverse);
        }
}

/* flat_residues(table, counts, primes, exact, inverses) -> list[int]
 *
 * A shoe past the 128-bit proof: the same sums modulo each of k primes below 2^62 (counts: k blocks of 13 uint64,
 * each count as factor_residues takes it for that prime; primes: k uint64) and, when `exact` holds the shoe's 13
 * counts (a shoe of fewer than 2^64 cards), modulo 2^128 too: the 128-bit kernel's own arithmetic, whose unsigned
 * products and sums wrap, is exact modulo 2^128 (a ring), and that modulus costs no reduction at all. Every product of two residues is below
 * 2^124 and is reduced before the next; a run adds fewer than 2^31 residues below 2^62 in an unsigned __int128 and
 * reduces its sum; a coefficient enters as its residue. So every residue is exact, and the caller rebuilds each
 * count by the Chinese remainder theorem from enough primes (counts_of; flat.native.residue_sums, with its bound).
 *
 * The rows are gathered once for all the primes: each row's k residues lie side by side, and a run walks its rows
 * once per four primes, their sums in registers (the walk over the table, not the arithmetic, is most of a prime's
 * cost alone).
 * inverses: the primes' inverses modulo each other, as counts_of takes them. Returns every column's exact count
 * (counts_of), where the caller's moduli exceed twice the bound on a count; with 2^128 among them the residues kept
 * are those of y, where the count is x = (x mod 2^128) + 2^128·y (Garner's first step, here on the way). */
static PyObject *flat_residues(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Table *t;
    Py_buffer fb, pb, eb = {0}, ib;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "flat_residues(table, counts, primes, exact, inverses) takes 5 arguments");
        return NULL;
    }
    if (read_shoe(args, nargs, "flat_residues", &t, &fb, -1) < 0) return NULL;
    if (PyObject_GetBuffer(args[2], &pb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&fb);
        return NULL;
    }
    if (PyObject_GetBuffer(args[4], &ib, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&fb);
        PyBuffer_Release(&pb);
        return NULL;
    }
    const int wrap = args[3] != Py_None;
    if (wrap && PyObject_GetBuffer(args[3], &eb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&fb);
        PyBuffer_Release(&pb);
        PyBuffer_Release(&ib);
        return NULL;
    }
    PyObject *result = NULL;
    uint64_t *weights = NULL, *column = NULL, *out = NULL;
    u128 *wrapped_all = NULL;
    /* Each row's lanes, side by side: (wrap) its weight modulo 2^128 as two 64-bit words, then its held residue
     * modulo each prime. */
    const Py_ssize_t k = pb.len / 8, lanes = k + 2 * wrap, rows = t->rows, columns = t->columns;
    /* 2^128 and one prime below 2^32 (a count's bound below 2^128·p/2, some 2^159: the core bets' shoes to some
     * 1.2·10^7 cards): the rows' weights modulo 2^128 in one array, their residues in 32 bits in another, 20 bytes a
     * row walked instead of 24. */
    const int small = wrap && k == 1 && pb.len == 8 && ((const uint64_t *)pb.buf)[0] >> 32 == 0;
    const uint64_t *primes = pb.buf, *all = fb.buf;
    if (pb.len % 8 || k == 0 || fb.len != k * 13 * 8 || (wrap && eb.len != 13 * 8) || ib.len != k * (k - 1) / 2 * 8) {
        PyErr_SetString(PyExc_ValueError, "flat_residues: malformed arguments");
        goto done;
    }
    for (Py_ssize_t q = 0; q < k; q++)
        if (primes[q] % 2 == 0 || primes[q] >> 62) {
            PyErr_SetString(PyExc_ValueError, "flat_residues: each modulus must be odd and below 2^62");
            goto done;
        }
    weights = PyMem_Malloc((rows ? rows : 1) * lanes * sizeof(uint64_t));
    /* per prime: the column's count, -p^-1 mod 2^64, a run's held sum, and R^2 mod p */
    column = PyMem_Malloc(k * sizeof(uint64_t) * 4);
    out = PyMem_Malloc((columns ? k * columns : 1) * sizeof(uint64_t));  /* k blocks of `columns` residues */
    wrapped_all = PyMem_Malloc((columns ? columns : 1) * sizeof(u128));     /* (wrap) each count modulo 2^128 */
    if (!weights || !column || !out || !wrapped_all) {
        PyErr_NoMemory();
        goto done;
    }
    /* (small) the weights modulo 2^128 (16 bytes a row, from the block's start: PyMem_Malloc's blocks are 16-byte
     * aligned on 64-bit builds, as malloc's), then the residues: 24 bytes a row allocated, 20 used */
    uint32_t *const narrow = (uint32_t *)(weights + 2 * rows);
    if (wrap) {  /* the weights modulo 2^128: the 128-bit kernel's arithmetic, whose products wrap (unsigned) */
        u128 f[ROWS][SEVEN];
        factor_exact(eb.buf, t->value_of, f);
#define FW(r, m) f[r][m]
        OUTER_PRODUCTS(u128, FW, PLAIN_TIMES)
#undef FW
        if (small) {
            const uint64_t *exact = eb.buf;
            u128 cards = 0;
            for (int r = 0; r < 13; r++) cards += exact[r];
            small_weights(t, products, all, primes[0], cards <= 2642245, (u128 *)weights, narrow);
        } else
            for (Py_ssize_t r = 0; r < rows; r++) {
                u128 weight = first[t->i0[r]] * second[t->i1[r]] * third[t->i2[r]];
                weights[r * lanes] = (uint64_t)weight;
                weights[r * lanes + 1] = (uint64_t)(weight >> 64);
            }
    }
    uint64_t *minus_inverses = column + k, *held = column + 2 * k, *r_squared = column + 3 * k;
    /* The primes walk_wrap reduces (the first one or two, with 2^128): their held sums come times R^-1. */
    const Py_ssize_t reduced_by_walk = wrap ? (k == 3 ? 3 : k < 2 ? k : 2) : 0;
    const Py_ssize_t from = 2 * wrap;  /* where a row's residues start */
    for (Py_ssize_t q = 0; q < k; q++) {
        /* Montgomery arithmetic modulo p (odd, below 2^62), R = 2^64: x is held as xR mod p, and MUL(a, b) is
         * REDC(a·b) = a·b·R^-1 mod p, exact since a·b + m·p < 2^124 + 2^126 < 2^128. A sum of held values is the
         * held sum; the result leaves the form by REDC(x) = x·R^-1. */
        const uint64_t p = primes[q];
        uint64_t inverse = p;  /* p^-1 mod 2^64 by Newton's iteration: each step doubles the correct bits */
        for (int i = 0; i < 6; i++) inverse *= 2 - p * inverse;
        const uint64_t minus_inverse = 0 - inverse;
        const uint64_t r_mod = (uint64_t)(((u128)1 << 64) % p), r2 = (uint64_t)(((u128)r_mod * r_mod) % p);
        minus_inverses[q] = minus_inverse;
        r_squared[q] = r2;
        if (small)  /* its residues made with the weights modulo 2^128 (small_weights) */
            continue;
        uint64_t f[ROWS * SEVEN];
        factor_residues(all + q * 13, t->value_of, p, minus_inverse, r2, f);
#define MUL(a, b) redc((u128)(a) * (b), p, minus_inverse)
#define FR(r, m) f[(r) * SEVEN + (m)]
        OUTER_PRODUCTS(uint64_t, FR, MUL)
        for (Py_ssize_t r = 0; r < rows; r++)
            weights[r * lanes + from + q] = MUL(MUL(first[t->i0[r]], second[t->i1[r]]), third[t->i2[r]]);
#undef FR
#undef MUL
    }
    const int32_t *w = t->runs;
    for (Py_ssize_t j = 0; j < columns; j++) {
        for (Py_ssize_t q = 0; q < k; q++) column[q] = 0;
        u128 wrapped = 0, small_sum = 0;
        int32_t nruns = *w++;
        for (int32_t n = 0; n < nruns; n++) {
            int32_t coefficient = w[0], nrows = w[1];
            const int32_t *row = w + 2;
            Py_ssize_t q0 = 0;
            u128 wrapped_sum = 0;
            if (small) {
                /* c·sum, unreduced: c as its residue c' < p < 2^32 and the run's sum below nrows·2^32, so each
                 * product is below 2^32·nrows·2^32, and the column's, whose runs hold each row at most once (fewer
                 * than 2^31), below 2^95 < p·2^64: one REDC at the column's end takes it. */
                const uint64_t p = primes[0];
                uint64_t sum;
                walk_small((const u128 *)weights, narrow, row, nrows, &wrapped_sum, &sum);
                const uint64_t c = coefficient >= 0 ? (uint64_t)coefficient : p - (uint64_t)(-(int64_t)coefficient);
                small_sum += (u128)c * sum;
                wrapped += (u128)(s128)coefficient * wrapped_sum;  /* modulo 2^128 */
                w = row + nrows;
                continue;
            } else if (wrap) {
                (k == 1 ? walk_wrap_1 : k == 2 ? walk_wrap_2 : k == 3 ? walk_wrap_3 : walk_wrap_any)(
                    weights, lanes, row, nrows, primes, minus_inverses, &wrapped_sum, held);
                q0 = reduced_by_walk;
            }
            for (; q0 < k; q0 += 4) {
                switch (k - q0 < 4 ? k - q0 : 4) {
                    case 1: WALK(1); break;
                    case 2: WALK(2); break;
                    case 3: WALK(3); break;
                    default: WALK(4); break;
                }
            }
            w = row + nrows;
            if (wrap) wrapped += (u128)(s128)coefficient * wrapped_sum;  /* modulo 2^128 */
            for (Py_ssize_t q = 0; q < k; q++) {
                /* c·sum mod p, out of Montgomery's form: the rows' sum is held (sum·R mod p), so
                 * REDC(c·sum·R) = c·sum. |c| < 2^31 < p, so c mod p is c or p + c; the product is below p^2. */
                const uint64_t p = primes[q];
                const uint64_t c = coefficient >= 0 ? (uint64_t)coefficient : p - (uint64_t)(-(int64_t)coefficient);
                column[q] += redc((u128)c * held[q], p, minus_inverses[q]);
                if (column[q] >= p) column[q] -= p;
            }
        }
        /* times R, out of the R^-1 walk_wrap left: REDC(x·R^2) */
        for (Py_ssize_t q = 0; q < (small ? 0 : reduced_by_walk); q++)
            column[q] = redc((u128)column[q] * r_squared[q], primes[q], minus_inverses[q]);
        /* (small) the rows were held as w·R^2: the column's sum is its count times R^2, and REDC twice leaves it */
        if (small) column[0] = redc(redc(small_sum, primes[0], minus_inverses[0]), primes[0], minus_inverses[0]);
        for (Py_ssize_t q = 0; q < k; q++) {
            /* With 2^128 among the moduli, Garner's first step: the count x = a + 2^128·y with a its residue
             * modulo 2^128 and y ≡ (r - a)·2^-128 modulo p, and REDC twice multiplies by R^-2 = 2^-128. */
            const uint64_t p = primes[q];
            const uint64_t r = wrap ? (column[q] + p - (uint64_t)(wrapped % p)) % p : column[q];
            out[q * columns + j] = wrap ? redc(redc(r, p, minus_inverses[q]), p, minus_inverses[q]) : r;
        }
        wrapped_all[j] = wrapped;
    }
    result = counts_of(out, wrap ? wrapped_all : NULL, k, columns, primes, minus_inverses, ib.buf);
done:
    PyMem_Free(weights);
    PyMem_Free(column);
    PyMem_Free(out);
    PyMem_Free(wrapped_all);
    PyBuffer_Release(&fb);
    PyBuffer_Release(&pb);
    PyBuffer_Release(&ib);
    if (wrap) PyBuffer_Release(&eb);
    return result;
}

/* flat_probe(runs, columns, rows) -> bytes
 *
 * The probe check of a flat table read from disk (exactodds.puntobanco.compiled.probe.FlatProbe.holds): runs as
 * flat_sums takes them; rows: k distinct row numbers (int32); returns k blocks of `columns` int64 sums,
 * little-endian: for row i and column j, the coefficients of column j's runs added once for each time row i
 * appears in them. Each sum is below 2^31 times the number of entries (fewer than 2^31): it fits an int64. */
static PyObject *flat_probe(PyObject *self, PyObject *args) {
    Py_buffer rb, pb;
    Py_ssize_t columns;
    if (!PyArg_ParseTuple(args, "y*ny*", &rb, &columns, &pb)) return NULL;
    PyObject *result = NULL;
    int64_t *sums = NULL;
    Py_ssize_t k = pb.len / 4;
    if (rb.len % 4 || pb.len % 4 || columns < 0 || k >= 1 << 16 || columns > PY_SSIZE_T_MAX / 8 / (k ? k : 1)) {
        PyErr_SetString(PyExc_ValueError, "flat_probe: malformed arguments");
        goto done;
    }
    /* slot[row] = 1 + which of the rows it is (0: none); a row beyond uint16 is in no table made here. */
    static uint16_t slot[1 << 16];
    memset(slot, 0, sizeof slot);
    const int32_t *probe = pb.buf;
    for (Py_ssize_t i = 0; i < k; i++) {
        if (probe[i] < 0 || probe[i] >= 1 << 16 || slot[probe[i]]) {
            PyErr_SetString(PyExc_ValueError, "flat_probe: the rows are not distinct uint16 numbers");
            goto done;
        }
        slot[probe[i]] = (uint16_t)(i + 1);
    }
    sums = PyMem_Calloc(k * columns + 1, sizeof(int64_t));
    if (!sums) {
        PyErr_NoMemory();
        goto done;
    }
    const int32_t *w = rb.buf, *end = w + rb.len / 4;
    for (Py_ssize_t j = 0; j < columns; j++) {
        if (w >= end) goto malformed;
        int32_t nruns = *w++;
        for (int32_t n = 0; n < nruns; n++) {
            if (end - w < 2) goto malformed;
            int64_t coefficient = *w++;
            int32_t nrows = *w++;
            if (nrows < 0 || end - w < nrows) goto malformed;
            for (int32_t e = 0; e < nrows; e++) {
                int32_t row = w[e];
                if (row >= 0 && row < 1 << 16 && slot[row]) sums[(slot[row] - 1) * columns + j] += coefficient;
            }
            w += nrows;
        }
    }
    if (w != end) goto malformed;
    result = PyBytes_FromStringAndSize((const char *)sums, k * columns * (Py_ssize_t)sizeof(int64_t));
    goto done;
malformed:
    PyErr_SetString(PyExc_ValueError, "flat_probe: the runs are malformed");
done:
    PyMem_Free(sums);
    PyBuffer_Release(&rb);
    PyBuffer_Release(&pb);
    return result;
}

static PyMethodDef methods[] = {
    {"flat_probe", flat_probe, METH_VARARGS,
     "flat_probe(runs, columns, rows) -> bytes: each row's coefficients summed in each column (int64)."},
    {"prepare", prepare, METH_VARARGS,
     "prepare(index0, index1, index2, runs, columns) -> Table: a compiled table, checked once, for the sums."},
    {"flat_residues", (PyCFunction)(void (*)(void))flat_residues, METH_FASTCALL,
     "flat_residues(table, counts, primes, exact, inverses) -> list[int]: each column's count, by residues."},
    {"flat_sums", (PyCFunction)(void (*)(void))flat_sums, METH_FASTCALL,
     "flat_sums(table, counts, narrow) -> list[int]: each column's exact count."},
    {"flat_sums_many", (PyCFunction)(void (*)(void))flat_sums_many, METH_FASTCALL,
     "flat_sums_many(table, counts) -> list[list[int]]: flat_sums of many shoes in 64-bit words, two at a time."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_exactodds_kernel",
                                    "The flat table's sums in C (see exactodds/puntobanco/compiled/flat.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__exactodds_kernel(void) {
    if (PyType_Ready(&TableType) < 0) return NULL;
    return PyModule_Create(&module);
}
