#include <stdlib.h>

#include "JPEGErrors.h"

/// More scans than any sane progressive JPEG has (libjpeg-turbo's own tools suggest
/// limits in the hundreds); a crafted file with thousands of tiny scans would otherwise
/// keep the decoder busy for a long time.
#define CID_MAXIMUM_SCANS 1000

/// The most 8×8 blocks all scans together may walk: each scan of a progressive JPEG walks
/// every block of the components it codes, so an 8192×8192 picture of 999 scans that
/// carry nothing walks a billion (18 s of CPU). A real cover walks a few million (a
/// 6000×6000 photo in ten scans: 8.4 million); this bound stops a crafted one within about
/// a second.
#define CID_MAXIMUM_BLOCK_SCANS 50000000L

typedef struct DecoderState {
  struct jpeg_decompress_struct cinfo;
  CIDErrorManager error;
  struct jpeg_progress_mgr progress;
  int created;
} DecoderState;

static void on_progress(j_common_ptr cinfo) {
  if (!cinfo->is_decompressor) return;
  j_decompress_ptr decompressor = (j_decompress_ptr)cinfo;
  if (decompressor->input_scan_number > CID_MAXIMUM_SCANS) cid_fail(cinfo, "too many progressive scans");
  // Every component's blocks, counted for each scan begun (a scan may code fewer: the
  // bound errs on the side of stopping).
  long blocks = ((long)decompressor->image_width + 7) / 8 * (((long)decompressor->image_height + 7) / 8) *
                decompressor->num_components;
  if (decompressor->progressive_mode && blocks * decompressor->input_scan_number > CID_MAXIMUM_BLOCK_SCANS)
    cid_fail(cinfo, "too much work: its progressive scans walk more than 50 million blocks");
}

static void release(CIDJPEGDecode *decode) {
  DecoderState *state = decode->state;
  if (state == NULL) return;
  if (state->created) jpeg_destroy_decompress(&state->cinfo);
  free(state);
  decode->state = NULL;
}

/// The DCT scale numerator (over 8) for the smallest output of at least the minimum size.
static unsigned int scale_numerator(int width, int height, int minimumWidth, int minimumHeight) {
  if (minimumWidth <= 0 && minimumHeight <= 0) return 8;
  static const unsigned int candidates[] = {1, 2, 4};
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
    long m = candidates[i];
    long scaledWidth = ((long)width * m + 7) / 8;
    long scaledHeight = ((long)height * m + 7) / 8;
    if (scaledWidth >= minimumWidth && scaledHeight >= minimumHeight) return (unsigned int)m;
  }
  return 8;
}

int cid_jpeg_begin(CIDJPEGDecode *decode, const uint8_t *data, size_t size,
                   int minimumWidth, int minimumHeight) {
  decode->sourceWidth = decode->sourceHeight = 0;
  decode->width = decode->height = decode->components = 0;
  decode->message[0] = '\0';
  DecoderState *state = calloc(1, sizeof *state);
  decode->state = state;
  if (state == NULL) {
    snprintf(decode->message, CID_MESSAGE_LENGTH, "out of memory");
    return CID_NO_MEMORY;
  }
  state->cinfo.err = cid_error_manager(&state->error, decode->message);
  if (setjmp(state->error.jump)) {
    release(decode);
    return CID_CORRUPT;
  }
  jpeg_create_decompress(&state->cinfo);
  state->created = 1;
  state->progress.progress_monitor = on_progress;
  state->cinfo.progress = &state->progress;
  jpeg_mem_src(&state->cinfo, data, (unsigned long)size);
  jpeg_read_header(&state->cinfo, TRUE);

  struct jpeg_decompress_struct *cinfo = &state->cinfo;
  decode->sourceWidth = (int)cinfo->image_width;
  decode->sourceHeight = (int)cinfo->image_height;
  decode->components = cinfo->num_components;
  switch (cinfo->jpeg_color_space) {
  case JCS_GRAYSCALE:
  case JCS_YCbCr:
  case JCS_RGB:
    cinfo->out_color_space = JCS_RGB;
    break;
  case JCS_CMYK:
  case JCS_YCCK:
    cinfo->out_color_space = JCS_CMYK;
    break;
  default:
    snprintf(decode->message, CID_MESSAGE_LENGTH,
             "unsupported colour space with %d components", cinfo->num_components);
    release(decode);
    return CID_UNSUPPORTED;
  }
  cinfo->scale_num = scale_numerator(decode->sourceWidth, decode->sourceHeight,
                                     minimumWidth, minimumHeight);
  cinfo->scale_denom = 8;
  jpeg_calc_output_dimensions(cinfo);
  decode->width = (int)cinfo->output_width;
  decode->height = (int)cinfo->output_height;
  return CID_OK;
}

