// A container's environment as kubelet builds it (makeEnvironmentVariables): envFrom sources first, then env
// in order, later names overriding earlier ones. Literal values expand $(VAR) references to what is defined
// so far; values from ConfigMaps, Secrets and the downward API are taken as they are.
// Secret values are never put in errors or warnings: only names and keys are.
import { SandboxSpecError } from '../sandbox/errors.ts';
import type { ConfigMap, ConfigMapKeySelector, EnvFromSource, EnvVar as ApiEnvVar, Secret, SecretKeySelector } from '../../apimachinery/api/index.ts';
import type { EnvVar } from '../sandbox/types.ts';
import { expandReferences } from './container-argv.ts';
import { resolveFieldRef, resolveResourceFieldRef } from './downward-api.ts';
import { notFoundError, secretEntries } from './pod-api-objects.ts';
import type { ContainerView, PodContext } from './pod-context.ts';
import { serviceEnvironment } from './service-env.ts';

export interface ContainerEnvSpec extends ContainerView {
  env?: ApiEnvVar[];
  envFrom?: EnvFromSource[];
}

export interface ResolvedEnv {
  env: EnvVar[];
  /** Warning Events kubelet would record (reason InvalidEnvironmentVariableNames); the caller records them. */
  warnings: string[];
}

/** apimachinery's IsEnvVarName (the classic rule; RelaxedEnvironmentVariableValidation is not applied). */
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

function configError(message: string): SandboxSpecError {
  return new SandboxSpecError('CreateContainerConfigError', message);
}

async function envFromEntries(source: EnvFromSource, context: PodContext): Promise<{ kind: 'configMap' | 'secret'; name: string; entries: [string, string][] } | undefined> {
  const { objects } = context;
  if (source.configMapRef !== undefined) {
    const { name, optional } = source.configMapRef;
    const configMap = await objects.configMap(name);
    if (configMap === undefined) {
      if (optional === true) return undefined;
      throw notFoundError('configmap', name);
    }
    return { kind: 'configMap', name, entries: Object.entries(configMap.data ?? {}) };
  }
  if (source.secretRef !== undefined) {
    const { name, optional } = source.secretRef;
    const secret = await objects.secret(name);
    if (secret === undefined) {
      if (optional === true) return undefined;
      throw notFoundError('secret', name);
    }
    return { kind: 'secret', name, entries: [...secretEntries(secret)].map(([key, value]) => [key, value.toString('utf8')]) };
  }
  throw configError('envFrom: one of configMapRef or secretRef must be set');
}

async function keyValue(kind: 'configmap' | 'secret', selector: ConfigMapKeySelector | SecretKeySelector, context: PodContext): Promise<string | undefined> {
  const { objects } = context;
  const object: ConfigMap | Secret | undefined = kind === 'configmap' ? await objects.configMap(selector.name) : await objects.secret(selector.name);
  if (object === undefined) {
    if (selector.optional === true) return undefined;
    throw notFoundError(kind, selector.name);
  }
  // kubelet reads only a ConfigMap's data here, not its binaryData.
  const value = kind === 'configmap' ? (object as ConfigMap).data?.[selector.key] : secretEntries(object as Secret).get(selector.key)?.toString('utf8');
  if (value === undefined) {
    if (selector.optional === true) return undefined;
    throw configError(`couldn't find key ${selector.key} in ${kind === 'configmap' ? 'ConfigMap' : 'Secret'} ${objects.namespace}/${selector.name}`);
  }
  return value;
}

async function valueFrom(variable: ApiEnvVar, container: ContainerView, context: PodContext): Promise<string | undefined> {
  const source = variable.valueFrom ?? {};
  if (source.fieldRef !== undefined) return resolveFieldRef(source.fieldRef, context, 'env');
  if (source.resourceFieldRef !== undefined) return resolveResourceFieldRef(source.resourceFieldRef, container, context);
  if (source.configMapKeyRef !== undefined) return keyValue('configmap', source.configMapKeyRef, context);
  if (source.secretKeyRef !== undefined) return keyValue('secret', source.secretKeyRef, context);
  throw configError(`env ${variable.name}: valueFrom names no source (fieldRef, resourceFieldRef, configMapKeyRef or secretKeyRef)`);
}

/**
 * Resolves container.envFrom then container.env against the pod, then adds the Service variables the container
 * does not set itself (they are visible to $(VAR) references throughout, as in kubelet). Missing objects or keys that are not optional are
 * a CreateContainerConfigError in kubelet's words; keys of envFrom that are not valid variable names are skipped
 * and reported in `warnings`.
 */
export async function resolveEnv(container: ContainerEnvSpec, context: PodContext): Promise<ResolvedEnv> {
  const { pod } = context;
  const services = serviceEnvironment(pod.metadata.namespace, pod.spec.enableServiceLinks !== false, await context.objects.services());
  const resolved = new Map<string, string>();
  const warnings: string[] = [];
  for (const source of container.envFrom ?? []) {
    const found = await envFromEntries(source, context);
    if (found === undefined) continue;
    const invalid: string[] = [];
    for (const [key, value] of found.entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const name = `${source.prefix ?? ''}${key}`;
      if (ENV_VAR_NAME.test(name)) resolved.set(name, value);
      else invalid.push(name);
    }
    if (invalid.length > 0) {
      warnings.push(
        `Keys [${invalid.join(', ')}] from the EnvFrom ${found.kind === 'configMap' ? 'configMap' : 'secret'} ${context.objects.namespace}/${found.name} were skipped since they are considered invalid environment variable names.`,
      );
    }
  }
  for (const variable of container.env ?? []) {
    if (variable.valueFrom === undefined) {
      resolved.set(variable.name, expandReferences(variable.value ?? '', new Map([...services, ...resolved])));
      continue;
    }
    const value = await valueFrom(variable, container, context);
    if (value !== undefined) resolved.set(variable.name, value);
  }
  for (const [name, value] of services) if (!resolved.has(name)) resolved.set(name, value);
  return { env: [...resolved].map(([name, value]) => ({ name, value })), warnings };
}
