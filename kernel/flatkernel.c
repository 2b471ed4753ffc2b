/* The flat table's sums in C: one shoe's exact outcome counts from a bet set's compiled coefficients.
 *
 * The same arithmetic as FlatTable.evaluate in exactodds/puntobanco/compiled/flat.py (read its
 * docstring first): the shoe's factor rows (12 rows of 7 entries, the rows of
 * exactodds.puntobanco.compiled.factors.factor_rows, made here from the 13 counts: factor_exact,
 * factor_residues; tests/test_native.py holds them to the Python rows' counts), their three outer
 * products, each row's weight as a product of one entry of each, and each column as runs of rows
 * sharing one coefficient c: Σ_c c · Σ_rows weight.
 *
 * Exactness (checked by the caller, flat.kernel_fits, before it calls in):
 * - every factor entry, and every entry of an outer product that a row gathers, is a product
 *   of falling factorials with multiplicities adding up to at most 6, so at most N^6 for an
 *   N-card shoe; the caller requires N^6 < 2^128, so each fits an unsigned __int128. Entries
 *   whose multiplicities add up to more than 6 may wrap around (unsigned: defined behaviour);
 *   they belong to no multiset and are never gathered;
 * - a row's weight is at most (N)_6, and the weights of all rows of one block add up to at
 *   most (N)_6 (each multiset has at least one ordering), so a run's sum of weights is at most
 *   3·(N)_6, which the caller requires below 2^128;
 * - a run's sum S = S_hi·2^64 + S_lo is multiplied by its coefficient c (|c| < 2^31) in two
 *   signed __int128 accumulators, hi += c·S_hi and lo += c·S_lo: each product is below 2^95
 *   and a column has fewer than 2^31 runs, so neither accumulator can overflow. The column's
 *   count is hi·2^64 + lo, made in Python integers from the two.
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

/* The sums for one shoe in words of type WORD: the three outer products of its factor rows, each row's weight,
 * and each column's runs, into the two signed 128-bit accumulators (HIGH(sum): the sum's bits from 2^64 up).
 * Made twice below: in 64-bit words for a shoe small enough (the caller's flat.native.narrow: N^6 < 2^64 and
 * 3·(N)_6 < 2^64, up to 1,356 cards), half the memory traffic and cheaper products; and in 128-bit words up to
 * the proof's bound. The factor rows come as 128-bit integers (each below 2^64 for the narrow words). */
