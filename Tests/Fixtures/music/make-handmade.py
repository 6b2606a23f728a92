#!/usr/bin/env python3
"""Writes, byte by byte, the audio fixtures that Debian's ffmpeg cannot encode as TagLib needs.

Companion of make-fixtures.sh: one second (or about one) of silence per format, with no tags,
2 KB at most each. Each file is laid out as its format's own tools write it and as
TagLib 1.13 reads it (taglib/<format>/*.cpp), so TagLib opens it, reports audio and can write tags
into a copy; ffmpeg decodes every one of them too. The standard library only; the output is
deterministic, so re-running it changes no bytes.
  python3 Tests/Fixtures/music/make-handmade.py

  silence.ape  Monkey's Audio 3.99 (descriptor, header, seek table, WAV header, one silent frame)
  silence.mpc  Musepack SV7 ("MP+"), 39 empty frames at 44.1 kHz
  silence.oga  FLAC in Ogg, with a PADDING block after the Vorbis comment (see ogg_flac)
  silence.mod  ProTracker ("M.K."), 4 channels
  silence.s3m  Scream Tracker 3 ("SCRM"), 4 channels
  silence.it   Impulse Tracker ("IMPM"), 4 channels
  silence.xm   FastTracker 2 ("Extended Module: "), 4 channels
The four modules have no notes and no sample data; each plays 10 rows at speed 5 and 125 BPM
(0.1 s a row), so a player stops after one second.
"""

import hashlib
import os
import struct
import zlib

OUT = os.path.dirname(os.path.abspath(__file__))

RATE = 8000  # the sample rate of make-fixtures.sh, where the format allows it
SAMPLES = RATE  # one second, mono
PCM = bytes(2 * SAMPLES)  # its 16-bit samples: silence


def le16(n):
    return struct.pack("<H", n)


def le32(n):
    return struct.pack("<I", n)


def be16(n):
    return struct.pack(">H", n)


def be24(n):
    return struct.pack(">I", n)[1:]


def text(s, size):
    """`s` in Latin-1, padded with NULs to `size` bytes."""
    data = s.encode("latin-1")
    assert len(data) <= size
    return data + bytes(size - len(data))


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def wav_header(data_size):
    """The 44-byte RIFF header of 16-bit mono PCM at RATE."""
    fmt = struct.pack("<HHIIHH", 1, 1, RATE, 2 * RATE, 2, 16)
    return (b"RIFF" + le32(36 + data_size) + b"WAVE" + b"fmt " + le32(len(fmt)) + fmt
            + b"data" + le32(data_size))


# MARK: - Monkey's Audio

def ape():
    """Monkey's Audio 3.99: an APE_DESCRIPTOR and APE_HEADER (TagLib's analyzeCurrent reads both),
    a one-entry seek table, the WAV header it restores, then one frame. The frame is a CRC word with
    the bit that says frame flags follow, the flags word with "mono silence" set (so a decoder reads
    no entropy-coded samples), and one word for the range coder's start; Monkey's Audio stores frame
    data as little-endian 32-bit words."""
    version = 3990
    compression = 2000  # "normal"
    blocks_per_frame = 73728  # what 3.99 uses at "normal"
    crc = zlib.crc32(PCM) >> 1  # the CRC of 3.98 and later: CRC-32 of the decoded bytes, shifted
    frame = le32(crc | 0x80000000) + le32(1) + le32(0)  # 1: APE_FRAMECODE_MONO_SILENCE
    wav = wav_header(len(PCM))
    header = struct.pack("<HHIIIHHI", compression, 0, blocks_per_frame, SAMPLES, 1, 16, 1, RATE)
    descriptor_size, seek_table_size = 52, 4
    first_frame = descriptor_size + len(header) + seek_table_size + len(wav)
    seek_table = le32(first_frame)
    # The file's MD5 as Monkey's Audio computes it: WAV header, frame data, WAV trailer (none),
    # then the APE_HEADER and the seek table.
    md5 = hashlib.md5(wav + frame + header + seek_table).digest()
    descriptor = (b"MAC " + struct.pack("<HHIIIIIII", version, 0, descriptor_size, len(header),
                                        seek_table_size, len(wav), len(frame), 0, 0) + md5)
    assert len(descriptor) == descriptor_size and len(header) == 24
    write("silence.ape", descriptor + header + seek_table + wav + frame)


# MARK: - Musepack

class BitWriter:
    """Bits, most significant first, packed into little-endian 32-bit words, as Musepack SV7
    stores its stream."""

    def __init__(self):
        self.bits = []

    def put(self, value, count):
        self.bits += [(value >> (count - 1 - i)) & 1 for i in range(count)]

    def words(self):
        bits = self.bits + [0] * (-len(self.bits) % 32)
        out = b""
        for i in range(0, len(bits), 32):
            out += le32(int("".join(map(str, bits[i:i + 32])), 2))
        return out


