// The container deployer (upstream pkg/deployer/container): each operation (RECONCILE, DELETE) is a pod that
// runs the user's image between Bosun's init and wait programs. The deployer gives the pod its input (imports,
// component descriptor, blueprint, target, the restored state) in a Secret, reads the wait program's report
// from its log when the pod has finished, keeps the state in chunked Secrets and the exports in `<di>-export`.
// The item is Succeeded only once the pod has (upstream #277); deletion removes every pod and Secret the item
// had (upstream #353: GC left ServiceAccounts and pods behind; Bosun creates no ServiceAccount or Role).
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../apimachinery/object.ts';
import { podsResource, secretsResource } from '../../../apimachinery/builtin-resources.ts';
import { messageOf } from '../../../apimachinery/error-message.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { setCondition, type Informer } from '../../../runtime/index.ts';
import { DATA_OBJECT_SECRET_DATA_KEY, DEPLOY_ITEM_TYPE_CONTAINER, PHASE_SUCCEEDED } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { AnyJSON } from '../../api/shared.ts';
import { JobFailedError, LandscaperError } from '../../ls-error.ts';
import type { ContinuousReconcileSpec } from '../../api/mock-deployer.ts';
import type { Deployer, DeployerContext, DeployerResult } from '../contract/deployer.ts';
import { configuredSchedule } from '../contract/continuous-reconcile.ts';
import { deleteExportSecret, writeExportSecret } from '../contract/exports.ts';
import { resolveTargetContent } from '../contract/target.ts';
import { collectItemObjects, deleteIgnoringMissing } from './garbage.ts';
import { CONTAINER_PROVIDER_API_VERSION, decodeContainerConfig, type ContainerProviderConfiguration } from './config.ts';
import { INPUT_KEYS, OPERATION_DELETE, OPERATION_RECONCILE, type Operation } from './layout.ts';
import {
  DEPLOY_ITEM_NAME_LABEL, FORCE_CLEANUP_ANNOTATION, INIT_CONTAINER, MAIN_CONTAINER, TYPE_LABEL, WAIT_CONTAINER,
  buildPod, inputSecretName, itemLabels, ownerReference, podName,
} from './pod.ts';
import { lastLines, parseExports, parseReport, type WaitReport } from './report.ts';
import {
  STATE_COUNT_ANNOTATION, STATE_NUM_ANNOTATION, STATE_UUID_ANNOTATION, STATE_WRITTEN_ANNOTATION, chunkState, joinState, type StoredChunk,
} from './state.ts';

/** Lines of a failed container's log that go into the item's status. */
export const FAILED_LOG_LINES = 10;
const IMAGE_ERRORS = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'CreateContainerError', 'CreateContainerConfigError']);

interface ContainerStatus {
  name: string;
  state?: { waiting?: { reason?: string; message?: string }; running?: object; terminated?: { exitCode?: number; reason?: string } };
}
interface PodStatus {
  phase?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
}

type OperationOutcome = { waitingFor: string } | { report: WaitReport };

const b64 = (data: Buffer | string): string => Buffer.from(data).toString('base64');

export class ContainerDeployer implements Deployer {
  readonly type = DEPLOY_ITEM_TYPE_CONTAINER;

  constructor(private readonly pods: Informer<KubeObject>) {}

  bind(wake: (key: string) => void): void {
    // Every change of an item's pod wakes the item: the deployer never polls.
    const wakeFor = (pod: KubeObject): void => {
      const item = pod.metadata.labels?.[DEPLOY_ITEM_NAME_LABEL];
      if (item) wake(`${pod.metadata.namespace}/${item}`);
    };
    this.pods.addEventHandler({ onAdd: wakeFor, onUpdate: (_old, pod) => wakeFor(pod), onDelete: wakeFor });
  }

  async reconcile(ctx: DeployerContext): Promise<DeployerResult | void> {
    const config = decodeContainerConfig(ctx.item.spec.config);
    const outcome = await this.runOperation(ctx, config, OPERATION_RECONCILE);
    if ('waitingFor' in outcome) return outcome;
    await this.saveState(ctx, outcome.report.state);
    if (outcome.report.exports !== undefined) {
      let exported: string;
      try {
        exported = parseExports(outcome.report.exports);
      } catch (err) {
        throw new JobFailedError('Reconcile', 'ReadExports', messageOf(err));
      }
      ctx.item.status = { ...ctx.item.status, exportRef: await writeExportSecret(ctx.client, ctx.item, { data: exported, name: `${ctx.item.metadata.name}-export` }) };
    }
    this.providerStatus(ctx, OPERATION_RECONCILE, { lastSuccessfulJobID: ctx.jobID });
    (ctx.item.status ??= {}).phase = PHASE_SUCCEEDED;
  }

