/* nicfit/version.h - the library and tool version. */
#ifndef NICFIT_VERSION_H
#define NICFIT_VERSION_H

#define NICFIT_VERSION "0.1.0"

#endif
