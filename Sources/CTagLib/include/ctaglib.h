#ifndef CTAGLIB_H
#define CTAGLIB_H

// A plain C interface over TagLib's C++ API, for MusicFolder.
//
// TagLib's own C binding (tag_c.h) cannot reach embedded pictures in 1.13, so this target
// uses the C++ classes and exposes just what a music-folder scan needs: the common tags,
// the length, whether the file holds audio at all, and the first embedded picture. No C++
// exception leaves these functions: each catches everything and returns a status instead.

#include <stddef.h>
#include <stdint.h>

// TagLib (C++, with libstdc++) is loaded only when a tag is read or written: the functions
// below live in a plug-in, libbluelib-taglib.so (target BlueTagLib), opened with dlopen at
// the first call, beside the executable or in ../lib/bluelib. Mapping TagLib and libstdc++
// at every start cost more than half of the dynamic loader's work (issue 36). The plug-in
// defines them under other names (`ctlp_…`), so they never meet this target's wrappers.
#ifdef CTL_PLUGIN
#define ctl_read ctlp_read
#define ctl_read_descriptor ctlp_read_descriptor
#define ctl_extensions ctlp_extensions
#define ctl_track_free ctlp_track_free
#define ctl_write ctlp_write
#define ctl_read_lyrics ctlp_read_lyrics
#define ctl_lyrics_free ctlp_lyrics_free
#define ctl_copy_attributes ctlp_copy_attributes
#define ctl_read_rating_tags ctlp_read_rating_tags
#define ctl_bytes_free ctlp_bytes_free
#define ctl_abi ctlp_abi
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes of the functions below.
enum {
  CTL_OK = 0,
  /// TagLib recognises no supported format in the file (or cannot open it at all).
  CTL_NOT_AUDIO = 1,
  /// The file was opened but TagLib could not write it back.
  CTL_SAVE_FAILED = 2,
  /// Memory ran out, or TagLib failed in a way it does not report otherwise.
  CTL_FAILED = 3,
  /// The TagLib plug-in could not be loaded (`ctl_unavailable` says why).
  CTL_UNAVAILABLE = 4,
  /// The file holds a tag TagLib would not write back as it is — an ID3v2 `POPM` frame whose
  /// play count is longer than the 4 bytes TagLib keeps, which could not be read as the file
  /// holds it — so nothing was written.
  CTL_CANNOT_KEEP = 5,
};

/// Flags for `ctl_read`.
enum {
  /// Copy the embedded picture's bytes into `picture` (otherwise only its presence and type
  /// are reported, which costs no copy).
  CTL_READ_PICTURE = 1,
};

/// What `ctl_read` found in one file. Every pointer is owned by the struct until
/// `ctl_track_free`; a string is UTF-8 and NUL-terminated, NULL when the tag is absent.
typedef struct CTLTrack {
  char *album;
  char *artist;
  /// ID3v2 TPE2, Vorbis/Opus/FLAC ALBUMARTIST (or "ALBUM ARTIST"), MP4 aART.
  char *albumArtist;
  char *title;
  /// As written: "3", "3/12"…
  char *trackNumber;
  /// As written: "1997", "1997-05-21"… (ID3v2.3 TYER is read as the date too).
  char *date;
  char *genre;
  /// As written: "1", "1/2"… (ID3v2 TPOS, Vorbis DISCNUMBER, MP4 disk).
  char *discNumber;
  /// The MusicBrainz ids (MUSICBRAINZ_TRACKID, _ALBUMID, _RELEASEGROUPID in TagLib's
  /// property names: ID3v2 UFID and TXXX, Vorbis comments, MP4 freeform atoms, ASF, APE).
  char *musicBrainzTrackId;
  char *musicBrainzAlbumId;
  char *musicBrainzReleaseGroupId;
  /// The format's name ("MP3", "FLAC", "Opus", "AAC"…): a static string, not freed.
  const char *format;
  /// The bitrate in kb/s (0 when unknown).
  int bitrate;
  /// 1 when TagLib found audio: audio properties with a length or a bitrate (a tracker
  /// module, which has neither, when it has channels). A file of random bytes named .mp3
  /// opens as MPEG with neither.
  int hasAudio;
  /// The length in milliseconds (0 when unknown).
  int64_t lengthMilliseconds;
  /// 1 when the file embeds a picture (ID3v2 APIC, FLAC PICTURE, MP4 covr, Xiph
  /// METADATA_BLOCK_PICTURE); the front cover is preferred, else the first one.
  int hasPicture;
  /// The picture's MIME type ("image/jpeg"…), possibly NULL when the file does not say.
  char *pictureMimeType;
  /// The picture's bytes, only with CTL_READ_PICTURE; NULL otherwise.
  uint8_t *picture;
  size_t pictureSize;
  /// The rating in stars, 1 to 5; 0 when the file has none (see `ctl_write`'s `rating` for
  /// the tags, and docs/music-folder.md's "Ratings in the files" for how each scale is read).
  int rating;
  /// 1 when the file marks the track a favourite (`LOVE RATING` = `L`), else 0.
  int favourite;
  /// The sample rate in Hz (0 when unknown), from the audio properties.
  int sampleRate;
  /// The composer (ID3v2 TCOM, Vorbis COMPOSER, MP4 ©wrt: TagLib's COMPOSER property).
  char *composer;
} CTLTrack;

