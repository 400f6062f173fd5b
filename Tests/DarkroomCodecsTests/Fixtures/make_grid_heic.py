#!/usr/bin/env python3
"""Writes grid.heic: a HEIC whose primary image is a 3x2 grid of 64x64 HEVC tiles (192x128), laid
out as phones store photos (an iPhone HEIC is a grid of 512x512 tiles). libheif 1.15's tools
cannot write a grid, so each tile is encoded by heif-enc on its own and this script moves their
hvcC configurations and coded data into one file: ftyp, meta (hdlr, pitm, iinf with the hidden
hvc1 tiles and the grid item, iref dimg, iprp with hvcC/ispe and ipma, idat with the grid's
description, iloc), then mdat. Standard library only; needs vips (libvips-tools) and heif-enc
(libheif-examples). The tile pictures are crops of noise.jpg enlarged 3x by vips, so each tile
differs from its neighbours. It also writes grid_clap.heic: the same grid shown through a 'clap'
(clean aperture) box as its centred 8x8 crop, the coded 192x128 image hidden behind a small one.
With grid.heic already there, its tiles are taken from it rather than encoded again."""
import os
import struct
import subprocess
import tempfile

COLUMNS, ROWS, SIDE = 3, 2, 64


def boxes(data, start=0, end=None):
    """(type, payload start, payload end) of each box in data[start:end]."""
    end = len(data) if end is None else end
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield kind.decode("latin-1"), at + header, at + size
        at += size


def find(data, path, start=0, end=None):
    """Payload bounds of the first box along `path` (full boxes' 4 header bytes kept)."""
    kind, *rest = path
    for k, s, e in boxes(data, start, end):
        if k == kind:
            if not rest:
                return s, e
            skip = 4 if k == "meta" else 0  # meta is a full box
            return find(data, rest, s + skip, e)
    raise ValueError(f"no {kind} box")


def tile_parts(heic):
    """The hvcC box (whole) and the coded data of a heif-enc file's only image."""
    data = open(heic, "rb").read()
    s, e = find(data, ["meta", "iprp", "ipco"])
    hvcc = next(data[ps - 8:pe] for k, ps, pe in boxes(data, s, e) if k == "hvcC")
    s, e = find(data, ["meta", "iloc"])
    version = data[s]
    sizes = data[s + 4]
    offset_size, length_size = sizes >> 4, sizes & 15
    base_size = data[s + 5] >> 4
    at = s + 6
    count = struct.unpack(">H", data[at:at + 2])[0]
    at += 2
    assert count == 1, "one item"
    at += 2  # item id
    if version >= 1:
        at += 2  # construction method
    at += 2  # data reference index

    def number(size):
        nonlocal at
        value = int.from_bytes(data[at:at + size], "big") if size else 0
        at += size
        return value

    base = number(base_size)
    extents = struct.unpack(">H", data[at:at + 2])[0]
    at += 2
    coded = b""
    for _ in range(extents):
        offset = number(offset_size)
        length = number(length_size)
        coded += data[base + offset:base + offset + length]
    return hvcc, coded


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode()) + payload


