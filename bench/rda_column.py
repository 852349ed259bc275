#!/usr/bin/env python3
"""Prints one numeric column of a data frame saved in an R .rda file (XDR
serialisation, versions 2 and 3), one value a line, without R: enough of the
format for data frames of numbers and factors (Debian's r-cran-* packages ship
their data sets this way). Usage: rda_column.py FILE.rda COLUMN"""
import lzma, bz2, gzip, struct, sys


class Reader:
    def __init__(self, data):
        self.data, self.at, self.refs = data, 0, []

    def int(self):
        value = struct.unpack_from(">i", self.data, self.at)[0]
        self.at += 4
        return value

    def length(self):
        n = self.int()
        if n == -1:
            n = (self.int() << 32) + self.int()
        return n

    def item(self):
        flags = self.int()
        kind, has_attr, has_tag = flags & 0xFF, flags & (1 << 9), flags & (1 << 10)
        if kind in (254, 253, 242, 241, 251, 247):  # NULL, global/empty/base env, missing arg, base namespace
            return None
        if kind == 255:  # a reference to an earlier symbol
            index = flags >> 8 or self.int()
            return self.refs[index - 1]
        if kind == 1:  # symbol
            name = self.item()
            self.refs.append(name)
            return name
        if kind == 9:  # CHARSXP
            n = self.int()
            if n == -1:
                return None
            text = self.data[self.at:self.at + n].decode("utf-8", "replace")
            self.at += n
            return text
        if kind == 2:  # pairlist: attributes, tag, car, cdr
            out = []
            while True:
                if has_attr:
                    self.item()
                tag = self.item() if has_tag else None
                out.append((tag, self.item()))
                flags = self.int()
                kind, has_attr, has_tag = flags & 0xFF, flags & (1 << 9), flags & (1 << 10)
                if kind == 254:
                    return dict(out) if all(t is not None for t, _ in out) else out
                if kind != 2:
                    raise ValueError("unsupported pairlist tail %d" % kind)
        if kind in (10, 13):  # logical, integer
            n = self.length()
            value = list(struct.unpack_from(">%di" % n, self.data, self.at))
            self.at += 4 * n
        elif kind == 14:  # double
            n = self.length()
            value = list(struct.unpack_from(">%dd" % n, self.data, self.at))
            self.at += 8 * n
        elif kind in (16, 19):  # character, list
            value = [self.item() for _ in range(self.length())]
        else:
            raise ValueError("unsupported SEXP type %d" % kind)
        attributes = self.item() if has_attr else {}
        return {"value": value, "attributes": attributes}


def load(path):
    raw = open(path, "rb").read()
    for opener in (lzma.decompress, bz2.decompress, gzip.decompress):
        try:
            raw = opener(raw)
            break
        except Exception:
            pass
    if raw[:5] not in (b"RDX2\n", b"RDX3\n") or raw[5:7] != b"X\n":
        raise ValueError("not an XDR .rda file")
    reader = Reader(raw[7:])
    version = reader.int()
    reader.int(), reader.int()
    if version == 3:
        length = reader.int()  # the native encoding's name (read first: `at += int()` would add to the old offset)
        reader.at += length
    return reader.item()


def main():
    path, column = sys.argv[1], sys.argv[2]
    objects = load(path)
    frame = next(iter(objects.values())) if isinstance(objects, dict) else objects[0][1]
    names = frame["attributes"]["names"]["value"]
    values = frame["value"][names.index(column)]["value"]
    sys.stdout.write("".join("%r\n" % v for v in values if v is not None))


if __name__ == "__main__":
    main()
