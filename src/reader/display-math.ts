/** Display math environments; the value is the environment that keeps the body valid in `$$`. */
const wrappers: Record<string, string | undefined> = {
  equation: undefined,
  displaymath: undefined,
  math: undefined,
  multline: undefined,
  align: 'aligned',
  flalign: 'aligned',
  alignat: 'alignedat',
  eqnarray: 'aligned',
  gather: 'gathered',
};

export function isDisplayMathEnvironment(name: string): boolean {
  return name in wrappers;
}

/**
 * A display equation's body as codify stores it, the same from Markdown and LaTeX:
 * labels and numbering switches removed, multi-line environments turned into their
 * `$$`-safe forms (align → aligned, gather → gathered). `environment` is undefined for
 * `$$ … $$` and `\[ … \]`.
 */
export function displayEquation(body: string, environment?: string): string {
  const clean = body.replace(/\\(label\s*\{[^}]*\}|nonumber\b|notag\b)/g, '');
  if (environment === undefined) return clean;
  const name = environment.replace(/\*$/, '');
  const wrapper = wrappers[name];
  if (wrapper === undefined) return clean;
  const inner = name === 'alignat' ? clean.replace(/^\s*\{[^}]*\}/, '') : clean;
  return wrapper === 'alignedat'
    ? `\\begin{alignedat}{${/^\s*\{([^}]*)\}/.exec(clean)?.[1] ?? '1'}}${inner}\\end{alignedat}`
    : `\\begin{${wrapper}}${inner}\\end{${wrapper}}`;
}
