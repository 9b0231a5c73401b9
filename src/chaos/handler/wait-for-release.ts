// The chaos handler (upstream's chaos-handler image, run here as `bosun chaos-handler`): an init container that
// holds a pod labelled chaos.datadoghq.com/disrupt-on-init until an onInit disruption's injector has disrupted
// it and sends SIGUSR1, so the application starts already disrupted. It gives up after its timeout: exit 1 (the
// pod does not start undisrupted), or 0 with --succeed-on-timeout.

export interface HandlerOptions {
  timeoutMs: number;
  succeedOnTimeout: boolean;
  log: (message: string) => void;
}

/** Resolves with the exit code: 0 on SIGUSR1, 1 (or 0) on timeout. */
export function waitForRelease(options: HandlerOptions): Promise<number> {
  options.log(`waiting for SIGUSR1 (timeout ${Math.round(options.timeoutMs / 1000)}s)`);
  return new Promise((resolve) => {
    const release = (): void => {
      clearTimeout(timer);
      options.log('SIGUSR1 received, exiting');
      resolve(0);
    };
    const timer = setTimeout(() => {
      process.off('SIGUSR1', release);
      options.log('timed out, SIGUSR1 was never received, exiting');
      resolve(options.succeedOnTimeout ? 0 : 1);
    }, options.timeoutMs);
    process.once('SIGUSR1', release);
  });
}
