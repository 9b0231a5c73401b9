// What the validating webhook decides, as pure functions over the object and what the webhook read from the
// cluster (upstream's ValidateCreate and ValidateUpdate, in their order: the first failing step answers).
import type { UserInfo } from '../../apimachinery/admission-review.ts';
import { LabelSelectorError, parseLabelSelector } from '../../apimachinery/label-selector.ts';
import { hasFinalizer } from '../../runtime/index.ts';
import { DISRUPTION_FINALIZER, MAXIMUM_TC_FILTERS, SAFEMODE_ENVIRONMENT_ANNOTATION, USER_INFO_ANNOTATION } from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import type { ChaosConfig } from '../config.ts';
import { specError, type SpecError } from './errors.ts';
import { specHash } from './hash.ts';
import { SAFETY_NETS_HEADER, safetyNets, type TargetCounts } from './safety-nets.ts';
import { specKinds, validateSpec, type SpecContext } from './spec.ts';
import { readUserInfo, UserInfoAnnotationError, userInfoJson } from './user-info.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs, goTime, msToNs, rfc3339 } from './values.ts';

/** Denied, with the errors and, for the safety nets, upstream's heading line. */
export interface Verdict {
  errors: SpecError[];
  header?: string;
}

const deny = (...errors: SpecError[]): Verdict => ({ errors });
const ALLOW: Verdict = { errors: [] };

export interface CreateContext extends SpecContext {
  config: ChaosConfig;
  now: Date;
  /** Counted in the cluster for the countTooLarge net; without them that net is skipped. */
  counts?: TargetCounts;
}

function permittedGroups(d: Disruption, config: ChaosConfig): SpecError | undefined {
  if (config.permittedUserGroups.length === 0) return undefined;
  let groups: string[];
  try {
    const user = readUserInfo(d);
    if (user === undefined) return specError(`metadata.annotations.${USER_INFO_ANNOTATION}`, 'user info not found in annotations');
    groups = user.groups ?? [];
  } catch (err) {
    if (!(err instanceof UserInfoAnnotationError)) throw err;
    return specError(`metadata.annotations.${USER_INFO_ANNOTATION}`, err.message);
  }
  if (groups.some((g) => config.permittedUserGroups.includes(g))) return undefined;
  return specError(
    '',
    `lacking sufficient authorization to create Disruption. your user groups are ${groups.join(', ')}, but you must be in one of the following groups: ${config.permittedUserGroups.join(',')}`,
  );
}

function environment(d: Disruption, config: ChaosConfig): SpecError | undefined {
  const want = config.safemode.environment;
  if (!want) return undefined;
  const field = `metadata.annotations.${SAFEMODE_ENVIRONMENT_ANNOTATION}`;
  const got = d.metadata.annotations?.[SAFEMODE_ENVIRONMENT_ANNOTATION];
  if (got === undefined) {
    return specError(
      field,
      `your disruption does not specify the environment it expects to run in, but this controller requires it to do. Set an annotation on this disruption with the key \`${SAFEMODE_ENVIRONMENT_ANNOTATION}\` and the value \`"${want}"\` to run in this kubernetes cluster. Be sure that you intend to run this disruption in ${want}`,
    );
  }
  if (got !== want) {
    return specError(
      field,
      `disruption is configured to run in "${got}" but has been applied in "${want}".  Set an annotation on this disruption with the key \`${SAFEMODE_ENVIRONMENT_ANNOTATION}\` and the value \`"${want}"\` to run in this kubernetes cluster, and double check your kubecontext is what you expect`,
    );
  }
  return undefined;
}

function triggersInThePast(d: Disruption, now: Date): SpecError[] {
  const out: SpecError[] = [];
  for (const name of ['inject', 'createPods'] as const) {
    const at = rfc3339(d.spec.triggers?.[name]?.notBefore);
    if (at.ok && at.value && at.value < now) {
      out.push(specError(`spec.triggers.${name}.notBefore`, `spec.trigger.${name}.notBefore is ${goTime(at.value)}, which is in the past. only values in the future are accepted`));
      break;
    }
  }
  return out;
}

