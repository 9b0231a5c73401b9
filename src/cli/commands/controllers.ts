// `bosun controllers`: runs the controller manager against any cluster a kubeconfig reaches (or in-cluster).
// The selected families (src/runtime/family.ts) each register their controllers on the manager, and their
// admission webhooks on the process's one webhook server when the process serves webhooks.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Command, InvalidArgumentError } from 'commander';
import type { LevelWithSilent, Logger } from 'pino';
import type { KubeClient } from '../../client/client.ts';
import { createKubeClient } from '../../client/create-client.ts';
import type { Family } from '../../runtime/family.ts';
import { createLogger } from '../../runtime/logger.ts';
import { Manager } from '../../runtime/manager.ts';
import type { MetricsSecurity } from '../../runtime/metrics-server.ts';
import type { InProcessWebhooks } from '../../apiserver/admission/webhook-client.ts';
import { AdmissionWebhooks, pruneWebhookConfigurations, serviceOfUrl, WebhookCertificateSecret, WebhookServer } from '../../runtime/webhook/index.ts';
import { bosunFamilies, configuredFamilies, selectFamilies } from '../families.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface ControllersOptions {
  /** Bosun's own embedded control plane (`bosun up`): embedded-only families run by default too. */
  embedded?: boolean;
  kubeconfig?: string;
  /** Kubeconfig YAML itself (`bosun up` passes its own). */
  kubeconfigContent?: string;
  context?: string;
  namespace?: string;
  leaderElect: boolean;
  leaderElectionNamespace?: string;
  leaderElectionId: string;
  metricsPort: number;
  metricsBindAddress: string;
  /** HTTPS and a bearer token for /metrics (bosun up: its serving certificate and token). */
  metricsSecurity?: MetricsSecurity;
  /** Names of the families to run; default all available. */
  controllers?: string[];
  logLevel: LevelWithSilent;
  /** Admission webhooks; none are served when omitted. */
  webhook?: WebhookOptions;
  /**
   * Given when the API server runs in this process (`bosun up`): it is handed the served webhooks' answers, so
   * that it calls them in process instead of over HTTPS.
   */
  webhooksInProcess?: (answer: InProcessWebhooks) => void;
}

export interface WebhookOptions {
  /** Serve the families' admission webhooks; omitted: serve none. */
  serve?: {
    bind: string;
    port: number;
    /** The base URL the API server calls; derived from bind and port when omitted (not for 0.0.0.0). */
    url?: string;
    /** PEM contents of a shared serving certificate (replicas behind one URL); generated when omitted. */
    tls?: { cert: string; key: string; caBundle?: string };
    /** The Secret (in the Service's namespace) the replicas keep, share and rotate their certificate in. */
    certSecret?: { namespace: string; name: string; dnsName: string };
  };
  /**
   * Bosun's webhook configurations that are deleted at start unless served here: every one ('all', for
   * `bosun up`, which owns its API server) or those of the selected families ('selected'). Default: none.
   */
  prune?: 'all' | 'selected';
}

export class WebhookOptionsError extends Error {
  override readonly name = 'WebhookOptionsError' as const;
}

/** Without a server: delete the stale configurations the options ask to prune (best effort, before any controller runs). */
async function pruneUnserved(client: KubeClient, options: WebhookOptions, selected: readonly string[], log: Logger): Promise<void> {
  if (!options.prune) return;
  try {
    const deleted = await pruneWebhookConfigurations(client, options.prune === 'all' ? {} : { components: selected });
    if (deleted.length > 0) log.info({ deleted }, 'removed webhook configurations nothing serves');
  } catch (err) {
    log.warn({ err }, 'could not remove stale webhook configurations');
  }
}

/**
 * Builds and starts the manager with the families options.controllers selects from `available`; the caller
 * stops it. An unknown family is an UnknownFamilyError before anything connects.
 */
