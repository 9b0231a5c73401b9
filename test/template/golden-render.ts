// How the golden and fuzz checks drive the TypeScript engine, with the functions Landscaper adds (the Go
// reference renders as Landscaper does): one place to adapt to the engine's API.
import { MemoryBlueprintFs } from '../../src/landscaper/blueprint/fs.ts';
import { landscaperTemplateFunctions } from '../../src/landscaper/templating/functions/index.ts';
import { fromJSONValue, type FuncMap, type GoValue } from '../../src/template/value.ts';
import * as engine from '../../src/template/index.ts';

export interface RenderCase {
  template: string;
  data: unknown;
  files?: Record<string, string>;
  name?: string;
}

export type RenderResult = { output: string } | { error: string };

type Render = (name: string, text: string, data: GoValue, funcs: FuncMap) => string;

const renderText: Render = (name, text, data, funcs) => engine.parse(name, text, { funcs }).execute(data, { missingKey: 'zero' });

/** Renders a case as the Go reference does: missingkey=zero, data decoded as Landscaper decodes JSON. */
const NO_FILES = {};
// One function map per blueprint filesystem, as an execution environment would keep it.
const funcCache = new WeakMap<object, FuncMap>();

function funcsFor(files: Record<string, string>): FuncMap {
  let funcs = funcCache.get(files);
  if (funcs === undefined) {
    funcs = landscaperTemplateFunctions({
      fs: new MemoryBlueprintFs(files),
      renderInclude: (name, source, data, fm) => renderText(name, source, data, fm),
    });
    funcCache.set(files, funcs);
  }
  return funcs;
}

export function renderCase(c: RenderCase): RenderResult {
  const funcs = funcsFor(c.files ?? NO_FILES);
  try {
    return { output: renderText(c.name ?? 'execution', c.template, fromJSONValue(c.data), funcs) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