/// Adobe's CMYK JPEGs (the only common kind) store the inks inverted: 255 is no ink.
static void cmyk_to_rgb(const uint8_t *cmyk, uint8_t *rgb, size_t width, int inverted) {
  for (size_t x = 0; x < width; x++, cmyk += 4, rgb += 3) {
    unsigned c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
    if (!inverted) {
      c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
    }
    rgb[0] = (uint8_t)((c * k + 127) / 255);
    rgb[1] = (uint8_t)((m * k + 127) / 255);
    rgb[2] = (uint8_t)((y * k + 127) / 255);
  }
}

int cid_jpeg_finish(CIDJPEGDecode *decode, uint8_t *rgb, size_t rowStride) {
  DecoderState *state = decode->state;
  if (state == NULL) {
    snprintf(decode->message, CID_MESSAGE_LENGTH, "no JPEG decode in progress");
    return CID_CORRUPT;
  }
  struct jpeg_decompress_struct *cinfo = &state->cinfo;
  uint8_t *volatile cmykRow = NULL;
  if (setjmp(state->error.jump)) {
    free(cmykRow);
    release(decode);
    return CID_CORRUPT;
  }
  jpeg_start_decompress(cinfo);
  int cmyk = cinfo->out_color_space == JCS_CMYK;
  if ((int)cinfo->output_width != decode->width || (int)cinfo->output_height != decode->height ||
      cinfo->output_components != (cmyk ? 4 : 3))
    cid_fail((j_common_ptr)cinfo, "unexpected output size");
  if (cmyk) {
    cmykRow = malloc((size_t)cinfo->output_width * 4);
    if (cmykRow == NULL) cid_fail((j_common_ptr)cinfo, "out of memory");
  }
  while (cinfo->output_scanline < cinfo->output_height) {
    uint8_t *row = rgb + (size_t)cinfo->output_scanline * rowStride;
    if (cmyk) {
      JSAMPROW rows[1] = {cmykRow};
      if (jpeg_read_scanlines(cinfo, rows, 1) != 1)
        cid_fail((j_common_ptr)cinfo, "no scanline decoded");
      cmyk_to_rgb(cmykRow, row, cinfo->output_width, cinfo->saw_Adobe_marker);
    } else {
      // Several rows per call, so libjpeg can hand over an upsampled row group at once.
      JSAMPROW rows[16];
      JDIMENSION count = cinfo->output_height - cinfo->output_scanline;
      if (count > 16) count = 16;
      for (JDIMENSION i = 0; i < count; i++) rows[i] = row + (size_t)i * rowStride;
      if (jpeg_read_scanlines(cinfo, rows, count) == 0)
        cid_fail((j_common_ptr)cinfo, "no scanline decoded");
    }
  }
  jpeg_finish_decompress(cinfo);
  free(cmykRow);
  release(decode);
  return CID_OK;
}

void cid_jpeg_abort(CIDJPEGDecode *decode) { release(decode); }

void cid_free(void *pointer) { free(pointer); }
