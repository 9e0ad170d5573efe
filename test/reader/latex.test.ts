import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PaperError } from '../../src/reader/paper-error.js';
import { readPaper } from '../../src/reader/read-paper.js';
import { renderDocument } from '../../src/reader/render-document.js';

async function project(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'codify-latex-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(folder, name, '..'), { recursive: true });
    await writeFile(join(folder, name), text);
  }
  return folder;
}

async function failure(path: string): Promise<PaperError> {
  const error: unknown = await readPaper(path).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof PaperError)) throw new Error(`expected a PaperError for ${path}`);
  return error;
}

const main = `\\documentclass{article}
\\newcommand{\\vect}[1]{\\mathbf{#1}}
\\newcommand{\\pair}[2][0]{(#1, #2)}
\\renewcommand*{\\E}{\\mathbb{E}}
\\def\\half{\\frac{1}{2}}
\\def\\sq#1{#1^2}
\\DeclareMathOperator*{\\argmin}{arg\\,min}
\\title{Macro \\emph{Paper}}
\\author{First Author\\thanks{Work done elsewhere.} \\\\ Some University \\and Second Author}
\\begin{document}
\\maketitle
\\begin{abstract}
We define things. % a comment that must vanish
\\end{abstract}
\\section{Introduction}\\label{sec:intro}
Text with 50\\% of cases~\\cite{a, b} and see Section~\\ref{sec:method}; % gone
\\input{parts/method}
\\section*{Acknowledgments}
Thanks.
\\bibliographystyle{plain}
\\bibliography{refs}
\\end{document}
`;

const method = `\\section{Method}\\label{sec:method}
\\subsection{Objective}
% \\input{parts/never-read}
\\begin{align}
  \\vect{w}^\\star &= \\argmin_{\\vect{w}} \\E[\\sq{y - \\vect{w}^\\top \\vect{x}}] \\label{eq:obj} \\\\
  g &= \\half \\pair{a} + \\pair[b]{c} \\nonumber
\\end{align}
As in Eq.~\\eqref{eq:obj}, we use \\textbf{bold} and \\texttt{code}.
\\[ \\vect{z} = 0 \\]
\\begin{table}
\\caption{Scores.}
\\begin{tabular}{|l|c|}
\\hline
Name & \\multicolumn{1}{c}{Score} \\\\ \\hline
A & $0.5$ \\\\
B & 0.7 \\\\ \\hline
\\end{tabular}
\\end{table}
\\begin{algorithm}
\\caption{Fit}
\\begin{algorithmic}[1]
\\Require data $X$
\\For{$t = 1$ to $T$}
  \\If{converged}
    \\State \\Return $w$ \\Comment{early stop}
  \\Else
    \\State update $w$
  \\EndIf
\\EndFor
\\end{algorithmic}
\\end{algorithm}
\\begin{thebibliography}{1}
\\bibitem{a} Hidden Reference. 1999.
\\end{thebibliography}
`;

