#!/usr/bin/env bash
# Makes the audio fixtures of MusicFolderTests: one second of mono silence per format, with no
# tags, a few KB each. Run once by hand (needs Debian's ffmpeg); the files it writes are committed,
# so the tests and CI need only TagLib, which they use to tag copies of these files per case.
#   bash Tests/Fixtures/music/make-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")"

# -bitexact keeps encoder names and dates out of the files, so a rerun writes the same bytes.
common=(-hide_banner -loglevel error -y -f lavfi -i anullsrc=channel_layout=mono:sample_rate=8000 -t 1
  -map_metadata -1 -fflags +bitexact -flags:a +bitexact)

ffmpeg "${common[@]}" -c:a libmp3lame -b:a 8k -id3v2_version 0 -write_xing 1 silence.mp3
ffmpeg "${common[@]}" -c:a flac -sample_fmt s16 silence.flac
ffmpeg "${common[@]}" -c:a aac -b:a 8k -movflags +faststart silence.m4a
ffmpeg "${common[@]}" -c:a libvorbis -q:a 0 silence.ogg
ffmpeg "${common[@]}" -c:a libopus -b:a 6k silence.opus
ls -l silence.*
