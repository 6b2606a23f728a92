#ifndef CIMAGEDECODING_JPEGERRORS_H
#define CIMAGEDECODING_JPEGERRORS_H

// libjpeg's error manager, made to jump back instead of exiting the process and to stay
// silent instead of printing to stderr.

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

#include "CImageDecoding.h"

typedef struct CIDErrorManager {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  /// Where the message goes: a CID_MESSAGE_LENGTH buffer owned by the caller.
  char *message;
} CIDErrorManager;

/// Records `text` and jumps back to the function that called libjpeg.
static inline void cid_fail(j_common_ptr cinfo, const char *text) {
  CIDErrorManager *manager = (CIDErrorManager *)cinfo->err;
  snprintf(manager->message, CID_MESSAGE_LENGTH, "%s", text);
  longjmp(manager->jump, 1);
}

/// libjpeg's fatal errors.
static inline void cid_on_error(j_common_ptr cinfo) {
  char text[JMSG_LENGTH_MAX];
  cinfo->err->format_message(cinfo, text);
  cid_fail(cinfo, text);
}

/// Warnings that mean the pixels are wrong: the data ended early (libjpeg would fill the
/// rest with grey) or the entropy-coded data is damaged. Other warnings (stray bytes
/// between markers, an odd JFIF version) leave a good image and are ignored.
static inline int cid_warning_is_fatal(int code) {
  switch (code) {
  case JWRN_JPEG_EOF:
  case JWRN_HIT_MARKER:
  case JWRN_MUST_RESYNC:
  case JWRN_HUFF_BAD_CODE:
  case JWRN_ARITH_BAD_CODE:
  case JWRN_NOT_SEQUENTIAL:
    return 1;
  default:
    return 0;
  }
}

/// libjpeg's warnings (level -1) and trace messages (0 and up).
static inline void cid_on_message(j_common_ptr cinfo, int level) {
  if (level < 0 && cid_warning_is_fatal(cinfo->err->msg_code)) cid_on_error(cinfo);
}

/// Never print.
static inline void cid_on_output(j_common_ptr cinfo) { (void)cinfo; }

/// Installs the handlers; `message` must hold CID_MESSAGE_LENGTH bytes.
static inline struct jpeg_error_mgr *cid_error_manager(CIDErrorManager *manager, char *message) {
  struct jpeg_error_mgr *pub = jpeg_std_error(&manager->pub);
  pub->error_exit = cid_on_error;
  pub->emit_message = cid_on_message;
  pub->output_message = cid_on_output;
  manager->message = message;
  message[0] = '\0';
  return pub;
}

#endif
