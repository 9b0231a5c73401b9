// `bosun helm install|upgrade|list|history|uninstall` as a user runs them, beside the real helm binary on the
// same cluster: each sees the other's releases.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { bin, runToEnd } from '../helpers/bosun-process.ts';
import { helmBinary } from '../helpers/helm-binary.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

const HELLO = join(import.meta.dirname, '..', 'landscaper', 'helm', 'testdata', 'docs', 'guided-tour', 'hello-world', 'chart', 'hello-world');

let server: TestServer;
let home: string;

const bosun = async (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> => runToEnd(process.execPath, [bin, 'helm', ...args, '--kubeconfig', server.kubeconfigFile]);
async function helm(args: string[]): Promise<string> {
  const env = { ...process.env, KUBECONFIG: server.kubeconfigFile, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  return (await promisify(execFile)(helmBinary(), args, { env, encoding: 'utf8' })).stdout;
}

before(async () => {
  server = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'bosun-helm-cli-'));
});
after(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

test('bosun helm install, upgrade, list, history and uninstall, with real helm reading the same releases', async () => {
  const values = join(home, 'values.yaml');
  writeFileSync(values, 'testData: from a file\n');
  const installed = await bosun(['install', 'tour', HELLO, '-n', 'cli', '--create-namespace', '-f', values]);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /^NAME: tour\nLAST DEPLOYED: \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\nNAMESPACE: cli\nSTATUS: deployed\nREVISION: 1\nTEST SUITE: None\n$/);
  assert.deepEqual(JSON.parse(await helm(['get', 'values', 'tour', '-n', 'cli', '-o', 'json'])), { testData: 'from a file' });

  const again = await bosun(['install', 'tour', HELLO, '-n', 'cli']);
  assert.equal(again.code, 1);
  assert.equal(again.stderr, 'Error: INSTALLATION FAILED: cannot re-use a name that is still in use\n');

  const upgraded = await bosun(['upgrade', 'tour', HELLO, '-n', 'cli', '--set', 'testData=set']);
  assert.equal(upgraded.code, 0, upgraded.stderr);
  assert.match(upgraded.stdout, /^Release "tour" has been upgraded\. Happy Helming!\n[\s\S]*REVISION: 2\n/);

  await helm(['install', 'byhelm', HELLO, '-n', 'cli']);
  const listed = await bosun(['list', '-n', 'cli', '-o', 'json']);
  assert.deepEqual((JSON.parse(listed.stdout) as { name: string; revision: string; status: string }[]).map((r) => `${r.name}:${r.revision}:${r.status}`), ['byhelm:1:deployed', 'tour:2:deployed']);
  const table = await bosun(['list', '-A']);
  assert.match(table.stdout, /^NAME\s+\tNAMESPACE\s*\tREVISION\s*\tUPDATED\s+\tSTATUS\s+\tCHART\s+\tAPP VERSION\nbyhelm/);

  const history = await bosun(['history', 'tour', '-n', 'cli']);
  assert.match(history.stdout, /^REVISION\s*\tUPDATED[^\n]*\n1\s+\t[^\n]*superseded\s*\thello-world-1\.0\.0[^\n]*Install complete\n2\s+\t[^\n]*deployed\s*\thello-world-1\.0\.0[^\n]*Upgrade complete\n$/);

  const removed = await bosun(['uninstall', 'tour', '-n', 'cli']);
  assert.equal(removed.stdout, 'release "tour" uninstalled\n');
  assert.equal((await helm(['list', '-n', 'cli', '-q'])).trim(), 'byhelm');
  const missing = await bosun(['history', 'tour', '-n', 'cli']);
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, 'Error: release: not found\n');
});
