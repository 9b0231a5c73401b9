// kubelet's remount of configMap, secret, downwardAPI and projected volumes, driven by watches instead of the
// sync period: a change of a ConfigMap or Secret the pod's volumes name, or of the pod's labels or annotations,
// rewrites the pod's API-data volumes from the watch caches (the atomic writer skips what did not change). A
// burst of changes becomes one rewrite after the one in progress; projected service account tokens are renewed on a
// timer set for when the first is due (80% of its lifetime, as kubelet). subPath mounts bound a file, not the volume
// directory, so they keep what they had, as on a kubelet; environment variables never change.
import type { Logger } from 'pino';
import type { ConfigMap, Secret, Volume } from '../../apimachinery/api/index.ts';
import type { KubeClient } from '../../client/client.ts';
import type { EventRecorder } from '../../runtime/index.ts';
import { SandboxSpecError } from '../sandbox/errors.ts';
import { PodApiObjects } from './pod-api-objects.ts';
import type { PodView } from './pod-context.ts';
import { materialiseVolumes, type VolumeContext } from './pod-volumes.ts';
import type { ObjectWatches, WatchedKind } from './volumes/object-watches.ts';
import type { ProjectedTokens } from './volumes/projected-tokens.ts';
import type { KubeObject } from '../../apimachinery/object.ts';

/** The pod's ConfigMaps and Secrets as the agent's watches last saw them. */
class WatchedPodObjects extends PodApiObjects {
  constructor(
    client: KubeClient,
    namespace: string,
    private readonly watches: ObjectWatches,
    tokens: ProjectedTokens,
  ) {
    super(client, namespace, tokens);
  }

  override configMap(name: string): Promise<ConfigMap | undefined> {
    return this.watches.get<ConfigMap>('configmap', this.namespace, name);
  }

  override secret(name: string): Promise<Secret | undefined> {
    return this.watches.get<Secret>('secret', this.namespace, name);
  }
}

function isApiData(volume: Volume): boolean {
  return volume.configMap !== undefined || volume.secret !== undefined || volume.downwardAPI !== undefined || volume.projected !== undefined;
}

/** The ConfigMaps and Secrets the volumes read, by kind and name. */
function references(volumes: readonly Volume[]): [WatchedKind, string][] {
  const refs = new Set<string>();
  for (const volume of volumes) {
    if (volume.configMap?.name !== undefined) refs.add(`configmap/${volume.configMap.name}`);
    if (volume.secret?.secretName !== undefined) refs.add(`secret/${volume.secret.secretName}`);
    for (const source of volume.projected?.sources ?? []) {
      if (source.configMap?.name !== undefined) refs.add(`configmap/${source.configMap.name}`);
      if (source.secret?.name !== undefined) refs.add(`secret/${source.secret.name}`);
    }
  }
  return [...refs].map((ref) => ref.split('/') as [WatchedKind, string]);
}

function usesPodMetadata(volumes: readonly Volume[]): boolean {
  const items = volumes.flatMap((v) => [...(v.downwardAPI?.items ?? []), ...(v.projected?.sources ?? []).flatMap((s) => s.downwardAPI?.items ?? [])]);
  return items.some((item) => item.fieldRef?.fieldPath.startsWith('metadata.labels') === true || item.fieldRef?.fieldPath.startsWith('metadata.annotations') === true);
}

const metadataKey = (metadata: PodView['metadata']) => JSON.stringify([metadata.labels ?? {}, metadata.annotations ?? {}]);

export interface LiveVolumesOptions {
  client: KubeClient;
  watches: ObjectWatches;
  recorder: EventRecorder;
  logger: Logger;
  /** The pod as it is now (the pod object to record Events on). */
  pod: () => KubeObject;
}

export class LiveVolumes {
  private readonly volumes: Volume[];
  private readonly releases: (() => void)[] = [];
  private context: VolumeContext;
  private running: Promise<void> | undefined;
  private dirty = false;
  private stopped = false;
  /** Rewrites the volumes when a projected token is due to be renewed. */
  private tokenTimer: NodeJS.Timeout | undefined;
  /** The last failure recorded per volume, so that a failure is recorded once. */
  private readonly failures = new Map<string, string>();
  /** What the volumes were set up from (the API objects as read then), until their first rewrite. */
  private setUp: { objects: PodApiObjects; metadata: PodView['metadata'] } | undefined;

