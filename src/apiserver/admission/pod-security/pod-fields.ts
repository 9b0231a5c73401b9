// The parts of a pod (or pod template) the Pod Security checks read, and the wording helpers their messages
// share (policy/helpers.go). Fields are read defensively: a wrongly typed field counts as unset.
import { isPlainObject } from '../../../apimachinery/object.ts';

export type Json = Record<string, unknown>;

/** One check's verdict: undefined when allowed, else kube's reason and detail. */
export type CheckResult = { reason: string; detail: string } | undefined;

export interface PodParts {
  /** The pod's (or template's) metadata.annotations. */
  readonly annotations: Readonly<Record<string, string>>;
  readonly spec: Json;
}

export type CheckPod = (pod: PodParts) => CheckResult;

export function object(value: unknown): Json | undefined {
  return isPlainObject(value) ? value : undefined;
}

export function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map((v) => String(v)) : [];
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export interface ContainerParts {
  readonly name: string;
  readonly container: Json;
  /** securityContext, when the container sets one. */
  readonly securityContext: Json | undefined;
}

/** visitContainers: init containers, then containers, then ephemeral containers. */
export function containersOf(spec: Json): ContainerParts[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((field) =>
    objects(spec[field]).map((container) => ({ name: text(container['name']), container, securityContext: object(container['securityContext']) })),
  );
}

/** The pod-level securityContext, when set. */
export function podSecurityContext(spec: Json): Json | undefined {
  return object(spec['securityContext']);
}

export function isWindows(spec: Json): boolean {
  return object(spec['os'])?.['name'] === 'windows';
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `"a", "b"`: Go's joinQuote. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** `container "a"` or `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** A sorted, de-duplicated list (sets.String.List). */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** Go's %q for the plain strings annotations hold. */
export function goQuote(value: string): string {
  return JSON.stringify(value);
}

/** One check of the standards, in each version since it appeared (policy.Check). */
export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  /** Ascending by the minor version (of v1) that introduced each behaviour. */
  readonly versions: readonly { readonly minimum: number; readonly check: CheckPod; readonly overrides?: readonly string[] }[];
}
