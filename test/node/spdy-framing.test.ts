// SPDY/3.1 framing as kubectl's and kubelet's Go spdystream writes it: each frame type's bytes, a frame cut
// across chunks, and header blocks through one zlib stream per direction primed with SPDY/3's dictionary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFrame, FLAG_FIN, FrameParser, type Frame } from '../../src/node/kubelet-api/spdy/frames.ts';
import { decodeHeaderBlock, encodeHeaderBlock, HeaderCompressor, HeaderDecompressor } from '../../src/node/kubelet-api/spdy/header-compression.ts';
import { SPDY3_HEADER_DICTIONARY } from '../../src/node/kubelet-api/spdy/header-dictionary.ts';

function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

test('the dictionary is SPDY/3\'s: 1423 bytes whose Adler-32 (the DICTID of every header block) is e3c6a7c2', () => {
  assert.equal(SPDY3_HEADER_DICTIONARY.length, 1423);
  assert.equal(adler32(SPDY3_HEADER_DICTIONARY).toString(16), 'e3c6a7c2');
  assert.equal(SPDY3_HEADER_DICTIONARY.subarray(0, 11).toString('latin1'), '\0\0\0\x07options');
  assert.ok(SPDY3_HEADER_DICTIONARY.toString('latin1').endsWith(',*,enq=0.'));
});

const table: { name: string; frame: Frame; hex: string }[] = [
  { name: 'DATA with FIN', frame: { type: 'data', streamId: 3, flags: FLAG_FIN, data: Buffer.from('hi') }, hex: '00000003 01000002 6869' },
  { name: 'SYN_STREAM', frame: { type: 'synStream', streamId: 1, associatedTo: 0, priority: 0, flags: 0, headerBlock: Buffer.from('ab') }, hex: '80030001 0000000c 00000001 00000000 0000 6162' },
  { name: 'SYN_REPLY', frame: { type: 'synReply', streamId: 5, flags: 0, headerBlock: Buffer.from('x') }, hex: '80030002 00000005 00000005 78' },
  { name: 'RST_STREAM cancel', frame: { type: 'rstStream', streamId: 7, status: 5 }, hex: '80030003 00000008 00000007 00000005' },
  { name: 'SETTINGS', frame: { type: 'settings', flags: 0, entries: [{ flags: 0, id: 7, value: 65536 }] }, hex: '80030004 0000000c 00000001 00000007 00010000' },
  { name: 'PING', frame: { type: 'ping', id: 1 }, hex: '80030006 00000004 00000001' },
  { name: 'GOAWAY', frame: { type: 'goAway', lastGoodStreamId: 9, status: 0 }, hex: '80030007 00000008 00000009 00000000' },
  { name: 'HEADERS', frame: { type: 'headers', streamId: 1, flags: FLAG_FIN, headerBlock: Buffer.alloc(0) }, hex: '80030008 01000004 00000001' },
  { name: 'WINDOW_UPDATE', frame: { type: 'windowUpdate', streamId: 1, delta: 65536 }, hex: '80030009 00000008 00000001 00010000' },
];

for (const { name, frame, hex } of table) {
  test(`${name}: its bytes, and parsed back`, () => {
    const bytes = encodeFrame(frame);
    assert.equal(bytes.toString('hex'), hex.replaceAll(' ', ''));
    assert.deepEqual(new FrameParser().push(bytes), [frame]);
  });
}

test('frames cut anywhere across chunks come out whole and in order; an unknown control type is skipped', () => {
  const unknown = Buffer.from('8003000a0000000400000001', 'hex');
  const bytes = Buffer.concat([...table.map((row) => encodeFrame(row.frame)), unknown, encodeFrame({ type: 'ping', id: 3 })]);
  const parser = new FrameParser();
  const frames: Frame[] = [];
  for (let i = 0; i < bytes.length; i += 5) frames.push(...parser.push(bytes.subarray(i, i + 5)));
  assert.deepEqual(frames, [...table.map((row) => row.frame), { type: 'ping', id: 3 }]);
});

