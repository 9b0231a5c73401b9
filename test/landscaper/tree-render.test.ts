// The pure parts of `bosun tree`: building the tree from object lists and rendering it, exact output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../src/landscaper/api/execution.ts';
import type { Installation } from '../../src/landscaper/api/installation.ts';
import { buildDeployItemTree, buildExecutionTree, buildForest, buildTree } from '../../src/landscaper/tree/build.ts';
import { formatDuration } from '../../src/apimachinery/elapsed.ts';
import type { TreeModel } from '../../src/landscaper/tree/model.ts';
import { Redraw } from '../../src/cli/redraw.ts';
import { renderForest, renderTree } from '../../src/landscaper/tree/render.ts';

const JOB = '1a2b3c4d-0000-4000-8000-000000000001';
const OLD = '9f8e7d6c-0000-4000-8000-000000000002';
const now = new Date('2026-01-01T10:00:30Z');

const model: TreeModel = {
  namespace: 'demo',
  name: 'root',
  root: {
    kind: 'Installation', name: 'root', namespace: 'demo', phase: 'Progressing', jobID: JOB, jobIDFinished: OLD,
    startedAt: '2026-01-01T10:00:00Z',
    children: [
      {
        kind: 'Installation', name: 'sub-abc12', namespace: 'demo', phase: 'Succeeded', jobID: JOB, jobIDFinished: JOB,
        startedAt: '2026-01-01T10:00:01Z', finishedAt: '2026-01-01T10:00:04.5Z',
        children: [{ kind: 'Execution', name: 'sub-abc12', namespace: 'demo', phase: 'Succeeded', jobID: JOB, jobIDFinished: JOB, startedAt: '2026-01-01T10:00:02Z', finishedAt: '2026-01-01T10:00:04Z', children: [] }],
      },
      {
        kind: 'Execution', name: 'root', namespace: 'demo', phase: 'Failed', jobID: JOB, jobIDFinished: JOB,
        lastError: { operation: 'Reconcile', reason: 'DeployItemFailed', message: 'deploy item b\nfailed:   boom' },
        children: [
          { kind: 'DeployItem', name: 'root-a-x1', namespace: 'demo', type: 'mock', phase: 'Succeeded', jobID: JOB, jobIDFinished: JOB, phaseChangedAt: '2026-01-01T10:00:10Z', children: [] },
          {
            kind: 'DeployItem', name: 'root-b-x2', namespace: 'demo', type: 'kubernetes-manifest', phase: 'Failed', jobID: JOB, jobIDFinished: JOB, deleting: true,
            lastError: { message: 'x'.repeat(30) }, children: [],
          },
        ],
      },
      { kind: 'Installation', name: 'waiting', namespace: 'demo', children: [] },
    ],
  },
};

test('renderTree without colour: exact text', () => {
  assert.equal(renderTree(model, { color: false, now, maxErrorLength: 20 }), [
    '[Progressing]  Installation demo/root  job 1a2b3c4d (running)  running 30s',
    '├── [Succeeded]  Installation sub-abc12  job 1a2b3c4d  took 3s',
    '│   └── [Succeeded]  Execution sub-abc12  job 1a2b3c4d  took 2s',
    '├── [Failed]  Execution root  job 1a2b3c4d',
    '│   │   Last error (Reconcile/DeployItemFailed): deploy item b faile…',
    '│   ├── [Succeeded]  DeployItem root-a-x1 (mock)  job 1a2b3c4d  for 20s',
    '│   └── [Failed]  DeployItem root-b-x2 (kubernetes-manifest)  deleting  job 1a2b3c4d',
    '│           Last error: xxxxxxxxxxxxxxxxxxx…',
    '└── [no phase]  Installation waiting',
    '7 objects: 2 Failed, 1 Progressing, 3 Succeeded, 1 no phase',
    '',
  ].join('\n'));
});

