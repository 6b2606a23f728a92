#define CTL_PLUGIN 1
#include "../CTagLib/include/ctaglib.h"
#include <vector>
#if defined(__linux__)
#include <sys/xattr.h>
#endif

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include <aifffile.h>
#include <apefile.h>
#include <id3v2extendedheader.h>
#include <id3v2footer.h>
#include <id3v2header.h>
#include <id3v2synchdata.h>
#include <id3v2tag.h>
#include <asffile.h>
#include <attachedpictureframe.h>
#include <fileref.h>
#include <flacfile.h>
#include <flacpicture.h>
#include <id3v2tag.h>
#include <itfile.h>
#include <modfile.h>
#include <modfilebase.h>
#include <mp4coverart.h>
#include <mp4file.h>
#include <mp4properties.h>
#include <mpcfile.h>
#include <mpegfile.h>
#include <oggflacfile.h>
#include <opusfile.h>
#include <popularimeterframe.h>
#include <synchronizedlyricsframe.h>
#include <unsynchronizedlyricsframe.h>
#include <s3mfile.h>
#include <speexfile.h>
#include <textidentificationframe.h>
#include <trueaudiofile.h>
#include <unknownframe.h>
#include <vorbisfile.h>
#include <wavfile.h>
#include <wavpackfile.h>
#include <xmfile.h>
#include <tdebuglistener.h>
#include <tfilestream.h>
#include <tiostream.h>
#include <tpropertymap.h>
#include <xiphcomment.h>

namespace {

// MARK: - Quiet TagLib

/// TagLib reports oddities of damaged files on stderr; a scan of a big folder must not
/// print them over the terminal, and the scanner reports unreadable files itself.
class QuietListener : public TagLib::DebugListener {
public:
  void printMessage(const TagLib::String &) override {}
};

QuietListener quietListener;
std::once_flag quietOnce;

void silenceTagLib() {
  std::call_once(quietOnce, [] { TagLib::setDebugListener(&quietListener); });
}

// MARK: - Reading through a descriptor

/// A read-only stream over an open descriptor (which it owns and closes) that keeps the
/// file's name, so TagLib still picks the format by its extension. The caller opened the
/// file once, without blocking, and checked it is a regular file: TagLib never opens the
/// path itself, so a FIFO swapped in after the check cannot block the read.
class DescriptorStream : public TagLib::IOStream {
public:
  DescriptorStream(int descriptor, const char *path) : inner(descriptor, true), path(path) {}
  TagLib::FileName name() const override { return path.c_str(); }
  TagLib::ByteVector readBlock(unsigned long length) override { return inner.readBlock(length); }
  void writeBlock(const TagLib::ByteVector &) override {}
  void insert(const TagLib::ByteVector &, unsigned long, unsigned long) override {}
  void removeBlock(unsigned long, unsigned long) override {}
  bool readOnly() const override { return true; }
  bool isOpen() const override { return inner.isOpen(); }
  void seek(long offset, Position position) override { inner.seek(offset, position); }
  void clear() override { inner.clear(); }
  long tell() const override { return inner.tell(); }
  long length() override { return inner.length(); }
  void truncate(long) override {}

private:
  TagLib::FileStream inner;
  std::string path;
};

// MARK: - Reading

/// A malloc'ed UTF-8 copy of `text`, which the C side frees.
char *copyString(const TagLib::String &text) {
  const std::string utf8 = text.to8Bit(true);
  char *copy = static_cast<char *>(std::malloc(utf8.size() + 1));
  if (copy == nullptr) throw std::bad_alloc();
  std::memcpy(copy, utf8.c_str(), utf8.size() + 1);
  return copy;
}

/// The values of the first of `keys` that the file has, joined by "; " (Vorbis comments
/// and ID3v2.4 may hold several values); NULL when none has a value.
char *field(const TagLib::PropertyMap &map, std::initializer_list<const char *> keys) {
  for (const char *key : keys) {
    const auto found = map.find(key);
    if (found == map.end() || found->second.isEmpty()) continue;
    return copyString(found->second.toString("; "));
  }
  return nullptr;
}

/// The fields a read takes from a file's property map, found in one pass over it. A look-up
/// by name (`PropertyMap::find`) makes a wide string of the name and an upper-case copy of
/// it, then walks the tree comparing wide strings: eleven of them cost a folder import
/// about 40,000 instructions a file; the map's keys are upper case already, and each is
/// compared here with the names as it is.
class TagFields {
public:
  enum Name {
    album, artist, albumArtist, albumArtistSpaced, title, trackNumber, date, originalDate, genre, discNumber,
    musicBrainzTrackId, musicBrainzAlbumId, musicBrainzReleaseGroupId, composer, count
  };

  explicit TagFields(const TagLib::PropertyMap &map) {
    static const char *const names[count] = {
      "ALBUM", "ARTIST", "ALBUMARTIST", "ALBUM ARTIST", "TITLE", "TRACKNUMBER", "DATE", "ORIGINALDATE", "GENRE",
      "DISCNUMBER", "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_RELEASEGROUPID", "COMPOSER"};
    for (const auto &entry : map) {
      for (int name = 0; name < count; ++name) {
        if (values[name] == nullptr && entry.first == names[name]) {
          values[name] = &entry.second;
          break;
        }
      }
    }
  }

  /// The values of the first of `names` that the file has, joined by "; " (Vorbis comments
  /// and ID3v2.4 may hold several values); NULL when none has a value (``field``).
  char *value(std::initializer_list<Name> names) const {
    for (const Name name : names) {
      if (values[name] == nullptr || values[name]->isEmpty()) continue;
      // One value (nearly always): no joined copy of it.
      if (values[name]->size() == 1) return copyString(values[name]->front());
      return copyString(values[name]->toString("; "));
    }
    return nullptr;
  }

private:
  const TagLib::StringList *values[count] = {};
};

/// The picture a file embeds: its bytes are shared with TagLib's (ByteVector is
/// reference-counted), so finding one copies nothing.
struct FoundPicture {
  bool found = false;
  TagLib::ByteVector data;
  TagLib::String mimeType;
};

/// The front cover among `pictures`, else the first one. `Picture` is a FLAC::Picture or
/// an ID3v2 AttachedPictureFrame: both have type(), data/picture() and mimeType().
template <typename Picture, typename List, typename Bytes>
void choose(const List &pictures, Bytes bytes, FoundPicture &out) {
  const Picture *chosen = nullptr;
  for (auto *candidate : pictures) {
    const Picture *picture = dynamic_cast<const Picture *>(candidate);
    if (picture == nullptr) continue;
    if (chosen == nullptr) chosen = picture;
    if (picture->type() == Picture::FrontCover) {
      chosen = picture;
      break;
    }
  }
  if (chosen == nullptr) return;
  out.found = true;
  out.data = bytes(chosen);
  out.mimeType = chosen->mimeType();
}

const char *mimeType(TagLib::MP4::CoverArt::Format format) {
  switch (format) {
  case TagLib::MP4::CoverArt::PNG: return "image/png";
  case TagLib::MP4::CoverArt::BMP: return "image/bmp";
  case TagLib::MP4::CoverArt::GIF: return "image/gif";
  case TagLib::MP4::CoverArt::JPEG: return "image/jpeg";
  default: return "";
  }
}

FoundPicture findPicture(TagLib::File *file) {
  FoundPicture out;
  if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
    if (mpeg->hasID3v2Tag()) {
      using Frame = TagLib::ID3v2::AttachedPictureFrame;
      choose<Frame>(mpeg->ID3v2Tag()->frameList("APIC"), [](const Frame *f) { return f->picture(); }, out);
    }
  } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
    using Picture = TagLib::FLAC::Picture;
    choose<Picture>(flac->pictureList(), [](const Picture *p) { return p->data(); }, out);
  } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
    TagLib::MP4::Tag *tag = mp4->tag();
    if (tag != nullptr && tag->contains("covr")) {
      const TagLib::MP4::CoverArtList covers = tag->item("covr").toCoverArtList();
      if (!covers.isEmpty()) {
        out.found = true;
        out.data = covers.front().data();
        out.mimeType = mimeType(covers.front().format());
      }
    }
  } else if (auto *xiph = dynamic_cast<TagLib::Ogg::XiphComment *>(file->tag())) {
    // Ogg Vorbis, Opus and Ogg FLAC: METADATA_BLOCK_PICTURE (and the older COVERART).
    using Picture = TagLib::FLAC::Picture;
    choose<Picture>(xiph->pictureList(), [](const Picture *p) { return p->data(); }, out);
  }
  return out;
}

