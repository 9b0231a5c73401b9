// `bosun up`: the embedded control plane on this machine. Controllers and the node agent join it later.
import { Command, InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';
import { startApiServer } from '../../apiserver/index.ts';
import { DataDirError } from '../../apiserver/storage/data-dir.ts';
import { StorageCorruptError } from '../../apiserver/storage/sqlite-store.ts';
import { loadBosunCrds } from '../../crds/index.ts';

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

export function upCommand(): Command {
  return new Command('up')
    .description('start the embedded Kubernetes-compatible API server (and the controllers)')
    .option('--data-dir <dir>', 'where state, token and kubeconfig live', '.bosun')
    .option('--port <port>', 'port to listen on', port, 6443)
    .option('--bind <address>', 'address to listen on', '127.0.0.1')
    .option('--in-memory', 'keep state in memory only (tests)', false)
    .option('--tls-cert <file>', 'serve TLS with this certificate')
    .option('--tls-key <file>', 'the TLS private key')
    .action(async (options: { dataDir: string; port: number; bind: string; inMemory: boolean; tlsCert?: string; tlsKey?: string }) => {
      if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) {
        console.error('bosun up: --tls-cert and --tls-key go together');
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
          crds: loadBosunCrds(),
          ...(options.tlsCert && options.tlsKey ? { tlsCert: options.tlsCert, tlsKey: options.tlsKey } : {}),
        });
      } catch (error) {
        console.error(`bosun up: ${explain(error, { ...options, dataDir })}`);
        process.exit(1);
      }
      const running = server;
      if (running.kubeconfigPath) console.log(`kubeconfig: ${running.kubeconfigPath}`);
      else console.log(`kubeconfig (in memory):\n${running.kubeconfig}`);
      console.log(`bosun is ready: API server listening on ${running.url}`);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`bosun: ${signal} received, shutting down`);
        running.close().then(
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
