// A fixture image with every tricky layer case, built from files by GNU tar (as root): layer blobs and their
// diffIDs, as the puller would hand them to the layer store.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LayerBlob } from '../../../src/node/images/types.ts';

export function sh(script: string, cwd?: string): string {
  return execFileSync('bash', ['-euo', 'pipefail', '-c', script], { cwd, encoding: 'utf8' });
}

function sha256(path: string): string {
  return `sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
}

/**
 * security.capability as setcap 'cap_net_bind_service,cap_setfcap+ep' writes it (VFS_CAP_REVISION_2, effective;
 * permitted bits 10 and 31): binary, with a byte above 0x7f. Written with Python (Debian's python3, which the CI
 * installs) rather than setcap, as libcap2-bin is not in minimal images.
 */
export const FILE_CAPABILITY_HEX = '0100000200040080000000000000000000000000';

const TAR = "tar --format=posix --xattrs --xattrs-include='*' --numeric-owner";

/** `tarPath` (uncompressed) compressed as asked; the blob's diffID is the tar's digest. */
function blob(tarPath: string, compression: 'gzip' | 'zstd' | 'none'): LayerBlob {
  const diffID = sha256(tarPath);
  let path = tarPath;
  if (compression === 'gzip') path = sh(`gzip -c ${tarPath} > ${tarPath}.gz && echo ${tarPath}.gz`).trim();
  if (compression === 'zstd') path = sh(`zstd -q -c ${tarPath} > ${tarPath}.zst && echo ${tarPath}.zst`).trim();
  const mediaType = `application/vnd.oci.image.layer.v1.tar${compression === 'none' ? '' : compression === 'gzip' ? '+gzip' : '+zstd'}`;
  return { digest: sha256(path), mediaType, diffID, path };
}

export interface TrickyImage {
  /** Files, a setuid binary, a file capability and a user xattr, a FIFO, a device, a uid-1000 home, symlinks. gzip. */
  base: LayerBlob;
  /** Whiteouts (also after the layer's own file or directory), opaque directory, hard links in the layer and into
   *  the base, a write through an absolute symlink, a directory replacing a symlink. zstd. */
  changes: LayerBlob;
  /** A symlink out of the layer and a file written through it. Uncompressed. */
  escape: LayerBlob;
}

export function buildTrickyImage(dir: string): TrickyImage {
  sh(`
    mkdir -p base/etc base/bin base/data base/opaque/sub base/home/user base/run base/lib base/dev
    echo 'root:x:0:0:root:/root:/bin/sh' > base/etc/passwd
    echo fixture > base/etc/hostname && touch -d '2001-02-03 04:05:06 UTC' base/etc/hostname
    ln -s /etc/passwd base/etc/abs-link && ln -s passwd base/etc/rel-link
    echo suid > base/bin/suid && chmod 4755 base/bin/suid
    echo capability > base/bin/cap && chmod 755 base/bin/cap
    /usr/bin/python3 -c 'import os; os.setxattr("base/bin/cap", "security.capability", bytes.fromhex("${FILE_CAPABILITY_HEX}")); os.setxattr("base/bin/cap", "user.note", b"kept")'
    echo old > base/data/old.txt && echo keep > base/data/keep.txt && echo lower > base/data/both.txt
    mkdir base/data/dir-both && echo lower > base/data/dir-both/lower.txt
    echo a > base/opaque/a.txt && echo b > base/opaque/sub/b.txt
    chown 1000:1000 base/home/user && chmod 750 base/home/user
    mkfifo base/run/fifo && mknod base/dev/zero c 1 5
    ${TAR} -cf base.tar -C base .

    mkdir -p changes/data changes/opaque changes/same changes/bin
    touch changes/data/.wh.old.txt changes/opaque/.wh..wh..opq && echo new > changes/opaque/new.txt
    echo same > changes/same/a && ln changes/same/a changes/same/b
    echo placeholder > changes/bin/cap && ln changes/bin/cap changes/bin/cap-link
    ${TAR} -cf changes.tar -C changes ./data ./opaque ./same ./bin/cap ./bin/cap-link
    # bin/cap-link stays a hard link to bin/cap, which only the base layer has.
    tar --delete -f changes.tar ./bin/cap
    mkdir -p through-abs/abs/etc && echo through > through-abs/abs/etc/x && ln -s / abs
    ${TAR} -rf changes.tar abs && ${TAR} -rf changes.tar -C through-abs abs/etc/x
    # A whiteout after this layer's own file or directory hides only the lower layers' (OCI: it applies to them).
    mkdir -p both/data/dir-both && echo upper > both/data/both.txt && echo upper > both/data/dir-both/upper.txt
    touch both/data/.wh.both.txt both/data/.wh.dir-both
    ${TAR} -rf changes.tar -C both data/both.txt data/dir-both && ${TAR} -rf changes.tar -C both data/.wh.both.txt data/.wh.dir-both
    # A directory entry where this layer made a symlink replaces the symlink.
    mkdir -p replaced/lib64 && echo in-dir > replaced/lib64/x && ln -s etc lib64
    ${TAR} -rf changes.tar lib64 && ${TAR} -rf changes.tar -C replaced lib64

    mkdir -p escape-dir/evil && echo pwned > escape-dir/evil/pwned && ln -s ../../../../../../tmp evil
    ${TAR} -cf escape.tar evil && ${TAR} -rf escape.tar -C escape-dir evil/pwned
  `, dir);
  return { base: blob(join(dir, 'base.tar'), 'gzip'), changes: blob(join(dir, 'changes.tar'), 'zstd'), escape: blob(join(dir, 'escape.tar'), 'none') };
}