/// The name of `file`'s format, as beets and players call it.
const char *formatName(TagLib::File *file) {
  if (dynamic_cast<TagLib::MPEG::File *>(file)) return "MP3";
  if (dynamic_cast<TagLib::FLAC::File *>(file)) return "FLAC";
  if (dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) return "OGG";
  if (dynamic_cast<TagLib::Ogg::FLAC::File *>(file)) return "Ogg FLAC";
  if (dynamic_cast<TagLib::Ogg::Opus::File *>(file)) return "Opus";
  if (dynamic_cast<TagLib::Ogg::Speex::File *>(file)) return "Speex";
  if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
    const TagLib::MP4::Properties *audio = mp4->audioProperties();
    return audio != nullptr && audio->codec() == TagLib::MP4::Properties::ALAC ? "ALAC" : "AAC";
  }
  if (dynamic_cast<TagLib::ASF::File *>(file)) return "WMA";
  if (dynamic_cast<TagLib::APE::File *>(file)) return "APE";
  if (dynamic_cast<TagLib::MPC::File *>(file)) return "MPC";
  if (dynamic_cast<TagLib::WavPack::File *>(file)) return "WavPack";
  if (dynamic_cast<TagLib::TrueAudio::File *>(file)) return "TrueAudio";
  if (dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) return "AIFF";
  if (dynamic_cast<TagLib::RIFF::WAV::File *>(file)) return "WAV";
  if (dynamic_cast<TagLib::Mod::File *>(file)) return "MOD";
  if (dynamic_cast<TagLib::S3M::File *>(file)) return "S3M";
  if (dynamic_cast<TagLib::IT::File *>(file)) return "IT";
  if (dynamic_cast<TagLib::XM::File *>(file)) return "XM";
  return "audio";
}

// MARK: - Writing

void setField(TagLib::PropertyMap &map, const char *key, const char *value) {
  if (value == nullptr) return;
  if (*value == '\0') {
    map.erase(key);
  } else {
    map.replace(key, TagLib::StringList(TagLib::String(value, TagLib::String::UTF8)));
  }
}

TagLib::FLAC::Picture *flacPicture(const TagLib::ByteVector &data, const TagLib::String &mimeType) {
  auto *picture = new TagLib::FLAC::Picture();
  picture->setType(TagLib::FLAC::Picture::FrontCover);
  picture->setMimeType(mimeType);
  picture->setData(data);
  return picture;
}

bool replacePictures(TagLib::File *file, const CTLTags *tags) {
  const TagLib::ByteVector data(reinterpret_cast<const char *>(tags->picture),
                                static_cast<unsigned int>(tags->pictureSize));
  const TagLib::String mimeType(tags->pictureMimeType ? tags->pictureMimeType : "", TagLib::String::UTF8);
  if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
    TagLib::ID3v2::Tag *tag = mpeg->ID3v2Tag(true);
    tag->removeFrames("APIC");
    auto *frame = new TagLib::ID3v2::AttachedPictureFrame();
    frame->setType(TagLib::ID3v2::AttachedPictureFrame::FrontCover);
    frame->setMimeType(mimeType);
    frame->setPicture(data);
    tag->addFrame(frame);
  } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
    flac->removePictures();
    flac->addPicture(flacPicture(data, mimeType));
  } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
    using CoverArt = TagLib::MP4::CoverArt;
    const CoverArt::Format format = mimeType == "image/png" ? CoverArt::PNG
                                    : mimeType == "image/bmp" ? CoverArt::BMP
                                    : mimeType == "image/gif" ? CoverArt::GIF
                                                              : CoverArt::JPEG;
    TagLib::MP4::CoverArtList covers;
    covers.append(CoverArt(format, data));
    mp4->tag()->setItem("covr", TagLib::MP4::Item(covers));
  } else if (auto *xiph = dynamic_cast<TagLib::Ogg::XiphComment *>(file->tag())) {
    xiph->removeAllPictures();
    xiph->addPicture(flacPicture(data, mimeType));
  } else {
    return false;
  }
  return true;
}

// MARK: - Ratings and favourites

// Where other players keep a rating and a favourite mark, per format (docs/music-folder.md, "Ratings in
// the files"). A file may hold several ratings (one POPM frame per user, an FMPS_Rating, a
// RATING); reading prefers Windows Media Player's POPM frame, then any other POPM frame,
// then FMPS_Rating (0 to 1), then RATING (1 to 5, 10 or 100).

const char *const wmpEmail = "Windows Media Player 9 Series";
const char *const fmpsKey = "FMPS_RATING";
const char *const loveKey = "LOVE RATING";
const char *const mp4FMPS = "----:com.apple.iTunes:FMPS_Rating";
const char *const mp4Love = "----:com.apple.iTunes:LOVE RATING";

/// The number `text` writes ("0.8", "80", "4,5"), read the same in every C locale; -1 when it
/// is not one.
double decimal(const TagLib::String &text) {
  const std::string value = text.stripWhiteSpace().to8Bit(true);
  if (value.empty()) return -1;
  double whole = 0, fraction = 0, scale = 1;
  bool point = false, digits = false;
  for (char c : value) {
    if (c >= '0' && c <= '9') {
      digits = true;
      if (point) {
        scale /= 10;
        fraction += (c - '0') * scale;
      } else if (whole < 1e6) {
        whole = whole * 10 + (c - '0');
      }
    } else if ((c == '.' || c == ',') && !point) {
      point = true;
    } else {
      return -1;
    }
  }
  return digits ? whole + fraction : -1;
}

int clampStars(double stars) {
  const int rounded = static_cast<int>(stars + 0.5);
  return rounded < 1 ? 1 : rounded > 5 ? 5 : rounded;
}

/// Stars from FMPS's 0.0 to 1.0 (0: none).
int starsFromFraction(const TagLib::String &text) {
  const double value = decimal(text);
  return value > 0 && value <= 1 ? clampStars(value * 5) : 0;
}

/// Stars from a RATING tag: 1 to 5 (foobar2000, Kodi), 1 to 10, or 1 to 100 (MediaMonkey,
/// Mp3tag's MP4 `rate`), told apart by the value (0: none).
int starsFromRating(const TagLib::String &text) {
  const double value = decimal(text);
  if (value <= 0) return 0;
  if (value <= 5) return clampStars(value);
  if (value <= 10) return clampStars(value / 2);
  if (value <= 100) return clampStars(value / 20);
  return 0;
}

/// Stars from a POPM rating byte (1 to 255): Windows Media Player's ranges, which Windows,
/// MusicBee, MediaMonkey and foobar2000 read (1-31, 32-95, 96-159, 160-223, 224-255), except
/// for the players that write 51 a star (Picard, Quod Libet): linear.
int starsFromPopularimeter(int byte, const TagLib::String &email) {
  if (byte <= 0) return 0;
  const std::string who = email.upper().to8Bit(true);
  if (who.find("MUSICBRAINZ") != std::string::npos || who.find("QUODLIBET") != std::string::npos) {
    return clampStars(byte / 51.0);
  }
  return byte < 32 ? 1 : byte < 96 ? 2 : byte < 160 ? 3 : byte < 224 ? 4 : 5;
}

