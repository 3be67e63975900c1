#!/usr/bin/env python3
"""A hostile folder's racing parent: exchanges two paths atomically (Linux
renameat2(RENAME_EXCHANGE)) in a loop until SECONDS have passed, e.g. a
workspace's `.agloop/` with a symbolic link to an outside folder, so every
reader sees one or the other at any instant.

usage: swap_paths.py A B SECONDS
Prints "READY" once the first exchange worked, "SWAPS n" at the end; the two
paths are left as they were at the start (an even number of exchanges).
"""
import ctypes
import os
import sys
import time

RENAME_EXCHANGE = 2
AT_FDCWD = -100


def main(a, b, seconds):
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = libc.renameat2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    ea, eb = os.fsencode(a), os.fsencode(b)

    def swap():
        if renameat2(AT_FDCWD, ea, AT_FDCWD, eb, RENAME_EXCHANGE) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))

    swap()
    swap()
    print("READY", flush=True)
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        swap()
        swap()
        n += 2
    print("SWAPS", n, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]))