describe('readPaper on LaTeX', () => {
  it('resolves \\input, expands macros, strips comments, keeps equations, tables, algorithms', async () => {
    const folder = await project({ 'main.tex': main, 'parts/method.tex': method });
    const document = await readPaper(join(folder, 'main.tex'));
    expect(document.title).toBe('Macro *Paper*');
    expect(document.authors).toEqual(['First Author', 'Second Author']);
    expect(document.abstract).toBe('We define things.');
    expect(document.sections.map((section) => [section.heading, section.level])).toEqual([
      ['Introduction', 1],
      ['Method', 1],
      ['Objective', 2],
      ['Acknowledgments', 1],
    ]);
    const [introduction, , objective] = document.sections;
    expect(introduction?.text).toBe('Text with 50% of cases [a, b] and see Section 2;');
    expect(objective?.equations).toEqual([
      '\\begin{aligned} \\mathbf{w}^\\star &= \\operatorname*{arg\\,min}_{\\mathbf{w}} \\mathbb{E}[y - \\mathbf{w}^\\top \\mathbf{x}^2] \\\\ g &= \\frac{1}{2} (0, a) + (b, c) \\end{aligned}',
      '\\mathbf{z} = 0',
    ]);
    expect(objective?.text).toContain('As in Eq. (1), we use **bold** and `code`.');
    expect(objective?.tables).toEqual([
      {
        caption: 'Scores',
        rows: [
          ['Name', 'Score'],
          ['A', '$0.5$'],
          ['B', '0.7'],
        ],
      },
    ]);
    expect(objective?.algorithms).toEqual([
      {
        caption: 'Fit',
        text: [
          'Require: data $X$',
          'for $t = 1$ to $T$ do',
          '  if converged then',
          '    return $w$ // early stop',
          '  else',
          '    update $w$',
          '  end if',
          'end for',
        ].join('\n'),
      },
    ]);
    const text = renderDocument(document);
    expect(text).not.toContain('comment');
    expect(text).not.toContain('Hidden Reference');
    expect(text).not.toContain('refs');
  });

  it('finds the main file of a folder', async () => {
    const folder = await project({
      'paper.tex': main,
      'parts/method.tex': method,
      'macros.tex': '\\newcommand{\\x}{y}',
    });
    const document = await readPaper(folder);
    expect(document.source.path).toBe(join(folder, 'paper.tex'));
    expect(document.title).toBe('Macro *Paper*');
  });

  it('names a missing \\input file and the file that includes it', async () => {
    const folder = await project({ 'main.tex': main });
    const error = await failure(join(folder, 'main.tex'));
    expect(error.code).toBe('include-missing');
    expect(error.message).toContain('\\input{parts/method}');
    expect(error.message).toContain(join(folder, 'parts/method.tex'));
    expect(error.message).toContain(join(folder, 'main.tex'));
  });

  it('reports an \\input cycle with the chain of files', async () => {
    const folder = await project({
      'main.tex': '\\documentclass{article}\\begin{document}\\input{a}\\end{document}',
      'a.tex': '\\section{A}\\input{b}',
      'b.tex': '\\section{B}\n\\input a.tex\n',
    });
    const error = await failure(join(folder, 'main.tex'));
    expect(error.code).toBe('include-cycle');
    expect(error.message).toContain('main.tex → a.tex → b.tex → a.tex');
  });

  it('refuses a folder with several main files, naming them', async () => {
    const folder = await project({ 'one.tex': main, 'two.tex': main });
    const error = await failure(folder);
    expect(error.code).toBe('unknown-format');
    expect(error.message).toContain('one.tex, two.tex');
  });
});

describe('readPaper on LaTeX tables with rule and spacing commands', () => {
  it('keeps only the cell text, as the Transformer paper’s tables print', async () => {
    const folder = await project({
      'main.tex': `\\documentclass{article}
\\begin{document}
\\section{Results}
\\begin{table}
\\caption{Layer costs.}
\\begin{tabular}{lcc}
\\toprule[1pt]
Layer Type & Complexity & Operations \\\\[2pt]
\\specialrule{1pt}{-1pt}{0pt}
\\rule{0pt}{2.0ex}Self-Attention & $O(n^2 \\cdot d)$ & $O(1)$ \\\\
\\cmidrule(lr){2-3}
Recurrent \\vspace{1pt} & $O(n \\cdot d^2)$ & $O(n)$ \\\\ \\hline
\\noalign{\\vskip 2pt}
Convolutional\\strut & $O(k \\cdot n \\cdot d^2)$ & $O(1)$ \\\\[-1.5ex]
\\addlinespace[3pt]
Restricted & $O(r \\cdot n \\cdot d)$ & $O(1)$ \\\\
\\bottomrule
\\end{tabular}
\\end{table}
\\end{document}
`,
    });
    const document = await readPaper(join(folder, 'main.tex'));
    expect(document.sections[0]?.tables).toEqual([
      {
        caption: 'Layer costs',
        rows: [
          ['Layer Type', 'Complexity', 'Operations'],
          ['Self-Attention', '$O(n^2 \\cdot d)$', '$O(1)$'],
          ['Recurrent', '$O(n \\cdot d^2)$', '$O(n)$'],
          ['Convolutional', '$O(k \\cdot n \\cdot d^2)$', '$O(1)$'],
          ['Restricted', '$O(r \\cdot n \\cdot d)$', '$O(1)$'],
        ],
      },
    ]);
  });
});
