// ICU's regular expressions, loaded at the first pattern (see cicu.h): each function here
// calls ICU's own, resolved once.

#include "cicu.h"
#include "runtime_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// ICU's declarations (unicode/utypes.h, parseerr.h, uregex.h).
typedef uint16_t UChar;
typedef int8_t UBool;
typedef int32_t UErrorCode;
#define U_ZERO_ERROR 0
#define U_FAILURE(code) ((code) > U_ZERO_ERROR)
typedef struct {
  int32_t line;
  int32_t offset;
  UChar preContext[16];
  UChar postContext[16];
} UParseError;
typedef UBool URegexMatchCallback(const void *context, int32_t steps);
typedef UBool URegexFindProgressCallback(const void *context, int64_t matchIndex);

// The major versions looked for, newest first: a soname names one (libicui18n.so.72), and
// so do the symbols (uregex_open_72). ICU 60 came out in 2017.
#define CICU_NEWEST 99
#define CICU_OLDEST 60

static struct {
  cicu_regex *(*open)(const UChar *, int32_t, uint32_t, UParseError *, UErrorCode *);
  cicu_regex *(*clone)(const cicu_regex *, UErrorCode *);
  void (*close)(cicu_regex *);
  void (*set_text)(cicu_regex *, const UChar *, int32_t, UErrorCode *);
  UBool (*find_next)(cicu_regex *, UErrorCode *);
  void (*set_match_callback)(cicu_regex *, URegexMatchCallback *, const void *, UErrorCode *);
  void (*set_find_progress_callback)(cicu_regex *, URegexFindProgressCallback *, const void *, UErrorCode *);
} icu;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[1024];

/// `name` with ICU's version suffix (`_72`), or as it is when the library has no such
/// symbol (an ICU built without renaming).
static void *resolve(void *handle, const char *name, int version, int *missing) {
  char suffixed[64];
  snprintf(suffixed, sizeof suffixed, "%s_%d", name, version);
  void *symbol = dlsym(handle, suffixed);
  if (symbol == NULL) symbol = dlsym(handle, name);
  if (symbol == NULL && !*missing) {
    *missing = 1;
    snprintf(failure, sizeof failure, "the ICU installed (libicui18n.so.%d) has no %s", version, name);
  }
  return symbol;
}

static void load(void) {
  // From the system's library folders (and LD_LIBRARY_PATH's), never beside the program, and
  // checked before it is mapped (runtime_library.h). A file found that cannot be loaded is
  // what is said, rather than a name not found after it.
  void *handle = NULL;
  int version = CICU_NEWEST;
  char first_error[512] = "";
  for (; version >= CICU_OLDEST && handle == NULL; version--) {
    char name[32], why[512];
    snprintf(name, sizeof name, "libicui18n.so.%d", version);
    int result = rl_open(name, &handle, why, sizeof why, NULL, 0);
    if (result == RL_UNUSABLE && first_error[0] == '\0') snprintf(first_error, sizeof first_error, "%s", why);
    if (result == RL_LOADED) break;
  }
  if (handle == NULL) {
    if (first_error[0] == '\0') {
      snprintf(
        first_error, sizeof first_error,
        "no libicui18n.so.%d to .%d in LD_LIBRARY_PATH nor in the system's library folders; Debian: libicu72 or later",
        CICU_OLDEST, CICU_NEWEST);
    }
    snprintf(failure, sizeof failure, "cannot load ICU (%s)", first_error);
    return;
  }
  int missing = 0;
  // The casts go through void * as dlsym's manual page says.
  *(void **)&icu.open = resolve(handle, "uregex_open", version, &missing);
  *(void **)&icu.clone = resolve(handle, "uregex_clone", version, &missing);
  *(void **)&icu.close = resolve(handle, "uregex_close", version, &missing);
  *(void **)&icu.set_text = resolve(handle, "uregex_setText", version, &missing);
  *(void **)&icu.find_next = resolve(handle, "uregex_findNext", version, &missing);
  *(void **)&icu.set_match_callback = resolve(handle, "uregex_setMatchCallback", version, &missing);
  *(void **)&icu.set_find_progress_callback = resolve(handle, "uregex_setFindProgressCallback", version, &missing);
  if (missing) return;
  loaded = 1;
}

const char *cicu_unavailable(void) {
  pthread_once(&load_once, load);
  return loaded ? NULL : failure;
}

cicu_regex *cicu_regex_open(const uint16_t *pattern, int32_t length, uint32_t flags) {
  UParseError parse_error;
  UErrorCode status = U_ZERO_ERROR;
  cicu_regex *regex = icu.open(pattern, length, flags, &parse_error, &status);
  if (regex != NULL && U_FAILURE(status)) {
    icu.close(regex);
    return NULL;
  }
  return regex;
}

cicu_regex *cicu_regex_clone(const cicu_regex *regex) {
  UErrorCode status = U_ZERO_ERROR;
  cicu_regex *copy = icu.clone(regex, &status);
  if (copy != NULL && U_FAILURE(status)) {
    icu.close(copy);
    return NULL;
  }
  return copy;
}

void cicu_regex_close(cicu_regex *regex) { icu.close(regex); }

struct progress {
  int (*call)(void *);
  void *context;
  int stopped;
};

/// Whether the search goes on (the caller's `call` says so); a stop is remembered.
static UBool goes_on(const void *context) {
  struct progress *progress = (struct progress *)context;
  if (progress->call(progress->context)) return 1;
  progress->stopped = 1;
  return 0;
}

static UBool on_match_step(const void *context, int32_t steps) {
  (void)steps;
  return goes_on(context);
}

static UBool on_find_progress(const void *context, int64_t index) {
  (void)index;
  return goes_on(context);
}

int cicu_regex_find(
  cicu_regex *regex, const uint16_t *text, int32_t length, int (*call)(void *context), void *context) {
  static const UChar empty[1] = {0};
  struct progress progress = {call, context, 0};
  UErrorCode status = U_ZERO_ERROR;
  icu.set_text(regex, text, length, &status);
  icu.set_match_callback(regex, on_match_step, &progress, &status);
  icu.set_find_progress_callback(regex, on_find_progress, &progress, &status);
  int result = CICU_FAILED;
  if (!U_FAILURE(status)) {
    UBool found = icu.find_next(regex, &status);
    if (progress.stopped) {
      result = CICU_STOPPED;
    } else if (U_FAILURE(status)) {
      result = CICU_FAILED;
    } else {
      result = found ? CICU_FOUND : CICU_NOT_FOUND;
    }
  }
  // As NSRegularExpression leaves it: no text, no callbacks (the text is the caller's).
  UErrorCode reset = U_ZERO_ERROR;
  icu.set_text(regex, empty, 0, &reset);
  icu.set_match_callback(regex, NULL, NULL, &reset);
  icu.set_find_progress_callback(regex, NULL, NULL, &reset);
  return result;
}
