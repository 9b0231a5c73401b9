// `bosun up`: the embedded control plane on this machine: the API server, the controller families and a node
// agent that runs the pods.
import { Command, InvalidArgumentError } from 'commander';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { DurationError, parseGoDuration } from '../../apimachinery/duration.ts';
import { isLevel, type Level } from '../../apiserver/admission/pod-security/policy-levels.ts';
import { startApiServer } from '../../apiserver/index.ts';
import { serviceNetwork } from '../../apiserver/services/service-network.ts';
import { DataDirError, prepareDataDir } from '../../apiserver/storage/data-dir.ts';
import { StorageCorruptError } from '../../apiserver/storage/sqlite-store.ts';
import { createKubeClient } from '../../client/create-client.ts';
import { loadOrCreateKubeletPki } from '../../node/kubelet-api/kubelet-pki.ts';
import type { RunningNode } from '../../node/start-node.ts';
import { createLogger } from '../../runtime/logger.ts';
import type { Manager } from '../../runtime/manager.ts';
import { bosunFamilies, configuredFamilies, familyCrds, selectFamilies } from '../families.ts';
import { exitOnSignals } from '../shutdown.ts';
import { runControllers } from './controllers.ts';
import { startNodeFromFlags, stoppedPodsMessage, withNodeFlags, type NodeFlags } from './node.ts';
import { startUpWebhookServer } from './webhook-server.ts';
import { messageOf } from '../../apimachinery/error-message.ts';
import { bosunVersion } from '../bosun-version.ts';
import { explainListen } from '../listen-errors.ts';
import { startDashboard, type RunningDashboard } from '../../dashboard/server.ts';
import { dashboardViews } from '../dashboard-views.ts';
import { DEFAULT_DASHBOARD_PORT } from './dashboard.ts';

/** kube-controller-manager's secure port: the same place every start, for a scraper's config. */
export const DEFAULT_METRICS_PORT = 10257;

function duration(value: string): number {
  try {
    return parseGoDuration(value);
  } catch (error) {
    if (error instanceof DurationError) throw new InvalidArgumentError('not a duration such as 40s or 1m');
    throw error;
  }
}

function podSecurityLevel(value: string): Level {
  if (!isLevel(value)) throw new InvalidArgumentError('not one of privileged, baseline, restricted');
  return value;
}

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
  return messageOf(error);
}

interface UpOptions extends NodeFlags {
  dashboard: boolean;
  dashboardPort: number;
  dataDir: string;
  port: number;
  bind: string;
  inMemory: boolean;
  tlsCert?: string;
  tlsKey?: string;
  tokenAuthFile?: string;
  controllers?: string;
  /** false with --no-webhook. */
  webhook: boolean;
  webhookPort: number;
  metricsPort: number;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** false with --no-node. */
  node: boolean;
  nodeName: string;
  nodeMonitorGracePeriod?: number;
  /** false with --no-webhook-server. */
  webhookServer: boolean;
  webhookServerPort: number;
  webhookSecretFile?: string;
  chaosConfig?: string;
  podSecurity: Level;
  serviceClusterIpRange?: string;
}

