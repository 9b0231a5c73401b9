import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RequestError } from '@octokit/request-error';
import type { GitHubTestServer } from './index.ts';
import { serverWithRepository, type TestOctokit } from './test-client.ts';

let gh: GitHubTestServer;
let octokit: TestOctokit;
let sha: string;

before(async () => {
  ({ gh, octokit } = await serverWithRepository());
  sha = gh.commit('acme', 'infra', { branch: 'main', files: ['infra/app/main.tf'] });
});
after(() => gh.close());

test('a check run keeps its full history from queued to completed', async () => {
  const created = await octokit.rest.checks.create({ owner: 'acme', repo: 'infra', name: 'plan', head_sha: sha, status: 'queued', external_id: 'wf-1', details_url: 'http://bosun.test/wf-1' });
  assert.equal(created.status, 201);
  const id = Number(created.data.id);
  await octokit.rest.checks.update({ owner: 'acme', repo: 'infra', check_run_id: id, status: 'in_progress' });
  const done = await octokit.rest.checks.update({
    owner: 'acme',
    repo: 'infra',
    check_run_id: id,
    status: 'completed',
    conclusion: 'failure',
    output: { title: 'Failed', summary: 'exit 1', text: 'log tail' },
  });
  assert.equal(done.data.status, 'completed');
  assert.equal(done.data.conclusion, 'failure');
  assert.ok(done.data.completed_at);
  const { data: fetched } = await octokit.rest.checks.get({ owner: 'acme', repo: 'infra', check_run_id: id });
  assert.equal(fetched.output.text, 'log tail');
  assert.equal(fetched.external_id, 'wf-1');
  const [run] = gh.checkRuns('acme', 'infra');
  assert.deepEqual(
    run?.history.map(({ status, conclusion }) => [status, conclusion]),
    [
      ['queued', null],
      ['in_progress', null],
      ['completed', 'failure'],
    ],
  );
  assert.equal(run?.details_url, 'http://bosun.test/wf-1');
});

test('check runs are listed for a ref, the latest per name by default', async () => {
  const first = await octokit.rest.checks.create({ owner: 'acme', repo: 'infra', name: 'apply', head_sha: sha });
  const second = await octokit.rest.checks.create({ owner: 'acme', repo: 'infra', name: 'apply', head_sha: sha });
  const latest = await octokit.rest.checks.listForRef({ owner: 'acme', repo: 'infra', ref: sha, check_name: 'apply' });
  assert.deepEqual(
    latest.data.check_runs.map((r) => Number(r.id)),
    [Number(second.data.id)],
  );
  const all = await octokit.paginate(octokit.rest.checks.listForRef, { owner: 'acme', repo: 'infra', ref: 'main', filter: 'all', per_page: 1 });
  assert.deepEqual(
    all.map((r) => Number(r.id)).sort((a, b) => a - b),
    gh.checkRuns('acme', 'infra').map((r) => r.id),
  );
  assert.ok(all.some((r) => Number(r.id) === Number(first.data.id)));
});

test('bad check run requests are 422 like GitHub', async () => {
  const reject = async (call: Promise<unknown>): Promise<string> => {
    const error = await call.then(
      () => assert.fail('expected 422'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof RequestError);
    assert.equal(error.status, 422);
    return (error.response?.data as { message: string }).message;
  };
  assert.match(await reject(octokit.request('POST /repos/{owner}/{repo}/check-runs', { owner: 'acme', repo: 'infra', head_sha: sha } as never)), /"name" wasn't supplied/);
  assert.match(await reject(octokit.rest.checks.create({ owner: 'acme', repo: 'infra', name: 'x', head_sha: 'a'.repeat(40) })), /No commit found for SHA/);
  const { data } = await octokit.rest.checks.create({ owner: 'acme', repo: 'infra', name: 'y', head_sha: sha });
  assert.match(await reject(octokit.rest.checks.update({ owner: 'acme', repo: 'infra', check_run_id: Number(data.id), status: 'completed' })), /"conclusion" wasn't supplied/);
  const unchanged = gh.checkRuns('acme', 'infra').find((r) => r.id === Number(data.id));
  assert.equal(unchanged?.history.length, 1);
});
