#ifndef CCURL_H
#define CCURL_H

// libcurl for BlueCovers' HTTP downloads, loaded with dlopen at the first download.
//
// libcurl brings OpenSSL, nghttp2, libssh2, Kerberos and some 30 libraries in all: linked,
// every start would map and bind them, `-c quit` and `--version` included (issue 36). Loaded
// here, a run that downloads nothing never maps it, and a machine without it browses and
// imports; a download there fails naming what to install.
//
// The header (Debian libcurl4-openssl-dev) gives the types and constants; this target links
// nothing. The functions below call libcurl's own, resolved once at the first call of
// `ccurl_unavailable` (which every caller makes first). curl_easy_setopt, curl_easy_getinfo
// and curl_multi_setopt are variadic, which Swift cannot call: each gets one wrapper per type
// of argument.

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads libcurl unless it is loaded (once, whatever the thread): NULL when it is ready,
/// else why it cannot be (`cannot load libcurl (libcurl.so.4: …)`), a string that lives
/// as long as the process. No other function here may be called until this returned NULL.
const char *ccurl_unavailable(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);

/// `curl_easy_setopt` for an option that takes a `long`.
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// `curl_easy_setopt` for an option that takes a pointer: a string, a list, a buffer, user data.
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// `curl_easy_setopt` for an option that takes a `curl_off_t`.
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// `curl_easy_setopt` for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value);

/// `curl_easy_getinfo` for an item that is a `long`.
CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// `curl_easy_getinfo` for an item that is a `curl_off_t`.
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
/// `curl_multi_setopt` for an option that takes a `long`.
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
/// `curl_multi_poll` without extra descriptors.
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready);
/// The one call another thread may make on a multi handle.
CURLMcode ccurl_multi_wakeup(CURLM *multi);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued);

#ifdef __cplusplus
}
#endif

#endif
