/**
 * `codify explore` as examples/recordings/explore-wine.jsonl was recorded: the papers and
 * flags after `explore`, before the model. A replay must ask what the recording holds, so
 * every test that replays the session takes them from here.
 */
export const exploreWineArgs = [
  'examples/explore/paper.md',
  ...['--related', 'examples/explore/related.txt', '--ideas', '2', '--refine-rounds', '0'],
  ...['--run', 'top:2', '--code', 'examples/explore/prototype', '--max-steps', '4'],
  ...['--max-seeds', '3'],
];
