export type {
  PaperAlgorithm,
  PaperDocument,
  PaperFormat,
  PaperSection,
  PaperSource,
  PaperTable,
} from './document.js';
export { paperFormats } from './document.js';
export { PaperError } from './paper-error.js';
export type { PaperErrorCode } from './paper-error.js';
export { readPaper } from './read-paper.js';
export { readMarkdown } from './read-markdown.js';
export { readLatex, parseLatex } from './read-latex.js';
export { readPdf } from './read-pdf.js';
export { readText } from './read-text.js';
export { renderDocument } from './render-document.js';
export { fitDocument } from './fit-document.js';
export type { FitOptions, FittedDocument, Summarize } from './fit-document.js';
