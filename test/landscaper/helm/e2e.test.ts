// The helm deployer on `bosun up`, driven with real kubectl as a user would: upstream's integration chart 01 in
// real-Helm mode (deploy, update to 01_updated, export, delete; `bosun helm list` and history see the release)
// and the guided tour's hello-world in helm-free mode, into the cluster `bosun up` itself serves; and
// examples/landscaper/helm-chart's README as a user runs it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { eventually } from '../../helpers/api-server.ts';
import { deleteItem, finishedJob } from '../deploy-item-jobs.ts';
import { bin, runToEnd } from '../../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from '../../node/e2e/bosun-up.ts';
import { readmeLines, root, runLine, shellIn } from '../../docs/shell-blocks.ts';

const TESTDATA = join(import.meta.dirname, 'testdata');
let up: BosunUp;

const pack = (dir: string): string => execFileSync('tar', ['-C', dirname(dir), '-czf', '-', basename(dir)]).toString('base64');

before(async () => {
  up = await startBosunUp();
  await eventually(async () => (await up.kubectl(['get', 'context', 'default', '-n', 'default'])).code === 0, 60_000, 'the default Context');
  // A Target for the cluster bosun up serves: its own kubeconfig.
  const kubeconfig = readFileSync(join(up.dataDir, 'kubeconfig'), 'utf8');
  await up.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'self', namespace: 'default' }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig } } }));
});

after(async () => {
  await up?.close();
});

function item(name: string, config: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'DeployItem',
    metadata: { name, namespace: 'default', annotations: { 'landscaper.gardener.cloud/operation': 'test-reconcile' }, finalizers: ['finalizer.landscaper.gardener.cloud'] },
    spec: { type: 'landscaper.gardener.cloud/helm', target: { name: 'self', namespace: 'default' }, config: { apiVersion: 'helm.deployer.landscaper.gardener.cloud/v1alpha1', kind: 'ProviderConfiguration', ...config } },
  });
}

const bosunHelm = async (args: string[]): Promise<string> => {
  const run = await runToEnd(process.execPath, [bin, 'helm', ...args, '--kubeconfig', join(up.dataDir, 'kubeconfig')]);
  assert.equal(run.code, 0, run.stderr);
  return run.stdout;
};

test('real-Helm mode: upstream 01 deploys, updates to 01_updated, exports, and uninstalls on delete', async () => {
  const raw = readFileSync(join(TESTDATA, 'test/integration/deployers/helmdeployer/testdata/01/chart.tgz')).toString('base64');
  const exports = { exports: [{ key: 'value', jsonPath: '.data.key', fromResource: { apiVersion: 'v1', kind: 'ConfigMap', name: 'mychart-configmap', namespace: 'helm-real' } }] };
  await up.ok(['apply', '-f', '-'], item('real', { name: 'test', namespace: 'helm-real', createNamespace: true, chart: { archive: { raw } }, exports }));
  const first = await finishedJob(up, 'real');
  assert.equal(first.phase, 'Succeeded', JSON.stringify(first));
  assert.equal(await up.ok(['get', 'configmap', 'mychart-configmap', '-n', 'helm-real', '-o', 'jsonpath={.data.key}']), 'value');
  assert.match(await bosunHelm(['list', '-n', 'helm-real']), /\ntest\s+\thelm-real\s*\t1\s+\t.*deployed\s*\ttest-chart-v0\.1\.0/);

  const updated = pack(join(TESTDATA, 'test/integration/deployers/helmdeployer/testdata/01_updated/chart'));
  await up.ok(['patch', 'di', 'real', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { config: { chart: { archive: { raw: updated } } } } })]);
  await up.ok(['annotate', 'di', 'real', '-n', 'default', '--overwrite', 'landscaper.gardener.cloud/operation=test-reconcile']);
  const second = await finishedJob(up, 'real', first.jobID);
  assert.equal(second.phase, 'Succeeded', JSON.stringify(second));
  assert.equal(await up.ok(['get', 'configmap', 'mychart-configmap', '-n', 'helm-real', '-o', 'jsonpath={.data.key}']), 'value_updated');
  const exported = JSON.parse(Buffer.from(await up.ok(['get', 'secret', 'real-export', '-n', 'default', '-o', 'jsonpath={.data.config}']), 'base64').toString('utf8')) as unknown;
  assert.deepEqual(exported, { value: 'value_updated' });
  assert.match(await bosunHelm(['history', 'test', '-n', 'helm-real']), /1\s+\t.*superseded[\s\S]*2\s+\t.*deployed/);

  await deleteItem(up, 'real');
  assert.equal((await bosunHelm(['list', '-n', 'helm-real'])).split('\n').filter(Boolean).length, 1, 'only the header: the release is gone');
  assert.notEqual((await up.kubectl(['get', 'configmap', 'mychart-configmap', '-n', 'helm-real'])).code, 0);
});

test('helm-free mode: the guided tour\'s hello-world deploys, updates with values, and deletes', async () => {
  const raw = readFileSync(join(TESTDATA, 'docs/guided-tour/hello-world/chart/hello-world-1.0.0.tgz')).toString('base64');
  await up.ok(['apply', '-f', '-'], item('free', { helmDeployment: false, name: 'hello', namespace: 'helm-free', createNamespace: true, chart: { archive: { raw } } }));
  const first = await finishedJob(up, 'free');
  assert.equal(first.phase, 'Succeeded', JSON.stringify(first));
  assert.equal(await up.ok(['get', 'configmap', 'hello', '-n', 'helm-free', '-o', 'jsonpath={.data.testData}']), 'default-data');
  await up.ok(['patch', 'di', 'free', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { config: { values: { testData: 'patched' } } } })]);
  await up.ok(['annotate', 'di', 'free', '-n', 'default', '--overwrite', 'landscaper.gardener.cloud/operation=test-reconcile']);
  const second = await finishedJob(up, 'free', first.jobID);
  assert.equal(second.phase, 'Succeeded', JSON.stringify(second));
  assert.equal(await up.ok(['get', 'configmap', 'hello', '-n', 'helm-free', '-o', 'jsonpath={.data.testData}']), 'patched');
  await deleteItem(up, 'free');
  assert.notEqual((await up.kubectl(['get', 'configmap', 'hello', '-n', 'helm-free'])).code, 0);
});

test('examples/landscaper/helm-chart: the README runs as written', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-helm-example-'));
  try {
    symlinkSync(up.dataDir, join(dir, '.bosun'));
    symlinkSync(join(root, 'examples'), join(dir, 'examples'));
    const sh = shellIn(dir, join(dir, '.bosun', 'kubeconfig'));
    const lines = readmeLines('examples/landscaper/helm-chart/README.md');
    for (const line of lines) {
      // After the upgrade: Helm's history of the release, as helm prints it.
      if (line.startsWith('kubectl delete inst greeter')) {
        const history = await sh.run('bosun helm history greeter -n default');
        assert.match(history, /^1\s.*\ssuperseded\s+greeter-0\.1\.0\s/m);
        assert.match(history, /^2\s.*\sdeployed\s+greeter-0\.1\.0\s/m);
      }
      const out = line.startsWith('kubectl run probe') ? await sh.run(line) : undefined;
      if (out === undefined) await runLine(sh, line);
      else assert.match(out, /Hello from a Helm chart on bosun/);
    }
    // Uninstalled: no revision Secret, no Deployment.
    assert.equal(await sh.run('kubectl get secrets,deployments -n default -l owner=helm,name=greeter -o name; kubectl get deployment greeter -n default --ignore-not-found -o name'), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
