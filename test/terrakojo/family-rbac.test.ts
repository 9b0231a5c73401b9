// The terrakojo family's declared RBAC against what its controllers really do, over a whole flow: a push through
// to check runs (one Job completed and its pod's log read, one Workflow deleted mid-run), a pull request running,
// then the Repository deleted. Every request of the controllers must be allowed by terrakojoFamily.rbac, and every
// rule it grants must have been used: least privilege, no verb the controllers do not use.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseRequestPath } from '../../src/apiserver/http/request-info.ts';
import { jobsResource } from '../../src/apimachinery/builtin-resources.ts';
import { repositoriesResource, workflowsResource } from '../../src/terrakojo/api/resources.ts';
import { terrakojoFamily } from '../../src/terrakojo/family.ts';
import { CONTROLLERS_USER_AGENT, OWNER, POD_LOG, startFamily, template, type FamilyHarness } from './family-harness.ts';

const NS = 'flow';
const REPO = 'infra';
let h: FamilyHarness;

before(async () => {
  h = await startFamily();
});
after(() => h.close());

const runsOn = (sha: string) => h.checkRuns(REPO).filter((r) => r.head_sha === sha).sort((a, b) => a.name.localeCompare(b.name));
const workflowsOn = (sha: string) => h.workflows.list().filter((w) => w.metadata.namespace === NS && w.spec.sha === sha);
const jobOf = (name: string) => h.jobs.store.get(`${NS}/${name}`);
const steps = (sha: string, name: string) => runsOn(sha).find((r) => r.name === name)?.history.map((e) => (e.conclusion ? `${e.status}/${e.conclusion}` : e.status));

async function running(name: string): Promise<void> {
  await h.client.patchStatus(jobsResource, name, { status: { active: 1 } }, { type: 'merge', namespace: NS });
  await h.until(() => h.workflows.store.get(`${NS}/${name}`)?.status?.phase === 'Running', `Workflow ${name} Running`);
}

test('a whole flow: every request of the controllers is one terrakojoFamily.rbac allows, and every grant is used', async () => {
  await h.repositoryIn(NS, REPO, [template('plan', ['infra/**/*.tf'])]);
  await h.until(() => h.repositories.store.get(`${NS}/${REPO}`)?.status?.synced === true, 'Repository synced');

  // A push touching two folders: two Workflows, two Jobs, two queued check runs.
  const push = h.gh.commit(OWNER, REPO, { branch: 'main', files: ['infra/app/main.tf', 'infra/db/main.tf'] });
  await h.poke(NS, REPO);
  await h.until(() => workflowsOn(push).length === 2 && workflowsOn(push).every((w) => jobOf(w.metadata.name ?? '')), 'two Jobs for the push');
  const [app, db] = workflowsOn(push).sort((a, b) => (a.spec.path ?? '').localeCompare(b.spec.path ?? '')).map((w) => w.metadata.name ?? '');
  assert.ok(app && db);

  // One runs and completes: its check run shows the tail of its pod's log.
  await running(app);
  await h.finishJob(NS, app, 'succeeded');
  await h.untilGitHub(() => steps(push, 'plan(infra/app)')?.at(-1) === 'completed/success', 'the app check run completed');
  assert.deepEqual(steps(push, 'plan(infra/app)'), ['queued', 'in_progress', 'completed/success']);
  assert.ok(runsOn(push).find((r) => r.name === 'plan(infra/app)')?.output?.text?.includes(POD_LOG.trim()), 'the pod log read through pods/log');

  // The other is deleted while its Job runs: its check run is cancelled.
  await running(db);
  await h.client.delete(workflowsResource, db, { namespace: NS });
  await h.untilGitHub(() => steps(push, 'plan(infra/db)')?.at(-1) === 'completed/cancelled', 'the deleted Workflow\'s check run cancelled');
  // Nothing runs on the default-branch commit any more: its Branch goes.
  await h.until(() => !h.branches.list().some((b) => b.metadata.namespace === NS && b.spec.sha === push), 'the push Branch deleted');

  // A pull request runs, then the Repository is deleted: the run is cancelled and nothing is left.
  const pr = h.gh.commit(OWNER, REPO, { branch: 'feature/net', files: ['infra/net/main.tf'] });
  h.gh.openPullRequest(OWNER, REPO, { head: 'feature/net', base: 'main' });
  await h.poke(NS, REPO);
  await h.until(() => workflowsOn(pr).length === 1 && jobOf(workflowsOn(pr)[0]?.metadata.name ?? '') !== undefined, 'the PR\'s Job');
  await running(workflowsOn(pr)[0]?.metadata.name ?? '');
  await h.client.delete(repositoriesResource, REPO, { namespace: NS });
  await h.until(() => h.repositories.store.get(`${NS}/${REPO}`) === undefined, 'Repository gone', 20_000);
  assert.deepEqual(steps(pr, 'plan(infra/net)'), ['queued', 'in_progress', 'completed/cancelled']);
  assert.deepEqual([...h.branches.list(), ...h.workflows.list()].filter((o) => o.metadata.namespace === NS), []);

  assert.deepEqual(h.deniedToControllers(), [], 'requests outside terrakojoFamily.rbac');
  const unused = unusedGrants().filter((grant) => !(grant in OTHER_PATHS));
  assert.deepEqual(unused, [], 'grants the controllers never used');
});

/** Grants this flow need not use, each with the path that does: a cache that has not seen an object yet. */
const OTHER_PATHS: Record<string, string> = {
  'get core/secrets': 'a Secret created a moment ago, not in the cache yet (family.ts readSecret)',
  'get terrakojo.io/repositories': 'a Branch whose Repository is not in the cache yet (branch/repository-lookup.ts)',
  'get terrakojo.io/branches': 'a Workflow whose Branch is not in the cache: confirmed before the Workflow is deleted',
  'get terrakojo.io/workflowtemplates': 'a Workflow whose template is not in the cache: confirmed before it fails',
  'get terrakojo.io/workflows': 'a Workflow create answered AlreadyExists: its owner is checked',
};

/** Each "verb group/resource" terrakojoFamily.rbac grants that no request of the controllers used. */
function unusedGrants(): string[] {
  const used = new Set<string>();
  for (const entry of h.server.requests.filter((r) => r.userAgent === CONTROLLERS_USER_AGENT)) {
    const url = new URL(entry.url, 'https://apiserver');
    const info = parseRequestPath(entry.method, url.pathname, url.searchParams);
    if (info?.kind !== 'resource') continue;
    used.add(`${info.verb} ${info.group || 'core'}/${info.subresource ? `${info.resource}/${info.subresource}` : info.resource}`);
  }
  const granted = terrakojoFamily.rbac.flatMap((rule) => rule.apiGroups.flatMap((group) => rule.resources.flatMap((resource) => rule.verbs.map((verb) => `${verb} ${group || 'core'}/${resource}`))));
  return granted.filter((grant) => !used.has(grant)).sort();
}
