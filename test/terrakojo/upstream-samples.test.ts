// Upstream terrakojo's config/samples (test/terrakojo/upstream/, byte for byte; README.md says from where) apply
// unchanged with real kubectl: to the embedded API server with Bosun's CRDs and nothing else, read back with the
// print columns; then with the terrakojo family running against a GitHub test server holding eeekcct/terrakojo,
// where the sample Repository's missing Secret is what its condition says, and the sample template runs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { loadBosunCrds } from '../../src/crds/index.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import { startFamily, TOKEN, type FamilyHarness } from './family-harness.ts';

const SAMPLES = fileURLToPath(new URL('./upstream/', import.meta.url));
const FILES = ['v1alpha1_repository.yaml', 'v1alpha1_workflowtemplate.yaml', 'v1alpha1_branch.yaml', 'v1alpha1_workflow.yaml'];
const NS = 'samples';
const SAMPLE_SHA = '0123456789abcdef0123456789abcdef01234567';

async function ok(kubectl: Kubectl, args: string[]): Promise<string> {
  const r = await kubectl(args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `kubectl get` output as rows of cells (the header first); print columns are separated by 2+ spaces. */
function table(out: string): string[][] {
  return out.trimEnd().split('\n').map((line) => line.trim().split(/\s{2,}/));
}

describe('upstream samples on the API server alone', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  before(async () => {
    server = await startTestServer({ crds: loadBosunCrds(), onError: () => {} });
    kubectl = kubectlFor(server.kubeconfigFile);
    await ok(kubectl, ['create', 'namespace', NS]);
  });
  after(() => server.close());

  test('kubectl apply -k of the samples, then -f of each file: accepted unchanged, stored as written', async () => {
    assert.equal(await ok(kubectl, ['apply', '-k', SAMPLES, '-n', NS]), 'repository.terrakojo.io/repository-sample created\nworkflowtemplate.terrakojo.io/workflowtemplate-sample created\n');
    const applied = await Promise.all(FILES.map((file) => ok(kubectl, ['apply', '-n', NS, '-f', join(SAMPLES, file)])));
    assert.deepEqual(applied, [
      'repository.terrakojo.io/repository-sample unchanged\n',
      'workflowtemplate.terrakojo.io/workflowtemplate-sample unchanged\n',
      'branch.terrakojo.io/branch-sample created\n',
      'workflow.terrakojo.io/workflow-sample created\n',
    ]);
    for (const file of FILES) {
      const sample = parse(readFileSync(join(SAMPLES, file), 'utf8')) as { kind: string; metadata: { name: string; labels: Record<string, string> }; spec: unknown };
      const stored = JSON.parse(await ok(kubectl, ['get', sample.kind.toLowerCase(), sample.metadata.name, '-n', NS, '-o', 'json'])) as typeof sample;
      assert.deepEqual(stored.spec, sample.spec, file);
      assert.deepEqual(stored.metadata.labels, sample.metadata.labels, file);
    }
  });

  test('kubectl get shows the print columns, -o wide the priority ones too', async () => {
    assert.deepEqual(table(await ok(kubectl, ['get', 'repositories', '-n', NS])), [['NAME', 'OWNER', 'REPO', 'LASTHEAD'], ['repository-sample', 'eeekcct', 'terrakojo']]);
    assert.deepEqual(table(await ok(kubectl, ['get', 'repositories', '-n', NS, '-o', 'wide'])), [
      ['NAME', 'OWNER', 'REPO', 'TYPE', 'DEFAULT', 'SYNCED', 'LASTHEAD'],
      ['repository-sample', 'eeekcct', 'terrakojo', 'github', 'main'],
    ]);
    assert.deepEqual(table(await ok(kubectl, ['get', 'workflowtemplates', '-n', NS])), [['NAME', 'DISPLAYNAME', 'PATHS'], ['workflowtemplate-sample', 'Sample WorkflowTemplate', '["**/*.tf"]']]);
    assert.deepEqual(table(await ok(kubectl, ['get', 'workflowtemplates', '-n', NS, '-o', 'wide']))[0], ['NAME', 'DISPLAYNAME', 'PATHS', 'UNIT']);
    assert.deepEqual(table(await ok(kubectl, ['get', 'branches', '-n', NS])), [['NAME', 'OWNER', 'REPO', 'REF', 'SHA', 'PR'], ['branch-sample', 'eeekcct', 'terrakojo', 'feature-auth', SAMPLE_SHA, '123']]);
    assert.deepEqual(table(await ok(kubectl, ['get', 'workflows', '-n', NS, '-o', 'wide'])), [['NAME', 'PHASE', 'TEMPLATE', 'BRANCH', 'SHA'], ['workflow-sample', 'workflowtemplate-sample', 'branch-sample', SAMPLE_SHA]]);
  });
});

describe('upstream samples with the terrakojo family running', () => {
  let h: FamilyHarness;
  let sha: string;
  before(async () => {
    h = await startFamily();
    h.gh.createRepository('eeekcct', 'terrakojo', { defaultBranch: 'main' });
    sha = h.gh.commit('eeekcct', 'terrakojo', { branch: 'main', files: ['infra/main.tf'] });
    await ok(h.kubectl, ['create', 'namespace', NS]);
  });
  after(() => h.close());

  const ready = () => h.repositories.store.get(`${NS}/repository-sample`)?.status?.conditions?.find((c) => c.type === 'Ready');
  const warnings = (name: string, reason: string) => h.events(NS, name).filter((e) => e.type === 'Warning' && e.reason === reason);

  test('the sample Repository names a Secret the samples do not hold: Ready False SecretNotFound, until it is created', async () => {
    await ok(h.kubectl, ['apply', '-k', SAMPLES, '-n', NS]);
    await h.until(() => ready()?.reason === 'SecretNotFound' && warnings('repository-sample', 'SecretNotFound').length > 0, 'SecretNotFound');
    assert.equal(ready()?.status, 'False');
    assert.equal(ready()?.message, 'Repository samples/repository-sample (eeekcct/terrakojo): Secret samples/github-secrets gives no usable GitHub credentials: not found');
    assert.equal(await ok(h.kubectl, ['get', 'repository', 'repository-sample', '-n', NS, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].reason}']), 'SecretNotFound');
    assert.match(await ok(h.kubectl, ['describe', 'repository', 'repository-sample', '-n', NS]), /Warning\s+SecretNotFound\s+.*Secret samples\/github-secrets gives no usable GitHub credentials/);
    assert.equal(h.gh.calls.length, 0);

    await ok(h.kubectl, ['create', 'secret', 'generic', 'github-secrets', '-n', NS, `--from-literal=token=${TOKEN}`]);
    await h.until(() => ready()?.reason === 'Synced', 'Synced once the Secret exists');
    assert.deepEqual(table(await ok(h.kubectl, ['get', 'repositories', '-n', NS, '-o', 'wide'])).at(1), ['repository-sample', 'eeekcct', 'terrakojo', 'github', 'main', 'true', sha]);
  });

  test('the sample WorkflowTemplate runs the head commit\'s folder: its Job as written, its check run to success', async () => {
    const workflow = () => h.workflows.list().find((w) => w.metadata.namespace === NS && w.spec.sha === sha);
    await h.until(() => h.jobs.store.get(`${NS}/${workflow()?.metadata.name ?? ''}`) !== undefined, 'the sample template\'s Job');
    const name = workflow()?.metadata.name ?? '';
    assert.deepEqual([workflow()?.spec.template, workflow()?.spec.path], ['workflowtemplate-sample', 'infra']);
    const container = h.jobs.store.get(`${NS}/${name}`)?.spec.template?.spec?.containers?.[0];
    assert.deepEqual([container?.name, container?.image, container?.command], ['build-step', 'busybox:latest', ['echo', 'Hello from Terrakojo!']]);
    await h.finishJob(NS, name, 'succeeded');
    await h.untilGitHub(() => h.gh.checkRuns('eeekcct', 'terrakojo').some((r) => r.head_sha === sha && r.conclusion === 'success'), 'the check run completed');
    assert.deepEqual(h.gh.checkRuns('eeekcct', 'terrakojo').map((r) => [r.name, r.status, r.conclusion]), [['Sample WorkflowTemplate(infra)', 'completed', 'success']]);
  });

  test('the reference-only Branch and Workflow samples name a PR and a commit GitHub lacks: each says so, nothing runs', async () => {
    await ok(h.kubectl, ['apply', '-n', NS, '-f', join(SAMPLES, 'v1alpha1_branch.yaml'), '-f', join(SAMPLES, 'v1alpha1_workflow.yaml')]);
    const branchReady = () => h.branches.store.get(`${NS}/branch-sample`)?.status?.conditions?.find((c) => c.type === 'WorkflowReady');
    await h.until(() => branchReady()?.reason === 'ChangedFilesFailed', 'the Branch sample\'s condition');
    assert.match(branchReady()?.message ?? '', /^Branch samples\/branch-sample \(eeekcct\/terrakojo feature-auth\): GitHub pullRequestFiles for eeekcct\/terrakojo failed: 404/);
    assert.match(await ok(h.kubectl, ['describe', 'branch', 'branch-sample', '-n', NS]), /Warning\s+ChangedFilesFailed\s+/);
    // The Workflow sample's commit is unknown to GitHub (422): no check run can be made for it, and it says so.
    await h.until(() => warnings('workflow-sample', 'CheckRunCreateFailed').length > 0, 'the Workflow sample\'s Event');
    assert.match(warnings('workflow-sample', 'CheckRunCreateFailed')[0]?.message ?? '', /^GitHub \w+ for eeekcct\/terrakojo failed: 422 No commit found for SHA/);
    assert.equal(h.jobs.store.get(`${NS}/workflow-sample`), undefined);
    assert.ok(h.gh.checkRuns('eeekcct', 'terrakojo').every((r) => r.head_sha !== SAMPLE_SHA));
    assert.equal(h.workflows.store.get(`${NS}/workflow-sample`)?.status?.phase, undefined);
  });
});
