// The host command runner: one-shot commands run by a helper process, not forked from the caller's event loop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CommandHelper, HelperExitedError } from '../../src/node/host-commands/command-helper.ts';
import { HostCommandError, runHostCommand } from '../../src/node/host-commands/host-command.ts';

/** Resolves when the process exits (tail --pid waits on it). */
function exitOf(pid: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const tail = spawn('tail', [`--pid=${pid}`, '-f', '/dev/null'], { stdio: 'ignore' });
    tail.once('error', reject);
    tail.once('close', () => resolve());
  });
}

test('a command gets its input, working directory and the fixed environment, and answers with its output', async (t) => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'bosun-host-command-')));
  t.after(() => rm(dir, { recursive: true, force: true }));
  assert.equal(await runHostCommand(['tr', 'a-z', 'A-Z'], 'hello\n'), 'HELLO\n');
  assert.equal(await runHostCommand(['pwd'], '', { cwd: dir }), `${dir}\n`);
  const env = (await runHostCommand(['env'])).trim().split('\n').sort();
  assert.deepEqual(env, ['LC_ALL=C', 'PATH=/usr/sbin:/usr/bin:/sbin:/bin']);
});

test('a failure is a HostCommandError: the tool\'s stderr, or the spawn error\'s code when it did not start', async () => {
  await assert.rejects(runHostCommand(['sh', '-c', 'echo nope >&2; exit 3']), (error: unknown) => {
    assert.ok(error instanceof HostCommandError);
    assert.equal(error.stderr, 'nope\n');
    assert.equal(error.spawnCode, undefined);
    assert.deepEqual(error.argv, ['sh', '-c', 'echo nope >&2; exit 3']);
    return true;
  });
  await assert.rejects(runHostCommand(['sh', '-c', 'exit 4']), /exited with 4/);
  await assert.rejects(runHostCommand(['bosun-no-such-tool']), (error: unknown) => error instanceof HostCommandError && error.spawnCode === 'ENOENT');
  await assert.rejects(runHostCommand([]), /needs a program/);
});

test('commands run in a helper process, not as children of the caller', async () => {
  const parent = Number((await runHostCommand(['sh', '-c', 'echo $PPID'])).trim());
  assert.notEqual(parent, process.pid);
  const helperCommand = (await runHostCommand(['cat', `/proc/${parent}/cmdline`])).split('\0');
  assert.match(helperCommand[1] ?? '', /host-commands\/helper\.mjs$/);
  // Many at once share the one helper.
  const parents = await Promise.all(Array.from({ length: 20 }, () => runHostCommand(['sh', '-c', 'echo $PPID'])));
  assert.deepEqual(new Set(parents.map((p) => Number(p.trim()))), new Set([parent]));
});

test('a helper that dies fails the commands it owed, and the next command starts another', async () => {
  const helper = new CommandHelper({ PATH: '/usr/bin:/bin' });
  const pid = Number((await helper.run({ argv: ['sh', '-c', 'echo $PPID'], stdin: '' })).stdout.trim());
  const owed = helper.run({ argv: ['sleep', '60'], stdin: '' });
  await helper.run({ argv: ['true'], stdin: '' }); // the sleep has been handed over by now
  // The helper leads its own process group: the sleep goes with it.
  process.kill(-pid, 'SIGKILL');
  await assert.rejects(owed, (error: unknown) => error instanceof HelperExitedError && /SIGKILL/.test(error.message));
  const next = await helper.run({ argv: ['sh', '-c', 'echo $PPID'], stdin: '' });
  assert.equal(next.code, 0);
  assert.notEqual(Number(next.stdout.trim()), pid);
});

test('an idle helper exits, and a command after that starts a new one', async () => {
  const helper = new CommandHelper({ PATH: '/usr/bin:/bin' }, 50);
  const first = Number((await helper.run({ argv: ['sh', '-c', 'echo $PPID'], stdin: '' })).stdout.trim());
  await exitOf(first);
  const second = await helper.run({ argv: ['sh', '-c', 'echo $PPID'], stdin: '' });
  assert.equal(second.code, 0);
  assert.notEqual(Number(second.stdout.trim()), first);
});
