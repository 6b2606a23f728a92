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
#include <id3v2header.h>
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
    musicBrainzTrackId, musicBrainzAlbumId, musicBrainzReleaseGroupId, count
  };

  explicit TagFields(const TagLib::PropertyMap &map) {
    static const char *const names[count] = {
      "ALBUM", "ARTIST", "ALBUMARTIST", "ALBUM ARTIST", "TITLE", "TRACKNUMBER", "DATE", "ORIGINALDATE", "GENRE",
      "DISCNUMBER", "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_RELEASEGROUPID"};
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
        if (stars == 0 && popm->counter() == 0) {
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
    track->format = formatName(file);

    if (const TagLib::AudioProperties *audio = file->audioProperties()) {
      track->lengthMilliseconds = audio->lengthInMilliseconds();
      track->bitrate = audio->bitrate();
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
                     track->musicBrainzReleaseGroupId, track->pictureMimeType};
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
    file->setProperties(map);
    if (tags->picture != nullptr && !replacePictures(file, tags)) return CTL_SAVE_FAILED;
    writeRating(file, tags);

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
