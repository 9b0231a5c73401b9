// The `bosun` command. Only the subcommand that runs is loaded: the others pull in the API server, the
// Kubernetes client and the families, which `bosun --help` or `bosun template render` need none of.
import { Command } from 'commander';
import { readFileSync } from 'node:fs';

interface Subcommand {
  /** The one line `bosun --help` lists it with (its own --help has the full description). */
  summary: string;
  load: () => Promise<Command>;
}

const subcommands: Record<string, Subcommand> = {
  up: { summary: 'start the embedded API server, the controllers and a node agent', load: async () => (await import('./commands/up.ts')).upCommand() },
  controllers: { summary: 'run the controllers against a cluster', load: async () => (await import('./commands/controllers.ts')).controllersCommand() },
  node: { summary: 'run a node agent that runs the pods bound to its Node', load: async () => (await import('./commands/node.ts')).nodeCommand() },
  manifests: { summary: "print the CustomResourceDefinitions of Bosun's families", load: async () => (await import('./commands/manifests.ts')).manifestsCommand() },
  template: { summary: 'render a Go template as Landscaper does', load: async () => (await import('./commands/template.ts')).templateCommand() },
  blueprint: { summary: 'render a Landscaper blueprint without a cluster', load: async () => (await import('./commands/blueprint.ts')).blueprintCommand() },
  tree: { summary: 'show a live tree of Landscaper objects', load: async () => (await import('./commands/tree.ts')).treeCommand() },
};

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The subcommand the arguments name (`bosun help X` names X), if any. */
function requested(args: readonly string[]): string | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

const program = new Command('bosun').description('A TypeScript control plane for Kubernetes: Landscaper, terrakojo workflows and chaos disruptions').version(version);
const wanted = requested(process.argv.slice(2));
for (const [name, { summary, load }] of Object.entries(subcommands)) {
  program.addCommand((name === wanted ? await load() : new Command(name)).summary(summary));
}

await program.parseAsync(process.argv);
