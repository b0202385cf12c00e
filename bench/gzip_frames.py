#!/usr/bin/env python3
"""Sum the gzipped sizes of files given as frames on standard input (each
an 8-byte little-endian length, then the bytes), each file compressed
alone at gzip's default level 6, as `gzip -6 FILE` would. Prints the
total in bytes. Used by bench/history.sh with `history_scale fill`."""
import gzip
import struct
import sys

total = 0
stream = sys.stdin.buffer
while True:
    head = stream.read(8)
    if len(head) < 8:
        break
    (length,) = struct.unpack("<Q", head)
    total += len(gzip.compress(stream.read(length), compresslevel=6))
print(total)
