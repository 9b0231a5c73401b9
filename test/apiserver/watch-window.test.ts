// WatchWindow: the first event goes out at once, the ones within its window together, and an ending stream
// takes what is still waiting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WatchWindow } from '../../src/apiserver/handlers/watch-window.ts';

test('events within a window go out in one write, after the first one alone', async () => {
  const sent: string[] = [];
  let next: (() => void) | undefined;
  const window = new WatchWindow((chunk) => {
    sent.push(chunk);
    next?.();
  });
  window.write('a\n');
  assert.deepEqual(sent, ['a\n']);
  const second = new Promise<void>((resolve) => (next = resolve));
  window.write('b\n');
  window.write('c\n');
  assert.deepEqual(sent, ['a\n'], 'later events wait for the window to close');
  await second;
  assert.deepEqual(sent, ['a\n', 'b\nc\n']);
  assert.equal(window.drain(), '');
});

test('an ending stream drains what waits, and no window writes after it', () => {
  const sent: string[] = [];
  const window = new WatchWindow((chunk) => sent.push(chunk));
  window.write('a\n');
  window.write('b\n');
  assert.equal(window.drain(), 'b\n');
  assert.deepEqual(sent, ['a\n']);
});
