import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/llm/types.js';
import { paperToRepository } from '../../src/repo/pipeline.js';
import { verifyRepository } from '../../src/repo/verify.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { defaultLimits, type ExecutionRequest, type Sandbox } from '../../src/sandbox/types.js';
import { fakeRun } from './fake-run.js';
import { checklist, designAnswer, labelledCaller, settingsAnswer } from './scripted-paper-model.js';

// A short paper whose data is a torchvision data set.
const paper = `# A Small CNN on CIFAR-10

## Experiments
We train on the CIFAR-10 data set, loaded with torchvision.datasets.CIFAR10 (50,000
training and 10,000 test images of 32x32 pixels in 10 classes). The network has two
convolutional layers with 16 and 32 channels. We train for 30 epochs with Adam and a
learning rate of 0.001, in batches of 128 images, and report test accuracy.`;
const python = (code: string) => `\`\`\`python\n${code}\n\`\`\``;

const config = {
  entries: [
    {
      key: 'data.loader',
      value: 'torchvision.datasets.CIFAR10',
      evidence: 'loaded with torchvision.datasets.CIFAR10',
    },
    { key: 'model.channels', value: [16, 32], evidence: 'layers with 16 and 32 channels' },
    { key: 'training.epochs', value: 30, evidence: 'We train for 30 epochs' },
    { key: 'training.learning_rate', value: 0.001, evidence: 'a learning rate of 0.001' },
    { key: 'training.batch_size', value: 128, evidence: 'in batches of 128 images' },
  ],
  smokeOverrides: [
    { key: 'data.loader', value: 'torchvision.datasets.FakeData' },
    { key: 'data.train_size', value: 64 },
    { key: 'data.test_size', value: 32 },
    { key: 'training.epochs', value: 1 },
  ],
};

const dataPy = `import torchvision
import torchvision.transforms as transforms


def build_datasets(config):
    """The train and test sets: CIFAR-10 (downloaded once into data.root), or FakeData offline."""
    data = config["data"]
    to_tensor = transforms.ToTensor()
    if data["loader"] == "torchvision.datasets.FakeData":
        shape = (3, 32, 32)
        train = torchvision.datasets.FakeData(data["train_size"], shape, 10, to_tensor, random_offset=0)
        test = torchvision.datasets.FakeData(data["test_size"], shape, 10, to_tensor, random_offset=data["train_size"])
        return train, test
    root = data.get("root", "data")
    train = torchvision.datasets.CIFAR10(root, train=True, download=True, transform=to_tensor)
    test = torchvision.datasets.CIFAR10(root, train=False, download=True, transform=to_tensor)
    return train, test`;

const modelPy = `import torch.nn as nn


def build_model(channels):
    """Two convolutional layers, global pooling, a linear classifier for 10 classes."""
    first, second = channels
    return nn.Sequential(
        nn.Conv2d(3, first, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(first, second, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Linear(second, 10),
    )`;

const mainPy = `import argparse

import torch
import yaml
from torch.utils.data import DataLoader

from data import build_datasets
from model import build_model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="config.yaml")
    config = yaml.safe_load(open(parser.parse_args().config))
    torch.manual_seed(0)
    train, test = build_datasets(config)
    model = build_model(config["model"]["channels"])
    training = config["training"]
    optimizer = torch.optim.Adam(model.parameters(), lr=training["learning_rate"])
    loader = DataLoader(train, batch_size=training["batch_size"], shuffle=True)
    for _epoch in range(training["epochs"]):
        for images, labels in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(images), labels).backward()
            optimizer.step()
    correct = 0
    with torch.no_grad():
        for images, labels in DataLoader(test, batch_size=256):
            correct += (model(images).argmax(1) == labels).sum().item()
    print(f"test accuracy: {correct / len(test):.4f}")


if __name__ == "__main__":
    main()`;

const testPy = `import unittest

import torch

from model import build_model


class ModelTest(unittest.TestCase):
    def test_logits_for_ten_classes(self):
        self.assertEqual(build_model([4, 8])(torch.zeros(2, 3, 32, 32)).shape, (2, 10))`;

