// `bosun tree installation|execution|deployitem NAME`, `bosun tree installations`, `bosun tree repository NAME`
// and `bosun tree disruption NAME` [-n NS] [--watch] [--wide]: a live tree of Landscaper objects (an
// installation, its subinstallations, executions and deploy items) with phase, job, duration, what it waits for
// and its last error (like `landscaper-cli inspect`), of a terrakojo Repository (its branches, workflows with
// their check runs, jobs and pods), or of a chaos Disruption (its targets, chaos pods and injection status).
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import type { KubeClient } from '../../client/client.ts';
import { createKubeClient } from '../../client/create-client.ts';
import { defaultKubeconfig } from '../../client/default-kubeconfig.ts';
import { buildDeployItemTree, buildExecutionTree, buildForest, buildTree, type TreeObjects } from '../../landscaper/tree/build.ts';
import type { TreeModel } from '../../landscaper/tree/model.ts';
import { renderForest, renderTree, type RenderOptions } from '../../landscaper/tree/render.ts';
import { treeResources } from '../../landscaper/tree/resources.ts';
import { loadSnapshot, type Snapshot, type SnapshotResources } from '../../runtime/view/snapshot.ts';
import { SnapshotWatcher } from '../../runtime/view/snapshot-watcher.ts';
import { DEFAULT_CHAOS_NAMESPACE } from '../../chaos/api/constants.ts';
import { buildDisruptionTree, type DisruptionTreeObjects } from '../../chaos/tree/build.ts';
import { renderDisruptionTree } from '../../chaos/tree/render.ts';
import { disruptionTreeResources } from '../../chaos/tree/resources.ts';
import { buildRepositoryTree, type RepositoryTreeObjects } from '../../terrakojo/tree/build.ts';
import { renderRepositoryTree } from '../../terrakojo/tree/render.ts';
import { repositoryTreeResources } from '../../terrakojo/tree/resources.ts';
import { Redraw } from '../redraw.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

interface TreeOptions {
  namespace?: string;
  watch: boolean;
  wide: boolean;
  kubeconfig?: string;
  context?: string;
}

/** What one root of the tree shows: its title in --watch headers, what it is built from, and its rendering. */
interface View {
  title(namespace: string): string;
  resources: SnapshotResources<string>;
  render(namespace: string, objects: Snapshot<string>, options: RenderOptions): { text: string; found: boolean };
}

// Home, clear screen, clear scrollback: each render replaces the last one in a terminal.
const CLEAR_SCREEN = '\x1b[H\x1b[2J\x1b[3J';
// A terminal is redrawn at most ten times a second: a fast job writes statuses faster than anyone reads.
const MIN_REDRAW_INTERVAL_MS = 100;

function useColor(): boolean {
  const noColor = process.env['NO_COLOR'];
  return process.stdout.isTTY === true && (noColor === undefined || noColor === '');
}

function renderOptions(wide: boolean): Omit<RenderOptions, 'now'> {
  if (wide) return { color: useColor(), wide: true };
  const columns = process.stdout.isTTY ? process.stdout.columns : undefined;
  return { color: useColor(), ...(columns ? { maxErrorLength: Math.max(60, columns - 24) } : {}) };
}

function fail(err: unknown): never {
  process.stderr.write(`bosun tree: ${messageOf(err)}\n`);
  process.exit(1);
}

