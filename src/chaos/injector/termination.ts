// SIGINT/SIGTERM and --deadline end the injector: the first of them aborts `signal` (a long injection or a wait
// stops early), and `ended` resolves with what it was. Upstream cancels its injector context the same way.
// The lifecycle ends it too when the node cannot run the disruption at all ('unsupported').
import { sleep } from './durations.ts';

export type TerminationReason = 'signal' | 'deadline' | 'unsupported';

export interface Termination {
  signal: AbortSignal;
  /** Resolves once a signal arrived, the deadline passed or end() was called. */
  ended: Promise<TerminationReason>;
  end(reason: TerminationReason): void;
  dispose(): void;
}

export function watchTermination(deadline: Date | undefined): Termination {
  const controller = new AbortController();
  let settle!: (reason: TerminationReason) => void;
  const ended = new Promise<TerminationReason>((resolve) => (settle = resolve));
  const end = (reason: TerminationReason): void => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    settle(reason);
  };
  const onSignal = (): void => end('signal');
  // Signal handlers do not keep Node running: with nothing else pending (container-failure holds no child),
  // the process would end instead of waiting.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const timers = new AbortController();
  if (deadline) {
    // setTimeout caps at ~24.8 days; sleep in slices so a far deadline still fires.
    void (async () => {
      while (!timers.signal.aborted && Date.now() < deadline.getTime()) await sleep(Math.min(deadline.getTime() - Date.now(), 2 ** 31 - 1), timers.signal);
      if (!timers.signal.aborted) end('deadline');
    })();
  }
  return {
    signal: controller.signal,
    ended,
    end,
    dispose: () => {
      timers.abort();
      clearInterval(keepAlive);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
