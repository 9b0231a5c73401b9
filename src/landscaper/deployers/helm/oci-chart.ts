// chart.ref: a Helm chart stored as an OCI artifact, as `helm push` uploads it (Helm's pkg/registry): a manifest
// whose config has Helm's media type and whose layer is the chart's .tgz. Fetched with the registry client the
// node's image puller uses (src/client/oci): the token flow, the manifest digest when the ref pins one, the layer's
// digest and size verified while it streams. The registry's own endpoint only (no registries.yaml mirrors, as Helm):
// https, or plain http for localhost and 127.0.0.0/8 as containerd's default (Helm's --plain-http).
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { digestVerifier } from '../../../client/oci/digest-verifier.ts';
import { parseManifest } from '../../../client/oci/manifest.ts';
import { lookupCredentials } from '../../../client/oci/pull-secrets.ts';
import { formatReference, manifestSelector, parseNormalizedReference, repositoryName } from '../../../client/oci/reference.ts';
import { RegistryClient } from '../../../client/oci/registry-client.ts';
import { EMPTY_REGISTRIES_CONFIG, resolveEndpoints } from '../../../client/oci/registry-config.ts';
import { RegistryError, type RegistryCredentials } from '../../../client/oci/registry-error.ts';

export const HELM_CONFIG_MEDIA_TYPE = 'application/vnd.cncf.helm.config.v1+json';
/** Helm's chart layer, and the legacy type charts pushed by Helm before 3.7 carry. */
export const HELM_CHART_LAYER_MEDIA_TYPES = ['application/vnd.cncf.helm.chart.content.v1.tar+gzip', 'application/tar+gzip'];

export interface OciChartOptions {
  /** Credentials by registry key, as from .dockerconfigjson Secrets (credentialsFromPullSecrets). */
  credentials: Map<string, RegistryCredentials>;
  /** The largest chart archive accepted. */
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * The chart archive (.tgz bytes) `reference` names: `host/repository:tag[@digest]`, `oci://` optional. A tag is
 * required as upstream's OCM resolver requires it; with a digest too, the digest is what is fetched and verified.
 * Every failure is a RegistryError naming the reference, the registry and the cause.
 */
export async function fetchOciChart(reference: string, o: OciChartOptions): Promise<Buffer> {
  const ref = parseNormalizedReference(reference.replace(/^oci:\/\//, ''));
  if (ref.tag === undefined) throw new RegistryError('InvalidReference', `no tag specified in reference ${reference}`);
  const [endpoint] = resolveEndpoints(EMPTY_REGISTRIES_CONFIG, ref);
  if (endpoint === undefined) throw new RegistryError('Unreachable', `no registry endpoint for ${formatReference(ref)}`);
  const client = new RegistryClient(endpoint, { credentials: lookupCredentials(o.credentials, repositoryName(ref)), signal: o.signal });
  const manifest = await client.manifest(manifestSelector(ref));
  const parsed = parseManifest(manifest.bytes, manifest.contentType, formatReference(ref));
  if (parsed.kind === 'index') throw new RegistryError('Invalid', `${formatReference(ref)} is an image index, not a Helm chart`);
  if (parsed.config.mediaType !== HELM_CONFIG_MEDIA_TYPE) {
    throw new RegistryError('Invalid', `${formatReference(ref)} is not a Helm chart: its config has media type ${parsed.config.mediaType}, not ${HELM_CONFIG_MEDIA_TYPE}`);
  }
  const layer = parsed.layers.find((l) => HELM_CHART_LAYER_MEDIA_TYPES.includes(l.mediaType));
  if (layer === undefined) {
    throw new RegistryError('Invalid', `${formatReference(ref)} has no layer of media type ${HELM_CHART_LAYER_MEDIA_TYPES.join(' or ')} (it has ${parsed.layers.map((l) => l.mediaType).join(', ') || 'none'})`);
  }
  if (layer.size > o.maxBytes) throw new RegistryError('Invalid', `the chart of ${formatReference(ref)} is ${layer.size} bytes, larger than ${o.maxBytes}`);
  const chunks: Buffer[] = [];
  const collect = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await pipeline(await client.blob(layer.digest), digestVerifier(layer.digest, layer.size), collect, o.signal ? { signal: o.signal } : {});
  return Buffer.concat(chunks);
}