export function upCommand(): Command {
  return withNodeFlags(new Command('up'))
    .description('start the embedded Kubernetes-compatible API server, the controllers and a node agent')
    .option('--data-dir <dir>', 'where state, token and kubeconfig live', '.bosun')
    .option('--port <port>', 'port to listen on', port, 6443)
    .option('--bind <address>', 'address to listen on', '127.0.0.1')
    .option('--in-memory', 'keep state in memory only (tests)', false)
    .option('--tls-cert <file>', 'serve TLS with this certificate')
    .option('--tls-key <file>', 'the TLS private key')
    .option('--token-auth-file <file>', 'further users\' bearer tokens, a CSV of token,user,uid,"group1,group2" (kube-apiserver\'s flag)')
    .option('--controllers <list>', `comma-separated controller families to run in-process (${bosunFamilies.map((f) => f.name).join(', ')}; default: all; "none" for just the API server)`)
    .option('--metrics-port <port>', `loopback port of the controllers' /metrics, /healthz and /readyz (0 picks one)`, port, DEFAULT_METRICS_PORT)
    .option('--webhook-port <port>', 'loopback port of the controllers\' admission webhooks (0 picks one)', port, 0)
    .option('--no-webhook', 'serve no admission webhooks (writes are not validated beyond the CRD schemas)')
    .option('--log-level <level>', 'controllers\' log level: trace, debug, info, warn, error or silent', 'info')
    .option('--no-node', 'run no node agent (pods stay Pending unless another agent joins with bosun node)')
    .option('--node-name <name>', 'the node agent\'s Node', hostname().toLowerCase())
    .option('--node-monitor-grace-period <duration>', 'how long a node may stay silent before it is NotReady (kube-controller-manager\'s flag)', duration)
    .option('--webhook-server-port <port>', 'loopback port of the GitHub webhook server (bosun webhook-server; 0 picks one)', port, 8080)
    .option('--webhook-secret-file <file>', 'file holding the GitHub webhook secret (default: $GITHUB_WEBHOOK_SECRET; without one the webhook server is off)')
    .option('--no-webhook-server', 'run no GitHub webhook server')
    .option('--pod-security <level>', 'Pod Security level (enforce, audit and warn) of namespaces without pod-security.kubernetes.io labels: privileged, baseline or restricted', podSecurityLevel, 'baseline')
    .option('--service-cluster-ip-range <cidr>', 'the IPv4 CIDR Services get their ClusterIPs from (kube-apiserver\'s flag; default 10.96.0.0/12)')
    .option('--dashboard-port <port>', 'loopback port of the web dashboard (0 picks one)', port, DEFAULT_DASHBOARD_PORT)
    .option('--no-dashboard', 'serve no web dashboard')
    .option('--chaos-config <file>', "the chaos controller's configuration in upstream's format (controller:, injector:, handler:), over upstream's chart values")
    .action(async (options: UpOptions) => {
      if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) {
        console.error('bosun up: --tls-cert and --tls-key go together');
        process.exit(1);
      }
      const names = options.controllers === 'none' ? [] : options.controllers?.split(',').map((f) => f.trim()).filter(Boolean);
      try {
        selectFamilies(names);
      } catch (error) {
        console.error(`bosun up: ${messageOf(error)}`);
        process.exit(1);
      }
      let families;
      try {
        families = configuredFamilies({
          embedded: true,
          ...(options.chaosConfig !== undefined ? { chaosConfigFile: options.chaosConfig } : {}),
          ...(options.nodeMonitorGracePeriod !== undefined ? { nodeMonitorGracePeriodMs: options.nodeMonitorGracePeriod } : {}),
        });
      } catch (error) {
        console.error(`bosun up: ${messageOf(error)}`);
        process.exit(1);
      }
      const dataDir = resolve(options.dataDir);
      const apiserverLog = createLogger({ level: options.logLevel, name: 'bosun-apiserver' });
      let server;
      let kubeletPki;
      try {
        // The kubelet PKI lives in the data dir: made (or found unusable) before anything is written there.
        prepareDataDir(dataDir);
        kubeletPki = await loadOrCreateKubeletPki(join(dataDir, 'pki', 'kubelet'));
        server = await startApiServer({
          kubeletClient: { cert: kubeletPki.apiserverClient.cert, key: kubeletPki.apiserverClient.key, ca: kubeletPki.ca },
          dataDir,
          inMemory: options.inMemory,
          port: options.port,
          bind: options.bind,
          // Every shipped family's kinds, whichever controllers run here: others may run them elsewhere.
          crds: familyCrds(bosunFamilies),
          podSecurity: options.podSecurity,
          ...(options.serviceClusterIpRange !== undefined ? { serviceClusterIPRange: options.serviceClusterIpRange } : {}),
          ...(options.clusterDns?.[0] !== undefined ? { clusterDNS: options.clusterDns[0] } : {}),
          // kube-apiserver writes these to its audit log; Bosun has none, so they are logged.
          onPodSecurityAudit: (event) => apiserverLog.warn(event, 'pod security audit violation'),
          ...(options.tlsCert && options.tlsKey ? { tlsCert: options.tlsCert, tlsKey: options.tlsKey } : {}),
          ...(options.tokenAuthFile !== undefined ? { tokenAuthFile: options.tokenAuthFile } : {}),
        });
      } catch (error) {
        console.error(`bosun up: ${explain(error, { ...options, dataDir })}`);
        process.exit(1);
      }
      const running = server;
      let manager: Manager | undefined;
      try {
        // The same controllers as `bosun controllers`, talking to this server over its in-process kubeconfig.
        manager = await runControllers(
          {
            embedded: true,
            kubeconfigContent: running.inProcessKubeconfig,
            leaderElect: false,
            leaderElectionId: 'bosun-controllers',
            metricsPort: options.metricsPort,
            metricsBindAddress: '127.0.0.1',
            // A pod on the host network reaches loopback: /metrics over HTTPS (the API server's certificate, which
            // the kubeconfig trusts) and only for the API server's token.
            metricsSecurity: { token: running.token, tls: { cert: running.caCert, key: running.servingKey } },
            logLevel: options.logLevel,
            ...(names ? { controllers: names } : {}),
            // The webhooks listen on loopback beside the in-process server. This process owns the server, so
            // any configuration of Bosun's that it does not serve now (left by a killed run, or of a family
            // not selected this time) is stale and would block writes: it is removed at start.
            webhook: options.webhook ? { serve: { bind: '127.0.0.1', port: options.webhookPort }, prune: 'all' } : { prune: 'all' },
            // They still listen for other API servers, but this one calls them in process: no TLS round trip per write.
            webhooksInProcess: (answer) => running.callWebhooksInProcess(answer),
          },
          families,
        );
      } catch (error) {
        const metricsPortTaken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' && messageOf(error).endsWith(`:${options.metricsPort}`);
        const reason = metricsPortTaken ? `metrics: ${explainListen(error, '127.0.0.1', options.metricsPort, '--metrics-port, or 0 for any free port')}` : messageOf(error);
        if (!running.store.diskFull) {
          console.error(`bosun up: controllers: ${reason}`);
          await running.close();
          process.exit(1);
        }
        // Their start writes (webhook configurations); on a full disk the API server still serves reads.
        console.error(`bosun up: controllers not started: ${reason}; the API server serves reads, restart once space is freed`);
      }
      let node: RunningNode | undefined;
      if (options.node) {
        try {
          // Pods' resolv.conf names the kube-dns address the API server gave kube-dns, unless --cluster-dns says otherwise.
          const clusterDns = options.clusterDns ?? [serviceNetwork(options.serviceClusterIpRange, undefined).clusterDNS];
          node = await startNodeFromFlags({ ...options, clusterDns }, {
            client: createKubeClient({ kubeconfig: running.inProcessKubeconfig, userAgent: 'bosun-node' }),
            nodeName: options.nodeName,
            dataDir: join(dataDir, 'nodes', options.nodeName),
            hiddenDirs: [dataDir],
            kubeletPki,
            logger: createLogger({ level: options.logLevel, name: 'bosun-node' }),
          });
        } catch (error) {
          // The control plane is still useful without a node (Landscaper, another agent joining with bosun node).
          const code = (error as NodeJS.ErrnoException).code;
          const hint = code === 'EACCES' || code === 'EPERM' ? ' (the node agent needs root: cgroups, namespaces and mounts; run as root, or pass --no-node)' : '';
          console.error(`bosun up: node agent not started: ${messageOf(error)}${hint}`);
        }
      }
      const github = await startUpWebhookServer({
        enabled: options.webhookServer,
        port: options.webhookServerPort,
        secretFile: options.webhookSecretFile,
        kubeconfig: running.inProcessKubeconfig,
        logger: createLogger({ level: options.logLevel, name: 'bosun-webhook-server' }),
        registry: manager?.metrics.registry,
      });
      let dashboard: RunningDashboard | undefined;
      if (options.dashboard) {
        try {
          dashboard = await startDashboard({
            client: createKubeClient({ kubeconfig: running.inProcessKubeconfig, userAgent: 'bosun-dashboard' }),
            views: dashboardViews(),
            apiToken: running.token,
            port: options.dashboardPort,
          });
        } catch (error) {
          // A view is a convenience: the cluster runs without it (another bosun up may hold the port).
          console.error(`bosun up: dashboard not started: ${explainListen(error, '127.0.0.1', options.dashboardPort, '--dashboard-port, or 0 for any free port')}`);
        }
      }
      if (running.kubeconfigPath) console.log(`kubeconfig: ${running.kubeconfigPath}`);
      else console.log(`kubeconfig (in memory):\n${running.kubeconfig}`);
      const nodeText = node ? `; node ${node.nodeName} runs pods (pod network ${node.podNetwork})` : '';
      const metrics = manager?.metricsAddress;
      const metricsText = metrics ? `; metrics on https://${metrics.family === 'IPv6' ? `[${metrics.address}]` : metrics.address}:${metrics.port}/metrics` : '';
      const githubText = github ? `; GitHub webhooks on ${github.server.url}` : '';
      // A one-time login link, as Jupyter prints one: the secret in it works once and then the session cookie does.
      if (dashboard) console.log(`dashboard: ${dashboard.loginUrl()}`);
      console.log(`bosun is ready: API server listening on ${running.url}${nodeText}${metricsText}${githubText}; bosun ${bosunVersion}`);
      // Deliveries stop first, then the node's pods (as a node's graceful shutdown does), then the controllers, then the server.
      // The server closes (and releases the data dir's lock) even when a part before it fails to stop.
      exitOnSignals('bosun', 'shutting down', async () => {
        try {
          await dashboard?.close();
          await github?.server.close();
          await github?.client.close();
          // Image containers run on under conmon: the next bosun up on this data dir adopts them.
          const stopped = await node?.stop({ killPods: true, keepImageContainers: true });
          if (stopped !== undefined) console.log(`bosun: ${stoppedPodsMessage(stopped)}`);
          await manager?.stop();
        } finally {
          await running.close();
        }
      });
    });
}