  /** context: what the pod's volumes were set up with. */
  constructor(
    private readonly o: LiveVolumesOptions,
    context: VolumeContext,
    volumes: readonly Volume[],
  ) {
    this.volumes = volumes.filter(isApiData);
    this.setUp = { objects: context.objects, metadata: context.pod.metadata };
    this.context = { ...context, objects: new WatchedPodObjects(o.client, context.objects.namespace, o.watches, context.objects.tokens) };
  }

  /** Watches the volumes' sources; the first listing rewrites whatever changed since the pod's volumes were set up. */
  start(): void {
    if (this.volumes.length === 0) return;
    const namespace = this.context.objects.namespace;
    for (const [kind, name] of references(this.volumes)) this.releases.push(this.o.watches.subscribe(kind, namespace, name, () => this.schedule()));
    this.schedule();
  }

  /** A newer pod from the watch: downwardAPI files follow its labels and annotations. */
  podChanged(labels: Record<string, string> | undefined, annotations: Record<string, string> | undefined): void {
    const metadata = { ...this.context.pod.metadata, labels: labels ?? {}, annotations: annotations ?? {} };
    if (this.volumes.length === 0 || metadataKey(metadata) === metadataKey(this.context.pod.metadata)) return;
    this.context = { ...this.context, pod: { ...this.context.pod, metadata } };
    if (usesPodMetadata(this.volumes)) this.schedule();
  }

  /** Stops watching and waits for a rewrite in progress, so that the volumes can be removed. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.tokenTimer);
    for (const release of this.releases.splice(0)) release();
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.dirty = true;
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    // Let the rest of a burst (several watches listing at once) arrive before the first rewrite.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.dirty && !this.stopped) {
      this.dirty = false;
      // A change while this looks sets dirty again, and the next pass looks again.
      if (this.setUp !== undefined && (await this.unchangedSinceSetUp(this.setUp))) continue;
      this.setUp = undefined;
      for (const volume of this.volumes) {
        if (this.stopped) return;
        await this.refresh(volume);
      }
    }
    this.renewTokensWhenDue();
  }

  /**
   * The watches' first listing usually holds the objects the volumes were just set up from: when every one has
   * the resourceVersion read then (or is missing as it was), the pod's metadata is as it was and no token is
   * due, the volumes hold what a rewrite would write, and a burst of pods skips a second set-up of each.
   */
  private async unchangedSinceSetUp(setUp: { objects: PodApiObjects; metadata: PodView['metadata'] }): Promise<boolean> {
    const tokenDue = this.context.objects.tokens.nextRefresh();
    if (tokenDue !== undefined && Date.now() >= tokenDue) return false;
    if (metadataKey(setUp.metadata) !== metadataKey(this.context.pod.metadata)) return false;
    try {
      const versions = await Promise.all(
        references(this.volumes).map(async ([kind, name]) => {
          const [seen, read] = await Promise.all(kind === 'configmap' ? [this.context.objects.configMap(name), setUp.objects.configMap(name)] : [this.context.objects.secret(name), setUp.objects.secret(name)]);
          return seen?.metadata.resourceVersion === read?.metadata.resourceVersion;
        }),
      );
      return versions.every(Boolean);
    } catch {
      return false; // rewritten, and the rewrite reports what fails
    }
  }

  private renewTokensWhenDue(): void {
    clearTimeout(this.tokenTimer);
    const due = this.context.objects.tokens.nextRefresh();
    if (due === undefined || this.stopped) return;
    this.tokenTimer = setTimeout(() => this.schedule(), Math.max(0, due - Date.now()));
  }

  /** A volume whose source went missing (not optional) keeps its content, with kubelet's FailedMount Event. */
  private async refresh(volume: Volume): Promise<void> {
    try {
      await materialiseVolumes(this.context, [volume]);
      this.failures.delete(volume.name);
    } catch (error) {
      if (!(error instanceof SandboxSpecError)) {
        this.o.logger.warn({ err: error, volume: volume.name }, 'updating a volume failed');
        return;
      }
      if (this.failures.get(volume.name) === error.message) return;
      this.failures.set(volume.name, error.message);
      void this.o.recorder.warning(this.o.pod(), 'FailedMount', error.message);
    }
  }
}
