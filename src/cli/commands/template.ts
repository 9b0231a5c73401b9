// `bosun template render -f TEMPLATE [--values FILE]`: renders a Go template with sprig and Landscaper's
// functions the way a GoTemplate execution does: missingkey=zero, then the output is refused when it contains
// "<no value>" (a field the values do not have), with Landscaper's message and the lines that have it.
import { Command } from 'commander';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, posix, resolve, sep } from 'node:path';
import { BlueprintFsError, type BlueprintFs, type BlueprintFsEntry } from '../../landscaper/blueprint/fs.ts';
import { createSourceSnippet } from '../../landscaper/templating/diagnostics.ts';
import { landscaperTemplateFunctions } from '../../landscaper/templating/functions/index.ts';
import { fromYaml } from '../../landscaper/templating/functions/yaml.ts';
import { TemplateSet, fromJSONValue, type GoValue } from '../../template/index.ts';
import { readInputFile } from '../input-files.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** Read-only blueprint filesystem confined to one directory (readFile, readDir, include). */
class DirectoryFs implements BlueprintFs {
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }
  private path(p: string): string {
    const rel = posix.normalize('/' + p).replace(/^\/+/, '');
    const full = resolve(this.root, rel);
    if (full !== this.root && !full.startsWith(this.root + sep)) throw new BlueprintFsError(`open ${p}: file does not exist`);
    return full;
  }
  readFile(p: string): Buffer {
    try {
      return readFileSync(this.path(p));
    } catch {
      throw new BlueprintFsError(`open ${p}: file does not exist`);
    }
  }
  readDir(p: string): BlueprintFsEntry[] {
    try {
      const dir = this.path(p);
      return readdirSync(dir).sort().map((name) => {
        const st = statSync(resolve(dir, name));
        return { name, isDir: st.isDirectory(), size: st.size };
      });
    } catch {
      throw new BlueprintFsError(`open ${p}: file does not exist`);
    }
  }
}

/** Values as Landscaper decodes them: JSON, or YAML through sigs.k8s.io/yaml (numbers become float64). */
function loadValues(file: string): GoValue {
  const text = readInputFile('values file', file);
  try {
    return fromJSONValue(JSON.parse(text));
  } catch {
    return fromYaml(text);
  }
}

const NO_VALUE = '<no value>';

export class NoValueError extends Error {
  override readonly name = 'NoValueError' as const;
}

/** Landscaper's message for output with "<no value>": each such line with its column, in the output around it. */
function noValueError(templateName: string, output: string): NoValueError {
  const lines = output.split('\n');
  let message = `template ${JSON.stringify(templateName)} contains fields with "no value":\n`;
  lines.forEach((content, i) => {
    const column = content.indexOf(NO_VALUE);
    if (column >= 0) message += `\nline ${i + 1}:${column}\n${createSourceSnippet(i + 1, column, lines)}`;
  });
  return new NoValueError(message);
}

export function templateCommand(): Command {
  const template = new Command('template').description('Go text/template + sprig rendering as Landscaper does it');
  template
    .command('render')
    .description('render a template file with values (JSON or YAML) and print the raw output')
    .requiredOption('-f, --file <template>', 'template file ("-" reads standard input)')
    .option('--values <file>', 'values file (JSON or YAML), bound to dot')
    .action((opts: { file: string; values?: string }) => {
      try {
        const fromStdin = opts.file === '-';
        const templateName = fromStdin ? 'stdin' : opts.file;
        const source = readInputFile('template file', opts.file);
        const data = opts.values === undefined ? null : loadValues(opts.values);
        const funcs = landscaperTemplateFunctions({
          // readFile, readDir and include resolve beside the template (a template on stdin: the working directory).
          fs: new DirectoryFs(fromStdin ? '.' : dirname(opts.file)),
          renderInclude: (name, src, binding, fm) =>
            new TemplateSet({ funcs: fm, missingKey: 'zero' }).parse(name, src).execute(binding),
        });
        const set = new TemplateSet({ funcs, missingKey: 'zero' });
        const out = set.parse(templateName, source).execute(data);
        if (out.includes(NO_VALUE)) throw noValueError(templateName, out);
        process.stdout.write(out);
      } catch (e) {
        process.stderr.write(messageOf(e).trimEnd() + '\n');
        process.exitCode = 1;
      }
    });
  return template;
}
