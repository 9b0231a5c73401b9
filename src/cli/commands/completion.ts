// `bosun completion bash|zsh|fish`: a completion script for the shell, made from the commands themselves (every
// subcommand is loaded once here, so a new flag completes without anyone writing it twice).
import { Command } from 'commander';
import { subcommands } from '../subcommands.ts';

interface CompletionModel {
  commands: { name: string; summary: string; subcommands: string[]; options: { flags: string[]; description: string; takesValue: boolean }[] }[];
}

export async function completionModel(): Promise<CompletionModel> {
  const visible = Object.entries(subcommands).filter(([, sub]) => sub.hidden !== true);
  const commands = await Promise.all(
    visible.map(async ([name, sub]) => {
      const command = await sub.load();
      const options = [...command.options.map((o) => ({ flags: [o.long, o.short].filter((f): f is string => f !== undefined), description: o.description, takesValue: o.required || o.optional })), { flags: ['--help', '-h'], description: 'display help for command', takesValue: false }];
      return { name, summary: sub.summary, subcommands: command.commands.map((c) => c.name()), options };
    }),
  );
  return { commands };
}

/** Single-quoted for a POSIX shell. */
const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

export function bashCompletion(model: CompletionModel): string {
  const cases = model.commands.map((c) => `    ${c.name}) options=${quote(c.options.flatMap((o) => o.flags).join(' '))}; words=${quote(c.subcommands.join(' '))} ;;`).join('\n');
  return `# bash completion for bosun: source <(bosun completion bash)
_bosun() {
  local current="\${COMP_WORDS[COMP_CWORD]}" command="" word options="" words=""
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$word" in -*) ;; *) command="$word"; break ;; esac
  done
  if [ -z "$command" ]; then
    COMPREPLY=($(compgen -W ${quote(['--help', '--version', ...model.commands.map((c) => c.name)].join(' '))} -- "$current"))
    return
  fi
  case "$command" in
${cases}
  esac
  if [[ "$current" == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$current"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$current") $(compgen -f -- "$current"))
  fi
}
complete -F _bosun bosun
`;
}

/** zsh's _arguments spec of one option: --name[description]. */
function zshOption(flag: string, description: string, takesValue: boolean): string {
  const text = description.replaceAll('\\', '\\\\').replaceAll('[', '\\[').replaceAll(']', '\\]').replaceAll("'", "'\\''").replaceAll(':', '\\:');
  return `'${flag}[${text}]${takesValue ? ':value:_files' : ''}'`;
}

export function zshCompletion(model: CompletionModel): string {
  const describe = model.commands.map((c) => `    ${quote(`${c.name}:${c.summary.replaceAll(':', '\\:')}`)}`).join('\n');
  const cases = model.commands
    .map((c) => `    ${c.name})\n      _arguments ${c.options.flatMap((o) => o.flags.map((f) => zshOption(f, o.description, o.takesValue))).join(' ')}${c.subcommands.length > 0 ? ` '1:command:(${c.subcommands.join(' ')})'` : " '*:file:_files'"}\n      ;;`)
    .join('\n');
  return `#compdef bosun
# zsh completion for bosun: bosun completion zsh > "\${fpath[1]}/_bosun"
_bosun() {
  local -a commands
  commands=(
${describe}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  shift words
  (( CURRENT-- ))
  case "\${words[1]}" in
${cases}
  esac
}
compdef _bosun bosun
`;
}

export function fishCompletion(model: CompletionModel): string {
  const lines = ['# fish completion for bosun: bosun completion fish > ~/.config/fish/completions/bosun.fish', 'complete -c bosun -f'];
  for (const c of model.commands) {
    lines.push(`complete -c bosun -n __fish_use_subcommand -a ${c.name} -d ${quote(c.summary)}`);
    if (c.subcommands.length > 0) lines.push(`complete -c bosun -n ${quote(`__fish_seen_subcommand_from ${c.name}`)} -a ${quote(c.subcommands.join(' '))}`);
    for (const o of c.options) {
      const long = o.flags.find((f) => f.startsWith('--'))?.slice(2);
      const short = o.flags.find((f) => /^-[^-]$/.test(f))?.slice(1);
      lines.push(`complete -c bosun -n ${quote(`__fish_seen_subcommand_from ${c.name}`)}${long ? ` -l ${long}` : ''}${short ? ` -s ${short}` : ''}${o.takesValue ? ' -r -F' : ''} -d ${quote(o.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const RENDERERS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

export function completionCommand(): Command {
  return new Command('completion')
    .description('print a completion script for bash, zsh or fish (bash: source <(bosun completion bash))')
    .argument('<shell>', 'bash, zsh or fish')
    .action(async (shell: string) => {
      const render = RENDERERS[shell as keyof typeof RENDERERS] as ((model: CompletionModel) => string) | undefined;
      if (render === undefined) {
        console.error(`bosun completion: unknown shell "${shell}": use bash, zsh or fish`);
        process.exit(1);
      }
      process.stdout.write(render(await completionModel()));
    });
}