#define DEFINE_SUMS(NAME, WORD, HIGH)                                                                              \
    static PyObject *NAME(u128 f128[ROWS][SEVEN], const uint16_t *i0, const uint16_t *i1, const uint16_t *i2,    \
                          Py_ssize_t rows, const int32_t *w, Py_ssize_t words, Py_ssize_t columns) {               \
        WORD f[ROWS][SEVEN];                                                                                       \
        for (int r = 0; r < ROWS; r++)                                                                             \
            for (int m = 0; m < SEVEN; m++) f[r][m] = (WORD)f128[r][m];                                            \
        /* The three outer products, in RowWeights' order: (block, m0, m1, m2), (m3, m4, m5), (m6, m7, m8, m9). */ \
        static const int block_rows[3] = {0, 10, 11};                                                              \
        WORD first[3 * SEVEN * SEVEN * SEVEN], second[SEVEN * SEVEN * SEVEN], third[SEVEN * SEVEN * SEVEN * SEVEN]; \
        int k = 0;                                                                                                 \
        for (int z = 0; z < 3; z++)                                                                                \
            for (int a = 0; a < SEVEN; a++)                                                                        \
                for (int b = 0; b < SEVEN; b++)                                                                    \
                    for (int c = 0; c < SEVEN; c++) first[k++] = f[block_rows[z]][a] * f[1][b] * f[2][c];          \
        k = 0;                                                                                                     \
        for (int a = 0; a < SEVEN; a++)                                                                            \
            for (int b = 0; b < SEVEN; b++)                                                                        \
                for (int c = 0; c < SEVEN; c++) second[k++] = f[3][a] * f[4][b] * f[5][c];                         \
        k = 0;                                                                                                     \
        for (int a = 0; a < SEVEN; a++)                                                                            \
            for (int b = 0; b < SEVEN; b++)                                                                        \
                for (int c = 0; c < SEVEN; c++)                                                                    \
                    for (int d = 0; d < SEVEN; d++) third[k++] = f[6][a] * f[7][b] * f[8][c] * f[9][d];            \
        WORD *weights = PyMem_Malloc((rows ? rows : 1) * sizeof(WORD));                                            \
        if (!weights) return PyErr_NoMemory();                                                                     \
        PyObject *result = NULL;                                                                                   \
        for (Py_ssize_t r = 0; r < rows; r++) {                                                                    \
            if (i0[r] >= 3 * SEVEN * SEVEN * SEVEN || i1[r] >= SEVEN * SEVEN * SEVEN ||                            \
                i2[r] >= SEVEN * SEVEN * SEVEN * SEVEN) {                                                          \
                PyErr_SetString(PyExc_IndexError, "flat_sums: an offset is out of range");                          \
                goto done;                                                                                         \
            }                                                                                                      \
            weights[r] = first[i0[r]] * second[i1[r]] * third[i2[r]];                                              \
        }                                                                                                          \
        result = PyBytes_FromStringAndSize(NULL, columns * 32);                                                    \
        if (!result) goto done;                                                                                    \
        char *out = PyBytes_AS_STRING(result);                                                                     \
        const int32_t *end = w + words;                                                                            \
        for (Py_ssize_t j = 0; j < columns; j++) {                                                                 \
            s128 hi = 0, lo = 0;                                                                                   \
            if (w >= end) goto malformed;                                                                          \
            int32_t nruns = *w++;                                                                                  \
            for (int32_t n = 0; n < nruns; n++) {                                                                  \
                if (end - w < 2) goto malformed;                                                                   \
                int32_t coefficient = *w++, nrows = *w++;                                                          \
                if (nrows < 0 || end - w < nrows) goto malformed;                                                  \
                WORD sum = 0;                                                                                      \
                for (int32_t i = 0; i < nrows; i++) {                                                              \
                    int32_t row = w[i];                                                                            \
                    if (row < 0 || row >= rows) {                                                                  \
                        PyErr_SetString(PyExc_IndexError, "flat_sums: a row number is out of range");              \
                        Py_CLEAR(result);                                                                          \
                        goto done;                                                                                 \
                    }                                                                                              \
                    sum += weights[row];                                                                           \
                }                                                                                                  \
                w += nrows;                                                                                        \
                hi += (s128)coefficient * (s128)HIGH(sum);                                                         \
                lo += (s128)coefficient * (s128)(uint64_t)sum;                                                     \
            }                                                                                                      \
            memcpy(out + 32 * j, &hi, 16);                                                                         \
            memcpy(out + 32 * j + 16, &lo, 16);                                                                    \
        }                                                                                                          \
        goto done;                                                                                                 \
    malformed:                                                                                                     \
        PyErr_SetString(PyExc_ValueError, "flat_sums: the runs are malformed");                                    \
        Py_CLEAR(result);                                                                                          \
    done:                                                                                                          \
        PyMem_Free(weights);                                                                                       \
        return result;                                                                                             \
    }

static inline uint64_t no_high(uint64_t x) { (void)x; return 0; }
static inline uint64_t high_of(u128 x) { return (uint64_t)(x >> 64); }
DEFINE_SUMS(narrow_sums, uint64_t, no_high)
DEFINE_SUMS(wide_sums, u128, high_of)

/* flat_sums(counts, value_of, index0, index1, index2, runs, columns, narrow) -> bytes
 *
 * counts: the shoe's 13 counts by rank (uint64); value_of: the value of each rank (13 bytes);
 * index0, index1, index2: the rows' offsets into the three outer products (uint16 each, R of them);
 * runs: int32 words, for each of the `columns` columns: its number of runs, then for each run
 *       its coefficient, its number of rows and the row numbers;
 * narrow: the shoe is small enough for 64-bit words (narrow_sums, else wide_sums);
 * returns 32 bytes per column: the signed 128-bit accumulators hi and lo, little-endian. */
