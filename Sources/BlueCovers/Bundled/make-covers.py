#!/usr/bin/env python3
"""Draws the five bundled covers of the default catalogue as 300x300 PNGs.

The artwork is the project's own: gradients and simple shapes, one motif per
album, written with the standard library only (zlib + struct). Run it from
anywhere; it writes next to itself into covers/. The output is deterministic,
so re-running it changes no bytes.
"""

import math
import base64
import os
import struct
import zlib

SIZE = 300
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "covers")


def mix(a, b, t):
    """Linear blend of two RGB tuples, t in 0...1."""
    t = max(0.0, min(1.0, t))
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


def quantize(colour, step=4):
    """Rounds a gradient colour to bands so the PNG filters compress it well."""
    return tuple(min(255, (c // step) * step) for c in colour)


def inside_polygon(x, y, points):
    """Even-odd rule point-in-polygon test."""
    result = False
    j = len(points) - 1
    for i, (xi, yi) in enumerate(points):
        xj, yj = points[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            result = not result
        j = i
    return result


# MARK: - The five covers (each returns the colour of pixel x, y)


def best_of_bowie(x, y):
    """A lightning bolt across a red-to-blue diagonal."""
    background = quantize(mix((200, 30, 40), (30, 60, 170), (x + y) / (2 * SIZE)))
    bolt = [(170, 20), (95, 150), (150, 150), (110, 280), (215, 125), (160, 125), (215, 20)]
    if inside_polygon(x, y, bolt):
        return (250, 215, 40)
    outline = [(px + 8, py + 6) for px, py in bolt]
    if inside_polygon(x, y, outline):
        return (20, 20, 30)
    return background


def its_my_life(x, y):
    """Concentric rings, orange to magenta."""
    d = math.hypot(x - SIZE / 2, y - SIZE / 2)
    ring = int(d // 18)
    if ring % 2 == 0:
        return quantize(mix((255, 150, 20), (210, 30, 120), d / 212))
    return (30, 20, 40)


def nothing_like_the_sun(x, y):
    """A pale sun with sixteen rays on a night-blue gradient."""
    cx, cy = SIZE / 2, SIZE / 2
    d = math.hypot(x - cx, y - cy)
    if d < 60:
        return (250, 240, 200)
    angle = math.atan2(y - cy, x - cx)
    if d < 130 and math.cos(angle * 16) > 0.75:
        return (230, 200, 110)
    return quantize(mix((15, 25, 70), (90, 40, 120), y / SIZE))


def staring_at_the_sun(x, y):
    """A big sun setting on a horizon, with stripes on the sea."""
    horizon = 190
    if y >= horizon:
        band = (y - horizon) // 9
        if band % 2 == 1 and abs(x - SIZE / 2) < 110 - (y - horizon):
            return (250, 190, 60)
        return quantize(mix((20, 70, 110), (5, 25, 50), (y - horizon) / (SIZE - horizon)))
    if math.hypot(x - SIZE / 2, y - horizon) < 95:
        return quantize(mix((255, 230, 80), (250, 110, 30), (horizon - y) / -95 + 1))
    return quantize(mix((250, 150, 90), (120, 60, 140), (horizon - y) / horizon))


def american_pie(x, y):
    """Red and cream stripes with a blue corner of dots, and a pie slice."""
    if x < 130 and y < 130:
        if (x % 26 - 13) ** 2 + (y % 26 - 13) ** 2 < 25:
            return (245, 240, 225)
        return (30, 50, 120)
    d = math.hypot(x - 210, y - 210)
    if d < 70:
        angle = math.degrees(math.atan2(y - 210, x - 210)) % 360
        if not 300 <= angle < 345:
            return (215, 150, 70) if d > 58 or (x - y) % 24 < 5 else (120, 20, 45)
    return (190, 30, 45) if (y // 25) % 2 == 0 else (245, 240, 225)


COVERS = {
    "best-of-bowie": best_of_bowie,
    "its-my-life": its_my_life,
    "nothing-like-the-sun": nothing_like_the_sun,
    "staring-at-the-sun": staring_at_the_sun,
    "american-pie": american_pie,
}


# MARK: - PNG encoding


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filtered(row, previous):
    """The row with the PNG filter (none, sub, up, avg, paeth) that minimises the sum of deltas."""
    bpp = 3
    candidates = []
    for kind in range(5):
        out = bytearray([kind])
        for i, value in enumerate(row):
            left = row[i - bpp] if i >= bpp else 0
            up = previous[i]
            up_left = previous[i - bpp] if i >= bpp else 0
            predictor = (0, left, up, (left + up) // 2, paeth(left, up, up_left))[kind]
            out.append((value - predictor) & 0xFF)
        cost = sum(v if v < 128 else 256 - v for v in out[1:])
        candidates.append((cost, kind, out))
    return min(candidates)[2]


def encode_png(pixel):
    raw = bytearray()
    previous = bytes(SIZE * 3)
    for y in range(SIZE):
        row = bytearray()
        for x in range(SIZE):
            row.extend(pixel(x, y))
        raw.extend(filtered(row, previous))
        previous = row
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + chunk(b"IEND", b"")
    )


def main():
    os.makedirs(OUT, exist_ok=True)
    embedded = []
    for name, pixel in COVERS.items():
        data = encode_png(pixel)
        path = os.path.join(OUT, name + ".png")
        with open(path, "wb") as file:
            file.write(data)
        print(f"{path}: {len(data)} bytes")
        embedded.append((name + ".png", base64.b64encode(data).decode("ascii")))
    # The PNGs are compiled into the program (not loaded from a resource bundle), so a
    # bluelib binary copied anywhere still has its covers.
    swift = os.path.join(os.path.dirname(OUT), "BundledCoverImages.swift")
    with open(swift, "w") as file:
        file.write("// Generated by make-covers.py; do not edit.\n\n")
        file.write("/// The default catalogue's covers, PNG bytes as base64, by file name.\n")
        file.write("enum BundledCoverImages {\n  static let base64: [String: String] = [\n")
        for name, text in embedded:
            file.write(f'    "{name}":\n')
            for start in range(0, len(text), 96):
                piece = text[start:start + 96]
                joiner = " +" if start + 96 < len(text) else ","
                file.write(f'      "{piece}"{joiner}\n')
        file.write("  ]\n}\n")
    print(f"{swift}: {len(embedded)} covers")


if __name__ == "__main__":
    main()
