#!/usr/bin/env python3
"""Another process writing steadily beside a timed run (bench/mirror.py's "beside a writer" runs): MIB
MiB of random bytes into PATH at RATE MiB/s, 1 MiB per write(2), then the same file again from its
start, until killed (SIGTERM). It never syncs (no fsync, no O_SYNC, no O_DIRECT): its dirty pages wait
for the kernel's own writeback, as a download's, a build's or a log's do. Whoever syncs the whole file
system meanwhile (`sync`, `syncfs`) writes them too.

usage: steady_writer.py PATH MIB RATE"""
import os
import signal
import sys
import time


def main():
    path, total, rate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    block = os.urandom(1 << 20)
    started = time.monotonic()
    written = 0
    with open(path, "wb", buffering=0) as out:
        while True:
            if written and written % total == 0:
                out.seek(0)
            out.write(block)
            written += 1
            # Paced by the clock, so a stall (the disk, the CPU) is caught up, not dropped.
            delay = started + written / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)


if __name__ == "__main__":
    main()
