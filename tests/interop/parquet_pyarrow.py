"""pyarrow, Parquet's reference implementation, against trainbench's Parquet (tests/interop/
parquet_pyarrow_test.sh). Run by $PYPI_PY (the project's PyPI environment).

  check TRAIN_SEED SPEC FILE [SPEC FILE...]
      pyarrow reads each file trainbench's datagen wrote; SPEC is
      SPLIT:INDEX:ROWS:GROUP_ROWS:CODEC:COLUMNS (COLUMNS "name:dtype:size,..."). Checks the
      rows, the row groups, the codec, the Arrow schema (DLIO's generator's: a scalar for
      size 1, a fixed-size list of `size` otherwise, nullable, pyarrow's type for the dtype),
      that no value is null, the file's seed against the plan's, and every value against
      trainbench's documented rule (src/formats/parquet/parquet_columns.h), recomputed here
      with numpy. Prints "FILE rows=.. groups=.. sha256=<of the values>" per file.
  write FOLDER FILES ROWS GROUP_ROWS CODEC PAGE_VERSION DICTIONARY
      Writes FILES DLRM-like files as real datasets are written (label float32,
      numerical_features a fixed-size list of 13 float32, categorical_features a fixed-size
      list of 26 int32 of few distinct values) with pyarrow: FOLDER/train/img_I_of_N.parquet.
  chunks COLUMNS FILE...
      What DLIO's reader reads of the files (pyarrow's read_row_group(columns=...)): the
      compressed bytes of each row group's column chunks of COLUMNS ("a,b"; "" = all), from
      each file's footer. Prints "groups=.. rows=.. chunks=.. bytes=..".
  refused KIND FOLDER
      Writes FOLDER/train/img_0_of_1.parquet with a feature `trainbench run` refuses:
      struct (a struct column), file_path (column chunks in another file), encrypted
      (modular encryption, encrypted footer), plaintext_footer (encrypted columns, a
      plaintext footer). Exits 3 when this pyarrow cannot write it.
"""
import hashlib
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

M64 = (1 << 64) - 1


def mix(x):
    """common/random.cc's Mix, on Python ints or uint64 arrays."""
    if isinstance(x, np.ndarray):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def rotl(x, k):
    if isinstance(x, np.ndarray):
        return (x << np.uint64(k)) | (x >> np.uint64(64 - k))
    return ((x << k) | (x >> (64 - k))) & M64


