// `bosun tree installation NAME [-n NS] [--watch]`: a live tree of an installation, its subinstallations,
// executions and deploy items with phase, job, duration and last error (like `landscaper-cli inspect`).
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import type { KubeClient } from '../../client/client.ts';
import { createKubeClient } from '../../client/create-client.ts';
import { defaultKubeconfig } from '../../client/default-kubeconfig.ts';
import { buildTree } from '../../landscaper/tree/build.ts';
import { loadTree } from '../../landscaper/tree/load.ts';
import { renderTree, type RenderOptions } from '../../landscaper/tree/render.ts';
import { TreeWatcher } from '../../landscaper/tree/watch.ts';

interface TreeOptions {
  namespace?: string;
  watch: boolean;
  kubeconfig?: string;
  context?: string;
}

// Home, clear screen, clear scrollback: each render replaces the last one in a terminal.
const CLEAR_SCREEN = '\x1b[H\x1b[2J\x1b[3J';

function useColor(): boolean {
  const noColor = process.env['NO_COLOR'];
  return process.stdout.isTTY === true && (noColor === undefined || noColor === '');
}

function renderOptions(): Omit<RenderOptions, 'now'> {
  const columns = process.stdout.isTTY ? process.stdout.columns : undefined;
  return { color: useColor(), ...(columns ? { maxErrorLength: Math.max(60, columns - 24) } : {}) };
}

function fail(err: unknown): never {
  process.stderr.write(`bosun tree: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

async function watchTree(client: KubeClient, namespace: string, name: string): Promise<void> {
  const tty = process.stdout.isTTY === true;
  const color = useColor();
  const watcher = new TreeWatcher(client, namespace, (update) => {
    const now = new Date();
    const stale = update.stale ? `  (watch failing, showing the last known state: ${update.stale})` : '';
    const header = `Installation ${namespace}/${name} at ${now.toISOString()}, updated on every change${stale}`;
    const body = renderTree(buildTree(namespace, name, update.objects), { ...renderOptions(), now });
    process.stdout.write(`${tty ? CLEAR_SCREEN : '\n'}${color ? `\x1b[2m${header}\x1b[22m` : header}\n\n${body}`);
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(1);
    stopping = true;
    void watcher.stop().finally(() => client.close().finally(() => process.exit(0)));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await watcher.start();
}

/** The default kubeconfig; says on stderr when it is the local `bosun up`'s, and what to do when there is none. */
function chooseKubeconfig(): string {
  const chosen = defaultKubeconfig();
  if (chosen.localBosunUp) process.stderr.write(`bosun tree: no ${process.env['KUBECONFIG'] ? '$KUBECONFIG file' : '~/.kube/config'}; using ${chosen.path} of the bosun up in this directory\n`);
  else if (!existsSync(chosen.path)) fail(`kubeconfig ${chosen.path} does not exist and no bosun up runs in this directory (./.bosun/kubeconfig): give --kubeconfig`);
  return chosen.path;
}

export function treeCommand(): Command {
  const tree = new Command('tree').description('show a live tree of Landscaper objects');
  tree
    .command('installation')
    .alias('inst')
    .description('an installation → subinstallations → execution → deploy items, with phase, job, duration and last error')
    .argument('<name>', 'the installation')
    .option('-n, --namespace <ns>', 'namespace of the installation (default: the context\'s, else "default")')
    .option('-w, --watch', 'keep watching and re-render on every change', false)
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config; when that does not exist, ./.bosun/kubeconfig of a bosun up here)')
    .option('--context <name>', 'kubeconfig context to use')
    .action(async (name: string, opts: TreeOptions) => {
      const kubeconfigPath = opts.kubeconfig ?? chooseKubeconfig();
      let client: KubeClient;
      try {
        client = createKubeClient({
          kubeconfigPath,
          ...(opts.context !== undefined ? { context: opts.context } : {}),
          userAgent: 'bosun-tree',
        });
      } catch (err) {
        fail(err);
      }
      const namespace = opts.namespace ?? client.defaultNamespace ?? 'default';
      try {
        // A first list surfaces connection and CRD errors; an informer would retry them silently.
        const model = await loadTree(client, namespace, name);
        if (!opts.watch) {
          process.stdout.write(renderTree(model, { ...renderOptions(), now: new Date() }));
          await client.close();
          if (!model.root) process.exitCode = 1;
          return;
        }
        await watchTree(client, namespace, name);
      } catch (err) {
        fail(err);
      }
    });
  return tree;
}
