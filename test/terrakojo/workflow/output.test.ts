// What a completed check run shows: the outcome, and the log tail as a code block a log cannot break out of.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cancelledOutput, jobOutput, noJobOutput } from '../../../src/terrakojo/workflow/output.ts';
import { checkRunDetailsUrl, defaultCheckRunName } from '../../../src/terrakojo/workflow/check-run-sync.ts';
import { workflow } from './fixtures.ts';

test('a readable log: title, summary naming pod and container, the tail in a fence', () => {
  const out = jobOutput('Plan(infra/app)', 'Failed', 'plan-1', { readable: true, pod: 'plan-1-abcde', container: 'plan', text: 'line 1\nError: boom\n' });
  assert.equal(out.title, 'Plan(infra/app) failed');
  assert.equal(out.summary, 'Job plan-1 failed. The last lines of container plan of pod plan-1-abcde are below.');
  assert.equal(out.text, '```\nline 1\nError: boom\n```');
});

test('a log holding backticks gets a longer fence; an empty log says so', () => {
  const out = jobOutput('P(.)', 'Succeeded', 'j', { readable: true, pod: 'p', container: 'c', text: 'a ```` b' });
  assert.equal(out.text, '`````\na ```` b\n`````');
  const empty = jobOutput('P(.)', 'Succeeded', 'j', { readable: true, pod: 'p', container: 'c', text: '' });
  assert.equal(empty.summary, 'Job j succeeded. Container c of pod p logged nothing.');
  assert.equal(empty.text, undefined);
});

test('an unreadable log is said in the summary', () => {
  const out = jobOutput('P(.)', 'Succeeded', 'j', { readable: false, reason: 'no pod of Job j was found' });
  assert.deepEqual(out, { title: 'P(.) succeeded', summary: 'Job j succeeded. Its log could not be read: no pod of Job j was found' });
});

test('a huge log keeps its end within GitHub\'s 65535 characters', () => {
  const text = `${'x'.repeat(70_000)}THE END`;
  const out = jobOutput('P(.)', 'Failed', 'j', { readable: true, pod: 'p', container: 'c', text });
  assert.ok((out.text ?? '').length <= 65_535);
  assert.ok(out.text?.endsWith('THE END\n```'));
});

test('outputs without a Job, and on cancel', () => {
  assert.deepEqual(noJobOutput('Plan(.)', 'WorkflowTemplate ns/x not found'), { title: 'Plan(.) failed', summary: 'WorkflowTemplate ns/x not found' });
  assert.deepEqual(cancelledOutput('Plan(.)', 'wf'), { title: 'Plan(.) was cancelled', summary: 'Workflow wf was deleted before its Job finished.' });
});

test('check run name and details URL', () => {
  assert.equal(defaultCheckRunName('Test Workflow', 'infra/path'), 'Test Workflow(infra/path)');
  assert.equal(defaultCheckRunName('Sample', '.'), 'Sample(.)');
  assert.equal(checkRunDetailsUrl(undefined, workflow()), undefined);
  assert.equal(checkRunDetailsUrl('https://bosun.example/ui/', workflow('wf', 'team')), 'https://bosun.example/ui/namespaces/team/workflows/wf');
});
