// kill -9 of the terrakojo controllers at points of the flow, then the same command again: the flow ends as if
// nothing happened, with no check run and no Job twice. (The Jobs' pods keep running on the node agent meanwhile,
// as a cluster's keep running while its controllers restart.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { completedRuns, OWNER, repositoryIn, runsOn, shellTemplate, startTerrakojoUp, type TerrakojoUp } from './terrakojo-up.ts';

describe('terrakojo across kill -9 of its controllers', () => {
  let t: TerrakojoUp;
  before(async () => {
    t = await startTerrakojoUp({ controllersApart: true });
    await repositoryIn(t, 'crash', 'crash', [shellTemplate('plan', ['infra/**/*.tf'], 'echo "planning $TERRAKOJO_WORKFLOW_PATH"; sleep 2')]);
  });
  after(async () => {
    await t.close();
  });

  const points: [string, (sha: string) => boolean][] = [
    ['the first check run is created', (sha) => runsOn(t, 'crash', sha).length >= 1],
    ['the first check run is in progress', (sha) => runsOn(t, 'crash', sha).some((r) => r.status === 'in_progress')],
    ['the first check run is completed', (sha) => runsOn(t, 'crash', sha).some((r) => r.status === 'completed')],
  ];
  for (const [when, reached] of points) {
    test(`killed when ${when}: three check runs, one per Workflow, each ending completed/success`, async () => {
      const sha = t.gh.commit(OWNER, 'crash', { branch: 'main', files: ['infra/a/main.tf', 'infra/b/main.tf', 'infra/c/main.tf'] });
      await t.gh.until(() => reached(sha), 90_000, when);
      await t.killControllers();
      const runs = await completedRuns(t, 'crash', sha, 3, 120_000);
      for (const run of runs) {
        assert.equal(run.conclusion, 'success', run.name);
        // A kill between GitHub's answer and the status write PATCHes the same state again: never another one.
        const completed = run.history.findIndex((h) => h.status === 'completed');
        assert.deepEqual(new Set(run.history.slice(completed).map((h) => `${h.status}/${h.conclusion}`)), new Set(['completed/success']), `${run.name} stays completed`);
        // One Job per Workflow: a second run would have written its own log tail after the first.
        assert.equal((run.output?.text?.match(/planning /g) ?? []).length, 1, `${run.name} ran once`);
      }
    });
  }
});
