// The inline blueprint of an installation (spec.blueprint.inline.filesystem) as a BlueprintFs:
// a YAML filesystem where strings are files and nested maps are directories (mandelsoft yamlfs).
import { stringify } from 'yaml';
import { MemoryBlueprintFs } from './fs.ts';
import type { InlineFilesystem } from '../api/installation.ts';
import type { AnyJSON } from '../api/shared.ts';
import { BlueprintError } from './errors.ts';

function flatten(node: { [key: string]: AnyJSON }, prefix: string, out: Record<string, string>): void {
  for (const [name, value] of Object.entries(node)) {
    if (name === '' || name === '.' || name === '..') throw new BlueprintError(`inline blueprint: invalid file name ${JSON.stringify(name)}`);
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) flatten(value, path, out);
    else if (typeof value === 'string') out[path] = value;
    // yamlfs keeps non-string scalars and lists as YAML text.
    else out[path] = value === null ? '' : stringify(value);
  }
}

/** The files of an inline filesystem, keyed by slash-separated path. */
export function inlineFilesystemFiles(fs: InlineFilesystem): Record<string, string> {
  if (fs === null || typeof fs !== 'object' || Array.isArray(fs)) {
    throw new BlueprintError('inline blueprint: filesystem must be a map of file names to contents');
  }
  const files: Record<string, string> = {};
  flatten(fs, '', files);
  return files;
}

export function inlineBlueprintFs(fs: InlineFilesystem): MemoryBlueprintFs {
  return new MemoryBlueprintFs(inlineFilesystemFiles(fs));
}
