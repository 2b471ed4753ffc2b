/* The flat table's sums in C: one shoe's exact outcome counts from a bet set's compiled coefficients.
 *
 * The same arithmetic as FlatTable.evaluate in exactodds/puntobanco/compiled/flat.py (read its
 * docstring first): the shoe's factor rows (12 rows of 7 entries, made in Python by the one
 * factor_rows), their three outer products, each row's weight as a product of one entry of
 * each, and each column as runs of rows sharing one coefficient c: Σ_c c · Σ_rows weight.
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

/* The same sums in 64-bit words, for a shoe small enough (the caller's flat.native.narrow: N^6 < 2^64 and
 * 3·(N)_6 < 2^64, up to 1,356 cards): half the memory traffic of the 128-bit path, and cheaper products. The
 * factors are still handed over as 128-bit integers (each below 2^64 then). */
static PyObject *narrow_sums(u128 f128[ROWS][SEVEN], const uint16_t *i0, const uint16_t *i1, const uint16_t *i2,
                             Py_ssize_t rows, const int32_t *w, Py_ssize_t words, Py_ssize_t columns) {
    uint64_t f[ROWS][SEVEN];
    for (int r = 0; r < ROWS; r++)
        for (int m = 0; m < SEVEN; m++) f[r][m] = (uint64_t)f128[r][m];
    static const int block_rows[3] = {0, 10, 11};
    uint64_t first[3 * SEVEN * SEVEN * SEVEN], second[SEVEN * SEVEN * SEVEN], third[SEVEN * SEVEN * SEVEN * SEVEN];
    int k = 0;
    for (int z = 0; z < 3; z++)
        for (int a = 0; a < SEVEN; a++)
            for (int b = 0; b < SEVEN; b++)
                for (int c = 0; c < SEVEN; c++) first[k++] = f[block_rows[z]][a] * f[1][b] * f[2][c];
    k = 0;
    for (int a = 0; a < SEVEN; a++)
        for (int b = 0; b < SEVEN; b++)
            for (int c = 0; c < SEVEN; c++) second[k++] = f[3][a] * f[4][b] * f[5][c];
    k = 0;
    for (int a = 0; a < SEVEN; a++)
        for (int b = 0; b < SEVEN; b++)
            for (int c = 0; c < SEVEN; c++)
                for (int d = 0; d < SEVEN; d++) third[k++] = f[6][a] * f[7][b] * f[8][c] * f[9][d];
    uint64_t *weights = PyMem_Malloc((rows ? rows : 1) * sizeof(uint64_t));
    if (!weights) return PyErr_NoMemory();
    PyObject *result = NULL;
    for (Py_ssize_t r = 0; r < rows; r++) {
        if (i0[r] >= 3 * SEVEN * SEVEN * SEVEN || i1[r] >= SEVEN * SEVEN * SEVEN ||
            i2[r] >= SEVEN * SEVEN * SEVEN * SEVEN) {
            PyErr_SetString(PyExc_IndexError, "flat_sums: an offset is out of range");
            goto done;
        }
        weights[r] = first[i0[r]] * second[i1[r]] * third[i2[r]];
    }
    result = PyBytes_FromStringAndSize(NULL, columns * 32);
    if (!result) goto done;
    char *out = PyBytes_AS_STRING(result);
    const int32_t *end = w + words;
    for (Py_ssize_t j = 0; j < columns; j++) {
        s128 hi = 0, lo = 0;
        if (w >= end) goto malformed;
        int32_t nruns = *w++;
        for (int32_t n = 0; n < nruns; n++) {
            if (end - w < 2) goto malformed;
            int32_t coefficient = *w++, nrows = *w++;
            if (nrows < 0 || end - w < nrows) goto malformed;
            uint64_t sum = 0;
            for (int32_t i = 0; i < nrows; i++) {
                int32_t row = w[i];
                if (row < 0 || row >= rows) {
                    PyErr_SetString(PyExc_IndexError, "flat_sums: a row number is out of range");
                    Py_CLEAR(result);
                    goto done;
                }
                sum += weights[row];
            }
            w += nrows;
            lo += (s128)coefficient * (s128)sum;
        }
        memcpy(out + 32 * j, &hi, 16);
        memcpy(out + 32 * j + 16, &lo, 16);
    }
    goto done;
malformed:
    PyErr_SetString(PyExc_ValueError, "flat_sums: the runs are malformed");
    Py_CLEAR(result);
done:
    PyMem_Free(weights);
    return result;
}

/* flat_sums(factors, index0, index1, index2, runs, columns, narrow) -> bytes
 *
 * factors: 84 little-endian unsigned 128-bit integers (the factor rows, row by row);
 * index0, index1, index2: the rows' offsets into the three outer products (uint16 each, R of them);
 * runs: int32 words, for each of the `columns` columns: its number of runs, then for each run
 *       its coefficient, its number of rows and the row numbers;
 * narrow: the shoe is small enough for 64-bit words (narrow_sums);
 * returns 32 bytes per column: the signed 128-bit accumulators hi and lo, little-endian. */