/// The POPM byte Windows Media Player writes for `stars`.
int popularimeterByte(int stars) {
  static const int bytes[] = {0, 1, 64, 128, 196, 255};
  return bytes[stars < 0 ? 0 : stars > 5 ? 5 : stars];
}

/// "0.2" … "1.0": FMPS's value for `stars`.
TagLib::String fmpsValue(int stars) {
  static const char *const values[] = {"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"};
  return TagLib::String(values[stars < 0 ? 0 : stars > 5 ? 5 : stars]);
}

/// Whether a LOVE RATING value marks a favourite: MusicBee's `L` (love; `B` is a ban), or a
/// plain true.
bool isLove(const TagLib::String &text) {
  const TagLib::String value = text.stripWhiteSpace().upper();
  return value == "L" || value == "1" || value == "TRUE" || value == "YES";
}

/// The ID3v2 tag of an MP3, AIFF or WAV file (created when `create`), else NULL.
TagLib::ID3v2::Tag *id3v2Tag(TagLib::File *file, bool create) {
  if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
    return create || mpeg->hasID3v2Tag() ? mpeg->ID3v2Tag(create) : nullptr;
  }
  if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) {
    return create || aiff->hasID3v2Tag() ? aiff->tag() : nullptr;
  }
  if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) {
    return create || wav->hasID3v2Tag() ? wav->ID3v2Tag() : nullptr;
  }
  return nullptr;
}

/// The Xiph comment of a FLAC, Ogg Vorbis, Opus, Speex or Ogg FLAC file (a FLAC file's is
/// created when `create`), else NULL.
TagLib::Ogg::XiphComment *xiphComment(TagLib::File *file, bool create) {
  if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
    return create || flac->hasXiphComment() ? flac->xiphComment(create) : nullptr;
  }
  return dynamic_cast<TagLib::Ogg::XiphComment *>(file->tag());
}

/// The ID3v2 TXXX frames whose description is `key` (ignoring case).
std::vector<TagLib::ID3v2::UserTextIdentificationFrame *> userTexts(TagLib::ID3v2::Tag *tag, const char *key) {
  std::vector<TagLib::ID3v2::UserTextIdentificationFrame *> found;
  for (TagLib::ID3v2::Frame *frame : tag->frameList("TXXX")) {
    auto *text = dynamic_cast<TagLib::ID3v2::UserTextIdentificationFrame *>(frame);
    if (text != nullptr && text->description().upper() == key) found.push_back(text);
  }
  return found;
}

/// The value of the first TXXX frame named `key`, or "".
TagLib::String userText(TagLib::ID3v2::Tag *tag, const char *key) {
  for (auto *frame : userTexts(tag, key)) {
    const TagLib::StringList fields = frame->fieldList();
    if (fields.size() > 1) return fields[1];
  }
  return TagLib::String();
}

/// Replaces the TXXX frames named `key` with one holding `value` (none when empty).
void setUserText(TagLib::ID3v2::Tag *tag, const char *key, const TagLib::String &description,
                 const TagLib::String &value) {
  for (auto *frame : userTexts(tag, key)) tag->removeFrame(frame);
  if (value.isEmpty()) return;
  auto *frame = new TagLib::ID3v2::UserTextIdentificationFrame(TagLib::String::UTF8);
  frame->setDescription(description);
  frame->setText(value);
  tag->addFrame(frame);
}

// MARK: - ID3v2 frames as the file holds them

// TagLib 1.13 reads a POPM frame's play count as 4 bytes and writes every frame back from
// what it read, so a longer count (mutagen writes 2^32 + 5 in 5 bytes) would come back from
// any save as its first 4 bytes, and a frame without a count would gain one. The frames whose
// bytes matter here (POPM, and the TXXX frames a rating write replaces) are read again as the
// file holds them, with TagLib's own pieces (tag and frame headers, unsynchronisation) walking
// the tag as TagLib's parser does, and matched with TagLib's frames in order.

/// A whole ID3v2.4 frame `id` with `fields`, as TagLib's frame constructors take one.
TagLib::ByteVector frameBytes(const TagLib::ByteVector &id, const TagLib::ByteVector &fields) {
  return id + TagLib::ID3v2::SynchData::fromUInt(fields.size()) + TagLib::ByteVector(2, '\0') + fields;
}

/// TagLib 1.13 keeps a frame's header (`Frame::Header`, `Frame::header()`) protected; this
/// names them, never made.
struct FrameParts : TagLib::ID3v2::Frame {
  using TagLib::ID3v2::Frame::Header;
  using TagLib::ID3v2::Frame::header;
};

/// Whether TagLib read `frame` from a compressed frame, or one with a data length before its
/// fields: then its size in the file says nothing of its fields' length.
bool sizeIsNotFields(const TagLib::ID3v2::Frame *frame) {
  const FrameParts::Header *header = (frame->*(&FrameParts::header))();
  return header->compression() || header->dataLengthIndicator();
}

/// Whether TagLib would cut `popm` (as read from the file) when it writes it: its frame in
/// the file is longer than an email, a rating and a 4-byte count.
bool cutByTagLib(const TagLib::ID3v2::PopularimeterFrame *popm) {
  return !sizeIsNotFields(popm) && popm->size() > popm->email().size() + 6;
}

/// The fields TagLib writes for `frame`.
TagLib::ByteVector renderedFields(TagLib::ID3v2::Frame *frame) {
  const TagLib::ByteVector whole = frame->render();  // sets the frame's size to its fields'
  return whole.mid(whole.size() - frame->size());
}

/// Where `file`'s ID3v2 tag starts, as TagLib finds it: an MP3's at its first byte, a WAV's
/// or AIFF's in its first `ID3 ` chunk; -1 when it is not there (an MP3's tag after junk).
long id3v2Offset(TagLib::File *file) {
  if (dynamic_cast<TagLib::MPEG::File *>(file) != nullptr) {
    file->seek(0);
    return file->readBlock(3) == TagLib::ByteVector("ID3") ? 0 : -1;
  }
  const bool wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file) != nullptr;
  if (!wav && dynamic_cast<TagLib::RIFF::AIFF::File *>(file) == nullptr) return -1;
  const long length = file->length();
  long position = 12;  // after RIFF/FORM, its size and WAVE/AIFF
  while (position + 8 <= length) {
    file->seek(position);
    const TagLib::ByteVector chunk = file->readBlock(8);
    if (chunk.size() < 8) break;
    if (chunk.startsWith("ID3 ") || chunk.startsWith("id3 ")) return position + 8;
    const unsigned int size = chunk.toUInt(4, !wav);  // little-endian in RIFF, big in AIFF
    position += 8 + static_cast<long>(size) + (size & 1);
  }
  return -1;
}

/// One POPM or TXXX frame of a tag, as the file holds it.
struct RawFrame {
  TagLib::ByteVector id;
  /// Its fields as TagLib reads them (unsynchronisation undone); empty when not `readable`.
  TagLib::ByteVector fields;
  /// False for a compressed or encrypted frame, whose fields are not read here.
  bool readable = false;
};

