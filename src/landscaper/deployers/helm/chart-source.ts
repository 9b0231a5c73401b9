// Where the helm deployer's chart comes from (upstream chartresolver): a base64 archive in the configuration, an
// archive at a URL, a chart repository's index.yaml, or an OCI registry (chart.ref); credentials for repositories
// from the Context's helmChartRepoCredentials (an Authorization header, given or from a Secret; a custom CA), for
// registries from the Context's registryPullSecrets (.dockerconfigjson). Every failure names the source and the
// cause (HTTP status, unreachable host, not in the index) and fails the item: retrying a missing chart does not
// find it.
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { parse as parseYaml } from 'yaml';
import type { Secret } from '../../../apimachinery/api/index.ts';
import { secretsResource } from '../../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../../client/client.ts';
import { credentialsFromPullSecrets } from '../../../client/oci/pull-secrets.ts';
import { RegistryError, type RegistryCredentials, type RegistryFailure } from '../../../client/oci/registry-error.ts';
import { messageOf } from '../../../runtime/index.ts';
import { MAX_DECOMPRESSED_SIZE, readChartArchive } from '../../../template/helm/archive.ts';
import { loadChartFiles, type Chart } from '../../../template/helm/chart.ts';
import { HELM_CHART_REPO_CREDENTIALS_KEY, type HelmChart, type HelmChartRepoAuth } from '../../api/helm-deployer.ts';
import type { Context } from '../../api/context.ts';
import { ConfigurationError } from '../../ls-error.ts';
import { fetchOciChart } from './oci-chart.ts';

const OPERATION = 'GetHelmChart';

export interface ChartSourceOptions {
  /** The Landscaper cluster: Secrets named by credentials live there, in the item's namespace. */
  client: KubeClient;
  namespace: string;
  lsContext: Context | undefined;
  signal?: AbortSignal;
}

function failed(reason: string, message: string, cause?: unknown): ConfigurationError {
  return new ConfigurationError(OPERATION, reason, message, undefined, cause === undefined ? undefined : { cause });
}

/** The chart the configuration names, loaded. */
export async function resolveChart(chart: HelmChart, o: ChartSourceOptions): Promise<Chart> {
  if (chart.archive?.raw) return loadArchive(Buffer.from(chart.archive.raw, 'base64'), 'chart.archive.raw');
  if (chart.archive?.remote?.url) {
    const url = chart.archive.remote.url;
    return loadArchive(await download(url, {}, o.signal), url);
  }
  if (chart.helmChartRepo) return fromRepository(chart.helmChartRepo, o);
  if (chart.ref) return loadArchive(await fromRegistry(chart.ref, o), chart.ref);
  throw failed('UnsupportedChartSource', 'chart.resourceRef (OCM component resources) is not supported; give chart.ref, chart.archive or chart.helmChartRepo');
}

function loadArchive(bytes: Buffer, from: string): Chart {
  try {
    return loadChartFiles(readChartArchive(bytes));
  } catch (err) {
    throw failed('InvalidChart', `chart from ${from} cannot be loaded: ${messageOf(err)}`, err);
  }
}

async function fromRepository(repo: { helmChartRepoUrl?: string; helmChartName?: string; helmChartVersion?: string }, o: ChartSourceOptions): Promise<Chart> {
  const base = (repo.helmChartRepoUrl ?? '').replace(/\/+$/, '');
  const name = repo.helmChartName ?? '';
  const version = repo.helmChartVersion ?? '';
  const auth = await credentialsFor(base, o);
  const indexUrl = `${base}/index.yaml`;
  let index: { entries?: Record<string, { version?: string; urls?: string[] }[]> };
  try {
    index = (parseYaml((await download(indexUrl, auth, o.signal)).toString('utf8')) ?? {}) as typeof index;
  } catch (err) {
    if (err instanceof ConfigurationError) throw err;
    throw failed('InvalidChartRepository', `chart repository ${base}: index.yaml is not valid YAML: ${messageOf(err)}`, err);
  }
  const versions = index.entries?.[name] ?? [];
  if (versions.length === 0) throw failed('ChartNotFound', `chart repository ${base} has no chart ${JSON.stringify(name)}`);
  const entry = versions.find((v) => v.version === version || v.version === version.replace(/^v/, ''));
  if (!entry) throw failed('ChartNotFound', `chart repository ${base} has no version ${version} of chart ${JSON.stringify(name)} (it has ${versions.map((v) => v.version).join(', ')})`);
  const first = entry.urls?.[0];
  if (!first) throw failed('InvalidChartRepository', `chart repository ${base}: ${name} ${version} lists no URL`);
  // Relative URLs in an index are relative to the repository, as Helm resolves them.
  const url = new URL(first, `${base}/`).toString();
  // Credentials go only to the repository's own host, as Helm's --pass-credentials is off by default.
  const sameHost = new URL(url).host === new URL(`${base}/`).host;
  return loadArchive(await download(url, sameHost ? auth : {}, o.signal), url);
}

