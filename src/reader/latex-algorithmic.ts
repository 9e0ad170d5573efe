import { readArgument } from './latex-groups.js';
import { cleanLatexInline } from './latex-inline.js';

interface Step {
  /** The words around the argument: "for {} do". */
  template: string;
  arguments: number;
  /** Indentation change before (-1: closes a block) and after (+1: opens one). */
  before: number;
  after: number;
}

const steps: Record<string, Step> = {
  state: { template: '', arguments: 0, before: 0, after: 0 },
  statex: { template: '', arguments: 0, before: 0, after: 0 },
  require: { template: 'Require:', arguments: 0, before: 0, after: 0 },
  ensure: { template: 'Ensure:', arguments: 0, before: 0, after: 0 },
  input: { template: 'Input:', arguments: 0, before: 0, after: 0 },
  output: { template: 'Output:', arguments: 0, before: 0, after: 0 },
  return: { template: 'return', arguments: 0, before: 0, after: 0 },
  for: { template: 'for {} do', arguments: 1, before: 0, after: 1 },
  forall: { template: 'for all {} do', arguments: 1, before: 0, after: 1 },
  while: { template: 'while {} do', arguments: 1, before: 0, after: 1 },
  repeat: { template: 'repeat', arguments: 0, before: 0, after: 1 },
  until: { template: 'until {}', arguments: 1, before: -1, after: 0 },
  if: { template: 'if {} then', arguments: 1, before: 0, after: 1 },
  elsif: { template: 'else if {} then', arguments: 1, before: -1, after: 1 },
  elseif: { template: 'else if {} then', arguments: 1, before: -1, after: 1 },
  else: { template: 'else', arguments: 0, before: -1, after: 1 },
  endfor: { template: 'end for', arguments: 0, before: -1, after: 0 },
  endwhile: { template: 'end while', arguments: 0, before: -1, after: 0 },
  endif: { template: 'end if', arguments: 0, before: -1, after: 0 },
  function: { template: 'function {}({})', arguments: 2, before: 0, after: 1 },
  procedure: { template: 'procedure {}({})', arguments: 2, before: 0, after: 1 },
  endfunction: { template: 'end function', arguments: 0, before: -1, after: 0 },
  endprocedure: { template: 'end procedure', arguments: 0, before: -1, after: 0 },
  comment: { template: '// {}', arguments: 1, before: 0, after: 0 },
};

/** An `algorithmic` body (algpseudocode or the older algorithmic package) as indented steps. */
export function algorithmicText(body: string): string {
  const lines: string[] = [];
  let depth = 0;
  let current: string[] | undefined;
  const pattern = /\\([a-zA-Z]+)\b/g;
  let last = 0;
  const finish = (): void => {
    if (current === undefined) return;
    const line = cleanLatexInline(current.join(' ')).replace(/\s+/g, ' ').trim();
    if (line.length > 0) lines.push(`${'  '.repeat(Math.max(depth, 0))}${line}`);
    current = undefined;
  };
  const pending: { after: number } = { after: 0 };
  for (let match = pattern.exec(body); match; match = pattern.exec(body)) {
    const step = steps[(match[1] ?? '').toLowerCase()];
    if (!step) continue;
    current?.push(body.slice(last, match.index));
    if (step.template.startsWith('//')) {
      const argument = readArgument(body, match.index + match[0].length);
      current?.push(`  // ${argument?.content ?? ''}`);
      last = argument?.end ?? match.index + match[0].length;
      pattern.lastIndex = last;
      continue;
    }
    finish();
    depth += pending.after + step.before;
    pending.after = step.after;
    let position = match.index + match[0].length;
    let text = step.template;
    for (let index = 0; index < step.arguments; index += 1) {
      const argument = readArgument(body, position);
      text = text.replace('{}', argument?.content ?? '');
      position = argument?.end ?? position;
    }
    current = [text];
    last = position;
    pattern.lastIndex = position;
  }
  current?.push(body.slice(last));
  finish();
  return lines.join('\n');
}