const answers = {
  'plan-overall':
    '## Method\nA CNN.\n## Data\nCIFAR-10 via torchvision (full); FakeData of the same shape (smoke).\n## Settings\nAdam.\n## Experiments\nTable 1\n## Hyperparameters\nlr 0.001\n## Metrics\naccuracy\n## Unclear\nnothing',
  'plan-design': designAnswer(
    {
      implementationApproach: 'PyTorch and torchvision',
      files: [
        { path: 'data.py', purpose: 'the data sets' },
        { path: 'model.py', purpose: 'the CNN' },
        { path: 'main.py', purpose: 'training and evaluation' },
        { path: 'test_model.py', purpose: 'tests of the CNN' },
      ],
      classDiagram: 'classDiagram\n  class CNN',
      sequenceDiagram: 'sequenceDiagram\n  participant M as main',
    },
    {
      requiredPackages: [
        { name: 'torch', importName: 'torch' },
        { name: 'torchvision', importName: 'torchvision' },
        { name: 'PyYAML', importName: 'yaml' },
        { name: 'pytest', importName: 'pytest' },
      ],
      fileLogic: [
        { path: 'data.py', logic: 'build_datasets(config)' },
        { path: 'model.py', logic: 'build_model(channels)' },
        { path: 'main.py', logic: 'trains and prints test accuracy' },
        { path: 'test_model.py', logic: 'checks the output shape of `model`' },
      ],
      order: ['data.py', 'model.py', 'main.py', 'test_model.py'],
      sharedKnowledge: 'config keys data.loader, model.channels, training.*',
      entryPoint: 'main.py',
    },
  ),
  // The first configuration leaves the smoke run identical to the full one: re-asked.
  'plan-config': (_request: ModelRequest, attempt: number) =>
    settingsAnswer(attempt === 1 ? { ...config, smokeOverrides: [] } : config),
  ...checklist,
  'write data.py': python(dataPy),
  'write model.py': python(modelPy),
  'write main.py': python(mainPy),
  'write test_model.py': python(testPy),
  // The first README does not say which configuration is which: re-asked.
  readme: (_request: ModelRequest, attempt: number) =>
    attempt === 1
      ? '# A Small CNN\n\nRun `bash reproduce.sh`.'
      : '# A Small CNN\n\n`bash reproduce.sh` runs config.yaml on CIFAR-10 (downloaded into data/).\n`python3 main.py --config config_smoke.yaml` runs offline on FakeData.',
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The real sandbox, keeping every request it was given. */
function recordingSandbox(inner: Sandbox): Sandbox & { requests: ExecutionRequest[] } {
  const requests: ExecutionRequest[] = [];
  return {
    kind: inner.kind,
    requests,
    run: (request) => {
      requests.push(request);
      return inner.run(request);
    },
  };
}

const loadYaml = (path: string): unknown =>
  JSON.parse(
    execFileSync(
      '/usr/bin/python3',
      ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))', path],
      { encoding: 'utf8' },
    ),
  ) as unknown;

