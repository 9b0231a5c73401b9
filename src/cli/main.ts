// The `bosun` command. Only the subcommand that runs is loaded: the others pull in the API server, the
// Kubernetes client and the families, which `bosun --help` or `bosun template render` need none of.
import { Command } from 'commander';
import { logDestination, logFormatOption, type LogFormat } from './log-format.ts';
import { bosunVersion } from './bosun-version.ts';
import { subcommands } from './subcommands.ts';

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

const program = new Command('bosun').description('A TypeScript control plane for Kubernetes: Landscaper, terrakojo (GitHub pushes run as Jobs, mirrored into check runs), chaos Disruptions, and pods, Jobs and Deployments on its embedded control plane').version(bosunVersion);
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
