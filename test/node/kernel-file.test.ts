// readKernelFile: the whole of a size-0 kernel file, however long, as fs.readFile reads it, and its errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { readKernelFile } from '../../src/node/sandbox/kernel-file.ts';

test('reads a generated file whole, beyond its first buffer', async () => {
  // /proc/self/maps of a Node process is tens of KiB: several doublings of the first 4 KiB buffer.
  const text = await readKernelFile('/proc/self/maps');
  assert.ok(text.length > 8192, `only ${text.length} characters`);
  assert.ok(text.endsWith('\n'));
  const lines = text.split('\n').filter((line) => line.includes('[stack]'));
  assert.equal(lines.length, 1);
  assert.equal(await readKernelFile('/proc/sys/kernel/pid_max'), readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
});

test('a file that is gone rejects with ENOENT, as fs.readFile does', async () => {
  await assert.rejects(readKernelFile('/proc/self/no-such-file'), { code: 'ENOENT' });
});
