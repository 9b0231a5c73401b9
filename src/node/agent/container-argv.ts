// A container's argv as kubelet's runtime would build it: command replaces the image's entrypoint, args its
// default arguments. The sandbox runs host binaries rather than images, so the entrypoints of a few
// well-known images come from a small table; any other image must say its command.
import { fileURLToPath } from 'node:url';
import { SandboxSpecError } from '../sandbox/errors.ts';

export interface ImageDefaults {
  entrypoint: string[];
  cmd: string[];
}

const IMAGE_DEFAULTS: Record<string, ImageDefaults> = {
  busybox: { entrypoint: [], cmd: ['sh'] },
  alpine: { entrypoint: [], cmd: ['/bin/sh'] },
  bash: { entrypoint: [], cmd: ['bash'] },
  debian: { entrypoint: [], cmd: ['bash'] },
  ubuntu: { entrypoint: [], cmd: ['bash'] },
  python: { entrypoint: [], cmd: ['python3'] },
  node: { entrypoint: [], cmd: ['node'] },
  // Upstream's chaos injector image (datadog/chaos-injector) runs Bosun's own injector, with this Node and this
  // install's bin/bosun.js: a chaos pod's args (`cpu-pressure --count 50% …`) follow `bosun inject`.
  'chaos-injector': { entrypoint: [process.execPath, fileURLToPath(new URL('../../../bin/bosun.js', import.meta.url)), 'inject'], cmd: [] },
};

/** "docker.io/library/busybox:1.36@sha256:…" → "busybox". */
export function imageBaseName(image: string): string {
  const withoutDigest = image.split('@')[0] ?? '';
  const lastSegment = withoutDigest.split('/').pop() ?? '';
  return lastSegment.split(':')[0] ?? '';
}

export interface ContainerCommand {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
}

/** Expands $(VAR) from env and turns $$ into $, leaving unknown references as written (kubelet's rule). */
export function expandReferences(text: string, env: ReadonlyMap<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match, name: string | undefined) => (name === undefined ? '$' : (env.get(name) ?? match)));
}

/** imageMap: more images (an agent's --image-map), by base name, taking precedence over the built-in table. */
export function resolveArgv(container: ContainerCommand, env: ReadonlyMap<string, string>, imageMap: Readonly<Record<string, ImageDefaults>> = {}): string[] {
  const base = imageBaseName(container.image ?? '');
  const defaults = Object.hasOwn(imageMap, base) ? imageMap[base] : IMAGE_DEFAULTS[base];
  if (container.command === undefined && defaults === undefined) {
    throw new SandboxSpecError(
      'CreateContainerError',
      `container ${container.name}: image ${JSON.stringify(container.image ?? '')} has no known entrypoint on this node; set command (and args) in the container spec`,
    );
  }
  const argv = container.command !== undefined ? [...container.command, ...(container.args ?? [])] : [...(defaults?.entrypoint ?? []), ...(container.args ?? defaults?.cmd ?? [])];
  return argv.map((arg) => expandReferences(arg, env));
}