/// The POPM and TXXX frames of `file`'s ID3v2 tag, in its order; false when the tag cannot
/// be read as TagLib reads it. Mirrors TagLib 1.13's `ID3v2::Tag::parse` and
/// `FrameFactory::createFrame`: the same frames, and where a frame ends the walk, the same end.
bool rawFrames(TagLib::File *file, std::vector<RawFrame> &frames) {
  using namespace TagLib::ID3v2;
  const long offset = id3v2Offset(file);
  if (offset < 0) return false;
  file->seek(offset);
  const TagLib::ByteVector head = file->readBlock(Header::size());
  if (head.size() < Header::size() || !head.startsWith("ID3")) return false;
  const Header header(head);
  if (header.tagSize() == 0) return false;
  TagLib::ByteVector data = file->readBlock(header.tagSize());
  const unsigned int version = header.majorVersion();
  if (header.unsynchronisation() && version <= 3) data = SynchData::decode(data);
  unsigned int position = 0;
  unsigned int length = data.size();
  if (header.extendedHeader()) {
    ExtendedHeader extended;
    extended.setData(data);
    if (extended.size() <= data.size()) {
      position += extended.size();
      length -= extended.size();
    }
  }
  if (header.footerPresent() && Footer::size() <= length) length -= Footer::size();
  const unsigned int headerSize = Frame::headerSize(version);
  while (length > headerSize && position < length - headerSize) {
    if (data[position] == 0) break;  // padding
    const TagLib::ByteVector rest = data.mid(position);
    const FrameParts::Header frame(rest, version);
    TagLib::ByteVector id = frame.frameID();
    const unsigned int size = frame.frameSize();
    if (id.size() != (version < 3 ? 3u : 4u) || size <= (frame.dataLengthIndicator() ? 4u : 0u) ||
        size > rest.size()) {
      break;
    }
    if (version == 3 && id[3] == '\0') id = id.mid(0, 3);  // iTunes: ID3v2.2 names in ID3v2.3
    for (char c : id) {
      if ((c < 'A' || c > 'Z') && (c < '0' || c > '9')) return true;  // TagLib stops here too
    }
    if (id == TagLib::ByteVector("POP")) id = "POPM";
    if (id == TagLib::ByteVector("TXX")) id = "TXXX";
    if (id == TagLib::ByteVector("POPM") || id == TagLib::ByteVector("TXXX")) {
      RawFrame raw;
      raw.id = id;
      if (!frame.compression() && !frame.encryption()) {
        TagLib::ByteVector body = rest.mid(headerSize, size);
        if (version > 3 && (header.unsynchronisation() || frame.unsynchronisation())) {
          body = SynchData::decode(body);
        }
        unsigned int start = 0;
        unsigned int count = size;
        if (frame.dataLengthIndicator()) {
          count = SynchData::toUInt(body.mid(0, 4));
          start = 4;
        }
        raw.fields = body.mid(start, count);
        raw.readable = raw.fields.size() < (1u << 28);  // what an ID3v2.4 size holds
      }
      frames.push_back(raw);
    }
    position += size + headerSize;
  }
  return true;
}

/// The fields the file holds for each of `id3`'s frames named `id` (POPM or TXXX), in the
/// tag's order (an empty vector for one not `readable`); false when they cannot be told:
/// the tag cannot be read raw, or what it holds is not what TagLib read from it.
bool fileFields(const std::vector<RawFrame> &raw, TagLib::ID3v2::Tag *id3, const char *id,
                std::vector<TagLib::ByteVector> &fields) {
  const TagLib::ID3v2::FrameList &frames = id3->frameList(id);
  std::vector<const RawFrame *> named;
  for (const RawFrame &frame : raw) {
    if (frame.id == TagLib::ByteVector(id)) named.push_back(&frame);
  }
  if (named.size() != frames.size()) return false;
  size_t index = 0;
  for (TagLib::ID3v2::Frame *frame : frames) {
    const RawFrame &file = *named[index++];
    if (!file.readable) {
      fields.push_back(TagLib::ByteVector());
      continue;
    }
    // The file's bytes must say what TagLib read from them.
    if (auto *popm = dynamic_cast<TagLib::ID3v2::PopularimeterFrame *>(frame)) {
      const TagLib::ID3v2::PopularimeterFrame check(frameBytes(file.id, file.fields));
      if (check.email() != popm->email() || check.rating() != popm->rating()) return false;
    } else if (auto *text = dynamic_cast<TagLib::ID3v2::UserTextIdentificationFrame *>(frame)) {
      const TagLib::ID3v2::UserTextIdentificationFrame check(frameBytes(file.id, file.fields));
      if (check.fieldList() != text->fieldList()) return false;
    } else {
      return false;
    }
    fields.push_back(file.fields);
  }
  return true;
}

/// A POPM frame's fields with its rating byte set to `rating`: the email and the play count
/// stay as the bytes hold them (a frame without a rating byte gets one only for a rating).
TagLib::ByteVector withRating(const TagLib::ByteVector &fields, int rating) {
  const int end = fields.find(TagLib::ByteVector(1, '\0'));
  if (end < 0) {
    return rating == 0 ? fields : fields + TagLib::ByteVector(1, '\0') + TagLib::ByteVector(1, static_cast<char>(rating));
  }
  const unsigned int at = static_cast<unsigned int>(end) + 1;
  if (at >= fields.size()) return rating == 0 ? fields : fields + TagLib::ByteVector(1, static_cast<char>(rating));
  TagLib::ByteVector changed = fields;
  changed[at] = static_cast<char>(rating);
  return changed;
}

/// A POPM frame that writes back the bytes the file holds, its rating byte set to its rating
/// (TagLib would write its play count in 4 bytes, and give a frame without one a count of 0).
class KeptPopularimeterFrame : public TagLib::ID3v2::PopularimeterFrame {
public:
  explicit KeptPopularimeterFrame(const TagLib::ByteVector &fields)
      : PopularimeterFrame(frameBytes("POPM", fields)), fields(fields) {}

  /// Whether the play count, however long, is more than 0.
  bool counts() const {
    const int end = fields.find(TagLib::ByteVector(1, '\0'));
    if (end < 0) return false;
    for (unsigned int index = static_cast<unsigned int>(end) + 2; index < fields.size(); ++index) {
      if (fields[index] != '\0') return true;
    }
    return false;
  }

  /// The fields as the file holds them.
  const TagLib::ByteVector &fileFields() const { return fields; }

protected:
  TagLib::ByteVector renderFields() const override { return withRating(fields, rating()); }

private:
  TagLib::ByteVector fields;
};

/// `popm`'s fields as it will be written: the file's bytes of a ``KeptPopularimeterFrame``.
TagLib::ByteVector popularimeterFields(TagLib::ID3v2::PopularimeterFrame *popm) {
  if (auto *kept = dynamic_cast<KeptPopularimeterFrame *>(popm)) return withRating(kept->fileFields(), popm->rating());
  return renderedFields(popm);
}

/// Where a POPM frame's play count starts in `fields` (after the email, its end and the
/// rating byte), or -1 when they hold no rating byte.
int playCountStart(const TagLib::ByteVector &fields) {
  const int end = fields.find(TagLib::ByteVector(1, '\0'));
  return end < 0 || static_cast<unsigned int>(end) + 1 >= fields.size() ? -1 : end + 2;
}

/// Whether `popm` counts plays.
bool countsPlays(const TagLib::ID3v2::PopularimeterFrame *popm) {
  if (auto *kept = dynamic_cast<const KeptPopularimeterFrame *>(popm)) return kept->counts();
  return popm->counter() != 0;
}

/// Makes each POPM frame of `file`'s ID3v2 tag that TagLib would not write back as the file
/// holds it a ``KeptPopularimeterFrame`` of the file's bytes; false, with nothing changed,
/// when one holds more than TagLib writes back (a play count longer than 4 bytes) and its
/// bytes cannot be read.
bool keepPopularimeters(TagLib::File *file) {
  TagLib::ID3v2::Tag *id3 = id3v2Tag(file, false);
  if (id3 == nullptr || id3->frameList("POPM").isEmpty()) return true;
  const TagLib::ID3v2::FrameList frames = id3->frameList("POPM");  // a copy: frames are replaced
  std::vector<RawFrame> raw;
  std::vector<TagLib::ByteVector> fields;
  if (!rawFrames(file, raw) || !fileFields(raw, id3, "POPM", fields)) {
    // A count TagLib cuts is one its frame is longer than it writes.
    for (TagLib::ID3v2::Frame *frame : frames) {
      auto *popm = dynamic_cast<TagLib::ID3v2::PopularimeterFrame *>(frame);
      if (popm != nullptr && cutByTagLib(popm)) return false;
    }
    return true;
  }
  for (size_t index = 0; index < frames.size(); ++index) {
    auto *popm = dynamic_cast<TagLib::ID3v2::PopularimeterFrame *>(frames[index]);
    if (popm == nullptr || fields[index].isEmpty() || renderedFields(popm) == fields[index]) continue;
    id3->removeFrame(popm);
    id3->addFrame(new KeptPopularimeterFrame(fields[index]));
  }
  return true;
}

