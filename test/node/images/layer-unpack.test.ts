// Layers unpacked into one directory each and merged by overlayfs, on the fixture image with every tricky case.
// Needs root (owners, device nodes, trusted.* xattrs, mount).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LayerStore } from '../../../src/node/images/layers/layer-store.ts';
import { LayerEscapeError } from '../../../src/node/images/layers/layer-paths.ts';
import { decompressed } from '../../../src/node/images/layers/decompress.ts';
import { DiffIDMismatchError } from '../../../src/node/images/layers/unpack-layer.ts';
import { mountOverlay, overlayMountOptions, unmountOverlay } from '../../../src/node/images/layers/overlay.ts';
import { buildTrickyImage, FILE_CAPABILITY_HEX, sh, type TrickyImage } from './layer-fixture.ts';

let dir: string;
let image: TrickyImage;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-layers-'));
  await mkdir(join(dir, 'fixture'));
  image = buildTrickyImage(join(dir, 'fixture'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An xattr's value as hex (Node has no xattr API; Debian's python3 has). */
function xattr(path: string, name: string): string {
  return sh(`/usr/bin/python3 -c 'import os,sys; sys.stdout.write(os.getxattr(sys.argv[1], sys.argv[2], follow_symlinks=False).hex())' ${path} ${name}`);
}

const hex = (text: string) => Buffer.from(text).toString('hex');

async function openStore(name: string): Promise<LayerStore> {
  return LayerStore.open(join(dir, name));
}

test('the tricky image unpacks layer by layer and overlayfs merges it as the image says', async () => {
  const store = await openStore('merged');
  const base = await store.unpack(image.base, []);
  const changes = await store.unpack(image.changes, [image.base.diffID]);
  assert.equal(base.dir, join(dir, 'merged', 'sha256', image.base.diffID.slice('sha256:'.length)));

  // The changes layer in overlayfs's form: a 0/0 whiteout, the opaque xattr, hard links, the copied-up file.
  const whiteout = await lstat(join(changes.dir, 'data/old.txt'));
  assert.ok(whiteout.isCharacterDevice());
  assert.equal(whiteout.rdev, 0);
  assert.equal(xattr(join(changes.dir, 'opaque'), 'trusted.overlay.opaque'), hex('y'));
  const [a, b] = await Promise.all([stat(join(changes.dir, 'same/a')), stat(join(changes.dir, 'same/b'))]);
  assert.equal(a.ino, b.ino);
  assert.equal(a.nlink, 2);
  const copied = await lstat(join(changes.dir, 'bin/cap-link'));
  assert.ok(copied.isFile());
  assert.equal(copied.nlink, 1);
  assert.equal(await readFile(join(changes.dir, 'bin/cap-link'), 'utf8'), 'capability\n');
  assert.equal(xattr(join(changes.dir, 'bin/cap-link'), 'security.capability'), FILE_CAPABILITY_HEX);
  // A write through the absolute symlink `abs -> /` lands in the layer, at etc/x; the symlink stays as written.
  assert.equal(await readlink(join(changes.dir, 'abs')), '/');
  assert.equal(await readFile(join(changes.dir, 'etc/x'), 'utf8'), 'through\n');
  assert.ok((await lstat(join(changes.dir, 'lib64'))).isDirectory());
  assert.equal(await readFile(join(changes.dir, 'lib64/x'), 'utf8'), 'in-dir\n');
  assert.deepEqual((await readdir(join(changes.dir, 'etc'))).sort(), ['x']);

  const rootfs = join(dir, 'rootfs');
  const upperDir = join(dir, 'upper');
  const workDir = join(dir, 'work');
  await Promise.all([rootfs, upperDir, workDir].map((path) => mkdir(path)));
  await mountOverlay({ layerDirs: [base.dir, changes.dir], upperDir, workDir }, rootfs);
  try {
    assert.deepEqual((await readdir(join(rootfs, 'data'))).sort(), ['both.txt', 'dir-both', 'keep.txt']);
    assert.equal(await readFile(join(rootfs, 'data/both.txt'), 'utf8'), 'upper\n');
    assert.deepEqual(await readdir(join(rootfs, 'data/dir-both')), ['upper.txt']);
    assert.deepEqual((await readdir(join(rootfs, 'opaque'))).sort(), ['new.txt']);
    assert.equal(await readlink(join(rootfs, 'etc/abs-link')), '/etc/passwd');
    assert.equal(await readlink(join(rootfs, 'etc/rel-link')), 'passwd');
    assert.equal(await readFile(join(rootfs, 'etc/rel-link'), 'utf8'), 'root:x:0:0:root:/root:/bin/sh\n');
    assert.equal((await stat(join(rootfs, 'bin/suid'))).mode & 0o7777, 0o4755);
    assert.equal(xattr(join(rootfs, 'bin/cap'), 'security.capability'), FILE_CAPABILITY_HEX);
    assert.equal(xattr(join(rootfs, 'bin/cap'), 'user.note'), hex('kept'));
    assert.ok((await lstat(join(rootfs, 'run/fifo'))).isFIFO());
    const zero = await lstat(join(rootfs, 'dev/zero'));
    assert.ok(zero.isCharacterDevice());
    assert.equal(zero.rdev, 0x105);
    const home = await stat(join(rootfs, 'home/user'));
    assert.deepEqual([home.uid, home.gid, home.mode & 0o7777], [1000, 1000, 0o750]);
    assert.equal((await stat(join(rootfs, 'etc/hostname'))).mtime.toISOString(), '2001-02-03T04:05:06.000Z');
    assert.equal((await stat(rootfs)).mode & 0o777, 0o755);
  } finally {
    await unmountOverlay(rootfs);
  }
  assert.deepEqual(await readdir(rootfs), []);
});

test('an entry written through a symlink that leaves the layer is refused, and nothing is left behind', async () => {
  const store = await openStore('escape');
  await assert.rejects(store.unpack(image.escape, []), (error: Error) => {
    assert.ok(error instanceof LayerEscapeError);
    assert.match(error.message, /"evil\/pwned" passes through a symlink that leads above the layer root/);
    return true;
  });
  assert.deepEqual(await readdir(join(dir, 'escape', 'sha256')), []);
  assert.deepEqual(await readdir(join(dir, 'escape', 'tmp')), []);
});

test('a layer whose content does not match its diffID is refused, and nothing is left behind', async () => {
  const store = await openStore('mismatch');
  const wrong = `sha256:${'0'.repeat(64)}`;
  await assert.rejects(store.unpack({ ...image.base, diffID: wrong }, []), (error: Error) => {
    assert.ok(error instanceof DiffIDMismatchError);
    assert.match(error.message, new RegExp(`expected ${wrong}, the uncompressed layer is ${image.base.diffID}`));
    return true;
  });
  assert.deepEqual(await readdir(join(dir, 'mismatch', 'sha256')), []);
  assert.deepEqual(await readdir(join(dir, 'mismatch', 'tmp')), []);
});

test('concurrent unpacks of one layer share one unpack; a layer already there is not unpacked again', async () => {
  const store = await openStore('concurrent');
  const first = store.unpack(image.base, []);
  const second = store.unpack(image.base, []);
  assert.equal(first, second);
  const unpacked = await first;
  assert.ok(unpacked.unpackedBytes !== undefined && unpacked.unpackedBytes > 0);
  const again = await store.unpack(image.base, []);
  assert.equal(again.unpackedBytes, undefined);
  assert.deepEqual(await store.list(), [image.base.diffID]);
  await store.remove(image.base.diffID);
  assert.deepEqual(await store.list(), []);
});

test('overlay options: lower directories highest first, each once; too long for a page, relative to their parent', () => {
  const layerDirs = Array.from({ length: 60 }, (_, i) => `/var/lib/bosun/nodes/n/images/layers/sha256/${String(i).padStart(64, '0')}`);
  const short = overlayMountOptions({ layerDirs: layerDirs.slice(0, 2), upperDir: '/c/upper', workDir: '/c/work' });
  assert.equal(short.options, `lowerdir=${layerDirs[1]}:${layerDirs[0]},upperdir=/c/upper,workdir=/c/work`);
  assert.equal(short.cwd, undefined);
  const repeated = overlayMountOptions({ layerDirs: ['/l/a', '/l/b', '/l/a', '/l/c'], upperDir: '/u', workDir: '/w' });
  assert.equal(repeated.options, 'lowerdir=/l/c:/l/a:/l/b,upperdir=/u,workdir=/w');
  const long = overlayMountOptions({ layerDirs, upperDir: '/c/upper', workDir: '/c/work' });
  assert.equal(long.cwd, '/var/lib/bosun/nodes/n/images/layers/sha256');
  assert.ok(long.options.startsWith(`lowerdir=${'0'.repeat(62)}59:`));
  const tooMany = Array.from({ length: 70 }, (_, i) => `/l/${String(i).padStart(64, '0')}`);
  assert.throws(() => overlayMountOptions({ layerDirs: tooMany, upperDir: '/u', workDir: '/w' }), /70 layers do not fit in overlayfs's mount options/);
});

test('an image with more layers than absolute paths fit in a page mounts with relative lower directories', async () => {
  const layersParent = join(dir, 'many-layers', 'sha256');
  const layerDirs = Array.from({ length: 55 }, (_, i) => join(layersParent, i.toString(16).padStart(64, '0')));
  for (const [i, layerDir] of layerDirs.entries()) {
    await mkdir(layerDir, { recursive: true });
    await writeFile(join(layerDir, 'shadowed'), String(i));
    await writeFile(join(layerDir, `only-${i}`), '');
  }
  const base = join(dir, 'many-layers');
  const [upperDir, workDir, rootfs] = ['upper', 'work', 'rootfs'].map((name) => join(base, name)) as [string, string, string];
  await Promise.all([upperDir, workDir, rootfs].map((path) => mkdir(path)));
  assert.ok(overlayMountOptions({ layerDirs, upperDir, workDir }).cwd);
  await mountOverlay({ layerDirs, upperDir, workDir }, rootfs);
  try {
    assert.equal((await readdir(rootfs)).length, 56);
    assert.equal(await readFile(join(rootfs, 'shadowed'), 'utf8'), '54');
  } finally {
    await unmountOverlay(rootfs);
  }
});

test('a hard link to a file no layer has is refused with the names, and nothing is left behind', async () => {
  const store = await openStore('dangling-link');
  // The changes layer's bin/cap-link links to bin/cap, which only the base layer has: here there is no base.
  await assert.rejects(store.unpack(image.changes, []), /layer entry "bin\/cap-link" is a hard link to "bin\/cap", which is in neither this layer nor a lower one/);
  assert.deepEqual(await readdir(join(dir, 'dangling-link', 'tmp')), []);
});

test('a zstd layer without the zstd binary names the Debian package', async () => {
  const path = process.env.PATH;
  process.env.PATH = join(dir, 'no-such-bin');
  try {
    await assert.rejects(async () => {
      for await (const chunk of decompressed(image.changes.path)) void chunk;
    }, /the layer is zstd-compressed and the zstd binary is missing: install the Debian package zstd/);
  } finally {
    process.env.PATH = path;
  }
});
