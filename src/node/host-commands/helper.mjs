// The host command helper: a small Node process of its own that starts the node agent's one-shot host commands
// (command-helper.ts says why). Requests arrive on stdin and results leave on stdout, one JSON object per line:
//   in:  {"id": 1, "argv": ["ip", "-batch", "-"], "stdin": "…", "cwd": "/optional"}
//   out: {"id": 1, "code": 0, "signal": null, "stdout": "…", "stderr": "…", "spawnError": {"code": "ENOENT", "message": "…"}?}
// Every command runs at once, in this process's fixed environment. End-of-file on stdin (the agent let go of it,
// or died) ends the helper once the commands under way have reported.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// The agent is gone: nobody reads the results, but the commands under way still run to their end.
process.stdout.on('error', () => undefined);

function reply(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function run({ id, argv, stdin, cwd }) {
  const [program, ...args] = argv;
  let child;
  try {
    child = spawn(program, args, { env: process.env, stdio: ['pipe', 'pipe', 'pipe'], ...(cwd === undefined ? {} : { cwd }) });
  } catch (error) {
    // Invalid arguments (a NUL byte) throw instead of emitting 'error'.
    reply({ id, code: null, signal: null, stdout: '', stderr: '', spawnError: { code: error.code, message: error.message } });
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

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => run(JSON.parse(line)));
