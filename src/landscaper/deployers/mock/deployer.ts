// The mock deployer (upstream pkg/deployer/mock): no target, no timeouts; the provider configuration says what
// happens. `export` is written as-is into a Secret (generateName mock-export-, key config); `initialPhase` is
// applied only while the phase is empty or Init and suppresses the default Succeeded; `phase` is applied
// unconditionally afterwards; `providerStatus` is copied into the status; `continuousReconcile` reconciles a
// finished item again on its schedule. Delete removes the export Secret.
import { CONDITION_DEPLOY_ITEM_VALIDATION, PHASE_INIT, PHASE_SUCCEEDED } from '../../api/constants.ts';
import { DEPLOY_ITEM_TYPE_MOCK } from '../../api/constants.ts';
import type { DeployItem, DeployItemStatus } from '../../api/deploy-item.ts';
import type { ContinuousReconcileSpec } from '../../api/mock-deployer.ts';
import type { Condition } from '../../api/shared.ts';
import type { Deployer, DeployerContext } from '../contract/deployer.ts';
import { configuredSchedule } from '../contract/continuous-reconcile.ts';
import { deleteExportSecret, writeExportSecret } from '../contract/exports.ts';
import { decodeMockConfig } from './config.ts';
import { LandscaperError } from '../../ls-error.ts';
import { messageOf } from '../../../apimachinery/error-message.ts';

function setValidationCondition(status: DeployItemStatus, ok: boolean, reason: string, message: string): void {
  const ts = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const conditions = status.conditions ?? [];
  const current = conditions.find((c) => c.type === CONDITION_DEPLOY_ITEM_VALIDATION);
  const value: Condition['status'] = ok ? 'True' : 'False';
  const next: Condition = {
    type: CONDITION_DEPLOY_ITEM_VALIDATION,
    status: value,
    reason,
    message,
    lastUpdateTime: ts,
    lastTransitionTime: current && current.status === value ? current.lastTransitionTime : ts,
  };
  if (current && current.status === next.status && current.reason === reason && current.message === message) return;
  status.conditions = [...conditions.filter((c) => c !== current), next];
}

export class MockDeployer implements Deployer {
  readonly type = DEPLOY_ITEM_TYPE_MOCK;
  readonly quick = true;

  async reconcile(ctx: DeployerContext): Promise<void> {
    const status = (ctx.item.status ??= {});
    let config;
    try {
      config = decodeMockConfig(ctx.item.spec.config);
    } catch (err) {
      setValidationCondition(status, false, 'FailedUnmarshal', messageOf(err));
      throw err;
    }
    setValidationCondition(status, true, 'SuccessfullValidation', 'Successfully validated configuration');

    if (config.export !== undefined) {
      try {
        status.exportRef = await writeExportSecret(ctx.client, ctx.item, { data: JSON.stringify(config.export), generateName: 'mock-export-' });
      } catch (err) {
        throw new LandscaperError('Reconcile', 'CreateExports', `unable to write the export secret: ${messageOf(err)}`, [], { cause: err });
      }
    }
    if (config.initialPhase) {
      if (!status.phase || status.phase === PHASE_INIT) status.phase = config.initialPhase;
    } else {
      status.phase = PHASE_SUCCEEDED;
    }
    if (config.phase) status.phase = config.phase;
    if (config.providerStatus !== undefined) status.providerStatus = config.providerStatus;
  }

  async delete(ctx: DeployerContext): Promise<void> {
    await deleteExportSecret(ctx.client, ctx.item);
  }

  continuousReconcile(item: DeployItem): ContinuousReconcileSpec | undefined {
    return configuredSchedule(() => decodeMockConfig(item.spec.config).continuousReconcile);
  }
}
