// A container's argv as kubelet's runtime would build it: command replaces the image's entrypoint, args its
// default arguments. The sandbox runs host binaries rather than images, so the entrypoints of a few
// well-known images come from a small table; any other image must say its command.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxSpecError } from '../sandbox/errors.ts';

export interface ImageDefaults {
  entrypoint: string[];
  cmd: string[];
  /** The image's USER when it is not the node's default: honoured only in trusted namespaces. */
  user?: number;
  /** Host directories the image's program lives in, bound read-only at the same path (the sandbox hides /tmp …). */
  hostDirs?: string[];
  /** The image's ENV: set unless the container sets the variable itself. */
  env?: Record<string, string>;
}

const BOSUN_ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
const BOSUN_BIN = `${BOSUN_ROOT}/bin/bosun.js`;
// Bosun's own programs: this install (wherever it is, /tmp included) and the Node that runs it.
const BOSUN_DIRS = [BOSUN_ROOT, dirname(process.execPath)];

const IMAGE_DEFAULTS: Record<string, ImageDefaults> = {
  busybox: { entrypoint: [], cmd: ['sh'] },
  alpine: { entrypoint: [], cmd: ['/bin/sh'] },
  bash: { entrypoint: [], cmd: ['bash'] },
  debian: { entrypoint: [], cmd: ['bash'] },
  ubuntu: { entrypoint: [], cmd: ['bash'] },
  python: { entrypoint: [], cmd: ['python3'] },
  node: { entrypoint: [], cmd: ['node'] },
  // Kubernetes' pause image holds a pod's namespaces and does nothing: a sleep.
  pause: { entrypoint: ['sleep', 'infinity'], cmd: [] },
  // Upstream's chaos injector image (datadog/chaos-injector) runs Bosun's own injector, with this Node and this
  // install's bin/bosun.js, as root like the image: a chaos pod's args (`cpu-pressure --count 50% …`) follow
  // `bosun inject`. Its handler image (chaos-handler, an onInit target's init container) runs `bosun chaos-handler`.
  'chaos-injector': { entrypoint: [process.execPath, BOSUN_BIN, 'inject'], cmd: [], user: 0, hostDirs: BOSUN_DIRS },
  'chaos-handler': { entrypoint: [process.execPath, BOSUN_BIN, 'chaos-handler'], cmd: [], hostDirs: BOSUN_DIRS },
  // Landscaper's container deployer: the init and wait programs around the user's image.
  'container-deployer-init': { entrypoint: [process.execPath, BOSUN_BIN, 'container-init'], cmd: [], hostDirs: BOSUN_DIRS },
  'container-deployer-wait': { entrypoint: [process.execPath, BOSUN_BIN, 'container-wait'], cmd: [], hostDirs: BOSUN_DIRS },
};

/** The image `bosun manifests` puts in its Deployment by default. */
export const BOSUN_IMAGE = 'ghcr.io/bosun/bosun:latest';
// Images known by their full reference, not their base name: only Bosun's own default image runs this install's
// CLI (node + bin/bosun.js, as the Dockerfile's ENTRYPOINT/CMD), so any other "bosun" image must say its command.
const EXACT_IMAGES: Record<string, ImageDefaults> = {
  // A checkout being edited runs its sources through tsx, whose disk cache would be under the sandbox's hidden /tmp.
  [BOSUN_IMAGE]: { entrypoint: [process.execPath, BOSUN_BIN], cmd: ['controllers'], hostDirs: BOSUN_DIRS, env: { TSX_DISABLE_CACHE: '1' } },
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

/** What this node knows of an image: an agent's --image-map first, then the built-in table. */
export function imageDefaults(image: string | undefined, imageMap: Readonly<Record<string, ImageDefaults>> = {}): ImageDefaults | undefined {
  const base = imageBaseName(image ?? '');
  if (Object.hasOwn(imageMap, base)) return imageMap[base];
  return Object.hasOwn(EXACT_IMAGES, image ?? '') ? EXACT_IMAGES[image ?? ''] : IMAGE_DEFAULTS[base];
}

/** imageMap: more images (an agent's --image-map), by base name, taking precedence over the built-in table. */
export function resolveArgv(container: ContainerCommand, env: ReadonlyMap<string, string>, imageMap: Readonly<Record<string, ImageDefaults>> = {}): string[] {
  const defaults = imageDefaults(container.image, imageMap);
  if (container.command === undefined && defaults === undefined) {
    throw new SandboxSpecError(
      'CreateContainerError',
      `container ${container.name}: image ${JSON.stringify(container.image ?? '')} has no known entrypoint on this node, which runs no images; set command (and args) in the container spec, or install the Debian packages runc and conmon and start the node with --container-runtime auto`,
    );
  }
  const argv = container.command !== undefined ? [...container.command, ...(container.args ?? [])] : [...(defaults?.entrypoint ?? []), ...(container.args ?? defaults?.cmd ?? [])];
  return argv.map((arg) => expandReferences(arg, env));
}
