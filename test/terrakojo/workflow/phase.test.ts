// Phase from Job counts and the check run each phase shows (upstream's determineWorkflowPhase and
// checkRunStatus tables), and when the check run must be PATCHed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRunChanges, checkRunStateOf, isTerminalPhase, phaseOfJob } from '../../../src/terrakojo/workflow/phase.ts';

test('phase from the Job: succeeded, then failed, then active, else Pending', () => {
  const table: Array<[Parameters<typeof phaseOfJob>[0], string]> = [
    [{ succeeded: 1 }, 'Succeeded'],
    [{ succeeded: 1, failed: 2, active: 1 }, 'Succeeded'],
    [{ failed: 1 }, 'Failed'],
    [{ failed: 1, active: 1 }, 'Failed'],
    [{ active: 1 }, 'Running'],
    [{}, 'Pending'],
    [undefined, 'Pending'],
    [{ active: 0, succeeded: 0, failed: 0 }, 'Pending'],
    // A pod the Job controller has seen finish but not counted yet: not back to Pending in between.
    [{ active: 0, uncountedTerminatedPods: { succeeded: ['uid-1'] } }, 'Succeeded'],
    [{ active: 0, uncountedTerminatedPods: { failed: ['uid-1'] } }, 'Failed'],
    [{ active: 0, uncountedTerminatedPods: {} }, 'Pending'],
  ];
  for (const [status, phase] of table) assert.equal(phaseOfJob(status), phase, JSON.stringify(status));
});

test('check run per phase; unknown and no phase are queued', () => {
  assert.deepEqual(checkRunStateOf('Pending'), { status: 'queued' });
  assert.deepEqual(checkRunStateOf('Running'), { status: 'in_progress' });
  assert.deepEqual(checkRunStateOf('Succeeded'), { status: 'completed', conclusion: 'success' });
  assert.deepEqual(checkRunStateOf('Failed'), { status: 'completed', conclusion: 'failure' });
  assert.deepEqual(checkRunStateOf('Cancelled'), { status: 'completed', conclusion: 'cancelled' });
  assert.deepEqual(checkRunStateOf('Bogus'), { status: 'queued' });
  assert.deepEqual(checkRunStateOf(undefined), { status: 'queued' });
});

test('a PATCH is due only when the check run would show something else', () => {
  // A new check run is queued: Pending shows the same.
  assert.equal(checkRunChanges(undefined, 'Pending'), false);
  assert.equal(checkRunChanges('Pending', 'Pending'), false);
  assert.equal(checkRunChanges(undefined, 'Running'), true);
  assert.equal(checkRunChanges('Pending', 'Running'), true);
  assert.equal(checkRunChanges('Running', 'Succeeded'), true);
  assert.equal(checkRunChanges('Failed', 'Succeeded'), true);
  assert.equal(checkRunChanges('Succeeded', 'Succeeded'), false);
});

test('Succeeded, Failed and Cancelled are terminal', () => {
  assert.deepEqual(['Pending', 'Running', 'Succeeded', 'Failed', 'Cancelled', undefined].map(isTerminalPhase), [false, false, true, true, true, false]);
});
