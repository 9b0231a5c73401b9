// Spec.Validate: upstream's one validation of a DisruptionSpec (the global scope, then each kind's rules, then
// the struct tags), as a pure function shared by the admission webhook and `bosun chaos validate`.
import { LabelSelectorError, parseLabelSelector } from '../../apimachinery/label-selector.ts';
import { DISRUPTION_KIND_NAMES, KIND_SPEC_FIELDS, PULSE_MINIMUM_DURATION_MS, type DisruptionKindName, type KindSpecField } from '../api/constants.ts';
import type { DisruptionSpec, DisruptionTrigger } from '../api/types.ts';
import { countErrors } from './count.ts';
import { specError, type SpecError } from './errors.ts';
import { kindErrors } from './kinds.ts';
import { serviceErrors, type ServiceLookup } from './services.ts';
import { validateStructTags } from './struct-tags.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs, goTime, msToNs, rfc3339 } from './values.ts';

/** The kinds a spec sets (a present sub-object, even empty: `cpuPressure: {}`), in upstream's order. */
export function specKinds(spec: DisruptionSpec): [DisruptionKindName, KindSpecField][] {
  return DISRUPTION_KIND_NAMES.map((k) => [k, KIND_SPEC_FIELDS[k]] as [DisruptionKindName, KindSpecField]).filter(([, field]) => spec[field] !== undefined && spec[field] !== null);
}

const OTHER_KINDS_MESSAGE: Partial<Record<KindSpecField, string>> = {
  containerFailure: 'container failure disruptions are not compatible with other disruption kinds. The container failure will remove the impact of the other disruption types',
  nodeFailure: 'node failure disruptions are not compatible with other disruption kinds. The node failure will remove the impact of the other disruption types',
  podReplacement: 'pod replacement disruptions are not compatible with other disruption kinds. The pod replacement will remove the impact of the other disruption types',
};

const ADVANCED_OPERATORS: Record<string, 'in' | 'notin' | 'exists' | 'notexists'> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: 'notexists' };

function selectorErrors(spec: DisruptionSpec): SpecError[] {
  const out: SpecError[] = [];
  const selector = spec.selector && typeof spec.selector === 'object' ? Object.entries(spec.selector) : [];
  const advanced = Array.isArray(spec.advancedSelector) ? spec.advancedSelector : [];
  if (selector.length === 0 && advanced.length === 0) out.push(specError('spec.selector', 'either selector or advancedSelector field must be set'));
  for (const [key, value] of selector) {
    try {
      parseLabelSelector(`${key}=${String(value)}`);
    } catch (err) {
      if (!(err instanceof LabelSelectorError)) throw err;
      out.push(specError(`spec.selector.${key}`, err.message));
    }
  }
  for (const [i, req] of advanced.entries()) {
    const at = `spec.advancedSelector[${i}]`;
    const op = ADVANCED_OPERATORS[req.operator];
    if (op === undefined) {
      out.push(specError(at, `error parsing advanced selector operator ${req.operator}: must be either In, NotIn, Exists or DoesNotExist`));
      break;
    }
    const values = Array.isArray(req.values) ? req.values : [];
    const problem =
      (op === 'in' || op === 'notin') && values.length === 0
        ? "for 'in', 'notin' operators, values set can't be empty"
        : (op === 'exists' || op === 'notexists') && values.length > 0
          ? "values set must be empty for exists and does not exist"
          : undefined;
    if (problem) {
      out.push(specError(at, `error parsing given advanced selector to requirements: ${problem}`));
      break;
    }
    try {
      parseLabelSelector(values.length > 0 ? `${req.key} ${op === 'notin' ? 'notin' : 'in'} (${values.join(',')})` : req.key);
    } catch (err) {
      if (!(err instanceof LabelSelectorError)) throw err;
      out.push(specError(at, `error parsing given advanced selector to requirements: ${err.message}`));
      break;
    }
  }
  return out;
}

/** Every DisruptionDuration field that Go's JSON decoding would refuse. */
function durationErrors(spec: DisruptionSpec): SpecError[] {
  const fields: [string, unknown][] = [
    ['spec.duration', spec.duration],
    ['spec.pulse.activeDuration', spec.pulse?.activeDuration],
    ['spec.pulse.dormantDuration', spec.pulse?.dormantDuration],
    ['spec.pulse.initialDelay', spec.pulse?.initialDelay],
    ['spec.triggers.inject.offset', spec.triggers?.inject?.offset],
    ['spec.triggers.createPods.offset', spec.triggers?.createPods?.offset],
    ['spec.memoryPressure.rampDuration', spec.memoryPressure?.rampDuration],
  ];
  return fields.flatMap(([field, value]) => {
    const d = durationNs(value as string | number | undefined);
    return d.ok ? [] : [specError(field, d.error)];
  });
}

/** A set offset (an unparsable one is reported on its own). */
function hasOffset(t: DisruptionTrigger | undefined): boolean {
  const offset = durationNs(t?.offset);
  return offset.ok && offset.value !== 0n;
}