def full(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def grid_file(tiles, clap=None):
    """The grid file; `clap` (width, height) adds a centred clean aperture to the grid item."""
    n = len(tiles)
    grid_id = n + 1
    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    hdlr = full("hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + b"\0" * 12 + b"\0")
    pitm = full("pitm", 0, 0, struct.pack(">H", grid_id))
    infe = b"".join(full("infe", 2, 1, struct.pack(">HH", i + 1, 0) + b"hvc1" + b"\0") for i in range(n))
    infe += full("infe", 2, 0, struct.pack(">HH", grid_id, 0) + b"grid" + b"\0")
    iinf = full("iinf", 0, 0, struct.pack(">H", n + 1) + infe)
    iref = full("iref", 0, 0, box("dimg", struct.pack(">HH", grid_id, n) + b"".join(struct.pack(">H", i + 1) for i in range(n))))
    ispe_tile = full("ispe", 0, 0, struct.pack(">II", SIDE, SIDE))
    ispe_grid = full("ispe", 0, 0, struct.pack(">II", SIDE * COLUMNS, SIDE * ROWS))
    aperture = box("clap", struct.pack(">8I", clap[0], 1, clap[1], 1, 0, 1, 0, 1)) if clap else b""
    ipco = box("ipco", b"".join(h for h, _ in tiles) + ispe_tile + ispe_grid + aperture)  # property i+1: tile i's hvcC
    entries = b"".join(struct.pack(">HBBB", i + 1, 2, 0x80 | (i + 1), n + 1) for i in range(n))
    entries += struct.pack(">HBBB", grid_id, 2, n + 2, 0x80 | (n + 3)) if clap else struct.pack(">HBB", grid_id, 1, n + 2)
    ipma = full("ipma", 0, 0, struct.pack(">I", n + 1) + entries)
    iprp = box("iprp", ipco + ipma)
    grid_description = struct.pack(">BBBBHH", 0, 0, ROWS - 1, COLUMNS - 1, SIDE * COLUMNS, SIDE * ROWS)
    idat = box("idat", grid_description)

    def iloc(mdat_start):
        items = b""
        at = mdat_start
        for i, (_, coded) in enumerate(tiles):
            items += struct.pack(">HHHHII", i + 1, 0, 0, 1, at, len(coded))
            at += len(coded)
        items += struct.pack(">HHHHII", grid_id, 1, 0, 1, 0, len(grid_description))  # construction method 1: idat
        return full("iloc", 1, 0, bytes([0x44, 0x00]) + struct.pack(">H", n + 1) + items)

    def meta(mdat_start):
        return full("meta", 0, 0, hdlr + pitm + iinf + iref + iprp + idat + iloc(mdat_start))

    mdat_start = len(ftyp) + len(meta(0)) + 8
    return ftyp + meta(mdat_start) + box("mdat", b"".join(c for _, c in tiles))


def grid_tiles(data):
    """The tiles of a file grid_file wrote: each hidden item's hvcC box and coded data."""
    s, e = find(data, ["meta", "iprp", "ipco"])
    configurations = [data[ps - 8:pe] for k, ps, pe in boxes(data, s, e) if k == "hvcC"]
    s, e = find(data, ["meta", "iloc"])
    tiles = []
    for i in range(len(configurations)):  # version 1, 4-byte offsets and lengths, one extent each
        _, method, _, _, offset, length = struct.unpack(">HHHHII", data[s + 8 + 16 * i:s + 24 + 16 * i])
        assert method == 0
        tiles.append((configurations[i], data[offset:offset + length]))
    return tiles


def encoded_tiles(here):
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.v")
        subprocess.run(["vips", "resize", os.path.join(here, "noise.jpg"), big, "3"], check=True)
        tiles = []
        for row in range(ROWS):
            for column in range(COLUMNS):
                png = os.path.join(tmp, f"t{row}{column}.png")
                subprocess.run(["vips", "crop", big, png, str(column * SIDE), str(row * SIDE), str(SIDE), str(SIDE)], check=True)
                heic = png[:-4] + ".heic"
                subprocess.run(["heif-enc", "-q", "60", png, "-o", heic], check=True, stdout=subprocess.DEVNULL)
                tiles.append(tile_parts(heic))
    return tiles


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    grid = os.path.join(here, "grid.heic")
    if os.path.exists(grid):
        tiles = grid_tiles(open(grid, "rb").read())
    else:
        tiles = encoded_tiles(here)
        with open(grid, "wb") as out:
            out.write(grid_file(tiles))
    with open(os.path.join(here, "grid_clap.heic"), "wb") as out:
        out.write(grid_file(tiles, clap=(8, 8)))


if __name__ == "__main__":
    main()
