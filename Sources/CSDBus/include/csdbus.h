#ifndef CSDBUS_H
#define CSDBUS_H

// bluelib on the session bus as an MPRIS player (org.mpris.MediaPlayer2.bluelib): libsystemd's
// sd-bus, loaded with dlopen when music first plays (nothing links it), served by one thread
// of its own. The object's interfaces and their vtables live in csdbus.c; what the player
// says and does comes from the callbacks, which the bus thread calls.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// PlaybackStatus.
enum { CSDBUS_STOPPED = 0, CSDBUS_PLAYING = 1, CSDBUS_PAUSED = 2 };

/// What a method or a property set asks the player to do.
enum {
  CSDBUS_PLAY = 0,
  CSDBUS_PAUSE = 1,
  CSDBUS_PLAY_PAUSE = 2,
  CSDBUS_NEXT = 3,
  CSDBUS_PREVIOUS = 4,
  CSDBUS_STOP = 5,
  /// Seek by `number` microseconds.
  CSDBUS_SEEK = 6,
  /// Go to `number` microseconds into the track `track`.
  CSDBUS_SET_POSITION = 7,
  /// Set the volume to `value` (0.0–1.0).
  CSDBUS_SET_VOLUME = 8,
  /// Repeat the queue (`number` 1) or not (0).
  CSDBUS_SET_LOOP = 9,
};

/// What the player shows on the bus; every string is NULL or one `csdbus_copy` made.
typedef struct csdbus_state {
  int32_t status;
  /// 0 None, 1 Playlist.
  int32_t loop;
  double volume;
  /// The track's id (`/org/bluelib/track/N`), 0 when nothing plays (Metadata is then empty).
  int64_t track;
  /// Microseconds.
  int64_t length;
  /// 0: none.
  int32_t number;
  char *title;
  char *album;
  char *artist;
  char *album_artist;
  /// `file://…`, or NULL.
  char *art_url;
} csdbus_state;

typedef struct csdbus_callbacks {
  void *context;
  /// Fills a zeroed state with what the player shows now.
  void (*refresh)(void *context, csdbus_state *state);
  /// Microseconds into the track that plays.
  int64_t (*position)(void *context);
  /// Does `action` (CSDBUS_PLAY…) with its arguments.
  void (*act)(void *context, int32_t action, int64_t track, int64_t number, double value);
  /// The bus could not be served (libsystemd missing, no session bus): one line, once.
  void (*failed)(void *context, const char *why);
} csdbus_callbacks;

/// Starts the bus thread, which loads libsystemd, connects to the session bus and takes the
/// name; once per process (later calls do nothing). A failure reaches `failed`.
void csdbus_start(csdbus_callbacks callbacks);

/// The player changed: the bus thread asks `refresh` again and signals what differs
/// (PropertiesChanged). From any thread; nothing before `csdbus_start`.
void csdbus_changed(void);

/// Replaces `*field` with a copy of `text` (NULL: none), freeing what was there.
void csdbus_copy(char **field, const char *text);

#ifdef __cplusplus
}
#endif

#endif
