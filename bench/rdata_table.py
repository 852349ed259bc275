#!/usr/bin/env python3
"""Prints a data frame of numbers from an R package's lazy-load data base
(data/Rdata.rdx and data/Rdata.rdb, where Debian's r-cran-* packages keep data
sets that `data(NAME)` loads) as CSV: a header of the columns' names, one row a
line, integers as they are, NA as an empty field. Without R: the index and each
object are R serialisations that bench/rda_column.py's Reader reads.
Usage: rdata_table.py PACKAGE_DIR/data/Rdata NAME > NAME.csv"""
import bz2, gzip, lzma, struct, sys, zlib

from rda_column import Reader

NA_INTEGER = -2147483648


def unserialize(raw):
    if raw[:2] != b"X\n":
        raise ValueError("not an XDR serialisation")
    reader = Reader(raw[2:])
    version = reader.int()
    reader.int(), reader.int()
    if version == 3:
        length = reader.int()  # the native encoding's name
        reader.at += length
    return reader.item()


def named(value, name):
    names = value["attributes"]["names"]["value"]
    if name not in names:
        raise KeyError("no object \"%s\" (have %s)" % (name, ", ".join(names)))
    return value["value"][names.index(name)]


def load(base, name):
    index = unserialize(gzip.decompress(open(base + ".rdx", "rb").read()))
    offset, length = named(named(index, "variables"), name)["value"]
    with open(base + ".rdb", "rb") as rdb:
        rdb.seek(offset)
        raw = rdb.read(length)
    # 4 bytes of uncompressed length, then a type byte (R's lazyLoadDBinsertValue) or a bare zlib stream.
    kind, body = raw[4:5], raw[5:]
    inflate = {b"Z": zlib.decompress, b"2": bz2.decompress, b"X": lzma.decompress, b"0": lambda data: data}
    return inflate[kind](body) if kind in inflate else zlib.decompress(raw[4:])


def cell(value):
    if value is None or value == NA_INTEGER or value != value:  # NA integer, NA/NaN double
        return ""
    return "%d" % value if float(value).is_integer() else repr(value)


def main():
    base, name = sys.argv[1], sys.argv[2]
    frame = unserialize(load(base, name))
    names = frame["attributes"]["names"]["value"]
    columns = [column["value"] for column in frame["value"]]
    out = [",".join(names)]
    for row in zip(*columns):
        out.append(",".join(cell(value) for value in row))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
