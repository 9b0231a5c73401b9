// A blueprint with its filesystem and schema validator: what every execution needs.
import type { BlueprintFs } from './fs.ts';
import type { Blueprint, InstallationTemplate } from '../api/blueprint.ts';
import type { InlineFilesystem } from '../api/installation.ts';
import { YamlError, isObject, parseYaml } from '../yaml.ts';
import { BlueprintError } from './errors.ts';
import { inlineBlueprintFs } from './inline-fs.ts';
import { parseBlueprint } from './parse.ts';
import { BlueprintSchemaValidator } from './schema.ts';

export const BLUEPRINT_FILE = 'blueprint.yaml';

export interface LoadedBlueprint {
  blueprint: Blueprint;
  fs: BlueprintFs;
  validator: BlueprintSchemaValidator;
}

/** Reads and parses blueprint.yaml from a blueprint filesystem. */
export function loadBlueprint(fs: BlueprintFs): LoadedBlueprint {
  let text: string;
  try {
    text = fs.readFile(BLUEPRINT_FILE).toString('utf8');
  } catch {
    throw new BlueprintError(`the blueprint filesystem has no ${BLUEPRINT_FILE}`);
  }
  const blueprint = parseBlueprint(text, BLUEPRINT_FILE);
  const validator = new BlueprintSchemaValidator({ fs, ...(blueprint.localTypes ? { localTypes: blueprint.localTypes } : {}) });
  return { blueprint, fs, validator };
}

/** Loads the inline blueprint of an installation (spec.blueprint.inline.filesystem). */
export function loadInlineBlueprint(filesystem: InlineFilesystem): LoadedBlueprint {
  return loadBlueprint(inlineBlueprintFs(filesystem));
}

/** The static subinstallations of a blueprint, `file` entries read from its filesystem. */
export function staticSubinstallations(loaded: LoadedBlueprint): InstallationTemplate[] {
  return (loaded.blueprint.subinstallations ?? []).map((s, i) => {
    let tmpl: unknown = s;
    if (s.file !== undefined && s.file !== '') {
      let text: string;
      try {
        text = loaded.fs.readFile(s.file).toString('utf8');
      } catch {
        throw new BlueprintError(`subinstallations[${i}].file: ${s.file} does not exist in the blueprint`);
      }
      try {
        tmpl = parseYaml(text);
      } catch (e) {
        if (e instanceof YamlError) throw new BlueprintError(`subinstallations[${i}].file: ${s.file}: ${e.message}`);
        throw e;
      }
    }
    return checkInstallationTemplate(tmpl, `subinstallations[${i}]`);
  });
}

/** Minimal structural check of an installation template (name and blueprint are required). */
export function checkInstallationTemplate(raw: unknown, path: string): InstallationTemplate {
  if (!isObject(raw as never)) throw new BlueprintError(`${path}: an installation template must be a map`);
  const t = raw as Record<string, unknown>;
  if (typeof t['name'] !== 'string' || t['name'] === '') throw new BlueprintError(`${path}.name: Required value`);
  const bp = t['blueprint'];
  if (!isObject(bp as never)) throw new BlueprintError(`${path}.blueprint: Required value`);
  const b = bp as Record<string, unknown>;
  if ((b['ref'] === undefined) === (b['filesystem'] === undefined)) {
    throw new BlueprintError(`${path}.blueprint: exactly one of ref and filesystem has to be defined`);
  }
  const { file: _file, ...rest } = t;
  return rest as unknown as InstallationTemplate;
}
