import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GitHubTestServerError } from './errors.ts';
import { GitHubModel, ZERO_SHA, type ModelEvent } from './model.ts';

function model(): { github: GitHubModel; events: ModelEvent[] } {
  const events: ModelEvent[] = [];
  const github = new GitHubModel((event) => events.push(event));
  github.createRepository('acme', 'infra');
  return { github, events };
}

test('commit SHAs are 40 hex, distinct even for identical changes, with the branch head as parent', () => {
  const { github } = model();
  const root = github.get('acme', 'infra').branches.get('main');
  const a = github.commit('acme', 'infra', { branch: 'main', files: ['x'] });
  const b = github.commit('acme', 'infra', { branch: 'main', files: ['x'] });
  assert.match(a, /^[0-9a-f]{40}$/);
  assert.notEqual(a, b);
  assert.deepEqual(github.get('acme', 'infra').commits.get(a)?.parents, [root]);
  assert.deepEqual(github.get('acme', 'infra').commits.get(b)?.parents, [a]);
});

test('deleting a branch announces the deletion and closes its open pull requests; the default branch stays', () => {
  const { github, events } = model();
  github.commit('acme', 'infra', { branch: 'feature/x', files: ['a'] });
  const number = github.openPullRequest('acme', 'infra', { head: 'feature/x', base: 'main' });
  events.length = 0;
  github.deleteBranch('acme', 'infra', 'feature/x');
  assert.deepEqual(
    events.map((e) => (e.kind === 'push' ? [e.kind, e.deleted, e.after] : [e.kind, e.action, e.pull.number])),
    [
      ['push', true, ZERO_SHA],
      ['pull_request', 'closed', number],
    ],
  );
  assert.throws(() => github.deleteBranch('acme', 'infra', 'main'), GitHubTestServerError);
});

test('a second open pull request for the same head and base is refused; another base is fine', () => {
  const { github } = model();
  github.commit('acme', 'infra', { branch: 'feature/x', files: ['a'] });
  github.createBranch('acme', 'infra', 'release');
  github.openPullRequest('acme', 'infra', { head: 'feature/x', base: 'main' });
  assert.throws(() => github.openPullRequest('acme', 'infra', { head: 'feature/x', base: 'main' }), /already open/);
  assert.equal(github.openPullRequest('acme', 'infra', { head: 'feature/x', base: 'release' }), 2);
});

test('a force-push to an ancestor is a forced push with no commits; setting the same head announces nothing', () => {
  const { github, events } = model();
  const root = github.get('acme', 'infra').branches.get('main') as string;
  github.commit('acme', 'infra', { branch: 'main', files: ['a'] });
  events.length = 0;
  github.setBranchHead('acme', 'infra', 'main', root);
  github.setBranchHead('acme', 'infra', 'main', root);
  assert.equal(events.length, 1);
  const [push] = events;
  assert.ok(push?.kind === 'push');
  assert.equal(push.forced, true);
  assert.deepEqual(push.commits, []);
});
