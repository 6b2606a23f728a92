#ifndef CIMAGEDECODING_H
#define CIMAGEDECODING_H

// JPEG decoding and encoding over libjpeg-turbo, for CoverArt.
//
// libjpeg reports errors by calling an error handler that must not return; the only
// safe way out is longjmp back to a setjmp in C. A longjmp across Swift frames is
// undefined behaviour, so every libjpeg call is made from this file's functions, each of
// which sets its own jump target and turns any failure into a status code and message.

#include <stddef.h>
#include <stdint.h>

/// Status codes of the functions below.
enum {
  CID_OK = 0,
  /// The data is truncated or corrupt; `message` says what libjpeg found.
  CID_CORRUPT = 1,
  /// The data is a JPEG this decoder does not convert (a colour space other than
  /// grey, YCbCr, RGB, CMYK or YCCK); `message` says which.
  CID_UNSUPPORTED = 2,
  /// malloc failed.
  CID_NO_MEMORY = 3,
};

/// The size of every message buffer here, libjpeg's own JMSG_LENGTH_MAX.
#define CID_MESSAGE_LENGTH 200

/// One JPEG decode in two steps, like libpng's simplified API: `cid_jpeg_begin` reads the
/// header and chooses the output size, the caller allocates `width * height * 3` bytes,
/// and `cid_jpeg_finish` decompresses into them. The input bytes must stay valid and
/// unchanged from `begin` to `finish` or `abort`.
typedef struct CIDJPEGDecode {
  /// The image's size, from its frame header.
  int sourceWidth;
  int sourceHeight;
  /// The output's size: the source size after DCT scaling (1/8, 1/4, 1/2 or 1).
  int width;
  int height;
  /// The file's colour components: 1 grey, 3 YCbCr or RGB, 4 CMYK or YCCK.
  int components;
  /// Why the last call failed (NUL-terminated, libjpeg's wording).
  char message[CID_MESSAGE_LENGTH];
  /// libjpeg's state between the calls; NULL once finished, aborted or failed.
  void *state;
} CIDJPEGDecode;

/// Reads the header of the JPEG in `data`. The output is scaled down by the largest of
/// 1/8, 1/4 and 1/2 that keeps it at least `minimumWidth` x `minimumHeight` (pass 0 and 0
/// for full size). On failure the state is already released.
int cid_jpeg_begin(CIDJPEGDecode *decode, const uint8_t *data, size_t size,
                   int minimumWidth, int minimumHeight);

/// Decompresses the image begun by `cid_jpeg_begin` into `rgb` as 8-bit RGB rows of
/// `rowStride` bytes (at least `width * 3`). Grey is expanded and CMYK/YCCK converted.
/// Truncated data and damaged entropy-coded data are errors, not grey fill.
/// Releases the state whatever the outcome.
int cid_jpeg_finish(CIDJPEGDecode *decode, uint8_t *rgb, size_t rowStride);

/// Releases the state of a decode begun but not finished (safe to call at any time).
void cid_jpeg_abort(CIDJPEGDecode *decode);

/// Encodes `width` x `height` pixels of `components` bytes each (1 grey, 3 RGB, 4 CMYK
/// stored Adobe-style, inverted) as a baseline or progressive JPEG of `quality` 1...100.
/// On success `*output` holds `*outputSize` bytes to release with `cid_free`.
int cid_jpeg_encode(const uint8_t *pixels, int width, int height, int components,
                    int quality, int progressive, uint8_t **output, size_t *outputSize,
                    char message[CID_MESSAGE_LENGTH]);

/// Releases memory returned by this module.
void cid_free(void *pointer);

#endif