/** ValidateCreate; `context.counts` feeds the countTooLarge net. */
export function validateCreate(d: Disruption, context: CreateContext): Verdict {
  const { config } = context;
  if (config.deleteOnly) return deny(specError('', "the controller is currently in delete-only mode, you can't create new disruptions for now"));
  const group = permittedGroups(d, config);
  if (group) return deny(group);
  try {
    parseLabelSelector(`name=${d.metadata.name ?? ''}`);
  } catch (err) {
    if (!(err instanceof LabelSelectorError)) throw err;
    return deny(specError('metadata.name', `invalid disruption name: ${err.message}`));
  }
  const env = environment(d, config);
  if (env) return deny(env);
  if (!config.handlerEnabled && d.spec.onInit) {
    return deny(
      specError(
        'spec.onInit',
        'the chaos handler is disabled but the disruption onInit field is set to true, please enable the handler by specifying the --handler-enabled flag to the controller if you want to use the onInit feature (requires Kubernetes >= 1.15)',
      ),
    );
  }
  if (d.spec.network) {
    // Cloud providers' IP ranges are not resolved here (Bosun does not ship the providers' range files).
    const estimated = (d.spec.network.hosts?.length ?? 0) + 2 * (d.spec.network.services?.length ?? 0);
    if (estimated > MAXIMUM_TC_FILTERS) {
      return deny(
        specError(
          'spec.network',
          `the number of resources (ips, ip ranges, single port) to filter is too high (${estimated}). Please remove some hosts, services or cloud managed services to be affected in the disruption. Maximum resources (ips, ip ranges, single port) filterable is ${MAXIMUM_TC_FILTERS}`,
        ),
      );
    }
  }
  const invalid = validateSpec(d.spec, context);
  if (invalid.length > 0) return { errors: invalid };
  const past = triggersInThePast(d, context.now);
  if (past.length > 0) return { errors: past };
  const duration = durationNs(d.spec.duration);
  const max = msToNs(config.maxDurationMs);
  if (max > 0n && duration.ok && duration.value > max) {
    return deny(
      specError('spec.duration', `you have specified a duration of ${formatDuration(duration.value)}, but the maximum duration allowed is ${formatDuration(max)}, please specify a duration lower or equal than this value`),
    );
  }
  const disabled = specKinds(d.spec).find(([kind]) => config.disabledDisruptions.includes(kind));
  if (disabled) return deny(specError(`spec.${disabled[1]}`, `disruption kind ${disabled[0]} is currently disabled`));
  if (config.safemode.enable) {
    const caught = safetyNets(d.spec, { config, ...(context.counts ? { counts: context.counts } : {}) });
    if (caught.length > 0) return { errors: caught, header: SAFETY_NETS_HEADER };
  }
  return ALLOW;
}

/** The update takes the disruption finalizer away: the webhook must then look for chaos pods. */
export function removesDisruptionFinalizer(old: Disruption, updated: Disruption): boolean {
  return hasFinalizer(old, DISRUPTION_FINALIZER) && !hasFinalizer(updated, DISRUPTION_FINALIZER);
}

function userInfoImmutable(old: Disruption, updated: Disruption): SpecError | undefined {
  const field = `metadata.annotations.${USER_INFO_ANNOTATION}`;
  let before: UserInfo | undefined;
  try {
    before = readUserInfo(old);
  } catch (err) {
    if (err instanceof UserInfoAnnotationError) return undefined;
    throw err;
  }
  if (before === undefined || userInfoJson(before) === '{}') return undefined;
  try {
    const after = readUserInfo(updated);
    if (after === undefined) return specError(field, 'user info not found in annotations');
    return userInfoJson(after) === userInfoJson(before) ? undefined : specError(field, 'the user info annotation is immutable');
  } catch (err) {
    if (!(err instanceof UserInfoAnnotationError)) throw err;
    return specError(field, err.message);
  }
}

/**
 * ValidateUpdate. `chaosPods` ("namespace/name") are the disruption's chaos pods, read only when the update
 * removes the finalizer (removesDisruptionFinalizer).
 */
export function validateUpdate(old: Disruption, updated: Disruption, chaosPods: readonly string[] = [], context: SpecContext = {}): Verdict {
  const userInfo = userInfoImmutable(old, updated);
  if (userInfo) return deny(userInfo);
  if (removesDisruptionFinalizer(old, updated) && chaosPods.length > 0) {
    const { namespace, name } = old.metadata;
    return deny(
      specError(
        'metadata.finalizers',
        `unable to remove disruption finalizer, disruption '${namespace ?? ''}/${name ?? ''}' still has associated pods:\n- ${chaosPods.join('\n- ')}\nYou first need to remove those chaos pods (and potentially their finalizers) to be able to remove disruption finalizer`,
      ),
    );
  }
  const staticTargeting = old.spec.staticTargeting === true;
  if (specHash(old.spec, { withoutCount: !staticTargeting }) !== specHash(updated.spec, { withoutCount: !staticTargeting })) {
    return deny(
      specError(
        'spec',
        staticTargeting
          ? '[StaticTargeting: true] a disruption spec cannot be updated, please delete and recreate it if needed'
          : "[StaticTargeting: false] only a disruption spec's Count field can be updated, please delete and recreate it if needed",
      ),
    );
  }
  // A disruption being deleted must stay removable (its controller drops the finalizer) even when it was written
  // while no webhook checked it: its spec cannot change anyway.
  if (updated.metadata.deletionTimestamp) return ALLOW;
  return { errors: validateSpec(updated.spec, context) };
}