function triggerErrors(spec: DisruptionSpec): SpecError[] {
  const out: SpecError[] = [];
  const { inject, createPods } = spec.triggers ?? {};
  const injectAt = rfc3339(inject?.notBefore);
  const createAt = rfc3339(createPods?.notBefore);
  if (!injectAt.ok) out.push(specError('spec.triggers.inject.notBefore', injectAt.error));
  if (!createAt.ok) out.push(specError('spec.triggers.createPods.notBefore', createAt.error));
  if (injectAt.ok && createAt.ok && injectAt.value && createAt.value && injectAt.value < createAt.value) {
    out.push(
      specError(
        'spec.triggers.inject.notBefore',
        `spec.triggers.inject.notBefore is ${goTime(injectAt.value)}, which is before your spec.triggers.createPods.notBefore of ${goTime(createAt.value)}. inject.notBefore must come after createPods.notBefore if both are specified`,
      ),
    );
  }
  for (const [name, t] of [['inject', inject], ['createPods', createPods]] as const) {
    if (t?.notBefore && hasOffset(t)) {
      out.push(specError(`spec.triggers.${name}`, `its not possible to set spec.triggers.${name}.notBefore and spec.triggers.${name}.offset`));
    }
  }
  return out;
}

function pulseErrors(spec: DisruptionSpec): SpecError[] {
  const out: SpecError[] = [];
  const active = durationNs(spec.pulse?.activeDuration);
  const dormant = durationNs(spec.pulse?.dormantDuration);
  if (!spec.pulse || !active.ok || !dormant.ok) return out;
  const a = active.value;
  const d = dormant.value;
  if ((a > 0n || d > 0n) && (spec.nodeFailure || spec.podReplacement || spec.containerFailure)) {
    out.push(specError('spec.pulse', 'pulse is only compatible with network, cpu pressure, memory pressure, disk pressure, dns, and grpc disruptions'));
  }
  if ((a > 0n && d === 0n) || (a === 0n && d > 0n)) out.push(specError('spec.pulse', 'if spec.pulse.activeDuration or spec.pulse.dormantDuration are specified, then both options must be set'));
  const min = msToNs(PULSE_MINIMUM_DURATION_MS);
  if (a !== 0n && a < min) out.push(specError('spec.pulse.activeDuration', `pulse activeDuration of ${formatDuration(a)} should be greater than ${formatDuration(min)}`));
  if (d !== 0n && d < min) out.push(specError('spec.pulse.dormantDuration', `pulse dormantDuration of ${formatDuration(d)} should be greater than ${formatDuration(min)}`));
  return out;
}

/** upstream's validateGlobalDisruptionScope: what holds across kinds. */
function globalErrors(spec: DisruptionSpec, kinds: readonly [DisruptionKindName, KindSpecField][]): SpecError[] {
  const out = selectorErrors(spec);
  const node = spec.level === 'node';
  const containers = Array.isArray(spec.containers) && spec.containers.length > 0;
  const fields = kinds.map(([, f]) => f);
  if (containers && node) out.push(specError('spec.containers', 'cannot target specific containers because the level configuration is set to node'));
  if (spec.containerFailure && node) out.push(specError('spec.containerFailure', 'cannot execute a container failure because the level configuration is set to node'));
  if (kinds.length === 0) out.push(specError('spec', 'at least one disruption kind must be specified, please read the docs to see your options'));
  for (const exclusive of ['containerFailure', 'nodeFailure', 'podReplacement'] as const) {
    if (spec[exclusive] && fields.length > 1) out.push(specError(`spec.${exclusive}`, OTHER_KINDS_MESSAGE[exclusive] ?? ''));
    if (exclusive === 'podReplacement' && spec.podReplacement && node) out.push(specError('spec.level', 'cannot execute a pod replacement because the level configuration is set to node'));
  }
  if (spec.onInit) {
    if (fields.some((f) => f !== 'network' && f !== 'dns')) out.push(specError('spec.onInit', 'OnInit is only compatible with network disruptions'));
    if ((spec.level ?? 'pod') !== 'pod') out.push(specError('spec.onInit', 'OnInit is only compatible with pod level disruptions'));
    if (containers) out.push(specError('spec.onInit', 'OnInit is not compatible with containers scoping'));
  }
  if (containers && spec.diskPressure) out.push(specError('spec.containers', 'disk pressure disruptions apply to all containers, specifying certain containers does not isolate the disruption'));
  if (containers && spec.memoryPressure) out.push(specError('spec.containers', 'memory pressure disruptions apply to all containers, specifying certain containers does not isolate the disruption'));
  out.push(...triggerErrors(spec), ...pulseErrors(spec));
  if (spec.grpc && node) out.push(specError('spec.grpc', 'GRPC disruptions can only be applied at the pod level'));
  if (spec.dns && node) out.push(specError('spec.dns', 'DNS disruptions can only be applied at the pod level'));
  out.push(...countErrors(spec.count, 'spec.count'));
  const countTooLarge = spec.unsafeMode?.config?.countTooLarge;
  if (countTooLarge && countTooLarge.namespaceThreshold == null && countTooLarge.clusterThreshold == null) {
    out.push(specError('spec.unsafeMode.config.countTooLarge', 'at least one of unsafeMode.config.countTooLarge.NamespaceThreshold or unsafeMode.config.countTooLarge.ClusterThreshold must be set'));
  }
  return out;
}

/** What validation may know of the cluster: the Services network.services names (the webhook looks them up). */
export interface SpecContext {
  services?: ServiceLookup;
}

/** Every rule the spec breaks; none: valid. */
export function validateSpec(spec: DisruptionSpec, context: SpecContext = {}): SpecError[] {
  const kinds = specKinds(spec);
  const services = context.services && spec.network ? serviceErrors(spec, context.services) : [];
  return [...durationErrors(spec), ...globalErrors(spec, kinds), ...services, ...kindErrors(spec, kinds), ...validateStructTags(spec)];
}
