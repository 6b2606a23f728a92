#include <stdlib.h>

#include "JPEGErrors.h"

typedef struct EncoderState {
  struct jpeg_compress_struct cinfo;
  CIDErrorManager error;
  unsigned char *buffer;
  unsigned long bufferSize;
  int created;
} EncoderState;

int cid_jpeg_encode(const uint8_t *pixels, int width, int height, int components,
                    int quality, int progressive, uint8_t **output, size_t *outputSize,
                    char message[CID_MESSAGE_LENGTH]) {
  *output = NULL;
  *outputSize = 0;
  J_COLOR_SPACE space;
  switch (components) {
  case 1: space = JCS_GRAYSCALE; break;
  case 3: space = JCS_RGB; break;
  case 4: space = JCS_CMYK; break;
  default:
    snprintf(message, CID_MESSAGE_LENGTH, "unsupported component count %d", components);
    return CID_UNSUPPORTED;
  }
  EncoderState *state = calloc(1, sizeof *state);
  if (state == NULL) {
    snprintf(message, CID_MESSAGE_LENGTH, "out of memory");
    return CID_NO_MEMORY;
  }
  state->cinfo.err = cid_error_manager(&state->error, message);
  if (setjmp(state->error.jump)) {
    // The destination's buffer may be lost here if libjpeg failed mid-stream; encoding
    // only fails on bad arguments, which the Swift side rules out.
    if (state->created) jpeg_destroy_compress(&state->cinfo);
    free(state->buffer);
    free(state);
    return CID_CORRUPT;
  }
  jpeg_create_compress(&state->cinfo);
  state->created = 1;
  struct jpeg_compress_struct *cinfo = &state->cinfo;
  jpeg_mem_dest(cinfo, &state->buffer, &state->bufferSize);
  cinfo->image_width = (JDIMENSION)width;
  cinfo->image_height = (JDIMENSION)height;
  cinfo->input_components = components;
  cinfo->in_color_space = space;
  jpeg_set_defaults(cinfo);
  jpeg_set_quality(cinfo, quality, TRUE);
  if (progressive) jpeg_simple_progression(cinfo);
  jpeg_start_compress(cinfo, TRUE);
  size_t stride = (size_t)width * (size_t)components;
  while (cinfo->next_scanline < cinfo->image_height) {
    JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * stride);
    jpeg_write_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_compress(cinfo);
  jpeg_destroy_compress(cinfo);
  *output = state->buffer;
  *outputSize = state->bufferSize;
  free(state);
  return CID_OK;
}
