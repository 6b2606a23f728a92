// The TagLib plug-in, loaded at the first call (see ctaglib.h): each function here calls
// the plug-in's own, resolved once; without the plug-in each says so by its status.

#include "ctaglib.h"
#include "runtime_library.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char plugin_name[] = "libbluelib-taglib.so";

static struct {
  int (*read_descriptor)(int, const char *, int, CTLTrack *);
  const char *(*extensions)(void);
  void (*track_free)(CTLTrack *);
  int (*write)(const char *, const CTLTags *);
  int (*read_lyrics)(int, const char *, CTLLyrics *);
  void (*lyrics_free)(CTLLyrics *);
  int (*copy_attributes)(int, int);
  int (*read_rating_tags)(int, const char *, CTLBytes *);
  void (*bytes_free)(CTLBytes *);
} plugin;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[PATH_MAX * 2 + 256];

/// A plug-in of another bluelib is refused: its functions would misread this one's structs.
static int same_interface(void *handle, const char *path, char *why, size_t why_size) {
  int (*abi)(void) = NULL;
  *(void **)&abi = dlsym(handle, "ctlp_abi");
  int found = abi != NULL ? abi() : 1;
  if (found == CTL_ABI) return RL_LOADED;
  snprintf(why, why_size, "%s is of another bluelib (interface %d; this one needs %d)", path, found, CTL_ABI);
  return RL_UNUSABLE;
}

static void load(void) {
  char executable[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
  if (length <= 0) {
    snprintf(failure, sizeof failure, "cannot find the running program to look for %s beside it", plugin_name);
    return;
  }
  executable[length] = '\0';
  char *slash = strrchr(executable, '/');
  if (slash != NULL) *slash = '\0';
  // Beside the program (the build directory, or an installation that keeps them
  // together), then where `bash .ci/run install` puts it; checked and loaded as every
  // library is (runtime_library.h): a file there that is not a whole library (truncated, a
  // FIFO) is said, never mapped.
  char beside[PATH_MAX * 2], installed[PATH_MAX * 2];
  snprintf(beside, sizeof beside, "%s/%s", executable, plugin_name);
  snprintf(installed, sizeof installed, "%s/../lib/bluelib/%s", executable, plugin_name);
  const char *const places[] = {beside, installed};
  const rl_symbol symbols[] = {
    {"ctlp_read_descriptor", (void **)&plugin.read_descriptor},
    {"ctlp_extensions", (void **)&plugin.extensions},
    {"ctlp_track_free", (void **)&plugin.track_free},
    {"ctlp_write", (void **)&plugin.write},
    {"ctlp_read_lyrics", (void **)&plugin.read_lyrics},
    {"ctlp_lyrics_free", (void **)&plugin.lyrics_free},
    {"ctlp_copy_attributes", (void **)&plugin.copy_attributes},
    {"ctlp_read_rating_tags", (void **)&plugin.read_rating_tags},
    {"ctlp_bytes_free", (void **)&plugin.bytes_free},
  };
  void *handle = NULL;
  char why[PATH_MAX * 2 + 128];
  int result = rl_load(
    "TagLib plug-in", places, 2, symbols, sizeof symbols / sizeof symbols[0], same_interface, &handle, why, sizeof why,
    NULL, 0);
  if (result == RL_NOT_FOUND) {
    snprintf(
      failure, sizeof failure, "TagLib's plug-in %s is neither in %s nor in %s/../lib/bluelib", plugin_name,
      executable, executable);
  } else if (result != RL_LOADED) {
    snprintf(failure, sizeof failure, "cannot load TagLib's plug-in: %s; reinstall bluelib", why);
  }
  loaded = result == RL_LOADED;
}

static int ready(void) {
  pthread_once(&load_once, load);
  return loaded;
}

const char *ctl_unavailable(void) { return ready() ? NULL : failure; }

/// A read without the plug-in: it still takes its descriptor, and leaves `result` empty.
static int unavailable(int descriptor, void *result, size_t size) {
  if (descriptor >= 0) close(descriptor);
  memset(result, 0, size);
  return CTL_UNAVAILABLE;
}

int ctl_read(const char *path, int flags, CTLTrack *track) { return ctl_read_descriptor(-1, path, flags, track); }

int ctl_read_descriptor(int descriptor, const char *path, int flags, CTLTrack *track) {
  if (ready()) return plugin.read_descriptor(descriptor, path, flags, track);
  return unavailable(descriptor, track, sizeof *track);
}

const char *ctl_extensions(void) { return ready() ? plugin.extensions() : ""; }

void ctl_track_free(CTLTrack *track) {
  if (ready()) plugin.track_free(track);
}

int ctl_write(const char *path, const CTLTags *tags) { return ready() ? plugin.write(path, tags) : CTL_UNAVAILABLE; }

int ctl_read_lyrics(int descriptor, const char *path, CTLLyrics *lyrics) {
  if (ready()) return plugin.read_lyrics(descriptor, path, lyrics);
  return unavailable(descriptor, lyrics, sizeof *lyrics);
}

void ctl_lyrics_free(CTLLyrics *lyrics) {
  if (ready()) plugin.lyrics_free(lyrics);
}

int ctl_copy_attributes(int source, int target) { return ready() ? plugin.copy_attributes(source, target) : 0; }

int ctl_read_rating_tags(int descriptor, const char *path, CTLBytes *tags) {
  if (ready()) return plugin.read_rating_tags(descriptor, path, tags);
  return unavailable(descriptor, tags, sizeof *tags);
}

void ctl_bytes_free(CTLBytes *tags) {
  if (ready()) plugin.bytes_free(tags);
}