test('renderTree with colour: phases green/red/yellow, job cyan, errors red', () => {
  const small: TreeModel = {
    namespace: 'demo',
    name: 'root',
    root: {
      kind: 'Installation', name: 'root', namespace: 'demo', phase: 'Progressing', jobID: JOB, jobIDFinished: OLD,
      children: [
        { kind: 'Execution', name: 'root', namespace: 'demo', phase: 'Succeeded', children: [] },
        { kind: 'DeployItem', name: 'd', namespace: 'demo', phase: 'DeleteFailed', lastError: { message: 'gone' }, children: [] },
      ],
    },
  };
  const E = '\x1b[';
  assert.equal(renderTree(small, { color: true, now }), [
    `${E}33m[Progressing]${E}39m  Installation ${E}1mdemo/root${E}22m  ${E}36mjob 1a2b3c4d${E}39m ${E}33m(running)${E}39m`,
    `├── ${E}32m[Succeeded]${E}39m  Execution ${E}1mroot${E}22m`,
    `└── ${E}31m[DeleteFailed]${E}39m  DeployItem ${E}1md${E}22m`,
    `        ${E}2mLast error:${E}22m ${E}31mgone${E}39m`,
    `3 objects: ${E}31m1 DeleteFailed${E}39m, ${E}33m1 Progressing${E}39m, ${E}32m1 Succeeded${E}39m`,
    '',
  ].join('\n'));
});

test('renderTree names a missing installation', () => {
  assert.equal(renderTree({ namespace: 'demo', name: 'nope', root: undefined }, { color: false, now }), 'not found: Installation demo/nope\n');
});

const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'demo', uid: `uid-${name}`, ...extra });