def mpc():
    """Musepack SV7: "MP+" and the stream version, the frame count, then the stream header as
    little-endian words (TagLib's readSV7 reads the sample rate index from bits 16-17 of the word at
    byte 8). The bit stream then holds the encoder version and the frames: each frame is its size in
    bits (20 bits) and a body; with the highest band 0 and both resolutions 0 a body is the two
    4-bit resolutions of band 0 and nothing else. SV7 runs at 32 kHz at least, in 1152-sample
    frames, and is always stereo to TagLib. TagLib counts 39 frames x 1152 less 576 samples: 44352
    at 44.1 kHz, 1.006 s. The true-gapless field (576 valid samples in the last frame) gives a
    gapless decoder the same count; TagLib 1.13 reads that field from the wrong bytes (5-8), which
    are 0 here."""
    frames = 39
    last_frame_samples = 576
    # Bits 31-16 of the word at byte 8: intensity stereo, mid/side, highest band (6 bits),
    # profile (4 bits, 0: none), link (2 bits), sample rate index (2 bits, 0: 44100 Hz);
    # bits 15-0: the peak level, 0 for silence.
    stream = 0
    gain_title = gain_album = 0  # gain (high 16 bits) and peak (low 16 bits), none
    gapless = (1 << 31) | (last_frame_samples << 20)
    header = b"MP+" + bytes([0x07]) + le32(frames) + le32(stream) + le32(gain_title) \
        + le32(gain_album) + le32(gapless)
    bits = BitWriter()
    bits.put(0, 8)  # encoder version: none
    for _ in range(frames):
        bits.put(8, 20)  # the body's size in bits
        bits.put(0, 4)  # resolution of band 0, left
        bits.put(0, 4)  # and right
    write("silence.mpc", header + bits.words())


# MARK: - FLAC in Ogg

def crc(data, poly, width):
    """A CRC with no reflection, initial value 0 and no final XOR: FLAC's CRC-8 and CRC-16, Ogg's
    CRC-32."""
    top, mask, value = 1 << (width - 1), (1 << width) - 1, 0
    for byte in data:
        value ^= byte << (width - 8)
        for _ in range(8):
            value = ((value << 1) ^ poly) & mask if value & top else (value << 1) & mask
    return value


def flac_frame(number, blocksize):
    """A FLAC frame of `blocksize` silent samples: its header (fixed block size; 8 kHz; mono;
    16 bits), one CONSTANT subframe of value 0, and the CRCs."""
    if blocksize == 4096:
        size_code, size_bits = 12, b""
    else:
        size_code, size_bits = 7, be16(blocksize - 1)
    header = bytes([0xFF, 0xF8, size_code << 4 | 4, 0 << 4 | 4 << 1, number]) + size_bits
    header += bytes([crc(header, 0x07, 8)])
    frame = header + bytes([0x00]) + be16(0)
    return frame + be16(crc(frame, 0x8005, 16))


