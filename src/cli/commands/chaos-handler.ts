// `bosun chaos-handler --timeout D [--succeed-on-timeout]`: what the chaos handler init container runs (the node
// agent maps upstream's chaos-handler image here). It waits for the injector's SIGUSR1; see
// src/chaos/handler/wait-for-release.ts.
import { Command } from 'commander';
import { waitForRelease } from '../../chaos/handler/wait-for-release.ts';
import { durationNs } from '../../chaos/validation/values.ts';

export function chaosHandlerCommand(): Command {
  return new Command('chaos-handler')
    .description('hold a pod in its init phase until an onInit disruption has disrupted it and sends SIGUSR1')
    .option('--timeout <duration>', 'time to wait for the signal before exiting by itself', '1m')
    .option('--succeed-on-timeout', 'exit 0 after the timeout, so the pod starts anyway (default: exit 1)', false)
    .action(async (opts: { timeout: string; succeedOnTimeout: boolean }) => {
      const timeout = durationNs(opts.timeout);
      if (!timeout.ok || timeout.value < 0n) {
        process.stderr.write(`bosun chaos-handler: --timeout ${opts.timeout}: expected a duration such as 1m\n`);
        process.exit(1);
      }
      const log = (message: string): void => void process.stdout.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), msg: message })}\n`);
      process.exit(await waitForRelease({ timeoutMs: Number(timeout.value / 1_000_000n), succeedOnTimeout: opts.succeedOnTimeout, log }));
    });
}
