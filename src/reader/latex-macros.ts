import { readArgument, readGroup, skipSpaces } from './latex-groups.js';

export interface LatexMacro {
  parameters: number;
  /** The default of an optional first argument (`\newcommand{\x}[2][default]{…}`). */
  optionalDefault?: string;
  body: string;
}

const definitionPattern =
  /\\(newcommand|renewcommand|providecommand|DeclareMathOperator|def)\*?\s*/g;

/**
 * Finds `\newcommand`, `\renewcommand`, `\providecommand`, `\DeclareMathOperator` and simple
 * `\def` definitions, and returns the text without them plus the macros by name.
 */
export function extractMacros(source: string): { text: string; macros: Map<string, LatexMacro> } {
  const macros = new Map<string, LatexMacro>();
  let text = '';
  let last = 0;
  definitionPattern.lastIndex = 0;
  for (let match = definitionPattern.exec(source); match; match = definitionPattern.exec(source)) {
    const kind = match[1];
    const starred = match[0].includes('*');
    let position = match.index + match[0].length;
    let name: string | undefined;
    const braced = readGroup(source, position);
    if (braced) {
      name = braced.content.trim();
      position = braced.end;
    } else {
      const control = /^\\[a-zA-Z@]+/.exec(source.slice(position));
      if (control) {
        name = control[0];
        position += control[0].length;
      }
    }
    if (name === undefined || !/^\\[a-zA-Z@]+$/.test(name)) continue;
    const macro: LatexMacro = { parameters: 0, body: '' };
    if (kind === 'def') {
      const parameters = /^(#\d)*/.exec(source.slice(position))?.[0] ?? '';
      macro.parameters = parameters.length / 2;
      position += parameters.length;
    } else if (kind !== 'DeclareMathOperator') {
      position = skipSpaces(source, position);
      const count = readGroup(source, position, '[', ']');
      if (count) {
        macro.parameters = Number.parseInt(count.content, 10) || 0;
        position = skipSpaces(source, count.end);
        const optional = readGroup(source, position, '[', ']');
        if (optional) {
          macro.optionalDefault = optional.content;
          position = optional.end;
        }
      }
    }
    const body = readGroup(source, skipSpaces(source, position));
    if (!body) continue;
    macro.body =
      kind === 'DeclareMathOperator'
        ? `\\operatorname${starred ? '*' : ''}{${body.content}}`
        : body.content;
    if (!(kind === 'providecommand' && macros.has(name))) macros.set(name.slice(1), macro);
    text += source.slice(last, match.index);
    last = body.end;
    definitionPattern.lastIndex = body.end;
  }
  text += source.slice(last);
  return { text, macros };
}

function expandOnce(text: string, macros: Map<string, LatexMacro>): string {
  let result = '';
  let index = 0;
  const pattern = /\\([a-zA-Z@]+)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const macro = match[1] !== undefined ? macros.get(match[1]) : undefined;
    if (!macro) continue;
    let position = match.index + match[0].length;
    const values: string[] = [];
    let remaining = macro.parameters;
    if (macro.optionalDefault !== undefined && remaining > 0) {
      const optional = readGroup(text, skipSpaces(text, position), '[', ']');
      values.push(optional ? optional.content : macro.optionalDefault);
      if (optional) position = optional.end;
      remaining -= 1;
    }
    for (; remaining > 0; remaining -= 1) {
      const argument = readArgument(text, position);
      if (!argument) break;
      values.push(argument.content);
      position = argument.end;
    }
    const body = macro.body.replace(/#(\d)/g, (_whole, digit: string) => {
      return values[Number(digit) - 1] ?? '';
    });
    // TeX drops spaces after an argument-less control word; where the expansion itself
    // ends in a control word, one space must stay so it does not fuse with a letter.
    const endsInControlWord = /\\[a-zA-Z]+$/.test(body);
    if (macro.parameters === 0 && endsInControlWord) position = skipSpaces(text, position);
    const next = text[position] ?? '';
    const spacer = macro.parameters === 0 && endsInControlWord && /[a-zA-Z]/.test(next);
    result += text.slice(index, match.index) + body + (spacer ? ' ' : '');
    index = position;
    pattern.lastIndex = position;
  }
  return result + text.slice(index);
}

/** Expands the macros until none is left (at most 32 rounds, so recursive macros stop). */
export function expandMacros(text: string, macros: Map<string, LatexMacro>): string {
  if (macros.size === 0) return text;
  let current = text;
  for (let round = 0; round < 32; round += 1) {
    const next = expandOnce(current, macros);
    if (next === current) break;
    current = next;
  }
  return current;
}
