"""TensorFlow's side of tests/interop/tfrecord_tf_test.sh (run with $PYPI_PY, tensorflow-cpu).

  tf_records.py read FOLDER SIZE
      reads every file of trainbench's manifest in FOLDER with tf.data.TFRecordDataset (which
      checks both CRCs of every record) and parses each record with
      tf.io.parse_single_example as DLIO's reader declares it ('image': bytes, 'size': int64);
      checks the record count, that each proto holds exactly those two features, each one
      value, the record the manifest's length, the image side x side bytes and 'size' SIZE
      (DLIO writes its dimension, int(sqrt(record_length)), whatever the image drawn). Prints "OK: FILES files, RECORDS".
  tf_records.py write FOLDER FILES SAMPLES SIDE
      writes FILES train files (and one valid file) with tf.io.TFRecordWriter, SAMPLES records
      each, the features DLIO's generator writes (a SIDE x SIDE uint8 image, 'size' = SIDE),
      named as DLIO names them. Prints the bytes of the train files.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

FEATURES = {"image": tf.io.FixedLenFeature([], tf.string),
            "size": tf.io.FixedLenFeature([], tf.int64)}


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def read(folder, want_size):
    manifest = json.load(open(os.path.join(folder, "trainbench_manifest.json")))
    records = 0
    for f in manifest["files"]:
        path = os.path.join(folder, f["path"])
        got = list(tf.data.TFRecordDataset(path).as_numpy_iterator())
        if len(got) != len(f["sample_lengths"]):
            fail(f"{path}: TensorFlow reads {len(got)} records, the manifest says "
                 f"{len(f['sample_lengths'])}")
        for i, (serialized, length) in enumerate(zip(got, f["sample_lengths"])):
            proto = tf.train.Example.FromString(serialized)
            kinds = {name: feature.WhichOneof("kind")
                     for name, feature in proto.features.feature.items()}
            if kinds != {"image": "bytes_list", "size": "int64_list"}:
                fail(f"{path} record {i}: features {kinds}")
            for name, feature in proto.features.feature.items():
                values = getattr(feature, kinds[name]).value
                if len(values) != 1:
                    fail(f"{path} record {i}: '{name}' holds {len(values)} values, not 1")
            parsed = tf.io.parse_single_example(serialized, FEATURES)
            image = parsed["image"].numpy()
            # The record's frame is 16 bytes (length, its CRC, the data's CRC) around the proto.
            if len(serialized) != length - 16:
                fail(f"{path} record {i}: {len(serialized)} bytes, the manifest {length - 16}")
            side = int(len(image) ** 0.5)
            if side * side != len(image):
                fail(f"{path} record {i}: a {len(image)}-byte image is not side x side")
            size = int(parsed["size"].numpy())
            if size != want_size:
                fail(f"{path} record {i}: size {size}, DLIO's dimension {want_size}")
        records += len(got)
    print(f"OK: {len(manifest['files'])} files, {records} records")


def write(folder, files, samples, side):
    rng = np.random.default_rng(7)
    total = 0
    for split, count in (("train", files), ("valid", 1)):
        os.makedirs(os.path.join(folder, split), exist_ok=True)
        for i in range(count):
            path = os.path.join(folder, split, f"img_{i}_of_{count}.tfrecord")
            with tf.io.TFRecordWriter(path) as writer:
                for _ in range(samples):
                    image = rng.integers(0, 255, (side, side), dtype=np.uint8).tobytes()
                    example = tf.train.Example(features=tf.train.Features(feature={
                        "image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image])),
                        "size": tf.train.Feature(int64_list=tf.train.Int64List(value=[side])),
                    }))
                    writer.write(example.SerializeToString())
            if split == "train":
                total += os.path.getsize(path)
    print(total)


if __name__ == "__main__":
    if sys.argv[1] == "read":
        read(sys.argv[2], int(sys.argv[3]))
    else:
        write(sys.argv[2], *(int(v) for v in sys.argv[3:6]))
