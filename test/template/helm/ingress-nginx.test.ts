// The ingress-nginx chart of upstream Landscaper's tutorial (test/fixtures/helm/ingress-nginx, 4.0.17) renders
// byte for byte as the real `helm template` renders it: the tutorial's values and each of the chart's own
// ci/*.yaml values files, at two Kubernetes versions, both run here with the same arguments.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { helmBinary } from '../../helpers/helm-binary.ts';
import { runBosunHelm } from './run-bosun-helm.ts';

const CHART = join(import.meta.dirname, '..', '..', 'fixtures', 'helm', 'ingress-nginx');
const home = mkdtempSync(join(tmpdir(), 'bosun-ingress-nginx-'));

// The helm deploy item's values in upstream's tutorial (local-ingress-nginx/blueprint/blueprint.yaml).
const tutorialValues = join(home, 'tutorial-values.yaml');
writeFileSync(tutorialValues, `controller:
  livenessProbe:
    failureThreshold: 4
    initialDelaySeconds: 30
    periodSeconds: 10
    successThreshold: 1
    timeoutSeconds: 5
`);

function realHelm(args: string[]): { stdout: string; stderr: string } {
  const env = { ...process.env, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  const r = spawnSync(helmBinary(), args, { env, encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr };
}

const valuesFiles = [tutorialValues, ...readdirSync(join(CHART, 'ci')).sort().map((f) => join(CHART, 'ci', f))];

for (const values of valuesFiles) {
  for (const kubeVersion of ['1.20.0', '1.30.0']) {
    test(`ingress-nginx with ${values === tutorialValues ? "the tutorial's values" : `ci/${values.split('/').pop()}`} on ${kubeVersion}`, async () => {
      const args = ['template', 'test', CHART, '--namespace', 'ingress', '--kube-version', kubeVersion, '-f', values,
        '--api-versions', 'monitoring.coreos.com/v1', '--include-crds'];
      const want = realHelm(args);
      assert.equal(want.stderr, '');
      assert.match(want.stdout, /kind: Deployment|kind: DaemonSet/);
      const got = await runBosunHelm(args, home);
      assert.equal(got.stderr, '');
      assert.equal(got.stdout, want.stdout);
    });
  }
}
