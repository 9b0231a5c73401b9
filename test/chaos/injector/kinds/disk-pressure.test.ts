// disk-pressure against a real blkio (v1) cgroup created here, with real `dd` using direct IO (buffered writes
// are not throttled by v1's blkio) inside it: the throughput follows the limit while injected and is back to
// the disk's own after clean. The path is this machine's root disk (virtio, /dev/vda), found by the kind.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { HostReads } from '../../../../src/chaos/injector/host/host-reads.ts';
import { diskPressureKind } from '../../../../src/chaos/injector/kinds/disk-pressure.ts';
import { resolveBlockDevice, wholeDisk } from '../../../../src/chaos/injector/kinds/disk/block-device.ts';
import { context, realReads, realWrites, RecordingWrites, runCommand } from './host-doubles.ts';

const BLKIO = '/sys/fs/cgroup/blkio';
const MIB = 1024 * 1024;
const LIMIT = 4 * MIB;

/** Runs dd in the cgroup and returns its bytes per second, from its own summary line. */
async function ddThroughput(cgroupDir: string, ddArgs: string): Promise<number> {
  const result = await runCommand(['sh', '-c', `echo $$ > ${cgroupDir}/cgroup.procs && exec dd ${ddArgs} 2>&1`]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const match = /(\d+) bytes .* copied, ([\d.]+) s/.exec(result.stdout);
  assert.ok(match, result.stdout);
  return Number(match[1]) / Number(match[2]);
}

describe('disk-pressure on a real blkio cgroup', { skip: readFileSync('/proc/self/mounts', 'utf8').includes(' /sys/fs/cgroup/blkio cgroup ') ? false : 'no cgroup v1 blkio' }, () => {
  let dir: string;
  let cgroupDir: string;
  let container: ChildProcess;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'injk-disk-'));
    cgroupDir = join(BLKIO, `bosun-test-disk-${process.pid}`);
    mkdirSync(cgroupDir);
    // The "container": a process in the cgroup, whose root is the host's.
    container = spawn('sh', ['-c', `echo $$ > ${cgroupDir}/cgroup.procs && exec sleep 600`], { stdio: 'ignore' });
    await new Promise<void>((resolve) => container.once('spawn', () => resolve()));
    // Fill a file to read back later (outside the cgroup: not throttled).
    const filled = await runCommand(['dd', 'if=/dev/zero', `of=${join(dir, 'read-me')}`, 'bs=1M', 'count=12', 'oflag=direct']);
    assert.equal(filled.code, 0, filled.stderr);
  });

  after(async () => {
    container.kill('SIGKILL');
    await new Promise((resolve) => (container.exitCode !== null || container.signalCode !== null ? resolve(null) : container.once('exit', resolve)));
    for (let i = 0; i < 50; i++) {
      try {
        rmdirSync(cgroupDir);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('throttles direct writes and reads to the limit, and clean lifts it', async () => {
    const pid = container.pid;
    assert.ok(pid);
    const ctx = context(
      { level: 'pod', targetName: 'target', nodeName: 'node', container: { id: 'c1', podUid: 'u', namespace: 'ns', pod: 'target', container: 'app', pid, cgroupVersion: 1, cgroups: { blkio: cgroupDir } } },
      realWrites,
    );
    const injector = diskPressureKind({ CHAOS_INJECTOR_MOUNT_HOST: '/' }).create(ctx, { path: dir, readBytesPerSec: String(LIMIT), writeBytesPerSec: String(LIMIT) });

    await injector.inject();
    const rules = readFileSync(join(cgroupDir, 'blkio.throttle.write_bps_device'), 'utf8').trim();
    assert.match(rules, new RegExp(`^\\d+:\\d+ ${LIMIT}$`));

    const written = await ddThroughput(cgroupDir, `if=/dev/zero of=${join(dir, 'write-me')} bs=1M count=12 oflag=direct`);
    assert.ok(Math.abs(written - LIMIT) / LIMIT <= 0.2, `write throughput ${(written / MIB).toFixed(2)} MiB/s, limit 4 MiB/s`);
    const read = await ddThroughput(cgroupDir, `if=${join(dir, 'read-me')} of=/dev/null bs=1M iflag=direct`);
    assert.ok(Math.abs(read - LIMIT) / LIMIT <= 0.2, `read throughput ${(read / MIB).toFixed(2)} MiB/s, limit 4 MiB/s`);

    await injector.clean();
    assert.equal(readFileSync(join(cgroupDir, 'blkio.throttle.write_bps_device'), 'utf8').trim(), '');
    assert.equal(readFileSync(join(cgroupDir, 'blkio.throttle.read_bps_device'), 'utf8').trim(), '');
    const unthrottled = await ddThroughput(cgroupDir, `if=/dev/zero of=${join(dir, 'write-me')} bs=1M count=12 oflag=direct`);
    assert.ok(unthrottled > 2 * LIMIT, `after clean ${(unthrottled / MIB).toFixed(2)} MiB/s`);
    await injector.clean(); // idempotent
  });

  test('dry-run resolves the device but writes nothing', async () => {
    const writes = new RecordingWrites(undefined, true);
    const ctx = context({ level: 'node', targetName: 'node', nodeName: 'node' }, writes, realReads, true);
    const injector = diskPressureKind({ CHAOS_INJECTOR_MOUNT_HOST: '/', CHAOS_INJECTOR_MOUNT_CGROUP: '/sys/fs/cgroup/' }).create(ctx, { path: dir, writeBytesPerSec: '1000' });
    await injector.inject();
    assert.deepEqual(writes.recorded.map((r) => (r.op === 'writeFile' ? [r.path, r.content.replace(/^\d+:\d+/, 'DEV')] : r.op)), [[`${BLKIO}/blkio.throttle.write_bps_device`, 'DEV 1000']]);
  });
});

describe('block device resolution', () => {
  /** A fake host: stat answers by path, /sys/dev/block by device. */
  function fakeReads(stats: Record<string, string>, files: Record<string, string>, links: Record<string, string> = {}): HostReads {
    return {
      readFile: (path) => (path in files ? Promise.resolve(files[path] ?? '') : Promise.reject(new Error(`ENOENT ${path}`))),
      exists: (path) => Promise.resolve(path in files),
      run: (argv) => {
        const path = argv[argv.length - 1] ?? '';
        if (argv[0] === 'stat') return Promise.resolve(path in stats ? { code: 0, stdout: `${stats[path]}\n`, stderr: '' } : { code: 1, stdout: '', stderr: 'No such file' });
        if (argv[0] === 'readlink') return Promise.resolve({ code: 0, stdout: `${links[path] ?? path}\n`, stderr: '' });
        return Promise.resolve({ code: 127, stdout: '', stderr: '' });
      },
    };
  }

  test('a partition is throttled on its disk', async () => {
    const reads = fakeReads({}, { '/sys/dev/block/253:1': '', '/sys/dev/block/253:1/partition': '1', '/sys/devices/virtual/block/vda/dev': '253:0\n' }, { '/sys/dev/block/253:1': '/sys/devices/virtual/block/vda/vda1' });
    assert.deepEqual(await wholeDisk(reads, { major: 253, minor: 1 }), { major: 253, minor: 0 });
  });

  test('nvme: 259:0 is a disk, not "major:0"', async () => {
    const reads = fakeReads({ '/data': '259:3' }, { '/sys/dev/block/259:3': '', '/sys/dev/block/259:3/partition': '2', '/sys/devices/pci/nvme/nvme0n1/dev': '259:0' }, { '/sys/dev/block/259:3': '/sys/devices/pci/nvme/nvme0n1/nvme0n1p2' });
    assert.deepEqual(await resolveBlockDevice(reads, { statPath: '/data', pathInMountNamespace: '/data', mountInfoPath: '/mi', hostRoot: '/' }), { major: 259, minor: 0 });
  });

  test('an overlay root is throttled on the disk of its upper directory', async () => {
    const mountinfo = '22 1 0:45 / / rw - overlay overlay rw,lowerdir=/l,upperdir=/var/lib/bosun/c1/upper,workdir=/w\n';
    const reads = fakeReads({ '/proc/7/root/data': '0:45', '/var/lib/bosun/c1/upper': '254:0' }, { '/proc/7/mountinfo': mountinfo, '/sys/dev/block/254:0': '' });
    assert.deepEqual(await resolveBlockDevice(reads, { statPath: '/proc/7/root/data', pathInMountNamespace: '/data', mountInfoPath: '/proc/7/mountinfo', hostRoot: '/' }), { major: 254, minor: 0 });
  });

  test('a tmpfs path cannot be throttled', async () => {
    const reads = fakeReads({ '/dev/shm/x': '0:27' }, { '/mi': '30 1 0:27 / /dev/shm rw - tmpfs tmpfs rw\n' });
    await assert.rejects(resolveBlockDevice(reads, { statPath: '/dev/shm/x', pathInMountNamespace: '/dev/shm/x', mountInfoPath: '/mi', hostRoot: '/' }), /on tmpfs .* not on a block device/);
  });
});