  async delete(ctx: DeployerContext): Promise<DeployerResult | void> {
    if (ctx.item.metadata.annotations?.[FORCE_CLEANUP_ANNOTATION] !== 'true') {
      const outcome = await this.runOperation(ctx, decodeContainerConfig(ctx.item.spec.config), OPERATION_DELETE);
      if ('waitingFor' in outcome) return outcome;
    }
    await this.cleanup(ctx);
  }

  continuousReconcile(item: DeployItem): ContinuousReconcileSpec | undefined {
    return configuredSchedule(() => decodeContainerConfig(item.spec.config).continuousReconcile);
  }

  /** Starts the operation's pod, or reads its outcome once it has finished. */
  private async runOperation(ctx: DeployerContext, config: ContainerProviderConfiguration, operation: Operation): Promise<OperationOutcome> {
    const { client, item } = ctx;
    const namespace = item.metadata.namespace ?? '';
    const name = podName(item, operation, ctx.jobID);
    let pod: KubeObject | undefined;
    try {
      pod = await client.get(podsResource, name, { namespace });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
    if (!pod) {
      // The previous operation's pod stayed for `kubectl logs`; a new operation replaces it.
      for (const old of (await client.list(podsResource, { namespace, labelSelector: `${DEPLOY_ITEM_NAME_LABEL}=${item.metadata.name}` })).items) {
        await deleteIgnoringMissing(client, podsResource, old);
      }
      await this.writeInput(ctx, config);
      await client.create(podsResource, buildPod(item, config, operation, ctx.jobID, ctx.target !== undefined));
      this.providerStatus(ctx, operation, { podName: name, lastRun: new Date().toISOString() });
      return { waitingFor: `pod ${name} (${operation})` };
    }
    const status = (pod['status'] ?? {}) as PodStatus;
    this.setContainerConditions(ctx, status);
    const opName = operation === OPERATION_DELETE ? 'Delete' : 'Reconcile';
    const failed = this.failedContainer(status);
    if (status.phase === 'Failed' || failed) {
      const container = failed?.name ?? MAIN_CONTAINER;
      const why = failed?.state?.waiting
        ? `${failed.state.waiting.reason ?? 'waiting'}: ${failed.state.waiting.message ?? ''}`
        : `exited with code ${failed?.state?.terminated?.exitCode ?? 'unknown'}`;
      const log = await client.podLog(name, { namespace, container, tailLines: 50 }).catch((err: unknown) => `(log unavailable: ${messageOf(err)})`);
      throw new JobFailedError(opName, 'ContainerFailed', `container ${container} of pod ${name} ${why}; last log lines:\n${lastLines(log, FAILED_LOG_LINES)}`);
    }
    if (status.phase !== 'Succeeded') return { waitingFor: `pod ${name} (${operation}, ${status.phase ?? 'Pending'})` };
    // The program's last words as an Event: after a DELETE nothing else of the pod remains to look at.
    const mainLog = await client.podLog(name, { namespace, container: MAIN_CONTAINER, tailLines: 50 }).catch(() => '');
    await ctx.recorder.normal(item, `${opName}Finished`, `${operation} pod ${name} finished; last log lines:\n${lastLines(mainLog, FAILED_LOG_LINES)}`);
    try {
      return { report: parseReport(await client.podLog(name, { namespace, container: WAIT_CONTAINER })) };
    } catch (err) {
      throw new LandscaperError(opName, 'ReadWaitReport', `pod ${name}: ${messageOf(err)}`, [], { cause: err });
    }
  }

  /** A container that ended non-zero, or cannot start its image. */
  private failedContainer(status: PodStatus): ContainerStatus | undefined {
    return [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])].find(
      (c) => (c.state?.terminated?.exitCode ?? 0) !== 0 || IMAGE_ERRORS.has(c.state?.waiting?.reason ?? ''),
    );
  }

  private setContainerConditions(ctx: DeployerContext, status: PodStatus): void {
    const conditions = (ctx.item.status ??= {}).conditions ?? [];
    const describe = (type: string, c: ContainerStatus | undefined): void => {
      const terminated = c?.state?.terminated;
      const value = terminated ? (terminated.exitCode === 0 ? 'True' : 'False') : 'Unknown';
      const reason = terminated ? (terminated.exitCode === 0 ? 'Completed' : 'Failed') : c?.state?.running ? 'Running' : 'Waiting';
      setCondition(conditions, { type, status: value, reason, message: `container ${c?.name ?? type}: ${reason}` });
    };
    describe('InitContainer', status.initContainerStatuses?.find((c) => c.name === INIT_CONTAINER));
    describe('WaitContainer', status.containerStatuses?.find((c) => c.name === WAIT_CONTAINER));
    // Landscaper's conditions carry lastUpdateTime too (its schema requires it).
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    ctx.item.status.conditions = conditions.map((c) => ({ ...c, lastUpdateTime: c.lastUpdateTime ?? now }));
  }

  private providerStatus(ctx: DeployerContext, operation: Operation, fields: Record<string, string>): void {
    const current = ctx.item.status?.providerStatus;
    const previous = (typeof current === 'object' && current !== null && !Array.isArray(current) ? current['podStatus'] : undefined) ?? {};
    const podStatus = { ...(previous as Record<string, AnyJSON>), ...fields };
    (ctx.item.status ??= {}).providerStatus = { apiVersion: CONTAINER_PROVIDER_API_VERSION, kind: 'ProviderStatus', lastOperation: operation, podStatus };
  }

  /** The input Secret the init program lays out: imports, content, component descriptor, target, state. */
  private async writeInput(ctx: DeployerContext, config: ContainerProviderConfiguration): Promise<void> {
    const { client, item } = ctx;
    const data: Record<string, string> = { [INPUT_KEYS.imports]: b64(JSON.stringify(config.importValues ?? {})) };
    if (config.componentDescriptor !== undefined) data[INPUT_KEYS.componentDescriptor] = b64(JSON.stringify(config.componentDescriptor));
    if (config.blueprint !== undefined) data[INPUT_KEYS.blueprint] = b64(JSON.stringify(config.blueprint));
    if (ctx.target) data[INPUT_KEYS.target] = b64(JSON.stringify({ target: ctx.target, content: await resolveTargetContent(client, ctx.target) }));
    const state = await this.restoreState(ctx);
    if (state) data[INPUT_KEYS.state] = b64(state);
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: inputSecretName(item), namespace: item.metadata.namespace ?? '', labels: { ...itemLabels(item), [TYPE_LABEL]: 'input' }, ownerReferences: [ownerReference(item)] },
      type: 'Opaque',
      data,
    };
    try {
      const current = await client.get(secretsResource, inputSecretName(item), { namespace: item.metadata.namespace ?? '' });
      await client.update(secretsResource, { ...secret, metadata: { ...secret.metadata, resourceVersion: current.metadata.resourceVersion } });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      await client.create(secretsResource, secret);
    }
  }

  private async stateSecrets(ctx: DeployerContext): Promise<KubeObject[]> {
    const selector = `${DEPLOY_ITEM_NAME_LABEL}=${ctx.item.metadata.name},${TYPE_LABEL}=state`;
    return (await ctx.client.list(secretsResource, { namespace: ctx.item.metadata.namespace ?? '', labelSelector: selector })).items;
  }

  private async restoreState(ctx: DeployerContext): Promise<Buffer | undefined> {
    const chunks: StoredChunk[] = (await this.stateSecrets(ctx)).map((s) => {
      const a = s.metadata.annotations ?? {};
      const data = (s['data'] as Record<string, string> | undefined)?.[DATA_OBJECT_SECRET_DATA_KEY] ?? '';
      return { uuid: a[STATE_UUID_ANNOTATION] ?? '', num: Number(a[STATE_NUM_ANNOTATION]), count: Number(a[STATE_COUNT_ANNOTATION]), writtenAt: a[STATE_WRITTEN_ANNOTATION] ?? '', data: Buffer.from(data, 'base64') };
    });
    return joinState(chunks).archive;
  }

  /** Writes the new state group, then deletes every older group (a crash in between leaves the newest readable). */
  private async saveState(ctx: DeployerContext, stateBase64: string): Promise<void> {
    const { client, item } = ctx;
    const uuid = randomUUID();
    const chunks = chunkState(Buffer.from(stateBase64, 'base64'));
    const writtenAt = new Date().toISOString();
    for (const [num, chunk] of chunks.entries()) {
      await client.create(secretsResource, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: `${item.metadata.name}-state-${uuid.slice(0, 8)}-${num}`,
          namespace: item.metadata.namespace ?? '',
          labels: { ...itemLabels(item), [TYPE_LABEL]: 'state' },
          annotations: { [STATE_UUID_ANNOTATION]: uuid, [STATE_NUM_ANNOTATION]: String(num), [STATE_COUNT_ANNOTATION]: String(chunks.length), [STATE_WRITTEN_ANNOTATION]: writtenAt },
          ownerReferences: [ownerReference(item)],
        },
        type: 'Opaque',
        data: { [DATA_OBJECT_SECRET_DATA_KEY]: b64(chunk) },
      });
    }
    for (const secret of await this.stateSecrets(ctx)) {
      if (secret.metadata.annotations?.[STATE_UUID_ANNOTATION] !== uuid) await deleteIgnoringMissing(client, secretsResource, secret);
    }
  }

  /** Removes everything the item had: pods, the input and state Secrets, the export Secret. */
  private async cleanup(ctx: DeployerContext): Promise<void> {
    await collectItemObjects(ctx.client, ctx.item);
    await deleteExportSecret(ctx.client, ctx.item);
  }
}
