#!/usr/bin/env bash
# `trainbench report`'s words to a user who gave it the wrong thing: a results folder that does
# not exist is named as such (not as the default -o inside it).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# No -o given: the missing results folder is the mistake, and the answer says what to give.
expect_exit 2 out "$TRAINBENCH" report nosuchdir
contains out "trainbench: error: results folder 'nosuchdir' does not exist"
contains out 'printed as "results: FOLDER"'
if grep -q -- "-o nosuchdir" out; then fail "blames an -o that was not given: $(cat out)"; fi
touch afile
expect_exit 2 out "$TRAINBENCH" report afile
contains out "results folder 'afile' is not a folder"

done_ok