async function watchTree(client: KubeClient, namespace: string, view: View, wide: boolean): Promise<void> {
  const tty = process.stdout.isTTY === true;
  const color = useColor();
  const title = view.title(namespace);
  // The header's clock is not part of the picture: a redraw only when the tree itself changed.
  const redraw = new Redraw((picture) => {
    const header = `${title} at ${new Date().toISOString()}, updated on every change`;
    process.stdout.write(`${tty ? CLEAR_SCREEN : '\n'}${color ? `\x1b[2m${header}\x1b[22m` : header}${picture}`);
  }, tty ? MIN_REDRAW_INTERVAL_MS : 0);
  const watcher = new SnapshotWatcher(client, namespace, view.resources, (update) => {
    const stale = update.stale ? `  (watch failing, showing the last known state: ${update.stale})` : '';
    const body = view.render(namespace, update.objects, { ...renderOptions(wide), now: new Date() }).text;
    redraw.offer(`${stale}\n\n${body}`);
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(1);
    stopping = true;
    redraw.stop();
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

async function show(view: View, opts: TreeOptions): Promise<void> {
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
    const objects = await loadSnapshot(client, namespace, view.resources);
    if (!opts.watch) {
      const shown = view.render(namespace, objects, { ...renderOptions(opts.wide), now: new Date() });
      process.stdout.write(shown.text);
      await client.close();
      if (!shown.found) process.exitCode = 1;
      return;
    }
    await watchTree(client, namespace, view, opts.wide);
  } catch (err) {
    fail(err);
  }
}

// The snapshot holds what treeResources names, typed as the Landscaper kinds.
const landscaperObjects = (objects: Snapshot<string>): TreeObjects => objects as unknown as TreeObjects;

/** The view of one named Landscaper object, rooted where `build` roots it. */
function namedView(kind: string, name: string, build: (namespace: string, name: string, objects: TreeObjects) => TreeModel): View {
  return {
    title: (namespace) => `${kind} ${namespace}/${name}`,
    resources: treeResources,
    render: (namespace, objects, options) => {
      const model = build(namespace, name, landscaperObjects(objects));
      return { text: renderTree(model, options), found: model.root !== undefined };
    },
  };
}

/** A terrakojo Repository → Branches → Workflows (with their check runs) → Jobs → pods. */
function repositoryView(name: string): View {
  return {
    title: (namespace) => `Repository ${namespace}/${name}`,
    resources: repositoryTreeResources,
    render: (namespace, objects, options) => {
      const model = buildRepositoryTree(namespace, name, objects as unknown as RepositoryTreeObjects);
      return { text: renderRepositoryTree(model, options), found: model.root !== undefined };
    },
  };
}

/** A chaos Disruption → targets → per kind its injection status and chaos pod, and what cleanup waits for. */
function disruptionView(name: string, chaosNamespace: string): View {
  return {
    title: (namespace) => `Disruption ${namespace}/${name}`,
    resources: disruptionTreeResources(chaosNamespace),
    render: (namespace, objects, options) => {
      const model = buildDisruptionTree(namespace, name, objects as unknown as DisruptionTreeObjects);
      return { text: renderDisruptionTree(model, options), found: model.root !== undefined };
    },
  };
}

const installationsView: View = {
  title: (namespace) => `Installations in ${namespace}`,
  resources: treeResources,
  render: (namespace, objects, options) => ({ text: renderForest(buildForest(namespace, landscaperObjects(objects)), options), found: true }),
};

function withCommonOptions(command: Command, what: string): Command {
  return command
    .option('-n, --namespace <ns>', `namespace of the ${what} (default: the context's, else "default")`)
    .option('-w, --watch', 'keep watching and re-render when the tree changes (on a terminal at most 10 times a second)', false)
    .option('--wide', 'print error and wait messages whole instead of cutting them to the terminal\'s width', false)
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config; when that does not exist, ./.bosun/kubeconfig of a bosun up here)')
    .option('--context <name>', 'kubeconfig context to use');
}

export function treeCommand(): Command {
  const tree = new Command('tree').description('show a live tree of Landscaper, terrakojo or chaos objects');
  const roots = [
    { command: 'installation', alias: 'inst', kind: 'Installation', build: buildTree, description: 'an installation → subinstallations → execution → deploy items' },
    { command: 'execution', alias: 'exec', kind: 'Execution', build: buildExecutionTree, description: 'an execution → its deploy items' },
    { command: 'deployitem', alias: 'di', kind: 'DeployItem', build: buildDeployItemTree, description: 'one deploy item' },
  ] as const;
  for (const root of roots) {
    withCommonOptions(tree.command(root.command).alias(root.alias), root.command)
      .description(`${root.description}, with phase, job, duration, what it waits for and last error`)
      .argument('<name>', `the ${root.command}`)
      .action((name: string, opts: TreeOptions) => show(namedView(root.kind, name, root.build), opts));
  }
  withCommonOptions(tree.command('repository').alias('repo'), 'repository')
    .description('a terrakojo repository → branches → workflows with their check runs → jobs → pods')
    .argument('<name>', 'the Repository')
    .action((name: string, opts: TreeOptions) => show(repositoryView(name), opts));
  withCommonOptions(tree.command('disruption').alias('dis'), 'disruption')
    .description('a chaos disruption → targets → per kind its injection status and chaos pod, and what cleanup waits for')
    .argument('<name>', 'the Disruption')
    .option('--chaos-namespace <ns>', 'where the controller runs chaos pods', DEFAULT_CHAOS_NAMESPACE)
    .action((name: string, opts: TreeOptions & { chaosNamespace: string }) => show(disruptionView(name, opts.chaosNamespace), opts));
  withCommonOptions(tree.command('installations').alias('insts'), 'installations')
    .description('every top-level installation of the namespace with its tree')
    .action((opts: TreeOptions) => show(installationsView, opts));
  return tree;
}
