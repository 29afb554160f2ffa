# tests/t/local.mk --- tune2fs, e2label and dumpe2fs: superblock fields
# against the reference, refusals that leave the target untouched, and
# in-place conversions on kernel-filled file systems.

TESTS += tests/t/convert.sh
EXTRA_DIST += tests/t/convert.sh tests/t/convert.cases
