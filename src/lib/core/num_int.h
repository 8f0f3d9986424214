/*
 * num_int.h - comparing the library's floating-point figures.
 *
 * Rates, sizes and times are doubles computed from catalog figures and
 * formulas; two that should be equal ("the slot feeds exactly what the
 * ports need") can differ in the last bits. Every such comparison uses
 * NICFIT_EPS, one tolerance far below anything the outputs print (3
 * decimals at most) and far above double rounding on the magnitudes used
 * (below 1e7 Gb/s, GB or s). Internal to libnicfit.
 */
#ifndef NICFIT_NUM_INT_H
#define NICFIT_NUM_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "num_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#define NICFIT_EPS 1e-9

#endif
