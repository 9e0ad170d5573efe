/**
 * How well the PDF reader reads papers typeset by pdflatex: for each fixture in
 * test/fixtures/pdflatex/, the word similarity of its reading with the reading of the same
 * paper's LaTeX source (2·LCS / total words, display equations aside), the display equations
 * found, the tables invented, and the time to read the PDF.
 */
import { readPaper } from '../src/reader/read-paper.js';
import { compareReadings } from '../src/reader/reading-agreement.js';
import { latexPdfFixtures } from '../test/reader/latex-pdf-fixtures.js';

export async function runBench(): Promise<void> {
  for (const fixture of latexPdfFixtures) {
    const reference = await readPaper(fixture.tex);
    const started = performance.now();
    const reading = await readPaper(fixture.pdf);
    const milliseconds = performance.now() - started;
    const agreement = compareReadings(reference, reading);
    const equations = agreement.equationSimilarities.length;
    const found = equations - agreement.missingEquations.length;
    console.log(
      `${fixture.name.padEnd(24)} words ${(100 * agreement.wordSimilarity).toFixed(1)}%` +
        ` (${agreement.readingWords} read, ${agreement.referenceWords} in the LaTeX)` +
        `  equations ${found}/${equations}` +
        `  invented tables ${agreement.inventedTables.length}` +
        `  read in ${milliseconds.toFixed(0)} ms`,
    );
  }
}