static PyObject *flat_sums(PyObject *self, PyObject *args) {
    Py_buffer fb, vb, b0, b1, b2, rb;
    Py_ssize_t columns;
    int narrow;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*np", &fb, &vb, &b0, &b1, &b2, &rb, &columns, &narrow)) return NULL;
    PyObject *result = NULL;
    u128 f[ROWS][SEVEN];
    int values_ok = vb.len == 13;
    for (int r = 0; values_ok && r < 13; r++) values_ok = ((const uint8_t *)vb.buf)[r] < 10;
    if (fb.len != 13 * 8 || !values_ok || b0.len != b1.len || b0.len != b2.len || b0.len % 2 || rb.len % 4 ||
        columns < 0) {
        PyErr_SetString(PyExc_ValueError, "flat_sums: malformed arguments");
        goto done;
    }
    factor_exact(fb.buf, vb.buf, f);
    result = (narrow ? narrow_sums : wide_sums)(f, b0.buf, b1.buf, b2.buf, b0.len / 2, rb.buf, rb.len / 4, columns);
done:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&b0);
    PyBuffer_Release(&b1);
    PyBuffer_Release(&b2);
    PyBuffer_Release(&rb);
    return result;
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

/* flat_residues(counts, primes, value_of, index0, index1, index2, runs, columns) -> bytes
 *
 * A shoe past the 128-bit proof: the same sums modulo each of k primes below 2^62 (counts: k blocks of 13 uint64,
 * each count as factor_residues takes it for that prime; primes: k uint64; value_of: 13 bytes). Every product of two residues is below 2^124
 * and is reduced before the next; a run adds fewer than 2^31 residues below 2^62 in an unsigned __int128 and
 * reduces its sum; a coefficient enters as its residue. So every residue is exact, and the caller rebuilds each
 * count by the Chinese remainder theorem from enough primes (flat.native.residue_sums, with its bound).
 * Returns k blocks of `columns` uint64 residues, little-endian. */
