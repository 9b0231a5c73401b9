// `bosun inject <kind> ...`: the chaos injector, what chaos pods run (upstream's chaos-injector binary; hidden
// from `bosun --help`). One subcommand per kind (src/chaos/injector/kinds), each with the common flags and its
// own, plus the internal children `cpu-stress` and `memory-stress` that the pressure kinds start.
import { Command } from 'commander';
import { NODE_RUNTIME_SOCKET_ENV } from '../../client/node-runtime/protocol.ts';
import type { InjectorLogger, KindDefinition } from '../../chaos/injector/injector.ts';
import type { NodeRuntimePort } from '../../chaos/injector/node-runtime-port.ts';
import { kindDefinition, kindDefinitions } from '../../chaos/injector/kinds/index.ts';
import { EXIT_FAILURE, EXIT_LOGGER_FAILURE, runLifecycle } from '../../chaos/injector/lifecycle.ts';
import { createInjectorLogger } from '../../chaos/injector/logger.ts';
import { connectNodeRuntime } from '../../chaos/injector/node-runtime-connect.ts';
import { addCommonOptions, parseCommonOptions, type RawCommonOptions } from '../../chaos/injector/options.ts';
import { parseGoDuration, parseRfc3339 } from '../../chaos/injector/durations.ts';
import { runCpuStress } from '../../chaos/injector/stress/cpu-stress.ts';
import { runMemoryStress } from '../../chaos/injector/stress/memory-stress.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface InjectCommandDeps {
  /** The node runtime; default: connected through BOSUN_NODE_RUNTIME_SOCKET when set. */
  port?: NodeRuntimePort;
  kinds?: readonly KindDefinition[];
}

/** The logger, or exit 2 when it cannot be set up (upstream's exit code for a logger failure). */
function loggerOrExit(context: Record<string, string>): InjectorLogger {
  try {
    return createInjectorLogger(context);
  } catch (error) {
    process.stderr.write(`bosun inject: cannot set up logging: ${messageOf(error)}\n`);
    process.exit(EXIT_LOGGER_FAILURE);
  }
}

async function runKind(kind: KindDefinition, values: RawCommonOptions & Record<string, unknown>, deps: InjectCommandDeps): Promise<number> {
  const log = loggerOrExit({
    kind: kind.name,
    ...Object.fromEntries(
      Object.entries({ disruptionName: values.logContextDisruptionName, disruptionNamespace: values.logContextDisruptionNamespace, disruptionUID: values.logContextDisruptionUid, targetName: values.logContextTargetName, targetNodeName: values.logContextTargetNodeName }).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    ),
  });
  let options;
  try {
    options = parseCommonOptions(values);
  } catch (error) {
    log.error('injector initialization failed', { error });
    return EXIT_FAILURE;
  }
  let port = deps.port;
  const socket = process.env[NODE_RUNTIME_SOCKET_ENV];
  if (!port && socket) port = connectNodeRuntime(socket);
  const podName = process.env['INJECTOR_POD_NAME'];
  // The kinds that act through the node agent are bound to it now that it is connected.
  const bound = deps.kinds ? kind : (kindDefinition(kind.name, port ?? {}) ?? kind);
  return runLifecycle(bound, values, options, { log, ...(port ? { port } : {}), ...(podName ? { podName } : {}) });
}

function childOptions(command: Command): Command {
  return command
    .option('--join <dirs>', 'cgroup directories to join first, comma-separated', '')
    .option('--parent-pid <pid>', 'end when this process is gone')
    .option('--deadline <rfc3339>', 'end at this time');
}

interface ChildValues {
  join: string;
  parentPid?: string;
  deadline?: string;
}

function childCommon(values: ChildValues): { join: string[]; parentPid?: number; deadline?: Date } {
  return {
    join: values.join.split(',').filter((dir) => dir !== ''),
    ...(values.parentPid ? { parentPid: Number(values.parentPid) } : {}),
    ...(values.deadline ? { deadline: parseRfc3339('deadline', values.deadline) } : {}),
  };
}

async function runChild(name: string, run: (log: InjectorLogger) => Promise<number>): Promise<never> {
  const log = loggerOrExit({ kind: name, pid: String(process.pid) });
  try {
    process.exit(await run(log));
  } catch (error) {
    log.error(`${name} failed`, { error });
    process.exit(EXIT_FAILURE);
  }
}

export function injectCommand(deps: InjectCommandDeps = {}): Command {
  const command = new Command('inject').description('Run a chaos injector against the targets the flags name, as chaos pods do: inject, wait for a signal or the deadline, clean');
  for (const kind of deps.kinds ?? kindDefinitions()) {
    // Upstream's node-failure and pod-replacement take an `inject` word (`node-failure inject --shutdown`).
    const sub = addCommonOptions(new Command(kind.name).description(`inject ${kind.name}`).argument('[action]', 'upstream\'s "inject" (node-failure, pod-replacement)'));
    for (const option of kind.options) sub.option(option.flags, option.description, option.defaultValue);
    sub.action(async (action: string | undefined, values: RawCommonOptions & Record<string, unknown>) => {
      if (action !== undefined && action !== 'inject') sub.error(`error: unknown action '${action}' (only 'inject')`);
      process.exit(await runKind(kind, values, deps));
    });
    command.addCommand(sub);
  }
  const cpuStress = childOptions(new Command('cpu-stress').description('internal: the child cpu-pressure starts').option('--percentage <n>', 'share of the capacity to burn', '100').option('--cpus <n>', 'the capacity, in CPUs', '1'));
  cpuStress.action((values: ChildValues & { percentage: string; cpus: string }) =>
    runChild('cpu-stress', (log) => runCpuStress({ ...childCommon(values), percentage: Number(values.percentage), cpus: Number(values.cpus) }, log)),
  );
  const memoryStress = childOptions(
    new Command('memory-stress')
      .description('internal: the child memory-pressure starts')
      .option('--target-percent <n>', 'share of the memory limit to fill', '50')
      .option('--ramp-duration <duration>', 'reach it over this long', '0')
      .requiredOption('--limit-file <path>', 'memory.limit_in_bytes or memory.max')
      .requiredOption('--usage-file <path>', 'memory.usage_in_bytes or memory.current'),
  );
  memoryStress.action((values: ChildValues & { targetPercent: string; rampDuration: string; limitFile: string; usageFile: string }) =>
    runChild('memory-stress', (log) =>
      runMemoryStress({ ...childCommon(values), targetPercent: Number(values.targetPercent.replace(/%$/, '')), rampMs: parseGoDuration('ramp-duration', values.rampDuration), limitFile: values.limitFile, usageFile: values.usageFile }, log),
    ),
  );
  command.addCommand(cpuStress, { hidden: true });
  command.addCommand(memoryStress, { hidden: true });
  return command;
}
