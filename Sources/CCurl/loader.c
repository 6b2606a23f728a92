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

/// A libcurl older than the options bluelib sets is refused, not called.
static int new_enough(void *handle, const char *path, char *why, size_t why_size) {
  (void)handle;
  const curl_version_info_data *version = curl.version_info(CURLVERSION_NOW);
  if (version != NULL && version->version_num >= CCURL_OLDEST) return RL_LOADED;
  snprintf(
    why, why_size, "the libcurl at %s (%s) is too old: " CCURL_OLDEST_TEXT " or later is needed", path,
    version != NULL && version->version != NULL ? version->version : "of unknown version");
  return RL_UNUSABLE;
}

static void load(void) {
  // From the system's library folders (and LD_LIBRARY_PATH's), never beside the program,
  // checked before it is mapped, as every library is loaded (runtime_library.h).
  const rl_symbol symbols[] = {
    {"curl_global_init", (void **)&curl.global_init},
    {"curl_version_info", (void **)&curl.version_info},
    {"curl_easy_init", (void **)&curl.easy_init},
    {"curl_easy_cleanup", (void **)&curl.easy_cleanup},
    {"curl_easy_strerror", (void **)&curl.easy_strerror},
    {"curl_easy_setopt", (void **)&curl.easy_setopt},
    {"curl_easy_getinfo", (void **)&curl.easy_getinfo},
    {"curl_slist_append", (void **)&curl.slist_append},
    {"curl_slist_free_all", (void **)&curl.slist_free_all},
    {"curl_multi_init", (void **)&curl.multi_init},
    {"curl_multi_cleanup", (void **)&curl.multi_cleanup},
    {"curl_multi_setopt", (void **)&curl.multi_setopt},
    {"curl_multi_add_handle", (void **)&curl.multi_add_handle},
    {"curl_multi_remove_handle", (void **)&curl.multi_remove_handle},
    {"curl_multi_perform", (void **)&curl.multi_perform},
    {"curl_multi_poll", (void **)&curl.multi_poll},
    {"curl_multi_wakeup", (void **)&curl.multi_wakeup},
    {"curl_multi_info_read", (void **)&curl.multi_info_read},
  };
  void *handle = NULL;
  char why[768];
  int result = rl_load(
    "libcurl", library_names, sizeof library_names / sizeof library_names[0], symbols,
    sizeof symbols / sizeof symbols[0], new_enough, &handle, why, sizeof why, NULL, 0);
  if (result != RL_LOADED) {
    snprintf(failure, sizeof failure, "cannot load libcurl (%s)", why);
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
