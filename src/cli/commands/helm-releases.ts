// `bosun helm install|upgrade|uninstall|list|history`: Helm's release commands on Helm's own release storage
// (src/landscaper/deployers/helm/release/), against the cluster a kubeconfig reaches; output as Helm prints it.
import type { Command } from 'commander';
import { stringify as stringifyYaml } from 'yaml';
import { messageOf } from '../../apimachinery/error-message.ts';
import type { KubeClient } from '../../client/client.ts';
import { createKubeClient } from '../../client/create-client.ts';
import type { ReleaseSummary } from '../../landscaper/deployers/helm/release/actions.ts';
import { createHelmActions } from '../../landscaper/deployers/helm/release/helm-actions.ts';
import { loadChart } from '../../template/helm/chart.ts';
import { parseGoYaml } from '../../template/helm/go-yaml.ts';
import { parseSet } from '../../template/helm/strvals.ts';
import { mergeMaps } from '../../template/helm/template.ts';
import type { Values } from '../../template/helm/values.ts';
import { readInputFile } from '../input-files.ts';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

interface ClusterFlags {
  kubeconfig?: string;
  kubeContext?: string;
  namespace?: string;
}

interface InstallFlags extends ClusterFlags {
  values: string[];
  set: string[];
  setString: string[];
  createNamespace?: boolean;
  atomic?: boolean;
  wait?: boolean;
  timeout: string;
  install?: boolean;
  historyMax: string;
  output?: string;
}

function clusterOptions(command: Command): Command {
  return command
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option('--kube-context <name>', 'kubeconfig context to use')
    .option('-n, --namespace <ns>', 'namespace scope for this request');
}

function clientFor(flags: ClusterFlags): KubeClient {
  return createKubeClient({ ...(flags.kubeconfig !== undefined ? { kubeconfigPath: flags.kubeconfig } : {}), ...(flags.kubeContext !== undefined ? { context: flags.kubeContext } : {}), userAgent: 'bosun-helm' });
}

/** Helm's --timeout: a Go duration such as 5m0s, 90s, 1h. */
function durationMs(text: string): number {
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/g;
  let matched = '';
  for (let m = re.exec(text); m; m = re.exec(text)) {
    matched += m[0];
    total += Number(m[1]) * ({ h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const)[m[2] as 'h' | 'm' | 's' | 'ms'];
  }
  if (matched !== text) throw new Error(`invalid duration ${JSON.stringify(text)}`);
  return total;
}

function userValues(flags: InstallFlags): Values {
  let values: Values = {};
  for (const f of flags.values) values = mergeMaps(values, (parseGoYaml(readInputFile('values file', f)) ?? {}) as Values);
  for (const s of flags.set) parseSet(s, values);
  for (const s of flags.setString) parseSet(s, values, true);
  return values;
}

/** Go's time.Time String(), as Helm's `LAST DEPLOYED` shows: Mon Jan  2 15:04:05 2006 (UTC here). */
function helmDate(rfc3339: string): string {
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) return rfc3339;
  // toUTCString: "Sun, 29 Nov 2026 01:16:26 GMT".
  const [day = '', , mon = '', year = '', time = ''] = d.toUTCString().replace(',', '').split(' ');
  return `${day} ${mon} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${year}`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows].map((r) => r.map((c, i) => (i === r.length - 1 ? c : (c ?? '').padEnd(widths[i]! + 1))).join('\t').trimEnd()).join('\n') + '\n';
}

function statusText(r: ReleaseSummary): string {
  return [`NAME: ${r.name}`, `LAST DEPLOYED: ${helmDate(r.updated)}`, `NAMESPACE: ${r.namespace}`, `STATUS: ${r.status}`, `REVISION: ${r.revision}`, 'TEST SUITE: None', ...(r.notes ? ['NOTES:', r.notes.trimEnd()] : [])].join('\n') + '\n';
}

async function run(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    process.stderr.write(`Error: ${messageOf(err)}\n`);
    process.exitCode = 1;
  }
}

async function installOrUpgrade(name: string, chartPath: string, flags: InstallFlags, mode: 'install' | 'upgrade'): Promise<void> {
  const client = clientFor(flags);
  try {
    const namespace = flags.namespace ?? client.defaultNamespace ?? 'default';
    const actions = createHelmActions(client);
    const existing = await actions.get(name, namespace);
    if (mode === 'install' && existing && existing.status !== 'uninstalled') throw new Error(`INSTALLATION FAILED: cannot re-use a name that is still in use`);
    if (mode === 'upgrade' && !existing && flags.install !== true) throw new Error(`UPGRADE FAILED: "${name}" has no deployed releases`);
    const release = await actions.installOrUpgrade({
      name, namespace, chart: loadChart(chartPath), values: userValues(flags), timeoutMs: durationMs(flags.timeout), historyMax: Number(flags.historyMax),
      ...(flags.createNamespace === true ? { createNamespace: true } : {}), ...(flags.atomic === true ? { atomic: true } : {}), ...(flags.wait === true ? { wait: true } : {}),
    });
    if (mode === 'upgrade' && release.revision > 1) process.stdout.write(`Release "${name}" has been upgraded. Happy Helming!\n`);
    process.stdout.write(flags.output === 'json' ? `${JSON.stringify(release)}\n` : statusText(release));
  } finally {
    await client.close();
  }
}

