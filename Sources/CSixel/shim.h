#ifndef CSIXEL_SHIM_H
#define CSIXEL_SHIM_H

// The system's libsixel (Debian libsixel-dev, pkg-config "libsixel"), which turns RGB
// pixels into a sixel stream: palette (median cut), dithering and the run-length encoded
// bands. Nothing used here is variadic, so Swift calls the API directly.

#include <sixel.h>

#endif
