#ifndef CSIXEL_SHIM_H
#define CSIXEL_SHIM_H

// The system's libsixel (Debian libsixel-dev, pkg-config "libsixel"), which turns RGB
// pixels into a sixel stream: palette (median cut), dithering and the run-length encoded
// bands. Nothing used here is variadic, so Swift calls the API directly.
//
// On Linux the package names no pkg-config file (see Package.swift: its -L would come
// before the static libraries of the release link), so the header is found by its
// directory under /usr/include; elsewhere pkg-config puts that directory on the path.

#if __has_include(<sixel.h>)
#include <sixel.h>
#else
#include <sixel/sixel.h>
#endif

#endif