def ogg_page(sequence, flags, granule, packets):
    segments = b""
    for packet in packets:
        segments += bytes([255] * (len(packet) // 255) + [len(packet) % 255])
    page = (b"OggS" + struct.pack("<BBqIII", 0, flags, granule, 0x53494C45, sequence, 0)
            + bytes([len(segments)]) + segments + b"".join(packets))
    return page[:22] + le32(crc(page, 0x04C11DB7, 32)) + page[26:]


def ogg_flac():
    """FLAC in Ogg as `flac --ogg` writes it: the mapping's first packet (with STREAMINFO), a
    VORBIS_COMMENT block, a PADDING block, then one FLAC frame per packet. ffmpeg writes neither the
    sample count into STREAMINFO nor a PADDING block, and TagLib 1.13 needs both: it takes the
    length from STREAMINFO only, and on saving it clears the last-block flag of the Vorbis comment,
    which breaks the file unless another block comes after the comment (TagLib then reads the first
    audio packet as a metadata block, and fails outright if that packet is on the last page)."""
    blocks = [4096, SAMPLES - 4096]
    frames = [flac_frame(i, size) for i, size in enumerate(blocks)]
    sizes = [len(frame) for frame in frames]
    streaminfo = (be16(4096) + be16(4096) + be24(min(sizes)) + be24(max(sizes))
                  + struct.pack(">Q", RATE << 44 | 0 << 41 | 15 << 36 | SAMPLES)
                  + hashlib.md5(PCM).digest())
    first = b"\x7fFLAC" + bytes([1, 0]) + be16(2) + b"fLaC" + bytes([0]) + be24(34) + streaminfo
    vendor = b"make-handmade.py"
    comment_body = le32(len(vendor)) + vendor + le32(0)
    comment = bytes([4]) + be24(len(comment_body)) + comment_body
    padding = bytes([0x80 | 1]) + be24(32) + bytes(32)
    pages = [
        ogg_page(0, 2, 0, [first]),  # 2: beginning of stream
        ogg_page(1, 0, 0, [comment]),
        ogg_page(2, 0, 0, [padding]),
        ogg_page(3, 0, blocks[0], [frames[0]]),
        ogg_page(4, 4, SAMPLES, [frames[1]]),  # 4: end of stream
    ]
    write("silence.oga", b"".join(pages))


# MARK: - Tracker modules

SPEED, TEMPO, ROWS = 5, 125, 10  # 5 ticks a row at 125 BPM: 0.1 s a row


def mod():
    """ProTracker: a 20-byte title, 31 empty sample slots (TagLib reads their names as the
    comment), the order list, "M.K." at 1080, then one pattern of 64 rows x 4 channels x 4 bytes:
    F05 (speed 5) on row 0, D00 (pattern break, the song's end) on row 9."""
    sample = text("", 22) + be16(0) + bytes([0, 0]) + be16(0) + be16(1)  # repeat length 1: none
    orders = bytes(128)
    pattern = bytearray(64 * 4 * 4)
    pattern[2:4] = bytes([0x0F, SPEED])
    pattern[(ROWS - 1) * 16 + 2:(ROWS - 1) * 16 + 4] = bytes([0x0D, 0x00])
    data = text("", 20) + sample * 31 + bytes([1, 127]) + orders + b"M.K." + bytes(pattern)
    assert data[1080:1084] == b"M.K."
    write("silence.mod", data)


def s3m():
    """Scream Tracker 3: the 96-byte header ("SCRM" at 44; TagLib counts the channels whose setting
    is not 255), the orders, the parapointers (offsets / 16) to one empty sample and one packed
    pattern whose row 9 has C00 (pattern break, the song's end)."""
    channels = bytes([0, 8, 1, 9] + [255] * 28)  # left 1, right 1, left 2, right 2
    orders = bytes([0, 255])
    sample_at, pattern_at = 112, 192
    header = (text("", 28) + bytes([0x1A, 0x10]) + bytes(2)
              + struct.pack("<HHHHHH", len(orders), 1, 1, 0, 0x1320, 2) + b"SCRM"
              + bytes([64, SPEED, TEMPO, 0x80 | 48, 0, 0]) + bytes(8) + le16(0) + channels)
    assert len(header) == 96
    head = header + orders + le16(sample_at >> 4) + le16(pattern_at >> 4)
    sample = (bytes([1]) + text("", 12) + bytes(3) + le32(0) * 3 + bytes([64, 0, 0, 0])
              + le32(8363) + bytes(12) + text("", 28) + b"SCRS")
    assert len(sample) == 80
    rows = bytes(ROWS - 1) + bytes([0x80 | 0, 3, 0x00, 0]) + bytes(64 - ROWS)
    pattern = le16(2 + len(rows)) + rows
    data = head + bytes(sample_at - len(head)) + sample
    data += bytes(pattern_at - len(data)) + pattern
    write("silence.s3m", data)


def it():
    """Impulse Tracker: the 192-byte header (TagLib counts the channels whose panning is below 128
    and whose volume is above 0; the others are disabled), the orders, the offsets of one empty
    sample and one pattern whose row 9 has C00 (pattern break, the song's end)."""
    orders = bytes([0, 255])
    sample_at = 192 + len(orders) + 4 + 4
    pattern_at = sample_at + 80
    header = (b"IMPM" + text("", 26) + bytes([4, 16])
              + struct.pack("<HHHHHHHH", len(orders), 0, 1, 1, 0x0214, 0x0214, 0x0009, 0)
              + bytes([128, 48, SPEED, TEMPO, 128, 0]) + le16(0) + le32(0) + le32(0)
              + bytes([32] * 4 + [32 | 128] * 60) + bytes([64] * 64))
    assert len(header) == 192
    sample = (b"IMPS" + text("", 13) + bytes([64, 0, 64]) + text("", 26) + bytes([1, 32])
              + le32(0) * 3 + le32(8363) + le32(0) * 3 + bytes(4))
    assert len(sample) == 80
    rows = bytes(ROWS - 1) + bytes([0x80 | 1, 0x08, 3, 0x00, 0]) + bytes(64 - ROWS)
    pattern = le16(len(rows)) + le16(64) + bytes(4) + rows
    write("silence.it", header + orders + le32(sample_at) + le32(pattern_at) + sample + pattern)


def xm():
    """FastTracker 2: the fixed header, the 20-byte header of its second part (TagLib takes the
    channel count there), the 256-entry order table, one pattern of 10 empty rows (0x80: a packed
    note with nothing in it), and one instrument with no samples, of the 33 bytes FastTracker 2
    writes for one (its name is where TagLib keeps the comment)."""
    channels = 4
    header = (b"Extended Module: " + text("", 20) + b"\x1a" + text("FastTracker v2.00   ", 20)
              + le16(0x0104) + le32(20 + 256)
              + struct.pack("<HHHHHHHH", 1, 0, channels, 1, 1, 1, SPEED, TEMPO) + bytes(256))
    rows = bytes([0x80] * (ROWS * channels))
    pattern = le32(9) + bytes([0]) + le16(ROWS) + le16(len(rows)) + rows
    instrument = le32(33) + text("", 22) + bytes([0]) + le16(0) + le32(40)
    write("silence.xm", header + pattern + instrument)


if __name__ == "__main__":
    ape()
    mpc()
    ogg_flac()
    mod()
    s3m()
    it()
    xm()
    for name in ("ape", "mpc", "oga", "mod", "s3m", "it", "xm"):
        print(f"{os.path.getsize(os.path.join(OUT, 'silence.' + name)):6} silence.{name}")
