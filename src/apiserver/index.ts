// The embedded Kubernetes-compatible API server: storage, registry, lifecycle controllers and HTTP, wired.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { KubeObject } from '../apimachinery/object.ts';
import { AdmittedWrites } from './admission/admitted-writes.ts';
import { PodSecurityAdmission, type PodSecurityAuditEvent } from './admission/pod-security/pod-security-admission.ts';
import type { Level } from './admission/pod-security/policy-levels.ts';
import { POD_SECURITY_ENFORCE_LABEL, TRUSTED_NAMESPACE_LABELS } from '../apimachinery/pod-security-labels.ts';
import { WebhookDispatcher } from './admission/webhook-dispatcher.ts';
import type { InProcessWebhooks } from './admission/webhook-client.ts';
import { adminTokenAuthenticator } from './auth/authenticator.ts';
import { generateToken, loadOrCreateToken, tokensEqual } from './auth/bearer-token.ts';
import { loadOrCreateSigningKey } from './auth/service-account-key.ts';
import { ServiceAccountTokens } from './auth/service-account-tokens.ts';
import { audienceAgnostic, bearerAuthenticator, firstToken } from './auth/token-authenticator.ts';
import { tokenFileAuthenticator } from './auth/token-file.ts';
import { reviewToken } from './auth/token-review.ts';
import { adminUser } from './auth/user-info.ts';
import { installRbac } from './auth/rbac/install-rbac.ts';
import type { RequestAuth } from './auth/request-auth.ts';
import { kubeconfigFor } from './auth/kubeconfig.ts';
import { loadOrCreateServingCert } from './auth/serving-cert.ts';
import type { HandlerContext, KubeletClientTls } from './handlers/context.ts';
import { createUpgradeHandler } from './handlers/pod-exec.ts';
import { tableConverter } from './handlers/table-view.ts';
import { WatchRegistry } from './storage/watch-registry.ts';
import { createRouter, type RequestLogEntry } from './router.ts';
import { defaultCrd } from './crd/crd-validation.ts';
import { CrdController, crdResourceType } from './lifecycle/crd-controller.ts';
import { GarbageCollector } from './lifecycle/garbage-collector.ts';
import { ClusterRoleAggregationController } from './lifecycle/cluster-role-aggregation-controller.ts';
import { NamespaceController } from './lifecycle/namespace-controller.ts';
import { ServiceAccountController } from './lifecycle/service-account-controller.ts';
import { ServiceAccountTokenController } from './lifecycle/service-account-token-controller.ts';
import { builtinResources } from './registry/builtin-resources.ts';
import { ObjectService } from './registry/object-service.ts';
import { ResourceRegistry } from './registry/registry.ts';
import type { ResourceType } from './registry/resource-type.ts';
import { managedFieldsRecorder } from './registry/field-manager.ts';
import { lockDataDir } from './storage/data-dir.ts';
import { SqliteStore, type RetentionPolicy } from './storage/sqlite-store.ts';
import { serviceNetwork } from './services/service-network.ts';
import { serviceStrategy } from './services/service-strategy.ts';
import { seedDefaultStorageClass, storedClasses } from './registry/default-storage-class.ts';
import { persistentVolumeClaimStrategy } from './registry/storage-strategy.ts';
import { ingressStrategy, storedIngressClasses } from './networking/ingress-strategy.ts';
import { listenAddress, SystemServices } from './services/system-services.ts';

export interface ApiServerOptions {
  /**
   * Keep the kube-root-ca.crt ConfigMap in every namespace (default true); false is kube-controller-manager's
   * --controllers=-root-ca-cert-publisher, for tests that count a namespace's ConfigMaps.
   */
  rootCAPublisher?: boolean;
  /** Where the SQLite database, token and kubeconfig live. Ignored with inMemory. */
  dataDir?: string;
  inMemory?: boolean;
  port?: number;
  bind?: string;
  /** A TLS certificate and key to serve; by default a self-signed one is made (and kept in the data dir). */
  tlsCert?: string;
  tlsKey?: string;
  /** A fixed bearer token; by default one is generated (and kept in the data dir). */
  token?: string;
  /** kube-apiserver's --token-auth-file: a CSV of further users' static tokens (token,user,uid,"group1,group2"). */
  tokenAuthFile?: string;
  retention?: RetentionPolicy;
  /** The client certificate the API server presents to node agents' kubelet APIs (pods/log, pods/exec), and their CA. */
  kubeletClient?: KubeletClientTls;
  bookmarkIntervalMs?: number;
  /** CRDs to install (created, or updated when they differ) before the server answers. */
  crds?: KubeObject[];
  onRequest?: (entry: RequestLogEntry) => void;
  onError?: (error: unknown) => void;
  /** The Pod Security level of namespaces without pod-security.kubernetes.io labels (every mode); default baseline. */
  podSecurity?: Level;
  /** The service CIDR ClusterIPs are allocated from (kube-apiserver's --service-cluster-ip-range); default 10.96.0.0/12. */
  serviceClusterIPRange?: string;
  /** The address of kube-system/kube-dns; default the tenth address of the service CIDR (10.96.0.10). */
  clusterDNS?: string;
  /** Pod Security audit mode's violations (kube-apiserver writes them to its audit log, which Bosun does not keep). */
  onPodSecurityAudit?: (event: PodSecurityAuditEvent) => void;
}

