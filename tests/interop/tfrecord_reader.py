"""An independent TFRecord reader: checks framing, masked CRC32C of length and data,
and that every record is a tf.train.Example with features image (bytes) and size
(int64), a side x side image as DLIO's generator writes it, and size DLIO's dimension
(floor(sqrt(record_length)), the same in every record). Pure Python: shares no code with
trainbench. Usage: tfrecord_reader.py FILE... ; prints one line per file: path records
image_bytes size."""
import math
import struct
import sys

# CRC32C (Castagnoli), reflected polynomial 0x82F63B78, table-driven.
_TABLE = []
for n in range(256):
    c = n
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    _TABLE.append(c)


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def fields(buf):
    """Yields (field_number, wire_type, value) of a protobuf message."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 2:
            n, pos = varint(buf, pos)
            yield number, wire, buf[pos:pos + n]
            pos += n
        elif wire == 0:
            v, pos = varint(buf, pos)
            yield number, wire, v
        else:
            raise ValueError("unexpected wire type %d" % wire)


def parse_example(buf):
    features = {}
    (number, _, feats), = list(fields(buf))
    assert number == 1, "Example.features must be field 1"
    for number, _, entry in fields(feats):
        assert number == 1
        parts = {n: v for n, _, v in fields(entry)}
        key = parts[1].decode()
        (kind, _, lst), = list(fields(parts[2]))
        if kind == 1:  # bytes_list
            features[key] = [v for _, _, v in fields(lst)]
        elif kind == 3:  # int64_list (packed)
            values = []
            for _, wire, v in fields(lst):
                if wire == 2:
                    p = 0
                    while p < len(v):
                        x, p = varint(v, p)
                        values.append(x)
                else:
                    values.append(v)
            features[key] = values
        else:
            raise ValueError("unexpected feature kind %d" % kind)
    return features


def read(path):
    data = open(path, "rb").read()
    pos = records = image_bytes = 0
    sizes = set()
    while pos < len(data):
        header = data[pos:pos + 12]
        assert len(header) == 12, "%s: truncated header at %d" % (path, pos)
        length, = struct.unpack("<Q", header[:8])
        assert struct.unpack("<I", header[8:])[0] == masked(crc32c(header[:8])), "%s: length CRC at %d" % (path, pos)
        record = data[pos + 12:pos + 12 + length]
        assert len(record) == length, "%s: truncated record at %d" % (path, pos)
        footer = data[pos + 12 + length:pos + 16 + length]
        assert struct.unpack("<I", footer)[0] == masked(crc32c(record)), "%s: data CRC at %d" % (path, pos)
        features = parse_example(record)
        assert set(features) == {"image", "size"}, features.keys()
        assert len(features["image"]) == 1 and len(features["size"]) == 1, features
        sizes.add(features["size"][0])
        side = math.isqrt(len(features["image"][0]))
        assert side * side == len(features["image"][0]), "%s: image of %d bytes at %d is not side x side" % (
            path, len(features["image"][0]), pos)
        image_bytes += len(features["image"][0])
        records += 1
        pos += 16 + length
    assert len(sizes) <= 1, "%s: size features %s, DLIO writes one dimension" % (path, sorted(sizes))
    return records, image_bytes, sizes.pop() if sizes else 0


if __name__ == "__main__":
    for p in sys.argv[1:]:
        r, b, s = read(p)
        print(p, r, b, s)