/// The first value of the Xiph comment field `key`, or "".
TagLib::String xiphField(TagLib::Ogg::XiphComment *xiph, const char *key) {
  const TagLib::Ogg::FieldListMap &fields = xiph->fieldListMap();
  const auto found = fields.find(key);
  return found == fields.end() || found->second.isEmpty() ? TagLib::String() : found->second.front();
}

/// The first text of the MP4 item `key`, or "" (an integer `rate` as its digits).
TagLib::String mp4Text(TagLib::MP4::Tag *tag, const char *key) {
  if (tag == nullptr || !tag->contains(key)) return TagLib::String();
  const TagLib::MP4::Item item = tag->item(key);
  const TagLib::StringList texts = item.toStringList();
  if (!texts.isEmpty()) return texts.front();
  return item.toInt() > 0 ? TagLib::String::number(item.toInt()) : TagLib::String();
}

/// The first value of the property `key`, or "".
TagLib::String property(const TagLib::PropertyMap &map, const char *key) {
  const auto found = map.find(key);
  return found == map.end() || found->second.isEmpty() ? TagLib::String() : found->second.front();
}

void readRating(TagLib::File *file, const TagLib::PropertyMap &map, CTLTrack *track) {
  if (TagLib::ID3v2::Tag *id3 = id3v2Tag(file, false)) {
    int stars = 0;
    for (TagLib::ID3v2::Frame *frame : id3->frameList("POPM")) {
      auto *popm = dynamic_cast<TagLib::ID3v2::PopularimeterFrame *>(frame);
      if (popm == nullptr || popm->rating() <= 0) continue;
      const int value = starsFromPopularimeter(popm->rating(), popm->email());
      if (popm->email() == wmpEmail) {
        stars = value;
        break;
      }
      if (stars == 0) stars = value;
    }
    track->rating = stars != 0 ? stars : starsFromFraction(userText(id3, fmpsKey));
    track->favourite = isLove(userText(id3, loveKey));
  } else if (TagLib::Ogg::XiphComment *xiph = xiphComment(file, false)) {
    const int fmps = starsFromFraction(xiphField(xiph, fmpsKey));
    track->rating = fmps != 0 ? fmps : starsFromRating(xiphField(xiph, "RATING"));
    track->favourite = isLove(xiphField(xiph, loveKey));
  } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
    TagLib::MP4::Tag *tag = mp4->tag();
    const TagLib::String rate = mp4Text(tag, "rate");
    track->rating = !rate.isEmpty() ? starsFromRating(rate) : starsFromFraction(mp4Text(tag, mp4FMPS));
    track->favourite = isLove(mp4Text(tag, mp4Love));
  } else {
    const int fmps = starsFromFraction(property(map, fmpsKey));
    track->rating = fmps != 0 ? fmps : starsFromRating(property(map, "RATING"));
    track->favourite = isLove(property(map, loveKey));
  }
}

/// Writes `tags`' rating and favourite mark (each unless -1) into `file`, not yet saved.
void writeRating(TagLib::File *file, const CTLTags *tags) {
  const int rating = tags->rating, favourite = tags->favourite;
  if (rating < 0 && favourite < 0) return;
  const int stars = rating > 5 ? 5 : rating;
  if (TagLib::ID3v2::Tag *id3 = id3v2Tag(file, true)) {
    if (rating >= 0) {
      // Every rating the file holds says the new one (a frame per user, each keeping its
      // play counter); removed, a frame with no count goes.
      bool wmp = false;
      const TagLib::ID3v2::FrameList frames = id3->frameList("POPM");  // a copy: frames go
      for (TagLib::ID3v2::Frame *frame : frames) {
        auto *popm = dynamic_cast<TagLib::ID3v2::PopularimeterFrame *>(frame);
        if (popm == nullptr) continue;
        if (stars == 0 && !countsPlays(popm)) {
          id3->removeFrame(popm);
          continue;
        }
        const bool linear = starsFromPopularimeter(51, popm->email()) == 1;
        popm->setRating(stars == 0 ? 0 : linear ? stars * 51 : popularimeterByte(stars));
        wmp = wmp || popm->email() == wmpEmail;
      }
      if (!wmp && stars > 0) {
        auto *popm = new TagLib::ID3v2::PopularimeterFrame();
        popm->setEmail(wmpEmail);
        popm->setRating(popularimeterByte(stars));
        id3->addFrame(popm);
      }
      setUserText(id3, fmpsKey, "FMPS_Rating", stars > 0 ? fmpsValue(stars) : TagLib::String());
    }
    if (favourite >= 0) setUserText(id3, loveKey, loveKey, favourite > 0 ? "L" : "");
  } else if (TagLib::Ogg::XiphComment *xiph = xiphComment(file, true)) {
    if (rating >= 0) {
      xiph->removeFields("RATING");
      xiph->removeFields(fmpsKey);
      if (stars > 0) {
        xiph->addField("RATING", TagLib::String::number(stars));
        xiph->addField(fmpsKey, fmpsValue(stars));
      }
    }
    if (favourite >= 0) {
      xiph->removeFields(loveKey);
      if (favourite > 0) xiph->addField(loveKey, "L");
    }
  } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
    TagLib::MP4::Tag *tag = mp4->tag();
    if (tag == nullptr) return;
    if (rating >= 0) {
      tag->removeItem("rate");
      tag->removeItem(mp4FMPS);
      if (stars > 0) {
        tag->setItem("rate", TagLib::StringList(TagLib::String::number(stars * 20)));
        tag->setItem(mp4FMPS, TagLib::StringList(fmpsValue(stars)));
      }
    }
    if (favourite >= 0) {
      tag->removeItem(mp4Love);
      if (favourite > 0) tag->setItem(mp4Love, TagLib::StringList("L"));
    }
  } else {
    TagLib::PropertyMap map = file->properties();
    if (rating >= 0) {
      map.erase("RATING");
      map.erase(fmpsKey);
      if (stars > 0) {
        map.replace("RATING", TagLib::StringList(TagLib::String::number(stars)));
        map.replace(fmpsKey, TagLib::StringList(fmpsValue(stars)));
      }
    }
    if (favourite >= 0) {
      map.erase(loveKey);
      if (favourite > 0) map.replace(loveKey, TagLib::StringList("L"));
    }
    file->setProperties(map);
  }
}

// MARK: - Rating tags kept and put back

// `write` keeps, for each file whose rating or favourite it writes, every tag it would change
// as the file holds it (`ctl_read_rating_tags`), and undo puts exactly those back: other
// players' POPM frames with their counts, values bluelib cannot read, tags that were absent
// absent again. The bytes are records: "CTLR", version 1, the kind of tag ('I' ID3v2, 'X'
// Vorbis comments, 'M' MP4, 'P' properties), then for each tag or value in the file's order a
// type byte, a key and a value (each a 4-byte big-endian length and bytes) and a 4-byte number.

const char *const recordsMagic = "CTLR";