export interface RunningApiServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** The serving certificate (PEM): clients trust it as the CA. */
  readonly caCert: string;
  /** Its private key (PEM), for other loopback endpoints of this process that serve the same certificate. */
  readonly servingKey: string;
  /** Kubeconfig YAML: the https server, its certificate as CA, the bearer token. */
  readonly kubeconfig: string;
  /**
   * Kubeconfig YAML for clients in this process (bosun up's controllers, node agent, dashboard): plain HTTP on a
   * loopback port, the same bearer token. Both ends of a TLS connection in one process hold OpenSSL's buffers
   * twice, per watch and per connection a burst opens (17 of the 31 MB of native memory at the peak of
   * bench:idle's load), and the process kept that heap after the burst.
   */
  readonly inProcessKubeconfig: string;
  readonly kubeconfigPath: string | undefined;
  readonly store: SqliteStore;
  readonly registry: ResourceRegistry;
  readonly objects: ObjectService;
  /** Drops the watch history: watches from older resourceVersions then get 410 Expired. */
  compact(): void;
  /** Admission webhooks served in this process: their reviews are answered by `answer` instead of over HTTPS. */
  callWebhooksInProcess(answer: InProcessWebhooks | undefined): void;
  close(): Promise<void>;
}

const seedNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
/** The control plane's own namespace is trusted: labelled privileged when made, or when it has no enforce label yet. */
const TRUSTED_SEED_NAMESPACE = 'kube-system';

function seedNamespacesIn(objects: ObjectService, nsType: ResourceType): void {
  for (const name of seedNamespaces) {
    const labels = name === TRUSTED_SEED_NAMESPACE ? TRUSTED_NAMESPACE_LABELS : undefined;
    const existing = objects.find(nsType, '', name);
    if (!existing) objects.create(nsType, '', { metadata: { name, ...(labels ? { labels } : {}) } }, { fieldManager: 'bosun' });
    else if (labels && existing.object.metadata.labels?.[POD_SECURITY_ENFORCE_LABEL] === undefined) {
      objects.mutate(nsType, existing, (ns) => {
        ns.metadata.labels = { ...ns.metadata.labels, ...labels };
      });
    }
  }
}

