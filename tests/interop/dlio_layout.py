"""DLIO's side of the interop tests, in plain numpy/h5py/PIL (DLIO itself needs MPI,
Hydra and TensorFlow or PyTorch). Written from DLIO's generators and readers
(argonne-lcf/dlio_benchmark, commit e1919d7: data_generator/*.py, reader/*.py, main.py),
sharing no code with trainbench.

  dlio_layout.py write FOLDER FORMAT FILES SAMPLES RECORD_BYTES [SUBFOLDERS]
      writes FILES train files as DLIO's generator for FORMAT would: folders train/ and
      valid/, names "img_<i>_of_<FILES>.<FORMAT>" (in train/<i % SUBFOLDERS>/, zero-padded,
      when SUBFOLDERS > 1), DLIO's shapes with side floor(sqrt(RECORD_BYTES)). Prints the
      bytes trainbench's run should request per epoch for this layout.
  dlio_layout.py read FOLDER FORMAT FILES SAMPLES RECORD_BYTES [SUBFOLDERS]
      reads FOLDER as DLIO's run would: lists train/ and valid/ (both must exist), keeps
      the names ending with FORMAT (in SUBFOLDERS subfolders when there are any), and reads
      SAMPLES samples of each of the first FILES files with DLIO's reader for FORMAT;
      checks each sample is DLIO's size.
"""
import csv
import math
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tfrecord_reader import crc32c, masked, parse_example  # noqa: E402


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def file_names(files, fmt):
    digits = len(str(files))
    return [f"img_{i:0{digits}d}_of_{files}.{fmt}" for i in range(files)]


# --- protobuf, for tf.train.Example --------------------------------------------------
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def example(image, size):
    bytes_feature = field(1, field(1, image))  # Feature.bytes_list.value
    int_feature = field(3, field(1, varint(size)))  # Feature.int64_list.value (packed)
    entries = field(1, field(1, b"image") + field(2, bytes_feature))
    entries += field(1, field(1, b"size") + field(2, int_feature))
    return field(1, entries)  # Example.features


def tf_record(data):
    length = struct.pack("<Q", len(data))
    return length + struct.pack("<I", masked(crc32c(length))) + data + \
        struct.pack("<I", masked(crc32c(data)))


# --- writing as DLIO's generators do -------------------------------------------------
def write(folder, fmt, files, samples, record_bytes, subfolders):
    side = int(math.sqrt(record_bytes))  # DLIO's "dimension"
    rng = np.random.default_rng(10)
    os.makedirs(os.path.join(folder, "train"), exist_ok=True)
    os.makedirs(os.path.join(folder, "valid"), exist_ok=True)
    expected = 0
    for i, name in enumerate(file_names(files, fmt)):
        where = os.path.join(folder, "train")
        if subfolders > 1:
            where = os.path.join(where, str(i % subfolders).rjust(len(str(subfolders)), "0"))
            os.makedirs(where, exist_ok=True)
        path = os.path.join(where, name)
        if fmt in ("npz", "npy"):
            x = rng.integers(0, 255, (side, side, samples), dtype=np.uint8)
            if fmt == "npz":
                np.savez(path, x=x, y=[0] * samples)
            else:
                np.save(path, x)
            expected += samples * side * side
        elif fmt == "hdf5":
            import h5py
            with h5py.File(path, "w", libver="latest") as h:
                h.create_dataset("records_0", data=rng.integers(
                    0, 255, (samples, side, side), dtype=np.uint8))
                h.create_dataset("labels", data=[0] * samples)
            expected += samples * side * side
        elif fmt in ("jpeg", "png"):
            from PIL import Image
            Image.fromarray(rng.integers(0, 255, (side, side), dtype=np.uint8)).save(
                path, format=fmt.upper())
            expected += samples * os.path.getsize(path)  # every sample reads the image
        elif fmt == "tfrecord":
            index = []
            with open(path, "wb") as f:
                for _ in range(samples):
                    image = rng.integers(0, 255, side * side, dtype=np.uint8).tobytes()
                    record = tf_record(example(image, side))  # size: the dimension
                    index.append(f"{f.tell()} {len(record)}\n")
                    f.write(record)
            os.makedirs(os.path.join(folder, "index", "train"), exist_ok=True)
            with open(os.path.join(folder, "index", "train", name + ".idx"), "w") as f:
                f.write("".join(index))  # DLIO's index for DALI
            expected += os.path.getsize(path)
        elif fmt == "csv":
            # pandas' to_csv(index=False, header=False) of one record repeated per sample.
            row = ",".join(str(v) for v in rng.integers(0, 255, side * side)) + "\n"
            with open(path, "w") as f:
                f.write(row * samples)
            expected += os.path.getsize(path)
        elif fmt in ("indexed_binary", "mmap_indexed_binary"):
            size = side * side
            with open(path, "wb") as f:
                f.write(rng.integers(0, 255, size * samples, dtype=np.uint8).tobytes())
            np.arange(0, size * samples, size, dtype=np.uint64).tofile(path + ".off.idx")
            np.full(samples, size, dtype=np.uint64).tofile(path + ".sz.idx")
            expected += size * samples
        else:
            fail(f"unknown format {fmt}")
    print(expected)


