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

static void *resolve(void *handle, const char *name, int *missing) {
  void *symbol = dlsym(handle, name);
  if (symbol == NULL && !*missing) {
    *missing = 1;
    snprintf(failure, sizeof failure, "the TagLib plug-in has no %s: %s", name, dlerror());
  }
  return symbol;
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
  // together), then where `bash .ci/run install` puts it. A file there that is not a whole
  // library (truncated, a FIFO) is said, never mapped (runtime_library.h).
  const char *places[] = {"%s/%s", "%s/../lib/bluelib/%s"};
  void *handle = NULL;
  char path[PATH_MAX * 2];
  char why[PATH_MAX * 2 + 128];
  for (size_t index = 0; index < sizeof places / sizeof places[0] && handle == NULL; index++) {
    snprintf(path, sizeof path, places[index], executable, plugin_name);
    int result = rl_open(path, &handle, why, sizeof why, NULL, 0);
    if (result == RL_NOT_FOUND) continue;
    if (result != RL_LOADED) {
      snprintf(failure, sizeof failure, "cannot load TagLib's plug-in: %s; reinstall bluelib", why);
      return;
    }
  }
  if (handle == NULL) {
    snprintf(
      failure, sizeof failure, "TagLib's plug-in %s is neither in %s nor in %s/../lib/bluelib", plugin_name,
      executable, executable);
    return;
  }
  int missing = 0;
  plugin.read_descriptor = resolve(handle, "ctlp_read_descriptor", &missing);
  plugin.extensions = resolve(handle, "ctlp_extensions", &missing);
  plugin.track_free = resolve(handle, "ctlp_track_free", &missing);
  plugin.write = resolve(handle, "ctlp_write", &missing);
  plugin.read_lyrics = resolve(handle, "ctlp_read_lyrics", &missing);
  plugin.lyrics_free = resolve(handle, "ctlp_lyrics_free", &missing);
  plugin.copy_attributes = resolve(handle, "ctlp_copy_attributes", &missing);
  plugin.read_rating_tags = resolve(handle, "ctlp_read_rating_tags", &missing);
  plugin.bytes_free = resolve(handle, "ctlp_bytes_free", &missing);
  loaded = !missing;
}

static int ready(void) {
  pthread_once(&load_once, load);
  return loaded;
}

const char *ctl_unavailable(void) { return ready() ? NULL : failure; }

int ctl_read(const char *path, int flags, CTLTrack *track) { return ctl_read_descriptor(-1, path, flags, track); }

int ctl_read_descriptor(int descriptor, const char *path, int flags, CTLTrack *track) {
  if (ready()) return plugin.read_descriptor(descriptor, path, flags, track);
  if (descriptor >= 0) close(descriptor);
  memset(track, 0, sizeof *track);
  return CTL_UNAVAILABLE;
}

const char *ctl_extensions(void) { return ready() ? plugin.extensions() : ""; }

void ctl_track_free(CTLTrack *track) {
  if (ready()) plugin.track_free(track);
}

int ctl_write(const char *path, const CTLTags *tags) { return ready() ? plugin.write(path, tags) : CTL_UNAVAILABLE; }

int ctl_read_lyrics(int descriptor, const char *path, CTLLyrics *lyrics) {
  if (ready()) return plugin.read_lyrics(descriptor, path, lyrics);
  if (descriptor >= 0) close(descriptor);
  memset(lyrics, 0, sizeof *lyrics);
  return CTL_UNAVAILABLE;
}

void ctl_lyrics_free(CTLLyrics *lyrics) {
  if (ready()) plugin.lyrics_free(lyrics);
}

int ctl_copy_attributes(int source, int target) { return ready() ? plugin.copy_attributes(source, target) : 0; }

int ctl_read_rating_tags(int descriptor, const char *path, CTLBytes *tags) {
  if (ready()) return plugin.read_rating_tags(descriptor, path, tags);
  if (descriptor >= 0) close(descriptor);
  memset(tags, 0, sizeof *tags);
  return CTL_UNAVAILABLE;
}

void ctl_bytes_free(CTLBytes *tags) {
  if (ready()) plugin.bytes_free(tags);
}
