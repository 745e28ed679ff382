"""DLIO's side of the interop tests, in plain numpy/h5py/PIL (DLIO itself needs MPI,
Hydra and TensorFlow or PyTorch). Written from DLIO's generators and readers of two
versions, sharing no code with trainbench: "2.0.0", the release on PyPI that
requirements.txt pins (tag v2.0.0), and "upstream", argonne-lcf/dlio_benchmark's main
(commit e1919d7; v2.0.1 lays files out alike): data_generator/*.py, reader/*.py, main.py.
They differ in hdf5 (2.0.0 writes and reads the dataset `records`, upstream `records_0`),
csv (2.0.0 writes pandas' to_csv() defaults, a header line and an index column, and reads
the first line as a header; upstream writes rows only and reads every line as one) and
tfrecord's `size` feature (2.0.0: the side; upstream: the sample's bytes; both readers
ignore it).

  dlio_layout.py write FOLDER FORMAT FILES SAMPLES RECORD_BYTES [SUBFOLDERS [VERSION]]
      writes FILES train files as DLIO VERSION's generator for FORMAT would (2.0.0 or
      upstream, the default): folders train/ and valid/, names "img_<i>_of_<FILES>.<FORMAT>"
      (in train/<i % SUBFOLDERS>/, zero-padded, when SUBFOLDERS > 1), DLIO's shapes with
      side floor(sqrt(RECORD_BYTES)). Prints the bytes trainbench's run should request per
      epoch for this layout (the `bytes` command's).
  dlio_layout.py read FOLDER FORMAT FILES SAMPLES RECORD_BYTES [SUBFOLDERS]
      reads FOLDER as DLIO's run would: lists train/ and valid/ (both must exist), keeps
      the names ending with FORMAT (in SUBFOLDERS subfolders when there are any), and reads
      SAMPLES samples of each of the first FILES files with the reader for FORMAT of each
      version, 2.0.0's and upstream's; checks each sample is DLIO's size.
  dlio_layout.py bytes FOLDER FORMAT FILES SAMPLES RECORD_BYTES [SUBFOLDERS]
      prints the bytes trainbench's run should request per epoch over the dataset in
      FOLDER, whoever wrote it: each sample's bytes once (an array sample's share, a
      TFRecord's record, a csv file's every line, its header line included: what pandas
      reads; an image file once for each of its SAMPLES samples).
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
VERSIONS = ("2.0.0", "upstream")


def write(folder, fmt, files, samples, record_bytes, subfolders, version="upstream"):
    if version not in VERSIONS:
        fail(f"unknown DLIO version {version}: one of {VERSIONS}")
    side = int(math.sqrt(record_bytes))  # DLIO's "dimension"
    rng = np.random.default_rng(10)
    os.makedirs(os.path.join(folder, "train"), exist_ok=True)
    os.makedirs(os.path.join(folder, "valid"), exist_ok=True)
    # DLIO's generator makes every subfolder, with files or not (its run asserts them all).
    padded = [str(d).rjust(len(str(subfolders)), "0") for d in range(subfolders)]
    for d in padded if subfolders > 1 else []:
        os.makedirs(os.path.join(folder, "train", d), exist_ok=True)
    for i, name in enumerate(file_names(files, fmt)):
        where = os.path.join(folder, "train")
        if subfolders > 1:
            where = os.path.join(where, padded[i % subfolders])
        path = os.path.join(where, name)
        if fmt in ("npz", "npy"):
            x = rng.integers(0, 255, (side, side, samples), dtype=np.uint8)
            if fmt == "npz":
                np.savez(path, x=x, y=[0] * samples)
            else:
                np.save(path, x)
        elif fmt == "hdf5":
            import h5py
            # 2.0.0: h5py's default file format and `records`; upstream: libver "latest"
            # (other object headers, a link-ordered root group) and `records_0`.
            libver = "earliest" if version == "2.0.0" else "latest"
            with h5py.File(path, "w", libver=libver) as h:
                h.create_dataset("records" if version == "2.0.0" else "records_0",
                                 data=rng.integers(0, 255, (samples, side, side), dtype=np.uint8))
                h.create_dataset("labels", data=[0] * samples)
        elif fmt in ("jpeg", "png"):
            from PIL import Image
            Image.fromarray(rng.integers(0, 255, (side, side), dtype=np.uint8)).save(
                path, format=fmt.upper())
        elif fmt == "tfrecord":
            index = []
            size = side if version == "2.0.0" else side * side  # the dimension; the bytes
            with open(path, "wb") as f:
                for _ in range(samples):
                    image = rng.integers(0, 255, side * side, dtype=np.uint8).tobytes()
                    record = tf_record(example(image, size))
                    index.append(f"{f.tell()} {len(record)}\n")
                    f.write(record)
            os.makedirs(os.path.join(folder, "index", "train"), exist_ok=True)
            with open(os.path.join(folder, "index", "train", name + ".idx"), "w") as f:
                f.write("".join(index))  # DLIO's index for DALI
        elif fmt == "csv":
            # One record repeated per sample. upstream: to_csv(index=False, header=False);
            # 2.0.0: to_csv()'s defaults, the column names ",0,1,..." and an index column.
            values = ",".join(str(v) for v in rng.integers(0, 255, side * side))
            with open(path, "w") as f:
                if version == "2.0.0":
                    f.write("," + ",".join(str(c) for c in range(side * side)) + "\n")
                    f.write("".join(f"{r},{values}\n" for r in range(samples)))
                else:
                    f.write(f"{values}\n" * samples)
        elif fmt in ("indexed_binary", "mmap_indexed_binary"):
            size = side * side
            with open(path, "wb") as f:
                f.write(rng.integers(0, 255, size * samples, dtype=np.uint8).tobytes())
            np.arange(0, size * samples, size, dtype=np.uint64).tofile(path + ".off.idx")
            np.full(samples, size, dtype=np.uint64).tofile(path + ".sz.idx")
        else:
            fail(f"unknown format {fmt}")
    print(epoch_bytes(folder, fmt, files, samples, subfolders))


def epoch_bytes(folder, fmt, files, samples, subfolders):
    """What trainbench's run requests in an epoch over the first FILES files in FOLDER."""
    total = 0
    for path in list_split(folder, fmt, "train", subfolders)[:files]:
        if fmt == "npz":
            total += np.load(path)["x"].nbytes  # stored members: each sample's share once
        elif fmt == "npy":
            total += np.load(path).nbytes
        elif fmt == "hdf5":
            import h5py
            with h5py.File(path, "r") as h:
                total += h["records_0" if "records_0" in h else "records"].nbytes
        elif fmt in ("jpeg", "png"):
            total += samples * os.path.getsize(path)  # every sample reads the image
        elif fmt in ("tfrecord", "csv", "indexed_binary", "mmap_indexed_binary"):
            # Records with their framing; csv's lines and its header line, which pandas
            # reads with them; samples back to back.
            total += os.path.getsize(path)
        else:
            fail(f"unknown format {fmt}")
    return total


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


