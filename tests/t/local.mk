# tests/t/local.mk --- tune2fs, e2label and dumpe2fs: superblock fields
# against the reference, refusals that leave the target untouched, and
# in-place conversions on kernel-filled file systems.

TESTS += tests/t/convert.sh
EXTRA_DIST += tests/t/convert.sh tests/t/convert.cases
TESTS += tests/t/fields.sh tests/t/refuse.sh
EXTRA_DIST += tests/t/fields.sh tests/t/fields.cases tests/t/refuse.sh \
	tests/t/refuse.cases
TESTS += tests/t/dumpe2fs.sh
EXTRA_DIST += tests/t/dumpe2fs.sh tests/t/dumpe2fs.cases
