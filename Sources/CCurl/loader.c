// libcurl, loaded at the first download (see ccurl.h): each function here calls libcurl's
// own, resolved once.

#include "ccurl.h"
#include "runtime_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The names tried, in order: the runtime package's (Debian libcurl4), then the development
// link (libcurl4-openssl-dev and the like), for a build of libcurl with another version.
static const char *const library_names[] = {"libcurl.so.4", "libcurl.so"};

// CURLOPT_PROTOCOLS_STR came with 7.85.0 (curl_multi_poll with 7.66, curl_multi_wakeup with 7.68).
#define CCURL_OLDEST 0x075500
#define CCURL_OLDEST_TEXT "7.85.0"

static struct {
  CURLcode (*global_init)(long);
  curl_version_info_data *(*version_info)(CURLversion);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_cleanup)(CURLM *);
  CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_perform)(CURLM *, int *);
  CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
  CURLMcode (*multi_wakeup)(CURLM *);
  CURLMsg *(*multi_info_read)(CURLM *, int *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[1024];

static void *resolve(void *handle, const char *name, int *missing) {
  void *symbol = dlsym(handle, name);
  if (symbol == NULL && !*missing) {
    *missing = 1;
    snprintf(failure, sizeof failure, "the libcurl installed has no %s (too old?)", name);
  }
  return symbol;
}

static void load(void) {
  // From the system's library folders (and LD_LIBRARY_PATH's), never beside the program, and
  // checked before it is mapped (runtime_library.h). A file found that cannot be loaded is
  // what is said, rather than a name not found after it.
  void *handle = NULL;
  char first_error[512] = "";
  int first_result = RL_NOT_FOUND;
  for (size_t index = 0; index < sizeof library_names / sizeof library_names[0] && handle == NULL; index++) {
    char why[512];
    int result = rl_open(library_names[index], &handle, why, sizeof why, NULL, 0);
    if (result != RL_LOADED && (first_error[0] == '\0' || (first_result == RL_NOT_FOUND && result != first_result))) {
      snprintf(first_error, sizeof first_error, "%s", why);
      first_result = result;
    }
  }
  if (handle == NULL) {
    snprintf(failure, sizeof failure, "cannot load libcurl (%s)", first_error);
    return;
  }
  int missing = 0;
  // The casts go through void * as dlsym's manual page says.
  *(void **)&curl.global_init = resolve(handle, "curl_global_init", &missing);
  *(void **)&curl.version_info = resolve(handle, "curl_version_info", &missing);
  *(void **)&curl.easy_init = resolve(handle, "curl_easy_init", &missing);
  *(void **)&curl.easy_cleanup = resolve(handle, "curl_easy_cleanup", &missing);
  *(void **)&curl.easy_strerror = resolve(handle, "curl_easy_strerror", &missing);
  *(void **)&curl.easy_setopt = resolve(handle, "curl_easy_setopt", &missing);
  *(void **)&curl.easy_getinfo = resolve(handle, "curl_easy_getinfo", &missing);
  *(void **)&curl.slist_append = resolve(handle, "curl_slist_append", &missing);
  *(void **)&curl.slist_free_all = resolve(handle, "curl_slist_free_all", &missing);
  *(void **)&curl.multi_init = resolve(handle, "curl_multi_init", &missing);
  *(void **)&curl.multi_cleanup = resolve(handle, "curl_multi_cleanup", &missing);
  *(void **)&curl.multi_setopt = resolve(handle, "curl_multi_setopt", &missing);
  *(void **)&curl.multi_add_handle = resolve(handle, "curl_multi_add_handle", &missing);
  *(void **)&curl.multi_remove_handle = resolve(handle, "curl_multi_remove_handle", &missing);
  *(void **)&curl.multi_perform = resolve(handle, "curl_multi_perform", &missing);
  *(void **)&curl.multi_poll = resolve(handle, "curl_multi_poll", &missing);
  *(void **)&curl.multi_wakeup = resolve(handle, "curl_multi_wakeup", &missing);
  *(void **)&curl.multi_info_read = resolve(handle, "curl_multi_info_read", &missing);
  if (missing) return;
  const curl_version_info_data *version = curl.version_info(CURLVERSION_NOW);
  if (version == NULL || version->version_num < CCURL_OLDEST) {
    snprintf(
      failure, sizeof failure, "the libcurl installed (%s) is too old: " CCURL_OLDEST_TEXT " or later is needed",
      version != NULL && version->version != NULL ? version->version : "of unknown version");
    return;
  }
  // Once, before any other call and before any other thread uses libcurl.
  CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
  if (code != CURLE_OK) {
    snprintf(failure, sizeof failure, "cannot start libcurl (%s)", curl.easy_strerror(code));
    return;
  }
  loaded = 1;
}

const char *ccurl_unavailable(void) {
  pthread_once(&load_once, load);
  return loaded ? NULL : failure;
}

CURL *ccurl_easy_init(void) { return curl.easy_init(); }

void ccurl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }

const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
  return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl.easy_getinfo(handle, info, value);
}

CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl.easy_getinfo(handle, info, value);
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) {
  return curl.slist_append(list, string);
}

void ccurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLM *ccurl_multi_init(void) { return curl.multi_init(); }

CURLMcode ccurl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl.multi_setopt(multi, option, value);
}

CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }

CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }

CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }

CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready) {
  return curl.multi_poll(multi, NULL, 0, timeout_ms, ready);
}

CURLMcode ccurl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }

CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued) { return curl.multi_info_read(multi, queued); }