function installOptions(command: Command): Command {
  return clusterOptions(command)
    .option('-f, --values <file>', 'values file (repeatable)', collect, [])
    .option('--set <k=v>', 'set values (repeatable)', collect, [])
    .option('--set-string <k=v>', 'set string values (repeatable)', collect, [])
    .option('--create-namespace', 'create the release namespace if not present')
    .option('--atomic', 'on failure, delete what the install made')
    .option('--wait', 'accepted; readiness is not waited for (see docs/helm.md)')
    .option('--timeout <duration>', 'time for each hook to complete', '5m0s')
    .option('--history-max <n>', 'revisions kept per release', '10')
    .option('-o, --output <format>', 'table or json');
}

export function addReleaseCommands(helm: Command): void {
  installOptions(helm.command('install').description('install a chart as a release in Helm\'s release storage').argument('<name>').argument('<chart>'))
    .action((name: string, chart: string, flags: InstallFlags) => run(() => installOrUpgrade(name, chart, flags, 'install')));
  installOptions(helm.command('upgrade').description('upgrade a release to a new chart or values').argument('<name>').argument('<chart>'))
    .option('-i, --install', 'install the release if it does not exist')
    .action((name: string, chart: string, flags: InstallFlags) => run(() => installOrUpgrade(name, chart, flags, 'upgrade')));
  clusterOptions(helm.command('uninstall').description('uninstall a release: its resources and its history').argument('<name>'))
    .option('--keep-history', 'keep the release records (status uninstalled)')
    .option('--timeout <duration>', 'time for each hook to complete', '5m0s')
    .action((name: string, flags: ClusterFlags & { keepHistory?: boolean; timeout: string }) =>
      run(async () => {
        const client = clientFor(flags);
        try {
          const namespace = flags.namespace ?? client.defaultNamespace ?? 'default';
          const done = await createHelmActions(client).uninstall({ name, namespace, timeoutMs: durationMs(flags.timeout), ...(flags.keepHistory === true ? { keepHistory: true } : {}) });
          if (!done) throw new Error(`uninstall: Release not loaded: ${name}: release: not found`);
          process.stdout.write(`release "${name}" uninstalled\n`);
        } finally {
          await client.close();
        }
      }),
    );
  clusterOptions(helm.command('list').alias('ls').description('list releases'))
    .option('-A, --all-namespaces', 'list releases across all namespaces')
    .option('-o, --output <format>', 'table, json or yaml', 'table')
    .action((flags: ClusterFlags & { allNamespaces?: boolean; output: string }) =>
      run(async () => {
        const client = clientFor(flags);
        try {
          const namespace = flags.allNamespaces === true ? undefined : (flags.namespace ?? client.defaultNamespace ?? 'default');
          // As helm list: deployed and failed releases unless asked for more.
          const releases = (await createHelmActions(client).list(namespace)).filter((r) => r.status === 'deployed' || r.status === 'failed');
          const records = releases.map((r) => ({ name: r.name, namespace: r.namespace, revision: String(r.revision), updated: r.updated, status: r.status, chart: r.chart, app_version: r.appVersion }));
          if (flags.output === 'json') process.stdout.write(`${JSON.stringify(records)}\n`);
          else if (flags.output === 'yaml') process.stdout.write(stringifyYaml(records));
          else process.stdout.write(table(['NAME', 'NAMESPACE', 'REVISION', 'UPDATED', 'STATUS', 'CHART', 'APP VERSION'], records.map((r) => [r.name, r.namespace, r.revision, r.updated, r.status, r.chart, r.app_version])));
        } finally {
          await client.close();
        }
      }),
    );
  clusterOptions(helm.command('history').alias('hist').description('the revisions of a release').argument('<name>'))
    .option('-o, --output <format>', 'table or json', 'table')
    .action((name: string, flags: ClusterFlags & { output: string }) =>
      run(async () => {
        const client = clientFor(flags);
        try {
          const namespace = flags.namespace ?? client.defaultNamespace ?? 'default';
          const history = await createHelmActions(client).history(name, namespace);
          if (history.length === 0) throw new Error('release: not found');
          const records = history.map((r) => ({ revision: r.revision, updated: r.updated, status: r.status, chart: r.chart, app_version: r.appVersion, description: r.description }));
          if (flags.output === 'json') process.stdout.write(`${JSON.stringify(records)}\n`);
          else process.stdout.write(table(['REVISION', 'UPDATED', 'STATUS', 'CHART', 'APP VERSION', 'DESCRIPTION'], records.map((r) => [String(r.revision), helmDate(r.updated), r.status, r.chart, r.app_version, r.description])));
        } finally {
          await client.close();
        }
      }),
    );
}