# --- reading as DLIO's run and readers do --------------------------------------------
def list_split(folder, fmt, split, subfolders):
    where = os.path.join(folder, split)
    if not os.path.isdir(where):
        fail(f"{where} is missing: DLIO's run lists it (FileNotFoundError)")
    entries = sorted(os.listdir(where))
    if entries and os.path.isdir(os.path.join(where, entries[0])):
        # Subfolders: DLIO asserts there are num_subfolders of them and takes the files
        # matching <split>/*/*.<format>, ordered by name.
        if len(entries) != subfolders:
            fail(f"{where} has {len(entries)} subfolders, DLIO asserts {subfolders}")
        paths = [os.path.join(where, d, e) for d in entries
                 for e in os.listdir(os.path.join(where, d)) if e.endswith("." + fmt)]
        return sorted(paths, key=os.path.basename)
    if subfolders > 1 and split == "train":
        fail(f"{where} has no subfolders, DLIO asserts {subfolders}")
    return sorted(os.path.join(where, e) for e in entries if e.endswith(fmt))


def read_samples(path, fmt, samples):
    """Sample i of `path` as DLIO's reader for `fmt` returns it."""
    if fmt == "npz":
        x = np.load(path, allow_pickle=True)["x"]
        return [x[..., i] for i in range(samples)]
    if fmt == "npy":
        x = np.load(path)
        return [x[..., i] for i in range(samples)]
    if fmt == "hdf5":
        import h5py
        with h5py.File(path, "r") as h:
            return [h["records_0"][i] for i in range(samples)]
    if fmt in ("jpeg", "png"):
        from PIL import Image
        return [np.asarray(Image.open(path)) for _ in range(samples)]
    if fmt == "tfrecord":
        # DALI's reader (DLIO's dali loader) reads the records through DLIO's index:
        # <data_folder>/index/train/<name>.idx, "offset length" per record.
        root = path[:path.rindex(os.sep + "train" + os.sep)]
        index = os.path.join(root, "index", "train", os.path.basename(path) + ".idx")
        if not os.path.exists(index):
            fail(f"{index} is missing: DLIO's DALI reader needs it")
        extents = [tuple(int(v) for v in line.split()) for line in open(index)]
        data = open(path, "rb").read()
        out, pos = [], 0
        while pos < len(data):
            (length,) = struct.unpack_from("<Q", data, pos)
            if (pos, length + 16) != extents[len(out)]:
                fail(f"{index}: line {len(out) + 1} is {extents[len(out)]}, the record "
                     f"({pos}, {length + 16})")
            features = parse_example(data[pos + 12:pos + 12 + length])
            out.append(np.frombuffer(features["image"][0], dtype=np.uint8))
            pos += length + 16
        if len(extents) != len(out):
            fail(f"{index}: {len(extents)} lines for {len(out)} records")
        return out[:samples]
    if fmt == "csv":
        # pandas.read_csv(header=None): the first line sets the columns; a later line
        # with more fields is an error, fewer are padded with NaN.
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        width = len(rows[0])
        for n, row in enumerate(rows):
            if len(row) > width:
                fail(f"{path}: line {n + 1} has {len(row)} fields, the first {width}")
        return [np.array([float(v) for v in row]) for row in rows[:samples]]
    if fmt in ("indexed_binary", "mmap_indexed_binary"):
        offsets = np.fromfile(path + ".off.idx", dtype=np.int64, count=samples)
        sizes = np.fromfile(path + ".sz.idx", dtype=np.int64, count=samples)
        out = []
        with open(path, "rb") as f:
            for off, size in zip(offsets, sizes):
                f.seek(int(off))
                out.append(np.frombuffer(f.read(int(size)), dtype=np.uint8))
        return out
    fail(f"unknown format {fmt}")


def read(folder, fmt, files, samples, record_bytes, subfolders):
    side = int(math.sqrt(record_bytes))
    train = list_split(folder, fmt, "train", subfolders)
    list_split(folder, fmt, "valid", 0)
    if len(train) < files:
        fail(f"DLIO finds {len(train)} train files ending with '{fmt}', needs {files}: "
             f"{sorted(os.listdir(os.path.join(folder, 'train')))[:6]}")
    for path in train[:files]:
        got = read_samples(path, fmt, samples)
        if len(got) != samples:
            fail(f"{path}: {len(got)} samples, DLIO reads {samples}")
        for i, sample in enumerate(got):
            if fmt in ("npz", "npy", "hdf5", "jpeg", "png"):
                if sample.shape != (side, side):
                    fail(f"{path}: DLIO's sample {i} is {sample.shape}, not ({side}, {side})")
            elif sample.size != side * side:
                # DLIO's csv and indexed_binary samples are side^2 values (bytes) too.
                fail(f"{path}: DLIO's sample {i} has {sample.size} values, its own {side * side}")
            if fmt == "csv" and np.isnan(sample).any():
                fail(f"{path}: row {i} has empty fields")
    print(f"OK: DLIO reads {files} x {samples} {fmt} samples")


if __name__ == "__main__":
    command, folder, fmt = sys.argv[1:4]
    files, samples, record_bytes = (int(v) for v in sys.argv[4:7])
    subfolders = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    {"write": write, "read": read}[command](folder, fmt, files, samples, record_bytes, subfolders)
