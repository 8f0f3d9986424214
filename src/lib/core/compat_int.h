/*
 * compat_int.h - the usual cage of a port rate, shared by the port
 * matcher (parts/compat.c) and the cluster sizer's generic ports: a
 * library-wide header, in core/. Internal to libnicfit.
 */
#ifndef NICFIT_COMPAT_INT_H
#define NICFIT_COMPAT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "compat_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

/*
 * The cage a generic port of gbps has: the usual one of each Ethernet
 * rate and of the InfiniBand data rates that are not also Ethernet rates;
 * NULL for a rate no port runs at.
 */
const char *nicfit__usual_cage(double gbps);

#endif
