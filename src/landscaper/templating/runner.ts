// Runs one GoTemplate execution the way Landscaper does: Go text/template with sprig (minus env),
// Landscaper's functions (include/readFile/readDir on the blueprint fs, toYaml, fromYaml, OCI ref
// helpers), missingkey=zero, then the "<no value>" check, then YAML decoding of the output.
import {
  TemplateExecError,
  TemplateLimitError,
  TemplateParseError,
  TemplateSet,
  fromJSONValue,
} from '../../template/index.ts';
import type { BlueprintFs } from '../blueprint/fs.ts';
import { TEMPLATE_TYPE_GO, TEMPLATE_TYPE_SPIFF } from '../api/constants.ts';
import type { TemplateExecutor } from '../api/blueprint.ts';
import type { AnyJSON } from '../api/shared.ts';
import { YamlError, isObject, parseYaml } from '../yaml.ts';
import { landscaperTemplateFunctions } from './functions/index.ts';
import { createSourceSnippet, errorPosition, formatTemplateInput, templateInputKeys } from './diagnostics.ts';
import { EXECUTION_OUTPUT_SHAPES } from './output-shapes.ts';
import {
  NoValueError,
  SpiffNotSupportedError,
  TemplateExecutionError,
  TemplateOutputError,
  describeExecution,
  type ExecutionKind,
} from './errors.ts';

const NO_VALUE = '<no value>';

/** Upstream's name of the template in no-value messages. */
const NO_VALUE_TEMPLATE_NAME: Record<ExecutionKind, string> = {
  deploy: 'deploy execution',
  export: 'export execution',
  subinstallation: 'subinstallation execution',
  import: 'import execution',
};

/** The raw template text of a GoTemplate executor (inline `template` string or `file`). */
export function templateSource(kind: ExecutionKind, exec: TemplateExecutor, fs: BlueprintFs): string {
  if (exec.template !== undefined && exec.template !== null) {
    if (typeof exec.template !== 'string') {
      throw new TemplateOutputError(kind, exec.name, 'the template of a GoTemplate execution must be a string');
    }
    return exec.template;
  }
  if (exec.file !== undefined && exec.file !== '') {
    try {
      return fs.readFile(exec.file).toString('utf8');
    } catch {
      throw new TemplateOutputError(kind, exec.name, `template file ${JSON.stringify(exec.file)} does not exist in the blueprint`);
    }
  }
  throw new TemplateOutputError(kind, exec.name, 'no template found');
}

function noValueError(kind: ExecutionKind, name: string, text: string, input: { [k: string]: AnyJSON }): NoValueError {
  const lines = text.split('\n');
  let msg = `${describeExecution(kind, name)}: template ${JSON.stringify(NO_VALUE_TEMPLATE_NAME[kind])} contains fields with "no value":\n`;
  const hits: number[] = [];
  lines.forEach((content, i) => {
    const col = content.indexOf(NO_VALUE);
    if (col < 0) return;
    hits.push(i + 1);
    msg += `\nline ${i + 1}:${col}\n${createSourceSnippet(i + 1, col, lines)}`;
  });
  return new NoValueError(kind, name, `${msg}\ntemplate input:\n${formatTemplateInput(input)}`, hits, `${msg}\n${templateInputKeys(input)}`);
}

/**
 * Renders blueprint executions with one function map per runner (include keeps its recursion
 * counts per map, as upstream's TemplateExecution does): create one runner per execution.
 */
export class GoTemplateRunner {
  private readonly fs: BlueprintFs;

  constructor(fs: BlueprintFs) {
    this.fs = fs;
  }

  /** Renders `exec` with `input` as dot; returns the raw text (no-value checked except for imports). */
  renderText(kind: ExecutionKind, exec: TemplateExecutor, input: { [key: string]: AnyJSON }): string {
    if (exec.type === TEMPLATE_TYPE_SPIFF) throw new SpiffNotSupportedError(kind, exec.name);
    if (exec.type !== TEMPLATE_TYPE_GO) {
      throw new TemplateOutputError(kind, exec.name, `unknown template type ${JSON.stringify(exec.type)}`);
    }
    const source = templateSource(kind, exec, this.fs);
    const funcs = landscaperTemplateFunctions({
      fs: this.fs,
      // Included files share this execution's function map (and budget, via the engine).
      renderInclude: (name, src, binding, fm) => new TemplateSet({ funcs: fm, missingKey: 'zero' }).parse(name, src).execute(binding),
    });
    const set = new TemplateSet({ funcs, missingKey: 'zero' });
    const label = describeExecution(kind, exec.name) + (exec.file !== undefined ? ` (file ${exec.file})` : '');
    let text: string;
    try {
      text = set.parse(exec.name, source).execute(fromJSONValue(input));
    } catch (e) {
      if (!(e instanceof TemplateParseError || e instanceof TemplateExecError || e instanceof TemplateLimitError)) throw e;
      const pos = errorPosition(e.message);
      let msg = `${label}: ${e.message}`;
      if (pos !== undefined) msg += `\ntemplate source:\n${createSourceSnippet(pos.line, pos.column, source.split('\n'))}`;
      if (e instanceof TemplateParseError) throw new TemplateExecutionError(kind, exec.name, msg, pos?.line, e);
      throw new TemplateExecutionError(kind, exec.name, `${msg}\ntemplate input:\n${formatTemplateInput(input)}`, pos?.line, e, `${msg}\n${templateInputKeys(input)}`);
    }
    if (kind !== 'import' && text.includes(NO_VALUE)) throw noValueError(kind, exec.name, text, input);
    return text;
  }

  /** Renders and decodes the YAML output into the kind's output type, as upstream does (an empty output is {}). */
  render(kind: ExecutionKind, exec: TemplateExecutor, input: { [key: string]: AnyJSON }): { [key: string]: AnyJSON } {
    const text = this.renderText(kind, exec, input);
    let out: AnyJSON;
    try {
      out = parseYaml(text, EXECUTION_OUTPUT_SHAPES[kind]);
    } catch (e) {
      if (e instanceof YamlError) throw new TemplateOutputError(kind, exec.name, `error while decoding templated execution: ${e.message}\noutput:\n${text}`);
      throw e;
    }
    if (out === null) return {};
    if (!isObject(out)) throw new TemplateOutputError(kind, exec.name, 'error while decoding templated execution: the output must be a YAML map');
    return out;
  }
}

/** Go's encoding/json matches struct fields case-insensitively ("deployitems" fills DeployItems). */
export function getField(obj: { [key: string]: AnyJSON }, key: string): AnyJSON | undefined {
  if (Object.prototype.hasOwnProperty.call(obj, key)) return obj[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(obj)) if (k.toLowerCase() === lower) return obj[k];
  return undefined;
}
