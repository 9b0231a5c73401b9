// `bosun blueprint render DIR --imports FILE [--output yaml|json]`: renders a blueprint directory
// without a cluster (like `landscaper-cli blueprints render`) and prints its deploy items,
// subinstallation templates and exports.
import { Command, Option } from 'commander';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { stringify } from 'yaml';
import type { AnyJSON } from '../../landscaper/api/shared.ts';
import { MemoryBlueprintFs } from '../../landscaper/blueprint/fs.ts';
import { loadBlueprint } from '../../landscaper/blueprint/load.ts';
import { renderBlueprint } from '../../landscaper/templating/render.ts';
import type { ExportInputs } from '../../landscaper/templating/exports.ts';
import { isObject, parseYaml } from '../../landscaper/yaml.ts';
import { checkInputDirectory, readInputFile } from '../input-files.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

const MAX_FILES = 10_000;

/** The files of a directory (recursively), keyed by slash-separated relative path. */
function readDirectory(root: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  let count = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (st.isFile()) {
        if (++count > MAX_FILES) throw new Error(`${root}: more than ${MAX_FILES} files; is this a blueprint directory?`);
        files[relative(root, full).split(sep).join('/')] = readFileSync(full);
      }
    }
  };
  walk(root);
  return files;
}

const INPUT_KEYS = new Set(['imports', 'deployitems', 'dataobjects', 'targets']);

/**
 * The imports file: either `imports: {...}` (optionally with `deployitems`, `dataobjects`, `targets`
 * for export executions) as landscaper-cli takes it, or a plain map of import values.
 */
function readInputs(file: string, importNames: Set<string>): { imports: { [k: string]: AnyJSON }; exportInputs: ExportInputs } {
  const doc = parseYaml(readInputFile('imports file', file));
  if (doc === null) return { imports: {}, exportInputs: {} };
  if (!isObject(doc)) throw new Error(`${file}: the imports file must be a YAML map`);
  const wrapped = isObject(doc['imports']) && !importNames.has('imports') && Object.keys(doc).every((k) => INPUT_KEYS.has(k));
  if (!wrapped) return { imports: doc, exportInputs: {} };
  const pick = (k: string): { [key: string]: AnyJSON } | undefined => (isObject(doc[k]) ? doc[k] : undefined);
  const exportInputs: ExportInputs = {};
  const di = pick('deployitems');
  const dobj = pick('dataobjects');
  const tg = pick('targets');
  if (di !== undefined) exportInputs.deployitems = di;
  if (dobj !== undefined) exportInputs.dataobjects = dobj;
  if (tg !== undefined) exportInputs.targets = tg;
  return { imports: pick('imports') ?? {}, exportInputs };
}

export function blueprintCommand(): Command {
  const blueprint = new Command('blueprint').description('work with Landscaper blueprints without a cluster');
  blueprint
    .command('render')
    .description('render the deploy items, subinstallation templates and exports of a blueprint directory')
    .argument('<dir>', 'blueprint directory (contains blueprint.yaml)')
    .option('-i, --imports <file>', 'imports (YAML or JSON): a map of import values, or {imports, deployitems, dataobjects, targets}')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .action((dir: string, opts: { imports?: string; output: 'yaml' | 'json' }) => {
      try {
        checkInputDirectory('blueprint directory', dir);
        const loaded = loadBlueprint(new MemoryBlueprintFs(readDirectory(dir)));
        const names = new Set((loaded.blueprint.imports ?? []).map((i) => i.name));
        const inputs = opts.imports === undefined ? { imports: {}, exportInputs: {} } : readInputs(opts.imports, names);
        const r = renderBlueprint(loaded, inputs.imports, inputs.exportInputs);
        const out: { [k: string]: AnyJSON } = {
          deployItems: r.deployItems as unknown as AnyJSON,
          subinstallations: r.subinstallations as unknown as AnyJSON,
          exports: r.exports,
        };
        if (Object.keys(r.states).length > 0) out['state'] = r.states;
        process.stdout.write(opts.output === 'json' ? JSON.stringify(out, null, 2) + '\n' : stringify(out, { lineWidth: 0 }));
        if (r.missingExports.length > 0) process.stderr.write(`warning: exports not produced by any export execution: ${r.missingExports.join(', ')}\n`);
        if (r.droppedExports.length > 0) process.stderr.write(`warning: export execution output that is not a blueprint export (dropped): ${r.droppedExports.join(', ')}\n`);
      } catch (e) {
        const name = e instanceof Error ? e.name : 'Error';
        process.stderr.write(`${name}: ${messageOf(e)}\n`);
        process.exitCode = 1;
      }
    });
  return blueprint;
}
