// The MPRIS object (see csdbus.h): libsystemd's sd-bus loaded at the first play, its
// vtables here (sd-bus's macros fill C arrays; the one symbol they refer to,
// sd_bus_object_vtable_format, is set from the loaded library), served by one thread.

// pipe2.
#define _GNU_SOURCE

#include "csdbus.h"

#if defined(__linux__) && __has_include(<systemd/sd-bus.h>)

#include "runtime_library.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

// The runtime package's name (Debian libsystemd0), then the development link.
static const char *const library_names[] = {"libsystemd.so.0", "libsystemd.so"};

static const char object_path[] = "/org/mpris/MediaPlayer2";
static const char root_interface[] = "org.mpris.MediaPlayer2";
static const char player_interface[] = "org.mpris.MediaPlayer2.Player";
static const char track_prefix[] = "/org/bluelib/track/";

static struct {
  const unsigned *object_vtable_format;
  int (*open_user)(sd_bus **);
  int (*add_object_vtable)(sd_bus *, sd_bus_slot **, const char *, const char *, const sd_bus_vtable *, void *);
  int (*request_name)(sd_bus *, const char *, uint64_t);
  int (*get_fd)(sd_bus *);
  int (*get_events)(sd_bus *);
  int (*get_timeout)(sd_bus *, uint64_t *);
  int (*process)(sd_bus *, sd_bus_message **);
  int (*emit_properties_changed_strv)(sd_bus *, const char *, const char *, char **);
  int (*emit_signal)(sd_bus *, const char *, const char *, const char *, const char *, ...);
  int (*message_open_container)(sd_bus_message *, char, const char *);
  int (*message_close_container)(sd_bus_message *);
  int (*message_append_basic)(sd_bus_message *, char, const void *);
  int (*message_read_basic)(sd_bus_message *, char, void *);
  int (*reply_method_return)(sd_bus_message *, const char *, ...);
} sd;

static csdbus_callbacks callbacks;
static atomic_int started;
/// The wake-up pipe's write end, -1 until the thread runs.
static atomic_int wake_fd = -1;
static int wake_read = -1;
/// What the getters answer: the last refresh. Read and written on the bus thread only.
static csdbus_state current;
static sd_bus *bus;

void csdbus_copy(char **field, const char *text) {
  free(*field);
  *field = text != NULL ? strdup(text) : NULL;
}

static void release(csdbus_state *state) {
  free(state->title);
  free(state->album);
  free(state->artist);
  free(state->album_artist);
  free(state->art_url);
  memset(state, 0, sizeof *state);
}

static int same_text(const char *a, const char *b) {
  return (a == NULL || b == NULL) ? a == b : strcmp(a, b) == 0;
}

/// Asks the player what it shows and signals what changed since the last time.
static void refresh(void) {
  csdbus_state fresh;
  memset(&fresh, 0, sizeof fresh);
  callbacks.refresh(callbacks.context, &fresh);
  char *changed[5];
  size_t count = 0;
  if (fresh.status != current.status) changed[count++] = "PlaybackStatus";
  if (fresh.track != current.track || fresh.length != current.length || fresh.number != current.number ||
      !same_text(fresh.title, current.title) || !same_text(fresh.album, current.album) ||
      !same_text(fresh.artist, current.artist) || !same_text(fresh.album_artist, current.album_artist) ||
      !same_text(fresh.art_url, current.art_url))
    changed[count++] = "Metadata";
  if (fresh.volume != current.volume) changed[count++] = "Volume";
  if (fresh.loop != current.loop) changed[count++] = "LoopStatus";
  changed[count] = NULL;
  release(&current);
  current = fresh;
  if (count > 0 && bus != NULL) sd.emit_properties_changed_strv(bus, object_path, player_interface, changed);
}

// MARK: - Getters

static int get_boolean(int value, sd_bus_message *reply) { return sd.message_append_basic(reply, 'b', &value); }

static int get_true(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                    sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  return get_boolean(1, reply);
}

