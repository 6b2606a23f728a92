#!/usr/bin/env bash
# Makes the audio fixtures of MusicFolderTests: one second of mono silence per format, with no
# tags, a few KB each. Run once by hand (needs Debian's ffmpeg); the files it writes are committed,
# so the tests and CI need only TagLib, which they use to tag copies of these files per case.
#   bash Tests/Fixtures/music/make-fixtures.sh
# The formats TagLib reads that this ffmpeg cannot encode (Monkey's Audio, Musepack, the tracker
# modules) and FLAC in Ogg (see make-handmade.py for why) come from its companion:
#   python3 Tests/Fixtures/music/make-handmade.py
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
# wmav2 takes 24 kb/s at least; smaller ASF packets than the default 3200 bytes keep the file small.
ffmpeg "${common[@]}" -c:a wmav2 -b:a 24k -packet_size 1000 silence.wma
# Uncompressed PCM: 16 KB each.
ffmpeg "${common[@]}" -c:a pcm_s16be silence.aiff
ffmpeg "${common[@]}" -c:a pcm_s16le silence.wav
ffmpeg "${common[@]}" -c:a tta silence.tta
ffmpeg "${common[@]}" -c:a wavpack silence.wv
ffmpeg "${common[@]}" -c:a libspeex silence.spx
# The .m4b extension picks the ipod muxer; the brand says audiobook.
ffmpeg "${common[@]}" -c:a aac -b:a 8k -movflags +faststart -brand "M4B " silence.m4b
ls -l silence.*
