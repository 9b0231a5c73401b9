// Reads the kernel's generated files (/proc, cgroupfs). They report size 0, so fs.readFile reads them in 64 KiB
// buffers, one per call: a burst of pods does dozens of such reads each (cgroup.procs, mountinfo, the OOM
// counter), and the buffers, freed only at the next GC, were most of the 17 MB of native memory the agent held
// at a burst's peak; glibc kept that heap after the burst. These files are a few bytes to a few KiB: read them
// in a small buffer that doubles while it fills.
import { open } from 'node:fs/promises';

const FIRST_READ_BYTES = 4096;

/** The file's text (UTF-8); rejects as fs.readFile does (ENOENT for a process or cgroup that is gone). */
export async function readKernelFile(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(FIRST_READ_BYTES);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) return buffer.toString('utf8', 0, length);
      length += bytesRead;
      if (length === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
    }
  } finally {
    await handle.close();
  }
}