static PyObject *flat_sums(PyObject *self, PyObject *args) {
    Py_buffer fb, b0, b1, b2, rb;
    Py_ssize_t columns;
    int narrow;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*np", &fb, &b0, &b1, &b2, &rb, &columns, &narrow)) return NULL;
    PyObject *result = NULL;
    u128 f[ROWS][SEVEN];
    u128 *weights = NULL;
    if (fb.len != (Py_ssize_t)sizeof(f) || b0.len != b1.len || b0.len != b2.len || b0.len % 2 || rb.len % 4 ||
        columns < 0) {
        PyErr_SetString(PyExc_ValueError, "flat_sums: malformed arguments");
        goto done;
    }
    memcpy(f, fb.buf, sizeof(f));  /* the machine is little-endian: the caller checks it */
    /* The three outer products, in RowWeights' order: (block, m0, m1, m2), (m3, m4, m5), (m6, m7, m8, m9). */
    static const int block_rows[3] = {0, 10, 11};
    u128 first[3 * SEVEN * SEVEN * SEVEN], second[SEVEN * SEVEN * SEVEN], third[SEVEN * SEVEN * SEVEN * SEVEN];
    int k = 0;
    for (int z = 0; z < 3; z++)
        for (int a = 0; a < SEVEN; a++)
            for (int b = 0; b < SEVEN; b++)
                for (int c = 0; c < SEVEN; c++) first[k++] = f[block_rows[z]][a] * f[1][b] * f[2][c];
    k = 0;
    for (int a = 0; a < SEVEN; a++)
        for (int b = 0; b < SEVEN; b++)
            for (int c = 0; c < SEVEN; c++) second[k++] = f[3][a] * f[4][b] * f[5][c];
    k = 0;
    for (int a = 0; a < SEVEN; a++)
        for (int b = 0; b < SEVEN; b++)
            for (int c = 0; c < SEVEN; c++)
                for (int d = 0; d < SEVEN; d++) third[k++] = f[6][a] * f[7][b] * f[8][c] * f[9][d];
    Py_ssize_t rows = b0.len / 2;
    const uint16_t *i0 = b0.buf, *i1 = b1.buf, *i2 = b2.buf;
    if (narrow) {
        result = narrow_sums(f, i0, i1, i2, rows, rb.buf, rb.len / 4, columns);
        goto done;
    }
    weights = PyMem_Malloc((rows ? rows : 1) * sizeof(u128));
    if (!weights) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t r = 0; r < rows; r++) {
        if (i0[r] >= 3 * SEVEN * SEVEN * SEVEN || i1[r] >= SEVEN * SEVEN * SEVEN ||
            i2[r] >= SEVEN * SEVEN * SEVEN * SEVEN) {
            PyErr_SetString(PyExc_IndexError, "flat_sums: an offset is out of range");
            goto done;
        }
        weights[r] = first[i0[r]] * second[i1[r]] * third[i2[r]];
    }
    result = PyBytes_FromStringAndSize(NULL, columns * 32);
    if (!result) goto done;
    char *out = PyBytes_AS_STRING(result);
    const int32_t *w = rb.buf, *end = w + rb.len / 4;
    for (Py_ssize_t j = 0; j < columns; j++) {
        s128 hi = 0, lo = 0;
        if (w >= end) goto malformed;
        int32_t nruns = *w++;
        for (int32_t n = 0; n < nruns; n++) {
            if (end - w < 2) goto malformed;
            int32_t coefficient = *w++, nrows = *w++;
            if (nrows < 0 || end - w < nrows) goto malformed;
            u128 sum = 0;
            for (int32_t i = 0; i < nrows; i++) {
                int32_t row = w[i];
                if (row < 0 || row >= rows) {
                    PyErr_SetString(PyExc_IndexError, "flat_sums: a row number is out of range");
                    Py_CLEAR(result);
                    goto done;
                }
                sum += weights[row];
            }
            w += nrows;
            hi += (s128)coefficient * (s128)(uint64_t)(sum >> 64);
            lo += (s128)coefficient * (s128)(uint64_t)sum;
        }
        memcpy(out + 32 * j, &hi, 16);
        memcpy(out + 32 * j + 16, &lo, 16);
    }
    goto done;
malformed:
    PyErr_SetString(PyExc_ValueError, "flat_sums: the runs are malformed");
    Py_CLEAR(result);
done:
    PyMem_Free(weights);
    PyBuffer_Release(&fb);
    PyBuffer_Release(&b0);
    PyBuffer_Release(&b1);
    PyBuffer_Release(&b2);
    PyBuffer_Release(&rb);
    return result;
}

static PyMethodDef methods[] = {
    {"flat_sums", flat_sums, METH_VARARGS,
     "flat_sums(factors, index0, index1, index2, runs, columns, narrow) -> bytes: each column's two 128-bit"
     " accumulators."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_exactodds_kernel",
                                    "The flat table's sums in C (see exactodds/puntobanco/compiled/flat.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__exactodds_kernel(void) { return PyModule_Create(&module); }
