import type { ExperimentRecord } from '../../../src/explore/experiments/run-experiments.js';
import { formatNumber, formatSigned } from '../model/format-number.js';

/**
 * An experiment's paired effects (the idea and the baseline on the same seeds, per metric)
 * and the judge's verdict on the hypothesis by its stop criteria, as experiments.json keeps them.
 */
export function PairedEffects({ experiment }: { experiment: ExperimentRecord }) {
  const paired = experiment.paired;
  const verdict = experiment.verdict;
  if (paired === undefined && verdict === undefined && experiment.verdictProblem === undefined) {
    return null;
  }
  return (
    <div className="paired-effects">
      {paired !== undefined && paired.metrics.length > 0 ? (
        <table>
          <caption>Paired with the baseline on seeds {paired.seeds.join(', ')}</caption>
          <thead>
            <tr>
              <th>metric</th>
              <th>idea mean</th>
              <th>baseline mean</th>
              <th title="mean of the per-seed differences, positive is better; ± t(97.5 %, n − 1)·sd/√n">
                paired effect
              </th>
            </tr>
          </thead>
          <tbody>
            {paired.metrics.map((metric) => (
              <tr
                key={metric.name}
                className={metric.effect?.beyondMargin === true ? 'beyond-margin' : 'within-margin'}
              >
                <td>
                  {metric.name}
                  {metric.goal === null ? ' (no goal: idea − baseline)' : ` (${metric.goal})`}
                </td>
                <td>{metric.ideaMean === null ? '—' : formatNumber(metric.ideaMean)}</td>
                <td>{metric.baselineMean === null ? '—' : formatNumber(metric.baselineMean)}</td>
                <td>
                  {metric.effect === null
                    ? 'fewer than two pairs'
                    : `${formatSigned(metric.effect.effect)} ± ${formatNumber(metric.effect.margin)} (${metric.effect.beyondMargin ? 'beyond' : 'within'} the margin, ${metric.effect.pairs.length} pairs)`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {verdict !== undefined ? (
        <p className={`hypothesis-verdict ${verdict.verdict}`}>
          Hypothesis <b>{verdict.verdict}</b> by its stop criteria: {verdict.reason}
        </p>
      ) : experiment.verdictProblem !== undefined ? (
        <p className="hypothesis-verdict none">No verdict: {experiment.verdictProblem}</p>
      ) : null}
    </div>
  );
}
