// `bosun tree` without --kubeconfig (issue 14, finding 16): kubectl's file ($KUBECONFIG, else ~/.kube/config)
// when it exists, else the kubeconfig of the `bosun up` in the current directory, said on stderr; a clear
// error when there is neither. The CLI runs as a user runs it, against a real test server.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { bin, runToEnd, type Finished } from '../helpers/bosun-process.ts';

const NS = 'shop';

/** `bosun tree installation NAME` in cwd with HOME set and no $KUBECONFIG (async: the test server runs in this process). */
function tree(name: string, cwd: string, home: string): Promise<Finished> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: '' };
  delete env['KUBECONFIG'];
  return runToEnd(process.execPath, [bin, 'tree', 'installation', name], { cwd, env });
}

describe('bosun tree finds a kubeconfig', () => {
  let server: TestServer;
  let workdir: string;
  let emptyHome: string;
  before(async () => {
    server = await startTestServer({ crds: loadBosunCrds() });
    await server.json('/api/v1/namespaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: NS } }), expect: 201 });
    const installation = { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: { name: 'web', namespace: NS },
      spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': 'apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n' } } } } };
    await server.json(`/apis/landscaper.gardener.cloud/v1alpha1/namespaces/${NS}/installations`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(installation), expect: 201,
    });
    // A directory where `bosun up` runs: its kubeconfig in ./.bosun, with the context's namespace the default.
    workdir = mkdtempSync(join(tmpdir(), 'bosun-tree-cwd-'));
    mkdirSync(join(workdir, '.bosun'));
    writeFileSync(join(workdir, '.bosun', 'kubeconfig'), withNamespace(readFileSync(server.kubeconfigFile, 'utf8'), NS), { mode: 0o600 });
    emptyHome = mkdtempSync(join(tmpdir(), 'bosun-tree-home-'));
  });
  after(async () => {
    await server.close();
  });

  test('without $KUBECONFIG or ~/.kube/config, it uses ./.bosun/kubeconfig and says so on stderr', async () => {
    const run = await tree('web', workdir, emptyHome);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, `bosun tree: no ~/.kube/config; using ${join(workdir, '.bosun', 'kubeconfig')} of the bosun up in this directory\n`);
    assert.equal(run.stdout, '[no phase]  Installation shop/web\n1 object: 1 no phase\n');
  });

  test('an existing ~/.kube/config wins, silently, as kubectl reads it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bosun-tree-home-'));
    mkdirSync(join(home, '.kube'));
    // The same server with the default namespace: the installation is not found there, so the output tells which file was read.
    writeFileSync(join(home, '.kube', 'config'), readFileSync(server.kubeconfigFile, 'utf8'), { mode: 0o600 });
    const run = await tree('web', workdir, home);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, 'not found: Installation default/web\n');
  });

  test('with no kubeconfig anywhere, the error names the missing file and what to do', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'bosun-tree-cwd-'));
    const run = await tree('web', elsewhere, emptyHome);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `bosun tree: kubeconfig ${join(emptyHome, '.kube', 'config')} does not exist and no bosun up runs in this directory (./.bosun/kubeconfig): give --kubeconfig\n`);
  });
});

function withNamespace(kubeconfig: string, namespace: string): string {
  const doc = parse(kubeconfig) as { contexts: { context: Record<string, unknown> }[] };
  for (const c of doc.contexts) c.context['namespace'] = namespace;
  return stringify(doc);
}