static int get_false(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                     sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  return get_boolean(0, reply);
}

static int get_identity(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                        sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  return sd.message_append_basic(reply, 's', "bluelib");
}

static int get_nothing(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                       sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  int r = sd.message_open_container(reply, 'a', "s");
  return r < 0 ? r : sd.message_close_container(reply);
}

static int get_status(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                      sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  const char *name = current.status == CSDBUS_PLAYING ? "Playing" : current.status == CSDBUS_PAUSED ? "Paused"
                                                                                                     : "Stopped";
  return sd.message_append_basic(reply, 's', name);
}

static int get_loop(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                    sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  return sd.message_append_basic(reply, 's', current.loop ? "Playlist" : "None");
}

static int get_volume(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                      sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  return sd.message_append_basic(reply, 'd', &current.volume);
}

static int get_rate(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                    sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  double rate = 1.0;
  return sd.message_append_basic(reply, 'd', &rate);
}

static int get_position(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                        sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  int64_t position = current.track > 0 ? callbacks.position(callbacks.context) : 0;
  return sd.message_append_basic(reply, 'x', &position);
}

/// One `{sv}` entry of Metadata: `key` and a value of `type` ('s', 'o', 'x', 'i'), or of
/// `as` holding one string when `type` is 'A'.
static int entry(sd_bus_message *reply, const char *key, char type, const void *value) {
  int r = sd.message_open_container(reply, 'e', "sv");
  if (r >= 0) r = sd.message_append_basic(reply, 's', key);
  char signature[2] = {type, 0};
  if (r >= 0) r = sd.message_open_container(reply, 'v', type == 'A' ? "as" : signature);
  if (type == 'A') {
    if (r >= 0) r = sd.message_open_container(reply, 'a', "s");
    if (r >= 0) r = sd.message_append_basic(reply, 's', value);
    if (r >= 0) r = sd.message_close_container(reply);
  } else if (r >= 0) {
    r = sd.message_append_basic(reply, type, value);
  }
  if (r >= 0) r = sd.message_close_container(reply);
  if (r >= 0) r = sd.message_close_container(reply);
  return r;
}

static int get_metadata(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *reply, void *u,
                        sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  int r = sd.message_open_container(reply, 'a', "{sv}");
  if (r >= 0 && current.track > 0) {
    char track[64];
    snprintf(track, sizeof track, "%s%" PRId64, track_prefix, current.track);
    r = entry(reply, "mpris:trackid", 'o', track);
    if (r >= 0 && current.length > 0) r = entry(reply, "mpris:length", 'x', &current.length);
    if (r >= 0 && current.title != NULL) r = entry(reply, "xesam:title", 's', current.title);
    if (r >= 0 && current.album != NULL) r = entry(reply, "xesam:album", 's', current.album);
    if (r >= 0 && current.artist != NULL) r = entry(reply, "xesam:artist", 'A', current.artist);
    if (r >= 0 && current.album_artist != NULL) r = entry(reply, "xesam:albumArtist", 'A', current.album_artist);
    if (r >= 0 && current.number > 0) r = entry(reply, "xesam:trackNumber", 'i', &current.number);
    if (r >= 0 && current.art_url != NULL) r = entry(reply, "mpris:artUrl", 's', current.art_url);
  }
  if (r >= 0) r = sd.message_close_container(reply);
  return r;
}

// MARK: - Methods and setters

/// Does `action`, then signals what it changed before the next message is read (a client
/// that asks the status right after `Pause` hears `Paused`).
static int act(sd_bus_message *message, int32_t action, int64_t track, int64_t number, double value) {
  callbacks.act(callbacks.context, action, track, number, value);
  refresh();
  return message != NULL ? sd.reply_method_return(message, NULL) : 0;
}

#define METHOD(name, action)                                                  \
  static int name(sd_bus_message *message, void *userdata, sd_bus_error *e) { \
    (void)userdata, (void)e;                                                  \
    return act(message, action, 0, 0, 0);                                     \
  }
