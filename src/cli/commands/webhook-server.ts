// `bosun webhook-server`: terrakojo's GitHub webhook receiver (upstream's separate /server binary) against any
// cluster a kubeconfig reaches (or in-cluster): a signed push or pull_request pokes the matching Repositories
// with terrakojo.io/sync-requested-at. `bosun up` runs the same server on loopback (startUpWebhookServer).
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import type { LevelWithSilent, Logger } from 'pino';
import { Registry } from 'prom-client';
import type { KubeClient } from '../../client/client.ts';
import { createKubeClient } from '../../client/create-client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { createLogger } from '../../runtime/logger.ts';
import { MetricsServer } from '../../runtime/metrics-server.ts';
import { repositoriesResource } from '../../terrakojo/api/resources.ts';
import { GitHubWebhookServer, WebhookSecretMissingError } from '../../terrakojo/webhook-server/webhook-server.ts';
import { exitOnSignals } from '../shutdown.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { explainListen } from '../listen-errors.ts';

export class WebhookSecretFileError extends Error {
  override readonly name = 'WebhookSecretFileError' as const;
}

/**
 * The webhook secret: the file's content when a file is given (a flag beats the environment), else
 * GITHUB_WEBHOOK_SECRET; undefined when neither holds one. A file's trailing line break is not part of it.
 */
