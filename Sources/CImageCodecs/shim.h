#ifndef CIMAGECODECS_SHIM_H
#define CIMAGECODECS_SHIM_H

// The system's libpng (1.6, simplified `png_image_*` API) and libjpeg-turbo.
// Neither API used here is variadic, so there are no wrappers: libpng's simplified API
// is called from Swift directly, and libjpeg's setjmp/longjmp error handling lives in C
// (the CImageDecoding target), because longjmp must never cross a Swift frame.

#include <stddef.h>
#include <stdio.h>
#include <png.h>
#include <jpeglib.h>
#include <jerror.h>

#endif