def mix2(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return mix(mix(a) ^ rotl(mix(b + np.uint64(0x632BE59BD9B4E019)), 17))
    return mix(mix(a) ^ rotl(mix((b + 0x632BE59BD9B4E019) & M64), 17))


def fill_random(seed, offset, size):
    """`size` bytes of FillRandom(seed) from `offset`: 4 KiB blocks, each eight xorshift128+
    lanes seeded from (Mix(seed) ^ block, lane), their 64-bit outputs lane-interleaved."""
    key = mix(seed)
    first, last = offset // 4096, (offset + size + 4095) // 4096
    blocks = np.arange(first, last, dtype=np.uint64)[:, None]
    lanes = np.arange(8, dtype=np.uint64)[None, :]
    a = mix2(np.uint64(key) ^ blocks, lanes)
    b = mix(a)
    words = np.empty((len(blocks), 64, 8), dtype=np.uint64)
    for w in range(64):
        x, y = a, b
        a = y
        x = x ^ (x << np.uint64(23))
        b = x ^ y ^ (x >> np.uint64(17)) ^ (y >> np.uint64(26))
        words[:, w, :] = b + y
    raw = words.astype("<u8").tobytes()
    skip = offset - first * 4096
    return raw[skip : skip + size]


ITEM = {"uint8": 1, "int8": 1, "uint16": 2, "int16": 2, "uint32": 4, "int32": 4, "uint64": 8,
        "int64": 8, "float16": 2, "float32": 4, "float64": 8}
ARROW = {"uint8": pa.uint8(), "int8": pa.int8(), "uint16": pa.uint16(), "int16": pa.int16(),
         "uint32": pa.uint32(), "int32": pa.int32(), "uint64": pa.uint64(), "int64": pa.int64(),
         "float16": pa.float16(), "float32": pa.float32(), "float64": pa.float64()}


def expected_column(seed, index, dtype, size, rows):
    """Column `index`'s elements for all rows, as a numpy array of the dtype."""
    raw = fill_random(mix2(seed, index), 0, rows * size * ITEM[dtype])
    if dtype == "float32":
        return (np.frombuffer(raw, "<u4") >> np.uint32(8)).astype(np.float32) * np.float32(2.0**-24)
    if dtype == "float64":
        return (np.frombuffer(raw, "<u8") >> np.uint64(11)).astype(np.float64) * 2.0**-53
    if dtype == "float16":  # k x 2^-10, exact in binary16
        return ((np.frombuffer(raw, "<u2") >> np.uint16(6)).astype(np.float32) * 2.0**-10).astype(np.float16)
    return np.frombuffer(raw, np.dtype(dtype).newbyteorder("<"))


def fail(file, what):
    sys.exit(f"FAIL: {file}: {what}")


def check(argv):
    train_seed = int(argv[0])
    for spec, file in zip(argv[1::2], argv[2::2]):
        split, index, rows, group_rows, codec, columns_text = spec.split(":", 5)
        rows, group_rows, index = int(rows), int(group_rows), int(index)
        columns = [(n, d, int(s)) for n, d, s in (c.split(":") for c in columns_text.split(","))]
        pf = pq.ParquetFile(file)
        md = pf.metadata
        if md.num_rows != rows:
            fail(file, f"{md.num_rows} rows, expected {rows}")
        groups = [md.row_group(g).num_rows for g in range(md.num_row_groups)]
        want = [min(group_rows, rows - r) for r in range(0, rows, group_rows)]
        if groups != want:
            fail(file, f"row groups of {groups} rows, expected {want}")
        for g in range(md.num_row_groups):
            for c in range(md.num_columns):
                if md.row_group(g).column(c).compression != codec:
                    fail(file, f"codec {md.row_group(g).column(c).compression}, expected {codec}")
        # DLIO's generator's schema: pa.list_(type, size), or the scalar type, as pyarrow
        # reads it back from DLIO's files (the list's child named as Parquet's leaf).
        want_schema = pa.schema([(n, ARROW[d] if s == 1 else pa.list_(pa.field("element", ARROW[d]), s))
                                 for n, d, s in columns])
        schema = pf.schema_arrow.remove_metadata()
        if not schema.equals(want_schema) or str(schema) != str(want_schema):
            fail(file, f"schema\n{schema}\nexpected\n{want_schema}")
        kv = {k.decode(): v.decode() for k, v in (md.metadata or {}).items()}
        seed = mix2(mix2(train_seed, 1 if split == "train" else 2), index)
        if kv.get("trainbench.seed") != str(seed):
            fail(file, f"trainbench.seed {kv.get('trainbench.seed')}, the plan's is {seed}")
        table = pf.read()
        digest = hashlib.sha256()
        for i, (name, dtype, size) in enumerate(columns):
            column = table.column(name).combine_chunks()
            if column.null_count:
                fail(file, f"column {name}: {column.null_count} nulls")
            if size > 1:
                if column.type.list_size != size or len(column) != rows:
                    fail(file, f"column {name}: {len(column)} lists of {column.type.list_size}, expected {rows} of {size}")
                if column.values.null_count:
                    fail(file, f"column {name}: {column.values.null_count} null elements")
                column = column.flatten()
            got = column.to_numpy(zero_copy_only=False)
            expect = expected_column(seed, i, dtype, size, rows)
            if got.dtype != expect.dtype or got.tobytes() != expect.tobytes():
                fail(file, f"column {name} ({got.dtype}): values differ from the rule's "
                           f"(first rows: {got[:3]} vs {expect[:3]})")
            digest.update(got.tobytes())
        print(f"{file} rows={rows} groups={len(groups)} sha256={digest.hexdigest()}")


def dlrm_table(rows, rng):
    label = pa.array(rng.random(rows, dtype=np.float32))
    numerical = pa.FixedSizeListArray.from_arrays(pa.array(rng.random(rows * 13, dtype=np.float32)), 13)
    # Categorical ids of few distinct values: pyarrow keeps their dictionary.
    categorical = pa.FixedSizeListArray.from_arrays(
        pa.array(rng.integers(0, 100, rows * 26, dtype=np.int32)), 26)
    return pa.table({"label": label, "numerical_features": numerical, "categorical_features": categorical})


def write(argv):
    folder, files, rows, group_rows, codec, page_version, dictionary = argv
    files, rows, group_rows = int(files), int(rows), int(group_rows)
    os.makedirs(f"{folder}/train", exist_ok=True)
    rng = np.random.default_rng(7)
    for i in range(files):
        pq.write_table(dlrm_table(rows, rng), f"{folder}/train/img_{i}_of_{files}.parquet",
                       row_group_size=group_rows, compression=None if codec == "none" else codec,
                       data_page_version=page_version, use_dictionary=dictionary == "dictionary")


def chunks(argv):
    selected = set(filter(None, argv[0].split(",")))
    groups = rows = count = total = 0
    for file in argv[1:]:
        md = pq.ParquetFile(file).metadata
        for g in range(md.num_row_groups):
            group = md.row_group(g)
            groups += 1
            rows += group.num_rows
            for c in range(group.num_columns):
                chunk = group.column(c)
                if selected and chunk.path_in_schema.split(".")[0] not in selected:
                    continue
                count += 1
                total += chunk.total_compressed_size
    print(f"groups={groups} rows={rows} chunks={count} bytes={total}")


def refused(argv):
    kind, folder = argv
    os.makedirs(f"{folder}/train", exist_ok=True)
    path = f"{folder}/train/img_0_of_1.parquet"
    table = dlrm_table(100, np.random.default_rng(1))
    if kind == "struct":
        point = pa.StructArray.from_arrays([pa.array(np.arange(100.0)), pa.array(np.arange(100.0))], ["x", "y"])
        pq.write_table(table.append_column("point", point), path)
    elif kind == "file_path":
        # A file whose footer points at another file's column chunks, as a dataset's
        # _metadata summary does.
        pq.write_table(table, f"{folder}/data.bin")
        md = pq.ParquetFile(f"{folder}/data.bin").metadata
        md.set_file_path("data.bin")
        md.write_metadata_file(path)
    elif kind in ("encrypted", "plaintext_footer"):
        try:
            import base64
            import pyarrow.parquet.encryption as pe
        except ImportError:
            sys.exit(3)

        class Kms(pe.KmsClient):  # keys in the clear: a test's KMS
            def __init__(self, _config):
                pe.KmsClient.__init__(self)

            def wrap_key(self, key_bytes, _master_key_identifier):
                return base64.b64encode(key_bytes)

            def unwrap_key(self, wrapped_key, _master_key_identifier):
                return base64.b64decode(wrapped_key)

        factory = pe.CryptoFactory(lambda config: Kms(config))
        config = pe.EncryptionConfiguration(
            footer_key="footer", column_keys={"columns": ["numerical_features"]},
            plaintext_footer=kind == "plaintext_footer", double_wrapping=False)
        keys = {"footer": b"0123456789012345", "columns": b"1234567890123450"}
        kms = pe.KmsConnectionConfig(custom_kms_conf={k: v.decode() for k, v in keys.items()})
        properties = factory.file_encryption_properties(kms, config)
        with pq.ParquetWriter(path, table.schema, encryption_properties=properties) as writer:
            writer.write_table(table)
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    {"check": check, "write": write, "chunks": chunks, "refused": refused}[sys.argv[1]](sys.argv[2:])
