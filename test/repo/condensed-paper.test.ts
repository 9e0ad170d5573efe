import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  citedByDesign,
  condensePaper,
  condenseSection,
  designTerms,
} from '../../src/repo/condensed-paper.js';
import { paperToRepository } from '../../src/repo/pipeline.js';
import { defaultLimits } from '../../src/sandbox/types.js';
import { fakeRun } from './fake-run.js';
import { checklist, designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

const relatedProse =
  'Kernel methods have a long history in machine learning and remain popular for their guarantees.';
const resultsProse =
  'The approximation is close to the exact kernel once the feature count is large enough.';

const paper = `# Random features on digits

Authors: A. Author

## Abstract

We approximate a Gaussian kernel with random features. The classifier reaches 0.98 accuracy.

## 1 Introduction

Kernel machines scale badly with the number of training points. They need the whole Gram matrix in memory, which grows with the square of the data. We revisit an old remedy that is easy to implement.

## 2 Related Work

${relatedProse} Rahimi and Recht (2007) proposed random Fourier features. Later work studied their variance in depth and proposed many extensions. Quasi-random features [4] halve the error at 500 features. Others learn the feature map end to end, which we do not do here. Many surveys compare these approaches at length.

## 3 Method

### 3.1 Feature map

Each input is mapped with cosines of random projections:

$$ z(x) = \\sqrt{2 / D} \\cos(\\Omega^\\top x + b) $$

The map is drawn once per seed and reused for every split of the data.

## 4 Results

${resultsProse} With D = 2000 features the test accuracy is 0.98. The table below lists every setting we tried and the time each took to train on a laptop.

## 5 Conclusion

Random features make kernel machines cheap. They are simple to implement and to tune. Future work could learn the frequencies.

## Acknowledgements

We thank the reviewers for their helpful comments on an early draft.
`;

describe('condensePaper', () => {
  const quotes = ['With D = 2000 features'];
  const terms = designTerms('Files: `features.py` holds `RandomFeatures`; reads num_features.', [
    'features.num_features',
  ]);

  it('keeps the method, equations and any section a config quote cites in full, and condenses related work', () => {
    const result = condensePaper(paper, { quotes, terms });
    // The method and its subsection stay word for word, equation included.
    expect(result.text).toContain(
      '$$ z(x) = \\sqrt{2 / D} \\cos(\\Omega^\\top x + b) $$\n\nThe map is drawn once per seed and reused for every split of the data.',
    );
    expect(result.full).toEqual(expect.arrayContaining(['3.1 Feature map', '4 Results']));
    // Results holds a config quote: its prose without numbers stays too.
    expect(result.text).toContain(resultsProse);
    // Related work is condensed: its first sentence and the sentence with a number remain.
    expect(result.condensed).toEqual(
      expect.arrayContaining(['Abstract', '1 Introduction', '2 Related Work', '5 Conclusion']),
    );
    expect(result.text).toContain(relatedProse);
    expect(result.text).toContain('Quasi-random features [4] halve the error at 500 features.');
    expect(result.text).not.toContain('Many surveys compare these approaches at length.');
    expect(result.text).not.toContain('We revisit an old remedy');
    // A citation's year is not a number worth keeping.
    expect(result.text).not.toContain('Rahimi and Recht (2007) proposed');
    expect(result.text).toMatch(/## 2 Related Work\n\n\(Condensed: [^)]*\d+ of \d+ characters\.\)/);
    // Acknowledgements keep only their heading.
    expect(result.text).not.toContain('We thank the reviewers');
    expect(result.text.length).toBeLessThan(paper.length);
  });

  it('keeps a section whole once a config quote comes from it, whatever its heading', () => {
    const quoted = condensePaper(paper, {
      quotes: ['Later work studied their variance in depth'],
      terms,
    });
    expect(quoted.full).toContain('2 Related Work');
    expect(quoted.text).toContain('Many surveys compare these approaches at length.');
  });

  it('keeps a section whole when the design cites it, its table or its title', () => {
    const cited = condensePaper(paper, {
      quotes: [],
      terms,
      design: 'main.py prints the related work comparison of Section 2 and the conclusion.',
    });
    expect(cited.full).toContain('2 Related Work');
    expect(cited.condensed).toContain('5 Conclusion');
    expect(citedByDesign('4 Results', 'Table 3: accuracy per D', 'rows of Table 3')).toBe(true);
    expect(citedByDesign('4 Results', 'Table 3: accuracy per D', 'rows of Table 31')).toBe(false);
    expect(citedByDesign('3 Method', '', 'see Section 3.1')).toBe(false);
    expect(citedByDesign('3.1 Feature map', '', 'see Section 3.1.')).toBe(true);
    expect(citedByDesign('Appendix B: Data Cards', '', 'from appendix B')).toBe(true);
    expect(citedByDesign('Appendix B: Data Cards', '', 'the data cards list')).toBe(true);
    expect(citedByDesign('5 Results', '', 'results are printed')).toBe(false);
    expect(citedByDesign('5 Results', '', 'as the Results section says')).toBe(true);
  });

  it('does not take a heading inside a code fence for a section', () => {
    const fenced = `# T\n\n## Method\n\n\`\`\`python\n# not a heading\nx = 1\n\`\`\`\n\n## Discussion\n\nFirst sentence here. Second sentence here without anything.`;
    const result = condensePaper(fenced, { quotes: [], terms: [] });
    expect(result.text).toContain('# not a heading\nx = 1');
    expect(result.condensed).toEqual(['Discussion']);
  });

  it('keeps a table caption but not its rows, and reads section numbers off headings', () => {
    const body =
      'Results first.\nTable 2: Accuracy per width.\n| width | accuracy |\n| 64 | 0.97 |';
    expect(condenseSection(body, [], 400)).toBe('Results first. Table 2: Accuracy per width.');
    expect(citedByDesign('A Note', '', 'as a note says')).toBe(true);
    expect(citedByDesign('A.2 Proofs of convergence', '', 'proofs of convergence')).toBe(true);
  });

  it('keeps a sentence naming a design term and always the first one', () => {
    const body =
      'This section is about background. Nothing to see here at all, really. The RandomFeatures map is cached. More prose follows without any detail.';
    const short = condenseSection(body, ['RandomFeatures'], 400);
    expect(short).toBe('This section is about background. The RandomFeatures map is cached.');
  });
});

describe('the paper pipeline sends the condensed paper after planning', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  const answers = {
    'plan-overall':
      '## Method\nrff\n## Data\ndigits\n## Settings\nfit\n## Experiments\nTable 1\n## Hyperparameters\nD 2000\n## Metrics\naccuracy\n## Unclear\nnothing',
    'plan-design': designAnswer(
      {
        implementationApproach: 'numpy only',
        files: [{ path: 'main.py', purpose: 'entry point' }],
        classDiagram: 'classDiagram\n  class Main',
        sequenceDiagram: 'sequenceDiagram\n  participant M as main',
      },
      {
        requiredPackages: [{ name: 'numpy', importName: 'numpy' }],
        fileLogic: [{ path: 'main.py', logic: 'reads features.num_features' }],
        order: ['main.py'],
        sharedKnowledge: 'config key features.num_features',
        entryPoint: 'main.py',
      },
    ),
    'plan-config': settingsAnswer({
      entries: [{ key: 'features.num_features', value: 2000, evidence: 'With D = 2000 features' }],
      smokeOverrides: [{ key: 'features.num_features', value: 10 }],
    }),
    ...checklist,
    'write main.py': '```python\nprint("accuracy:", 0.98)\n```',
    readme:
      '# Random features\n\n`bash reproduce.sh` runs config.yaml; `python3 main.py --config config_smoke.yaml` the smoke run.',
  };

  it('planning sees the whole paper; a file whose design names no section the condensed one, with the quoted section whole', async () => {
    const models = labelledCaller(answers);
    const { run, events, remove } = fakeRun();
    cleanups.push(remove);
    const result = await paperToRepository({
      paperText: paper,
      title: 'Random features on digits',
      models,
      run,
      sandbox: { kind: 'none', run: () => Promise.reject(new Error('verify is skipped')) },
      interpreter: 'python3',
      limits: defaultLimits,
      selfRefine: false,
      repairBudgetSteps: 0,
      skipVerify: true,
    });
    const system = (label: string) =>
      models.requests.find((request) => request.label?.startsWith(label))?.system ?? '';
    for (const label of ['plan-overall', 'plan-design', 'plan-config'])
      expect(system(label)).toContain('Many surveys compare these approaches at length.');
    // The design names no paper sections for main.py: its request holds the condensed paper.
    const write = models.requests.find((request) => request.label === 'write main.py');
    const request = write?.messages[0]?.content ?? '';
    expect(write?.system).toContain('<design>');
    expect(write?.system).not.toContain('<paper>');
    expect(request).toMatch(/## 2 Related Work\n\n\(Condensed: /);
    expect(request).not.toContain('Many surveys compare these approaches at length.');
    expect(request).toContain(resultsProse);
    expect(request).toContain('The map is drawn once per seed and reused for every split');
    const notice = events.find(
      (event) => event.type === 'log' && event.message.startsWith('paper condensed'),
    );
    expect(notice).toBeDefined();
    // The report and the run folder say what the later stages saw.
    expect(result.report.paper?.condensed).toContain('2 Related Work');
    expect(result.report.paper?.condensedCharacters).toBeLessThan(paper.length);
    expect(readFileSync(join(run.dir, 'paper-condensed.md'), 'utf8')).toMatch(
      /## 2 Related Work\n\n\(Condensed: /,
    );
    expect(readFileSync(result.reportPath, 'utf8')).toContain(
      `Paper: ${paper.length} characters for planning;`,
    );
  });
});
