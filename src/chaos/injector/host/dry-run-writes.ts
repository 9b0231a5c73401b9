// --dry-run: every write is logged and skipped. Reads, target resolution and planning still run, so a dry run
// says what would have been done to which files and processes.
import type { InjectorLogger } from '../injector.ts';
import type { ChildProcessHandle, HostWrites } from './host-writes.ts';

/** A child that was never started: PID 0 (never signalled: kills go through these dry-run writes too), exits when killed. */
function neverStarted(): ChildProcessHandle {
  let exit!: (result: { code: number | null; signal: NodeJS.Signals | null }) => void;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => (exit = resolve));
  return { pid: 0, exited, reported: Promise.resolve(), kill: (signal) => exit({ code: null, signal }) };
}

export function createDryRunWrites(log: InjectorLogger): HostWrites {
  return {
    writeFile: (path, content) => {
      log.info('dry-run: would write file', { path, content });
      return Promise.resolve();
    },
    kill: (pid, signal) => {
      log.info('dry-run: would send signal', { pid, signal });
      return Promise.resolve();
    },
    spawn: (argv) => {
      log.info('dry-run: would start process', { argv: argv.join(' ') });
      return Promise.resolve(neverStarted());
    },
    run: (argv) => {
      log.info('dry-run: would run command', { argv: argv.join(' ') });
      return Promise.resolve({ code: 0, stdout: '', stderr: '' });
    },
    runtimeCall: (description) => {
      log.info('dry-run: would call the node runtime', { call: description });
      return Promise.resolve();
    },
  };
}
