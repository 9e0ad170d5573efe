import { describe, expect, it } from 'vitest';
import {
  defaultJudgeSamples,
  defaultJudgeTemperature,
  judgeScore,
  splitIntoParts,
} from '../../../src/eval/judging/judge-score.js';
import { scriptedJudge } from '../scripted-judge.js';

const answer = (score: number, critique = 'the learning rate differs from the paper') =>
  `\`\`\`json\n{"critiques": [{"file": "train.py", "function": "train", "severity": "medium", "critique": "${critique}"}], "score": ${score}}\n\`\`\``;

describe('judgeScore', () => {
  it('averages the samples, keeps every critique and re-asks an invalid answer', async () => {
    const judge = scriptedJudge((request, attempt) => {
      if (request.label === 'judge score 1') return attempt === 1 ? 'a four, I think' : answer(4);
      if (request.label === 'judge score 2') return answer(5);
      return answer(3);
    });
    const result = await judgeScore({
      paper: '# Mixup',
      files: [{ path: 'train.py', content: 'print(1)\n' }],
      judge,
      samples: 3,
      item: 'mixup',
      runDir: '/r',
    });
    expect(result.samples).toEqual([4, 5, 3]);
    expect(result.score).toBe(4);
    expect(result.parts).toBe(1);
    expect(result.critiques).toHaveLength(3);
    expect(judge.requests).toHaveLength(4);
    expect(judge.requests[1]?.messages.at(-1)?.content).toMatch(/could not be used/);
  });

  it('judges the whole paper and repository in one prompt, each sample at the temperature asked', async () => {
    const judge = scriptedJudge(() => answer(4));
    // 200 000 characters: codify once cut the paper at 60 000 and the parts at 40 000.
    const paper = `# Mixup\n${'The method mixes inputs. '.repeat(8_000)}\nTHE END OF THE PAPER`;
    const files = Array.from({ length: 12 }, (_, index) => ({
      path: `module_${index}.py`,
      content: `def f_${index}():\n    return ${index}\n`.repeat(200),
    }));
    const result = await judgeScore({
      paper,
      files,
      judge,
      samples: defaultJudgeSamples,
      temperature: defaultJudgeTemperature,
      item: 'mixup',
      runDir: '/r',
    });
    expect(defaultJudgeSamples).toBe(8);
    expect(judge.requests.map((request) => request.label)).toEqual(
      Array.from({ length: 8 }, (_, index) => `judge score ${index + 1}`),
    );
    expect(judge.requests.every((request) => request.temperature === 1)).toBe(true);
    const prompt = judge.requests[0]?.messages[0]?.content ?? '';
    expect(prompt).toContain('THE END OF THE PAPER');
    for (const file of files) expect(prompt).toContain(`## ${file.path}`);
    expect(result).toMatchObject({ score: 4, parts: 1, temperature: 1 });
    expect(result.split).toBeUndefined();
  });

  it("splits only what the judge's context cannot hold, and says so", async () => {
    const judge = scriptedJudge(() => answer(3));
    const files = [
      { path: 'a.py', content: 'a = 1\n'.repeat(4_000) },
      { path: 'b.py', content: 'b = 2\n'.repeat(4_000) },
    ];
    // 20k tokens: 80 000 characters, 40 000 of them kept for the answer: one file per part.
    const result = await judgeScore({
      paper: '# P',
      files,
      judge,
      samples: 1,
      contextTokens: 20_000,
      item: 'p',
      runDir: '/r',
    });
    expect(result.parts).toBe(2);
    expect(result.split).toMatch(/does not fit the judge's context of 20000 tokens.*2 parts/);
    const whole = await judgeScore({
      paper: '# P',
      files,
      judge,
      samples: 1,
      contextTokens: 200_000,
      item: 'p',
      runDir: '/r',
    });
    expect(whole.parts).toBe(1);
    expect(whole.split).toBeUndefined();
  });

  it('judges a repository in fixed parts when asked (judge.part_chars), weighted by size', async () => {
    const judge = scriptedJudge((request) =>
      answer(request.messages[0]?.content.includes('## big.py') === true ? 2 : 5),
    );
    const files = [
      { path: 'big.py', content: 'x = 1\n'.repeat(500) },
      { path: 'small.py', content: 'y = 2\n'.repeat(100) },
    ];
    expect(splitIntoParts(files, 3000).map((part) => part.map((file) => file.path))).toEqual([
      ['big.py'],
      ['small.py'],
    ]);
    const result = await judgeScore({
      paper: '# P',
      files,
      judge,
      samples: 1,
      budgetChars: 3000,
      item: 'p',
      runDir: '/r',
    });
    expect(result.parts).toBe(2);
    // big.py is cut to 3000 characters (plus the cut note), small.py is 600.
    expect(result.score).toBeGreaterThan(2);
    expect(result.score).toBeLessThan(2.75);
    expect(judge.requests[0]?.messages[0]?.content).toContain('(part 1 of 2)');
    expect(result.split).toMatch(/2 parts of at most 3000 characters \(judge\.part_chars\)/);
  });

  it("is reference-based when given the authors' repository: the reference is in the prompt", async () => {
    const judge = scriptedJudge(() => answer(3));
    const result = await judgeScore({
      paper: '# Mixup',
      files: [{ path: 'train.py', content: 'print(1)\n' }],
      reference: [{ path: 'official/mixup.py', content: 'lam = np.random.beta(alpha, alpha)\n' }],
      judge,
      samples: 1,
      item: 'mixup',
      runDir: '/r',
    });
    expect(result.score).toBe(3);
    const prompt = judge.requests[0]?.messages[0]?.content ?? '';
    expect(judge.requests[0]?.label).toBe('judge reference score 1');
    expect(prompt).toContain('# The reference implementation');
    expect(prompt).toContain('## official/mixup.py');
    expect(prompt.indexOf('official/mixup.py')).toBeLessThan(prompt.indexOf('## train.py'));
  });
});
