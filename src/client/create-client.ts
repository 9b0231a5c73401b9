// One entry point: a kubeconfig (file, text, in-cluster or default chain) → a KubeClient over HTTP.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { parse } from 'yaml';
import type { KubeClient } from './client.ts';
import { HttpTransport, type HttpTransportOptions } from './http-transport.ts';
import { RestClient } from './rest-client.ts';

export interface KubeConfigSource {
  /** Path of a kubeconfig file. */
  kubeconfigPath?: string;
  /** Kubeconfig YAML text (what the embedded server hands out). */
  kubeconfig?: string;
  /** Use the pod's service account (KUBERNETES_SERVICE_HOST, /var/run/secrets/kubernetes.io/serviceaccount). */
  inCluster?: boolean;
  /** Where the service account mount is rooted for inCluster (a directory standing in for `/`); `/` by default. */
  inClusterRoot?: string;
  /** Context to switch to; the file's current-context otherwise. */
  context?: string;
}

/** Loads with client-node: nothing given → KUBECONFIG, ~/.kube/config, in-cluster, in that order. */
export function loadKubeConfig(source: KubeConfigSource = {}): KubeConfig {
  const kc = new KubeConfig();
  if (source.kubeconfig !== undefined) {
    kc.loadFromString(source.kubeconfig);
    adoptTokenFiles(kc, source.kubeconfig, process.cwd());
  } else if (source.kubeconfigPath !== undefined) {
    kc.loadFromFile(source.kubeconfigPath);
    adoptTokenFiles(kc, readFileSync(source.kubeconfigPath, 'utf8'), dirname(source.kubeconfigPath));
  } else if (source.inCluster) loadFromCluster(kc, source.inClusterRoot ?? '');
  else kc.loadFromDefault();
  if (source.context !== undefined) {
    if (!kc.getContextObject(source.context)) throw new Error(`kubeconfig: no context named "${source.context}"`);
    kc.setCurrentContext(source.context);
  }
  return kc;
}

/**
 * client-node's in-cluster loading (server from KUBERNETES_SERVICE_HOST/PORT, ca.crt, the token file re-read
 * as the kubelet rotates it), with the pod's namespace trimmed: a namespace file written with a trailing
 * newline would otherwise name no namespace the API server knows.
 */
function loadFromCluster(kc: KubeConfig, root: string): void {
  kc.loadFromCluster(root);
  const context = kc.contexts[0];
  if (context?.namespace !== undefined) kc.contexts = [{ ...context, namespace: context.namespace.trim() }];
}

/**
 * kubectl's `user.tokenFile` is dropped by client-node 1.4's parser (it knows only `token-file`, read once).
 * Map it onto client-node's tokenFile auth provider, which re-reads the file as projected tokens rotate.
 */
function adoptTokenFiles(kc: KubeConfig, text: string, baseDir: string): void {
  const raw = parse(text) as { users?: { name?: string; user?: { tokenFile?: unknown } }[] } | null;
  for (const entry of raw?.users ?? []) {
    const file = entry.user?.tokenFile;
    if (typeof file !== 'string' || !entry.name) continue;
    const i = kc.users.findIndex((u) => u.name === entry.name);
    const user = kc.users[i];
    if (!user || user.token || user.authProvider) continue;
    const path = isAbsolute(file) ? file : join(baseDir, file);
    const adopted: User = { ...user, authProvider: { name: 'tokenFile', config: { tokenFile: path } } };
    kc.users[i] = adopted;
  }
}

export interface CreateKubeClientOptions extends KubeConfigSource, Omit<HttpTransportOptions, 'kubeConfig'> {
  kubeConfig?: KubeConfig;
  /** Namespace for calls that name none; the context's namespace, else 'default'. */
  namespace?: string;
  fieldManager?: string;
}

export function createKubeClient(options: CreateKubeClientOptions = {}): KubeClient {
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(options);
  const transportOptions: HttpTransportOptions = { kubeConfig };
  if (options.userAgent !== undefined) transportOptions.userAgent = options.userAgent;
  if (options.defaultTimeoutMs !== undefined) transportOptions.defaultTimeoutMs = options.defaultTimeoutMs;
  if (options.authCacheMs !== undefined) transportOptions.authCacheMs = options.authCacheMs;
  if (options.maxSockets !== undefined) transportOptions.maxSockets = options.maxSockets;
  const transport = new HttpTransport(transportOptions);
  return new RestClient(transport, {
    ...(options.namespace !== undefined ? { defaultNamespace: options.namespace } : {}),
    ...(options.fieldManager !== undefined ? { fieldManager: options.fieldManager } : {}),
  });
}