/// Reads the tags, audio properties and embedded picture of the file at `path` into `track`
/// (whose previous contents are overwritten, not freed); `flags` is 0 or CTL_READ_PICTURE.
/// On any status other than CTL_OK the track holds nothing to free (freeing it is allowed).
int ctl_read(const char *path, int flags, CTLTrack *track);

/// `ctl_read` through `descriptor`, an open, readable regular file named `path` (the name
/// picks the format by its extension; TagLib never opens `path`). The descriptor is closed
/// when the call returns, whatever it returns; -1 reads `path` as `ctl_read` does.
int ctl_read_descriptor(int descriptor, const char *path, int flags, CTLTrack *track);

/// The file extensions TagLib reads (`TagLib::FileRef::defaultFileExtensions()`), lowercase,
/// separated by spaces: a static string.
const char *ctl_extensions(void);

/// Frees what `ctl_read` put into `track` and zeroes it.
void ctl_track_free(CTLTrack *track);

/// Tags to write with `ctl_write`. A NULL string leaves that tag as it is, an empty one
/// removes it (a track number without a total keeps the one the file has: "3/12" given "5"
/// becomes "5/12"); a NULL `picture` leaves the pictures as they are, otherwise the file's
/// pictures are replaced by this one front cover.
typedef struct CTLTags {
  const char *album;
  const char *artist;
  const char *albumArtist;
  const char *title;
  const char *trackNumber;
  const char *date;
  const char *genre;
  const char *discNumber;
  const char *musicBrainzTrackId;
  const char *musicBrainzAlbumId;
  const char *musicBrainzReleaseGroupId;
  const uint8_t *picture;
  size_t pictureSize;
  const char *pictureMimeType;
  /// For MP3: 3 writes ID3v2.3 (the date as TYER), anything else ID3v2.4.
  int id3v2Version;
  /// Non-zero: an MP3's other tags (ID3v1, APE) are kept and updated, and its ID3v2 tag keeps
  /// its version (`id3v2Version` applies only to a file without one): what `write` does to a
  /// user's file. Zero: only an ID3v2 tag of `id3v2Version` is kept (how tests tag fixtures).
  int keepOtherTags;
  /// The rating in stars: 1 to 5 sets it, 0 removes it, -1 leaves it. Written where other
  /// players read it: ID3v2 `POPM` (email "Windows Media Player 9 Series", 1/64/128/196/255)
  /// and `TXXX:FMPS_Rating` (0.2 to 1.0); Vorbis comments `RATING` (1 to 5) and
  /// `FMPS_RATING`; MP4 `rate` (20 to 100) and `----:com.apple.iTunes:FMPS_Rating`; other
  /// formats' `RATING` and `FMPS_RATING` properties.
  int rating;
  /// 1 marks the track a favourite (`LOVE RATING` = `L`: ID3v2 TXXX, a Vorbis comment, an MP4
  /// freeform atom), 0 removes the mark, -1 leaves it.
  int favourite;
  /// Non-NULL: the file's rating and favourite tags become exactly these, as
  /// `ctl_read_rating_tags` read them (`ratingTagsSize` bytes): every tag `rating` and
  /// `favourite` write is removed, and the ones read are put back as they were; `rating` and
  /// `favourite` are then ignored. CTL_FAILED when the bytes are not such a reading, or are one
  /// of another kind of file.
  const uint8_t *ratingTags;
  size_t ratingTagsSize;
} CTLTags;

