// A long-running command's exit on SIGINT or SIGTERM: say so once, run the shutdown, exit 0 (1 if it failed).
// A second signal means "now": exit at once without finishing the shutdown.
export function exitOnSignals(command: string, what: string, shutdown: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      console.error(`${command}: ${signal} received again, exiting without finishing the shutdown`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${command}: ${signal} received, ${what}`);
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`${command}: shutdown failed:`, error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