/// Where `file` keeps a rating: the same choice `writeRating` makes.
char ratingHome(TagLib::File *file) {
  if (dynamic_cast<TagLib::MPEG::File *>(file) != nullptr || dynamic_cast<TagLib::RIFF::AIFF::File *>(file) != nullptr ||
      dynamic_cast<TagLib::RIFF::WAV::File *>(file) != nullptr) {
    return 'I';
  }
  if (dynamic_cast<TagLib::FLAC::File *>(file) != nullptr || dynamic_cast<TagLib::Ogg::XiphComment *>(file->tag()) != nullptr) {
    return 'X';
  }
  if (dynamic_cast<TagLib::MP4::File *>(file) != nullptr) return 'M';
  return 'P';
}

/// One kept tag or value.
struct Record {
  char type;
  TagLib::ByteVector key;
  TagLib::ByteVector value;
  int number;
};

void appendRecord(TagLib::ByteVector &out, const Record &record) {
  out.append(record.type);
  out.append(TagLib::ByteVector::fromUInt(record.key.size()));
  out.append(record.key);
  out.append(TagLib::ByteVector::fromUInt(record.value.size()));
  out.append(record.value);
  out.append(TagLib::ByteVector::fromUInt(static_cast<unsigned int>(record.number)));
}

/// The records of `bytes` and their kind; false when they are not records of this version.
bool parseRecords(const uint8_t *bytes, size_t size, char &kind, std::vector<Record> &records) {
  if (size < 6 || std::memcmp(bytes, recordsMagic, 4) != 0 || bytes[4] != 1) return false;
  kind = static_cast<char>(bytes[5]);
  size_t position = 6;
  auto number = [&](uint32_t &value) {
    if (size - position < 4) return false;
    value = (uint32_t(bytes[position]) << 24) | (uint32_t(bytes[position + 1]) << 16) |
            (uint32_t(bytes[position + 2]) << 8) | uint32_t(bytes[position + 3]);
    position += 4;
    return true;
  };
  auto text = [&](TagLib::ByteVector &value) {
    uint32_t length = 0;
    if (!number(length) || size - position < length) return false;
    value = TagLib::ByteVector(reinterpret_cast<const char *>(bytes + position), length);
    position += length;
    return true;
  };
  while (position < size) {
    Record record;
    record.type = static_cast<char>(bytes[position++]);
    uint32_t value = 0;
    if (!text(record.key) || !text(record.value) || !number(value)) return false;
    record.number = static_cast<int>(value);
    records.push_back(record);
  }
  return true;
}

/// The MP4 items a rating write changes.
const char *const mp4RatingKeys[] = {"rate", mp4FMPS, mp4Love};
/// The Vorbis comments and properties a rating write changes.
const char *const ratingKeys[] = {"RATING", fmpsKey, loveKey};

/// Every tag of `file` that `writeRating` changes, as records (see above); false when an
/// ID3v2 frame cannot be read as the file holds it and TagLib would not write it back so.
bool readRatingTags(TagLib::File *file, TagLib::ByteVector &out) {
  const char kind = ratingHome(file);
  out = TagLib::ByteVector(recordsMagic);
  out.append(char(1));
  out.append(kind);
  if (kind == 'I') {
    TagLib::ID3v2::Tag *id3 = id3v2Tag(file, false);
    if (id3 == nullptr) return true;
    std::vector<RawFrame> raw;
    std::vector<TagLib::ByteVector> popmFields, txxxFields;
    const bool read = rawFrames(file, raw);
    if (!read || !fileFields(raw, id3, "POPM", popmFields)) popmFields.assign(id3->frameList("POPM").size(), {});
    if (!read || !fileFields(raw, id3, "TXXX", txxxFields)) txxxFields.assign(id3->frameList("TXXX").size(), {});
    size_t index = 0;
    for (TagLib::ID3v2::Frame *frame : id3->frameList("POPM")) {
      TagLib::ByteVector fields = popmFields[index++];
      // An encrypted frame stays as it is: no write changes it.
      auto *popm = dynamic_cast<TagLib::ID3v2::PopularimeterFrame *>(frame);
      if (popm == nullptr) continue;
      if (fields.isEmpty()) {
        // TagLib's reading of it: the file's bytes unless the count is longer than 4 bytes.
        if (cutByTagLib(popm)) return false;
        fields = renderedFields(frame);
      }
      appendRecord(out, Record{'F', "POPM", fields, 0});
    }
    index = 0;
    for (TagLib::ID3v2::Frame *frame : id3->frameList("TXXX")) {
      const TagLib::ByteVector fields = txxxFields[index++];
      auto *text = dynamic_cast<TagLib::ID3v2::UserTextIdentificationFrame *>(frame);
      if (text == nullptr) continue;
      const TagLib::String name = text->description().upper();
      if (name != fmpsKey && name != loveKey) continue;
      appendRecord(out, Record{'F', "TXXX", fields.isEmpty() ? renderedFields(frame) : fields, 0});
    }
  } else if (kind == 'X') {
    TagLib::Ogg::XiphComment *xiph = xiphComment(file, false);
    if (xiph == nullptr) return true;
    const TagLib::Ogg::FieldListMap &fields = xiph->fieldListMap();
    for (const char *key : ratingKeys) {
      const auto found = fields.find(key);
      if (found == fields.end()) continue;
      for (const TagLib::String &value : found->second) {
        appendRecord(out, Record{'V', key, value.data(TagLib::String::UTF8), 0});
      }
    }
  } else if (kind == 'M') {
    TagLib::MP4::Tag *tag = dynamic_cast<TagLib::MP4::File *>(file)->tag();
    if (tag == nullptr) return true;
    for (const char *key : mp4RatingKeys) {
      if (!tag->contains(key)) continue;
      const TagLib::MP4::Item item = tag->item(key);
      const int type = static_cast<int>(item.atomDataType());
      const TagLib::StringList texts = item.toStringList();
      const TagLib::ByteVectorList data = item.toByteVectorList();
      if (!texts.isEmpty()) {
        for (const TagLib::String &text : texts) appendRecord(out, Record{'S', key, text.data(TagLib::String::UTF8), type});
      } else if (!data.isEmpty()) {
        for (const TagLib::ByteVector &bytes : data) appendRecord(out, Record{'B', key, bytes, type});
      } else {
        appendRecord(out, Record{'N', key, TagLib::ByteVector(), item.toInt()});
      }
    }
  } else {
    const TagLib::PropertyMap map = file->properties();
    for (const char *key : ratingKeys) {
      const auto found = map.find(key);
      if (found == map.end()) continue;
      for (const TagLib::String &value : found->second) {
        appendRecord(out, Record{'V', key, value.data(TagLib::String::UTF8), 0});
      }
    }
  }
  return true;
}

/// Whether `key` is one of `keys`.
template <size_t count> bool oneOf(const TagLib::ByteVector &key, const char *const (&keys)[count]) {
  for (const char *name : keys) {
    if (key == TagLib::ByteVector(name)) return true;
  }
  return false;
}

