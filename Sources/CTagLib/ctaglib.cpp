#include "ctaglib.h"
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
#include <s3mfile.h>
#include <speexfile.h>
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
    track->album = field(map, {"ALBUM"});
    track->artist = field(map, {"ARTIST"});
    track->albumArtist = field(map, {"ALBUMARTIST", "ALBUM ARTIST"});
    track->title = field(map, {"TITLE"});
    track->trackNumber = field(map, {"TRACKNUMBER"});
    track->date = field(map, {"DATE", "ORIGINALDATE"});
    track->genre = field(map, {"GENRE"});
    track->discNumber = field(map, {"DISCNUMBER"});
    track->musicBrainzTrackId = field(map, {"MUSICBRAINZ_TRACKID"});
    track->musicBrainzAlbumId = field(map, {"MUSICBRAINZ_ALBUMID"});
    track->musicBrainzReleaseGroupId = field(map, {"MUSICBRAINZ_RELEASEGROUPID"});
    track->format = formatName(file);

    if (const TagLib::AudioProperties *audio = file->audioProperties()) {
      track->lengthMilliseconds = audio->lengthInMilliseconds();
      track->bitrate = audio->bitrate();
      // A tracker module has no length or bitrate: its channels say it holds music.
      const bool isModule = dynamic_cast<TagLib::Mod::FileBase *>(file) != nullptr;
      track->hasAudio = audio->lengthInMilliseconds() > 0 || audio->bitrate() > 0 || (isModule && audio->channels() > 0);
    }

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
    setField(map, "TRACKNUMBER", tags->trackNumber);
    setField(map, "DATE", tags->date);
    setField(map, "GENRE", tags->genre);
    setField(map, "DISCNUMBER", tags->discNumber);
    setField(map, "MUSICBRAINZ_TRACKID", tags->musicBrainzTrackId);
    setField(map, "MUSICBRAINZ_ALBUMID", tags->musicBrainzAlbumId);
    setField(map, "MUSICBRAINZ_RELEASEGROUPID", tags->musicBrainzReleaseGroupId);
    file->setProperties(map);
    if (tags->picture != nullptr && !replacePictures(file, tags)) return CTL_SAVE_FAILED;

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
