// The container deployer's pure parts: state chunking and restore, the wait report, export parsing, the
// provider configuration, and the init/wait programs run against a temporary /data/ls.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { decodeContainerConfig } from '../../../src/landscaper/deployers/container/config.ts';
import { runInit, runWait, writeInput, type ProgramPaths } from '../../../src/landscaper/deployers/container/programs.ts';
import { formatReport, lastLines, parseExports, parseReport } from '../../../src/landscaper/deployers/container/report.ts';
import { archiveDirectory, chunkState, joinState, restoreDirectory, type StoredChunk } from '../../../src/landscaper/deployers/container/state.ts';

function group(uuid: string, archive: Buffer, size: number, writtenAt: string): StoredChunk[] {
  const chunks = chunkState(archive, size);
  return chunks.map((data, num) => ({ uuid, num, count: chunks.length, writtenAt, data }));
}

test('chunkState splits at the size and joinState puts the chunks back in order', () => {
  const archive = Buffer.from('abcdefghij');
  assert.deepEqual(chunkState(archive, 4).map(String), ['abcd', 'efgh', 'ij']);
  assert.deepEqual(chunkState(Buffer.alloc(0), 4).map((b) => b.length), [0]);
  const shuffled = group('u1', archive, 3, '2026-01-01T00:00:00Z').reverse();
  assert.equal(String(joinState(shuffled).archive), 'abcdefghij');
});

test('joinState restores the newest complete group and names the others stale', () => {
  const old = group('old', Buffer.from('old state'), 4, '2026-01-01T00:00:00Z');
  const current = group('new', Buffer.from('new state'), 4, '2026-01-02T00:00:00Z');
  const incomplete = group('newest', Buffer.from('newest state'), 4, '2026-01-03T00:00:00Z').slice(1);
  const restored = joinState([...old, ...incomplete, ...current]);
  assert.equal(String(restored.archive), 'new state');
  assert.equal(restored.uuid, 'new');
  assert.deepEqual(restored.staleUuids.sort(), ['newest', 'old']);
  assert.equal(joinState([]).archive, undefined);
});

test('a 1 MiB chunk size keeps a 2.5 MiB archive in three chunks that join back byte for byte', () => {
  const archive = Buffer.alloc(Math.floor(2.5 * 1024 * 1024), 7);
  archive[archive.length - 1] = 0;
  const chunks = group('u', archive, 1024 * 1024, 't');
  assert.equal(chunks.length, 3);
  assert.ok(joinState(chunks).archive?.equals(archive));
});

test('archiveDirectory and restoreDirectory round-trip nested and binary files; paths cannot leave the directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'container-state-'));
  try {
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', 'bin'), Buffer.from([0, 1, 2, 255]));
    writeFileSync(join(dir, 'top.txt'), 'x');
    const archive = archiveDirectory(dir);
    const into = join(dir, 'restored');
    assert.equal(restoreDirectory(archive, into), 2);
    assert.deepEqual([...readFileSync(join(into, 'a', 'b', 'bin'))], [0, 1, 2, 255]);
    const evil = archiveDirectory(join(dir, 'missing'));
    assert.equal(restoreDirectory(evil, into), 0);
    assert.throws(() => restoreDirectory(gzipSync(JSON.stringify({ '../escape': '' })), into), /leaves the state directory/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('parseExports takes JSON or YAML objects and rejects anything else', () => {
  assert.equal(parseExports('{"a": 1}'), '{"a":1}');
  assert.equal(parseExports('runs: 2\nimports: {"message": "hi"}\n'), '{"runs":2,"imports":{"message":"hi"}}');
  assert.equal(parseExports(''), '{}');
  assert.throws(() => parseExports('- a\n- b\n'), /must hold an object/);
  assert.throws(() => parseExports('a: [\n'), /neither JSON nor YAML/);
});

test('parseReport finds the last report line among other log lines', () => {
  const log = `starting\n${formatReport({ state: 'AAA', exports: 'a: 1' })}`;
  assert.deepEqual(parseReport(log), { state: 'AAA', exports: 'a: 1' });
  assert.deepEqual(parseReport(formatReport({ state: '' })), { state: '' });
  assert.throws(() => parseReport('no report here'), /wrote no report/);
  assert.equal(lastLines('1\n2\n\n3\n4\n', 2), '3\n4');
});

test('decodeContainerConfig keeps upstream fields and names what is wrong', () => {
  const config = decodeContainerConfig({ apiVersion: 'container.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration', image: 'busybox', command: ['sh'], args: ['-c', 'true'], importValues: { a: 1 } });
  assert.deepEqual(config, { image: 'busybox', command: ['sh'], args: ['-c', 'true'], importValues: { a: 1 } });
  assert.throws(() => decodeContainerConfig({ command: ['sh'] }), /image: Required value/);
  assert.throws(() => decodeContainerConfig({ image: 'x', args: [1] }), /args must be a list of strings/);
  assert.throws(() => decodeContainerConfig({ image: 'x', apiVersion: 'v2' }), /unsupported apiVersion/);
});

test('init lays out imports and state; wait reports exports and the state the program left', () => {
  const root = mkdtempSync(join(tmpdir(), 'container-programs-'));
  const paths: ProgramPaths = {
    internal: join(root, 'internal'),
    imports: join(root, 'shared/imports/import.json'),
    exports: join(root, 'shared/exports/values'),
    state: join(root, 'shared/state'),
    content: join(root, 'shared/content'),
    componentDescriptor: join(root, 'shared/component_descriptor.json'),
  };
  try {
    const previous = join(root, 'previous');
    mkdirSync(previous);
    writeFileSync(join(previous, 'runs'), '1');
    writeInput(paths.internal, { imports: '{"m":"hi"}', state: archiveDirectory(previous) });
    assert.match(runInit(paths), /1 state file/);
    assert.equal(readFileSync(paths.imports, 'utf8'), '{"m":"hi"}');
    assert.equal(readFileSync(join(paths.state, 'runs'), 'utf8'), '1');
    writeFileSync(join(paths.state, 'runs'), '2');
    writeFileSync(paths.exports, 'runs: 2');
    const report = parseReport(runWait(paths));
    assert.equal(report.exports, 'runs: 2');
    const again = join(root, 'again');
    restoreDirectory(Buffer.from(report.state, 'base64'), again);
    assert.equal(readFileSync(join(again, 'runs'), 'utf8'), '2');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
