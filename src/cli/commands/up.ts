// `bosun up`: the embedded control plane on this machine. Controllers and the node agent join it later.
import { Command, InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';
import { startApiServer } from '../../apiserver/index.ts';
import { DataDirError } from '../../apiserver/storage/data-dir.ts';
import { StorageCorruptError } from '../../apiserver/storage/sqlite-store.ts';
import type { Manager } from '../../runtime/manager.ts';
import { bosunFamilies, familyCrds, selectFamilies } from '../families.ts';
import { runControllers } from './controllers.ts';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('not a port number');
  return n;
}

/** Turns start-up failures into one clear line. */
function explain(error: unknown, options: { port: number; bind: string; dataDir: string }): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `port ${options.port} on ${options.bind} is already in use (choose another with --port)`;
  if (code === 'EACCES') return `not allowed to listen on ${options.bind}:${options.port}`;
  if (code === 'EADDRNOTAVAIL') return `cannot bind ${options.bind}: no such local address`;
  if (error instanceof DataDirError || error instanceof StorageCorruptError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

interface UpOptions {
  dataDir: string;
  port: number;
  bind: string;
  inMemory: boolean;
  tlsCert?: string;
  tlsKey?: string;
  controllers?: string;
  /** false with --no-webhook. */
  webhook: boolean;
  webhookPort: number;
  metricsPort: number;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export function upCommand(): Command {
  return new Command('up')
    .description('start the embedded Kubernetes-compatible API server (and the controllers)')
    .option('--data-dir <dir>', 'where state, token and kubeconfig live', '.bosun')
    .option('--port <port>', 'port to listen on', port, 6443)
    .option('--bind <address>', 'address to listen on', '127.0.0.1')
    .option('--in-memory', 'keep state in memory only (tests)', false)
    .option('--tls-cert <file>', 'serve TLS with this certificate')
    .option('--tls-key <file>', 'the TLS private key')
    .option('--controllers <list>', `comma-separated controller families to run in-process (${bosunFamilies.map((f) => f.name).join(', ')}; default: all; "none" for just the API server)`)
    .option('--metrics-port <port>', 'port of the controllers\' /metrics, /healthz and /readyz (0 picks one)', port, 0)
    .option('--webhook-port <port>', 'loopback port of the controllers\' admission webhooks (0 picks one)', port, 0)
    .option('--no-webhook', 'serve no admission webhooks (writes are not validated beyond the CRD schemas)')
    .option('--log-level <level>', 'controllers\' log level: trace, debug, info, warn, error or silent', 'info')
    .action(async (options: UpOptions) => {
      if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) {
        console.error('bosun up: --tls-cert and --tls-key go together');
        process.exit(1);
      }
      const names = options.controllers === 'none' ? [] : options.controllers?.split(',').map((f) => f.trim()).filter(Boolean);
      try {
        selectFamilies(names);
      } catch (error) {
        console.error(`bosun up: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      }
      const dataDir = resolve(options.dataDir);
      let server;
      try {
        server = await startApiServer({
          dataDir,
          inMemory: options.inMemory,
          port: options.port,
          bind: options.bind,
          // Every shipped family's kinds, whichever controllers run here: others may run them elsewhere.
          crds: familyCrds(bosunFamilies),
          ...(options.tlsCert && options.tlsKey ? { tlsCert: options.tlsCert, tlsKey: options.tlsKey } : {}),
        });
      } catch (error) {
        console.error(`bosun up: ${explain(error, { ...options, dataDir })}`);
        process.exit(1);
      }
      const running = server;
      let manager: Manager | undefined;
      try {
        // The same controllers as `bosun controllers`, talking to this server over its own kubeconfig.
        manager = await runControllers(
          {
            embedded: true,
            kubeconfigContent: running.kubeconfig,
            leaderElect: false,
            leaderElectionId: 'bosun-controllers',
            metricsPort: options.metricsPort,
            metricsBindAddress: '127.0.0.1',
            logLevel: options.logLevel,
            ...(names ? { controllers: names } : {}),
            // The webhooks listen on loopback beside the in-process server. This process owns the server, so
            // any configuration of Bosun's that it does not serve now (left by a killed run, or of a family
            // not selected this time) is stale and would block writes: it is removed at start.
            webhook: options.webhook ? { serve: { bind: '127.0.0.1', port: options.webhookPort }, prune: 'all' } : { prune: 'all' },
          },
          bosunFamilies,
        );
      } catch (error) {
        console.error(`bosun up: controllers: ${error instanceof Error ? error.message : String(error)}`);
        await running.close();
        process.exit(1);
      }
      if (running.kubeconfigPath) console.log(`kubeconfig: ${running.kubeconfigPath}`);
      else console.log(`kubeconfig (in memory):\n${running.kubeconfig}`);
      console.log(`bosun is ready: API server listening on ${running.url}`);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`bosun: ${signal} received, shutting down`);
        (manager ? manager.stop() : Promise.resolve())
          .then(() => running.close())
          .then(
          () => process.exit(0),
          (error: unknown) => {
            console.error('bosun: shutdown failed:', error);
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
    });
}