/// Removes from `file` every tag `writeRating` writes and puts back the ones `bytes` keep
/// (from `readRatingTags`), not yet saved; false when `bytes` are not such records (of
/// these tags alone), or are another kind of file's.
bool restoreRatingTags(TagLib::File *file, const uint8_t *bytes, size_t size) {
  char kind = 0;
  std::vector<Record> records;
  if (!parseRecords(bytes, size, kind, records) || kind != ratingHome(file)) return false;
  for (const Record &record : records) {
    if ((kind == 'X' || kind == 'P') ? !oneOf(record.key, ratingKeys) : (kind == 'M' && !oneOf(record.key, mp4RatingKeys))) {
      return false;
    }
  }
  if (kind == 'I') {
    for (const Record &record : records) {
      if (record.type != 'F' || (record.key != TagLib::ByteVector("POPM") && record.key != TagLib::ByteVector("TXXX")) ||
          record.value.isEmpty() || record.value.size() >= (1u << 28)) {
        return false;
      }
    }
    TagLib::ID3v2::Tag *id3 = id3v2Tag(file, true);
    // A play count another player changed since (it counted plays) stays as it is now: only
    // the rest of each frame goes back. Frames are told apart by their email, in order.
    std::vector<std::pair<TagLib::String, TagLib::ByteVector>> counts;
    const TagLib::ID3v2::FrameList frames = id3->frameList("POPM");  // a copy: frames go
    for (TagLib::ID3v2::Frame *frame : frames) {
      auto *popm = dynamic_cast<TagLib::ID3v2::PopularimeterFrame *>(frame);
      if (popm == nullptr) continue;
      const TagLib::ByteVector fields = popularimeterFields(popm);
      const int start = playCountStart(fields);
      counts.emplace_back(popm->email(), start < 0 ? TagLib::ByteVector() : fields.mid(start));
      id3->removeFrame(popm);
    }
    for (Record &record : records) {
      if (record.key != TagLib::ByteVector("POPM")) continue;
      const TagLib::ID3v2::PopularimeterFrame kept(frameBytes(record.key, record.value));
      const int start = playCountStart(record.value);
      for (auto now = counts.begin(); now != counts.end(); ++now) {
        if (now->first != kept.email()) continue;
        if (start >= 0 && !now->second.isEmpty()) record.value = record.value.mid(0, start) + now->second;
        counts.erase(now);
        break;
      }
    }
    for (const char *key : {fmpsKey, loveKey}) {
      for (auto *frame : userTexts(id3, key)) id3->removeFrame(frame);
    }
    // Unknown to TagLib, they are written back as they are.
    for (const Record &record : records) id3->addFrame(new TagLib::ID3v2::UnknownFrame(frameBytes(record.key, record.value)));
  } else if (kind == 'X') {
    for (const Record &record : records) {
      if (record.type != 'V') return false;
    }
    TagLib::Ogg::XiphComment *xiph = xiphComment(file, true);
    for (const char *key : ratingKeys) xiph->removeFields(key);
    for (const Record &record : records) {
      xiph->addField(TagLib::String(record.key, TagLib::String::UTF8), TagLib::String(record.value, TagLib::String::UTF8),
                     false);
    }
  } else if (kind == 'M') {
    TagLib::MP4::Tag *tag = dynamic_cast<TagLib::MP4::File *>(file)->tag();
    if (tag == nullptr) return records.empty();
    for (const char *key : mp4RatingKeys) tag->removeItem(key);
    for (size_t start = 0; start < records.size();) {
      // The values of one item are consecutive records of one type.
      const Record &first = records[start];
      size_t end = start;
      TagLib::StringList texts;
      TagLib::ByteVectorList data;
      while (end < records.size() && records[end].key == first.key && records[end].type == first.type) {
        texts.append(TagLib::String(records[end].value, TagLib::String::UTF8));
        data.append(records[end].value);
        ++end;
      }
      TagLib::MP4::Item item;
      switch (first.type) {
      case 'S': item = TagLib::MP4::Item(texts); break;
      case 'B': item = TagLib::MP4::Item(data); break;
      case 'N': item = TagLib::MP4::Item(first.number); break;
      default: return false;
      }
      if (first.type != 'N') item.setAtomDataType(static_cast<TagLib::MP4::AtomDataType>(first.number));
      tag->setItem(TagLib::String(first.key, TagLib::String::UTF8), item);
      start = end;
    }
  } else {
    TagLib::PropertyMap map = file->properties();
    for (const char *key : ratingKeys) map.erase(key);
    for (const Record &record : records) {
      if (record.type != 'V') return false;
      map[TagLib::String(record.key, TagLib::String::UTF8)].append(TagLib::String(record.value, TagLib::String::UTF8));
    }
    file->setProperties(map);
  }
  return true;
}

} // namespace

// MARK: - C interface

extern "C" int ctl_read(const char *path, int flags, CTLTrack *track) {
  return ctl_read_descriptor(-1, path, flags, track);
}

extern "C" int ctl_read_descriptor(int descriptor, const char *path, int flags, CTLTrack *track) {
  std::memset(track, 0, sizeof *track);
  try {
    silenceTagLib();
    std::unique_ptr<DescriptorStream> stream;
    if (descriptor >= 0) stream.reset(new DescriptorStream(descriptor, path));
    TagLib::FileRef ref = stream ? TagLib::FileRef(stream.get(), true, TagLib::AudioProperties::Fast)
                                 : TagLib::FileRef(path, true, TagLib::AudioProperties::Fast);
    if (ref.isNull()) return CTL_NOT_AUDIO;
    TagLib::File *file = ref.file();

    const TagLib::PropertyMap map = file->properties();
    const TagFields fields(map);
    track->album = fields.value({TagFields::album});
    track->artist = fields.value({TagFields::artist});
    track->albumArtist = fields.value({TagFields::albumArtist, TagFields::albumArtistSpaced});
    track->title = fields.value({TagFields::title});
    track->trackNumber = fields.value({TagFields::trackNumber});
    track->date = fields.value({TagFields::date, TagFields::originalDate});
    track->genre = fields.value({TagFields::genre});
    track->discNumber = fields.value({TagFields::discNumber});
    track->musicBrainzTrackId = fields.value({TagFields::musicBrainzTrackId});
    track->musicBrainzAlbumId = fields.value({TagFields::musicBrainzAlbumId});
    track->musicBrainzReleaseGroupId = fields.value({TagFields::musicBrainzReleaseGroupId});
    track->composer = fields.value({TagFields::composer});
    track->format = formatName(file);

    if (const TagLib::AudioProperties *audio = file->audioProperties()) {
      track->lengthMilliseconds = audio->lengthInMilliseconds();
      track->bitrate = audio->bitrate();
      track->sampleRate = audio->sampleRate();
      // A tracker module has no length or bitrate: its channels say it holds music.
      const bool isModule = dynamic_cast<TagLib::Mod::FileBase *>(file) != nullptr;
      track->hasAudio = audio->lengthInMilliseconds() > 0 || audio->bitrate() > 0 || (isModule && audio->channels() > 0);
    }

    readRating(file, map, track);

    const FoundPicture picture = findPicture(file);
    if (picture.found) {
      track->hasPicture = 1;
      track->pictureMimeType = copyString(picture.mimeType);
      if (flags & CTL_READ_PICTURE) {
        track->pictureSize = picture.data.size();
        track->picture = static_cast<uint8_t *>(std::malloc(track->pictureSize ? track->pictureSize : 1));
        if (track->picture == nullptr) throw std::bad_alloc();
        std::memcpy(track->picture, picture.data.data(), track->pictureSize);
      }
    }
    return CTL_OK;
  } catch (...) {
    ctl_track_free(track);
    return CTL_FAILED;
  }
}

extern "C" const char *ctl_extensions(void) {
  static const std::string extensions = [] {
    std::string joined;
    try {
      for (const TagLib::String &extension : TagLib::FileRef::defaultFileExtensions()) {
        if (!joined.empty()) joined += ' ';
        joined += extension.to8Bit(true);
      }
    } catch (...) {
    }
    return joined;
  }();
  return extensions.c_str();
}

extern "C" void ctl_track_free(CTLTrack *track) {
  char *strings[] = {track->album,      track->artist,
                     track->albumArtist, track->title,
                     track->trackNumber, track->date,
                     track->genre,       track->discNumber,
                     track->musicBrainzTrackId, track->musicBrainzAlbumId,
                     track->musicBrainzReleaseGroupId, track->pictureMimeType,
                     track->composer};
  for (char *string : strings) std::free(string);
  std::free(track->picture);
  std::memset(track, 0, sizeof *track);
}