export async function runControllers(options: ControllersOptions, available: readonly Family[] = bosunFamilies): Promise<Manager> {
  const families = selectFamilies(options.controllers, available, { embedded: options.embedded === true });
  const selected = families.map((f) => f.name);
  const log = createLogger({ level: options.logLevel, name: 'bosun-controllers' });
  const client = createKubeClient({
    ...(options.kubeconfig !== undefined ? { kubeconfigPath: options.kubeconfig } : {}),
    ...(options.kubeconfigContent !== undefined ? { kubeconfig: options.kubeconfigContent } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    userAgent: 'bosun-controllers',
  });
  const mgr = new Manager({
    client,
    logger: log,
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    metricsServer: { port: options.metricsPort, host: options.metricsBindAddress, ...(options.metricsSecurity ? { security: options.metricsSecurity } : {}) },
    leaderElection: options.leaderElect
      ? { name: options.leaderElectionId, ...(options.leaderElectionNamespace !== undefined ? { namespace: options.leaderElectionNamespace } : {}) }
      : false,
  });
  const serve = options.webhook?.serve;
  const webhooks = serve
    ? new AdmissionWebhooks({
        client,
        logger: log.child({ component: 'webhooks' }),
        server: new WebhookServer({ host: serve.bind, port: serve.port, logger: log, ...(serve.url !== undefined ? { url: serve.url } : {}), ...(serve.tls ? { tls: serve.tls } : {}) }),
        ...(serve.certSecret ? { certificates: new WebhookCertificateSecret({ client, ...serve.certSecret }) } : {}),
        ...(options.webhook?.prune ? { prune: options.webhook.prune === 'all' ? ('all' as const) : selected } : {}),
      })
    : undefined;
  if (webhooks && options.webhooksInProcess) options.webhooksInProcess((url, body) => webhooks.server.answerInProcess(url, body));
  for (const family of families) family.register(mgr, webhooks ? { webhooks } : {});
  // Every replica serves webhooks, leader or not: the manager starts them before caches and controllers.
  if (webhooks && webhooks.configurations.length > 0) {
    mgr.add(webhooks);
    mgr.addReadyzCheck('webhooks', () => webhooks.ready);
  } else if (options.webhook) {
    await pruneUnserved(client, options.webhook, selected, log);
  } else {
    log.info('admission webhooks are not served: nothing is validated on write (give --webhook-url to serve them)');
  }
  void mgr.done.finally(() => client.close()).catch(() => {});
  await mgr.start();
  const webhookUrl = webhooks?.server.listening ? webhooks.server.url : undefined;
  log.info({ families: selected, leaderElect: options.leaderElect, metrics: mgr.metricsAddress, ...(webhookUrl ? { webhooks: webhookUrl } : {}) }, 'bosun controllers started');
  return mgr;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('not a port number');
  return n;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The webhook flags of `bosun controllers` as given on the command line. */
export interface WebhookFlags {
  /** false with --no-webhook. */
  webhook: boolean;
  webhookUrl?: string;
  webhookBind?: string;
  webhookPort?: number;
  webhookTlsCert?: string;
  webhookTlsKey?: string;
  webhookCaBundle?: string;
  webhookCertSecret?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * What the flags mean against an arbitrary cluster. The API server must be able to call the webhook, and
 * only the operator knows how, so webhooks are served when --webhook-url (or a concrete --webhook-bind
 * address) says where; otherwise they are off and an existing configuration is left alone.
 * --no-webhook turns them off and removes the selected families' configurations, as upstream does when
 * validation is disabled.
 */
export function resolveWebhookFlags(flags: WebhookFlags, read: (file: string) => string = (f) => readFileSync(f, 'utf8')): WebhookOptions | undefined {
  if (!flags.webhook) return { prune: 'selected' };
  const { webhookUrl: url, webhookBind, webhookPort, webhookTlsCert: certFile, webhookTlsKey: keyFile, webhookCaBundle: caFile } = flags;
  if (Boolean(certFile) !== Boolean(keyFile)) throw new WebhookOptionsError('--webhook-tls-cert and --webhook-tls-key go together');
  if (caFile && !certFile) throw new WebhookOptionsError('--webhook-ca-bundle needs --webhook-tls-cert and --webhook-tls-key');
  if (url === undefined && webhookBind === undefined) {
    if (webhookPort !== undefined || certFile) throw new WebhookOptionsError('the webhook flags need --webhook-url (or --webhook-bind with a concrete address): where the API server reaches the webhook');
    return undefined;
  }
  let host: string | undefined;
  let urlPort: number | undefined;
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new WebhookOptionsError(`--webhook-url ${url} is not a URL`);
    }
    if (parsed.protocol !== 'https:') throw new WebhookOptionsError(`--webhook-url ${url} must be https (the API server only calls webhooks over TLS)`);
    host = parsed.hostname.replace(/^\[|\]$/g, '');
    urlPort = parsed.port === '' ? 443 : Number(parsed.port);
  } else if (WILDCARD.has(webhookBind ?? '')) {
    throw new WebhookOptionsError(`--webhook-bind ${webhookBind} needs --webhook-url: the URL the API server reaches the webhook at`);
  } else if (webhookBind !== undefined && !isIP(webhookBind) && !LOOPBACK.has(webhookBind)) {
    throw new WebhookOptionsError(`--webhook-bind takes an IP address, not ${webhookBind}`);
  }
  // A URL on this machine is served on loopback, on its own port; any other URL reaches us through the
  // network (a Service, a load balancer), which maps its port to ours.
  const local = host !== undefined && LOOPBACK.has(host);
  const bind = webhookBind ?? (host !== undefined && !local ? '0.0.0.0' : '127.0.0.1');
  const listenPort = webhookPort ?? (local ? urlPort : undefined) ?? 9443;
  const tls = certFile && keyFile ? { cert: read(certFile), key: read(keyFile), ...(caFile ? { caBundle: read(caFile) } : {}) } : undefined;
  const certSecret = certSecretOf(flags);
  return { serve: { bind, port: listenPort, ...(url !== undefined ? { url } : {}), ...(tls ? { tls } : {}), ...(certSecret ? { certSecret } : {}) }, prune: 'selected' };
}

/** --webhook-cert-secret: kept in the namespace of the Service --webhook-url names, for that Service's name. */
function certSecretOf(flags: WebhookFlags): { namespace: string; name: string; dnsName: string } | undefined {
  const name = flags.webhookCertSecret;
  if (name === undefined) return undefined;
  if (flags.webhookTlsCert) throw new WebhookOptionsError('--webhook-cert-secret and --webhook-tls-cert exclude each other');
  const service = flags.webhookUrl === undefined ? undefined : serviceOfUrl(flags.webhookUrl);
  if (!service) throw new WebhookOptionsError('--webhook-cert-secret needs --webhook-url of a Service: https://NAME.NAMESPACE.svc[:PORT]');
  return { namespace: service.namespace, name, dnsName: `${service.name}.${service.namespace}.svc` };
}

export function controllersCommand(available: readonly Family[] = bosunFamilies): Command {
  return new Command('controllers')
    .description('run the Bosun controllers against a cluster (a kubeconfig, or in-cluster when none is found)')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, then in-cluster)')
    .option('--context <name>', 'kubeconfig context to use')
    .option('--namespace <ns>', 'only watch this namespace (default: all)')
    .option('--leader-elect', 'compete for a Lease so only one manager runs controllers', false)
    .option('--leader-election-namespace <ns>', 'namespace of the Lease (default: the context namespace)')
    .option('--leader-election-id <name>', 'name of the Lease', 'bosun-controllers')
    .option('--metrics-port <port>', 'port of /metrics, /healthz and /readyz (0 picks one)', port, 8080)
    .option('--metrics-bind-address <address>', 'address of the metrics server (0.0.0.0 to expose it)', '127.0.0.1')
    .option('--controllers <list>', `comma-separated families to run (${available.map((f) => f.name).join(', ')}); default all but ${available.filter((f) => f.embeddedOnly).map((f) => f.name).join(', ') || 'none'}, which a real cluster has its own of`, list)
    .option('--log-level <level>', 'trace, debug, info, warn, error or silent', 'info')
    .option('--webhook-url <url>', 'serve the admission webhooks; the https base URL the API server calls them at (e.g. https://bosun-webhook.bosun-system.svc:443)')
    .option('--webhook-bind <address>', 'address the webhook server listens on (default: 127.0.0.1 for a loopback --webhook-url, else 0.0.0.0)')
    .option('--webhook-port <port>', 'port the webhook server listens on (default: the port of a loopback --webhook-url, else 9443)', port)
    .option('--webhook-tls-cert <file>', 'serving certificate shared by the replicas behind --webhook-url (default: a CA and certificate made at start)')
    .option('--webhook-tls-key <file>', 'the key of --webhook-tls-cert')
    .option('--webhook-ca-bundle <file>', 'the CA the API server trusts for --webhook-tls-cert (default: the certificate itself)')
    .option('--webhook-cert-secret <name>', 'keep the serving certificate in this existing Secret of the --webhook-url Service\'s namespace: made once, shared by the replicas, renewed with a third of its validity left, its CA written as caBundle')
    .option('--no-webhook', 'serve no admission webhooks and remove the selected families\' webhook configurations')
    .option('--chaos-config <file>', "the chaos controller's configuration in upstream's format (controller:, injector:, handler:), over upstream's chart values")
    .action(async (opts: Omit<ControllersOptions, 'webhook'> & WebhookFlags & { chaosConfig?: string }) => {
      let mgr: Manager;
      try {
        const { webhook: _enabled, chaosConfig, ...rest } = opts;
        const webhook = resolveWebhookFlags(opts);
        const families = chaosConfig === undefined ? available : configuredFamilies({ chaosConfigFile: chaosConfig });
        mgr = await runControllers({ ...rest, ...(webhook ? { webhook } : {}) }, families);
      } catch (err) {
        console.error(`bosun controllers: ${messageOf(err)}`);
        process.exit(1);
      }
      let stopping = false;
      const stop = (): void => {
        // A second signal means "now".
        if (stopping) process.exit(1);
        stopping = true;
        void mgr.stop();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      try {
        await mgr.done;
      } catch (err) {
        // Lost leadership: exit so the supervisor restarts us as a fresh candidate.
        console.error(`bosun controllers: ${messageOf(err)}`);
        process.exit(1);
      }
    });
}