test('a frame of another SPDY version is a protocol error', () => {
  assert.throws(() => new FrameParser().push(Buffer.from('800200060000000400000001', 'hex')), /unsupported SPDY version 2/);
});

test('header blocks: lower-case names, NUL-joined values, and kubectl\'s port-forward headers through one zlib stream', async () => {
  const block = encodeHeaderBlock(new Map([['StreamType', ['error']], ['accept', ['a', 'b']]]));
  assert.equal(block.toString('hex'), '00000002' + '0000000a' + Buffer.from('streamtype').toString('hex') + '00000005' + Buffer.from('error').toString('hex') + '00000006' + Buffer.from('accept').toString('hex') + '00000003' + '610062');
  assert.deepEqual(decodeHeaderBlock(block), new Map([['streamtype', ['error']], ['accept', ['a', 'b']]]));

  const compressor = new HeaderCompressor();
  const decompressor = new HeaderDecompressor();
  const error = new Map([['streamtype', ['error']], ['port', ['8080']], ['requestid', ['0']]]);
  const data = new Map([['streamtype', ['data']], ['port', ['8080']], ['requestid', ['0']]]);
  const first = await compressor.compress(error);
  // zlib's header: deflate with a preset dictionary (FDICT), then that dictionary's id.
  assert.equal(first[0], 0x78);
  assert.equal((first[1]! & 0x20) !== 0, true);
  assert.equal(first.subarray(2, 6).toString('hex'), 'e3c6a7c2');
  // A sync flush ends every block, so the peer can decode it without the next one.
  assert.equal(first.subarray(-4).toString('hex'), '0000ffff');
  const second = await compressor.compress(data);
  // The second block continues the stream: no zlib header again, and it refers back to the first.
  assert.notEqual(second[0], 0x78);
  assert.ok(second.length < first.length);
  assert.deepEqual(await decompressor.decompress(first), error);
  assert.deepEqual(await decompressor.decompress(second), data);
  compressor.close();
  decompressor.close();
});

// What kubectl 1.29 (Go's spdystream) sent to a kubelet API for one local connection of
// `kubectl port-forward pod/p :35781`, captured on the wire: SYN_STREAM 1 (the error stream), its FIN, and
// SYN_STREAM 3 (the data stream), whose header block continues the first block's zlib stream.
const KUBECTL_BYTES =
  '800300010000003f0000000100000000000078f9e3c6a7c202253a703a2b294a4dcc851625aca9a0808614cb45a024cc6a6c6a6e014aa09c459078cc04a56f460300000000ffff' +
  '0000000101000000' +
  '800300010000001800000003000000000000c2aa1b54102512a119000000ffff';

test('kubectl\'s own frames: two SYN_STREAMs and a FIN, the headers decoded through one decompressor', async () => {
  const frames = new FrameParser().push(Buffer.from(KUBECTL_BYTES, 'hex'));
  assert.deepEqual(frames.map((f) => [f.type, 'streamId' in f ? f.streamId : undefined, 'flags' in f ? f.flags : undefined]), [
    ['synStream', 1, 0],
    ['data', 1, FLAG_FIN],
    ['synStream', 3, 0],
  ]);
  const decompressor = new HeaderDecompressor();
  const sorted = (headers: Map<string, string[]>) => Object.fromEntries([...headers].sort(([a], [b]) => a.localeCompare(b)));
  const [error, , data] = frames;
  assert.ok(error?.type === 'synStream' && data?.type === 'synStream');
  assert.deepEqual(sorted(await decompressor.decompress(error.headerBlock)), { port: ['35781'], requestid: ['0'], streamtype: ['error'] });
  assert.deepEqual(sorted(await decompressor.decompress(data.headerBlock)), { port: ['35781'], requestid: ['0'], streamtype: ['data'] });
  decompressor.close();
});

test('a header block that is not zlib is a protocol error', async () => {
  const decompressor = new HeaderDecompressor();
  await assert.rejects(decompressor.decompress(Buffer.from('not zlib at all')), /header block/);
  decompressor.close();
});
