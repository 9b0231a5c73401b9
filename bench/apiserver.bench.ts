// `npm run bench:apiserver`: the embedded API server over HTTP (a child `bosun up`, durable storage) against
// its own storage ceiling (the same writes straight into SQLite), measured in the same run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { SqliteStore } from '../src/apiserver/storage/sqlite-store.ts';
import { client, type Client, freePort, median, pool as poolOf, startBosun, watchLatency } from './bosun-harness.ts';

const objects = Number(process.env['BENCH_OBJECTS'] ?? 10_000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 32);

/** The serving CA, once the server has written it; one keep-alive client per port (the server, the echo server). */
let ca: string | undefined;
const clients = new Map<number, Client>();

function call(port: number, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  let send = clients.get(port);
  if (!send) clients.set(port, (send = client(port, concurrency, ca)));
  return send(method, path, body, { authorization: `Bearer ${token}` });
}

const pool = (n: number, task: (i: number) => Promise<void>): Promise<number> => poolOf(concurrency, n, task);

function configMap(i: number, rv?: string): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { app: 'bench', shard: String(i % 10) }, ...(rv ? { resourceVersion: rv } : {}) }, data: { key: `value-${i}`, other: 'x'.repeat(200) } };
}

/** Creates/s against the echo server: what TLS + HTTP alone allow with this client on this machine. */
async function httpCeiling(dataDir: string): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'https-echo-server.ts'), dataDir, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  try {
    const ms = await pool(objects, async (i) => {
      const res = await call(port, 'unused', 'POST', '/echo', configMap(i));
      if (res.status !== 201) throw new Error(`echo ${res.status}`);
    });
    return (objects / ms) * 1000;
  } finally {
    child.kill();
  }
}

/** The same writes straight into the storage layer, each committed and synced on its own (flush() per write). */
function storageCeiling(): number {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-bench-sqlite-'));
  const store = new SqliteStore(join(dir, 'bosun.db'));
  const start = performance.now();
  for (let i = 0; i < objects; i++) {
    store.write('/configmaps', 'default', `cm-${i}`, 'ADDED', (rev) => ({ ...configMap(i), metadata: { name: `cm-${i}`, namespace: 'default', uid: crypto.randomUUID(), resourceVersion: String(rev), creationTimestamp: new Date().toISOString() } }) as never);
    store.flush();
  }
  const ms = performance.now() - start;
  store.close();
  return (objects / ms) * 1000;
}

/** How long @kubernetes/client-node's informer start() (a list, then a watch's response head) takes on an empty
 *  collection, median of 7 fresh informers: the conformance test checks it resolves, this how fast. */
async function informerStartMs(dataDir: string): Promise<number> {
  const kc = new KubeConfig();
  kc.loadFromFile(join(dataDir, 'kubeconfig'));
  const api = kc.makeApiClient(CoreV1Api);
  const namespace = 'bench-empty';
  const times: number[] = [];
  for (let r = 0; r < 7; r++) {
    const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => api.listNamespacedConfigMap({ namespace }));
    const t = performance.now();
    await informer.start();
    times.push(performance.now() - t);
    await informer.stop();
  }
  return median(times);
}

/** A user outside system:masters, so RBAC walks its bindings on every request. */
const RBAC_USER_TOKEN = 'bench-rbac-user-token-0123456789';
const RBAC_NAMESPACE = 'bench-rbac';

/**
 * Creates/s as the administrator, whom system:masters allows without reading a rule (kube-apiserver's
 * privileged-groups authorizer), beside creates/s as a user whose RoleBinding to `edit` RBAC must find among
 * others (200 RoleBindings in its namespace, 50 ClusterRoleBindings, none its own). Rounds alternate (admin, user,
 * user, admin) into the same namespace, so the store's growth and the machine's load fall on both alike.
 */
