# kernel.geom --- image variants for kernel.sh: name|size|mke2fs options
plain4k|64M|-t ext4 -b 4096
inline|64M|-t ext4 -b 4096 -I 256 -O inline_data
bigalloc|128M|-t ext4 -b 4096 -O bigalloc -C 65536 -N 8192
small1k|64M|-t ext4 -b 1024
