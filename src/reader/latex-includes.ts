import { readFile } from 'node:fs/promises';
import { dirname, extname, relative, resolve } from 'node:path';
import { stripLatexComments } from './latex-comments.js';
import { PaperError } from './paper-error.js';

// `\input{file}`, `\include{file}`, `\subfile{file}`, and TeX's brace-less `\input file`.
const includePattern = /\\(input|include|subfile)(?:\s*\{([^}]+)\}|\s+([\w./-]+))/g;

interface LatexFile {
  path: string;
  text: string;
}

async function readIncluded(
  target: string,
  from: string,
  command: string,
  name: string,
): Promise<LatexFile> {
  const candidates = extname(target) === '' ? [`${target}.tex`, target] : [target, `${target}.tex`];
  for (const candidate of candidates) {
    try {
      return { path: candidate, text: await readFile(candidate, 'utf8') };
    } catch {
      // Try the next spelling; the error below names them all.
    }
  }
  throw new PaperError(
    'include-missing',
    from,
    `${from} has \\${command}{${name}}, but ${candidates.join(' and ')} does not exist. Put the file there or remove the line.`,
  );
}

async function flatten(file: LatexFile, root: string, stack: string[]): Promise<string> {
  const source = stripLatexComments(file.text);
  let result = '';
  let last = 0;
  for (const match of source.matchAll(includePattern)) {
    const command = match[1] ?? 'input';
    const name = (match[2] ?? match[3] ?? '').trim();
    const included = await readIncluded(resolve(root, name), file.path, command, name);
    if (stack.includes(included.path)) {
      const chain = [...stack, included.path].map((entry) => relative(root, entry)).join(' → ');
      throw new PaperError(
        'include-cycle',
        file.path,
        `The LaTeX files include each other in a cycle: ${chain}. Remove the \\${command}{${name}} line from ${file.path}.`,
      );
    }
    const inner = await flatten(included, root, [...stack, included.path]);
    result += `${source.slice(last, match.index)}\n${inner}\n`;
    last = match.index + match[0].length;
  }
  return result + source.slice(last);
}

/**
 * The main .tex file with every `\input`/`\include` replaced by the file it names
 * (relative to the main file's folder, as LaTeX resolves them), comments removed.
 * A missing file or a cycle is a PaperError naming the file and the line to fix.
 */
export async function flattenLatex(mainPath: string): Promise<string> {
  const main = resolve(mainPath);
  return flatten({ path: main, text: await readFile(main, 'utf8') }, dirname(main), [main]);
}
