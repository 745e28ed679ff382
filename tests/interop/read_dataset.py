"""Reads a trainbench dataset with the Python libraries frameworks use (numpy, h5py,
PIL) and checks it against trainbench's manifest: shapes, dtypes, and that the bytes
at each manifest extent are the sample the library returns. Exits non-zero on the
first mismatch."""
import json
import os
import sys

import numpy as np


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def read_extent(path, offset, length):
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read(length)
    if len(data) != length:
        fail(f"{path}: extent {offset}+{length} runs past the end")
    return data


def check_rows(path, entry, rows):
    """Each manifest extent holds exactly row i of the array."""
    if rows.shape[0] != entry["num_samples"]:
        fail(f"{path}: {rows.shape[0]} rows, manifest says {entry['num_samples']}")
    offsets = entry.get("sample_offsets", [])
    lengths = entry.get("sample_lengths", [])
    if len(offsets) != entry["num_samples"]:
        fail(f"{path}: manifest has {len(offsets)} extents for {entry['num_samples']} samples")
    for i, (off, length) in enumerate(zip(offsets, lengths)):
        if length != rows[i].nbytes:
            fail(f"{path}: sample {i} is {rows[i].nbytes} bytes, manifest says {length}")
        if read_extent(path, off, length) != rows[i].tobytes():
            fail(f"{path}: bytes at offset {off} are not sample {i}")


def check_last_axis(path, entry, x):
    """DLIO's npy/npz layout: x is (side, side, samples) and DLIO's reader takes sample i
    as x[..., i]. Extent i is the i-th equal contiguous share of the array, the sample's
    size (a strided sample has no single byte range)."""
    if x.dtype != np.uint8 or x.ndim != 3 or x.shape[0] != x.shape[1]:
        fail(f"{path}: dtype {x.dtype} shape {x.shape}, expected DLIO's uint8 (side, side, samples)")
    n = entry["num_samples"]
    if x.shape[2] != n:
        fail(f"{path}: {x.shape[2]} samples on the last axis, manifest says {n}")
    flat = x.reshape(-1)
    share = x[..., 0].nbytes
    for i, (off, length) in enumerate(zip(entry["sample_offsets"], entry["sample_lengths"])):
        if length != x[..., i].nbytes:
            fail(f"{path}: extent {i} is {length} bytes, DLIO's sample x[..., {i}] {share}")
        if read_extent(path, off, length) != flat[i * share:(i + 1) * share].tobytes():
            fail(f"{path}: bytes at offset {off} are not share {i} of the array")


def check_npy(path, entry, args):
    check_last_axis(path, entry, np.load(path))


def check_npz(path, entry, args):
    import zipfile
    want = zipfile.ZIP_STORED if args[0] == "stored" else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path) as z:
        if z.testzip() is not None:
            fail(f"{path}: member {z.testzip()} fails its CRC")
        methods = {i.filename: i.compress_type for i in z.infolist()}
    if methods != {"x.npy": want, "y.npy": want}:
        fail(f"{path}: members {methods}, expected x.npy and y.npy with method {want}")
    with np.load(path) as npz:
        x, y = npz["x"], npz["y"]
    if x.dtype != np.uint8 or x.ndim != 3 or y.dtype != np.int64 or y.shape != (x.shape[-1],):
        fail(f"{path}: x {x.dtype} {x.shape}, y {y.dtype} {y.shape}")
    if args[0] == "stored":
        check_last_axis(path, entry, x)
    elif "sample_offsets" in entry or x.shape[-1] != entry["num_samples"]:
        fail(f"{path}: a deflated npz has no sample extents and {entry['num_samples']} samples")


def check_hdf5(path, entry, args):
    import h5py
    with h5py.File(path, "r") as h:
        records, labels = h["records_0"], h["labels"]
        # DLIO 2.0.0 reads h5['records']: the same dataset by a second hard link.
        if "records" not in h or h["records"] != records or len(h) != 3:
            fail(f"{path}: records is not records_0 by a second name: {dict(h)}")
        # DLIO's layout: (samples, side, side); its reader takes records_0[i].
        if records.dtype != np.uint8 or records.ndim != 3 or labels.dtype != np.int64 or \
                records.shape[1] != records.shape[2]:
            fail(f"{path}: records_0 {records.dtype} {records.shape}, labels {labels.dtype}")
        if labels.shape != (records.shape[0],):
            fail(f"{path}: labels {labels.shape} for {records.shape[0]} records")
        layout = args[0]
        if layout == "none" and (records.chunks is not None or records.compression is not None):
            fail(f"{path}: records_0 is chunked {records.chunks} / {records.compression}")
        if layout == "rows" and (records.chunks is None or records.chunks[1:] != records.shape[1:]):
            fail(f"{path}: records_0 chunks {records.chunks}, expected whole rows")
        if layout == "gzip" and records.compression != "gzip":
            fail(f"{path}: records_0 compression {records.compression}, expected gzip")
        rows = records[()]
    if layout == "gzip":
        if "sample_offsets" in entry or rows.shape[0] != entry["num_samples"]:
            fail(f"{path}: compressed records have no extents; {entry['num_samples']} samples")
    else:
        check_rows(path, entry, rows)