METHOD(method_play, CSDBUS_PLAY)
METHOD(method_pause, CSDBUS_PAUSE)
METHOD(method_play_pause, CSDBUS_PLAY_PAUSE)
METHOD(method_next, CSDBUS_NEXT)
METHOD(method_previous, CSDBUS_PREVIOUS)
METHOD(method_stop, CSDBUS_STOP)

/// Raise, Quit (CanRaise and CanQuit are false) and OpenUri (no schemes supported): nothing.
static int method_nothing(sd_bus_message *message, void *userdata, sd_bus_error *e) {
  (void)userdata, (void)e;
  return sd.reply_method_return(message, NULL);
}

/// Seeked, with where the track is now.
static void seeked(void) {
  if (current.track <= 0) return;
  sd.emit_signal(bus, object_path, player_interface, "Seeked", "x", callbacks.position(callbacks.context));
}

static int method_seek(sd_bus_message *message, void *userdata, sd_bus_error *e) {
  (void)userdata, (void)e;
  int64_t offset = 0;
  int r = sd.message_read_basic(message, 'x', &offset);
  if (r < 0) return r;
  r = act(message, CSDBUS_SEEK, 0, offset, 0);
  seeked();
  return r;
}

static int method_set_position(sd_bus_message *message, void *userdata, sd_bus_error *e) {
  (void)userdata, (void)e;
  const char *track = NULL;
  int64_t position = 0;
  int r = sd.message_read_basic(message, 'o', &track);
  if (r >= 0) r = sd.message_read_basic(message, 'x', &position);
  if (r < 0) return r;
  // Another track's id (or none of bluelib's) is ignored, as the specification says.
  size_t prefix = sizeof track_prefix - 1;
  int64_t id = strncmp(track, track_prefix, prefix) == 0 ? strtoll(track + prefix, NULL, 10) : 0;
  r = act(message, CSDBUS_SET_POSITION, id, position, 0);
  seeked();
  return r;
}

static int set_volume(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *value, void *u,
                      sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  double volume = 0;
  int r = sd.message_read_basic(value, 'd', &volume);
  if (r < 0) return r;
  return act(NULL, CSDBUS_SET_VOLUME, 0, 0, volume);
}

static int set_loop(sd_bus *b, const char *p, const char *i, const char *n, sd_bus_message *value, void *u,
                    sd_bus_error *e) {
  (void)b, (void)p, (void)i, (void)n, (void)u, (void)e;
  const char *loop = NULL;
  int r = sd.message_read_basic(value, 's', &loop);
  if (r < 0) return r;
  // bluelib repeats the queue, never one track alone.
  if (strcmp(loop, "None") != 0 && strcmp(loop, "Playlist") != 0) return -EOPNOTSUPP;
  return act(NULL, CSDBUS_SET_LOOP, 0, strcmp(loop, "Playlist") == 0, 0);
}

// MARK: - The vtables

