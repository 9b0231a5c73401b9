// The official Python client (Debian's python3-kubernetes, installed by .ci/run) against the embedded server:
// CRUD, patches, watches, paging, dynamic discovery and server-side apply (python/conformance.py). Without the
// package the test fails and says what to install: CI always has it, so a skip would hide a broken CI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { TestServer } from '../helpers/api-server.ts';
import { startConformanceServer } from '../apiserver/conformance/support.ts';

const suite = join(import.meta.dirname, 'python', 'conformance.py');
// Debian's interpreter, where python3-kubernetes installs (a pyenv or venv python3 earlier on PATH lacks it).
const python = '/usr/bin/python3';

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

let server: TestServer;
before(async () => {
  server = await startConformanceServer();
});
after(async () => {
  await server.close();
});

test('the official Python client passes the conformance suite', async () => {
  const probe = await run(python, ['-c', 'import kubernetes; print(kubernetes.__version__)'], process.env).catch((error: Error) => ({ code: null, output: error.message }));
  assert.equal(
    probe.code,
    0,
    `the Python suite needs ${python} with the kubernetes package: run \`apt-get update && apt-get install -y python3-kubernetes\` (.ci/run does); ${python} said: ${probe.output}`,
  );
  const { code, output } = await run(python, [suite], { ...process.env, KUBECONFIG: server.kubeconfigFile, BOSUN_NAMESPACE: 'python-client' });
  assert.equal(code, 0, `python-kubernetes ${probe.output.trim()}:\n${output}`);
  // Every case ran: a renamed or dropped method would otherwise pass silently.
  for (const name of ['crud', 'secret_string_data_reads_back_as_data', 'patches', 'watch', 'paging', 'dynamic_discovery', 'server_side_apply']) {
    assert.match(output, new RegExp(`^test_${name} \\(.*\\) \\.\\.\\. ok$`, 'm'), output);
  }
});
