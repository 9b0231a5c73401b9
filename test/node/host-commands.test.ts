// The host command runner: one-shot commands run by a helper process, not forked from the caller's event loop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CommandHelper, HelperExitedError, LaunchError } from '../../src/node/host-commands/command-helper.ts';
import { HostCommandError, launchHostProcess, runHostCommand } from '../../src/node/host-commands/host-command.ts';
import { LaunchChannels } from '../../src/node/host-commands/launch-channels.ts';

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

/** Everything a socket gives until its end. */
async function readAll(socket: Socket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  await once(socket, 'close');
  return text;
}

/** The fields of /proc/PID/stat after the command name: state, ppid, pgrp, session … */
async function statOf(pid: number): Promise<string[]> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

test('a launched process runs in the helper, leads its own session, and talks to the caller over its channels', async () => {
  const script = 'read -r line; echo "got $line" >&2; cat /proc/$$/stat >&2; echo "env: $(tr "\\0" " " < /proc/$$/environ)" >&2; [ /proc/$$/fd/1 -ef /dev/null ] && echo "stdout is /dev/null" >&2; exit 7';
  const child = await launchHostProcess({ argv: ['/bin/sh', '-c', script], env: { PATH: '/usr/bin:/bin', ONLY: 'this' }, stdio: ['channel', 'ignore', 'channel'] });
  const [stdin, stdout, stderr] = child.stdio;
  assert.ok(stdin && stderr);
  assert.equal(stdout, null);
  const said = readAll(stderr);
  stdin.end('hello\n');
  assert.deepEqual(await child.exited, { code: 7, signal: null });
  const lines = (await said).split('\n');
  assert.equal(lines[0], 'got hello');
  // pid ppid pgrp session: its own session and group, its parent the helper, not this process.
  const [pid, , , ppid, pgrp, session] = (lines[1] ?? '').replace(/\(.*\)/, 'comm').split(' ');
  assert.equal(Number(pid), child.pid);
  assert.equal(Number(pgrp), child.pid);
  assert.equal(Number(session), child.pid);
  assert.notEqual(Number(ppid), process.pid);
  assert.match((await readFile(`/proc/${ppid}/cmdline`, 'utf8')).split('\0')[1] ?? '', /host-commands\/helper\.mjs$/);
  assert.equal(lines[2], 'env: PATH=/usr/bin:/bin ONLY=this ', 'the whole environment is the one given');
  assert.equal(lines[3], 'stdout is /dev/null');
});

test('a launched process whose channel the caller keeps open reads all it is sent, in order', async () => {
  const child = await launchHostProcess({ argv: ['/bin/sh', '-c', 'wc -c >&2'], env: { PATH: '/usr/bin:/bin' }, stdio: ['channel', 'ignore', 'channel'] });
  const [stdin, , stderr] = child.stdio;
  assert.ok(stdin && stderr);
  const said = readAll(stderr);
  const chunk = 'x'.repeat(64 * 1024);
  for (let i = 0; i < 32; i++) stdin.write(chunk);
  stdin.end();
  assert.equal((await said).trim(), String(32 * chunk.length));
  assert.equal((await child.exited).code, 0);
});

test('a launch that cannot start is a LaunchError with the spawn error\'s code, and its channels are not left waiting', async () => {
  await assert.rejects(
    launchHostProcess({ argv: ['/nonexistent/bosun-tool'], env: {}, stdio: ['channel', 'ignore', 'channel'] }),
    (error: unknown) => error instanceof LaunchError && error.spawnCode === 'ENOENT',
  );
  await assert.rejects(launchHostProcess({ argv: [], env: {}, stdio: ['ignore', 'ignore', 'ignore'] }), /needs a program/);
});

test('a helper does not retire while a process it launched runs; killed, it reports the process lost', async () => {
  const helper = new CommandHelper({ PATH: '/usr/bin:/bin' }, 50);
  const child = await helper.launch({ argv: ['sleep', '60'], env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'ignore', 'ignore'] });
  const helperPid = Number((await statOf(child.pid))[1]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok((await statOf(helperPid))[0] !== 'Z', 'the helper is still there after its idle time');
  process.kill(helperPid, 'SIGKILL');
  const exit = await child.exited;
  assert.equal(exit.code, null);
  assert.match(exit.lost ?? '', /SIGKILL/);
  // Its own session: the launched process outlived the helper.
  assert.equal(await readlink(`/proc/${child.pid}/exe`), '/usr/bin/sleep');
  process.kill(child.pid, 'SIGKILL');
});

test('a connection to the channel socket without an awaited token is closed and hands nothing over', async () => {
  const channels = new LaunchChannels();
  const awaited = channels.expect();
  const handedOver: Socket[] = [];
  void awaited.connection.then((socket) => handedOver.push(socket));
  for (const greeting of ['0123456789abcdef0123456789abcdef\n', `${awaited.token}x`, 'short\n']) {
    const socket = connect({ path: channels.path });
    socket.on('error', () => undefined);
    socket.end(greeting);
    await once(socket, 'close');
  }
  assert.equal(handedOver.length, 0);
  // The right token still works, and what follows it is the caller's.
  const socket = connect({ path: channels.path });
  socket.write(`${awaited.token}\nafter the token`);
  const accepted = await awaited.connection;
  const [chunk] = (await once(accepted, 'data')) as [Buffer];
  assert.equal(chunk.toString(), 'after the token');
  socket.destroy();
  accepted.destroy();
  // A cancelled token is not awaited any more.
  const cancelled = channels.expect();
  cancelled.cancel();
  await assert.rejects(cancelled.connection, /ended before its channel connected/);
});

test('the channel socket\'s directory names its process; a new one removes those of processes that are gone', async () => {
  // A process that has exited: its directory is what a SIGKILLed agent leaves behind.
  const gone = spawn('true');
  await once(gone, 'exit');
  const stale = await mkdtemp(join(tmpdir(), `bosun-launch-${gone.pid}-`));
  const live = await mkdtemp(join(tmpdir(), `bosun-launch-${process.ppid}-`));
  const foreign = await mkdtemp(join(tmpdir(), 'bosun-launchpad-'));
  try {
    const channels = new LaunchChannels();
    assert.match(channels.path, new RegExp(`/bosun-launch-${process.pid}-[^/]+/channels\\.sock$`));
    await assert.rejects(readdir(stale), { code: 'ENOENT' });
    assert.deepEqual(await readdir(live), []);
    assert.deepEqual(await readdir(foreign), []);
  } finally {
    await Promise.all([stale, live, foreign].map((dir) => rm(dir, { recursive: true, force: true })));
  }
});
