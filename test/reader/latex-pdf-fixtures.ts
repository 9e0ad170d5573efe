import { fileURLToPath } from 'node:url';

/**
 * The pdflatex-built PDFs in test/fixtures/pdflatex/ (scripts/build-latex-pdfs.ts) and the
 * LaTeX source each was built from.
 */
export const latexPdfFixtures = [
  { name: 'mixup-tabular', tex: 'examples/papers/mixup-tabular/paper.tex' },
  { name: 'random-fourier-features', tex: 'examples/papers/random-fourier-features/paper.tex' },
  { name: 'warmup-attention', tex: 'test/fixtures/papers/warmup-attention/paper.tex' },
  { name: 'warmup-attention-cm', tex: 'test/fixtures/papers/warmup-attention-cm/paper.tex' },
  { name: 'aligned-math', tex: 'test/fixtures/papers/aligned-math/paper.tex' },
  { name: 'wide-floats', tex: 'test/fixtures/papers/wide-floats/paper.tex' },
  { name: 'wide-abstract', tex: 'test/fixtures/papers/wide-abstract/paper.tex' },
  { name: 'multicol-full-width', tex: 'test/fixtures/papers/multicol-full-width/paper.tex' },
  { name: 'accents', tex: 'test/fixtures/papers/accents/paper.tex' },
  { name: 'accents-t1', tex: 'test/fixtures/papers/accents-t1/paper.tex' },
].map(({ name, tex }) => ({
  name,
  tex: fileURLToPath(new URL(`../../${tex}`, import.meta.url)),
  pdf: fileURLToPath(new URL(`../fixtures/pdflatex/${name}.pdf`, import.meta.url)),
}));
