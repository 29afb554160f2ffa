# inline_kernel.geom --- one geometry per line: name|mke2fs options|size
4k-256|-b 4096 -I 256 -O inline_data|32M
1k-256|-b 1024 -I 256 -O inline_data|32M
4k-512|-b 4096 -I 512 -O inline_data|32M
4k-1024-nocsum|-b 4096 -I 1024 -O inline_data,^metadata_csum|32M
bigalloc-64k|-b 4096 -I 256 -O inline_data,bigalloc -C 65536|128M
1k-1024|-b 1024 -I 1024 -O inline_data|32M
bigalloc-1k-16k|-b 1024 -I 512 -O inline_data,bigalloc -C 16384|64M
