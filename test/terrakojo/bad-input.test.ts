// Bad input to the terrakojo family, as a user meets it, with the family registered as `bosun up` does: each
// gets a clear status condition, Event or refusal (read through the API, and with real kubectl for some), and
// the controllers keep going: after each one, a good Repository in another namespace still syncs and runs to a
// successful check run.
//
// The webhook's bad input is in test/terrakojo/webhook-server/webhook-server.test.ts: "a bad or missing signature
// is 401 and writes nothing" and "malformed bodies are 400 or 415 with a clear message; a form-encoded payload is
// accepted".
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, test } from 'node:test';
import { secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { TerrakojoCondition } from '../../src/terrakojo/api/types.ts';
import { OWNER, shellJob, TOKEN, startFamily, template, type FamilyHarness } from './family-harness.ts';

let h: FamilyHarness;
let goodRuns = 0;

before(async () => {
  h = await startFamily();
});
after(() => h.close());

const readyOf = (ns: string, name: string): TerrakojoCondition | undefined => h.repositories.store.get(`${ns}/${name}`)?.status?.conditions?.find((c) => c.type === 'Ready');
const warning = (ns: string, name: string, reason: string) => h.events(ns, name).find((e) => e.type === 'Warning' && e.reason === reason);
const workflowIn = (ns: string, name: string) => h.workflows.store.get(`${ns}/${name}`);

async function kubectlOk(args: string[]): Promise<string> {
  const r = await h.kubectl(args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** The controllers keep going: a fresh Repository in a namespace of its own syncs and a push runs to success. */
async function aGoodRepositoryStillRuns(): Promise<void> {
  const ns = `good-${++goodRuns}`;
  await h.repositoryIn(ns, ns, [template('plan', ['infra/**/*.tf'])]);
  await h.until(() => readyOf(ns, ns)?.reason === 'Synced', `${ns} synced`);
  const sha = h.gh.commit(OWNER, ns, { branch: 'main', files: ['infra/app/main.tf'] });
  await h.poke(ns, ns);
  const workflow = () => h.workflows.list().find((w) => w.metadata.namespace === ns && w.spec.sha === sha);
  await h.until(() => h.jobs.store.get(`${ns}/${workflow()?.metadata.name ?? ''}`) !== undefined, `${ns}: the push's Job`);
  await h.finishJob(ns, workflow()?.metadata.name ?? '', 'succeeded');
  await h.untilGitHub(() => h.checkRuns(ns).some((r) => r.head_sha === sha && r.conclusion === 'success'), `${ns}: a successful check run`);
}

test('a Secret with neither token nor App fields: Ready False NoCredentials and a Warning Event, shown by kubectl; fixed by editing the Secret', async () => {
  await h.repositoryIn('no-creds', 'infra', [], { secret: { note: 'nothing GitHub can use' } });
  await h.until(() => readyOf('no-creds', 'infra')?.reason === 'NoCredentials' && warning('no-creds', 'infra', 'NoCredentials') !== undefined, 'NoCredentials condition and Event');
  const ready = readyOf('no-creds', 'infra');
  assert.equal(ready?.status, 'False');
  assert.match(ready?.message ?? '', /Secret no-creds\/github gives no usable GitHub credentials: .*expected "token"/);
  assert.equal(warning('no-creds', 'infra', 'NoCredentials')?.message, ready?.message);

  const jsonpath = await kubectlOk(['get', 'repository', 'infra', '-n', 'no-creds', '-o', 'jsonpath={.status.synced} {.status.conditions[?(@.type=="Ready")].reason}']);
  assert.equal(jsonpath, 'false NoCredentials');
  const described = await kubectlOk(['describe', 'repository', 'infra', '-n', 'no-creds']);
  assert.match(described, /Warning\s+NoCredentials\s+.*gives no usable GitHub credentials/);

  await aGoodRepositoryStillRuns();
  await h.client.patch(secretsResource, 'github', { stringData: { token: TOKEN } }, { type: 'merge', namespace: 'no-creds' });
  await h.until(() => readyOf('no-creds', 'infra')?.reason === 'Synced', 'Synced once the Secret is fixed');
});

test('a malformed App private key: Ready False InvalidPrivateKey naming the key, never its contents', async () => {
  const truncated = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString().slice(0, 300);
  await h.repositoryIn('bad-key', 'bad-key', [], { secret: { 'github-app-id': '12', 'github-installation-id': '34', 'github-private-key': truncated } });
  await h.until(() => readyOf('bad-key', 'bad-key')?.reason === 'InvalidPrivateKey' && warning('bad-key', 'bad-key', 'InvalidPrivateKey') !== undefined, 'InvalidPrivateKey condition and Event');
  const ready = readyOf('bad-key', 'bad-key');
  assert.equal(ready?.status, 'False');
  assert.match(ready?.message ?? '', /Secret bad-key\/github .*github-private-key/);
  const keyBody = truncated.split('\n')[1] ?? '';
  assert.ok(keyBody.length > 20 && !(ready?.message ?? '').includes(keyBody.slice(0, 20)), 'no key material in the condition');
  const described = await kubectlOk(['describe', 'repository', 'bad-key', '-n', 'bad-key']);
  assert.match(described, /Warning\s+InvalidPrivateKey\s+/);
  assert.ok(!described.includes(keyBody.slice(0, 20)), 'no key material in kubectl describe');
  await aGoodRepositoryStillRuns();
});

test('a Workflow naming a template that does not exist: Failed with TemplateNotFound, a Warning Event and a failed check run', async () => {
  // A pull request keeps its Branch while its Workflow runs: the user's Workflow names that Branch.
  await h.repositoryIn('unknown-tpl', 'unknown-tpl', [template('plan', ['infra/**/*.tf'])]);
  const sha = h.gh.commit(OWNER, 'unknown-tpl', { branch: 'feature/x', files: ['infra/app/main.tf'] });
  h.gh.openPullRequest(OWNER, 'unknown-tpl', { head: 'feature/x', base: 'main' });
  await h.poke('unknown-tpl', 'unknown-tpl');
  await h.until(() => h.branches.list().some((b) => b.metadata.namespace === 'unknown-tpl' && b.spec.sha === sha), 'the PR Branch');
  const branch = h.branches.list().find((b) => b.metadata.namespace === 'unknown-tpl' && b.spec.sha === sha);
  const applied = await h.apply({
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name: 'lint-by-hand', namespace: 'unknown-tpl' },
    spec: { owner: OWNER, repository: 'unknown-tpl', branch: branch?.metadata.name ?? '', sha, template: 'no-such-template', path: 'infra/app' },
  });
  assert.equal(applied.code, 0, applied.stderr);
  await h.until(() => workflowIn('unknown-tpl', 'lint-by-hand')?.status?.phase === 'Failed' && warning('unknown-tpl', 'lint-by-hand', 'TemplateNotFound') !== undefined, 'Failed with TemplateNotFound');
  const shown = await kubectlOk(['get', 'workflow', 'lint-by-hand', '-n', 'unknown-tpl', '-o', 'jsonpath={.status.phase} {.status.conditions[?(@.type=="JobStatus")].reason}']);
  assert.equal(shown, 'Failed TemplateNotFound');
  const run = h.checkRuns('unknown-tpl').find((r) => r.id === workflowIn('unknown-tpl', 'lint-by-hand')?.status?.checkRunID);
  assert.deepEqual([run?.status, run?.conclusion], ['completed', 'failure']);
  assert.match(run?.output?.summary ?? '', /WorkflowTemplate unknown-tpl\/no-such-template not found/);
  assert.equal(h.jobs.store.get('unknown-tpl/lint-by-hand'), undefined, 'no Job');
  await aGoodRepositoryStillRuns();
});

test('a template whose JobSpec the API server refuses ends its Workflows Failed with a failed check run; the valid template beside it runs', async () => {
  const spaced = template('spaced', ['infra/**/*.tf'], shellJob('Plan Step'));
  const negative = template('negative', ['infra/**/*.tf'], { ...shellJob('plan'), backoffLimit: -1 });
  await h.repositoryIn('bad-job', 'bad-job', [spaced, negative, template('plan', ['infra/**/*.tf'])]);
  const sha = h.gh.commit(OWNER, 'bad-job', { branch: 'feature/y', files: ['infra/app/main.tf'] });
  h.gh.openPullRequest(OWNER, 'bad-job', { head: 'feature/y', base: 'main' });
  await h.poke('bad-job', 'bad-job');
  const ofTemplate = (name: string) => h.workflows.list().find((w) => w.metadata.namespace === 'bad-job' && w.spec.sha === sha && w.spec.template === name);
  // The recorder sends Events off the reconcile's path: one may reach the cache after the phase it explains.
  const warned = (name: string) => warning('bad-job', ofTemplate(name)?.metadata.name ?? '', 'JobCreateFailed') !== undefined;
  await h.until(
    () => ofTemplate('spaced')?.status?.phase === 'Failed' && ofTemplate('negative')?.status?.phase === 'Failed' && ofTemplate('plan')?.status?.phase === 'Pending' && warned('spaced') && warned('negative'),
    'both bad templates Failed with a Warning Event, the good one Pending',
  );
  for (const [name, field] of [['spaced', /Plan Step/], ['negative', /backoffLimit/]] as const) {
    const workflow = ofTemplate(name);
    const condition = workflow?.status?.conditions?.find((c) => c.type === 'JobStatus');
    assert.deepEqual([condition?.status, condition?.reason], ['False', 'JobCreateFailed'], name);
    assert.match(condition?.message ?? '', field);
    assert.ok(warning('bad-job', workflow?.metadata.name ?? '', 'JobCreateFailed'), `${name}: a Warning Event`);
    const run = h.checkRuns('bad-job').find((r) => r.id === workflow?.status?.checkRunID);
    assert.deepEqual([run?.status, run?.conclusion], ['completed', 'failure'], name);
    assert.match(run?.output?.summary ?? '', /could not be created/);
  }
  assert.ok(h.jobs.store.get(`bad-job/${ofTemplate('plan')?.metadata.name ?? ''}`), 'the valid template\'s Job');
  await aGoodRepositoryStillRuns();
});

test('a Workflow name over 63 characters is refused by the CRD\'s rule, with its message', async () => {
  const name = `w${'x'.repeat(63)}`;
  const r = await h.apply({
    apiVersion: 'terrakojo.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name, namespace: 'default' },
    spec: { owner: OWNER, repository: 'infra', branch: 'any', sha: 'a'.repeat(40), template: 'plan', path: 'infra/app' },
  });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, new RegExp(`Workflow "${name}" is invalid: .*metadata\\.name must be 63 characters or less so derived Job names remain <= 63`));
  assert.equal(workflowIn('default', name), undefined);
  await aGoodRepositoryStillRuns();
});
