// executionUnit fan-out, template matching into a plan, Workflow objects and their deterministic names
// (expected hashes computed independently with Python's hashlib).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Branch, WorkflowTemplate } from '../../../src/terrakojo/api/types.ts';
import { normalizeExecutionUnit, workflowTargets } from '../../../src/terrakojo/branch/targets.ts';
import { planWorkflows, workflowObject } from '../../../src/terrakojo/branch/workflow-plan.ts';
import { workflowName } from '../../../src/terrakojo/branch/workflow-name.ts';
import { branchName } from '../../../src/terrakojo/repository/branch-name.ts';

const files = ['README.md', 'infra/app/main.tf', 'infra/app/vars.tf', 'infra/db/main.tf', 'docs/guide.md', 'infra/app/main.tf'];

function template(name: string, paths: string[], executionUnit?: string): WorkflowTemplate {
  return { apiVersion: 'terrakojo.io/v1alpha1', kind: 'WorkflowTemplate', metadata: { name, namespace: 'ns' }, spec: { displayName: name, match: { paths, ...(executionUnit !== undefined ? { executionUnit } : {}) }, job: {} } };
}

describe('executionUnit fan-out', () => {
  it('folder: the unique folders, sorted; root-level files dropped', () => {
    assert.deepEqual(workflowTargets('folder', files), [
      { path: 'docs', executionUnit: 'folder' },
      { path: 'infra/app', executionUnit: 'folder' },
      { path: 'infra/db', executionUnit: 'folder' },
    ]);
    assert.deepEqual(workflowTargets('folder', ['README.md', 'main.tf']), []);
    // No folding into parents: a/ and a/b/ are two Workflows.
    assert.deepEqual(workflowTargets('folder', ['a/x.tf', 'a/b/y.tf']).map((t) => t.path), ['a', 'a/b']);
  });

  it('repository: one target "."', () => {
    assert.deepEqual(workflowTargets('repository', files), [{ path: '.', executionUnit: 'repository' }]);
  });

  it('file: the unique files, sorted, root files included', () => {
    assert.deepEqual(workflowTargets('file', files).map((t) => t.path), ['README.md', 'docs/guide.md', 'infra/app/main.tf', 'infra/app/vars.tf', 'infra/db/main.tf']);
  });

  it('empty or unknown units are folder', () => {
    assert.equal(normalizeExecutionUnit(undefined), 'folder');
    assert.equal(normalizeExecutionUnit(''), 'folder');
    assert.equal(normalizeExecutionUnit('Folder'), 'folder');
    assert.equal(normalizeExecutionUnit('workspace'), 'folder');
    assert.deepEqual(workflowTargets('bogus', ['infra/a.tf']), [{ path: 'infra', executionUnit: 'folder' }]);
  });
});

describe('planning', () => {
  it('upstream\'s "creates Workflow resources for changed files": tf → infrastructure/app, md → docs, README dropped', () => {
    const plan = planWorkflows(
      [template('tf', ['infrastructure/**/*.tf']), template('md', ['**/*.md'])],
      ['infrastructure/app/main.tf', 'docs/a.md', 'README.md'],
    );
    assert.deepEqual(plan, [
      { template: 'md', target: { path: 'docs', executionUnit: 'folder' } },
      { template: 'tf', target: { path: 'infrastructure/app', executionUnit: 'folder' } },
    ]);
  });

  it('one file feeds every template it matches; templates without matches plan nothing', () => {
    const plan = planWorkflows([template('plan', ['**/*.tf']), template('lint', ['**/*.tf'], 'file'), template('docs', ['docs/**'])], ['infra/main.tf']);
    assert.deepEqual(plan.map((p) => `${p.template}:${p.target.path}`), ['lint:infra/main.tf', 'plan:infra']);
  });
});

describe('names', () => {
  const sha = '0123abcd'.repeat(5);

  it('Branch: <repository>-<sha256(ref)[:8]>-<sha[:8]>', () => {
    assert.equal(branchName('infra', 'main', sha), 'infra-0d6e4079-0123abcd');
    assert.equal(branchName('infra', 'feature/x', sha), 'infra-217d2bf5-0123abcd');
  });

  it('Branch: a GitHub name Kubernetes would refuse is lowered and dashed', () => {
    assert.equal(branchName('My_Infra', 'main', sha), 'my-infra-0d6e4079-0123abcd');
    assert.equal(branchName('_x.', 'main', sha), 'x-0d6e4079-0123abcd');
  });

  it('Workflow: <template cut to 52>-<10 hex of sha256(branch|template|unit|path)>, at most 63', () => {
    const branch = branchName('infra', 'main', sha);
    assert.equal(workflowName(branch, 'plan', 'folder', 'infra/app'), 'plan-543aae2675');
    const long = 't'.repeat(57);
    const name = workflowName('b', long, 'repository', '.');
    assert.equal(name, `${'t'.repeat(52)}-fbd9998e9f`);
    assert.equal(name.length, 63);
    // A cut that would end on "." or "-" ends on the letter before it.
    assert.equal(workflowName('b', `${'a'.repeat(51)}.b`, 'file', 'x.tf'), `${'a'.repeat(51)}-c4609b329d`);
  });

  it('Workflow names differ by every input and repeat for the same inputs', () => {
    const names = new Set([
      workflowName('b1', 't', 'folder', 'a'),
      workflowName('b2', 't', 'folder', 'a'),
      workflowName('b1', 'u', 'folder', 'a'),
      workflowName('b1', 't', 'file', 'a'),
      workflowName('b1', 't', 'folder', 'b'),
    ]);
    assert.equal(names.size, 5);
    assert.equal(workflowName('b1', 't', 'folder', 'a'), workflowName('b1', 't', 'folder', 'a'));
  });
});

describe('Workflow objects', () => {
  it('carry the owner UID label, a controller reference to the Branch, the spec and the parameters', () => {
    const branch: Branch = {
      apiVersion: 'terrakojo.io/v1alpha1',
      kind: 'Branch',
      metadata: { name: 'infra-217d2bf5-0123abcd', namespace: 'ns', uid: 'uid-1' },
      spec: { owner: 'acme', repository: 'infra', name: 'feature/x', sha: '0123abcd'.repeat(5), prNumber: 7 },
    };
    const wf = workflowObject(branch, false, { template: 'plan', target: { path: 'infra/app', executionUnit: 'folder' } });
    assert.equal(wf.metadata.name, workflowName('infra-217d2bf5-0123abcd', 'plan', 'folder', 'infra/app'));
    assert.equal(wf.metadata.namespace, 'ns');
    assert.deepEqual(wf.metadata.labels, { 'terrakojo.io/owner-uid': 'uid-1' });
    assert.deepEqual(wf.metadata.ownerReferences, [{ apiVersion: 'terrakojo.io/v1alpha1', kind: 'Branch', name: 'infra-217d2bf5-0123abcd', uid: 'uid-1', controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(wf.spec, {
      owner: 'acme',
      repository: 'infra',
      branch: 'infra-217d2bf5-0123abcd',
      sha: '0123abcd'.repeat(5),
      template: 'plan',
      path: 'infra/app',
      parameters: { isDefaultBranch: 'false', executionUnit: 'folder' },
    });
    assert.equal(workflowObject(branch, true, { template: 'plan', target: { path: '.', executionUnit: 'repository' } }).spec.parameters?.['isDefaultBranch'], 'true');
  });
});