def check_image(path, entry, args):
    from PIL import Image
    with Image.open(path) as img:
        img.load()  # decodes every pixel
        width, height, mode = img.width, img.height, img.mode
    if mode != "L" or width != height:
        fail(f"{path}: {width}x{height} {mode}, expected a grayscale square")
    if width < 100000 ** 0.5 * 0.3 or width > 100000 ** 0.5 * 1.7:
        fail(f"{path}: side {width} far from sqrt of the ~100 kB sample size")
    n = int(args[0]) if args else 1  # DLIO counts num_samples_per_file samples per image
    if entry["num_samples"] != n or entry.get("sample_offsets") != [0] * n or \
            entry.get("sample_lengths") != [entry["size_bytes"]] * n:
        fail(f"{path}: manifest does not give {n} whole-file samples: {entry}")


def check_csv(path, entry, args):
    """pandas' to_csv(index=False) of DLIO's rows: the column names "0,1,...,n-1" (DLIO
    2.0.0's reader takes the first line for them), then one row of values per sample,
    every row as wide as the first (read_csv takes its width). Sample 0's extent starts
    at the file's first byte, the header line with it (pandas reads them together)."""
    import csv
    with open(path, newline="") as f:
        header, *rows = list(csv.reader(f))
    if header != [str(c) for c in range(len(header))]:
        fail(f"{path}: the first line is not pandas' column names 0,1,...: {header[:5]}")
    if len(rows) != entry["num_samples"]:
        fail(f"{path}: {len(rows)} rows, manifest says {entry['num_samples']}")
    header_bytes = len(",".join(header)) + 1
    for i, (row, off, length) in enumerate(
            zip(rows, entry["sample_offsets"], entry["sample_lengths"])):
        values = np.array([int(v) for v in row])
        if len(row) != len(header) or values.min() < 0 or values.max() > 254:
            fail(f"{path}: row {i} is not {len(header)} values 0..254")
        if args and len(row) != int(args[0]):  # DLIO's side^2 values a line
            fail(f"{path}: row {i} has {len(row)} values, DLIO writes {args[0]}")
        want = ("" if i else ",".join(header) + "\n") + ",".join(row) + "\n"
        if i == 0 and (off, length) != (0, len(want)):
            fail(f"{path}: sample 0's extent {off}+{length} is not the header line "
                 f"({header_bytes} bytes) and row 0")
        if read_extent(path, off, length).decode() != want:
            fail(f"{path}: bytes at offset {off} are not row {i}")


def check_indexed_binary(path, entry, args):
    offsets = np.fromfile(path + ".off.idx", dtype=np.int64)  # DLIO reads them as int64
    sizes = np.fromfile(path + ".sz.idx", dtype=np.int64)
    if entry.get("companions") != [entry["path"] + ".off.idx", entry["path"] + ".sz.idx"]:
        fail(f"{path}: manifest companions {entry.get('companions')}")
    if list(offsets) != entry["sample_offsets"] or list(sizes) != entry["sample_lengths"]:
        fail(f"{path}: index files disagree with the manifest")
    data = np.memmap(path, dtype=np.uint8, mode="r")
    if int(offsets[-1] + sizes[-1]) != data.size or list(offsets[1:]) != list(
            np.cumsum(sizes)[:-1]):
        fail(f"{path}: samples are not back to back over the whole file")
    if args and set(sizes) != {int(args[0])}:  # DLIO's side^2 bytes a sample
        fail(f"{path}: sample sizes {sorted(set(sizes))}, DLIO writes {args[0]}")


def main():
    folder, fmt = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    with open(os.path.join(folder, "trainbench_manifest.json")) as f:
        manifest = json.load(f)
    files = manifest["files"]
    if not files:
        fail("manifest lists no files")
    check = globals()[f"check_{fmt}"]
    for entry in files:
        path = os.path.join(folder, entry["path"])
        if os.path.getsize(path) != entry["size_bytes"]:
            fail(f"{path}: size {os.path.getsize(path)}, manifest says {entry['size_bytes']}")
        check(path, entry, args)
    print(f"OK: {len(files)} {fmt} files read")


if __name__ == "__main__":
    main()