extern "C" int ctl_write(const char *path, const CTLTags *tags) {
  try {
    silenceTagLib();
    TagLib::FileRef ref(path, false);
    if (ref.isNull()) return CTL_NOT_AUDIO;
    TagLib::File *file = ref.file();

    TagLib::PropertyMap map = file->properties();
    setField(map, "ALBUM", tags->album);
    setField(map, "ARTIST", tags->artist);
    setField(map, "ALBUMARTIST", tags->albumArtist);
    setField(map, "TITLE", tags->title);
    // A number given alone keeps the total the file wrote with it ("3/12" given 5: "5/12").
    std::string number;
    const char *trackNumber = tags->trackNumber;
    if (trackNumber != nullptr && *trackNumber != '\0' && std::strchr(trackNumber, '/') == nullptr) {
      const std::string old = property(map, "TRACKNUMBER").to8Bit(true);
      const size_t slash = old.find('/');
      if (slash != std::string::npos) {
        number = std::string(trackNumber) + old.substr(slash);
        trackNumber = number.c_str();
      }
    }
    setField(map, "TRACKNUMBER", trackNumber);
    setField(map, "DATE", tags->date);
    setField(map, "GENRE", tags->genre);
    setField(map, "DISCNUMBER", tags->discNumber);
    setField(map, "MUSICBRAINZ_TRACKID", tags->musicBrainzTrackId);
    setField(map, "MUSICBRAINZ_ALBUMID", tags->musicBrainzAlbumId);
    setField(map, "MUSICBRAINZ_RELEASEGROUPID", tags->musicBrainzReleaseGroupId);
    // Other players' POPM frames as the file holds them, before anything changes the tag.
    if (!keepPopularimeters(file)) return CTL_CANNOT_KEEP;
    file->setProperties(map);
    if (tags->picture != nullptr && !replacePictures(file, tags)) return CTL_SAVE_FAILED;
    if (tags->ratingTags != nullptr) {
      if (!restoreRatingTags(file, tags->ratingTags, tags->ratingTagsSize)) return CTL_FAILED;
    } else {
      writeRating(file, tags);
    }

    bool saved;
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
      if (tags->keepOtherTags) {
        int kinds = TagLib::MPEG::File::ID3v2;
        if (mpeg->hasID3v1Tag()) kinds |= TagLib::MPEG::File::ID3v1;
        if (mpeg->hasAPETag()) kinds |= TagLib::MPEG::File::APE;
        bool v3 = mpeg->hasID3v2Tag() ? mpeg->ID3v2Tag()->header()->majorVersion() == 3 : tags->id3v2Version == 3;
        saved = mpeg->save(kinds, TagLib::File::StripNone, v3 ? TagLib::ID3v2::v3 : TagLib::ID3v2::v4,
                           TagLib::File::DoNotDuplicate);
      } else {
        saved = mpeg->save(TagLib::MPEG::File::ID3v2, TagLib::File::StripOthers,
                           tags->id3v2Version == 3 ? TagLib::ID3v2::v3 : TagLib::ID3v2::v4,
                           TagLib::File::DoNotDuplicate);
      }
    } else {
      saved = file->save();
    }
    return saved ? CTL_OK : CTL_SAVE_FAILED;
  } catch (...) {
    return CTL_FAILED;
  }
}

extern "C" int ctl_read_rating_tags(int descriptor, const char *path, CTLBytes *tags) {
  std::memset(tags, 0, sizeof *tags);
  try {
    silenceTagLib();
    std::unique_ptr<DescriptorStream> stream(new DescriptorStream(descriptor, path));
    TagLib::FileRef ref(stream.get(), false);
    if (ref.isNull()) return CTL_NOT_AUDIO;
    TagLib::ByteVector bytes;
    if (!readRatingTags(ref.file(), bytes)) return CTL_CANNOT_KEEP;
    tags->bytes = static_cast<uint8_t *>(std::malloc(bytes.size()));
    if (tags->bytes == nullptr) throw std::bad_alloc();
    std::memcpy(tags->bytes, bytes.data(), bytes.size());
    tags->size = bytes.size();
    return CTL_OK;
  } catch (...) {
    ctl_bytes_free(tags);
    return CTL_FAILED;
  }
}

extern "C" void ctl_bytes_free(CTLBytes *tags) {
  std::free(tags->bytes);
  std::memset(tags, 0, sizeof *tags);
}

// MARK: - Lyrics

extern "C" int ctl_read_lyrics(int descriptor, const char *path, CTLLyrics *lyrics) {
  std::memset(lyrics, 0, sizeof *lyrics);
  try {
    silenceTagLib();
    std::unique_ptr<DescriptorStream> stream(new DescriptorStream(descriptor, path));
    TagLib::FileRef ref(stream.get(), false);
    if (ref.isNull()) return CTL_NOT_AUDIO;
    TagLib::File *file = ref.file();
    if (TagLib::ID3v2::Tag *id3 = id3v2Tag(file, false)) {
      for (TagLib::ID3v2::Frame *frame : id3->frameList("USLT")) {
        auto *uslt = dynamic_cast<TagLib::ID3v2::UnsynchronizedLyricsFrame *>(frame);
        if (uslt == nullptr || uslt->text().stripWhiteSpace().isEmpty()) continue;
        lyrics->text = copyString(uslt->text());
        break;
      }
      for (TagLib::ID3v2::Frame *frame : id3->frameList("SYLT")) {
        auto *sylt = dynamic_cast<TagLib::ID3v2::SynchronizedLyricsFrame *>(frame);
        if (sylt == nullptr || sylt->synchedText().isEmpty()) continue;
        const TagLib::ID3v2::SynchronizedLyricsFrame::SynchedTextList lines = sylt->synchedText();
        const bool milliseconds =
          sylt->timestampFormat() == TagLib::ID3v2::SynchronizedLyricsFrame::AbsoluteMilliseconds;
        lyrics->syncedTimes = static_cast<int64_t *>(std::calloc(lines.size(), sizeof(int64_t)));
        lyrics->syncedLines = static_cast<char **>(std::calloc(lines.size(), sizeof(char *)));
        if (lyrics->syncedTimes == nullptr || lyrics->syncedLines == nullptr) throw std::bad_alloc();
        for (const auto &line : lines) {
          lyrics->syncedTimes[lyrics->syncedCount] = milliseconds ? static_cast<int64_t>(line.time) : -1;
          lyrics->syncedLines[lyrics->syncedCount] = copyString(line.text);
          lyrics->syncedCount += 1;
        }
        break;
      }
    } else {
      lyrics->text = field(file->properties(), {"LYRICS", "UNSYNCEDLYRICS", "UNSYNCED LYRICS"});
    }
    return CTL_OK;
  } catch (...) {
    ctl_lyrics_free(lyrics);
    return CTL_FAILED;
  }
}

extern "C" void ctl_lyrics_free(CTLLyrics *lyrics) {
  std::free(lyrics->text);
  for (size_t index = 0; index < lyrics->syncedCount; index++) std::free(lyrics->syncedLines[index]);
  std::free(lyrics->syncedLines);
  std::free(lyrics->syncedTimes);
  std::memset(lyrics, 0, sizeof *lyrics);
}

extern "C" int ctl_copy_attributes(int source, int target) {
#if defined(__linux__)
  ssize_t size = flistxattr(source, nullptr, 0);
  if (size <= 0) return 0;
  std::vector<char> names(static_cast<size_t>(size));
  size = flistxattr(source, names.data(), names.size());
  if (size <= 0) return 0;
  int failed = 0;
  for (ssize_t start = 0; start < size;) {
    const char *name = names.data() + start;
    start += static_cast<ssize_t>(std::strlen(name)) + 1;
    ssize_t length = fgetxattr(source, name, nullptr, 0);
    if (length < 0) {
      failed += 1;
      continue;
    }
    std::vector<char> value(static_cast<size_t>(length) + 1);
    length = fgetxattr(source, name, value.data(), value.size());
    if (length < 0 || fsetxattr(target, name, value.data(), static_cast<size_t>(length), 0) != 0) failed += 1;
  }
  return failed;
#else
  (void)source;
  (void)target;
  return 0;
#endif
}

extern "C" int ctl_abi(void) { return CTL_ABI; }
