// The `bosun` command. Only the subcommand that runs is loaded: the others pull in the API server, the
// Kubernetes client and the families, which `bosun --help` or `bosun template render` need none of.
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { logDestination, logFormatOption, type LogFormat } from './log-format.ts';

interface Subcommand {
  /** The one line `bosun --help` lists it with (its own --help has the full description). */
  summary: string;
  load: () => Promise<Command>;
  /** Runs until signalled, and logs (--log-format): its output going nowhere is no reason to stop. */
  serves?: boolean;
  /** Left out of `bosun --help`: what pods run (the chaos injector and handler), not a user. */
  hidden?: boolean;
}

const subcommands: Record<string, Subcommand> = {
  up: { summary: 'start the embedded API server, the controllers and a node agent', load: async () => (await import('./commands/up.ts')).upCommand(), serves: true },
  controllers: { summary: 'run the controllers against a cluster', load: async () => (await import('./commands/controllers.ts')).controllersCommand(), serves: true },
  node: { summary: 'run a node agent that runs the pods bound to its Node', load: async () => (await import('./commands/node.ts')).nodeCommand(), serves: true },
  'webhook-server': { summary: "receive GitHub push and pull_request webhooks for terrakojo's Repository syncs", load: async () => (await import('./commands/webhook-server.ts')).webhookServerCommand(), serves: true },
  manifests: { summary: "print the CustomResourceDefinitions of Bosun's families", load: async () => (await import('./commands/manifests.ts')).manifestsCommand() },
  template: { summary: 'render a Go template as Landscaper does', load: async () => (await import('./commands/template.ts')).templateCommand() },
  blueprint: { summary: 'render a Landscaper blueprint without a cluster', load: async () => (await import('./commands/blueprint.ts')).blueprintCommand() },
  tree: { summary: 'show a live tree of Landscaper, terrakojo or chaos objects', load: async () => (await import('./commands/tree.ts')).treeCommand() },
  inject: { summary: 'run a chaos injector (what chaos pods run)', load: async () => (await import('./commands/inject.ts')).injectCommand(), hidden: true },
  chaos: { summary: 'validate chaos-controller Disruptions without a cluster', load: async () => (await import('./commands/chaos.ts')).chaosCommand() },
  'chaos-handler': { summary: "what an onInit disruption's chaos handler init container runs", load: async () => (await import('./commands/chaos-handler.ts')).chaosHandlerCommand(), hidden: true },
};

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The subcommand the arguments name (`bosun help X` names X), if any. */
function requested(args: readonly string[]): string | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

const wanted = requested(process.argv.slice(2));
const serving = wanted !== undefined && subcommands[wanted]?.serves === true;

// A reader that goes away must not leave a stack trace. A server (`bosun up | head -5`) keeps serving until it
// is told to stop, what it would have printed dropped (pino's own destination does the same); any other
// command ends as `yes | head` does, with the status a SIGPIPE gives.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (!serving) process.exit(128 + 13);
  });
}

const program = new Command('bosun').description('A TypeScript control plane for Kubernetes: Landscaper, terrakojo (GitHub pushes run as Jobs, mirrored into check runs), chaos Disruptions, and pods, Jobs and Deployments on its embedded control plane').version(version);
for (const [name, { summary, load, serves, hidden }] of Object.entries(subcommands)) {
  if (name !== wanted) {
    program.addCommand(new Command(name).summary(summary), { hidden: hidden === true });
    continue;
  }
  const command = (await load()).summary(summary);
  if (serves) {
    command.addOption(logFormatOption()).hook('preAction', async (_command, action) => {
      // Through process.stdout, not pino's own writer to fd 1: that one, flushing at exit into a closed pipe,
      // retries forever (sonic-boom loops on EPIPE), so `bosun up | head -5` never exited.
      const { setProcessLogDestination } = await import('../runtime/logger.ts');
      setProcessLogDestination(logDestination((action.opts() as { logFormat: LogFormat }).logFormat));
    });
  }
  program.addCommand(command, { hidden: hidden === true });
}

await program.parseAsync(process.argv);
