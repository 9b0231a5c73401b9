// The host command helper: a small Node process of its own that starts the node agent's host processes
// (command-helper.ts says why). Requests arrive on stdin and results leave on stdout, one JSON object per line.
// A one-shot command runs to its end and answers with its output:
//   in:  {"id": 1, "argv": ["ip", "-batch", "-"], "stdin": "…", "cwd": "/optional"}
//   out: {"id": 1, "code": 0, "signal": null, "stdout": "…", "stderr": "…", "spawnError": {"code": "ENOENT", "message": "…"}?}
// A launched process (a container's setup) runs in its own session with each stdio descriptor on a connection
// to the agent's channel socket, opened with that descriptor's one-time token, or on /dev/null (null):
//   in:  {"id": 2, "launch": {"socket": "/path", "stdio": ["token", null, "token"], "env": {…}}, "argv": [...]}
//   out: {"id": 2, "pid": 1234}, then at its exit {"id": 2, "code": 0, "signal": null} (or "spawnError" instead
//        of both)
// One-shot commands run in this process's fixed environment. End-of-file on stdin (the agent let go of it, or
// died) ends the helper once the one-shot commands under way have reported; launched processes live on.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

// The agent is gone: nobody reads the results, but the commands under way still run to their end.
process.stdout.on('error', () => undefined);

function reply(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function spawnFailure(id, error) {
  reply({ id, code: null, signal: null, stdout: '', stderr: '', spawnError: { code: error.code, message: error.message } });
}

function run({ id, argv, stdin, cwd }) {
  const [program, ...args] = argv;
  let child;
  try {
    child = spawn(program, args, { env: process.env, stdio: ['pipe', 'pipe', 'pipe'], ...(cwd === undefined ? {} : { cwd }) });
  } catch (error) {
    // Invalid arguments (a NUL byte) throw instead of emitting 'error'.
    spawnFailure(id, error);
    return;
  }
  const stdout = [];
  const stderr = [];
  let spawnError;
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  // A tool that exits without reading its input makes this write fail (EPIPE); its exit status says why.
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin ?? '');
  child.once('error', (error) => (spawnError = { code: error.code, message: error.message }));
  child.once('close', (code, signal) =>
    reply({ id, code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), ...(spawnError ? { spawnError } : {}) }),
  );
}

/**
 * A connection to the agent's channel socket that has carried its token: written out before the process gets
 * it, so the agent reads the token before anything of the process's. Paused: this process never reads from it.
 */
function openChannel(path, token) {
  return new Promise((resolve, reject) => {
    const socket = connect({ path });
    socket.pause();
    socket.once('error', reject);
    socket.once('connect', () =>
      socket.write(`${token}\n`, (error) => {
        if (error) return reject(error);
        socket.off('error', reject).on('error', () => undefined);
        resolve(socket);
      }),
    );
  });
}

async function launch({ id, argv, cwd, launch: { socket, stdio, env } }) {
  const opened = stdio.map((token) => (token === null ? Promise.resolve(null) : openChannel(socket, token)));
  const settled = await Promise.allSettled(opened);
  const channels = settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : null));
  const closeChannels = () => channels.forEach((channel) => channel?.destroy());
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    closeChannels();
    spawnFailure(id, { code: failed.reason.code, message: `cannot connect the process's stdio to the agent: ${failed.reason.message}` });
    return;
  }
  const [program, ...args] = argv;
  let child;
  try {
    // Its own session: the agent's terminal signals (Ctrl-C) are not the process's, and it leads its group.
    child = spawn(program, args, { env, stdio: channels.map((channel) => channel ?? 'ignore'), detached: true, ...(cwd === undefined ? {} : { cwd }) });
  } catch (error) {
    closeChannels();
    spawnFailure(id, error);
    return;
  }
  // The process has its own copies; the agent holds the other ends.
  closeChannels();
  if (child.pid === undefined) {
    child.once('error', (error) => spawnFailure(id, error));
    return;
  }
  reply({ id, pid: child.pid });
  child.once('exit', (code, signal) => reply({ id, code, signal }));
  // A launched process does not keep this helper: once the agent is gone, nobody would hear of its exit.
  child.unref();
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const request = JSON.parse(line);
  if (request.launch === undefined) run(request);
  else void launch(request);
});
