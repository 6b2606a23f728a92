#ifndef CICU_H
#define CICU_H

// ICU's regular expressions for the query language's `::pattern` terms, loaded with dlopen
// at the first pattern (issue 47). Foundation's NSRegularExpression is ICU's engine too, but
// linking Foundation brought all of ICU's data into the binary (36 of its 66 MB): loaded
// here from the system's libicu (Debian libicu72 or later), a run without a pattern never
// maps it, and a machine without it does everything else; a pattern there fails naming what
// to install. The same engine answers as before: the same syntax, and the same callbacks
// that let a match over its time be stopped.
//
// The declarations are ICU's own (unicode/uregex.h), written out here: nothing links ICU and
// the build needs none of its headers. ICU's symbols carry its major version
// (`uregex_open_72`); the loader finds which.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A compiled pattern (ICU's URegularExpression).
typedef struct cicu_regex cicu_regex;

/// `uregex_open`'s flag for a match ignoring case.
#define CICU_CASE_INSENSITIVE 2

/// Loads ICU unless it is loaded (once, whatever the thread): NULL when it is ready, else why
/// it cannot be (`cannot load ICU (libicui18n.so is not in …)`), a string that lives as long
/// as the process. No other function here may be called until this returned NULL.
const char *cicu_unavailable(void);

/// Compiles the UTF-16 `pattern`; NULL when it is no valid pattern.
cicu_regex *cicu_regex_open(const uint16_t *pattern, int32_t length, uint32_t flags);
/// A copy of `regex` that another thread may use at the same time; NULL when out of memory.
cicu_regex *cicu_regex_clone(const cicu_regex *regex);
void cicu_regex_close(cicu_regex *regex);

/// What `cicu_regex_find` found.
enum {
  CICU_NOT_FOUND = 0,
  CICU_FOUND = 1,
  /// `progress` said to stop.
  CICU_STOPPED = 2,
  /// ICU failed (out of memory, a text longer than it takes).
  CICU_FAILED = 3,
};

/// Whether `regex` matches somewhere in the UTF-16 `text`. ICU calls `progress(context)` as
/// it works (its match and find-progress callbacks, as NSRegularExpression's
/// `reportProgress`); 0 from it stops the search. `regex` is used by one thread at a time.
int cicu_regex_find(
  cicu_regex *regex, const uint16_t *text, int32_t length, int (*progress)(void *context), void *context);

#ifdef __cplusplus
}
#endif

#endif
