// Table output for custom resources (tableconvertor) and built-in kinds (internalversion printers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { builtinPrinterFor, builtinPrinters, formatLabelSelector } from '../../../src/apiserver/table/builtin-columns.ts';
import { customResourcePrinter, humanDuration, PrinterColumnError, toTable, type PrinterColumn } from '../../../src/apiserver/table/table.ts';

const now = new Date('2026-01-10T12:00:00Z');
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

test('humanDuration follows apimachinery duration.HumanDuration', () => {
  const cases: [number, string][] = [
    [-5 * S, '<invalid>'],
    [-1 * S, '0s'],
    [0, '0s'],
    [59 * S, '59s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [5 * M + 30 * S, '5m30s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H + 2 * M, '3h2m'],
    [5 * H, '5h'],
    [8 * H + 5 * M, '8h'],
    [47 * H, '47h'],
    [2 * D, '2d'],
    [3 * D + 4 * H, '3d4h'],
    [8 * D, '8d'],
    [400 * D, '400d'],
    [730 * D, '2y'],
    [800 * D, '2y70d'],
    [9 * 365 * D, '9y'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `${ms}ms`);
});

const columns: PrinterColumn[] = [
  { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
  { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
  { name: 'On', type: 'boolean', jsonPath: '.spec.on' },
  { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'the phase' },
  { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1 },
  { name: 'Started', type: 'date', jsonPath: '.status.started' },
  { name: 'Items', type: 'string', jsonPath: '.spec.items' },
];

function widget(name: string, extra: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-01-10T11:55:00Z', labels: { app: 'demo' } },
    ...extra,
  };
}

test('CR table: Name column first, then printer columns with typed cells', () => {
  const w1 = widget('w1', {
    spec: { size: 3, ratio: 2, on: true, items: ['a', 'b'] },
    status: { phase: 'Ready', conditions: [{ type: 'Ready', status: 'True' }], started: '2026-01-10T09:00:00Z' },
  });
  const table = toTable([w1], columns, { includeObject: 'Metadata', now, listMeta: { resourceVersion: '42' } });
  assert.equal(table.kind, 'Table');
  assert.equal(table.apiVersion, 'meta.k8s.io/v1');
  assert.deepEqual(table.metadata, { resourceVersion: '42' });
  const defs = table.columnDefinitions ?? [];
  assert.deepEqual(
    defs.map((c) => [c.name, c.type, c.format, c.priority]),
    [
      ['Name', 'string', 'name', 0],
      ['Size', 'integer', '', 0],
      ['Ratio', 'number', '', 0],
      ['On', 'boolean', '', 0],
      ['Phase', 'string', '', 0],
      ['Ready', 'string', '', 1],
      ['Started', 'date', '', 0],
      ['Items', 'string', '', 0],
    ],
  );
  assert.equal(defs[4]?.description, 'the phase');
  assert.equal(defs[1]?.description, 'Custom resource definition column (in JSONPath format): .spec.size');
  assert.deepEqual(table.rows[0]?.cells, ['w1', 3, 2, true, 'Ready', 'True', '3h', '["a","b"]']);
  assert.deepEqual(table.rows[0]?.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: w1.metadata });
});

test('CR table: missing or mistyped values are null', () => {
  const w2 = widget('w2', { spec: { size: 'big', ratio: 'x', on: 'yes' }, status: { started: 'not-a-date' } });
  const row = toTable([w2], columns, { includeObject: 'None', now }).rows[0];
  assert.deepEqual(row?.cells, ['w2', null, null, null, null, null, '<invalid>', null]);
  assert.equal(row?.object, null);
});

test('CR table: no printer columns means Name and Age', () => {
  const table = toTable([widget('w3', {})], [], { includeObject: 'Object', now });
  assert.deepEqual(
    table.columnDefinitions?.map((c) => [c.name, c.type, c.format]),
    [
      ['Name', 'string', 'name'],
      ['Age', 'date', ''],
    ],
  );
  assert.deepEqual(table.rows[0]?.cells, ['w3', '5m']);
  assert.equal((table.rows[0]?.object as KubeObject).kind, 'Widget');
});

test('CR table: float integers truncate; includeHeaders=false drops column definitions', () => {
  const table = toTable([widget('w4', { spec: { size: 2.9 } })], columns, { includeObject: 'Metadata', now, includeHeaders: false });
  assert.equal(table.columnDefinitions, null);
  assert.equal(table.rows[0]?.cells[1], 2);
});

test('CR printer rejects unparsable JSONPath and caches compiled columns', () => {
  assert.throws(() => customResourcePrinter([{ name: 'X', type: 'string', jsonPath: '.a[' }]), PrinterColumnError);
  assert.equal(customResourcePrinter(columns), customResourcePrinter(columns));
});

function cellsOf(group: string, kind: string, obj: KubeObject): unknown[] {
  return toTable([obj], builtinPrinterFor(group, kind), { includeObject: 'None', now }).rows[0]?.cells ?? [];
}

function headers(group: string, kind: string, wide = false): string[] {
  return builtinPrinterFor(group, kind)
    .columnDefinitions.filter((c) => wide || c.priority === 0)
    .map((c) => c.name.toUpperCase());
}

const created = '2026-01-08T12:00:00Z';

test('built-in headers match kubectl get', () => {
  assert.deepEqual(headers('', 'Namespace'), ['NAME', 'STATUS', 'AGE']);
  assert.deepEqual(headers('', 'ConfigMap'), ['NAME', 'DATA', 'AGE']);
  assert.deepEqual(headers('', 'Secret'), ['NAME', 'TYPE', 'DATA', 'AGE']);
  assert.deepEqual(headers('', 'Pod'), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
  assert.deepEqual(headers('', 'Pod', true), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
  assert.deepEqual(headers('batch', 'Job'), ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
  assert.deepEqual(headers('', 'Event'), ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
  assert.deepEqual(headers('coordination.k8s.io', 'Lease'), ['NAME', 'HOLDER', 'AGE']);
  assert.deepEqual(headers('', 'Node'), ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
  assert.deepEqual(headers('', 'ServiceAccount'), ['NAME', 'SECRETS', 'AGE']);
  assert.deepEqual(headers('apiextensions.k8s.io', 'CustomResourceDefinition'), ['NAME', 'CREATED AT']);
  assert.deepEqual(headers('apps', 'Unknown'), ['NAME', 'CREATED AT']);
  for (const [key, printer] of Object.entries(builtinPrinters)) {
    for (const c of printer.columnDefinitions) assert.ok(c.description.length > 0, `${key} ${c.name} has a description`);
  }
});

test('built-in cells: namespace, configmap, secret, service account, lease, CRD', () => {
  const meta = { name: 'x', creationTimestamp: created };
  assert.deepEqual(cellsOf('', 'Namespace', { metadata: meta, status: { phase: 'Active' } }), ['x', 'Active', '2d']);
  assert.deepEqual(cellsOf('', 'ConfigMap', { metadata: meta, data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), ['x', 3, '2d']);
  assert.deepEqual(cellsOf('', 'Secret', { metadata: meta, type: 'Opaque', data: { a: 'MQ==' } }), ['x', 'Opaque', 1, '2d']);
  assert.deepEqual(cellsOf('', 'ServiceAccount', { metadata: meta }), ['x', 0, '2d']);
  assert.deepEqual(cellsOf('coordination.k8s.io', 'Lease', { metadata: meta, spec: { holderIdentity: 'node-1' } }), ['x', 'node-1', '2d']);
  assert.deepEqual(cellsOf('apiextensions.k8s.io', 'CustomResourceDefinition', { metadata: { name: 'w.example.com', creationTimestamp: created } }), ['w.example.com', '2026-01-08T12:00:00Z']);
});

test('built-in cells: ingress hosts past three, addresses, TLS ports; ingress class parameters', () => {
  const meta = { name: 'x', creationTimestamp: created };
  const rules = [{ host: 'a.io' }, {}, { host: 'b.io' }, { host: 'c.io' }, { host: 'd.io' }];
  const status = { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.io' }, { ip: '10.0.0.2' }] } };
  assert.deepEqual(cellsOf('networking.k8s.io', 'Ingress', { metadata: meta, spec: { rules, tls: [{}] }, status }), ['x', '<none>', 'a.io,b.io,c.io + 2 more...', '10.0.0.2,lb.io', '80, 443', '2d']);
  assert.deepEqual(cellsOf('networking.k8s.io', 'Ingress', { metadata: meta, spec: { ingressClassName: 'nginx', rules: [{}] } }), ['x', 'nginx', '*', '', '80', '2d']);
  assert.deepEqual(cellsOf('networking.k8s.io', 'IngressClass', { metadata: meta, spec: { controller: 'k8s.io/ingress-nginx', parameters: { kind: 'ConfigMap', name: 'p' } } }), ['x', 'k8s.io/ingress-nginx', 'ConfigMap/p', '2d']);
  assert.deepEqual(cellsOf('networking.k8s.io', 'IngressClass', { metadata: meta, spec: { controller: 'k8s.io/ingress-nginx' } }), ['x', 'k8s.io/ingress-nginx', '<none>', '2d']);
});

test('built-in cells: pods', () => {
  const running: KubeObject = {
    metadata: { name: 'p', creationTimestamp: created },
    spec: { nodeName: 'n1', containers: [{ name: 'a' }, { name: 'b' }] },
    status: {
      phase: 'Running',
      podIPs: [{ ip: '10.0.0.5' }],
      containerStatuses: [
        { name: 'a', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { finishedAt: '2026-01-10T11:50:00Z' } } },
        { name: 'b', ready: false, restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    },
  };
  assert.deepEqual(cellsOf('', 'Pod', running), ['p', '1/2', 'CrashLoopBackOff', '2 (10m ago)', '2d', '10.0.0.5', 'n1', '<none>', '<none>']);
  const completed: KubeObject = {
    metadata: { name: 'done', creationTimestamp: created },
    spec: { containers: [{ name: 'a' }] },
    status: { phase: 'Succeeded', containerStatuses: [{ name: 'a', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }] },
  };
  assert.deepEqual(cellsOf('', 'Pod', completed).slice(0, 4), ['done', '0/1', 'Completed', '0']);
  const pending: KubeObject = {
    metadata: { name: 'init', creationTimestamp: created, deletionTimestamp: undefined },
    spec: { initContainers: [{ name: 'i' }], containers: [{ name: 'a' }] },
    status: { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { running: {} } }] },
  };
  assert.equal(cellsOf('', 'Pod', pending)[2], 'Init:0/1');
  const terminating: KubeObject = { metadata: { name: 't', deletionTimestamp: '2026-01-10T11:59:00Z' }, spec: { containers: [] }, status: { phase: 'Running' } };
  assert.equal(cellsOf('', 'Pod', terminating)[2], 'Terminating');
});

test('built-in cells: jobs', () => {
  const job: KubeObject = {
    metadata: { name: 'j', creationTimestamp: created },
    spec: { completions: 1, selector: { matchLabels: { 'controller-uid': 'abc' } }, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    status: { succeeded: 1, startTime: '2026-01-10T11:00:00Z', completionTime: '2026-01-10T11:00:07Z', conditions: [{ type: 'Complete', status: 'True' }] },
  };
  assert.deepEqual(cellsOf('batch', 'Job', job), ['j', 'Complete', '1/1', '7s', '2d', 'c', 'busybox', 'controller-uid=abc']);
  const running: KubeObject = { metadata: { name: 'r', creationTimestamp: created }, spec: { parallelism: 3 }, status: { startTime: '2026-01-10T11:58:00Z' } };
  assert.deepEqual(cellsOf('batch', 'Job', running).slice(1, 4), ['Running', '0/1 of 3', '2m']);
});

test('built-in cells: events and nodes', () => {
  const event: KubeObject = {
    metadata: { name: 'w1.abc', namespace: 'default' },
    involvedObject: { kind: 'Widget', name: 'w1', fieldPath: 'spec' },
    reason: 'Synced',
    message: ' all good \n',
    type: 'Normal',
    source: { component: 'bosun', host: 'h1' },
    firstTimestamp: '2026-01-10T11:00:00Z',
    lastTimestamp: '2026-01-10T11:59:00Z',
    count: 4,
  };
  assert.deepEqual(cellsOf('', 'Event', event), ['60s', 'Normal', 'Synced', 'widget/w1', 'spec', 'bosun, h1', 'all good', '60m', 4, 'w1.abc']);
  const node: KubeObject = {
    metadata: { name: 'n1', creationTimestamp: created, labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'worker' } },
    spec: { unschedulable: true },
    status: {
      conditions: [{ type: 'Ready', status: 'True' }],
      nodeInfo: { kubeletVersion: 'v1.32.0' },
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
    },
  };
  assert.deepEqual(cellsOf('', 'Node', node), ['n1', 'Ready,SchedulingDisabled', 'control-plane,worker', '2d', 'v1.32.0', '10.0.0.1', '<none>', '<unknown>', '<unknown>', '<unknown>']);
});

test('formatLabelSelector sorts requirements by key', () => {
  assert.equal(formatLabelSelector(undefined), '<none>');
  assert.equal(
    formatLabelSelector({ matchLabels: { b: '2' }, matchExpressions: [{ key: 'a', operator: 'In', values: ['y', 'x'] }, { key: 'c', operator: 'DoesNotExist' }] }),
    'a in (x,y),b=2,!c',
  );
});
