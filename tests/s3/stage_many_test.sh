# trainbench stage of an s3:// prefix with many more objects than the open-file limit allows
# descriptors: only the objects in flight hold their part file open (the journals are opened
# at each sync and closed), so 2,000 objects stage under `ulimit -n 256` (issue 34: the stage
# kept a .part and a .part.journal open for every object and stopped at the ~500th with "Too
# many open files; check that DEST is writable").
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT

s3_new_bucket many
common=(resnet50_h100 dataset.format=npy dataset.num_files_train=2000 dataset.num_samples_per_file=1
  dataset.record_length_bytes=512 dataset.record_length_bytes_stdev=0
  "dataset.data_folder=s3://$bucket/ds" storage.storage_options.s3_force_path_style=true)
at_exit "'$TB' clean ${common[*]} --yes >/dev/null 2>&1; s3_remove_bucket $bucket"
"$TB" datagen "${common[@]}" -j 8 >datagen.out 2>datagen.err || { cat datagen.err; fail "datagen"; }

# 2,000 objects, 256 descriptors: the limit is set in a subshell, for the stage alone.
set +e
(
  ulimit -n 256
  "$TB" stage "s3://$bucket/ds/train" "$WORK/dest" --streams 8 --no-progress \
    --output "$WORK/results" --s3-option s3_force_path_style=true
) >stage.out 2>stage.err
rc=$?
set -e
[ $rc = 0 ] || { tail -5 stage.err; fail "stage of 2,000 objects under ulimit -n 256 exited $rc"; }
check "2,000 files staged" [ "$(find "$WORK/dest" -type f -name '*.npy' | wc -l)" = 2000 ]
check "no part file or journal left" [ "$(find "$WORK/dest" -name '*.part*' | wc -l)" = 0 ]
summary=$(stage_summary_of stage.out)
check "every object staged and verified against its ETag" [ "$(json "$summary" \
  'sum(1 for o in d["objects"] if o["status"] == "staged" and o["checksum"] == "md5 (S3 ETag)")')" = 2000 ]
# One object compared byte for byte with what the gateway serves.
name=$(cd "$WORK/dest" && find . -name '*.npy' | sort | sed -n '1234p')
s3_curl GET "/$bucket/ds/train/${name#./}" -o one.npy
check "an object's bytes" cmp one.npy "$WORK/dest/${name#./}"
done_ok