function installCrds(objects: ObjectService, registry: ResourceRegistry, crds: KubeObject[]): void {
  const type = registry.byStorageKey('apiextensions.k8s.io/customresourcedefinitions')!;
  for (const crd of crds) {
    const name = crd.metadata.name ?? '';
    const existing = objects.find(type, '', name);
    // Compare as stored (defaulted), so an unchanged manifest is not rewritten on every start.
    const wanted = defaultCrd(structuredClone(crd));
    if (!existing) objects.create(type, '', crd, { fieldManager: 'bosun' });
    else if (JSON.stringify(existing.object['spec']) !== JSON.stringify(wanted['spec'])) {
      const metadata = { ...existing.object.metadata, labels: crd.metadata.labels };
      objects.update(type, '', name, { ...wanted, metadata }, { fieldManager: 'bosun' });
    }
  }
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<RunningApiServer> {
  const inMemory = options.inMemory ?? false;
  const dataDir = inMemory ? undefined : (options.dataDir ?? '.bosun');
  // Checked before anything is opened: a bad flag fails the start with its message.
  const network = serviceNetwork(options.serviceClusterIPRange, options.clusterDNS);
  const tokenFile = options.tokenAuthFile ? tokenFileAuthenticator(options.tokenAuthFile) : undefined;
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let store: SqliteStore;
  try {
    store = new SqliteStore(dataDir ? join(dataDir, 'bosun.db') : ':memory:', options.retention);
  } catch (error) {
    unlock();
    throw error;
  }
  const onError = options.onError ?? ((error: unknown) => console.error('bosun apiserver:', error));
  const registry = new ResourceRegistry();
  for (const type of builtinResources) {
    registry.add(type.kind === 'CustomResourceDefinition' ? crdResourceType() : type.kind === 'Service' ? { ...type, ...serviceStrategy(network) } : type.kind === 'PersistentVolumeClaim' ? { ...type, ...persistentVolumeClaimStrategy(storedClasses(store)) } : type.kind === 'Ingress' ? { ...type, ...ingressStrategy(storedIngressClasses(store)) } : type);
  }
  const objects = new ObjectService(store, managedFieldsRecorder(registry));
  seedNamespacesIn(objects, registry.byStorageKey('/namespaces')!);
  seedDefaultStorageClass(objects, registry.byStorageKey('storage.k8s.io/storageclasses')!);
  const parts = { store, registry, objects, onError };
  const crdController = new CrdController(parts);
  const gc = new GarbageCollector(parts);
  const namespaces = new NamespaceController(parts);
  if (options.crds) installCrds(objects, registry, options.crds);

  const token = options.token ?? (dataDir ? loadOrCreateToken(dataDir) : generateToken());
  // Authentication and authorization of every request (docs/apiserver.md, "Authentication and authorization").
  const serviceAccountTokens = new ServiceAccountTokens(store, loadOrCreateSigningKey(dataDir));
  const bearerTokens = [...(tokenFile ? [tokenFile] : []), serviceAccountTokens.authenticate];
  const rbac = installRbac(parts);
  const roleAggregation = new ClusterRoleAggregationController(parts);
  const auth: RequestAuth = { authenticators: [adminTokenAuthenticator(token), bearerAuthenticator(firstToken(bearerTokens))], authorizer: rbac.authorizer };
  const tokenReview = registry.byStorageKey('authentication.k8s.io/tokenreviews')!;
  const everyToken = firstToken([audienceAgnostic((t) => (tokensEqual(t, token) ? adminUser : undefined)), ...bearerTokens]);
  registry.add({ ...tokenReview, review: reviewToken(everyToken) });
  const watches = new WatchRegistry();
  const webhooks = new WebhookDispatcher({ store, registry });
  const ctx: HandlerContext = {
    registry,
    store,
    objects,
    writes: new AdmittedWrites(
      objects,
      webhooks,
      new PodSecurityAdmission(store, { defaultLevel: options.podSecurity ?? 'baseline', ...(options.onPodSecurityAudit ? { onAudit: options.onPodSecurityAudit } : {}) }),
    ),
    watches,
    tables: tableConverter,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 15_000,
    kubeletClient: options.kubeletClient,
    serviceAccountTokens,
  };
  const handler = createRouter(ctx, { auth, onError, ...(options.onRequest ? { onRequest: options.onRequest } : {}) });
  const bind = options.bind ?? '127.0.0.1';
  const tls =
    options.tlsCert && options.tlsKey
      ? { cert: readFileSync(options.tlsCert, 'utf8'), key: readFileSync(options.tlsKey, 'utf8') }
      : await loadOrCreateServingCert(dataDir, bind, [network.kubernetesIP]);
  const server: Server = createHttpsServer(tls, handler);
  const upgradeHandler = createUpgradeHandler(ctx, { auth, onError });
  server.on('upgrade', upgradeHandler);
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 0;
  // Loopback only, whatever the bind address; every request still needs the token.
  const inProcessServer: HttpServer = createHttpServer(handler);
  inProcessServer.on('upgrade', upgradeHandler);
  inProcessServer.keepAliveTimeout = 65_000;
  inProcessServer.requestTimeout = 0;
  const systemServices = new SystemServices(parts, network);
  const serviceAccounts = new ServiceAccountController(parts, options.rootCAPublisher === false ? undefined : tls.cert);
  ctx.writes.ensureDefaultServiceAccount = (namespace) => serviceAccounts.ensureDefault(namespace);
  const tokenSecrets = new ServiceAccountTokenController(parts, serviceAccountTokens, tls.cert);
  const stopControllers = () => {
    systemServices.stop();
    serviceAccounts.stop();
    tokenSecrets.stop();
    crdController.stop();
    roleAggregation.stop();
    rbac.stop();
    gc.stop();
    namespaces.stop();
    webhooks.close();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 6443, bind, () => {
        server.off('error', reject);
        resolve();
      });
    });
    await new Promise<void>((resolve, reject) => {
      inProcessServer.once('error', reject);
      inProcessServer.listen(0, '127.0.0.1', () => {
        inProcessServer.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    server.close();
    stopControllers();
    store.close();
    unlock();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const host = bind.includes(':') ? `[${bind}]` : bind === '0.0.0.0' ? '127.0.0.1' : bind;
  const url = `https://${host}:${port}`;
  systemServices.start(listenAddress(bind), port);
  const kubeconfig = kubeconfigFor(url, token, tls.cert);
  let kubeconfigPath: string | undefined;
  if (dataDir) {
    kubeconfigPath = join(dataDir, 'kubeconfig');
    // Unchanged (same port), it is not rewritten: a start on a full disk still serves.
    if (!existsSync(kubeconfigPath) || readFileSync(kubeconfigPath, 'utf8') !== kubeconfig) writeFileSync(kubeconfigPath, kubeconfig, { mode: 0o600 });
  }
  let closed = false;
  return {
    url,
    port,
    token,
    caCert: tls.cert,
    servingKey: tls.key,
    kubeconfig,
    inProcessKubeconfig: kubeconfigFor(`http://127.0.0.1:${(inProcessServer.address() as AddressInfo).port}`, token, undefined),
    kubeconfigPath,
    store,
    registry,
    objects,
    compact: () => store.compact(true),
    callWebhooksInProcess: (answer) => {
      webhooks.inProcess = answer;
    },
    async close() {
      if (closed) return;
      closed = true;
      watches.closeAll();
      await Promise.all(
        [server, inProcessServer].map(
          (listening) =>
            new Promise<void>((resolve) => {
              listening.close(() => resolve());
              listening.closeIdleConnections();
            }),
        ),
      );
      stopControllers();
      // The lock goes even when the store cannot close cleanly (a full disk): no stale lock after any shutdown.
      try {
        store.close();
      } finally {
        unlock();
      }
    },
  };
}