/// Writes `tags` into the file at `path` in place. An ID3v2 `POPM` frame keeps its bytes
/// (its play count, however long) unless its rating is written, and then keeps its play
/// count's bytes.
int ctl_write(const char *path, const CTLTags *tags);

/// Bytes the plug-in makes and reads back, malloc'ed: free them with `ctl_bytes_free`.
typedef struct CTLBytes {
  uint8_t *bytes;
  size_t size;
} CTLBytes;

/// Reads every tag of `descriptor` (an open, readable regular file named `path`, closed when
/// the call returns) that `ctl_write`'s `rating` and `favourite` write or remove, as the file
/// holds them, into `tags`: what `CTLTags.ratingTags` puts back. ID3v2: every `POPM` frame
/// (email, rating and play count, byte for byte) and the TXXX frames `FMPS_Rating` and `LOVE
/// RATING` (in any case); Vorbis comments: `RATING`, `FMPS_RATING`, `LOVE RATING`; MP4:
/// `rate` and the freeform `FMPS_Rating` and `LOVE RATING` atoms with their types; other
/// formats: the properties `RATING`, `FMPS_RATING`, `LOVE RATING`. The bytes are opaque to
/// the caller. On any status other than CTL_OK `tags` holds nothing.
int ctl_read_rating_tags(int descriptor, const char *path, CTLBytes *tags);

/// Frees what `ctl_read_rating_tags` put into `tags` and zeroes it.
void ctl_bytes_free(CTLBytes *tags);

/// The lyrics a file embeds. Every pointer is owned by the struct until `ctl_lyrics_free`;
/// strings are UTF-8 and NUL-terminated.
typedef struct CTLLyrics {
  /// Unsynchronised lyrics: ID3v2 USLT (the first frame with text), Vorbis LYRICS or
  /// UNSYNCEDLYRICS, MP4 ©lyr, other formats' LYRICS property; NULL when there are none.
  char *text;
  /// Synchronised lyrics (ID3v2 SYLT, the first frame with text): `syncedCount` lines, each
  /// with its time in milliseconds (-1 when the frame counts MPEG frames, not time).
  size_t syncedCount;
  int64_t *syncedTimes;
  char **syncedLines;
} CTLLyrics;

/// Reads the lyrics `descriptor` (an open, readable regular file named `path`, closed when
/// the call returns) embeds into `lyrics`. On any status other than CTL_OK it holds nothing.
int ctl_read_lyrics(int descriptor, const char *path, CTLLyrics *lyrics);

/// Frees what `ctl_read_lyrics` put into `lyrics` and zeroes it.
void ctl_lyrics_free(CTLLyrics *lyrics);

/// Copies the extended attributes of the open file `source` (user attributes, ACLs,
/// security labels) to the open file `target`, as a safe write's copy must carry them; an
/// attribute this user may not set is left out. Returns how many could not be copied.
int ctl_copy_attributes(int source, int target);

/// The version of this interface: a plug-in answers the one it was built with (`ctl_abi`), and
/// one of another is refused, not called (a function whose structs changed would misread
/// them). Raised whenever a function or struct above changes.
#define CTL_ABI 3

#ifdef CTL_PLUGIN
/// CTL_ABI as the plug-in was built.
int ctl_abi(void);
#endif

#ifndef CTL_PLUGIN
/// Why the plug-in could not be loaded (it is tried at the first call of any function
/// above, and once only), as one line naming the file; NULL when it is loaded. Loads it.
const char *ctl_unavailable(void);
#endif

#ifdef __cplusplus
}
#endif

#endif