describe('two data paths: the real data in config.yaml, an offline stand-in in config_smoke.yaml', () => {
  it('a torchvision paper yields a full config that names the real loader and a smoke config that runs offline', async () => {
    const { run, remove } = fakeRun();
    cleanups.push(remove);
    const models = labelledCaller(answers);
    const sandbox = recordingSandbox(await createSandbox('bubblewrap'));
    const result = await paperToRepository({
      paperText: paper,
      title: 'A Small CNN on CIFAR-10',
      models,
      run,
      sandbox,
      interpreter: '/usr/bin/python3',
      limits: { ...defaultLimits, timeoutMs: 120_000 },
      selfRefine: false,
      repairBudgetSteps: 0,
      // The install step has its own test (verify-environment); here pytest stays missing.
      installMissing: false,
      // Small enough that earlier files must become interfaces, except those a test tests.
      earlierBudgetChars: 900,
    });
    const repo = result.repository;
    expect(loadYaml(join(repo, 'config.yaml'))).toMatchObject({
      data: { loader: 'torchvision.datasets.CIFAR10' },
      training: { epochs: 30 },
    });
    expect(loadYaml(join(repo, 'config_smoke.yaml'))).toMatchObject({
      data: { loader: 'torchvision.datasets.FakeData', train_size: 64 },
      training: { epochs: 1 },
    });
    // The smoke run (and the tests) ran in the sandbox without network, and passed.
    expect(sandbox.requests.length).toBe(2);
    expect(sandbox.requests.every((request) => !request.network)).toBe(true);
    expect(sandbox.requests[0]?.args).toEqual(['--config', 'config_smoke.yaml']);
    expect(result.report.verify.ok).toBe(true);
    expect(readFileSync(join(run.dir, 'outputs', 'smoke-1.txt'), 'utf8')).toMatch(
      /test accuracy: \d\.\d{4}/,
    );
    expect(result.report.tests).toMatchObject({ ok: true, passed: 1, files: ['test_model.py'] });

    const calls = (prefix: string) =>
      models.requests.filter((request) => request.label?.startsWith(prefix));
    // The prompts ask for both data paths and no longer forbid downloads.
    for (const request of models.requests) {
      expect(request.system).not.toMatch(/no downloads/i);
      expect(request.system).toContain("loads the paper's real data the way the field does");
      expect(request.system).toContain('runs offline on a CPU');
    }
    // An empty smokeOverrides is refused with the reason.
    expect(calls('plan-config')[1]?.messages.at(-1)?.content).toContain('smokeOverrides is empty');
    // The paper and design come first, in the system prompt, the same for every call of a stage.
    const planning = calls('plan-');
    expect(new Set(planning.map((request) => request.system)).size).toBe(1);
    expect(planning[0]?.system).toContain('<paper>\n# A Small CNN on CIFAR-10');
    // Every file is written with the same system prompt: the design and both configurations,
    // config_smoke.yaml as the settings it changes.
    const writes = calls('write');
    expect(new Set(writes.map((request) => request.system)).size).toBe(1);
    expect(writes[0]?.system).toContain('<design>');
    expect(writes[0]?.system).toContain('<config.yaml>');
    expect(writes[0]?.system).toContain('<config_smoke.yaml>');
    expect(writes[0]?.system).toContain('data.loader: "torchvision.datasets.FakeData"');
    // main.py sees earlier files as interfaces; the test file gets model.py's whole code.
    expect(result.report.interfacesUsed['main.py']).toContain('data.py');
    expect(result.report.interfacesUsed['test_model.py'] ?? []).not.toContain('model.py');
    const testPrompt = calls('write test_model.py')[0]?.messages[0]?.content ?? '';
    expect(testPrompt).toContain(`### model.py\n\`\`\`python\n${modelPy}`);
    // The README must say which configuration is which.
    const readmes = calls('readme');
    expect(readmes).toHaveLength(2);
    expect(readmes[1]?.messages.at(-1)?.content).toContain(
      'does not mention config.yaml, config_smoke.yaml',
    );
    expect(readFileSync(join(repo, 'README.md'), 'utf8')).toContain('config_smoke.yaml');
  });

  it('--network lets the smoke run reach the network', async () => {
    const requests: ExecutionRequest[] = [];
    const sandbox: Sandbox = {
      kind: 'none',
      run: (request) => {
        requests.push(request);
        return Promise.resolve({
          exitCode: 0,
          signal: null,
          timedOut: false,
          memoryExceeded: false,
          durationMs: 1,
          output: 'ok',
          outputBytes: 2,
          truncated: false,
          outputPath: request.outputPath,
          blocked: [],
        });
      },
    };
    const common = {
      sandbox,
      repoDir: '/nonexistent',
      entryPoint: 'main.py',
      interpreter: '/usr/bin/python3',
      limits: defaultLimits,
      outputsDir: '/nonexistent/outputs',
      repairBudgetSteps: 0,
    };
    await verifyRepository({ ...common, network: true });
    await verifyRepository(common);
    expect(requests.map((request) => request.network)).toEqual([true, false]);
  });
});
