import { describe, expect, it } from 'vitest';
import { judgeScore, splitIntoParts } from '../../../src/eval/judging/judge-score.js';
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

  it('judges a repository too large for one prompt in parts, weighted by size', async () => {
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