export function webhookSecret(secretFile: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (secretFile === undefined) return env['GITHUB_WEBHOOK_SECRET'] || undefined;
  let text: string;
  try {
    text = readFileSync(secretFile, 'utf8');
  } catch (error) {
    throw new WebhookSecretFileError(`cannot read the secret file ${secretFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const secret = text.replace(/[\r\n]+$/, '');
  if (secret === '') throw new WebhookSecretFileError(`the secret file ${secretFile} is empty`);
  return secret;
}

/** Start-up failures as one line. */
function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('not a port number');
  return n;
}

interface WebhookServerFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  port: number;
  bind: string;
  secretFile?: string;
  insecureSkipSignature: boolean;
  metricsPort?: number;
  metricsBindAddress: string;
  logLevel: LevelWithSilent;
}

/**
 * One list of Repositories, so that a wrong kubeconfig, missing CRDs or missing RBAC show at start rather than
 * at the first delivery. Not fatal: the API may come up later, and deliveries are answered 503 until it does.
 */
async function checkAccess(client: KubeClient, namespace: string | undefined): Promise<void> {
  try {
    await client.list(repositoriesResource, { limit: 1, timeoutMs: 5_000, ...(namespace !== undefined ? { namespace } : {}) });
  } catch (error) {
    const reason = error instanceof NotFoundError ? 'the API server has no terrakojo.io Repository kind (install the CRDs: bosun manifests)' : messageOf(error);
    console.error(`bosun webhook-server: cannot list Repositories yet: ${reason}; deliveries are answered 503 until that works`);
  }
}

export function webhookServerCommand(): Command {
  return new Command('webhook-server')
    .description('receive GitHub webhook deliveries (push, pull_request) and request a sync of the matching terrakojo Repositories')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option('--context <name>', 'kubeconfig context to use')
    .option('--namespace <ns>', 'only sync Repositories in this namespace (default: all namespaces)')
    .option('--port <port>', 'port to listen on (0 picks one)', port, 8080)
    .option('--bind <address>', 'address to listen on (0.0.0.0 to let GitHub reach it directly)', '127.0.0.1')
    .option('--secret-file <file>', 'file holding the webhook secret (default: $GITHUB_WEBHOOK_SECRET)')
    .option('--insecure-skip-signature', 'accept deliveries without a valid X-Hub-Signature-256 (no secret needed; anyone who reaches the server can trigger syncs)', false)
    .option('--metrics-port <port>', 'serve /metrics, /healthz and /readyz on this port too (default: no metrics)', port)
    .option('--metrics-bind-address <address>', 'address of the metrics server', '127.0.0.1')
    .option('--log-level <level>', 'trace, debug, info, warn, error or silent', 'info')
    .action(async (flags: WebhookServerFlags) => {
      const fail: (message: string) => never = (message) => {
        console.error(`bosun webhook-server: ${message}`);
        process.exit(1);
      };
      let secret: string | undefined;
      try {
        secret = webhookSecret(flags.secretFile);
      } catch (error) {
        fail(messageOf(error));
      }
      if (secret === undefined && !flags.insecureSkipSignature) fail(new WebhookSecretMissingError().message);
      if (secret !== undefined && flags.insecureSkipSignature) console.error('bosun webhook-server: --insecure-skip-signature: the configured secret is not used');
      const log = createLogger({ level: flags.logLevel, name: 'bosun-webhook-server' });
      let client: KubeClient;
      try {
        client = createKubeClient({
          ...(flags.kubeconfig !== undefined ? { kubeconfigPath: flags.kubeconfig } : {}),
          ...(flags.context !== undefined ? { context: flags.context } : {}),
          userAgent: 'bosun-webhook-server',
        });
      } catch (error) {
        fail(`kubeconfig: ${messageOf(error)}`);
      }
      const registry = new Registry();
      const server = new GitHubWebhookServer({ client, logger: log, secret, insecureSkipSignature: flags.insecureSkipSignature, namespace: flags.namespace, registry });
      try {
        await server.listen(flags.port, flags.bind);
      } catch (error) {
        fail(explainListen(error, flags.bind, flags.port, '--port'));
      }
      let metrics: MetricsServer | undefined;
      if (flags.metricsPort !== undefined) {
        metrics = new MetricsServer(registry, log);
        metrics.addReadyzCheck('webhook-server', () => server.ready);
        try {
          await metrics.listen(flags.metricsPort, flags.metricsBindAddress);
        } catch (error) {
          fail(explainListen(error, flags.metricsBindAddress, flags.metricsPort, '--metrics-port'));
        }
      }
      await checkAccess(client, flags.namespace);
      console.log(`bosun webhook-server is ready: GitHub deliveries to ${server.url} sync the Repositories in ${flags.namespace === undefined ? 'all namespaces' : `namespace ${flags.namespace}`}`);
      exitOnSignals('bosun webhook-server', 'shutting down', async () => {
        await server.close();
        await metrics?.close();
        await client.close();
      });
    });
}

export interface UpWebhookServerOptions {
  /** false with --no-webhook-server. */
  enabled: boolean;
  port: number;
  secretFile?: string | undefined;
  kubeconfig: string;
  logger: Logger;
  /** The controllers' registry, so the delivery counters show on `bosun up`'s /metrics. */
  registry?: Registry | undefined;
}

/**
 * `bosun up`'s webhook server, on loopback. Without a secret it stays off (with one line saying how to turn it
 * on) rather than accepting unsigned deliveries: a loopback port is what a tunnel (smee, ngrok, cloudflared)
 * exposes to GitHub, and then to everyone. Returns undefined when it is off or could not start (said on stderr).
 */
export async function startUpWebhookServer(options: UpWebhookServerOptions): Promise<{ server: GitHubWebhookServer; client: KubeClient } | undefined> {
  if (!options.enabled) return undefined;
  let secret: string | undefined;
  try {
    secret = webhookSecret(options.secretFile);
  } catch (error) {
    console.error(`bosun up: GitHub webhook server not started: ${messageOf(error)}`);
    return undefined;
  }
  if (secret === undefined) {
    console.log('GitHub webhook server off: set GITHUB_WEBHOOK_SECRET or give --webhook-secret-file to receive push and pull_request deliveries');
    return undefined;
  }
  const client = createKubeClient({ kubeconfig: options.kubeconfig, userAgent: 'bosun-webhook-server' });
  const server = new GitHubWebhookServer({ client, logger: options.logger, secret, ...(options.registry ? { registry: options.registry } : {}) });
  try {
    await server.listen(options.port, '127.0.0.1');
  } catch (error) {
    console.error(`bosun up: GitHub webhook server not started: ${explainListen(error, '127.0.0.1', options.port, '--webhook-server-port')}`);
    await client.close();
    return undefined;
  }
  return { server, client };
}