const REGISTRY_FAILURE_REASONS: Record<RegistryFailure, string> = {
  NotFound: 'ChartNotFound',
  Unauthorized: 'ChartRepositoryUnauthorized',
  Unreachable: 'ChartRepositoryUnreachable',
  DigestMismatch: 'ChartDigestMismatch',
  InvalidReference: 'InvalidChartRef',
  UnsupportedPlatform: 'InvalidChart',
  Invalid: 'InvalidChart',
};

async function fromRegistry(reference: string, o: ChartSourceOptions): Promise<Buffer> {
  const credentials = await registryCredentials(reference, o);
  try {
    return await fetchOciChart(reference, { credentials, maxBytes: MAX_DECOMPRESSED_SIZE, signal: o.signal });
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    throw failed(REGISTRY_FAILURE_REASONS[err.failure], `chart.ref ${reference}: ${err.message}`, err);
  }
}

/** The Context's registryPullSecrets, read in the item's namespace (the Context's) as upstream resolves them. */
async function registryCredentials(reference: string, o: ChartSourceOptions): Promise<Map<string, RegistryCredentials>> {
  const secrets: Secret[] = [];
  for (const { name } of o.lsContext?.registryPullSecrets ?? []) {
    try {
      secrets.push(await o.client.get<Secret>(secretsResource, name, { namespace: o.namespace }));
    } catch (err) {
      throw failed('MissingCredentials', `credentials for chart.ref ${reference}: registry pull secret ${o.namespace}/${name} of the Context: ${messageOf(err)}`, err);
    }
  }
  try {
    return credentialsFromPullSecrets(secrets);
  } catch (err) {
    throw failed('MissingCredentials', `credentials for chart.ref ${reference}: ${messageOf(err)}`, err);
  }
}

interface RequestAuth {
  authorization?: string;
  ca?: string;
}

/** The Context's credentials whose url prefixes the repository's. */
async function credentialsFor(repoUrl: string, o: ChartSourceOptions): Promise<RequestAuth> {
  const configured = o.lsContext?.configurations?.[HELM_CHART_REPO_CREDENTIALS_KEY];
  const auths = (typeof configured === 'object' && configured !== null && !Array.isArray(configured) && Array.isArray(configured['auths']) ? configured['auths'] : []) as unknown as HelmChartRepoAuth[];
  const auth = auths.find((a) => a.url !== undefined && repoUrl.startsWith(a.url.replace(/\/+$/, '')));
  if (!auth) return {};
  const out: RequestAuth = {};
  if (auth.customCAData) out.ca = Buffer.from(auth.customCAData, 'base64').toString('utf8');
  if (auth.authHeader) out.authorization = auth.authHeader;
  else if (auth.secretRef) {
    let secret: Secret;
    try {
      secret = await o.client.get<Secret>(secretsResource, auth.secretRef.name, { namespace: o.namespace });
    } catch (err) {
      throw failed('MissingCredentials', `credentials for chart repository ${repoUrl}: secret ${o.namespace}/${auth.secretRef.name}: ${messageOf(err)}`, err);
    }
    const key = auth.secretRef.key ?? 'authHeader';
    const value = secret.data?.[key];
    if (value === undefined) throw failed('MissingCredentials', `credentials for chart repository ${repoUrl}: secret ${o.namespace}/${auth.secretRef.name} has no key ${key}`);
    out.authorization = Buffer.from(value, 'base64').toString('utf8');
  }
  return out;
}

/** GETs a URL (following redirects) into memory, at most the chart size limit; non-2xx is an error naming it. */
function download(url: string, auth: RequestAuth, signal: AbortSignal | undefined, redirects = 5): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      reject(failed('InvalidChartURL', `${JSON.stringify(url)} is not a URL`));
      return;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      reject(failed('InvalidChartURL', `${url}: only http and https URLs are supported`));
      return;
    }
    const get = parsed.protocol === 'https:' ? httpsGet : httpGet;
    const request = get(parsed, { headers: auth.authorization ? { authorization: auth.authorization } : {}, ...(auth.ca ? { ca: auth.ca } : {}), ...(signal ? { signal } : {}), timeout: 30_000 }, (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location && redirects > 0) {
        response.resume();
        download(new URL(location, parsed).toString(), auth, signal, redirects - 1).then(resolve, reject);
        return;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        reject(failed(status === 404 ? 'ChartNotFound' : status === 401 || status === 403 ? 'ChartRepositoryUnauthorized' : 'ChartDownloadFailed', `GET ${url}: HTTP ${status} ${response.statusMessage ?? ''}`.trimEnd()));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DECOMPRESSED_SIZE) {
          request.destroy();
          reject(failed('ChartTooLarge', `GET ${url}: larger than ${MAX_DECOMPRESSED_SIZE} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', (err) => reject(failed('ChartDownloadFailed', `GET ${url}: ${messageOf(err)}`, err)));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 30 s')));
    request.on('error', (err) => reject(failed('ChartRepositoryUnreachable', `GET ${url}: ${messageOf(err)}`, err)));
  });
}