static PyObject *flat_residues(PyObject *self, PyObject *args) {
    Py_buffer fb, pb, vb, b0, b1, b2, rb;
    Py_ssize_t columns;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*n", &fb, &pb, &vb, &b0, &b1, &b2, &rb, &columns)) return NULL;
    PyObject *result = NULL;
    uint64_t *weights = NULL;
    Py_ssize_t k = pb.len / 8, rows = b0.len / 2;
    const uint8_t *value_of = vb.buf;
    int values_ok = vb.len == 13;
    for (int r = 0; values_ok && r < 13; r++) values_ok = value_of[r] < 10;
    if (pb.len % 8 || fb.len != k * 13 * 8 || !values_ok || b0.len != b1.len || b0.len != b2.len || b0.len % 2 ||
        rb.len % 4 || columns < 0) {
        PyErr_SetString(PyExc_ValueError, "flat_residues: malformed arguments");
        goto done;
    }
    const uint16_t *i0 = b0.buf, *i1 = b1.buf, *i2 = b2.buf;
    for (Py_ssize_t r = 0; r < rows; r++)
        if (i0[r] >= 3 * SEVEN * SEVEN * SEVEN || i1[r] >= SEVEN * SEVEN * SEVEN ||
            i2[r] >= SEVEN * SEVEN * SEVEN * SEVEN) {
            PyErr_SetString(PyExc_IndexError, "flat_residues: an offset is out of range");
            goto done;
        }
    weights = PyMem_Malloc((rows ? rows : 1) * sizeof(uint64_t));
    if (!weights) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, k * columns * 8);
    if (!result) goto done;
    uint64_t *out = (uint64_t *)PyBytes_AS_STRING(result);
    const uint64_t *primes = pb.buf, *all = fb.buf;
    static const int block_rows[3] = {0, 10, 11};
    for (Py_ssize_t q = 0; q < k; q++) {
        /* Montgomery arithmetic modulo p (odd, below 2^62), R = 2^64: x is held as xR mod p, and MUL(a, b) is
         * REDC(a·b) = a·b·R^-1 mod p, exact since a·b + m·p < 2^124 + 2^126 < 2^128. A sum of held values is the
         * held sum; the result leaves the form by REDC(x) = x·R^-1. */
        const uint64_t p = primes[q];
        if (p % 2 == 0 || p >> 62) {
            PyErr_SetString(PyExc_ValueError, "flat_residues: each modulus must be odd and below 2^62");
            Py_CLEAR(result);
            goto done;
        }
        uint64_t inverse = p;  /* p^-1 mod 2^64 by Newton's iteration: each step doubles the correct bits */
        for (int i = 0; i < 6; i++) inverse *= 2 - p * inverse;
        const uint64_t minus_inverse = 0 - inverse;
        const uint64_t r_mod = (uint64_t)(((u128)1 << 64) % p), r2 = (uint64_t)(((u128)r_mod * r_mod) % p);
        uint64_t f[ROWS * SEVEN];
        factor_residues(all + q * 13, value_of, p, minus_inverse, r2, f);
#define REDC(t) redc((t), p, minus_inverse)
#define MUL(a, b) REDC((u128)(a) * (b))
#define F(r, m) f[(r) * SEVEN + (m)]
        uint64_t first[3 * SEVEN * SEVEN * SEVEN], second[SEVEN * SEVEN * SEVEN], third[SEVEN * SEVEN * SEVEN * SEVEN];
        int n = 0;
        for (int z = 0; z < 3; z++)
            for (int a = 0; a < SEVEN; a++)
                for (int b = 0; b < SEVEN; b++)
                    for (int c = 0; c < SEVEN; c++) first[n++] = MUL(MUL(F(block_rows[z], a), F(1, b)), F(2, c));
        n = 0;
        for (int a = 0; a < SEVEN; a++)
            for (int b = 0; b < SEVEN; b++)
                for (int c = 0; c < SEVEN; c++) second[n++] = MUL(MUL(F(3, a), F(4, b)), F(5, c));
        n = 0;
        for (int a = 0; a < SEVEN; a++)
            for (int b = 0; b < SEVEN; b++) {
                uint64_t ab = MUL(F(6, a), F(7, b));
                for (int c = 0; c < SEVEN; c++) {
                    uint64_t abc = MUL(ab, F(8, c));
                    for (int d = 0; d < SEVEN; d++) third[n++] = MUL(abc, F(9, d));
                }
            }
        for (Py_ssize_t r = 0; r < rows; r++) weights[r] = MUL(MUL(first[i0[r]], second[i1[r]]), third[i2[r]]);
        const int32_t *w = rb.buf, *end = w + rb.len / 4;
        for (Py_ssize_t j = 0; j < columns; j++) {
            uint64_t column = 0;
            if (w >= end) goto malformed;
            int32_t nruns = *w++;
            for (int32_t m = 0; m < nruns; m++) {
                if (end - w < 2) goto malformed;
                int32_t coefficient = *w++, nrows = *w++;
                if (nrows < 0 || end - w < nrows) goto malformed;
                u128 sum = 0;
                for (int32_t i = 0; i < nrows; i++) {
                    int32_t row = w[i];
                    if (row < 0 || row >= rows) {
                        PyErr_SetString(PyExc_IndexError, "flat_residues: a row number is out of range");
                        Py_CLEAR(result);
                        goto done;
                    }
                    sum += weights[row];
                }
                w += nrows;
                uint64_t c = coefficient >= 0 ? (uint64_t)coefficient % p : p - ((uint64_t)(-(int64_t)coefficient) % p);
                column += MUL(MUL(c % p, r2), (uint64_t)(sum % p));  /* held c times held sum: held product */
                if (column >= p) column -= p;
            }
            out[q * columns + j] = REDC((u128)column);  /* out of the form */
        }
#undef F
#undef MUL
#undef REDC
    }
    goto done;
malformed:
    PyErr_SetString(PyExc_ValueError, "flat_residues: the runs are malformed");
    Py_CLEAR(result);
done:
    PyMem_Free(weights);
    PyBuffer_Release(&fb);
    PyBuffer_Release(&pb);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&b0);
    PyBuffer_Release(&b1);
    PyBuffer_Release(&b2);
    PyBuffer_Release(&rb);
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
    {"flat_residues", flat_residues, METH_VARARGS,
     "flat_residues(counts, primes, value_of, index0, index1, index2, runs, columns) -> bytes: each column modulo"
     " each prime."},
    {"flat_sums", flat_sums, METH_VARARGS,
     "flat_sums(counts, value_of, index0, index1, index2, runs, columns, narrow) -> bytes: each column's two 128-bit"
     " accumulators."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_exactodds_kernel",
                                    "The flat table's sums in C (see exactodds/puntobanco/compiled/flat.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__exactodds_kernel(void) { return PyModule_Create(&module); }