test('buildTree links subinstallations, the execution and deploy items (labels or owner refs), deploy items in dependsOn order', () => {
  const installations: Installation[] = [
    { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: meta('root'), spec: { blueprint: {} }, status: { observedGeneration: 1, phase: 'Succeeded', jobID: JOB, jobIDFinished: JOB, executionRef: { name: 'root', namespace: 'demo' }, transitionTimes: { triggerTime: '2026-01-01T10:00:00Z', finishedTime: '2026-01-01T10:00:05Z' } } },
    { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: meta('b-sub', { labels: { 'landscaper.gardener.cloud/encompassed-by': 'root' } }), spec: { blueprint: {} } },
    { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: meta('a-sub', { ownerReferences: [{ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', name: 'root', uid: 'uid-root' }] }), spec: { blueprint: {} } },
    { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: meta('unrelated'), spec: { blueprint: {} } },
  ];
  const executions: Execution[] = [{ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Execution', metadata: meta('root'), spec: {} }];
  const di = (name: string, spec: string, dependsOn?: string): DeployItem => ({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem',
    metadata: meta(name, { labels: { 'execution.landscaper.gardener.cloud/managed-by': 'root', 'execution.landscaper.gardener.cloud/name': spec }, ...(dependsOn ? { annotations: { 'execution.landscaper.gardener.cloud/dependsOn': dependsOn } } : {}) }),
    spec: { type: 'landscaper.gardener.cloud/mock' },
  });
  const deployItems = [di('root-z', 'first'), di('root-a', 'third', 'second,first'), di('root-m', 'second', 'first'), di('root-b', 'also-first')];
  const tree = buildTree('demo', 'root', { installations, executions, deployItems });
  const shape = (n: NonNullable<TreeModel['root']>): unknown => [`${n.kind} ${n.name}`, ...n.children.map(shape)];
  assert.deepEqual(shape(tree.root!), ['Installation root', ['Installation a-sub'], ['Installation b-sub'], ['Execution root', ['DeployItem root-b'], ['DeployItem root-z'], ['DeployItem root-m'], ['DeployItem root-a']]]);
  assert.equal(tree.root!.startedAt, '2026-01-01T10:00:00Z');
  assert.equal(tree.root!.finishedAt, '2026-01-01T10:00:05Z');
  assert.equal(tree.root!.children[2]!.children[0]!.type, 'mock');
  assert.equal(buildTree('demo', 'missing', { installations, executions, deployItems }).root, undefined);
});

test('formatDuration', () => {
  assert.deepEqual([-5, 850, 4250, 37_000, 245_000, 7_380_000, 3 * 86_400_000 + 4 * 3_600_000].map(formatDuration), ['<1s', '<1s', '4s', '37s', '4m05s', '2h03m', '3d04h']);
});

test('a deploy item whose deployer waits shows what for under its line, only while its job runs', () => {
  const waitingCondition = { type: 'Waiting', status: 'True' as const, reason: 'Waiting', message: 'waiting for readiness: ConfigMap default/gate not found', lastTransitionTime: '2026-01-01T10:00:00Z', lastUpdateTime: '2026-01-01T10:00:00Z' };
  const item = (name: string, jobIDFinished: string): DeployItem => ({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem',
    metadata: meta(name, { labels: { 'execution.landscaper.gardener.cloud/managed-by': 'root', 'execution.landscaper.gardener.cloud/name': name } }),
    spec: { type: 'landscaper.gardener.cloud/kubernetes-manifest' },
    status: { phase: 'Progressing', jobID: JOB, jobIDFinished, conditions: [waitingCondition] },
  });
  const installations: Installation[] = [{ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: meta('root'), spec: { blueprint: {} }, status: { observedGeneration: 1, executionRef: { name: 'root', namespace: 'demo' } } }];
  const executions: Execution[] = [{ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Execution', metadata: meta('root'), spec: {} }];
  const tree = buildTree('demo', 'root', { installations, executions, deployItems: [item('running', OLD), item('stale', JOB)] });
  const [running, stale] = tree.root!.children[0]!.children;
  assert.equal(running!.waitingFor, 'waiting for readiness: ConfigMap default/gate not found');
  assert.equal(stale!.waitingFor, undefined, 'a finished job no longer waits');
  const text = renderTree(tree, { color: false, now, maxErrorLength: 200 });
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes('DeployItem running'));
  assert.equal(lines[at + 1], '    │       Waiting: waiting for readiness: ConfigMap default/gate not found');
  assert.ok(!lines[lines.findIndex((l) => l.includes('DeployItem stale')) + 1]?.includes('Waiting:'));
});

const waitError = (phase: 'Init' | 'Failed'): Installation => ({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation', metadata: meta(`in-${phase.toLowerCase()}`), spec: { blueprint: {} },
  status: {
    observedGeneration: 1, phase, jobID: JOB, jobIDFinished: phase === 'Failed' ? JOB : OLD,
    lastError: { operation: 'Init', reason: 'PredecessorsNotFinished', message: 'waiting for predecessor installation(s) to finish: cyc-y', codes: ['ERR_UNFINISHED', 'ERR_FOR_INFO_ONLY', 'ERR_NO_RETRY'], lastTransitionTime: '2026-01-01T10:00:00Z', lastUpdateTime: '2026-01-01T10:00:00Z' },
  },
});

test('a wait recorded in lastError shows as a yellow Waiting line, not as a red Last error; a failure stays an error', () => {
  const objects = { installations: [waitError('Init'), waitError('Failed')], executions: [], deployItems: [] };
  const waiting = buildTree('demo', 'in-init', objects);
  assert.equal(waiting.root!.lastError, undefined);
  assert.equal(waiting.root!.waitingReason, 'PredecessorsNotFinished');
  const E = '\x1b[';
  assert.equal(renderTree(waiting, { color: true, now }).split('\n')[1],
    `    ${E}2mWaiting (PredecessorsNotFinished):${E}22m ${E}33mwaiting for predecessor installation(s) to finish: cyc-y${E}39m`);
  assert.equal(renderTree(buildTree('demo', 'in-failed', objects), { color: false, now }).split('\n')[1],
    '    Last error (Init/PredecessorsNotFinished): waiting for predecessor installation(s) to finish: cyc-y');
});

test('renderTree with wide prints long and multi-line messages whole', () => {
  const long = `${'a'.repeat(200)}\nsecond line`;
  const wide: TreeModel = {
    namespace: 'demo', name: 'root',
    root: { kind: 'Installation', name: 'root', namespace: 'demo', phase: 'Failed', lastError: { message: long }, children: [{ kind: 'Execution', name: 'root', namespace: 'demo', phase: 'Progressing', waitingFor: 'b'.repeat(180), children: [] }] },
  };
  assert.equal(renderTree(wide, { color: false, now, wide: true }), [
    '[Failed]  Installation demo/root',
    `│   Last error: ${'a'.repeat(200)}`,
    '│     second line',
    '└── [Progressing]  Execution root',
    `        Waiting: ${'b'.repeat(180)}`,
    '2 objects: 1 Failed, 1 Progressing',
    '',
  ].join('\n'));
  assert.match(renderTree(wide, { color: false, now }), /Last error: a{159}…\n/, 'cut without wide');
});

test('execution, deploy item and all-installations roots', () => {
  const item = (name: string, exec: string): DeployItem => ({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem',
    metadata: meta(name, { labels: { 'execution.landscaper.gardener.cloud/managed-by': exec, 'execution.landscaper.gardener.cloud/name': name } }),
    spec: { type: 'landscaper.gardener.cloud/mock' }, status: { phase: 'Succeeded' },
  });
  const inst = (name: string, parent?: string, execName?: string): Installation => ({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Installation',
    metadata: meta(name, parent ? { labels: { 'landscaper.gardener.cloud/encompassed-by': parent } } : {}), spec: { blueprint: {} },
    status: { observedGeneration: 1, phase: 'Succeeded', ...(execName ? { executionRef: { name: execName, namespace: 'demo' } } : {}) },
  });
  const objects = {
    installations: [inst('b-top', undefined, 'b-top'), inst('a-top'), inst('a-child', 'a-top')],
    executions: [{ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Execution', metadata: meta('b-top'), spec: {}, status: { phase: 'Succeeded' } } as Execution],
    deployItems: [item('b-one', 'b-top')],
  };
  assert.equal(renderTree(buildExecutionTree('demo', 'b-top', objects), { color: false, now }), [
    '[Succeeded]  Execution demo/b-top', '└── [Succeeded]  DeployItem b-one (mock)', '2 objects: 2 Succeeded', '',
  ].join('\n'));
  assert.equal(renderTree(buildDeployItemTree('demo', 'b-one', objects), { color: false, now }), '[Succeeded]  DeployItem demo/b-one (mock)\n1 object: 1 Succeeded\n');
  assert.equal(renderTree(buildExecutionTree('demo', 'nope', objects), { color: false, now }), 'not found: Execution demo/nope\n');
  assert.equal(renderTree(buildDeployItemTree('demo', 'nope', objects), { color: false, now }), 'not found: DeployItem demo/nope\n');
  assert.equal(renderForest(buildForest('demo', objects), { color: false, now }), [
    '[Succeeded]  Installation demo/a-top',
    '└── [Succeeded]  Installation a-child',
    '[Succeeded]  Installation demo/b-top',
    '└── [Succeeded]  Execution b-top',
    '    └── [Succeeded]  DeployItem b-one (mock)',
    '5 objects: 5 Succeeded',
    '',
  ].join('\n'));
  assert.equal(renderForest(buildForest('empty', objects), { color: false, now }), 'no installations in namespace empty\n');
});

test('Redraw draws a burst once per interval, ending on the latest picture, and never the picture on screen again', async () => {
  let clock = 0;
  const drawn: string[] = [];
  const redraw = new Redraw((p) => drawn.push(p), 50, () => clock);
  redraw.offer('a');
  assert.deepEqual(drawn, ['a'], 'the first picture at once');
  redraw.offer('a');
  redraw.offer('b');
  redraw.offer('c');
  assert.deepEqual(drawn, ['a'], 'within the interval: held back');
  clock = 50;
  await new Promise((r) => setTimeout(r, 80));
  assert.deepEqual(drawn, ['a', 'c'], 'the latest one when the interval passed');
  clock = 200;
  redraw.offer('c');
  assert.deepEqual(drawn, ['a', 'c'], 'unchanged: not drawn');
  redraw.offer('d');
  assert.deepEqual(drawn, ['a', 'c', 'd']);
  redraw.offer('e');
  redraw.stop();
  await new Promise((r) => setTimeout(r, 80));
  assert.deepEqual(drawn, ['a', 'c', 'd'], 'stopped: the held picture is dropped');
});

test('Redraw never draws sooner than its interval on the real clock (timers count whole milliseconds)', async () => {
  const drawnAt: number[] = [];
  const redraw = new Redraw(() => drawnAt.push(performance.now()), 100);
  let n = 0;
  // Offers at odd moments, so each wait has a fraction of a millisecond that a truncated timer would lose.
  await new Promise<void>((resolve) => {
    const offer = (): void => {
      redraw.offer(`picture ${n++}`);
      if (n < 90) setTimeout(offer, 3 + (n % 5) * 0.7);
      else resolve();
    };
    offer();
  });
  await new Promise((r) => setTimeout(r, 150));
  redraw.stop();
  const gaps = drawnAt.slice(1).map((at, i) => at - drawnAt[i]!);
  assert.ok(gaps.length >= 3, `${gaps.length + 1} draws`);
  assert.ok(gaps.every((gap) => gap >= 100), `gaps ${gaps.map((g) => g.toFixed(2)).join(', ')} ms`);
});
