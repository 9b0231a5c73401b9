// ContainerHandle.attach on real sandboxed containers: the container's stdin is the agent's pipe when its spec
// keeps one (kube's stdin), stdinOnce closes it when the first attach with stdin lets go and gives that first
// attach what the container wrote before it, a later attach sees only what is written from then on, and a tty
// container's output comes from a terminal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { openSandboxHarness, readLog, waitForLog, type SandboxHarness } from './harness.ts';

let h: SandboxHarness;
before(async () => {
  h = await openSandboxHarness();
});
after(async () => {
  await h.close();
});

/** Reads a stream until its text matches. */
function until(stream: Readable, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) {
        stream.off('data', onData);
        resolve(text);
      }
    };
    stream.on('data', onData);
  });
}

test('stdinOnce: what the attach writes reaches the container, and letting go closes its stdin', async () => {
  const request = h.request('echoer', { name: 'main', argv: ['sh', '-c', 'while read line; do echo "got $line"; done; echo "stdin closed"'], stdin: { once: true } });
  const handle = await h.sandbox.start(request);
  const attached = handle.attach({ stdin: true });
  assert.ok(attached.stdin);
  const reply = until(attached.stdout, /got one\n/);
  attached.stdin.write('one\n');
  assert.equal(await reply, 'got one\n');
  attached.detach();
  assert.deepEqual(await attached.exited, { exitCode: 0, signal: null });
  const exit = await handle.exited;
  assert.equal(exit.reason, 'Completed');
  assert.equal(await readLog(request.logPath).then((log) => log.includes('stdin closed')), true);
});

test('stdinOnce (kubectl run -i): the first attach also gets what the container wrote before it; a second does not', { timeout: 60_000 }, async () => {
  const request = h.request('quick', { name: 'main', argv: ['sh', '-c', 'echo early; echo warning >&2; while read line; do echo "got $line"; done'], stdin: { once: true } });
  const handle = await h.sandbox.start(request);
  // The attacher comes late: the output is in the log before it.
  await waitForLog(request.logPath, 'warning');
  const first = handle.attach({ stdin: true });
  const replayed = until(first.stdout, /early\n/);
  const replayedErr = until(first.stderr, /warning\n/);
  assert.equal(await replayed, 'early\n');
  assert.equal(await replayedErr, 'warning\n');
  const reply = until(first.stdout, /got x\n/);
  first.stdin!.write('x\n');
  assert.equal(await reply, 'got x\n');
  const second = handle.attach({ stdin: false });
  let secondText = '';
  second.stdout.on('data', (chunk: Buffer) => (secondText += chunk.toString()));
  first.detach();
  await handle.exited;
  await second.exited;
  assert.equal(secondText, '', 'only the first attach gets the earlier output');
});

test('stdin without once stays open across attaches; a later attach sees only new output', async () => {
  const request = h.request('keeper', { name: 'main', argv: ['sh', '-c', 'echo ready; while read line; do echo "got $line"; done'], stdin: { once: false } });
  const handle = await h.sandbox.start(request);
  await waitForLog(request.logPath, 'ready');
  const first = handle.attach({ stdin: true });
  const firstReply = until(first.stdout, /got a\n/);
  first.stdin!.write('a\n');
  assert.equal(await firstReply, 'got a\n');
  first.stdin!.end();
  first.detach();
  const second = handle.attach({ stdin: true });
  const secondReply = until(second.stdout, /got b\n/);
  second.stdin!.write('b\n');
  // Neither "ready" nor "got a": attach follows the live output, not the log.
  assert.equal(await secondReply, 'got b\n');
  assert.equal(handle.isRunning, true);
  // Without stdin in the spec there is none to attach to.
  assert.equal(handle.attach({ stdin: false }).stdin, null);
  const end = second.exited;
  await handle.stop(0);
  assert.deepEqual(await end, { exitCode: 0, signal: null });
});

test('tty: the command runs on a terminal; a container without stdin reads end-of-file', async () => {
  const request = h.request('terminal', { name: 'main', argv: ['sh', '-c', 'tty; read x || echo "no input"'], tty: true });
  const handle = await h.sandbox.start(request);
  await handle.exited;
  const log = await readLog(request.logPath);
  assert.match(log, /\/dev\/pts\/\d+/);
  assert.match(log, /no input/);
});
