// The pod mutating webhook of onInit disruptions (upstream's ChaosHandlerMutator): a pod labelled
// chaos.datadoghq.com/disrupt-on-init gets the chaos handler as its first init container, which waits for the
// injector's SIGUSR1. The pod's chaos.datadoghq.com/disrupt-on-init-timeout annotation overrides the wait (up
// to the configured maximum), disrupt-on-init-succeed-on-timeout lets it start anyway after the wait.
import { isPlainObject } from '../../apimachinery/object.ts';
import { parseQuantity } from '../../apimachinery/quantity.ts';
import type { AdmissionHandler } from '../../runtime/index.ts';
import { allowed, denied, jsonPatchFor, patched } from '../../runtime/index.ts';
import { CHAOS_GROUP } from '../api/constants.ts';
import type { HandlerConfig } from '../config.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs, msToNs } from '../validation/values.ts';

export const HANDLER_CONTAINER_NAME = 'chaos-handler';
export const HANDLER_TIMEOUT_ANNOTATION = `${CHAOS_GROUP}/disrupt-on-init-timeout`;
export const HANDLER_SUCCEED_ON_TIMEOUT_ANNOTATION = `${CHAOS_GROUP}/disrupt-on-init-succeed-on-timeout`;


type PodLike = { metadata?: { annotations?: Record<string, string>; name?: string; generateName?: string }; spec?: { initContainers?: unknown[] } };

/** The handler init container's args, or why the pod is refused (a timeout above the maximum). */
export function handlerArgs(annotations: Readonly<Record<string, string>>, settings: HandlerConfig): string[] | { refused: string } {
  let timeoutNs = msToNs(settings.timeoutMs);
  const override = annotations[HANDLER_TIMEOUT_ANNOTATION];
  if (override !== undefined) {
    const parsed = durationNs(override);
    // Unparseable: upstream logs it and keeps the default.
    if (parsed.ok) {
      if (parsed.value > msToNs(settings.maxTimeoutMs)) {
        return { refused: `you have requested a handler timeout of ${formatDuration(parsed.value)} but the maximum allowed timeout is ${formatDuration(msToNs(settings.maxTimeoutMs))}` };
      }
      timeoutNs = parsed.value;
    }
  }
  return ['--timeout', formatDuration(timeoutNs), ...(Object.hasOwn(annotations, HANDLER_SUCCEED_ON_TIMEOUT_ANNOTATION) ? ['--succeed-on-timeout'] : [])];
}

/**
 * Bosun's handler is a Node.js process, not upstream's small Go binary: below this much memory (upstream's chart
 * gives 5Mi) it is OOM-killed before it can wait, and with upstream's 10m of CPU it takes seconds to start.
 */
export const HANDLER_FLOORS: Readonly<Record<string, string>> = { cpu: '100m', memory: '64Mi' };

/** The configured requests and limits, each raised to what the handler needs to run. */
export function handlerResources(configured: Readonly<Record<string, string>>): Record<string, string> {
  const out = { ...configured };
  for (const [resource, floor] of Object.entries(HANDLER_FLOORS)) {
    const value = configured[resource];
    if (value !== undefined && parseQuantity(value) < parseQuantity(floor)) out[resource] = floor;
  }
  return out;
}

export function handlerMutator(settings: HandlerConfig): AdmissionHandler {
  return (req) => {
    if (req.operation !== 'CREATE' || req.subResource) return allowed();
    if (!isPlainObject(req.object)) return denied('no object in the request', 400);
    const pod = req.object as PodLike;
    const args = handlerArgs(pod.metadata?.annotations ?? {}, settings);
    if (!Array.isArray(args)) return denied(args.refused, 400);
    const resources = handlerResources(settings.resources);
    const init = { name: HANDLER_CONTAINER_NAME, image: settings.image, imagePullPolicy: 'IfNotPresent', args, resources: { limits: resources, requests: resources } };
    const mutated = { ...pod, spec: { ...pod.spec, initContainers: [init, ...(pod.spec?.initContainers ?? [])] } };
    return patched(jsonPatchFor(req.object, mutated));
  };
}
