#!/usr/bin/env python3
"""Reads a Parquet file as the format specification defines it (apache/parquet-format: README.md, Encodings.md and
parquet.thrift) and prints its rows as JSON lines: a check of kgen's writer (src/data/parquet.cpp) that shares no
code with it. Handles what a reader of verl's RL files meets: one or more row groups, data page v1, PLAIN values,
RLE/bit-packed levels, no compression; required leaves, structs and three-level LISTs of them.

    parquet_read.py FILE            rows as JSON lines
    parquet_read.py FILE --schema   the schema tree
If pyarrow is importable it reads the file too and the two must agree (exit 1 otherwise).
"""
import json
import struct
import sys


class Compact:
    """Thrift compact protocol, the decoding side."""

    def __init__(self, buf, pos=0):
        self.b, self.p = buf, pos

    def byte(self):
        v = self.b[self.p]
        self.p += 1
        return v

    def varint(self):
        shift = v = 0
        while True:
            c = self.byte()
            v |= (c & 0x7F) << shift
            shift += 7
            if not c & 0x80:
                return v

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def value(self, t):
        if t in (1, 2):
            return t == 1
        if t == 3:
            return self.byte()
        if t in (4, 5, 6):
            return self.zigzag()
        if t == 7:
            v = struct.unpack_from("<d", self.b, self.p)[0]
            self.p += 8
            return v
        if t == 8:
            n = self.varint()
            v = bytes(self.b[self.p:self.p + n])
            self.p += n
            return v
        if t in (9, 10):
            h = self.byte()
            n, et = h >> 4, h & 15
            if n == 15:
                n = self.varint()
            return [self.value(et) for _ in range(n)]
        if t == 12:
            return self.struct()
        raise ValueError("compact type %d not handled" % t)

    def struct(self):
        out, last = {}, 0
        while True:
            h = self.byte()
            if h == 0:
                return out
            t, d = h & 15, h >> 4
            fid = last + d if d else self.zigzag()
            out[fid] = self.value(t)
            last = fid


def hybrid(buf, pos, bit_width, count):
    """RLE/bit-packed hybrid run data -> `count` values."""
    out = []
    vbytes = (bit_width + 7) // 8
    while len(out) < count:
        c = Compact(buf, pos)
        h = c.varint()
        pos = c.p
        if h & 1:   # bit-packed groups of 8
            groups = h >> 1
            nbytes = groups * bit_width
            bits = int.from_bytes(buf[pos:pos + nbytes], "little")
            for i in range(groups * 8):
                out.append((bits >> (i * bit_width)) & ((1 << bit_width) - 1))
            pos += nbytes
        else:
            v = int.from_bytes(buf[pos:pos + vbytes], "little")
            pos += vbytes
            out.extend([v] * (h >> 1))
    return out[:count], pos


def read(path):
    buf = open(path, "rb").read()
    assert buf[:4] == b"PAR1" and buf[-4:] == b"PAR1", "not a Parquet file (magic)"
    n = struct.unpack_from("<I", buf, len(buf) - 8)[0]
    meta = Compact(buf, len(buf) - 8 - n).struct()
    schema = meta[2]
    # schema tree from the flat list (depth-first, num_children)
    it = iter(schema)

    def node():
        e = next(it)
        kids = [node() for _ in range(e.get(5, 0))]
        return {"name": e[4].decode(), "type": e.get(1), "rep": e.get(3, 0), "conv": e.get(6), "kids": kids}

    root = node()
    # leaves with their max levels
    leaves = []

    def walk(nd, path, mr, md):
        if nd["rep"] == 2:
            mr, md = mr + 1, md + 1
        elif nd["rep"] == 1:
            md += 1
        if not nd["kids"]:
            leaves.append((tuple(path + [nd["name"]]), nd["type"], mr, md))
        for k in nd["kids"]:
            walk(k, path + [nd["name"]], mr, md)

    for k in root["kids"]:
        walk(k, [], 0, 0)
    cols = {p: [] for p, _, _, _ in leaves}
    for rg in meta[4]:
        for cc, (p, typ, mr, md) in zip(rg[1], leaves):
            cm = cc[3]
            assert tuple(x.decode() for x in cm[3]) == p, "column order"
            assert cm[4] == 0, "compressed pages are not read here"
            pos, left = cm[9], cm[5]
            while left > 0:
                c = Compact(buf, pos)
                ph = c.struct()
                pos = c.p
                assert ph[1] == 0, "only data page v1"
                dh = ph[5]
                nv = dh[1]
                body_end = pos + ph[3]
                rep = defs = [0] * nv
                if mr:
                    ln = struct.unpack_from("<I", buf, pos)[0]
                    rep, _ = hybrid(buf, pos + 4, mr.bit_length(), nv)
                    pos += 4 + ln
                if md:
                    ln = struct.unpack_from("<I", buf, pos)[0]
                    defs, _ = hybrid(buf, pos + 4, md.bit_length(), nv)
                    pos += 4 + ln
                for r, d in zip(rep, defs):
                    v = None
                    if d == md:
                        if typ == 6:
                            ln = struct.unpack_from("<I", buf, pos)[0]
                            v = buf[pos + 4:pos + 4 + ln].decode("utf-8")
                            pos += 4 + ln
                        elif typ == 2:
                            v = struct.unpack_from("<q", buf, pos)[0]
                            pos += 8
                        elif typ == 1:
                            v = struct.unpack_from("<i", buf, pos)[0]
                            pos += 4
                        else:
                            raise ValueError("type %s not read here" % typ)
                    cols[p].append((r, d, v))
                assert pos == body_end, "page body length"
                left -= nv
    # assemble rows: a field is a leaf, a struct of fields, or a LIST of elements (one list level)
    cursor = {p: 0 for p in cols}
    rows = []

    def leaf_paths(nd, path):
        if not nd["kids"]:
            return [tuple(path + [nd["name"]])]
        return [q for k in nd["kids"] for q in leaf_paths(k, path + [nd["name"]])]

    def value(nd, path):
        if nd["conv"] == 3:   # LIST: group (LIST) { repeated group list { element } }
            elem = nd["kids"][0]["kids"][0]
            lp = leaf_paths(nd, path)
            first = lp[0]
            out = []
            r, d, _ = cols[first][cursor[first]]
            if d == 0:   # empty list
                for q in lp:
                    cursor[q] += 1
                return out
            while True:
                out.append(value(elem, path + [nd["name"], "list"]))
                k = cursor[first]
                if k >= len(cols[first]) or cols[first][k][0] == 0:
                    return out
        if nd["kids"]:
            return {k["name"]: value(k, path + [nd["name"]]) for k in nd["kids"]}
        p = tuple(path + [nd["name"]])
        _, _, v = cols[p][cursor[p]]
        cursor[p] += 1
        return v

    for _ in range(meta[3]):
        rows.append({k["name"]: value(k, []) for k in root["kids"]})
    return root, rows


def main():
    root, rows = read(sys.argv[1])
    if "--schema" in sys.argv:
        print(json.dumps(root, indent=1))
        return 0
    try:
        import pyarrow.parquet as pq
    except ImportError:
        pq = None
    if pq is not None and pq.read_table(sys.argv[1]).to_pylist() != rows:
        print("pyarrow reads the file differently", file=sys.stderr)
        return 1
    for r in rows:
        print(json.dumps(r, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