def read_samples(path, fmt, samples, version):
    """Sample i of `path` as DLIO VERSION's reader for `fmt` returns it."""
    if fmt == "npz":
        x = np.load(path, allow_pickle=True)["x"]
        return [x[..., i] for i in range(samples)]
    if fmt == "npy":
        x = np.load(path)
        return [x[..., i] for i in range(samples)]
    if fmt == "hdf5":
        import h5py
        name = "records" if version == "2.0.0" else "records_0"  # num_dset_per_record 1
        with h5py.File(path, "r") as h:
            if name not in h:
                fail(f"{path}: DLIO {version} reads h5['{name}']: KeyError: object '{name}' "
                     f"doesn't exist (the file has {sorted(h.keys())})")
            return [h[name][i] for i in range(samples)]
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
        # upstream: pandas.read_csv(header=None), every line a row; 2.0.0: read_csv's
        # default header="infer", the first line names the columns and is no row. The
        # first line sets the width; a later line with more fields is an error, fewer are
        # padded with NaN (an empty field is NaN too).
        with open(path, newline="") as f:
            lines = list(csv.reader(f))
        width = len(lines[0])
        for n, line in enumerate(lines):
            if len(line) > width:
                fail(f"{path}: line {n + 1} has {len(line)} fields, the first {width}")
        rows = lines[1:] if version == "2.0.0" else lines
        if len(rows) < samples:  # DLIO's open_file_map[filename][sample_index]
            fail(f"{path}: DLIO {version} finds {len(rows)} rows: IndexError: index "
                 f"{len(rows)} is out of bounds for axis 0 with size {len(rows)}")
        return [np.array([float(v) if v else np.nan for v in row] + [np.nan] * (width - len(row)))
                for row in rows[:samples]]
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
    for version in VERSIONS:
        for path in train[:files]:
            got = read_samples(path, fmt, samples, version)
            if len(got) != samples:
                fail(f"{path}: {len(got)} samples, DLIO {version} reads {samples}")
            for i, sample in enumerate(got):
                if fmt in ("npz", "npy", "hdf5", "jpeg", "png"):
                    if sample.shape != (side, side):
                        fail(f"{path}: DLIO {version}'s sample {i} is {sample.shape}, "
                             f"not ({side}, {side})")
                elif sample.size != side * side:
                    # DLIO's csv and indexed_binary samples are side^2 values (bytes) too.
                    fail(f"{path}: DLIO {version}'s sample {i} has {sample.size} values, "
                         f"its own {side * side}")
                if fmt == "csv" and np.isnan(sample).any():
                    fail(f"{path}: DLIO {version}'s row {i} has empty fields")
    print(f"OK: DLIO {' and '.join(VERSIONS)} read {files} x {samples} {fmt} samples")


if __name__ == "__main__":
    command, folder, fmt = sys.argv[1:4]
    files, samples, record_bytes = (int(v) for v in sys.argv[4:7])
    subfolders = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    if command == "write":
        write(folder, fmt, files, samples, record_bytes, subfolders, *sys.argv[8:9])
    elif command == "read":
        read(folder, fmt, files, samples, record_bytes, subfolders)
    elif command == "bytes":
        print(epoch_bytes(folder, fmt, files, samples, subfolders))
    else:
        fail(f"unknown command {command}: write, read or bytes")