async function rbacComparison(port: number, adminToken: string): Promise<{ admin: number; user: number }> {
  const ok = async (path: string, body: unknown): Promise<void> => {
    const res = await call(port, adminToken, 'POST', path, body);
    if (res.status !== 201) throw new Error(`setup ${path} ${res.status} ${res.text}`);
  };
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  const binding = (name: string, user: string, role: string, kind = 'RoleBinding') => ({
    kind,
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
  });
  await ok('/api/v1/namespaces', { metadata: { name: RBAC_NAMESPACE } });
  for (let i = 0; i < 200; i++) await ok(`${rbac}/namespaces/${RBAC_NAMESPACE}/rolebindings`, binding(`other-${i}`, `someone-${i}`, 'view'));
  for (let i = 0; i < 50; i++) await ok(`${rbac}/clusterrolebindings`, binding(`bench-other-${i}`, `someone-else-${i}`, 'view', 'ClusterRoleBinding'));
  await ok(`${rbac}/namespaces/${RBAC_NAMESPACE}/rolebindings`, binding('bench-user-edit', 'bench-user', 'edit'));
  const base = `/api/v1/namespaces/${RBAC_NAMESPACE}/configmaps`;
  const named = (prefix: string, i: number) => ({ ...configMap(i), metadata: { ...(configMap(i)['metadata'] as object), name: `${prefix}-${i}` } });
  // edit is filled by the aggregation controller: back off until the user may create.
  for (let attempt = 0; ; attempt++) {
    const res = await call(port, RBAC_USER_TOKEN, 'POST', base, named('probe', 0));
    if (res.status === 201) break;
    if (attempt > 12) throw new Error(`the RBAC user cannot create: ${res.status} ${res.text}`);
    await new Promise((r) => setTimeout(r, 20 * 2 ** Math.min(attempt, 6)));
  }
  const round = objects / 2;
  const spent = { admin: 0, user: 0 };
  for (const [r, who] of (['admin', 'user', 'user', 'admin'] as const).entries()) {
    const bearer = who === 'admin' ? adminToken : RBAC_USER_TOKEN;
    spent[who] += await pool(round, async (i) => {
      const res = await call(port, bearer, 'POST', base, named(`${who}-${r}`, i));
      if (res.status !== 201) throw new Error(`create as ${who} ${res.status} ${res.text}`);
    });
  }
  return { admin: (objects / spent.admin) * 1000, user: (objects / spent.user) * 1000 };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-bench-'));
  const port = await freePort();
  const tokenFile = join(dataDir, 'users.csv');
  writeFileSync(tokenFile, `${RBAC_USER_TOKEN},bench-user,2001\n`);
  const child = await startBosun(dataDir, port, ['--token-auth-file', tokenFile]);
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim();
  ca = readFileSync(join(dataDir, 'serving.crt'), 'utf8');
  const base = '/api/v1/namespaces/default/configmaps';
  try {
    const rvs: string[] = [];
    const createMs = await pool(objects, async (i) => {
      const res = await call(port, token, 'POST', base, configMap(i));
      if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
      rvs[i] = (JSON.parse(res.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    });
    const updateMs = await pool(objects, async (i) => {
      const res = await call(port, token, 'PUT', `${base}/cm-${i}`, { ...configMap(i, rvs[i]), data: { key: `updated-${i}` } });
      if (res.status !== 200) throw new Error(`update ${res.status} ${res.text}`);
    });
    const getMs = await pool(objects, async (i) => {
      const res = await call(port, token, 'GET', `${base}/cm-${i}`);
      if (res.status !== 200) throw new Error(`get ${res.status}`);
    });
    const listTimes: number[] = [];
    for (let r = 0; r < 7; r++) {
      const t = performance.now();
      const res = await call(port, token, 'GET', base);
      listTimes.push(performance.now() - t);
      // The namespace also holds kube-root-ca.crt (the root CA publisher's).
      const count = (JSON.parse(res.text) as { items: { metadata: { name: string } }[] }).items.filter((item) => item.metadata.name.startsWith('cm-')).length;
      if (count !== objects) throw new Error(`list returned ${count}`);
    }

    // Watch delivery latency at 1,000 events/s, one watcher.
    const watch = await watchLatency(port, dataDir, rvs[objects - 1] ?? '0', 3000, 1);

    const rbacCreates = await rbacComparison(port, token);
    const informerStart = await informerStartMs(dataDir);
    const ceiling = storageCeiling();
    const echo = await httpCeiling(dataDir);
    const creates = (objects / createMs) * 1000;
    const rows = [
      ['creates/s (durable, HTTP)', creates.toFixed(0), '≥ 3000 and ≥ 50% of ceiling'],
      ['creates/s as system:masters (no rule read)', rbacCreates.admin.toFixed(0), ''],
      ['creates/s as a RoleBinding user (rules walked)', rbacCreates.user.toFixed(0), ''],
      ['RBAC-walked creates / system:masters creates', `${((rbacCreates.user / rbacCreates.admin) * 100).toFixed(1)}%`, '≥ 90%'],
      ['updates/s (durable, HTTP)', ((objects / updateMs) * 1000).toFixed(0), ''],
      ['gets/s (HTTP)', ((objects / getMs) * 1000).toFixed(0), ''],
      [`LIST ${objects} objects, median of 7 (ms)`, median(listTimes).toFixed(1), '< 300 ms'],
      [`watch latency p50 (ms) at ${watch.rate.toFixed(0)} events/s`, watch.p50.toFixed(2), ''],
      ['watch latency p99 (ms)', watch.p99.toFixed(2), '< 50 ms'],
      ['watch events delivered', `${watch.delivered}/${watch.expected}`, 'all'],
      ['informer start() on an empty collection, median of 7 (ms)', informerStart.toFixed(1), '< 200 ms'],
      ['storage ceiling: same writes into SQLite, one synced commit each (writes/s)', ceiling.toFixed(0), ''],
      ['HTTP creates / storage ceiling', `${((creates / ceiling) * 100).toFixed(1)}%`, '≥ 50%'],
      ['HTTP ceiling: Node https echo server, same client (req/s)', echo.toFixed(0), ''],
      ['HTTP creates / HTTP ceiling', `${((creates / echo) * 100).toFixed(1)}%`, ''],
    ];
    console.log(`bench:apiserver — ${objects} ConfigMaps, ${concurrency} concurrent clients, node ${process.version}, ${new Date().toISOString()}`);
    for (const [what, value, target] of rows) console.log(`${what!.padEnd(58)} ${value!.padStart(10)}   ${target}`);
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