// SD_BUS_VTABLE_START refers to sd_bus_object_vtable_format, which would link libsystemd:
// the start entries are filled when it is loaded (`start_entry`).
static sd_bus_vtable root_vtable[] = {
  {.type = _SD_BUS_VTABLE_START},
  SD_BUS_METHOD("Raise", "", "", method_nothing, 0),
  SD_BUS_METHOD("Quit", "", "", method_nothing, 0),
  SD_BUS_PROPERTY("CanQuit", "b", get_false, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("CanRaise", "b", get_false, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("HasTrackList", "b", get_false, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("Identity", "s", get_identity, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("SupportedUriSchemes", "as", get_nothing, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("SupportedMimeTypes", "as", get_nothing, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_VTABLE_END,
};

static sd_bus_vtable player_vtable[] = {
  {.type = _SD_BUS_VTABLE_START},
  SD_BUS_METHOD("Next", "", "", method_next, 0),
  SD_BUS_METHOD("Previous", "", "", method_previous, 0),
  SD_BUS_METHOD("Pause", "", "", method_pause, 0),
  SD_BUS_METHOD("PlayPause", "", "", method_play_pause, 0),
  SD_BUS_METHOD("Stop", "", "", method_stop, 0),
  SD_BUS_METHOD("Play", "", "", method_play, 0),
  SD_BUS_METHOD_WITH_NAMES("Seek", "x", SD_BUS_PARAM(Offset), "", , method_seek, 0),
  SD_BUS_METHOD_WITH_NAMES(
    "SetPosition", "ox", SD_BUS_PARAM(TrackId) SD_BUS_PARAM(Position), "", , method_set_position, 0),
  SD_BUS_METHOD_WITH_NAMES("OpenUri", "s", SD_BUS_PARAM(Uri), "", , method_nothing, 0),
  SD_BUS_SIGNAL_WITH_NAMES("Seeked", "x", SD_BUS_PARAM(Position), 0),
  SD_BUS_PROPERTY("PlaybackStatus", "s", get_status, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  SD_BUS_WRITABLE_PROPERTY("LoopStatus", "s", get_loop, set_loop, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  // Read-only: bluelib plays at normal speed, and in order (it has no shuffle).
  SD_BUS_PROPERTY("Rate", "d", get_rate, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("Shuffle", "b", get_false, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("Metadata", "a{sv}", get_metadata, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  SD_BUS_WRITABLE_PROPERTY("Volume", "d", get_volume, set_volume, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  SD_BUS_PROPERTY("Position", "x", get_position, 0, 0),
  SD_BUS_PROPERTY("MinimumRate", "d", get_rate, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("MaximumRate", "d", get_rate, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("CanGoNext", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("CanGoPrevious", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("CanPlay", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("CanPause", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("CanSeek", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY("CanControl", "b", get_true, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_VTABLE_END,
};

static void start_entry(sd_bus_vtable *vtable) {
  vtable[0].x.start.element_size = sizeof(sd_bus_vtable);
  vtable[0].x.start.features = _SD_BUS_VTABLE_PARAM_NAMES;
  vtable[0].x.start.vtable_format_reference = sd.object_vtable_format;
}

// MARK: - The thread

static void fail(const char *why) { callbacks.failed(callbacks.context, why); }

/// Loads libsystemd, connects, publishes the object and takes the name; 0, or -1 after
/// telling `failed` why.
static int connect_bus(void) {
  const rl_symbol symbols[] = {
    {"sd_bus_object_vtable_format", (void **)&sd.object_vtable_format},
    {"sd_bus_open_user", (void **)&sd.open_user},
    {"sd_bus_add_object_vtable", (void **)&sd.add_object_vtable},
    {"sd_bus_request_name", (void **)&sd.request_name},
    {"sd_bus_get_fd", (void **)&sd.get_fd},
    {"sd_bus_get_events", (void **)&sd.get_events},
    {"sd_bus_get_timeout", (void **)&sd.get_timeout},
    {"sd_bus_process", (void **)&sd.process},
    {"sd_bus_emit_properties_changed_strv", (void **)&sd.emit_properties_changed_strv},
    {"sd_bus_emit_signal", (void **)&sd.emit_signal},
    {"sd_bus_message_open_container", (void **)&sd.message_open_container},
    {"sd_bus_message_close_container", (void **)&sd.message_close_container},
    {"sd_bus_message_append_basic", (void **)&sd.message_append_basic},
    {"sd_bus_message_read_basic", (void **)&sd.message_read_basic},
    {"sd_bus_reply_method_return", (void **)&sd.reply_method_return},
  };
  void *handle = NULL;
  char why[768];
  char line[1024];
  int result = rl_load(
    "libsystemd", library_names, sizeof library_names / sizeof library_names[0], symbols,
    sizeof symbols / sizeof symbols[0], NULL, &handle, why, sizeof why, NULL, 0);
  if (result != RL_LOADED) {
    snprintf(line, sizeof line, "cannot load libsystemd (%s)", why);
    fail(line);
    return -1;
  }
  start_entry(root_vtable);
  start_entry(player_vtable);
  sd_bus *opened = NULL;
  int r = sd.open_user(&opened);
  if (r < 0) {
    snprintf(line, sizeof line, "cannot connect to the session bus (%s)", strerror(-r));
    fail(line);
    return -1;
  }
  r = sd.add_object_vtable(opened, NULL, object_path, root_interface, root_vtable, NULL);
  if (r >= 0) r = sd.add_object_vtable(opened, NULL, object_path, player_interface, player_vtable, NULL);
  if (r < 0) {
    snprintf(line, sizeof line, "cannot publish the player on the session bus (%s)", strerror(-r));
    fail(line);
    return -1;
  }
  bus = opened;
  refresh();
  // A second bluelib takes a name of its own, as the specification asks.
  r = sd.request_name(bus, "org.mpris.MediaPlayer2.bluelib", 0);
  if (r == -EEXIST) {
    char name[96];
    snprintf(name, sizeof name, "org.mpris.MediaPlayer2.bluelib.instance%ld", (long)getpid());
    r = sd.request_name(bus, name, 0);
  }
  if (r < 0) {
    snprintf(line, sizeof line, "cannot take a name on the session bus (%s)", strerror(-r));
    fail(line);
    return -1;
  }
  return 0;
}

/// Milliseconds until sd-bus's next deadline, -1 for none.
static int timeout_milliseconds(void) {
  uint64_t deadline = 0;
  if (sd.get_timeout(bus, &deadline) < 0 || deadline == UINT64_MAX) return -1;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  uint64_t microseconds = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
  if (deadline <= microseconds) return 0;
  uint64_t left = (deadline - microseconds + 999) / 1000;
  return left > 60000 ? 60000 : (int)left;
}

static void *serve(void *unused) {
  (void)unused;
  if (connect_bus() < 0) return NULL;
  for (;;) {
    // A change posted before a message was read is signalled (and answered) before it: a
    // client that asks the volume after the shell set it hears the new one.
    char buffer[64];
    if (read(wake_read, buffer, sizeof buffer) > 0) {
      while (read(wake_read, buffer, sizeof buffer) > 0) {}
      refresh();
    }
    int r = sd.process(bus, NULL);
    if (r > 0) continue;
    if (r < 0) {
      // The bus went away (its daemon ended): the player goes on without it.
      char line[256];
      snprintf(line, sizeof line, "the session bus went away (%s)", strerror(-r));
      fail(line);
      return NULL;
    }
    struct pollfd fds[2] = {
      {.fd = sd.get_fd(bus), .events = (short)sd.get_events(bus)},
      {.fd = wake_read, .events = POLLIN},
    };
    if (poll(fds, 2, timeout_milliseconds()) < 0 && errno != EINTR) return NULL;
  }
}

void csdbus_start(csdbus_callbacks given) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&started, &expected, 1)) return;
  callbacks = given;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    fail("cannot make the bus thread's wake-up pipe");
    return;
  }
  wake_read = fds[0];
  atomic_store(&wake_fd, fds[1]);
  pthread_t thread;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &attributes, serve, NULL) != 0) fail("cannot start the bus thread");
  pthread_attr_destroy(&attributes);
}

void csdbus_changed(void) {
  int fd = atomic_load(&wake_fd);
  if (fd < 0) return;
  char byte = 1;
  // A full pipe has woken the thread already.
  ssize_t written = write(fd, &byte, 1);
  (void)written;
}

#else

// No sd-bus where it was built (macOS): the player is not published.
void csdbus_start(csdbus_callbacks callbacks) {
  callbacks.failed(callbacks.context, "this build of bluelib has no MPRIS (no libsystemd's sd-bus)");
}

void csdbus_changed(void) {}

void csdbus_copy(char **field, const char *text) {
  (void)field, (void)text;
}

#endif
